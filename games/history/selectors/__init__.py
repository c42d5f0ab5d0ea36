"""Reads of the match history feature: lists, match pages, replays, player statistics, leaderboards.

Every function returns plain data for the templates (no querysets in templates).  One door to a
match: ``match_for_viewer`` answers "missing" and "private and not yours" the same way (404).  Live
matches never show a hand, nor the seed of the round in play: the match page shows only finished
rounds (by their scores, and each deal's seed, revealed once its round is over) and the replay is
offered for finished matches only.

One module per page, bottom up; this package's names are the public ones of all of them:

- ``access``: which matches a viewer may see        - ``lists``: the filtered list, a page of rows
- ``match_page``: seats, rounds, end bonuses, chart  - ``replay``: a finished match step by step
- ``players``: a player's statistics, the leaderboards
"""

from games.analysis.selectors import match_analysis  # noqa: F401
from games.history.selectors.access import match_for_viewer, visible_matches  # noqa: F401
from games.history.selectors.match_list import (  # noqa: F401
    LIST_FIELDS,
    LIVE_STATUSES,
    PAGE_SIZE,
    filtered_matches,
    history_page,
    match_rows,
    player_suggestions,
)
from games.history.selectors.match_page import (  # noqa: F401
    SeatRow,
    chart_for,
    end_bonuses,
    match_detail,
    round_table,
    seat_rows,
)
from games.history.selectors.players import leaderboard, player_stats  # noqa: F401
from games.history.selectors.replay import locate_step, replay_index, replay_step  # noqa: F401
