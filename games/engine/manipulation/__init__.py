"""Manipulation Rummy (Carousel) — RULES Part B with the options of E.1.

Shape (shared with the Gin engine)::

    state = new_round(rules, seats, random.Random(seed), dealer=None)
    legal_actions(state, seat)          # [{"type": "draw"}, {"type": "meld"}, ...]
    state = apply(state, seat, action)  # raises IllegalMove / InvalidAction; states are immutable
    is_over(state), outcome(state), player_view(state, seat), spectator_view(state)
    check_table(state, seat, table)     # draft report for the UI, never raises
    timeout_actions(state, seat)        # compulsory actions that finish the turn

Actions (dicts at the boundary, see :func:`action_from_dict`)::

    {"type": "draw"}                      draw #1, or "pass and draw the next"
    {"type": "meld", "table": [["5S.0", "6S.0", "JK=7S.0"], ...]}
                                          ONE atomic meld step: the complete new table
    {"type": "knock"}
    {"type": "end_turn"}                  end the turn (when no draw is compulsory)

Phases: ``start`` (a normal turn before draw #1), ``drawn`` (after draw #1/#2:
meld, or pass and draw), ``end`` (after the meld step or the last draw, only
shown when the player may knock — otherwise the turn passes on by itself),
``final`` (a final-lap turn, B.6.3: meld step and/or knock, no drawing),
``over``.

The package, bottom up: ``rules`` (E.1 options) → ``melds`` (B.2, B.3) and ``scoring`` (B.7, B.8)
→ ``state`` (actions, the round value, the deal) → ``table`` (a meld step checked, M1–M4) →
``turn`` (legal actions, ``apply``, outcome) → ``view`` (per-seat projections); ``solver`` (best
play) and ``bots`` sit on top.  This module re-exports the state machine's names.
"""

from ..text import MANIPULATION_MESSAGES as MESSAGES
from .rules import BOOL_OPTIONS, ENUM_OPTIONS, GAME, OPTION_DEFAULTS, OPTION_RANGES, ManipulationRules
from .scoring import (
    EndBonuses,
    MatchTally,
    RoundResult,
    is_match_over,
    manipulation_end_bonuses,
    manipulation_final_totals,
    manipulation_is_match_over,
    manipulation_match_winners,
    manipulation_next_dealer,
    manipulation_round_result,
    manipulation_round_scores,
)
from .state import (
    PHASES,
    Action,
    Draw,
    EndTurn,
    Knock,
    ManipulationState,
    Meld,
    action_from_dict,
    card_ref,
    cards_in_play,
    from_dict,
    hand_of,
    new_round,
    parse_table,
    to_dict,
)
from .turn import (
    apply,
    can_knock,
    check_table,
    hand_value,
    is_over,
    legal_actions,
    next_dealer,
    outcome,
    round_result,
    timeout_actions,
)
from .view import player_view, spectator_view

__all__ = [
    "GAME",
    "MESSAGES",
    "OPTION_DEFAULTS",
    "OPTION_RANGES",
    "PHASES",
    "BOOL_OPTIONS",  # games/forms.py builds the options form from these two
    "ENUM_OPTIONS",
    "Action",
    "Draw",
    "EndTurn",
    "Knock",
    "ManipulationRules",
    "ManipulationState",
    "MatchTally",
    "Meld",
    "RoundResult",
    "action_from_dict",
    "apply",
    "can_knock",
    "card_ref",
    "cards_in_play",
    "check_table",
    "from_dict",
    "hand_of",
    "hand_value",
    "is_match_over",
    "is_over",
    "legal_actions",
    "EndBonuses",
    "manipulation_end_bonuses",
    "manipulation_final_totals",
    "manipulation_is_match_over",
    "manipulation_match_winners",
    "manipulation_next_dealer",
    "manipulation_round_result",
    "manipulation_round_scores",
    "new_round",
    "next_dealer",
    "outcome",
    "parse_table",
    "player_view",
    "round_result",
    "spectator_view",
    "timeout_actions",
    "to_dict",
]
