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
from dataclasses import dataclass, replace
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


_BITS: dict[Any, int] = {k: 1 << v for k, v in _LOOKUP.items()}


def hand_mask(hand: Any) -> int:
    """The bitmask of a hand given as codes/ids/Cards (or a space-separated string, or an int mask)."""
    if isinstance(hand, int) and not isinstance(hand, bool):
        if hand < 0 or hand > FULL_DECK:
            raise InvalidAction("A hand mask must be a 52-bit non-negative int.", code="bad_card")
        return hand
    if isinstance(hand, str):
        hand = hand.replace(",", " ").split()
    elif not isinstance(hand, (list, tuple)):
        hand = list(hand)
    try:
        bits = [_BITS[c] for c in hand]
    except (KeyError, TypeError):
        bits = None
    if bits is not None:
        mask = sum(bits)
        if mask.bit_count() == len(bits):
            return mask
    mask = 0
    for c in hand:
        b = 1 << card_index(c)
        if mask & b:
            raise InvalidAction(
                f"{CODES[b.bit_length() - 1]} appears twice; a Gin pack has one of each card.", code="duplicate_card"
            )
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


_DP_THRESHOLD = 22  # hands with more cards use the per-rank DP (bounded work) instead of the memo search


def _suit_options(status: int, present: int) -> tuple[tuple[int, int], ...]:
    """(new run status, role) for one suit at one rank; role 0 dead, 1 run, 2 set.  Status: 0 no run,
    1/2 a run of 1/2 cards that must continue, 3 a run of 3+ that may stop."""
    if present:
        if status == 0:
            return ((1, 1), (0, 2), (0, 0))
        if status in (1, 2):
            return ((status + 1, 1),)
        return ((3, 1), (0, 2), (0, 0))
    return ((0, -1),) if status in (0, 3) else ()


def _dp_arrangement(h: int) -> tuple[int, list[int]]:
    """Exact max melded value by dynamic programming over ranks A..K with per-suit run status (any hand
    size, bounded work); returns (value, meld masks)."""
    layers: list[dict[tuple[int, ...], tuple[int, Any, tuple[int, ...]]]] = []
    states: dict[tuple[int, ...], tuple[int, Any, tuple[int, ...]]] = {(0, 0, 0, 0): (0, None, ())}
    for r in range(13):
        present = [(h >> (s * 13 + r)) & 1 for s in range(4)]
        v = min(r + 1, 10)
        new: dict[tuple[int, ...], tuple[int, Any, tuple[int, ...]]] = {}
        for st, (val, _, _) in states.items():
            per = [_suit_options(st[s], present[s]) for s in range(4)]
            if not all(per):
                continue
            for combo in product(*per):
                roles = tuple(role for _, role in combo)
                nset = roles.count(2)
                if 0 < nset < 3:
                    continue
                gain = v * (roles.count(1) + nset)
                nst = tuple(ns for ns, _ in combo)
                cur = new.get(nst)
                if cur is None or val + gain > cur[0]:
                    new[nst] = (val + gain, st, roles)
        layers.append(new)
        states = new
    best_val, best_state = -1, None
    for st, (val, _, _) in states.items():
        if all(x in (0, 3) for x in st) and val > best_val:
            best_val, best_state = val, st
    # backtrack the roles of every card
    roles_by_rank: list[tuple[int, ...]] = [()] * 13
    st = best_state
    for r in range(12, -1, -1):
        _, prev, roles = layers[r][st]
        roles_by_rank[r] = roles
        st = prev
    melds: list[int] = []
    for r in range(13):
        m = sum(1 << (s * 13 + r) for s in range(4) if roles_by_rank[r][s] == 2)
        if m:
            melds.append(m)
    for s in range(4):
        run = 0
        for r in range(14):
            if r < 13 and roles_by_rank[r][s] == 1:
                run |= 1 << (s * 13 + r)
            elif run:
                melds.append(run)
                run = 0
    return best_val, melds


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
    if h.bit_count() > _DP_THRESHOLD:
        return total - _dp_arrangement(h)[0]
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
    if h.bit_count() > _DP_THRESHOLD:
        melds = sorted(_dp_arrangement(h)[1])
    else:
        melds = sorted(_best_arrangements(h)[1][0])
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
    if not isinstance(hand, (int, str, list, tuple)):
        hand = list(hand)
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
VARIANT_ALIASES = {"gin_box": "box3", "box": "box3", "gin": "gin2", "two_player": "gin2"}  # web-layer keys
_RULE_KEYS = (
    "knock_limit",
    "gin_bonus",
    "undercut_bonus",
    "undercut_on_tie",
    "big_gin",
    "no_discard_of_taken_card",
    "dead_hand_at_stock",
    "fiftieth_card_rule",
    "game_target",
    "end_bonuses",
    "game_bonus",
    "box_bonus",
    "shutout",
    "role_draw_ties",
    "advisor_can_advise",
    "dealer_2p",
    "oklahoma_ace",
    "oklahoma_spades_double",
    "oklahoma_double_boxes",
    "hollywood_target",
)


def _bad(key: str, value: Any, allowed: str) -> InvalidAction:
    return InvalidAction(f"Gin option {key}={value!r} is not allowed ({allowed}).", code="bad_option")


