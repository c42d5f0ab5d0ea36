"""What the game services announce to the rest of the site without importing it.

Ratings (``games.history``) and tournaments (``games.tournaments``) depend on the game services,
never the other way round: they hear of a finished match through :data:`match_finished`,
connected in ``games.apps.GamesConfig.ready``.
"""

from django.dispatch import Signal

# sender=Match, match=<the finished Match>; sent once the transaction that finished it commits.
# A receiver must be idempotent: the management commands (rate_matches, tournament_sync) redo it.
match_finished = Signal()

# The turn-based tables' notices (issue 27).  The game services send them once the transaction
# that made them true commits; the notifications app (push, mail, the header's bell) listens.
# sender=Match, match_id=<int>, user_id=<int: the seat whose move it is>,
# deadline=<aware datetime or None>, turn_based=<bool>
your_move = Signal()
# sender=Match, match_id, user_id, deadline, left=<timedelta until the deadline>: a reminder before it.
move_reminder = Signal()

# sender=MatchAnalysis, match_id=<int>, steps=<the stored step records>: a match's analysis is stored
# (the analysis worker, after the transaction commits).  The puzzles (games.puzzles) generate from it.
analysis_done = Signal()
