"""Rate limits on the players' fair-play actions (blocks, mutes, reports): per account.

django-ratelimit's fixed-window counters in the default cache, as ``accounts.ratelimit`` uses for
log-in; the rates are settings (``RUMMYHUB_FAIRPLAY_LIMIT``, ``RUMMYHUB_REPORT_LIMIT``).  Every
attempt counts, refused or not, before anything else is looked at.
"""

from __future__ import annotations

import math

from django_ratelimit.core import get_usage


def wait_minutes(*, user, group: str, rate: str) -> int | None:
    """Count one action of ``user`` in ``group``; the minutes to wait if it is over ``rate``, else None."""
    usage = get_usage(None, group=group, key=lambda _group, _request: str(user.pk), rate=rate, increment=True)
    if usage is not None and usage["should_limit"]:
        return max(1, math.ceil(usage["time_left"] / 60))
    return None
