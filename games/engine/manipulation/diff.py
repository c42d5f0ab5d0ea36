"""A meld step as a change of the table: which table cards move from which meld to which, which hand
cards are laid where, which melds are new and which old ones are gone.

Melds keep their numbers: the table before the step is numbered 1…n in its order; a meld of the new
table that continues an old one (old and new melds matched one to one so that the most cards stay where
they were) keeps that old meld's number, and the melds made afresh are numbered n+1, n+2, … in the new
table's order.  So "meld 2" means the same meld before and after the step.
"""

from __future__ import annotations

from collections import Counter
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


def face(card: Card) -> str:
    """What a player sees of a card, the same for both packs' copies: ``"9S"``; every joker is ``"JK"``
    (what it stands for is said where it lies)."""
    return "JK" if card.is_joker else card.code


def table_diff(old: Sequence[Sequence[Card]], new: Sequence[Sequence[Card]]) -> TableDiff:
    """The change from the table ``old`` to the table ``new`` (cards of ``new`` not on ``old`` came from
    the hand), with the fewest cards moved.

    Identical cards are one card to a player (``9S.0`` and ``9S.1``; any two jokers): which copy lies
    where is not a move.  So a meld keeps, of each face, as many cards as it had and still has; the
    numbering of the new melds keeps the most cards in place (a maximum-weight matching of old melds to
    new ones); the other table cards of a face move from the melds that have too many of it to the melds
    that need it, and the hand's cards fill the rest.  No face leaves a meld that the same face enters.
    """
    old_faces = [Counter(face(c) for c in meld) for meld in old]
    new_faces = [Counter(face(c) for c in meld) for meld in new]
    weight = _shared_faces(old_faces, new_faces)
    number: dict[int, int] = {j: i + 1 for j, i in _best_matching(weight, len(new)).items()}
    taken = {n - 1 for n in number.values()}
    fresh = len(old)
    for j in range(len(new)):
        if j not in number:
            fresh += 1
            number[j] = fresh
    where = {c.id: i + 1 for i, meld in enumerate(old) for c in meld}
    # Per face: the cards of the new table that did not stay in their meld, and the old melds that lost them.
    stays: dict[int, Counter[str]] = {
        number[j]: (old_faces[number[j] - 1] & counts) if number[j] <= len(old) else Counter()
        for j, counts in enumerate(new_faces)
    }
    arriving: dict[str, list[tuple[int, int, int, Card]]] = {}  # face -> (to, j, position, card)
    for j, meld in enumerate(new):
        n = number[j]
        kept = Counter(stays[n])
        # the cards that physically were in this meld stay first, then any other copy
        ordered = sorted(enumerate(meld), key=lambda pc: where.get(pc[1].id) != n)
        for pos, c in ordered:
            if kept[face(c)] > 0:
                kept[face(c)] -= 1
            else:
                arriving.setdefault(face(c), []).append((n, j, pos, c))
    leaving: dict[str, list[int]] = {}  # face -> the old melds it leaves, one entry per card
    for i, counts in enumerate(old_faces):
        for f, k in (counts - stays.get(i + 1, Counter())).items():
            leaving.setdefault(f, []).extend([i + 1] * k)
    placed: list[tuple[int, int, int | None, int, Card]] = []  # (j, position, from or None (hand), to, card)
    for f, slots in arriving.items():
        sources = sorted(leaving.get(f, []))
        rest = []
        for slot in slots:  # a card that physically came from a meld that gives up this face: that move
            origin = where.get(slot[3].id)
            if origin in sources:
                sources.remove(origin)
                placed.append((slot[1], slot[2], origin, slot[0], slot[3]))
            else:
                rest.append(slot)
        hand = len(rest) - len(sources)
        for slot in sorted(rest, key=lambda s: (s[3].id in where, s[0], s[1], s[2])):
            if slot[3].id not in where and hand > 0:  # a hand card laid where it lies
                hand -= 1
                placed.append((slot[1], slot[2], None, slot[0], slot[3]))
            elif sources:
                placed.append((slot[1], slot[2], sources.pop(0), slot[0], slot[3]))
            else:
                placed.append((slot[1], slot[2], None, slot[0], slot[3]))
    moves: dict[tuple[int, int], list[str]] = {}
    laid: dict[int, list[str]] = {}
    for _j, _pos, origin, to, c in sorted(placed, key=lambda p: (p[0], p[1])):
        if origin is None:
            laid.setdefault(to, []).append(ref(c))
        else:
            moves.setdefault((origin, to), []).append(ref(c))
    melds = sorted((number[j], tuple(ref(c) for c in meld), number[j] > len(old)) for j, meld in enumerate(new))
    return TableDiff(
        melds=tuple(melds),
        moves=tuple((a, b, tuple(cards)) for (a, b), cards in sorted(moves.items())),
        laid=tuple((b, tuple(cards)) for b, cards in sorted(laid.items())),
        gone=tuple(sorted(i + 1 for i in range(len(old)) if i not in taken)),
    )


def _shared_faces(old_faces: list[Counter[str]], new_faces: list[Counter[str]]) -> list[list[int]]:
    """``weight[i][j]``: how many cards old meld ``i`` and new meld ``j`` have in common, by face
    (``(old_faces[i] & new_faces[j]).total()``), found through the melds each face lies in: a face lies
    in one or two melds, so this is linear in the cards where the pairwise intersections are quadratic
    in the melds."""
    lying: dict[str, list[tuple[int, int]]] = {}
    for i, counts in enumerate(old_faces):
        for f, k in counts.items():
            lying.setdefault(f, []).append((i, k))
    weight = [[0] * len(new_faces) for _ in old_faces]
    for j, counts in enumerate(new_faces):
        for f, k in counts.items():
            for i, a in lying.get(f, ()):
                weight[i][j] += a if a < k else k
    return weight


def _best_matching(weight: list[list[int]], columns: int) -> dict[int, int]:
    """A maximum-weight matching of rows (old melds) to columns (new melds): ``{column: row}``, only
    pairs of positive weight (the Hungarian method on the square matrix of costs ``-weight``)."""
    rows = len(weight)
    size = max(rows, columns)
    if size == 0:
        return {}

    def cost(i: int, j: int) -> int:
        return -weight[i][j] if i < rows and j < columns else 0

    inf = float("inf")
    u = [0.0] * (size + 1)
    v = [0.0] * (size + 1)
    owner = [0] * (size + 1)  # owner[j]: the row (1-based) matched to column j; 0 = none
    way = [0] * (size + 1)
    for i in range(1, size + 1):
        owner[0] = i
        j0 = 0
        least = [inf] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], inf, 0
            for j in range(1, size + 1):
                if not used[j]:
                    cur = cost(i0 - 1, j - 1) - u[i0] - v[j]
                    if cur < least[j]:
                        least[j], way[j] = cur, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(size + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return {
        j - 1: owner[j] - 1
        for j in range(1, size + 1)
        if j - 1 < columns and owner[j] - 1 < rows and weight[owner[j] - 1][j - 1] > 0
    }