# Integer options (RULES E.2): key -> (min, max); those with a fixed list of values also in INT_CHOICES.
# The open-ended ones are bounded so that no total can leave the stored 32-bit score columns.
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 10),
    "gin_bonus": (20, 25),
    "undercut_bonus": (10, 25),
    "dead_hand_at_stock": (2, 2),
    "game_target": (1, 10_000),
    "game_bonus": (0, 10_000),
    "box_bonus": (20, 25),
    "hollywood_target": (100, 150),
}
INT_CHOICES: dict[str, tuple[int, ...]] = {
    "gin_bonus": (20, 25),
    "undercut_bonus": (10, 20, 25),
    "dead_hand_at_stock": (2,),
    "box_bonus": (20, 25),
    "hollywood_target": (100, 125, 150),
}


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
        variant = VARIANT_ALIASES.get(variant, variant) if isinstance(variant, str) else variant
        if variant not in VARIANTS:
            raise _bad("variant", variant, " / ".join(VARIANTS))
        okla_default = variant == "oklahoma"
        oklahoma = options.get("oklahoma", okla_default)
        if (
            not isinstance(oklahoma, bool)
            or (variant == "oklahoma" and not oklahoma)
            or (oklahoma and variant not in ("oklahoma", "hollywood"))
        ):
            raise _bad("oklahoma", oklahoma, "true for the oklahoma variant, optional for hollywood")
        vals: dict[str, Any] = {
            "knock_limit": 10,
            "gin_bonus": 25,
            "undercut_bonus": 10,
            "undercut_on_tie": True,
            "big_gin": "off",
            "no_discard_of_taken_card": True,
            "dead_hand_at_stock": 2,
            "fiftieth_card_rule": False,
            "game_target": 150 if oklahoma and variant == "oklahoma" else 100,
            "end_bonuses": variant != "box3",
            "game_bonus": 100,
            "box_bonus": 25,
            "shutout": "game_bonus_200",
            "role_draw_ties": "redraw",
            "advisor_can_advise": True,
            "dealer_2p": "winner",
            "oklahoma_ace": "gin_only",
            "oklahoma_spades_double": True,
            "oklahoma_double_boxes": False,
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

        for k, (lo, hi) in OPTION_RANGES.items():
            want_int(k, lo, hi, INT_CHOICES.get(k))
        for k in (
            "undercut_on_tie",
            "no_discard_of_taken_card",
            "fiftieth_card_rule",
            "end_bonuses",
            "advisor_can_advise",
            "oklahoma_spades_double",
            "oklahoma_double_boxes",
        ):
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


# ---------------------------------------------------------------------------------------------
# Player-facing messages (code -> template; the web layer translates by code)
# ---------------------------------------------------------------------------------------------

MESSAGES: dict[str, str] = {
    "hand_over": "This hand is over.",
    "not_your_turn": "It is not your turn.",
    "advisor_cannot_act": "The advisor holds no cards: he can only send suggestions to the captain.",
    "not_advisor": "Only the advisor can send suggestions.",
    "advice_disabled": "Advice from the advisor is switched off at this table.",
    "bad_suggestion": "That suggestion names a card the captain does not hold.",
    "upcard_decision": "First take the upcard or pass it.",
    "must_draw": "Take a card first: draw from the stock or take the top discard.",
    "must_draw_stock": "Both players passed the upcard: start by drawing from the stock.",
    "must_discard": "You have taken a card: now discard one card or knock.",
    "no_upcard_now": "The upcard can only be taken or passed at the start of the hand.",
    "card_not_in_hand": "%(cards)s is not in your hand.",
    "cannot_discard_taken_card": "%(cards)s was just taken from the discard pile and cannot be discarded this turn.",
    "knock_too_high": "You cannot knock: after discarding %(cards)s your deadwood would be %(deadwood)s, "
    "more than %(limit)s.",
    "knock_too_high_laid": "You cannot knock: the deadwood you lay out is %(deadwood)s, more than %(limit)s.",
    "gin_only": "The first upcard was an ace: nobody may knock, only gin ends this hand.",
    "invalid_meld": "%(cards)s: not a meld (a set is 3 or 4 cards of one rank; a run is 3 or more cards "
    "in sequence in one suit, ace low).",
    "meld_card_twice": "%(cards)s is used in more than one meld.",
    "fiftieth_card_knock_only": "Only two stock cards are left: you may take %(cards)s only to knock with it.",
    "must_knock": "You took the last discard under the 50th-card rule: you must knock now.",
    "no_pass_now": "You can only pass the last discard when two stock cards are left.",
    "big_gin_not_allowed": "Knocking without a discard (big gin) is not allowed at this table.",
    "not_big_gin": "To knock without discarding, all eleven of your cards must be in melds.",
}


def _illegal(code: str, template: str | None = None, **params: Any) -> IllegalMove:
    """The refusal ``code`` with the template ``MESSAGES[template or code]``; ``cards`` are card indices."""
    if "cards" in params:
        params["cards"] = [CODES[i] for i in params["cards"]]
    return IllegalMove(code, MESSAGES[template or code], params or None)


# ---------------------------------------------------------------------------------------------
# Settling a knock (RULES C.6, C.7)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of a knock.  Cards are ids (``"8S.0"``); ``layoffs`` are (card, knocker-meld index)."""

    outcome: str  # "gin" | "knock" | "undercut" | "tie"
    winner: str | None  # "knocker" | "defender" | None
    points: int
    knocker_deadwood: int
    defender_deadwood: int
    knocker_melds: tuple[tuple[str, ...], ...]
    knocker_deadwood_cards: tuple[str, ...]
    defender_melds: tuple[tuple[str, ...], ...]
    defender_deadwood_cards: tuple[str, ...]
    layoffs: tuple[tuple[str, int], ...]
    big_gin: bool = False
    multiplier: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
            "knocker_melds": [list(m) for m in self.knocker_melds],
            "knocker_deadwood_cards": list(self.knocker_deadwood_cards),
            "defender_melds": [list(m) for m in self.defender_melds],
            "defender_deadwood_cards": list(self.defender_deadwood_cards),
            "layoffs": [{"card": c, "meld": i} for c, i in self.layoffs],
            "big_gin": self.big_gin,
            "multiplier": self.multiplier,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settlement:
        return cls(
            d["outcome"],
            d["winner"],
            d["points"],
            d["knocker_deadwood"],
            d["defender_deadwood"],
            tuple(tuple(m) for m in d["knocker_melds"]),
            tuple(d["knocker_deadwood_cards"]),
            tuple(tuple(m) for m in d["defender_melds"]),
            tuple(d["defender_deadwood_cards"]),
            tuple((x["card"], x["meld"]) for x in d["layoffs"]),
            d.get("big_gin", False),
            d.get("multiplier", 1),
        )


def _layoff_options(kmelds: list[int], dm: int) -> list[list[tuple[int, list[int]]]]:
    """Per knocker meld, the possible lay-off choices (mask, cards in laying order) from hand ``dm``."""
    options = []
    for m in kmelds:
        opts: list[tuple[int, list[int]]] = [(0, [])]
        cards = mask_cards(m)
        if ALL_MELDS[m] == "set":
            if len(cards) == 3:
                r = cards[0] % 13
                for s in range(4):
                    b = s * 13 + r
                    if not (m >> b) & 1 and (dm >> b) & 1:
                        opts.append((1 << b, [b]))
        else:
            lo, hi = cards[0], cards[-1]
            base = lo - lo % 13
            low: list[int] = []
            i = lo - 1
            while i >= base and (dm >> i) & 1:
                low.append(i)
                i -= 1
            high: list[int] = []
            i = hi + 1
            while i < base + 13 and (dm >> i) & 1:
                high.append(i)
                i += 1
            for k in range(len(low) + 1):
                for j in range(len(high) + 1):
                    if k or j:
                        seq = low[:k] + high[:j]
                        opts.append((sum(1 << c for c in seq), seq))
        options.append(opts)
    return options


def _defender_best(kmelds: list[int], dm: int) -> tuple[int, int, list[tuple[int, int]]]:
    """(final deadwood, remaining mask, layoffs [(card, meld index)]) minimising the defender's deadwood."""
    best = (deadwood_mask(dm), dm, [])
    for choice in product(*_layoff_options(kmelds, dm)):
        laid = 0
        ok = True
        for mask, _ in choice:
            if laid & mask:
                ok = False
                break
            laid |= mask
        if not ok or not laid:
            continue
        rem = dm & ~laid
        dw = deadwood_mask(rem)
        if dw < best[0]:
            best = (dw, rem, [(c, i) for i, (_, seq) in enumerate(choice) for c in seq])
    return best


def _parse_melds(melds: Any, hand: int) -> list[int]:
    if not isinstance(melds, (list, tuple)) or len(melds) > 11:
        raise InvalidAction("melds must be a list of at most 11 lists of cards.", code="bad_melds")
    out = []
    used = 0
    for meld in melds:
        if isinstance(meld, int) and not isinstance(meld, bool):
            m = meld
        else:
            if not isinstance(meld, (list, tuple)) or len(meld) > 11:
                raise InvalidAction("Each meld must be a list of at most 11 cards.", code="bad_melds")
            m = hand_mask(meld)
        if m & ~hand:
            raise _illegal("card_not_in_hand", cards=mask_cards(m & ~hand))
        if m not in ALL_MELDS:
            raise _illegal("invalid_meld", cards=_meld_order(m) if m in ALL_MELDS else mask_cards(m))
        if m & used:
            raise _illegal("meld_card_twice", cards=mask_cards(m & used))
        used |= m
        out.append(m)
    return out


def _ids_of_melds(melds: Iterable[int]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(IDS[i] for i in _meld_order(m)) for m in melds)


def _as_rules(rules: Any) -> GinRules:
    if rules is None:
        return GinRules()
    if isinstance(rules, GinRules):
        return rules
    if isinstance(rules, dict):
        return GinRules.from_dict(rules)
    raise InvalidAction("rules must be a GinRules or a dict of options.", code="bad_option")


def settle_knock(
    knocker_hand: Any,
    defender_hand: Any,
    *,
    knocker_melds: Any = None,
    rules: Any = None,
    knock_limit: int | None = None,
    multiplier: int = 1,
) -> Settlement:
    """Settle a knock (RULES C.6-C.7, D.1.5-D.1.6).

    ``knocker_hand``: the knocker's cards after his discard (10; 11 for big gin); ``defender_hand``:
    the opponent's 10 cards.  ``knocker_melds=None``: the knocker's minimum-deadwood arrangement (among
    several, the one that leaves the defender the fewest lay-offs); given melds are validated and may
    be a worse arrangement as long as the deadwood is within ``knock_limit`` (default
    ``rules.knock_limit``).  Against gin there are no lay-offs (C.6.4).  The defender's own melds and
    lay-offs (chained along runs) are chosen jointly to minimise his deadwood (exact).
    ``multiplier`` (Oklahoma spades) multiplies ``points``.
    """
    from .gin_scoring import gin_hand_result

    rules = _as_rules(rules)
    km = hand_mask(knocker_hand)
    dm = hand_mask(defender_hand)
    if km & dm:
        raise InvalidAction(f"{pretty_cards(mask_cards(km & dm))} cannot be in both hands.", code="duplicate_card")
    limit = rules.knock_limit if knock_limit is None else knock_limit
    if knocker_melds is not None:
        arrangements = [tuple(_parse_melds(knocker_melds, km))]
    else:
        _, arrangements = _best_arrangements(km, all_optimal=True)
        arrangements = arrangements[:64]
    results = []
    for arr in arrangements:
        used = 0
        for m in arr:
            used |= m
        kdw_mask = km & ~used
        k = mask_points(kdw_mask)
        if k > limit:
            if limit == 0 and rules.oklahoma:
                raise _illegal("gin_only")
            raise _illegal("knock_too_high", "knock_too_high_laid", deadwood=k, limit=limit)
        if k == 0:
            d, rem, lay = deadwood_mask(dm), dm, []
        else:
            d, rem, lay = _defender_best(list(arr), dm)
        results.append((d, arr, kdw_mask, k, rem, lay))
    d, arr, kdw_mask, k, rem, lay = max(results, key=lambda r: r[0] - r[3])
    big = k == 0 and bin(km).count("1") == 11 and rules.big_gin != "off"
    outcome, winner, points = gin_hand_result(k, d, rules, multiplier=multiplier, big_gin=big)
    dmelds, ddw = best_melds_mask(rem)
    return Settlement(
        outcome,
        winner,
        points,
        k,
        d,
        _ids_of_melds(arr),
        tuple(mask_ids(kdw_mask)),
        _ids_of_melds(dmelds),
        tuple(mask_ids(ddw)),
        tuple((IDS[c], i) for c, i in lay),
        big,
        multiplier,
    )


# ---------------------------------------------------------------------------------------------
# Role draw (RULES C.2.1)
# ---------------------------------------------------------------------------------------------


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


def draw_roles(rng: random.Random, seats: int = 3) -> RoleDraw:
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
            d["melds"] = [[IDS[i] for i in _meld_order(m)] if m in ALL_MELDS else mask_ids(m) for m in self.melds]
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
        return GinAction(t, suggestion=json.dumps(_suggestion_from_dict(d.get("suggestion")), sort_keys=True))
    return GinAction(t)


def _suggestion_from_dict(sug: Any) -> dict[str, Any]:
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


def oklahoma_knock_limit(upcard: int, rules: GinRules) -> int:
    """RULES D.2.1: 2-9 face value, 10/J/Q/K 10, ace → 0 (gin only) or 1 (option ``oklahoma_ace``)."""
    r = upcard % 13 + 1
    if r == 1:
        return 0 if rules.oklahoma_ace == "gin_only" else 1
    return min(r, 10)


def _seat_count(seats: Any) -> int:
    if isinstance(seats, int) and not isinstance(seats, bool):
        return seats
    try:
        return len(seats)
    except TypeError:
        raise InvalidAction("seats must be a number of seats or a list of seats.", code="bad_seats") from None


def new_round(rules: Any, seats: Any, rng: random.Random, **kw: Any) -> GinState:
    """Deal a hand.  ``seats``: 3 for the box game, 2 otherwise (an int or a list of players).

    Keywords: three players — ``roles=(box, captain, advisor)`` (else roles are drawn, C.2.1, and the
    draw is kept in ``state.role_draw``); two players — ``dealer`` (else chosen at random, D.1.2).
    The dealer deals 10 cards each one at a time starting with the non-dealer, then turns the upcard;
    the rest is the 31-card stock (C.3, D.1.3).
    """
    rules = _as_rules(rules)
    n = _seat_count(seats)
    if n != rules.players:
        raise InvalidAction(f"The {rules.variant} variant needs {rules.players} seats, not {n}.", code="bad_seats")
    unknown = set(kw) - {"roles", "dealer", "box", "captain", "advisor", "role_draw", "hand_number"}
    if unknown:
        raise InvalidAction(f"Unknown new_round argument(s): {', '.join(sorted(unknown))}.", code="bad_seats")
    role_draw = None
    advisor = None
    if n == 3:
        roles = kw.get("roles")
        if roles is None and "box" in kw:
            roles = (kw["box"], kw["captain"], kw["advisor"])
        if roles is None:
            role_draw = draw_roles(rng)
            roles = role_draw.roles
        roles = tuple(roles)
        if sorted(roles) != [0, 1, 2] or any(isinstance(x, bool) for x in roles):
            raise InvalidAction("roles must be (box, captain, advisor), a permutation of 0, 1, 2.", code="bad_roles")
        dealer, nondealer, advisor = roles
    else:
        dealer = kw.get("dealer")
        if dealer is None:
            dealer = rng.randrange(2)
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise InvalidAction("dealer must be 0 or 1.", code="bad_roles")
        nondealer = 1 - dealer
    deck = list(range(52))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for k in range(20):
        hands[nondealer if k % 2 == 0 else dealer].append(deck[k])
    upcard = deck[20]
    stock = tuple(deck[21:])
    if rules.oklahoma:
        limit = oklahoma_knock_limit(upcard, rules)
        mult = 2 if (upcard // 13 == 0 and rules.oklahoma_spades_double) else 1
    else:
        limit, mult = rules.knock_limit, 1
    return GinState(
        rules=rules,
        n_seats=n,
        dealer=dealer,
        nondealer=nondealer,
        advisor=advisor,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=stock,
        discard=(upcard,),
        first_upcard=upcard,
        knock_limit=limit,
        multiplier=mult,
        phase="upcard",
        seat_to_act=nondealer,
        role_draw=role_draw,
    )


def deal_from_cards(rules: Any, hands: Any, upcard: Any, stock: Any = None, **kw: Any) -> GinState:
    """A hand dealt with given cards (fixtures, tests, puzzles): ``hands`` per seat (the advisor's ``[]``),
    the ``upcard`` and optionally the ``stock`` (top first; default: the remaining cards in pack order).
    Roles / dealer as in :func:`new_round` (required here: ``roles=`` or ``dealer=``)."""
    rules = _as_rules(rules)
    base = new_round(rules, rules.players, random.Random(0), **kw)
    hs = tuple(tuple(sorted(mask_cards(hand_mask(h)))) for h in hands)
    if len(hs) != base.n_seats:
        raise InvalidAction("hands must list every seat.", code="bad_deal")
    up = card_index(upcard)
    used = 1 << up
    for h in hs:
        m = hand_mask(h)
        if used & m:
            raise InvalidAction("A card is dealt twice.", code="bad_deal")
        used |= m
    if stock is None:
        st = tuple(mask_cards(FULL_DECK & ~used))
    else:
        st = tuple(card_index(c) for c in _items(stock))
        if hand_mask(st) & used:
            raise InvalidAction("A stock card is also dealt.", code="bad_deal")
    if rules.oklahoma:
        limit = oklahoma_knock_limit(up, rules)
        mult = 2 if (up // 13 == 0 and rules.oklahoma_spades_double) else 1
    else:
        limit, mult = rules.knock_limit, 1
    return replace(
        base, hands=hs, stock=st, discard=(up,), first_upcard=up, knock_limit=limit, multiplier=mult, role_draw=None
    )


def is_over(state: GinState) -> bool:
    return state.phase == "over"


def outcome(state: GinState) -> dict[str, Any] | None:
    """The finished hand as a dict (None while playing): ``kind`` (= ``outcome``: "gin", "knock",
    "undercut", "tie", "dead"), ``knocker`` / ``defender`` / ``winner`` / ``loser`` seats (None when not
    applicable), ``points`` (for the winner, Oklahoma doubling included), ``multiplier``, ``knock_card``,
    every seat's ``hands``, the layout (``knocker_melds``, ``knocker_deadwood_cards``, ``defender_melds``,
    ``defender_deadwood_cards``, ``layoffs`` [{card, meld}], ``knocker_deadwood``, ``defender_deadwood``,
    ``big_gin``; also nested in ``settlement``) and the ``roles`` of the hand."""
    if state.result is None:
        return None
    r = state.result
    d = r.to_dict()
    d["outcome"] = r.kind
    d["defender"] = state.other(r.knocker) if r.knocker is not None else None
    d["loser"] = state.other(r.winner) if r.winner is not None else None
    st = d["settlement"] or {}
    for k in (
        "knocker_melds",
        "knocker_deadwood_cards",
        "defender_melds",
        "defender_deadwood_cards",
        "layoffs",
        "knocker_deadwood",
        "defender_deadwood",
        "big_gin",
    ):
        d[k] = st.get(k)
    if r.kind == "dead":
        d["layoffs"] = []
        d["big_gin"] = False
    d["roles"] = (
        {"box": state.dealer, "captain": state.nondealer, "advisor": state.advisor}
        if state.n_seats == 3
        else {"dealer": state.dealer, "nondealer": state.nondealer}
    )
    d["winners"] = [] if r.winner is None else [r.winner]
    d["scores"] = [r.points if seat == r.winner else 0 for seat in range(state.n_seats)]
    # deadwood per seat as laid out (knocker: his laid deadwood; defender: after lay-offs; advisor: None)
    hp: list[int | None] = [None] * state.n_seats
    for seat in state.active_seats:
        hp[seat] = deadwood_mask(hand_mask(r.hands[seat]))
    if r.settlement is not None:
        hp[r.knocker] = r.settlement.knocker_deadwood
        hp[state.other(r.knocker)] = r.settlement.defender_deadwood
    d["hand_points"] = hp
    return d


def to_dict(state: GinState) -> dict[str, Any]:
    """Module-level alias of :meth:`GinState.to_dict` (same shape as the Manipulation engine)."""
    return state.to_dict()


def from_dict(d: dict[str, Any]) -> GinState:
    return GinState.from_dict(d)


def hand_of(state: GinState, seat: int) -> list[Card]:
    """The cards of ``seat`` as :class:`Card` objects (the advisor's is empty)."""
    return [Card(i % 13 + 1, i // 13, 0) for i in state.hands[seat]]


def cards_in_play(state: GinState) -> list[Card]:
    """Every card of the hand: hands, stock, discard pile and the knocker's face-down discard (52)."""
    cards = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard)
    if state.result is not None and state.result.knock_card is not None:
        cards.append(state.result.knock_card)
    return [Card(i % 13 + 1, i // 13, 0) for i in cards]


# ---------------------------------------------------------------------------------------------
# Transitions
# ---------------------------------------------------------------------------------------------


def _with_hand(state: GinState, seat: int, hand: Iterable[int]) -> tuple[tuple[int, ...], ...]:
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hand))
    return tuple(hands)


def _knock_check(state: GinState, seat: int, a: GinAction) -> tuple[int, int, int | None, list[int] | None]:
    """Validate a knock; returns (knocker mask after discard, deadwood, discarded card, melds)."""
    hand = state.hands[seat]
    hm = hand_mask(hand)
    if a.card is None:
        if state.rules.big_gin == "off":
            raise _illegal("big_gin_not_allowed")
        if deadwood_mask(hm) != 0:
            raise _illegal("not_big_gin")
        km, card = hm, None
    else:
        if a.card not in hand:
            raise _illegal("card_not_in_hand", cards=[a.card])
        if a.card == state.taken and state.rules.no_discard_of_taken_card:
            raise _illegal("cannot_discard_taken_card", cards=[a.card])
        km, card = hm & ~(1 << a.card), a.card
    melds = None
    if a.melds is not None:
        melds = _parse_melds(list(a.melds), km)
        used = 0
        for m in melds:
            used |= m
        dw = mask_points(km & ~used)
    else:
        dw = deadwood_mask(km)
    if dw > state.knock_limit:
        if state.knock_limit == 0 and state.rules.oklahoma:
            raise _illegal("gin_only")
        if a.melds is not None:
            raise _illegal("knock_too_high", "knock_too_high_laid", deadwood=dw, limit=state.knock_limit)
        raise _illegal("knock_too_high", cards=[card] if card is not None else [], deadwood=dw, limit=state.knock_limit)
    return km, dw, card, melds


def _end_turn_after_discard(state: GinState, seat: int, hands: Any, discard: tuple[int, ...], log: Any) -> GinState:
    other = state.other(seat)
    base = dict(
        hands=hands, discard=discard, taken=None, stock_only=False, must_knock=False, turn=state.turn + 1, log=log
    )
    if len(state.stock) <= state.rules.dead_hand_at_stock:
        if state.rules.fiftieth_card_rule:
            return _replace(state, phase="fiftieth", seat_to_act=other, **base)
        return _dead(_replace(state, **base))
    return _replace(state, phase="draw", seat_to_act=other, **base)


def _replace(state: GinState, **kw: Any) -> GinState:
    return replace(state, **kw)


def _dead(state: GinState) -> GinState:
    res = HandResult("dead", None, None, 0, state.multiplier, None, state.hands, None)
    return _replace(state, phase="over", seat_to_act=None, result=res, log=state.log + (("dead", None, None),))


def _knock(state: GinState, seat: int, a: GinAction) -> GinState:
    km, _dw, card, melds = _knock_check(state, seat, a)
    other = state.other(seat)
    s = settle_knock(
        km,
        state.hands[other],
        knocker_melds=melds,
        rules=state.rules,
        knock_limit=state.knock_limit,
        multiplier=state.multiplier,
    )
    winner = {"knocker": seat, "defender": other, None: None}[s.winner]
    hands = _with_hand(state, seat, mask_cards(km))
    res = HandResult(s.outcome, seat, winner, s.points, state.multiplier, card, hands, s)
    return _replace(
        state,
        hands=hands,
        phase="over",
        seat_to_act=None,
        result=res,
        taken=None,
        log=state.log + (("knock", seat, None),),
        turn=state.turn + 1,
    )


def apply(state: GinState, seat: int, action: Any) -> GinState:
    """Apply ``action`` (dict or :class:`GinAction`) by ``seat``; raises IllegalMove / InvalidAction."""
    a = action_from_dict(action)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_seats:
        raise InvalidAction(f"Seat {seat!r} is not at this table.", code="bad_seat")
    if state.phase == "over":
        raise _illegal("hand_over")
    if a.type == "suggest":
        if seat != state.advisor:
            raise _illegal("not_advisor")
        if not state.rules.advisor_can_advise:
            raise _illegal("advice_disabled")
        text = _checked_suggestion(state, a.suggestion)
        sug = (state.suggestions + ((seat, state.turn, text),))[-20:]
        return _replace(state, suggestions=sug)
    if seat == state.advisor:
        raise _illegal("advisor_cannot_act")
    if seat != state.seat_to_act:
        raise _illegal("not_your_turn")
    hand = state.hands[seat]
    ph = state.phase
    t = a.type
    if ph in ("upcard", "upcard_dealer"):
        if t == "take_upcard":
            up = state.discard[-1]
            return _replace(
                state,
                hands=_with_hand(state, seat, hand + (up,)),
                discard=state.discard[:-1],
                taken=up,
                phase="discard",
                log=state.log + (("take_upcard", seat, up),),
            )
        if t == "pass_upcard":
            log = state.log + (("pass_upcard", seat, None),)
            if ph == "upcard":
                return _replace(state, phase="upcard_dealer", seat_to_act=state.other(seat), log=log)
            return _replace(state, phase="draw", seat_to_act=state.other(seat), stock_only=True, log=log)
        raise _illegal("upcard_decision")
    if t in ("take_upcard", "pass_upcard"):
        raise _illegal("no_upcard_now")
    if ph == "draw":
        if t == "draw_stock":
            c = state.stock[0]
            return _replace(
                state,
                hands=_with_hand(state, seat, hand + (c,)),
                stock=state.stock[1:],
                taken=None,
                phase="discard",
                stock_only=False,
                log=state.log + (("draw_stock", seat, c),),
            )
        if t == "draw_discard":
            if state.stock_only:
                raise _illegal("must_draw_stock")
            c = state.discard[-1]
            return _replace(
                state,
                hands=_with_hand(state, seat, hand + (c,)),
                discard=state.discard[:-1],
                taken=c,
                phase="discard",
                log=state.log + (("draw_discard", seat, c),),
            )
        raise _illegal("must_draw_stock" if state.stock_only else "must_draw")
    if ph == "fiftieth":
        if t == "pass":
            return _dead(_replace(state, log=state.log + (("pass", seat, None),)))
        if t == "draw_discard":
            c = state.discard[-1]
            if not _can_knock_after_taking(state, seat, c):
                raise _illegal("fiftieth_card_knock_only", cards=[c])
            return _replace(
                state,
                hands=_with_hand(state, seat, hand + (c,)),
                discard=state.discard[:-1],
                taken=c,
                phase="discard",
                must_knock=True,
                log=state.log + (("draw_discard", seat, c),),
            )
        raise _illegal("fiftieth_card_knock_only", cards=[state.discard[-1]])
    # discard phase
    if t == "knock":
        return _knock(state, seat, a)
    if t == "discard":
        if state.must_knock:
            raise _illegal("must_knock")
        if a.card not in hand:
            raise _illegal("card_not_in_hand", cards=[a.card])
        if a.card == state.taken and state.rules.no_discard_of_taken_card:
            raise _illegal("cannot_discard_taken_card", cards=[a.card])
        hands = _with_hand(state, seat, [c for c in hand if c != a.card])
        return _end_turn_after_discard(
            state, seat, hands, state.discard + (a.card,), state.log + (("discard", seat, a.card),)
        )
    if t == "pass":
        raise _illegal("no_pass_now")
    raise _illegal("must_discard")


def _can_knock_after_taking(state: GinState, seat: int, c: int) -> bool:
    hm = hand_mask(state.hands[seat]) | (1 << c)
    for x in mask_cards(hm):
        if x == c and state.rules.no_discard_of_taken_card:
            continue
        if deadwood_mask(hm & ~(1 << x)) <= state.knock_limit:
            return True
    return state.rules.big_gin != "off" and deadwood_mask(hm) == 0


def _knock_options(state: GinState, seat: int) -> list[tuple[int, int]]:
    """(card, deadwood after discarding it) for every legal discard in the discard phase."""
    hand = state.hands[seat]
    hm = hand_mask(hand)
    out = []
    for c in hand:
        if c == state.taken and state.rules.no_discard_of_taken_card:
            continue
        out.append((c, deadwood_mask(hm & ~(1 << c))))
    return out


def _well_formed_suggestion(text: str) -> bool:
    """False for a suggestion stored before suggestions were checked (one naming no card, say)."""
    try:
        _suggestion_from_dict({k: v for k, v in json.loads(text).items() if k != "gin"})
    except (InvalidAction, ValueError, AttributeError):
        return False
    return True


def _checked_suggestion(state: GinState, text: str) -> str:
    """The suggestion (canonical JSON) with ``"gin"`` set for a knock that leaves no deadwood, if the
    card it names is in the captain's hand; otherwise ``bad_suggestion`` (nothing changes).

    Advice may look ahead (RULES C.2.4 sets no form for it: "discard the 8♠" while the captain still
    decides on the upcard), so the move need not be legal this instant; it must be one the captain's
    own cards allow."""
    sug = json.loads(text)
    hm = hand_mask(state.hands[state.nondealer])
    if "card" in sug:
        card = card_index(sug["card"])
        if not hm >> card & 1:
            raise _illegal("bad_suggestion")
        hm &= ~(1 << card)
    if sug["action"] == "knock" and deadwood_mask(hm) == 0:
        sug["gin"] = True
    return json.dumps(sug, sort_keys=True)


def legal_actions(state: GinState, seat: int) -> list[dict[str, Any]]:
    """Every legal action of ``seat`` as dicts (knocks with the default arrangement).  The advisor's
    open-ended ``suggest`` is not listed; it is legal while the hand runs if ``advisor_can_advise``."""
    if state.phase == "over" or seat != state.seat_to_act or seat == state.advisor:
        return []
    ph = state.phase
    if ph in ("upcard", "upcard_dealer"):
        return [{"type": "take_upcard"}, {"type": "pass_upcard"}]
    if ph == "draw":
        acts = [{"type": "draw_stock"}]
        if not state.stock_only:
            acts.append({"type": "draw_discard"})
        return acts
    if ph == "fiftieth":
        acts = [{"type": "pass"}]
        if _can_knock_after_taking(state, seat, state.discard[-1]):
            acts.insert(0, {"type": "draw_discard"})
        return acts
    acts = []
    opts = _knock_options(state, seat)
    if not state.must_knock:
        acts.extend({"type": "discard", "card": IDS[c]} for c, _ in opts)
    acts.extend({"type": "knock", "card": IDS[c]} for c, dw in opts if dw <= state.knock_limit)
    if state.rules.big_gin != "off" and deadwood_mask(hand_mask(state.hands[seat])) == 0:
        acts.append({"type": "knock"})
    return acts


def timeout_actions(state: GinState, seat: int) -> list[dict[str, Any]]:
    """The actions that finish ``seat``'s current turn with no voluntary play: pass the upcard, draw from
    the stock, discard the card that leaves the least deadwood (never the card just taken; highest value
    on ties), pass the 50th card; no knock.  Under the 50th-card rule a forced knock stays a knock."""
    out: list[dict[str, Any]] = []
    s = state
    while s.phase != "over" and s.seat_to_act == seat and seat != s.advisor and len(out) < 4:
        ph = s.phase
        if ph in ("upcard", "upcard_dealer"):
            a = {"type": "pass_upcard"}
        elif ph == "draw":
            a = {"type": "draw_stock"}
        elif ph == "fiftieth":
            a = {"type": "pass"}
        else:
            opts = _knock_options(s, seat)
            c, dw = min(opts, key=lambda o: (o[1], -VALUES[o[0]], -o[0]))
            a = {"type": "knock" if s.must_knock else "discard", "card": IDS[c]}
        out.append(a)
        s = apply(s, seat, a)
    return out


# ---------------------------------------------------------------------------------------------
# Views (no leaks: own hand only; the advisor also sees the captain's hand)
# ---------------------------------------------------------------------------------------------


def _sees_hand_of(state: GinState, viewer: int | None, seat: int | None) -> bool:
    if viewer is None or seat is None:
        return False
    return viewer == seat or (viewer == state.advisor and seat == state.nondealer)


def _public(state: GinState, viewer: int | None) -> dict[str, Any]:
    """Public part of a view.  A card taken from the discard pile is named only to those who see that
    hand (it is identified in the log and ``taken`` for them; others see "took the discard"), so no view
    names a card of a hand it may not see — except Oklahoma's first upcard, which D.2.2 shows to all."""
    over = state.phase == "over"
    hidden = 0  # cards in hands this viewer may not see
    if not over:
        for seat, h in enumerate(state.hands):
            if not _sees_hand_of(state, viewer, seat):
                hidden |= hand_mask(h)
    log = []
    for t, s, c in state.log:
        # which card came from the stock stays private to that hand, even later
        show = c is not None and not (hidden >> c) & 1 and (t != "draw_stock" or _sees_hand_of(state, viewer, s))
        log.append({"type": t, "seat": s, "card": IDS[c] if show else None})
    taken_visible = state.taken is not None and not (hidden >> state.taken) & 1
    d: dict[str, Any] = {
        "game": "gin",
        "variant": state.variant,
        "oklahoma": state.rules.oklahoma,
        "rules": state.rules.to_dict(),
        "n_seats": state.n_seats,
        "phase": state.phase,
        "seat_to_act": state.seat_to_act,
        "dealer": state.dealer,
        "nondealer": state.nondealer,
        "roles": (
            {"box": state.dealer, "captain": state.nondealer, "advisor": state.advisor} if state.n_seats == 3 else None
        ),
        "hand_counts": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "discard": [IDS[c] for c in state.discard],
        "discard_top": IDS[state.discard[-1]] if state.discard else None,
        "first_upcard": IDS[state.first_upcard] if (state.rules.oklahoma or over) else None,
        "knock_limit": state.knock_limit,
        "gin_only": state.knock_limit == 0,
        "multiplier": state.multiplier,
        "taken": IDS[state.taken] if taken_visible else None,
        "must_knock": state.must_knock,
        "turn": state.turn,
        "log": log,
        "result": outcome(state),
        "role_draw": state.role_draw.to_dict() if state.role_draw else None,
    }
    return d


def player_view(state: GinState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see: its own hand (the advisor: the captain's hand as ``captain_hand``), counts,
    the face-up discard pile, the first upcard, its legal actions; suggestions for captain and advisor."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_seats:
        raise InvalidAction(f"Seat {seat!r} is not at this table.", code="bad_seat")
    d = _public(state, seat)
    d["seat"] = seat
    d["role"] = (
        ("box" if seat == state.dealer else "captain" if seat == state.nondealer else "advisor")
        if state.n_seats == 3
        else ("dealer" if seat == state.dealer else "nondealer")
    )
    d["hand"] = [IDS[c] for c in state.hands[seat]]
    d["deadwood"] = deadwood_mask(hand_mask(state.hands[seat])) if state.hands[seat] else None
    d["legal_actions"] = legal_actions(state, seat)
    last = state.log[-1] if state.log else None
    d["drawn"] = (
        IDS[last[2]] if last and last[0] == "draw_stock" and last[1] == seat and state.phase == "discard" else None
    )
    d["can_suggest"] = seat == state.advisor and state.rules.advisor_can_advise and state.phase != "over"
    if state.n_seats == 3 and seat in (state.nondealer, state.advisor):
        # only this turn's suggestions (older ones are stale and could name cards that changed hands)
        d["suggestions"] = [
            {"seat": s, "turn": t, "suggestion": json.loads(j)}
            for s, t, j in state.suggestions if t == state.turn and _well_formed_suggestion(j)
        ]
    if seat == state.advisor:
        cap = state.hands[state.nondealer]
        d["captain_hand"] = [IDS[c] for c in cap]
        d["captain_deadwood"] = deadwood_mask(hand_mask(cap))
    return d


def spectator_view(state: GinState) -> dict[str, Any]:
    """Public information only (hands as counts; the layout in ``result`` once the hand is over)."""
    return _public(state, None)


def __getattr__(name: str) -> Any:  # re-export gin_scoring lazily (it imports this module)
    from . import gin_scoring

    if name in gin_scoring.__all__:
        return getattr(gin_scoring, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
