"""Collusion leads at tables of 3–5 (docs/fair-play.md, "Collusion flags"): pure Python, no database.

Two players who play as a team at a table of four ("soft play") must sit together, and their results
must move together.  For every pair of players this measures both against what chance would give:

1. **Sitting together.**  With ``m_a`` and ``m_b`` tables played and ``H`` human seats in all, a
   table of ``a`` with ``h`` human seats has ``h - 1`` other seats, each of them ``b``'s with
   probability about ``m_b / (H - m_a)`` when seats are filled at random from the pool.  The expected
   number of shared tables ``E`` sums that over ``a``'s tables (and the same from ``b``'s side,
   averaged).  The count ``n`` is compared to a Poisson law of mean ``E``: ``p = P(X >= n)``.  With
   thousands of pairs looked at, one of them is bound to be rare by chance: ``p`` must be below
   ``ALPHA`` divided by the number of pairs of players (Bonferroni), ``n`` at least ``MIN_SHARED``
   and ``n / E`` at least ``MIN_RATIO``.
2. **Results that move together.**  At their shared tables: how often one of the two won, against
   what each one's win rate at tables without the other predicts (``z_wins``, a normal
   approximation of the sum of the tables' Bernoulli trials); and whether one of them places
   better with the partner than without (``z_gain``: the difference of mean placements, placement
   1 for first, 0 for last, over its standard error); and how often the two split the table's
   ends, one first and the other last, the mark of a partner who throws the game to the other
   (``z_split``: against ``2 / (k (k - 1))`` a table of ``k`` seats when places fall at random).
   Any ``z`` at ``MIN_Z`` or more.

A pair is flagged when both hold.  A flag is a lead for staff, who read the matches: never a sanction.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

ALPHA = 0.01
MIN_SHARED = 5
MIN_RATIO = 3.0
MIN_Z = 3.0
PRIOR_TABLES = 2  # a player's win rate apart is shrunk towards 1/seats by this many imaginary tables


@dataclass(frozen=True, slots=True)
class Table:
    """One finished match: its human players, each one's placement (1.0 first … 0.0 last) and the winners."""

    match_id: int
    players: tuple[int, ...]
    placement: dict[int, float]
    winners: frozenset[int]
    seats: int


@dataclass(slots=True)
class PairLead:
    a: int
    b: int
    shared: int
    expected: float
    p_sitting: float
    wins_together: int
    wins_expected: float
    z_wins: float
    gain: float  # the larger of the two members' placement gain with the partner
    z_gain: float
    splits: int  # shared tables where one was first and the other last
    splits_expected: float
    z_split: float
    flagged: bool
    matches: list[int] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.shared / self.expected if self.expected > 0 else math.inf


def poisson_upper_tail(n: int, mean: float) -> float:
    """P(X >= n) for X Poisson of ``mean``, summed from n upwards (exact for small tails)."""
    if n <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    log_term = -mean + n * math.log(mean) - math.lgamma(n + 1)
    total, k = 0.0, n
    while True:
        term = math.exp(log_term)
        total += term
        if term < total * 1e-15 or k > n + 10_000:
            return min(1.0, total)
        k += 1
        log_term += math.log(mean) - math.log(k)


def _z(observed: float, expected: float, variance: float) -> float:
    return (observed - expected) / math.sqrt(variance) if variance > 0 else 0.0


def find_leads(tables: Iterable[Table], *, alpha: float = ALPHA) -> list[PairLead]:
    """Every pair that sits together significantly more than chance, most significant first; each
    ``flagged`` when its results also move together."""
    tables = [t for t in tables if 3 <= t.seats <= 5 and len(t.players) >= 2]
    by_player: dict[int, list[Table]] = defaultdict(list)
    shared: dict[tuple[int, int], list[Table]] = defaultdict(list)
    for t in tables:
        for p in t.players:
            by_player[p].append(t)
        for a, b in combinations(sorted(t.players), 2):
            shared[(a, b)].append(t)
    seats_total = sum(len(t.players) for t in tables)
    players = len(by_player)
    pairs_tested = max(1, players * (players - 1) // 2)
    threshold = alpha / pairs_tested
    leads = []
    for (a, b), together in shared.items():
        n = len(together)
        if n < MIN_SHARED:
            continue
        expected = (
            _expected(by_player[a], len(by_player[b]), seats_total)
            + _expected(by_player[b], len(by_player[a]), seats_total)
        ) / 2
        p = poisson_upper_tail(n, expected)
        if p > threshold or n < MIN_RATIO * expected:
            continue
        lead = _results(a, b, together, by_player)
        lead.shared, lead.expected, lead.p_sitting = n, expected, p
        lead.flagged = max(lead.z_wins, lead.z_gain, lead.z_split) >= MIN_Z
        leads.append(lead)
    leads.sort(key=lambda lead: (not lead.flagged, lead.p_sitting))
    return leads


def _expected(own: Sequence[Table], partner_tables: int, seats_total: int) -> float:
    """Shared tables expected by chance, from one member's tables and the partner's table count."""
    pool = seats_total - len(own)
    if pool <= 0:
        return 0.0
    return sum(len(t.players) - 1 for t in own) * partner_tables / pool


def _results(a: int, b: int, together: list[Table], by_player: dict[int, list[Table]]) -> PairLead:
    ids = {t.match_id for t in together}
    apart = {p: [t for t in by_player[p] if t.match_id not in ids] for p in (a, b)}

    def win_rate(p: int, seats: int) -> float:
        rows = apart[p]
        wins = sum(1 for t in rows if p in t.winners)
        return (wins + PRIOR_TABLES / seats) / (len(rows) + PRIOR_TABLES)

    observed = sum(1 for t in together if a in t.winners or b in t.winners)
    chances = [min(1.0, win_rate(a, t.seats) + win_rate(b, t.seats)) for t in together]
    z_wins = _z(observed, sum(chances), sum(c * (1 - c) for c in chances))
    best_gain, best_z = 0.0, 0.0
    for p in (a, b):
        with_partner = [t.placement[p] for t in together]
        without = [t.placement[p] for t in apart[p]]
        if len(without) < 2:
            continue
        m1, m0 = sum(with_partner) / len(with_partner), sum(without) / len(without)
        var = _variance(with_partner) / len(with_partner) + _variance(without) / len(without)
        z = _z(m1, m0, var) if var > 0 else 0.0
        if z > best_z:
            best_gain, best_z = m1 - m0, z
    split_chances = [2 / (t.seats * (t.seats - 1)) for t in together]
    splits = sum(
        1 for t in together if (a in t.winners and t.placement[b] == 0.0) or (b in t.winners and t.placement[a] == 0.0)
    )
    z_split = _z(splits, sum(split_chances), sum(c * (1 - c) for c in split_chances))
    return PairLead(
        a=a,
        b=b,
        shared=0,
        expected=0.0,
        p_sitting=1.0,
        wins_together=observed,
        wins_expected=sum(chances),
        z_wins=z_wins,
        gain=best_gain,
        z_gain=best_z,
        splits=splits,
        splits_expected=sum(split_chances),
        z_split=z_split,
        flagged=False,
        matches=sorted(ids),
    )


def _variance(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


def placements(totals: Sequence[int]) -> list[float]:
    """Each seat's placement from the final totals (higher is better): 1.0 first, 0.0 last, ties shared."""
    k = len(totals)
    if k < 2:
        return [1.0] * k
    return [
        (k - 1 - sum(1 for o in totals if o > t) - (sum(1 for o in totals if o == t) - 1) / 2) / (k - 1) for t in totals
    ]
