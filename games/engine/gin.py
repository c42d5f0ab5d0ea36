"""Gin Rummy: melds and deadwood, knock settlement and the hand state machine.

RULES Part C (three-player "in the box": box, captain, advisor) and Part D
(two-player Gin, Oklahoma Gin, Hollywood scoring), with every option of E.2
(:class:`GinRules`).  Match-level bookkeeping (roles, dealer, cumulative
scores, bonuses, Hollywood's three games) lives in :mod:`gin_scoring` and is
re-exported here.

Internally a card is its index 0–51 (``suit * 13 + rank - 1``, the same as
:attr:`Card.index`) and a hand is an int bitmask of those indices.  At the
boundary cards are physical ids (``"8S.0"``); codes (``"8S"``) and
:class:`Card` objects are accepted wherever cards are taken.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from .cards import RANKS, SUITS, Card, pretty_value
from .errors import IllegalMove, InvalidAction

# ---------------------------------------------------------------------------------------------
# Cards as ints / bitmasks
# ---------------------------------------------------------------------------------------------

M13 = (1 << 13) - 1
FULL_DECK = (1 << 52) - 1
VALUES = tuple(min(i % 13 + 1, 10) for i in range(52))  # RULES C.1.1: A=1, 2..10, J/Q/K=10
CODES = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
IDS = tuple(c + ".0" for c in CODES)

_LOOKUP: dict[Any, int] = {}
for _i in range(52):
    _LOOKUP[CODES[_i]] = _i
    _LOOKUP[IDS[_i]] = _i
    _LOOKUP[Card(_i % 13 + 1, _i // 13, 0)] = _i


def card_index(card: Any) -> int:
    """0–51 for a code (``"8S"``), id (``"8S.0"``), :class:`Card` or int; InvalidAction otherwise."""
    if isinstance(card, bool):
        raise InvalidAction(f"{card!r} is not a card.", code="bad_card")
    if isinstance(card, int):
        if 0 <= card < 52:
            return card
        raise InvalidAction(f"{card!r} is not a card index.", code="bad_card")
    try:
        return _LOOKUP[card]
    except (KeyError, TypeError):
        pass
    c = Card.from_code(card) if not isinstance(card, Card) else card
    if c.is_joker or c.deck != 0:
        raise InvalidAction(f"{card!r} is not a card of the single Gin pack.", code="bad_card")
    return c.index


def _items(hand: Any) -> list:
    if isinstance(hand, str):
        return hand.replace(",", " ").split()
    return list(hand)


def hand_mask(hand: Any) -> int:
    """The bitmask of a hand given as codes/ids/Cards (or a space-separated string, or an int mask)."""
    if isinstance(hand, int) and not isinstance(hand, bool):
        if hand < 0 or hand > FULL_DECK:
            raise InvalidAction("A hand mask must be a 52-bit non-negative int.", code="bad_card")
        return hand
    mask = 0
    lk = _LOOKUP
    for c in _items(hand):
        i = lk.get(c) if isinstance(c, (str, Card)) else None
        if i is None:
            i = card_index(c)
        b = 1 << i
        if mask & b:
            raise InvalidAction(f"{CODES[i]} appears twice; a Gin pack has one of each card.", code="duplicate_card")
        mask |= b
    return mask


def mask_cards(mask: int) -> list[int]:
    """Indices of the set bits, ascending (suit-major: spades A..K, hearts, diamonds, clubs)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_ids(mask: int) -> list[str]:
    return [IDS[i] for i in mask_cards(mask)]


def mask_points(mask: int) -> int:
    return _SP[mask & M13] + _SP[(mask >> 13) & M13] + _SP[(mask >> 26) & M13] + _SP[mask >> 39]


