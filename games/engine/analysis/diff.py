"""A meld step as a change of the table: which table cards move from which meld to which, which hand
cards are laid where, which melds are new and which old ones are gone.

Melds keep their numbers: the table before the step is numbered 1…n in its order; a meld of the new
table that continues an old one (shares the most cards with it, matched one to one, largest overlaps
first) keeps that old meld's number, and the melds made afresh are numbered n+1, n+2, … in the new
table's order.  So "meld 2" means the same meld before and after the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card


def ref(card: Card) -> str:
    """A card as it lies: ``"8S.0"``, ``"JK=7S.1"`` (a joker with its declaration)."""
    return f"{card.code}.{card.deck}"


@dataclass(frozen=True, slots=True)
class TableDiff:
    """``melds``: the new table as ``(number, card refs, is_new)``, by number; ``moves``: ``(from, to,
    card refs)`` per pair of melds; ``laid``: ``(to, card refs)`` per meld that gets hand cards;
    ``gone``: numbers of old melds whose cards all went elsewhere."""

    melds: tuple[tuple[int, tuple[str, ...], bool], ...]
    moves: tuple[tuple[int, int, tuple[str, ...]], ...]
    laid: tuple[tuple[int, tuple[str, ...]], ...]
    gone: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": [{"n": n, "cards": list(cards), "new": new} for n, cards, new in self.melds],
            "moves": [{"from": a, "to": b, "cards": list(cards)} for a, b, cards in self.moves],
            "laid": [{"to": b, "cards": list(cards)} for b, cards in self.laid],
            "gone": list(self.gone),
        }


def table_diff(old: Sequence[Sequence[Card]], new: Sequence[Sequence[Card]]) -> TableDiff:
    """The change from the table ``old`` to the table ``new`` (cards of ``new`` not on ``old`` came from
    the hand)."""
    where = {c.id: i for i, meld in enumerate(old) for c in meld}
    overlaps = []
    for j, meld in enumerate(new):
        counts: dict[int, int] = {}
        for c in meld:
            i = where.get(c.id)
            if i is not None:
                counts[i] = counts.get(i, 0) + 1
        overlaps += [(-k, i, j) for i, k in counts.items()]
    overlaps.sort()
    number: dict[int, int] = {}  # new meld index -> its number
    taken: set[int] = set()
    for _k, i, j in overlaps:
        if j not in number and i not in taken:
            number[j] = i + 1
            taken.add(i)
    fresh = len(old)
    for j in range(len(new)):
        if j not in number:
            fresh += 1
            number[j] = fresh
    moves: dict[tuple[int, int], list[str]] = {}
    laid: dict[int, list[str]] = {}
    for j, meld in enumerate(new):
        for c in meld:
            i = where.get(c.id)
            if i is None:
                laid.setdefault(number[j], []).append(ref(c))
            elif i + 1 != number[j]:
                moves.setdefault((i + 1, number[j]), []).append(ref(c))
    melds = sorted((number[j], tuple(ref(c) for c in meld), number[j] > len(old)) for j, meld in enumerate(new))
    return TableDiff(
        melds=tuple(melds),
        moves=tuple((a, b, tuple(cards)) for (a, b), cards in sorted(moves.items())),
        laid=tuple((b, tuple(cards)) for b, cards in sorted(laid.items())),
        gone=tuple(sorted(i + 1 for i in range(len(old)) if i not in taken)),
    )
