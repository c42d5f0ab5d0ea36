"""Settling a Gin knock (RULES C.6, C.7, D.1.5-D.1.6): the knocker's melds, the defender's lay-offs
and melds chosen jointly to minimise his deadwood, and the hand's score."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product
from typing import Any

from ..errors import InvalidAction
from .deadwood import ALL_MELDS, best_arrangements, best_melds_mask, deadwood_mask, meld_order
from .masks import IDS, hand_mask, illegal, mask_cards, mask_ids, mask_points, pretty_cards
from .rules import GinRules, as_rules
from .scoring import gin_hand_result


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


def parse_melds(melds: Any, hand: int) -> list[int]:
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
            raise illegal("card_not_in_hand", cards=mask_cards(m & ~hand))
        if m not in ALL_MELDS:
            raise illegal("invalid_meld", cards=meld_order(m) if m in ALL_MELDS else mask_cards(m))
        if m & used:
            raise illegal("meld_card_twice", cards=mask_cards(m & used))
        used |= m
        out.append(m)
    return out


def _ids_of_melds(melds: Iterable[int]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(IDS[i] for i in meld_order(m)) for m in melds)


def _knock_with(arr: tuple[int, ...], km: int, dm: int, limit: int, rules: GinRules) -> tuple:
    """The knock laid as the melds ``arr``: ``(defender deadwood, arr, knocker deadwood mask, knocker
    deadwood, defender's cards left after lay-offs, lay-offs)``; refused above the knock limit."""
    used = 0
    for m in arr:
        used |= m
    kdw_mask = km & ~used
    k = mask_points(kdw_mask)
    if k > limit:
        if limit == 0 and rules.oklahoma:
            raise illegal("gin_only")
        raise illegal("knock_too_high", "knock_too_high_laid", deadwood=k, limit=limit)
    if k == 0:  # against gin there are no lay-offs (C.6.4)
        d, rem, lay = deadwood_mask(dm), dm, []
    else:
        d, rem, lay = _defender_best(list(arr), dm)
    return d, arr, kdw_mask, k, rem, lay


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
    rules = as_rules(rules)
    km = hand_mask(knocker_hand)
    dm = hand_mask(defender_hand)
    if km & dm:
        raise InvalidAction(f"{pretty_cards(mask_cards(km & dm))} cannot be in both hands.", code="duplicate_card")
    limit = rules.knock_limit if knock_limit is None else knock_limit
    if knocker_melds is not None:
        arrangements = [tuple(parse_melds(knocker_melds, km))]
    else:
        _, arrangements = best_arrangements(km, all_optimal=True)
        arrangements = arrangements[:64]
    results = [_knock_with(arr, km, dm, limit, rules) for arr in arrangements]
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
