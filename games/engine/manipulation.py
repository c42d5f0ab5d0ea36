"""Manipulation Rummy (Carousel) state machine — RULES Part B with the options of E.1.

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
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .cards import Card, hand_points, make_deck, value_code
from .errors import IllegalMove, InvalidAction
from .melds import MELD_MESSAGES, completions, meld_points, meld_problem, sort_meld
from .scoring import (
    MatchTally,
    RoundResult,
    is_match_over,
    manipulation_final_totals,
    manipulation_is_match_over,
    manipulation_match_winners,
    manipulation_next_dealer,
    manipulation_round_result,
    manipulation_round_scores,
)

GAME = "manipulation"

__all__ = [
    "ManipulationRules",
    "ManipulationState",
    "new_round",
    "legal_actions",
    "apply",
    "is_over",
    "outcome",
    "player_view",
    "spectator_view",
    "check_table",
    "timeout_actions",
    "action_from_dict",
    "can_knock",
    "Draw",
    "Meld",
    "Knock",
    "EndTurn",
    "MESSAGES",
    "MatchTally",
    "RoundResult",
    "is_match_over",
    "manipulation_final_totals",
    "manipulation_round_scores",
    "manipulation_round_result",
    "manipulation_is_match_over",
    "manipulation_match_winners",
    "manipulation_next_dealer",
    "next_dealer",
]

# --------------------------------------------------------------------------- rules (E.1)

_ENUMS = {
    "knock_timing": ("end_of_turn", "start_of_turn"),
    "ace_in_sequences": ("high_or_low", "low_only", "high_only"),
    "joker_substitute_from": ("hand_or_table", "hand_only"),
    "freed_joker_reuse": ("any_meld", "new_meld_only"),
    "stock_exhausted": ("final_meld_lap", "end_immediately"),
    "tie_nonknockers": ("all_win", "none_win"),
    "round_won_bonus_to": ("others", "all"),
    "final_tie": ("co_winners", "most_rounds_won"),
    "deal_rotation": ("left", "winner_deals"),
}
_BOOLS = ("must_draw_if_no_meld", "knock_in_final_lap")
# key -> (min, max).  RULES E.1 says "int" for the score options; every one is bounded so that no
# match total can leave the stored 32-bit score columns (13 cards × 100 points + bonuses, over at
# most game_target / 1 rounds, stays far below 2**31) and the form shows the range.
_INTS = {
    "hand_size": (7, 13),
    "max_draws_per_turn": (1, 3),
    "knock_limit": (0, 10),
    "undercut_bonus": (0, 500),
    "going_out_bonus": (0, 500),
    "joker_value": (0, 100),
    "first_meld_min_points": (0, 300),
    "game_target": (1, 10_000),
    "game_bonus": (0, 10_000),
    "round_won_bonus": (0, 500),
}
OPTION_RANGES = _INTS  # public: the forms show these

OPTION_DEFAULTS: dict[str, Any] = {
    "players": None,
    "jokers": None,
    "hand_size": 10,
    "max_draws_per_turn": 3,
    "must_draw_if_no_meld": True,
    "knock_limit": 5,
    "knock_timing": "end_of_turn",
    "undercut_bonus": 10,
    "going_out_bonus": 25,
    "joker_value": 25,
    "ace_in_sequences": "high_or_low",
    "joker_substitute_from": "hand_or_table",
    "freed_joker_reuse": "any_meld",
    "first_meld_min_points": 0,
    "stock_exhausted": "final_meld_lap",
    "knock_in_final_lap": True,
    "tie_nonknockers": "all_win",
    "game_target": 150,
    "game_bonus": 100,
    "round_won_bonus": 25,
    "round_won_bonus_to": "others",
    "final_tie": "co_winners",
    "deal_rotation": "left",
}


def _bad(key: str, value: object, expected: str) -> InvalidAction:
    return InvalidAction(f"Option {key} = {value!r} is not valid: expected {expected}.", code="bad_option")


@dataclass(frozen=True, slots=True, init=False)
class ManipulationRules:
    """The table options of RULES E.1, with their defaults.

    ``players`` may be left ``None`` until the round is dealt (it is then taken
    from the seats); ``jokers`` defaults by players: 2 → 1, 3–5 → 2 (allowed
    0–2 / 0–4).  Bad values raise :class:`InvalidAction` (code ``bad_option``).
    """

    players: int | None
    jokers: int | None
    hand_size: int
    max_draws_per_turn: int
    must_draw_if_no_meld: bool
    knock_limit: int
    knock_timing: str
    undercut_bonus: int
    going_out_bonus: int
    joker_value: int
    ace_in_sequences: str
    joker_substitute_from: str
    freed_joker_reuse: str
    first_meld_min_points: int
    stock_exhausted: str
    knock_in_final_lap: bool
    tie_nonknockers: str
    game_target: int
    game_bonus: int
    round_won_bonus: int
    round_won_bonus_to: str
    final_tie: str
    deal_rotation: str

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(OPTION_DEFAULTS))
        if unknown:
            raise InvalidAction(f"Unknown Manipulation option(s): {', '.join(unknown)}.", code="bad_option")
        values = {**OPTION_DEFAULTS, **options}
        for key, allowed in _ENUMS.items():
            if values[key] not in allowed:
                raise _bad(key, values[key], " or ".join(allowed))
        for key in _BOOLS:
            if not isinstance(values[key], bool):
                raise _bad(key, values[key], "true or false")
        for key, (lo, hi) in _INTS.items():
            v = values[key]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise _bad(key, v, f"an integer {lo}–{hi}")
        players = values["players"]
        if players is not None and (not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5):
            raise _bad("players", players, "2 to 5")
        jokers = values["jokers"]
        if jokers is not None:
            if not isinstance(jokers, int) or isinstance(jokers, bool) or jokers < 0:
                raise _bad("jokers", jokers, "0–2 for 2 players, 0–4 for 3–5 players")
            if players is not None and jokers > (2 if players == 2 else 4):
                raise _bad("jokers", jokers, "0–2 for 2 players, 0–4 for 3–5 players")
            if jokers > 4:
                raise _bad("jokers", jokers, "at most 4")
        elif players is not None:
            values["jokers"] = 1 if players == 2 else 2
        for key, v in values.items():
            object.__setattr__(self, key, v)

    # ----- helpers ------------------------------------------------------
    @property
    def packs(self) -> int:
        """B.1.2: one pack for 2 players, two packs for 3–5."""
        return 1 if self.players == 2 else 2

    def replace(self, **changes: Any) -> ManipulationRules:
        d = self.to_dict()
        if "players" in changes and "jokers" not in changes and self.players is None:
            pass  # jokers stays as given (None → default by players)
        d.update(changes)
        return ManipulationRules(**d)

    def for_players(self, n: int) -> ManipulationRules:
        if self.players is None:
            return self.replace(players=n)
        if self.players != n:
            raise InvalidAction(f"These rules are for {self.players} players, not {n}.", code="bad_players")
        return self

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> ManipulationRules:
        if d is None:
            return cls()
        if not isinstance(d, dict):
            raise InvalidAction("Rules must be a dict of options.", code="bad_option")
        return cls(**d)


def _as_rules(rules: ManipulationRules | dict | None) -> ManipulationRules:
    if isinstance(rules, ManipulationRules):
        return rules
    return ManipulationRules.from_dict(rules)


# --------------------------------------------------------------------------- messages

# code -> English template of a refusal; card params are lists of card codes (see .errors).
# A meld that is not valid is refused with code ``invalid_meld`` and a template of melds.MELD_MESSAGES.
MESSAGES: dict[str, str] = {
    "not_your_turn": "It is not your turn.",
    "round_over": "The round is over.",
    "must_draw": "You must draw a card first.",
    "must_draw_or_meld": "You must meld or draw another card before your turn can end.",
    "no_more_draws": "You cannot draw any more cards this turn.",
    "stock_empty": "The stock is empty: there is nothing to draw.",
    "no_draw_in_final_lap": "There is no drawing in the final lap.",
    "meld_not_now": "You cannot meld now.",
    "no_meld_before_draw": "You must draw before you meld.",
    "already_melded": "You have already made your meld step this turn.",
    "no_meld_after_last_draw": "No meld is allowed after your last draw of the turn.",
    "knock_too_high": "Your hand counts %(points)s points: you may knock only with %(limit)s or fewer.",
    "knock_not_now": "You cannot knock now.",
    "knock_not_in_final_lap": "Knocking is not allowed in the final lap at this table.",
    "card_not_available": "%(card)s is not in your hand or on the table.",
    "table_card_missing": "%(cards)s must stay on the table: no card returns to a hand.",
    "freed_joker_not_placed": "%(card)s was freed and must be placed again in a meld in the same step.",
    "joker_identity_needed": "%(cards)s: say which card the joker stands for (%(options)s).",
    "joker_identity_changed": "The joker keeps its identity %(identity)s unless a natural %(identity)s replaces it.",
    "joker_substitute_hand_only": (
        "The joker can only be replaced by a natural %(identity)s from your hand at this table."
    ),
    "freed_joker_new_meld_only": (
        "%(cards)s: at this table a freed joker may only go into a new meld made with cards from your hand."
    ),
    "no_card_from_hand": "A meld step must lay at least one card from your hand.",
    "first_meld_too_low": (
        "Your first meld must be made only of cards from your hand worth at least %(min)s points"
        " (this one is worth %(points)s)."
    ),
    "first_meld_table_untouched": "Until your first meld you may not change the melds already on the table.",
}


def _illegal(code: str, **params: Any) -> IllegalMove:
    return IllegalMove(code, MESSAGES[code], params or None)


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


# --------------------------------------------------------------------------- actions

MAX_MELDS = 60
MAX_MELD_CARDS = 14
MAX_TABLE_CARDS = 120


@dataclass(frozen=True, slots=True)
class Draw:
    type = "draw"

    def to_dict(self) -> dict:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class Knock:
    type = "knock"

    def to_dict(self) -> dict:
        return {"type": "knock"}


@dataclass(frozen=True, slots=True)
class EndTurn:
    type = "end_turn"

    def to_dict(self) -> dict:
        return {"type": "end_turn"}


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld step: the complete new table, a tuple of melds of physical cards."""

    table: tuple[tuple[Card, ...], ...]
    type = "meld"

    def to_dict(self) -> dict:
        return {"type": "meld", "table": [[card_ref(c) for c in meld] for meld in self.table]}


