"""Option ``freed_joker_reuse = new_meld_only``: every set of new melds, of hand cards, that holds all
the freed table jokers (exact, as shapes over the hand's values; see :func:`freed_meld_sets`)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ...cards import Card

Shape = tuple[tuple[tuple[int, int], ...], int, int, list[tuple[int, int]] | None]


def _shapes(copies: dict[tuple[int, int], int], nf: int, nh: int, mode: str) -> list[Shape]:
    """Every meld shape holding a freed joker: ``(natural values, freed jokers, hand jokers, joker
    identities)`` — groups, sequences, and melds of jokers only (identities ``None``: chosen later)."""
    low_ok = mode != "high_only"
    high_ok = mode != "low_only"
    jmax = nf + nh
    shapes: list[Shape] = []

    def add(naturals: list[tuple[int, int]], slots: list[tuple[int, int]]) -> None:
        k = len(slots)
        for f_count in range(1, min(nf, k) + 1):
            if k - f_count <= nh and (naturals or k > f_count):  # a hand card in every such meld
                shapes.append((tuple(naturals), f_count, k - f_count, slots))

    for r in range(1, 14):  # groups
        suits = [s for s in range(4) if (r, s) in copies]
        for size in range(1, len(suits) + 1):
            for sub in itertools.combinations(suits, size):
                free = [s for s in range(4) if s not in sub]
                for k in range(max(1, 3 - size), min(jmax, 4 - size) + 1):
                    for fs in itertools.combinations(free, k):  # which suits matters for the old identities
                        add([(r, s) for s in sub], [(r, s) for s in fs])
    for s in range(4):  # sequences
        for lo in range(1 if low_ok else 2, 15 if high_ok else 14):
            for hi in range(lo + 2, min(lo + 12, 14 if high_ok else 13) + 1):
                if lo == 1 and hi == 14:
                    continue
                present = [p for p in range(lo, hi + 1) if ((1 if p == 14 else p), s) in copies]
                for keep_n in range(max(1, hi - lo + 1 - jmax), len(present) + 1):
                    for keep in itertools.combinations(present, keep_n):
                        slots = [((1 if p == 14 else p), s) for p in range(lo, hi + 1) if p not in keep]
                        if slots:
                            add([((1 if p == 14 else p), s) for p in keep], slots)
    for k in range(3, min(jmax, 13) + 1):  # jokers only (at least one of them from the hand)
        for f_count in range(1, min(nf, k - 1) + 1):
            if k - f_count <= nh:
                shapes.append(((), f_count, k - f_count, None))
    return shapes


def freed_meld_sets(
    freed: list[Card], hand_nat: dict[tuple[int, int], list[Card]], hand_jokers: list[Card], mode: str
) -> list[list[list[Card]]]:
    """Every way to put all ``freed`` jokers into new melds made only of hand cards (and freed jokers).

    Used for option ``freed_joker_reuse = new_meld_only``.  Returns lists of melds (jokers declared).
    Exact for any number of freed jokers: a meld is a *shape* (the natural values it holds, how many
    freed and hand jokers, the identities they take); a set of shapes is feasible when the hand holds
    enough copies of every value and enough jokers.  Jokers are interchangeable, and so are identical
    naturals, so the physical cards are handed out at the end.  Sets that use the same hand cards leave
    the same problem for the rest of the step: only one of them is kept.
    """
    return list(iter_freed_meld_sets(freed, hand_nat, hand_jokers, mode))


def iter_freed_meld_sets(
    freed: list[Card], hand_nat: dict[tuple[int, int], list[Card]], hand_jokers: list[Card], mode: str
) -> Iterator[list[list[Card]]]:
    """:func:`freed_meld_sets` one at a time, in the same order (the search stops early when it can)."""
    copies = {k: len(v) for k, v in hand_nat.items() if v}
    nf, nh = len(freed), len(hand_jokers)
    shapes = _shapes(copies, nf, nh, mode)

    found: set[tuple] = set()

    def rec(
        start: int, left_f: int, used: dict[tuple[int, int], int], used_h: int, chosen: list[int]
    ) -> Iterator[list[list[Card]]]:
        if left_f == 0:
            key = (tuple(sorted(used.items())), used_h)
            if key not in found:
                melds = _declare_freed([shapes[i] for i in chosen], freed, hand_nat, hand_jokers)
                if melds is not None:
                    found.add(key)
                    yield melds
            return
        for idx in range(start, len(shapes)):  # a multiset of shapes, in index order
            naturals, f_count, h_count, _slots = shapes[idx]
            if f_count > left_f or used_h + h_count > nh:
                continue
            if any(used.get(v, 0) >= copies[v] for v in naturals):
                continue
            for v in naturals:
                used[v] = used.get(v, 0) + 1
            chosen.append(idx)
            yield from rec(idx, left_f - f_count, used, used_h + h_count, chosen)
            chosen.pop()
            for v in naturals:
                used[v] -= 1
                if not used[v]:
                    del used[v]

    yield from rec(0, nf, {}, 0, [])


def _declare_freed(
    chosen: list[tuple[tuple[tuple[int, int], ...], int, int, list[tuple[int, int]] | None]],
    freed: list[Card],
    hand_nat: dict[tuple[int, int], list[Card]],
    hand_jokers: list[Card],
) -> list[list[Card]] | None:
    """The melds of a set of shapes with physical cards, or None when the jokers cannot be declared legally.

    A table joker that takes its old identity again counts as not freed (the engine's M4 check), and a
    meld holding a freed joker may hold no other table card: in every meld either all its table jokers
    change identity or none does.  Tries every order of the freed jokers and every slot assignment.
    """
    orders = {tuple(p): p for p in itertools.permutations(range(len(freed)))}
    for order in orders.values():
        fi = hi_ = 0
        next_copy: dict[tuple[int, int], int] = {}
        melds: list[list[Card]] = []
        for naturals, f_count, h_count, slots in chosen:
            fj = [freed[i] for i in order[fi : fi + f_count]]
            hj = list(hand_jokers[hi_ : hi_ + h_count])
            fi += f_count
            hi_ += h_count
            k = f_count + h_count
            if slots is None:  # jokers only: any run of k identities that suits the old declarations
                options = [[(r, su) for r in range(lo, lo + k)] for su in range(4) for lo in range(2, 15 - k)]
            else:
                options = [slots]
            placed = None
            for opt in options:
                for perm in itertools.permutations(opt):
                    same = [jk.declared == ident for jk, ident in zip(fj, perm[: len(fj)], strict=True)]
                    if all(same) or not any(same):
                        placed = perm
                        break
                if placed is not None:
                    break
            if placed is None:
                break
            meld = []
            for v in naturals:
                meld.append(hand_nat[v][next_copy.get(v, 0)])
                next_copy[v] = next_copy.get(v, 0) + 1
            meld.extend(jk.undeclared().declare(*ident) for jk, ident in zip(fj + hj, placed, strict=True))
            melds.append(meld)
        else:
            return melds
    return None
