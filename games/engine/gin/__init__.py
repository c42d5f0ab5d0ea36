"""Gin Rummy: melds and deadwood, knock settlement and the hand state machine.

RULES Part C (three-player "in the box": box, captain, advisor) and Part D
(two-player Gin, Oklahoma Gin, Hollywood scoring), with every option of E.2
(:class:`GinRules`).

Internally a card is its index 0–51 (``suit * 13 + rank - 1``, the same as
:attr:`Card.index`) and a hand is an int bitmask of those indices.  At the
boundary cards are physical ids (``"8S.0"``); codes (``"8S"``) and
:class:`Card` objects are accepted wherever cards are taken.

The package, bottom up: ``rules`` (E.2 options) and ``masks`` (cards as ints, hands as bitmasks) →
``deadwood`` (melds, minimum deadwood) and ``scoring`` (hand scores, rotations, bonuses) → ``knock``
(settling a knock) → ``state`` (actions, the hand value, the role draw) → ``hand`` (the deal,
``apply``, outcome) → ``view`` (per-seat projections) and ``match`` (:class:`GinMatch`, between
hands); ``bots`` on top.  This module re-exports the names other code uses.
"""

from ..text import GIN_MESSAGES as MESSAGES
from .deadwood import (
    ALL_MELDS,
    best_melds,
    best_melds_mask,
    deadwood,
    deadwood_mask,
    dp_arrangement,
    meld_kind,
)
from .hand import (
    apply,
    cards_in_play,
    deal_from_cards,
    from_dict,
    hand_of,
    is_over,
    legal_actions,
    new_round,
    oklahoma_knock_limit,
    outcome,
    timeout_actions,
    to_dict,
)
from .knock import Settlement, settle_knock
from .masks import CODES, FULL_DECK, IDS, VALUES, card_index, hand_mask, mask_cards, mask_ids, mask_points
from .match import GinMatch
from .rules import INT_CHOICES, OPTION_RANGES, VARIANT_ALIASES, VARIANTS, GinRules
from .scoring import (
    EndBonus,
    EndBreakdown,
    HollywoodGame,
    ScorePart,
    gin_end_bonuses,
    gin_final_totals,
    gin_hand_parts,
    gin_hand_result,
    gin_hollywood_entries,
    gin_next_dealer,
    gin_next_roles,
)
from .state import (
    ACTION_TYPES,
    PHASES,
    SUGGESTIBLE,
    GinAction,
    GinState,
    HandResult,
    RoleDraw,
    action_from_dict,
    draw_roles,
)
from .view import player_view, spectator_view

__all__ = [
    "ACTION_TYPES",
    "ALL_MELDS",
    "CODES",
    "FULL_DECK",
    "IDS",
    "INT_CHOICES",
    "MESSAGES",
    "OPTION_RANGES",
    "PHASES",
    "SUGGESTIBLE",
    "VALUES",
    "VARIANTS",
    "VARIANT_ALIASES",
    "dp_arrangement",  # tests/engine check it against the memo search
    "EndBonus",
    "EndBreakdown",
    "GinAction",
    "GinMatch",
    "GinRules",
    "GinState",
    "HandResult",
    "HollywoodGame",
    "RoleDraw",
    "ScorePart",
    "Settlement",
    "action_from_dict",
    "apply",
    "best_melds",
    "best_melds_mask",
    "card_index",
    "cards_in_play",
    "deadwood",
    "deadwood_mask",
    "deal_from_cards",
    "draw_roles",
    "from_dict",
    "gin_end_bonuses",
    "gin_final_totals",
    "gin_hand_parts",
    "gin_hand_result",
    "gin_hollywood_entries",
    "gin_next_dealer",
    "gin_next_roles",
    "hand_mask",
    "hand_of",
    "is_over",
    "legal_actions",
    "mask_cards",
    "mask_ids",
    "mask_points",
    "meld_kind",
    "new_round",
    "oklahoma_knock_limit",
    "outcome",
    "player_view",
    "settle_knock",
    "spectator_view",
    "timeout_actions",
    "to_dict",
]