Action = Draw | Knock | EndTurn | Meld


def card_ref(card: Card) -> str:
    """Physical id with a joker's declaration: ``"8S.1"``, ``"JK.0"``, ``"JK=7S.0"``."""
    return f"{card.code}.{card.deck}"


def _parse_id(item: object) -> Card:
    if isinstance(item, Card):
        return item
    if isinstance(item, str):
        return _parse_id_text(item)
    raise InvalidAction(f"A card must be an id string like '8S.0', not {type(item).__name__}.", code="bad_card")


@functools.lru_cache(maxsize=4096)
def _parse_id_text(item: str) -> Card:
    if not isinstance(item, str):  # pragma: no cover - only strings reach here
        raise InvalidAction(f"A card must be an id string like '8S.0', not {type(item).__name__}.", code="bad_card")
    if "." not in item:
        raise InvalidAction(f"{item!r}: cards in actions are physical ids like '8S.0' or 'JK=9H.1'.", code="bad_card")
    return Card.from_code(item)


def parse_table(table: object) -> tuple[tuple[Card, ...], ...]:
    """Parse a table (list of melds of ids) into cards; InvalidAction when malformed."""
    if not isinstance(table, (list, tuple)):
        raise InvalidAction("The table must be a list of melds.", code="bad_table")
    if len(table) > MAX_MELDS:
        raise InvalidAction("Too many melds.", code="bad_table")
    out = []
    total = 0
    for meld in table:
        if not isinstance(meld, (list, tuple)):
            raise InvalidAction("Each meld must be a list of card ids.", code="bad_table")
        if len(meld) > MAX_MELD_CARDS:
            raise InvalidAction("A meld has at most 13 cards.", code="bad_table")
        total += len(meld)
        if total > MAX_TABLE_CARDS:
            raise InvalidAction("Too many cards on the table.", code="bad_table")
        out.append(tuple(_parse_id(c) for c in meld))
    return tuple(out)


