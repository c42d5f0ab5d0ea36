"""Manipulation Rummy's values: actions, the round state, and the deal (RULES B.4).

At the boundary an action is a dict (see :func:`action_from_dict`); cards in actions are physical
ids (``"8S.0"``, ``"JK=9H.1"``, see :func:`card_ref`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..cards import Card, make_deck
from ..errors import IllegalMove, InvalidAction
from ..shuffle import DealRng
from ..text import MANIPULATION_MESSAGES
from .rules import GAME, ManipulationRules, as_rules


def illegal(code: str, **params: Any) -> IllegalMove:
    """The refusal ``code`` with its template from :data:`.text.MANIPULATION_MESSAGES`."""
    return IllegalMove(code, MANIPULATION_MESSAGES[code], params or None)


def codes(cards: Iterable[Card]) -> list[str]:
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
    rng: DealRng,
    dealer: int | None = None,
) -> ManipulationState:
    """Deal a round (B.4): random first dealer unless given, 10 cards each from the dealer's left."""
    n = seats if isinstance(seats, int) else len(seats)
    if not isinstance(n, int) or not 2 <= n <= 5:
        raise InvalidAction("Manipulation Rummy is for 2 to 5 players.", code="bad_players")
    r = as_rules(rules).for_players(n)
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


def replace_state(state: ManipulationState, **changes: Any) -> ManipulationState:
    d = {f.name: getattr(state, f.name) for f in fields(state)}
    d.update(changes)
    return ManipulationState(**d)


def cards_in_play(state: ManipulationState) -> list[Card]:
    """Every physical card of the round (hands, stock, table), undeclared — for conservation checks."""
    out = [c for h in state.hands for c in h] + list(state.stock)
    out += [c.undeclared() for m in state.table for c in m]
    return out


def hand_of(state: ManipulationState, seat: int) -> list[Card]:
    return list(state.hands[seat])
