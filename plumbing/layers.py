"""The embedded (single-process) channel layer.

Channels' ``InMemoryChannelLayer`` runs its expiry sweep — every queued message of every
channel, every member of every group — on each ``receive`` and ``group_send``.  Each table
socket has a ``receive`` waiting, so one broadcast to a table's four sockets made four sweeps
over every socket of the process: at 1,000 sockets that sweep alone took about 14 % of the
process's CPU in ``bench/ws_load.py``.  Expiry is a clean-up of messages nobody reads (60 s
by default) and of day-old group memberships; once a second is plenty.

The sweep also drops the groups it has emptied: Channels' own sweep leaves an empty group behind
for every table whose last membership lapsed (``group_discard`` removes an empty group, the
sweep does not), and a long-running process shows thousands of tables.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

SWEEP_EVERY = 1.0  # seconds


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    _last_sweep = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._last_sweep < SWEEP_EVERY:
            return
        self._last_sweep = now
        super()._clean_expired()
        for group in [g for g, members in self.groups.items() if not members]:
            del self.groups[group]
