"""RummyHub's rules engine: pure Python, standard library only.

Nothing in this package imports Django, Channels or the database (an import-linter contract checks
it). States and actions are plain values; ``apply(state, seat, action)`` returns a new state or raises
a ``RulesError``.

The tree, bottom up (import-linter holds the layers): ``text`` (English words and refusal templates)
→ ``errors`` → ``cards`` → ``shuffle`` (provably fair deals, docs/fairness.md) → the two games, ``manipulation/`` and ``gin/``, independent of each other →
``bots`` (one entry for both games' bots).  ``melds``, ``solver`` and ``scoring`` keep the module
paths of DESIGN §3.  The public names of DESIGN §3 are re-exported here.
"""

from .cards import Card, parse_cards
from .errors import IllegalMove, InvalidAction, RulesError
from .gin import GinRules, Settlement, best_melds, deadwood, settle_knock
from .manipulation import ManipulationRules
from .manipulation.melds import classify
from .manipulation.scoring import manipulation_final_totals, manipulation_round_scores
from .manipulation.solver import Play, best_play

__all__ = [
    "Card",
    "GinRules",
    "IllegalMove",
    "InvalidAction",
    "ManipulationRules",
    "Play",
    "RulesError",
    "Settlement",
    "best_melds",
    "best_play",
    "classify",
    "deadwood",
    "manipulation_final_totals",
    "manipulation_round_scores",
    "parse_cards",
    "settle_knock",
]
