"""Duplicate scoring — pure Python, no Django (docs/tournaments.md, "Duplicate tournaments").

Every table of a duplicate round plays the same deals.  A *seat position* names a deal's hand:
seat A is the first hand dealt (the first to play), B the next, …; a seat that gets no cards (the
advisor of three-player Gin) comes after them.  A :class:`Holding` is one player's result on one
deal in one seat position.  Everyone who held the same deal's same seat at a table of the same
size forms a *group*:

* **matchpoints**: 2 for every other result of the group that the player's beats, 1 for every
  tie: the top of a group of n is 2 × (n − 1);
* **the field average**: the mean of the group's results, and each player's **difference** from it.

So that every deal is worth the same to everyone in the round, matchpoints are scaled to the
round's *reference* group, N results: the most tables of one size in the round (Neuberg's
formula, as bridge scores a board played fewer times: ``(mp + 1) × N / n − 1``, unchanged when
n = N; a lone result scores the average, N − 1).  A player whose table did not reach a deal that
another table of the round played (its match ended sooner), or who had a bye, scores the average
on it, N − 1, and a difference of 0.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

EntryId = Hashable
LETTERS = "ABCDE"


@dataclass(frozen=True, slots=True)
class Holding:
    """One player's result on one deal: ``result`` is points for (+) or against (−)."""

    table: Hashable
    size: int
    deal: int
    position: int  # 0 = seat A
    entry: EntryId
    result: int


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """A table of the round: its number, seats and entrants (``is_bye``: a table of one)."""

    table: Hashable
    entries: tuple[EntryId, ...]
    is_bye: bool = False

    @property
    def size(self) -> int:
        return len(self.entries)


@dataclass(frozen=True, slots=True)
class Scored:
    """A holding compared with its group."""

    holding: Holding
    raw: int  # 2 per result beaten, 1 per tie
    matchpoints: Fraction  # scaled to the round's reference group
    difference: Fraction  # the result minus the field average


@dataclass(slots=True)
class Group:
    """Everyone who held seat ``position`` of deal ``deal`` at tables of ``size``, best result first."""

    deal: int
    size: int
    position: int
    average: Fraction
    rows: list[Scored]

    @property
    def letter(self) -> str:
        return LETTERS[self.position]


@dataclass(slots=True)
class Total:
    """One entrant's sums over a round (or over rounds: :meth:`add`)."""

    matchpoints: Fraction = Fraction(0)
    difference: Fraction = Fraction(0)
    deals: int = 0  # deals scored by comparison
    averaged: int = 0  # deals scored the average (not reached, or a bye)

    def add(self, other: Total) -> Total:
        return Total(
            self.matchpoints + other.matchpoints,
            self.difference + other.difference,
            self.deals + other.deals,
            self.averaged + other.averaged,
        )


@dataclass(slots=True)
class RoundScores:
    """A round scored: its groups (deal, size, seat order), each entrant's total and the scale used."""

    groups: list[Group]
    totals: dict[EntryId, Total]
    reference: int  # N: the results of a full group
    deals: int  # the last deal any table of the round played
    sizes: tuple[int, ...]  # the table sizes of the round, most tables first
    by_entry: dict[EntryId, list[Scored]] = field(default_factory=dict)
    byes: frozenset = frozenset()  # the entrants who had a bye

    @property
    def mixed_sizes(self) -> bool:
        return len(self.sizes) > 1

    @property
    def average(self) -> int:
        """The matchpoints of an average result (half the top of a full group)."""
        return max(self.reference - 1, 0)


def matchpoints(results: Sequence[int]) -> list[int]:
    """Each result's matchpoints against the others: 2 per result it beats, 1 per tie (sorted once:
    n log n, for a group of a thousand tables as for one of two)."""
    ordered = sorted(results)
    out = []
    for r in results:
        below = bisect_left(ordered, r)
        ties = bisect_right(ordered, r) - below - 1
        out.append(2 * below + ties)
    return out


def scaled(raw: int, results: int, reference: int) -> Fraction:
    """Matchpoints of a group of ``results`` scaled to one of ``reference`` results (Neuberg)."""
    return Fraction((raw + 1) * reference, results) - 1


def score_round(tables: Iterable[SeatedTable], holdings: Iterable[Holding]) -> RoundScores:
    """Score one duplicate round from its tables and every finished deal's holdings."""
    tables = list(tables)
    played = [t for t in tables if not t.is_bye]
    per_size: dict[int, int] = {}
    for t in played:
        per_size[t.size] = per_size.get(t.size, 0) + 1
    sizes = tuple(sorted(per_size, key=lambda s: (-per_size[s], -s)))
    reference = max(per_size.values(), default=0)
    holdings = list(holdings)
    deals = max((h.deal for h in holdings), default=0)

    buckets: dict[tuple[int, int, int], list[Holding]] = {}
    for h in holdings:
        buckets.setdefault((h.deal, h.size, h.position), []).append(h)
    groups: list[Group] = []
    totals: dict[EntryId, Total] = {e: Total() for t in tables for e in t.entries}
    by_entry: dict[EntryId, list[Scored]] = {e: [] for e in totals}
    for key in sorted(buckets, key=lambda k: (k[0], sizes.index(k[1]) if k[1] in sizes else len(sizes), k[2])):
        members = sorted(buckets[key], key=lambda h: (-h.result, str(h.table)))
        results = [h.result for h in members]
        average = Fraction(sum(results), len(results))
        rows = [
            Scored(h, raw, scaled(raw, len(results), reference), h.result - average)
            for h, raw in zip(members, matchpoints(results), strict=True)
        ]
        groups.append(Group(key[0], key[1], key[2], average, rows))
        for row in rows:
            entry = row.holding.entry
            if entry not in totals:
                totals[entry], by_entry[entry] = Total(), []
            t = totals[entry]
            t.matchpoints += row.matchpoints
            t.difference += row.difference
            t.deals += 1
            by_entry[entry].append(row)
    for t in totals.values():
        missing = deals - t.deals
        if missing > 0:  # deals the table did not reach, or a bye: the average
            t.averaged = missing
            t.matchpoints += missing * max(reference - 1, 0)
    byes = frozenset(e for t in tables if t.is_bye for e in t.entries)
    return RoundScores(groups, totals, reference, deals, sizes, by_entry, byes)


def total_over(rounds: Iterable[RoundScores]) -> dict[EntryId, Total]:
    """Each entrant's totals over several rounds."""
    out: dict[EntryId, Total] = {}
    for scores in rounds:
        for entry, t in scores.totals.items():
            out[entry] = out.get(entry, Total()).add(t)
    return out