def action_from_dict(d: object) -> Action:
    """Parse an action dict (or pass an action object through); InvalidAction when malformed."""
    if isinstance(d, (Draw, Knock, EndTurn, Meld)):
        return d
    if not isinstance(d, dict):
        raise InvalidAction("An action must be a dict with a 'type'.", code="bad_action")
    kind = d.get("type")
    simple = {"draw": Draw, "knock": Knock, "end_turn": EndTurn}
    if kind in simple:
        extra = set(d) - {"type"}
        if extra:
            raise InvalidAction(f"Unexpected field(s) {sorted(extra)} in a {kind} action.", code="bad_action")
        return simple[kind]()
    if kind == "meld":
        extra = set(d) - {"type", "table"}
        if extra:
            raise InvalidAction(f"Unexpected field(s) {sorted(extra)} in a meld action.", code="bad_action")
        if "table" not in d:
            raise InvalidAction("A meld action needs the complete new 'table'.", code="bad_action")
        return Meld(parse_table(d["table"]))
    raise InvalidAction(f"Unknown action type {kind!r}.", code="bad_action")


# --------------------------------------------------------------------------- state

PHASES = ("start", "drawn", "end", "final", "over")


@dataclass(frozen=True, slots=True)
class ManipulationState:
    """One round of Manipulation Rummy.  Immutable; hands hold undeclared cards, the table declared ones."""

    rules: ManipulationRules
    players: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    table: tuple[tuple[Card, ...], ...]
    seat_to_act: int | None
    phase: str
    draws: int = 0
    melded: bool = False
    has_melded: tuple[bool, ...] = ()
    last_drawer: int | None = None
    final_lap: bool = False
    knocker: int | None = None
    went_out: bool = False
    end_reason: str | None = None
    turn: int = 1
    last_action: tuple[int, str] | None = None

    @property
    def game(self) -> str:
        return GAME

    @property
    def first_player(self) -> int:
        return (self.dealer + 1) % self.players

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "dealer": self.dealer,
            "hands": [[c.id for c in hand] for hand in self.hands],
            "stock": [c.id for c in self.stock],
            "table": [[card_ref(c) for c in meld] for meld in self.table],
            "seat_to_act": self.seat_to_act,
            "phase": self.phase,
            "draws": self.draws,
            "melded": self.melded,
            "has_melded": list(self.has_melded),
            "last_drawer": self.last_drawer,
            "final_lap": self.final_lap,
            "knocker": self.knocker,
            "went_out": self.went_out,
            "end_reason": self.end_reason,
            "turn": self.turn,
            "last_action": None if self.last_action is None else list(self.last_action),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ManipulationState:
        if d.get("game", GAME) != GAME:
            raise InvalidAction("Not a Manipulation state.", code="bad_state")
        return cls(
            rules=ManipulationRules.from_dict(d["rules"]),
            players=d["players"],
            dealer=d["dealer"],
            hands=tuple(tuple(Card.from_code(c) for c in hand) for hand in d["hands"]),
            stock=tuple(Card.from_code(c) for c in d["stock"]),
            table=tuple(tuple(Card.from_code(c) for c in meld) for meld in d["table"]),
            seat_to_act=d["seat_to_act"],
            phase=d["phase"],
            draws=d["draws"],
            melded=d["melded"],
            has_melded=tuple(d["has_melded"]),
            last_drawer=d["last_drawer"],
            final_lap=d["final_lap"],
            knocker=d["knocker"],
            went_out=d["went_out"],
            end_reason=d["end_reason"],
            turn=d["turn"],
            last_action=None if d["last_action"] is None else (d["last_action"][0], d["last_action"][1]),
        )


