"""The only code that changes game state in the database (DESIGN.md §2, STYLE.md "Django layer").

Every service is keyword-only and does one user intent in one transaction: lock the match row,
check the expected version, apply the engine, append the event, save the snapshot, bump the
version, and broadcast *after commit* (``write``).  A refusal raises ``ActionRefused`` (or the
engine's ``RulesError``) and changes nothing: the transaction rolls back and nothing is broadcast.

One module per sub-domain; this package's names are the public ones of all of them:

- ``tables``: create, seats, start, rematch, abandon      - ``turns``: moves, drafts, the hand's order
- ``rounds``: deal, close, ready                           - ``clock``: bots, timers, next rounds
- ``connections``: table sockets and their heartbeats      - ``chat``: the table chat
- ``write``: the shared write path; ``refusals`` and ``retry``: refusals and transient failures
"""

from games.models import (  # noqa: F401  (the table's timings, read as services.X)
    BOT_NAMES,
    BOT_POLICIES,
    DISCONNECT_GRACE,
    MISSED_TURNS_FOR_AUTOPILOT,
    READY_TIMEOUT,
    TIMER_CHOICES,
)
from games.services.chat import (  # noqa: F401
    CHAT_RATE,
    MAX_CHAT_LENGTH,
    chat_post,
)
from games.services.clock import (  # noqa: F401
    CLOCK_BACKOFF,
    CLOCK_BACKOFF_MAX,
    CLOCK_MAX_FAILURES,
    CLOCK_STATUSES,
    ClockStep,
    clock_step,
    match_tick,
    pending_step,
    run_until_human,
    tick_due,
)
from games.services.connections import (  # noqa: F401
    SEEN_BATCH,
    presence_sweep,
    table_connection_close,
    table_connection_open,
    table_connections_seen,
)
from games.services.refusals import (  # noqa: F401
    ActionRefused,
    StaleVersion,
    TableBusy,
)
from games.services.retry import (  # noqa: F401
    RETRY_ATTEMPTS,
    RETRY_PAUSE,
    TRANSIENT_SQLSTATES,
    is_pool_timeout,
    is_transient,
    with_retry,
)
from games.services.rounds import (  # noqa: F401
    round_ready,
)
from games.services.tables import (  # noqa: F401
    deals_reveal,
    match_abandon,
    match_create,
    match_create_seated,
    match_rematch,
    match_start,
    seat_add_bot,
    seat_join,
    seat_leave,
    seat_quick,
    seat_refusal,
    seat_refusal_inputs,
    seat_refusal_shown,
    seat_remove_bot,
    seat_to_bot,
)
from games.services.turns import (  # noqa: F401
    DRAFT_REFUSALS,
    GIN_LAYOUT_KEYS,
    draft_reset,
    draft_update,
    gin_knock_layout,
    hand_sort,
    turn_submit,
)
