"""Placements at a table and the tournament standings — pure Python, no Django.

* A finished table is ranked by: forfeits last, match winners first, then the
  higher final game total.  Equal keys share a placement ("1, 2, 2, 4") and
  each gets the points of the placement they share.
* Standings order: tournament (placement) points, then total game points,
  then the opponents' average placement points (the mean, over every opponent
  met at a table, of that opponent's tournament points), then the seed.
* A duplicate tournament puts the summed matchpoints first (``duplicate.py``),
  then, when it scores it, the summed difference from the field average; the
  placement order above breaks the remaining ties.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

EntryId = Hashable


def points_for(size: int, scheme: Mapping[str, Sequence[int]]) -> list[int]:
    """Placement points for a table of ``size`` seats (1st, 2nd, ...).

    A size missing from ``scheme`` is scaled from the largest configured one:
    first place keeps its points, the others are spread evenly down to 0.
    """
    got = scheme.get(str(size))
    if got is not None and len(got) == size:
        return [int(x) for x in got]
    top = max((list(v)[0] for v in scheme.values() if v), default=size)
    if size == 1:
        return [top]
    return [round(top * (size - 1 - k) / (size - 1)) for k in range(size)]


def check_points_scheme(scheme: object) -> str | None:
    """The code of what is wrong with a placement-points scheme, else None (the web layer words it)."""
    if not isinstance(scheme, dict) or not scheme:
        return "not_mapping"
    for key, values in scheme.items():
        if not str(key).isdigit() or not 1 <= int(key) <= 6:
            return "bad_size"
        if not isinstance(values, list) or len(values) != int(key):
            return "wrong_length"
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
            return "not_whole"
        if any(a < b for a, b in zip(values, values[1:], strict=False)):
            return "not_descending"
    return None


def placements(totals: Sequence[int | None], winners: Sequence[bool], forfeits: Sequence[bool] = ()) -> list[int]:
    """Placement (1 = first) of each seat from the match result."""
    n = len(totals)
    forfeits = list(forfeits) or [False] * n

    def key(i: int) -> tuple:
        return (forfeits[i], not winners[i], -(totals[i] or 0))

    keys = [key(i) for i in range(n)]
    return [1 + sum(1 for j in range(n) if keys[j] < keys[i]) for i in range(n)]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of one finished table (a bye is a table of one)."""

    table: Hashable
    entry: EntryId
    points: int
    game_points: int = 0
    placement: int = 1
    is_bye: bool = False


@dataclass(slots=True)
class Standing:
    entry: EntryId
    name: str = ""
    seed: int = 0
    rank: int = 0
    points: int = 0
    game_points: int = 0
    opponents_average: Fraction = Fraction(0)
    played: int = 0
    wins: int = 0
    byes: int = 0
    withdrawn: bool = False
    opponents: list[EntryId] = field(default_factory=list)
    # Duplicate: the summed matchpoints and difference from the field average (None otherwise).
    matchpoints: Fraction | None = None
    difference: Fraction | None = None
    by_difference: bool = False

    @property
    def opponents_average_display(self) -> str:
        return f"{float(self.opponents_average):.2f}"

    def _duplicate_key(self) -> tuple:
        if self.matchpoints is None:
            return ()
        return (self.matchpoints, self.difference if self.by_difference else 0)

    def sort_key(self) -> tuple:
        first = tuple(-x for x in self._duplicate_key())
        return (
            *first,
            -self.points,
            -self.game_points,
            -self.opponents_average,
            -self.seed,
            self.name,
            str(self.entry),
        )

    def tie_key(self) -> tuple:
        return (*self._duplicate_key(), self.points, self.game_points, self.opponents_average)


def compute_standings(
    entries: Sequence[tuple[EntryId, str, int, bool]],
    results: Sequence[SeatResult],
    duplicate: Mapping[EntryId, tuple[Fraction, Fraction]] | None = None,
    *,
    by_difference: bool = False,
) -> list[Standing]:
    """Standings from (entry id, name, seed, withdrawn) and every recorded seat result.

    Equal points, game points and opponents' average share a rank; the seed and
    the name only order the display.  ``duplicate`` (a duplicate tournament): each
    entry's (matchpoints, difference from the field average), which come first
    (the difference only ``by_difference``).
    """
    rows = {e: Standing(entry=e, name=name, seed=seed, withdrawn=withdrawn) for e, name, seed, withdrawn in entries}
    if duplicate is not None:
        for e, row in rows.items():
            row.matchpoints, row.difference = duplicate.get(e, (Fraction(0), Fraction(0)))
            row.by_difference = by_difference
    by_table: dict[Hashable, list[SeatResult]] = {}
    for r in results:
        by_table.setdefault(r.table, []).append(r)
        row = rows.get(r.entry)
        if row is None:
            continue
        row.points += r.points
        row.game_points += r.game_points
        if r.is_bye:
            row.byes += 1
            continue
        row.played += 1
        row.wins += r.placement == 1
    for seats in by_table.values():
        for r in seats:
            if r.is_bye or r.entry not in rows:
                continue
            rows[r.entry].opponents.extend(o.entry for o in seats if o.entry != r.entry)
    for row in rows.values():
        if row.opponents:
            total = sum(rows[o].points for o in row.opponents if o in rows)
            row.opponents_average = Fraction(total, len(row.opponents))
    ordered = sorted(rows.values(), key=Standing.sort_key)
    for i, row in enumerate(ordered):
        if i and ordered[i - 1].tie_key() == row.tie_key():
            row.rank = ordered[i - 1].rank
        else:
            row.rank = i + 1
    return ordered