def to_dict(state: ManipulationState) -> dict[str, Any]:
    return state.to_dict()


def from_dict(d: dict[str, Any]) -> ManipulationState:
    return ManipulationState.from_dict(d)


def new_round(
    rules: ManipulationRules | dict | None,
    seats: int | Sequence[Any],
    rng: random.Random,
    dealer: int | None = None,
) -> ManipulationState:
    """Deal a round (B.4): random first dealer unless given, 10 cards each from the dealer's left."""
    n = seats if isinstance(seats, int) else len(seats)
    if not isinstance(n, int) or not 2 <= n <= 5:
        raise InvalidAction("Manipulation Rummy is for 2 to 5 players.", code="bad_players")
    r = _as_rules(rules).for_players(n)
    if dealer is None:
        dealer = rng.randrange(n)
    elif not isinstance(dealer, int) or not 0 <= dealer < n:
        raise InvalidAction(f"Dealer {dealer!r} is not a seat.", code="bad_dealer")
    deck = make_deck(r.packs, r.jokers)
    rng.shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(r.hand_size):
        for k in range(1, n + 1):
            hands[(dealer + k) % n].append(deck[pos])
            pos += 1
    return ManipulationState(
        rules=r,
        players=n,
        dealer=dealer,
        hands=tuple(tuple(h) for h in hands),
        stock=tuple(deck[pos:]),
        table=(),
        seat_to_act=(dealer + 1) % n,
        phase="start",
        has_melded=(False,) * n,
    )


# --------------------------------------------------------------------------- queries


def is_over(state: ManipulationState) -> bool:
    return state.phase == "over"


def hand_value(state: ManipulationState, seat: int) -> int:
    return hand_points(state.hands[seat], state.rules.joker_value)


def _turn_can_end(state: ManipulationState) -> bool:
    if state.phase in ("end", "final"):
        return True
    if state.phase == "drawn":
        r = state.rules
        return state.draws >= r.max_draws_per_turn or not state.stock or not r.must_draw_if_no_meld
    return False