def pretty_cards(cards: Iterable[int]) -> str:
    return " ".join(pretty_value(i % 13 + 1, i // 13) for i in cards)


# ---------------------------------------------------------------------------------------------
# Candidate melds, precomputed at import (RULES C.1.2: sets of 3-4, runs of 3+ with ace low only)
# ---------------------------------------------------------------------------------------------

def _runs13(p: int) -> tuple[tuple[int, int], ...]:
    """All runs (mask, value) of length >= 3 inside a 13-bit suit pattern (ace = bit 0, low only)."""
    out = []
    r = 0
    while r < 13:
        if not (p >> r) & 1:
            r += 1
            continue
        s = r
        while r < 13 and (p >> r) & 1:
            r += 1
        for a in range(s, r - 2):
            m = 0
            v = 0
            for b in range(a, r):
                m |= 1 << b
                v += min(b + 1, 10)
                if b - a >= 2:
                    out.append((m, v))
    return tuple(out)


_SP = tuple(sum(min(b + 1, 10) for b in range(13) if (p >> b) & 1) for p in range(1 << 13))
_RUNS = tuple(_runs13(p) for p in range(1 << 13))


def _sets_for(rank0: int, suits: int) -> tuple[tuple[int, int], ...]:
    present = [s for s in range(4) if (suits >> s) & 1]
    v = min(rank0 + 1, 10)
    out = []
    if len(present) >= 3:
        bits = [1 << (s * 13 + rank0) for s in present]
        if len(bits) == 4:
            out.append((bits[0] | bits[1] | bits[2] | bits[3], 4 * v))
        for skip in range(len(bits)):
            if len(bits) == 3 and skip > 0:
                break
            m = 0
            for j, b in enumerate(bits):
                if len(bits) == 3 or j != skip:
                    m |= b
            out.append((m, 3 * v))
    return tuple(out)


_SETS = tuple(tuple(_sets_for(r, q) for q in range(16)) for r in range(13))

# every meld of the pack as a mask -> kind ("set" / "run"), for validation
ALL_MELDS: dict[int, str] = {}
for _s in range(4):
    for _m, _v in _RUNS[M13]:
        ALL_MELDS[_m << (13 * _s)] = "run"
for _r in range(13):
    for _m, _v in _SETS[_r][15]:
        ALL_MELDS[_m] = "set"


def _hand_melds(h: int) -> list[tuple[int, int]]:
    """All candidate melds (mask, value) contained in hand ``h``."""
    a = h & M13
    b = (h >> 13) & M13
    c = (h >> 26) & M13
    d = h >> 39
    melds: list[tuple[int, int]] = []
    ra = _RUNS[a]
    if ra:
        melds.extend(ra)
    for runs, sh in ((_RUNS[b], 13), (_RUNS[c], 26), (_RUNS[d], 39)):
        if runs:
            melds.extend([(m << sh, v) for m, v in runs])
    t3 = (a & b & (c | d)) | (c & d & (a | b))
    while t3:
        low = t3 & -t3
        r = low.bit_length() - 1
        melds.extend(_SETS[r][((a >> r) & 1) | ((b >> r) & 1) << 1 | ((c >> r) & 1) << 2 | ((d >> r) & 1) << 3])
        t3 ^= low
    return melds


def _max_melded(melds: list[tuple[int, int]]) -> int:
    """Maximum total value of pairwise-disjoint melds (exact): branch on the lowest card, memo on the rest."""
    by_low: dict[int, list[tuple[int, int]]] = {}
    union = 0
    for m, v in melds:
        union |= m
        low = m & -m
        lst = by_low.get(low)
        if lst is None:
            by_low[low] = [(m, v)]
        else:
            lst.append((m, v))
    memo: dict[int, int] = {}

    def rec(rem: int) -> int:
        # drop leading cards that start no meld (they are deadwood or belong to a meld already ruled out)
        while rem:
            low = rem & -rem
            opts = by_low.get(low)
            if opts is not None:
                break
            rem ^= low
        else:
            return 0
        got = memo.get(rem)
        if got is not None:
            return got
        best = rec(rem ^ low)
        for m, v in opts:
            if m & rem == m:
                x = v + rec(rem ^ m)
                if x > best:
                    best = x
        memo[rem] = best
        return best

    return rec(union)


def deadwood_mask(h: int) -> int:
    """Minimum deadwood of the hand bitmask ``h`` (the fast core of :func:`deadwood`)."""
    a = h & M13
    b = (h >> 13) & M13
    c = (h >> 26) & M13
    d = h >> 39
    total = _SP[a] + _SP[b] + _SP[c] + _SP[d]
    ra = _RUNS[a]
    rb = _RUNS[b]
    rc = _RUNS[c]
    rd = _RUNS[d]
    t3 = (a & b & (c | d)) | (c & d & (a | b))
    n = len(ra) + len(rb) + len(rc) + len(rd)
    if not t3:
        if n == 0:
            return total
        if n == 1:
            return total - (ra or rb or rc or rd)[0][1]
    elif n == 0 and not (t3 & (t3 - 1)):
        r = t3.bit_length() - 1
        sets = _SETS[r][((a >> r) & 1) | ((b >> r) & 1) << 1 | ((c >> r) & 1) << 2 | ((d >> r) & 1) << 3]
        return total - sets[0][1]  # the largest set of that rank comes first
    return total - _max_melded(_hand_melds(h))


def deadwood(hand: Any) -> int:
    """Minimum deadwood (RULES C.1.3) of ``hand``: codes, ids, Card objects, a string or an int mask.

    Every card counts; any hand size; ace low only; a card is in at most one meld.
    """
    return deadwood_mask(hand_mask(hand))


def _best_arrangements(h: int, all_optimal: bool = False) -> tuple[int, list[tuple[int, ...]]]:
    """(max melded value, arrangements); an arrangement is a tuple of meld masks."""
    melds = _hand_melds(h)
    by_low: dict[int, list[tuple[int, int]]] = {}
    union = 0
    for m, v in melds:
        union |= m
        by_low.setdefault(m & -m, []).append((m, v))
    memo: dict[int, tuple[int, list[tuple[int, ...]]]] = {}

    def rec(rem: int) -> tuple[int, list[tuple[int, ...]]]:
        while rem:
            low = rem & -rem
            if low in by_low:
                break
            rem ^= low
        else:
            return 0, [()]
        if rem in memo:
            return memo[rem]
        best, arrs = rec(rem ^ low)
        arrs = list(arrs)
        for m, v in by_low[low]:
            if m & rem == m:
                x, sub = rec(rem ^ m)
                x += v
                if x > best:
                    best, arrs = x, [(m,) + s for s in sub]
                elif x == best:
                    arrs.extend((m,) + s for s in sub)
            if not all_optimal:
                arrs = arrs[:1]
        memo[rem] = (best, arrs)
        return best, arrs

    return rec(union)


def best_melds_mask(h: int) -> tuple[list[int], int]:
    """(meld masks, deadwood mask) of one minimum-deadwood arrangement of the hand bitmask."""
    _, arrs = _best_arrangements(h)
    melds = sorted(arrs[0])
    used = 0
    for m in melds:
        used |= m
    return melds, h & ~used


def _out_like(hand: Any, mask_items: list[int]) -> list:
    items = _items(hand) if not isinstance(hand, int) else []
    if items and all(isinstance(x, Card) for x in items):
        return [Card(i % 13 + 1, i // 13, 0) for i in mask_items]
    if items and all(isinstance(x, str) and "." in x for x in items):
        return [IDS[i] for i in mask_items]
    return [CODES[i] for i in mask_items]


def best_melds(hand: Any) -> tuple[list[list], list]:
    """One minimum-deadwood arrangement: ``(melds, deadwood_cards)``.

    Cards come back in the form they were given (Card objects for Cards, ids for ids, codes
    otherwise); melds are sorted lists, runs in rank order.
    """
    melds, dw = best_melds_mask(hand_mask(hand))
    return [_out_like(hand, _meld_order(m)) for m in melds], _out_like(hand, mask_cards(dw))


def _meld_order(m: int) -> list[int]:
    cards = mask_cards(m)
    return sorted(cards, key=lambda i: (i % 13, i // 13)) if ALL_MELDS.get(m) == "set" else cards


def meld_kind(cards: Any) -> str | None:
    """``"set"`` or ``"run"`` for a valid Gin meld (C.1.2), else None."""
    try:
        m = hand_mask(cards)
    except InvalidAction:
        return None
    return ALL_MELDS.get(m)


# ---------------------------------------------------------------------------------------------
# Rules as data (RULES E.2)
# ---------------------------------------------------------------------------------------------

VARIANTS = ("box3", "gin2", "oklahoma", "hollywood")
_RULE_KEYS = (
    "knock_limit", "gin_bonus", "undercut_bonus", "undercut_on_tie", "big_gin", "no_discard_of_taken_card",
    "dead_hand_at_stock", "fiftieth_card_rule", "game_target", "end_bonuses", "game_bonus", "box_bonus",
    "shutout", "role_draw_ties", "advisor_can_advise", "dealer_2p", "oklahoma_ace", "oklahoma_spades_double",
    "oklahoma_double_boxes", "hollywood_target",
)


def _bad(key: str, value: Any, allowed: str) -> InvalidAction:
    return InvalidAction(f"Gin option {key}={value!r} is not allowed ({allowed}).", code="bad_option")


@dataclass(frozen=True, slots=True, init=False)
class GinRules:
    """The table options of RULES E.2 plus the variant.

    ``variant``: ``"box3"`` (three players, Part C; the default), ``"gin2"`` (two-player Gin, D.1),
    ``"oklahoma"`` (D.2) or ``"hollywood"`` (D.3 scoring; with ``oklahoma=True`` also Oklahoma play).
    Defaults follow the E.2 table per variant (e.g. ``end_bonuses`` off for three players, on for two;
    ``game_target`` 150 for Oklahoma).
    """

    variant: str
    oklahoma: bool
    knock_limit: int
    gin_bonus: int
    undercut_bonus: int
    undercut_on_tie: bool
    big_gin: str
    no_discard_of_taken_card: bool
    dead_hand_at_stock: int
    fiftieth_card_rule: bool
    game_target: int
    end_bonuses: bool
    game_bonus: int
    box_bonus: int
    shutout: str
    role_draw_ties: str
    advisor_can_advise: bool
    dealer_2p: str
    oklahoma_ace: str
    oklahoma_spades_double: bool
    oklahoma_double_boxes: bool
    hollywood_target: int

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(_RULE_KEYS) - {"variant", "oklahoma"}
        if unknown:
            raise InvalidAction(f"Unknown Gin option(s): {', '.join(sorted(unknown))}.", code="bad_option")
        variant = options.get("variant", "box3")
        if variant not in VARIANTS:
            raise _bad("variant", variant, " / ".join(VARIANTS))
        okla_default = variant == "oklahoma"
        oklahoma = options.get("oklahoma", okla_default)
        if not isinstance(oklahoma, bool) or (variant == "oklahoma" and not oklahoma) or (
            oklahoma and variant not in ("oklahoma", "hollywood")
        ):
            raise _bad("oklahoma", oklahoma, "true for the oklahoma variant, optional for hollywood")
        vals: dict[str, Any] = {
            "knock_limit": 10, "gin_bonus": 25, "undercut_bonus": 10, "undercut_on_tie": True, "big_gin": "off",
            "no_discard_of_taken_card": True, "dead_hand_at_stock": 2, "fiftieth_card_rule": False,
            "game_target": 150 if oklahoma and variant == "oklahoma" else 100,
            "end_bonuses": variant != "box3", "game_bonus": 100, "box_bonus": 25, "shutout": "game_bonus_200",
            "role_draw_ties": "redraw", "advisor_can_advise": True, "dealer_2p": "winner",
            "oklahoma_ace": "gin_only", "oklahoma_spades_double": True, "oklahoma_double_boxes": False,
            "hollywood_target": 100,
        }
        vals.update({k: v for k, v in options.items() if k in _RULE_KEYS})
        # normalise
        bg = vals["big_gin"]
        if bg is False or bg is None:
            bg = "off"
        if bg == 31 or bg == "31":
            bg = "31"
        vals["big_gin"] = bg
        if vals["shutout"] is False or vals["shutout"] is None:
            vals["shutout"] = "off"

        def want_int(k: str, lo: int, hi: int, choices: tuple[int, ...] | None = None) -> None:
            v = vals[k]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi or (choices and v not in choices):
                raise _bad(k, v, " / ".join(map(str, choices)) if choices else f"an integer {lo}-{hi}")

        def want_bool(k: str) -> None:
            if not isinstance(vals[k], bool):
                raise _bad(k, vals[k], "true / false")

        def want_choice(k: str, choices: tuple[str, ...]) -> None:
            if vals[k] not in choices:
                raise _bad(k, vals[k], " / ".join(choices))

        want_int("knock_limit", 0, 10)
        want_int("gin_bonus", 20, 25, (20, 25))
        want_int("undercut_bonus", 10, 25, (10, 20, 25))
        want_int("dead_hand_at_stock", 2, 2, (2,))
        want_int("game_target", 1, 100000)
        want_int("game_bonus", 0, 100000)
        want_int("box_bonus", 20, 25, (20, 25))
        want_int("hollywood_target", 100, 150, (100, 125, 150))
        for k in ("undercut_on_tie", "no_discard_of_taken_card", "fiftieth_card_rule", "end_bonuses",
                  "advisor_can_advise", "oklahoma_spades_double", "oklahoma_double_boxes"):
            want_bool(k)
        want_choice("big_gin", ("off", "31", "gin+6"))
        want_choice("shutout", ("game_bonus_200", "double", "off"))
        want_choice("role_draw_ties", ("redraw",))
        want_choice("dealer_2p", ("winner", "alternate", "loser"))
        want_choice("oklahoma_ace", ("gin_only", "one"))
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "oklahoma", oklahoma)
        for k in _RULE_KEYS:
            object.__setattr__(self, k, vals[k])

    # presets ----------------------------------------------------------------------------------
    @classmethod
    def box3(cls, **options: Any) -> GinRules:
        """Three-player Gin "in the box" (Part C)."""
        return cls(variant="box3", **options)

    @classmethod
    def two_player(cls, **options: Any) -> GinRules:
        """Standard two-player Gin (D.1)."""
        return cls(variant="gin2", **options)

    @classmethod
    def oklahoma_gin(cls, **options: Any) -> GinRules:
        return cls(variant="oklahoma", **options)

    @classmethod
    def hollywood(cls, oklahoma: bool = False, **options: Any) -> GinRules:
        """Hollywood scoring (D.3) over two-player play, optionally Oklahoma play."""
        return cls(variant="hollywood", oklahoma=oklahoma, **options)

    # properties ---------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return 3 if self.variant == "box3" else 2

    @property
    def is_three_player(self) -> bool:
        return self.variant == "box3"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"variant": self.variant, "oklahoma": self.oklahoma}
        for k in _RULE_KEYS:
            d[k] = getattr(self, k)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GinRules:
        if not isinstance(d, dict):
            raise InvalidAction("Gin rules must be a dict.", code="bad_option")
        return cls(**d)


# ``GinRules.oklahoma`` is the flag field; the preset is reachable as ``GinRules.oklahoma_preset`` too.
def _oklahoma_preset(**options: Any) -> GinRules:
    return GinRules(variant="oklahoma", **options)


class _PresetOrFlag:
    """``GinRules.oklahoma()`` is the preset; ``rules.oklahoma`` on an instance is the bool flag."""

    def __init__(self, member: Any) -> None:
        self.member = member

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return _oklahoma_preset
        return self.member.__get__(obj, objtype)

    def __set__(self, obj: Any, value: Any) -> None:
        self.member.__set__(obj, value)


GinRules.oklahoma = _PresetOrFlag(GinRules.__dict__["oklahoma"])  # type: ignore[assignment]
GinRules.oklahoma_preset = staticmethod(_oklahoma_preset)  # type: ignore[attr-defined]
