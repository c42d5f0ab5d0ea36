"""What the game services announce to the rest of the site without importing it.

Ratings (``games.history``) and tournaments (``games.tournaments``) depend on the game services,
never the other way round: they hear of a finished match through :data:`match_finished`,
connected in ``games.apps.GamesConfig.ready``.
"""

from django.dispatch import Signal

# sender=Match, match=<the finished Match>; sent once the transaction that finished it commits.
# A receiver must be idempotent: the management commands (rate_matches, tournament_sync) redo it.
match_finished = Signal()