def _knock_moment(state: ManipulationState) -> bool:
    """Is this a moment of the turn at which the knock timing allows a knock?"""
    r = state.rules
    if state.final_lap and not r.knock_in_final_lap:
        return False
    if r.knock_timing == "start_of_turn":
        return (state.phase == "start") or (state.phase == "final" and not state.melded)
    return _turn_can_end(state)


def can_knock(state: ManipulationState, seat: int) -> bool:
    """B.5.5: at the allowed moment of the turn, with a hand of at most ``knock_limit`` points."""
    if state.phase == "over" or seat != state.seat_to_act:
        return False
    return _knock_moment(state) and hand_value(state, seat) <= state.rules.knock_limit


def _can_meld(state: ManipulationState) -> bool:
    if state.phase == "drawn":
        return state.draws < state.rules.max_draws_per_turn and not state.melded
    return state.phase == "final" and not state.melded


def _can_draw(state: ManipulationState) -> bool:
    return state.phase in ("start", "drawn") and state.draws < state.rules.max_draws_per_turn and bool(state.stock)


def legal_actions(state: ManipulationState, seat: int) -> list[dict]:
    """The action types ``seat`` may send now.

    ``{"type": "meld"}`` is a template: a real meld action carries the whole new ``table``.
    """
    if state.phase == "over" or seat != state.seat_to_act:
        return []
    out: list[dict] = []
    if _can_draw(state):
        out.append({"type": "draw"})
    if _can_meld(state):
        out.append({"type": "meld"})
    if can_knock(state, seat):
        out.append({"type": "knock"})
    if _turn_can_end(state):
        out.append({"type": "end_turn"})
    return out


# --------------------------------------------------------------------------- meld-step checking


@functools.lru_cache(maxsize=16)
def _deck_ids(packs: int, jokers: int) -> frozenset[str]:
    return frozenset(c.id for c in make_deck(packs, jokers))


@dataclass(slots=True)
class _Analysis:
    melds: list[dict]
    errors: list[IllegalMove]
    new_table: tuple[tuple[Card, ...], ...]
    played: list[Card]


