"""Gin Rummy's values: the role draw (RULES C.2.1), actions, a finished hand's result and the hand state."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidAction
from ..shuffle import DealRng
from .deadwood import ALL_MELDS, meld_order
from .knock import Settlement
from .masks import CODES, IDS, card_index, hand_mask, mask_ids
from .rules import GinRules


@dataclass(frozen=True, slots=True)
class RoleDraw:
    """The draws for roles: each round is ``((seat, card index), ...)``; ties re-draw among the tied."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]
    box: int
    captain: int
    advisor: int

    @property
    def roles(self) -> tuple[int, int, int]:
        return (self.box, self.captain, self.advisor)

    def to_dict(self) -> dict[str, Any]:
        return {
            "draws": [[{"seat": s, "card": CODES[c]} for s, c in rnd] for rnd in self.rounds],  # codes: another pack
            "box": self.box,
            "captain": self.captain,
            "advisor": self.advisor,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RoleDraw:
        rounds = tuple(tuple((x["seat"], card_index(x["card"])) for x in rnd) for rnd in d["draws"])
        return cls(rounds, d["box"], d["captain"], d["advisor"])


def draw_roles(rng: DealRng, seats: int = 3) -> RoleDraw:
    """Each player draws a card from a shuffled pack: highest rank (K high, A low) → box, middle →
    captain, lowest → advisor; tied players draw again from a freshly shuffled pack (C.2.1 [ext])."""
    rounds: list[tuple[tuple[int, int], ...]] = []

    def order(group: list[int]) -> list[int]:
        deck = list(range(52))
        rng.shuffle(deck)
        drawn = {s: deck[k] for k, s in enumerate(group)}
        rounds.append(tuple((s, drawn[s]) for s in group))
        ranked = sorted(group, key=lambda s: -(drawn[s] % 13))
        out: list[int] = []
        i = 0
        while i < len(ranked):
            j = i
            while j < len(ranked) and drawn[ranked[j]] % 13 == drawn[ranked[i]] % 13:
                j += 1
            tied = ranked[i:j]
            out.extend(tied if len(tied) == 1 else order(tied))
            i = j
        return out

    box, captain, advisor = order(list(range(seats)))
    return RoleDraw(tuple(rounds), box, captain, advisor)


# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------

ACTION_TYPES = ("take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "knock", "pass", "suggest")
SUGGESTIBLE = ACTION_TYPES[:-1]  # what an advisor may suggest: any move of the captain's


@dataclass(frozen=True, slots=True)
class GinAction:
    """An action: ``type`` plus ``card`` (index) for discard/knock, optional knock ``melds`` (masks),
    ``suggestion`` (canonical JSON text) for the advisor's suggest."""

    type: str
    card: int | None = None
    melds: tuple[int, ...] | None = None
    suggestion: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type}
        if self.card is not None:
            d["card"] = IDS[self.card]
        if self.melds is not None:
            d["melds"] = [[IDS[i] for i in meld_order(m)] if m in ALL_MELDS else mask_ids(m) for m in self.melds]
        if self.suggestion is not None:
            d["suggestion"] = json.loads(self.suggestion)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> GinAction:
        return action_from_dict(d)


def _card_field(v: Any) -> int:
    if not isinstance(v, str):
        raise InvalidAction('card must be a card id string such as "8S.0".', code="bad_card")
    return card_index(v)


def action_from_dict(d: Any) -> GinAction:
    """Parse an action dict (InvalidAction on anything malformed)."""
    if isinstance(d, GinAction):
        return d
    if not isinstance(d, dict):
        raise InvalidAction('An action must be a dict with a "type".', code="bad_action")
    t = d.get("type")
    if t not in ACTION_TYPES:
        raise InvalidAction(f"Unknown Gin action type {t!r}.", code="bad_action")
    if t == "discard":
        if "card" not in d:
            raise InvalidAction('discard needs a "card".', code="bad_action")
        return GinAction(t, _card_field(d["card"]))
    if t == "knock":
        card = d.get("card")
        card = None if card is None else _card_field(card)
        melds = d.get("melds")
        mm = None
        if melds is not None:
            if not isinstance(melds, list) or len(melds) > 11:
                raise InvalidAction("melds must be a list of at most 11 lists of card ids.", code="bad_melds")
            mm = []
            for meld in melds:
                if not isinstance(meld, list) or not 1 <= len(meld) <= 11:
                    raise InvalidAction("Each meld must be a list of 1 to 11 card ids.", code="bad_melds")
                mm.append(hand_mask([_card_field(c) for c in meld]))
            mm = tuple(mm)
        return GinAction(t, card, mm)
    if t == "suggest":
        return GinAction(t, suggestion=json.dumps(suggestion_from_dict(d.get("suggestion")), sort_keys=True))
    return GinAction(t)


def suggestion_from_dict(sug: Any) -> dict[str, Any]:
    """An advisor's suggestion in canonical form: ``{"action": a captain's action type}`` plus ``"card"``
    (a card id) for a discard or a knock; anything else is refused (code ``bad_suggestion``).  Whether
    the captain can make that move now is checked by :func:`apply`; ``"gin"`` is worked out there."""
    if not isinstance(sug, dict) or not set(sug) <= {"action", "card", "gin"}:
        raise InvalidAction('suggestion must be {"action": ..., "card": ...}.', code="bad_suggestion")
    kind = sug.get("action")
    if kind not in SUGGESTIBLE:
        raise InvalidAction("suggestion names no move of the captain.", code="bad_suggestion")
    out: dict[str, Any] = {"action": kind}
    card = sug.get("card")
    if card is not None or kind == "discard":
        if kind not in ("discard", "knock"):
            raise InvalidAction("only a discard or a knock names a card.", code="bad_suggestion")
        try:
            out["card"] = IDS[_card_field(card)]
        except InvalidAction:
            raise InvalidAction("suggestion names no card of the pack.", code="bad_suggestion") from None
    return out


# ---------------------------------------------------------------------------------------------
# The hand state
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: ``kind`` gin / knock / undercut / tie / dead, seats, points and the layout."""

    kind: str
    knocker: int | None
    winner: int | None
    points: int
    multiplier: int
    knock_card: int | None
    hands: tuple[tuple[int, ...], ...]  # every seat's hand at the end (after the knocker's discard)
    settlement: Settlement | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "knocker": self.knocker,
            "winner": self.winner,
            "points": self.points,
            "multiplier": self.multiplier,
            "knock_card": IDS[self.knock_card] if self.knock_card is not None else None,
            "hands": [[IDS[c] for c in h] for h in self.hands],
            "settlement": self.settlement.to_dict() if self.settlement else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandResult:
        return cls(
            d["kind"],
            d["knocker"],
            d["winner"],
            d["points"],
            d["multiplier"],
            card_index(d["knock_card"]) if d["knock_card"] is not None else None,
            tuple(tuple(card_index(c) for c in h) for h in d["hands"]),
            Settlement.from_dict(d["settlement"]) if d["settlement"] else None,
        )


PHASES = ("upcard", "upcard_dealer", "draw", "discard", "fiftieth", "over")


@dataclass(frozen=True, slots=True)
class GinState:
    """One hand of Gin.  Cards are indices; ``stock[0]`` is the top of the stock, ``discard[-1]`` the top
    discard.  Three players: ``dealer`` is the box, ``nondealer`` the captain, ``advisor`` sits out."""

    rules: GinRules
    n_seats: int
    dealer: int
    nondealer: int
    advisor: int | None
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    discard: tuple[int, ...]
    first_upcard: int
    knock_limit: int
    multiplier: int
    phase: str
    seat_to_act: int | None
    taken: int | None = None  # card taken from the discard pile this turn
    stock_only: bool = False  # both passed the upcard: the first draw is from the stock (C.4.4)
    must_knock: bool = False  # took the last discard under the 50th-card rule
    turn: int = 0
    log: tuple[tuple[str, int | None, int | None], ...] = ()
    suggestions: tuple[tuple[int, int, str], ...] = ()  # (advisor seat, turn, JSON)
    result: HandResult | None = None
    role_draw: RoleDraw | None = None
    game: str = "gin"

    @property
    def variant(self) -> str:
        return self.rules.variant

    @property
    def box(self) -> int | None:
        return self.dealer if self.n_seats == 3 else None

    @property
    def captain(self) -> int | None:
        return self.nondealer if self.n_seats == 3 else None

    @property
    def active_seats(self) -> tuple[int, int]:
        return (self.nondealer, self.dealer)

    def other(self, seat: int) -> int:
        return self.dealer if seat == self.nondealer else self.nondealer

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules.to_dict(),
            "n_seats": self.n_seats,
            "dealer": self.dealer,
            "nondealer": self.nondealer,
            "advisor": self.advisor,
            "hands": [[IDS[c] for c in h] for h in self.hands],
            "stock": [IDS[c] for c in self.stock],
            "discard": [IDS[c] for c in self.discard],
            "first_upcard": IDS[self.first_upcard],
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "phase": self.phase,
            "seat_to_act": self.seat_to_act,
            "taken": IDS[self.taken] if self.taken is not None else None,
            "stock_only": self.stock_only,
            "must_knock": self.must_knock,
            "turn": self.turn,
            "log": [[t, s, IDS[c] if c is not None else None] for t, s, c in self.log],
            "suggestions": [[s, t, json.loads(j)] for s, t, j in self.suggestions],
            "result": self.result.to_dict() if self.result else None,
            "role_draw": self.role_draw.to_dict() if self.role_draw else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GinState:
        if not isinstance(d, dict) or d.get("game") != "gin":
            raise InvalidAction("Not a Gin state.", code="bad_state")

        def ci(x: Any) -> int | None:
            return None if x is None else card_index(x)

        return cls(
            rules=GinRules.from_dict(d["rules"]),
            n_seats=d["n_seats"],
            dealer=d["dealer"],
            nondealer=d["nondealer"],
            advisor=d["advisor"],
            hands=tuple(tuple(card_index(c) for c in h) for h in d["hands"]),
            stock=tuple(card_index(c) for c in d["stock"]),
            discard=tuple(card_index(c) for c in d["discard"]),
            first_upcard=card_index(d["first_upcard"]),
            knock_limit=d["knock_limit"],
            multiplier=d["multiplier"],
            phase=d["phase"],
            seat_to_act=d["seat_to_act"],
            taken=ci(d["taken"]),
            stock_only=d["stock_only"],
            must_knock=d["must_knock"],
            turn=d["turn"],
            log=tuple((t, s, ci(c)) for t, s, c in d["log"]),
            suggestions=tuple((s, t, json.dumps(j, sort_keys=True, allow_nan=False)) for s, t, j in d["suggestions"]),
            result=HandResult.from_dict(d["result"]) if d["result"] else None,
            role_draw=RoleDraw.from_dict(d["role_draw"]) if d["role_draw"] else None,
        )