def _analyse(state: ManipulationState, seat: int, proposed: tuple[tuple[Card, ...], ...]) -> _Analysis:
    """Check a proposed complete table against M1–M4 (B.5.2) and the joker rules (B.3).

    Raises InvalidAction only for malformed input (unknown or repeated card ids).
    """
    r = state.rules
    hand = {c.id: c for c in state.hands[seat]}
    old: dict[str, Card] = {c.id: c for meld in state.table for c in meld}
    all_ids = _deck_ids(r.packs, r.jokers)
    errors: list[IllegalMove] = []
    seen: set[str] = set()
    for meld in proposed:
        for c in meld:
            if c.id not in all_ids:
                raise InvalidAction(f"{c.id} is not a card of this game.", code="unknown_card")
            if c.id in seen:
                raise InvalidAction(f"{c.id} appears twice in the proposed table.", code="duplicate_card")
            if not c.is_joker and c.declared is not None:  # pragma: no cover - parser never builds this
                raise InvalidAction(f"{c.id} is not a joker.", code="bad_card")
            seen.add(c.id)
    unavailable = [c for meld in proposed for c in meld if c.id not in hand and c.id not in old]
    for c in unavailable:
        errors.append(_illegal("card_not_available", card=c.undeclared().code))

    # effective cards: table jokers given bare keep their identity
    melds_eff: list[list[Card]] = []
    freed: list[tuple[Card, tuple[int, int]]] = []  # (joker as placed, old identity)
    for meld in proposed:
        eff = []
        for c in meld:
            if c.is_joker and c.id in old:
                before = old[c.id].declared
                if c.declared is None:
                    c = old[c.id]
                elif c.declared != before:
                    freed.append((c, before))  # type: ignore[arg-type]
            eff.append(c)
        melds_eff.append(eff)

    # M3: every meld valid; bare hand jokers get their forced identity
    reports = []
    new_table: list[tuple[Card, ...]] = []
    for i, eff in enumerate(melds_eff):
        rep: dict[str, Any] = {
            "index": i,
            "cards": [card_ref(c) for c in proposed[i]],
            "valid": True,
            "kind": None,
            "code": None,
            "reason": None,
            "template": None,
            "params": None,
            "joker_options": [],
        }
        bare = [k for k, c in enumerate(eff) if c.effective is None]
        problem = meld_problem(eff, r)
        if problem is not None:
            err = IllegalMove("invalid_meld", MELD_MESSAGES[problem[0]], {"cards": _codes(eff)})
            rep.update(valid=False, code=problem[0], reason=err.message, template=err.template, params=err.params)
            errors.append(err)
            new_table.append(tuple(eff))
        else:
            comps = completions(eff, r)
            rep["kind"] = comps[0][0]
            if bare:
                options = sorted({ids[0] for _k, ids in comps}, key=lambda rs: (rs[1], rs[0]))
                rep["joker_options"] = [value_code(*o) for o in options]
                distinct = {ids for _k, ids in comps}
                if len(distinct) == 1:
                    ids = next(iter(distinct))
                    eff = list(eff)
                    for k, ident in zip(bare, ids, strict=True):
                        eff[k] = eff[k].declare(*ident)
                else:
                    err = _illegal("joker_identity_needed", cards=_codes(eff), options=rep["joker_options"])
                    rep.update(code=err.code, reason=err.message, template=err.template, params=err.params)
                    errors.append(err)
            new_table.append(tuple(sort_meld(eff, r)))
        reports.append(rep)

    # M2: every table card still on the table
    missing = [c for cid, c in old.items() if cid not in seen]
    missing_nat = [c for c in missing if not c.is_joker]
    if missing_nat:
        errors.append(_illegal("table_card_missing", cards=_codes(missing_nat)))
    for c in missing:
        if c.is_joker:
            errors.append(_illegal("freed_joker_not_placed", card=c.code))

    played = [hand[c.id] for meld in proposed for c in meld if c.id in hand]
    played_ids = {c.id for c in played}

    # M4: an identity changes only through substitution by an identical natural card
    if freed:
        need = Counter(ident for _c, ident in freed)
        for ident, count in need.items():
            from_hand = sum(1 for c in played if not c.is_joker and c.key == ident)
            from_table = sum(1 for c in old.values() if not c.is_joker and c.key == ident)
            have = from_hand + (from_table if r.joker_substitute_from == "hand_or_table" else 0)
            if have < count:
                joker = next(c for c, i in freed if i == ident)
                code = "joker_identity_changed"
                if r.joker_substitute_from == "hand_only" and from_hand + from_table >= count:
                    code = "joker_substitute_hand_only"
                errors.append(_illegal(code, identity=value_code(*ident)))
                _ = joker
        if r.freed_joker_reuse == "new_meld_only":
            freed_ids = {c.id for c, _i in freed}
            for i, meld in enumerate(proposed):
                if not any(c.id in freed_ids for c in meld):
                    continue
                others = [c for c in meld if c.id not in freed_ids]
                if not others or any(c.id not in played_ids for c in others):
                    err = _illegal("freed_joker_new_meld_only", cards=_codes(new_table[i]))
                    errors.append(err)
                    reports[i].update(
                        valid=False, code=err.code, reason=err.message, template=err.template, params=err.params
                    )

    # M1
    if not played:
        errors.append(_illegal("no_card_from_hand"))

    # option first_meld_min_points (Rummikub-style first meld; off by default)
    if r.first_meld_min_points > 0 and not state.has_melded[seat] and played:
        old_melds = Counter(frozenset(card_ref(c) for c in meld) for meld in state.table)
        new_melds = Counter(frozenset(card_ref(c) for c in meld) for meld in new_table)
        if any(new_melds[m] < k for m, k in old_melds.items()):
            errors.append(_illegal("first_meld_table_untouched"))
        fresh = [m for m in new_table if frozenset(card_ref(c) for c in m) not in old_melds]
        if any(c.id not in played_ids for m in fresh for c in m):
            errors.append(_illegal("first_meld_table_untouched"))
        pts = sum(meld_points(m) for m in fresh)
        if pts < r.first_meld_min_points:
            errors.append(_illegal("first_meld_too_low", min=r.first_meld_min_points, points=pts))
    return _Analysis(reports, errors, tuple(new_table), played)


def check_table(state: ManipulationState, seat: int, table: object) -> dict[str, Any]:
    """Validate a DRAFT arrangement for the UI without raising.

    Returns ``{"ok", "melds": [{"index", "cards", "valid", "kind", "code", "reason", "template",
    "params", "joker_options"}], "errors": [{"code", "message"}], "played": [ids], "points"}``;
    ``joker_options`` lists the codes (``"6H"``) a bare joker of that meld could stand for.  A
    reason or error that names cards also has its English ``template`` and ``params`` (see .errors).
    ``ok`` means the meld step would be accepted now (including whose turn it is).
    """
    try:
        proposed = table.table if isinstance(table, Meld) else parse_table(table)
        a = _analyse(state, seat, proposed)
    except InvalidAction as exc:
        return {"ok": False, "melds": [], "errors": [exc.to_dict()], "played": [], "points": 0}
    errors = [e.to_dict() for e in a.errors]
    turn_error = _meld_turn_error(state, seat)
    if turn_error is not None:
        errors.insert(0, turn_error.to_dict())
    return {
        "ok": not errors,
        "melds": a.melds,
        "errors": errors,
        "played": [c.id for c in a.played],
        "points": hand_points(a.played, state.rules.joker_value),
    }


def _meld_turn_error(state: ManipulationState, seat: int) -> IllegalMove | None:
    if state.phase == "over":
        return _illegal("round_over")
    if seat != state.seat_to_act:
        return _illegal("not_your_turn")
    if _can_meld(state):
        return None
    if state.phase == "start":
        return _illegal("no_meld_before_draw")
    if state.melded:
        return _illegal("already_melded")
    if state.phase == "end":
        return _illegal("no_meld_after_last_draw")
    return _illegal("meld_not_now")  # pragma: no cover


# --------------------------------------------------------------------------- transitions


def _replace(state: ManipulationState, **changes: Any) -> ManipulationState:
    d = {f.name: getattr(state, f.name) for f in fields(state)}
    d.update(changes)
    return ManipulationState(**d)


def _end_turn(state: ManipulationState) -> ManipulationState:
    seat = state.seat_to_act
    assert seat is not None
    n = state.players
    nxt = (seat + 1) % n
    if state.final_lap:
        if seat == state.last_drawer:
            return _replace(state, phase="over", seat_to_act=None, end_reason="stock_exhausted")
        return _replace(state, seat_to_act=nxt, phase="final", draws=0, melded=False, turn=state.turn + 1)
    if not state.stock:
        if state.rules.stock_exhausted == "final_meld_lap":
            return _replace(
                state, seat_to_act=nxt, phase="final", draws=0, melded=False, final_lap=True, turn=state.turn + 1
            )
        return _replace(state, phase="over", seat_to_act=None, end_reason="stock_exhausted")
    return _replace(state, seat_to_act=nxt, phase="start", draws=0, melded=False, turn=state.turn + 1)


def _settle(state: ManipulationState) -> ManipulationState:
    """At the end of the turn with no knock possible, pass the turn on by itself."""
    if state.phase == "end" and not can_knock(state, state.seat_to_act):  # type: ignore[arg-type]
        return _end_turn(state)
    return state


def apply(state: ManipulationState, seat: int, action: dict | Action) -> ManipulationState:
    """Apply one action of ``seat``; returns the new state or raises IllegalMove / InvalidAction."""
    act = action_from_dict(action)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise InvalidAction(f"Seat {seat!r} is not at this table.", code="bad_seat")
    if state.phase == "over":
        raise _illegal("round_over")
    if seat != state.seat_to_act:
        raise _illegal("not_your_turn")
    last = (seat, act.type)
    if isinstance(act, Draw):
        if not _can_draw(state):
            if state.phase == "final":
                raise _illegal("no_draw_in_final_lap")
            if state.phase in ("start", "drawn") and not state.stock:
                raise _illegal("stock_empty")
            raise _illegal("no_more_draws")
        card = state.stock[0]
        hands = list(state.hands)
        hands[seat] = hands[seat] + (card,)
        draws = state.draws + 1
        stock = state.stock[1:]
        new = _replace(
            state,
            hands=tuple(hands),
            stock=stock,
            draws=draws,
            last_action=last,
            phase="end" if draws >= state.rules.max_draws_per_turn else "drawn",
            last_drawer=seat if not stock else state.last_drawer,
        )
        return _settle(new)
    if isinstance(act, Meld):
        err = _meld_turn_error(state, seat)
        if err is not None:
            raise err
        a = _analyse(state, seat, act.table)
        if a.errors:
            raise a.errors[0]
        played_ids = {c.id for c in a.played}
        hands = list(state.hands)
        hands[seat] = tuple(c for c in state.hands[seat] if c.id not in played_ids)
        has_melded = list(state.has_melded)
        has_melded[seat] = True
        new = _replace(
            state,
            table=a.new_table,
            hands=tuple(hands),
            melded=True,
            has_melded=tuple(has_melded),
            last_action=last,
            phase="end",
        )
        if not hands[seat]:  # B.5.4 going out
            return _replace(new, phase="over", seat_to_act=None, knocker=seat, went_out=True, end_reason="went_out")
        return _settle(new)
    if isinstance(act, Knock):
        if not _knock_moment(state):
            if state.final_lap and not state.rules.knock_in_final_lap:
                raise _illegal("knock_not_in_final_lap")
            if state.phase == "start":
                raise _illegal("must_draw")
            if state.phase == "drawn":
                raise _illegal("must_draw_or_meld")
            raise _illegal("knock_not_now")
        pts = hand_value(state, seat)
        if pts > state.rules.knock_limit:
            raise _illegal("knock_too_high", points=pts, limit=state.rules.knock_limit)
        return _replace(state, phase="over", seat_to_act=None, knocker=seat, end_reason="knock", last_action=last)
    # EndTurn
    if not _turn_can_end(state):
        if state.phase == "start":
            raise _illegal("must_draw")
        raise _illegal("must_draw_or_meld")
    return _end_turn(_replace(state, last_action=last))


def timeout_actions(state: ManipulationState, seat: int) -> list[dict]:
    """Actions that complete ``seat``'s current turn with no voluntary play (compulsory draws only)."""
    out: list[dict] = []
    s = state
    while s.phase != "over" and s.seat_to_act == seat and len(out) < 10:
        types = {a["type"] for a in legal_actions(s, seat)}
        if "end_turn" in types:
            out.append({"type": "end_turn"})
            break
        if "draw" in types:
            out.append({"type": "draw"})
            s = apply(s, seat, {"type": "draw"})
            continue
        break  # pragma: no cover - every non-final state allows draw or end_turn
    return out


# --------------------------------------------------------------------------- outcome and views


def round_result(state: ManipulationState) -> RoundResult | None:
    if state.phase != "over":
        return None
    pts = [hand_value(state, i) for i in range(state.players)]
    return manipulation_round_result(pts, state.knocker, state.went_out, state.rules)


def outcome(state: ManipulationState) -> dict[str, Any] | None:
    """``None`` while the round runs; then hand points, knocker, went_out, scores (B.7), reasons, rounds won."""
    res = round_result(state)
    if res is None:
        return None
    d = res.to_dict()
    d.update(
        end_reason=state.end_reason,
        hands=[[c.id for c in hand] for hand in state.hands],
        dealer=state.dealer,
        next_dealer=manipulation_next_dealer(state.dealer, state.players, res.winners, state.rules),
    )
    return d


def next_dealer(state: ManipulationState) -> int:
    """Dealer of the next round (B.4.1, option ``deal_rotation``)."""
    res = round_result(state)
    winners = res.winners if res is not None else ()
    return manipulation_next_dealer(state.dealer, state.players, winners, state.rules)


def _public(state: ManipulationState) -> dict[str, Any]:
    last = None
    if state.last_action is not None:
        last = {"seat": state.last_action[0], "type": state.last_action[1]}
    return {
        "game": GAME,
        "players": state.players,
        "dealer": state.dealer,
        "seat_to_act": state.seat_to_act,
        "phase": state.phase,
        "turn": state.turn,
        "draws_this_turn": state.draws,
        "melded_this_turn": state.melded,
        "final_lap": state.final_lap,
        "last_drawer": state.last_drawer,
        "hand_counts": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "table": [[card_ref(c) for c in meld] for meld in state.table],
        "knocker": state.knocker,
        "went_out": state.went_out,
        "end_reason": state.end_reason,
        "last_action": last,
        "rules": state.rules.to_dict(),
        "outcome": outcome(state),
    }


def player_view(state: ManipulationState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see: own hand, others' counts, the table, counts of the stock."""
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise InvalidAction(f"Seat {seat!r} is not at this table.", code="bad_seat")
    v = _public(state)
    v.update(
        seat=seat,
        hand=[c.id for c in state.hands[seat]],
        hand_points=hand_value(state, seat),
        legal_actions=legal_actions(state, seat),
        can_knock=can_knock(state, seat),
    )
    return v


def spectator_view(state: ManipulationState) -> dict[str, Any]:
    v = _public(state)
    v.update(seat=None, hand=None, hand_points=None, legal_actions=[], can_knock=False)
    return v


def cards_in_play(state: ManipulationState) -> list[Card]:
    """Every physical card of the round (hands, stock, table), undeclared — for conservation checks."""
    out = [c for h in state.hands for c in h] + list(state.stock)
    out += [c.undeclared() for m in state.table for c in m]
    return out


def hand_of(state: ManipulationState, seat: int) -> list[Card]:
    return list(state.hands[seat])


def _iter_ids(cards: Iterable[Card]) -> list[str]:
    return [c.id for c in cards]
