"""Manipulation Rummy's "lay the most" puzzles (see the package docstring).

Exact, with the solver's public API only (:func:`games.engine.solver.best_play`):

1. the best play by cards (``objective="cards"``): ``n1`` hand cards, the multiset ``S1`` of their values;
2. the second best *distinct* set: any other set of hand cards either holds fewer copies of some value
   ``v`` of ``S1`` (a set holding all of ``S1`` and more would beat ``n1``), so it is the best over the
   hands with ``v`` cut to one copy fewer than ``S1`` holds — one solve per distinct value of ``S1``;
3. the best play that leaves every table meld whole (each may be extended by hand cards: a lay-off;
   the rest goes to new melds of hand cards only), searched exactly over the lay-offs each meld can
   take, the hand cards left solved as a new table.

A position is a puzzle when ``n1 - n2 >= CARD_MARGIN`` and the play without rearranging lays fewer
than ``n1``.  The answer is accepted when the engine's table check takes the arrangement and it lays
``n1`` hand cards (by 2, that set is the one of the solution).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from ..cards import Card
from ..manipulation import ManipulationState, check_table
from ..manipulation.diff import table_diff
from ..manipulation.melds import classify
from ..solver import SearchBudgetExceeded, best_play

CARD_MARGIN = 2  # the best set of hand cards lays at least this many more cards than the next one
PLAIN_LEAVES = 4000  # lay-off combinations the search without rearranging may try; past it: no puzzle
MIN_CARDS = 3  # a play of fewer cards is no puzzle


def value_of(card: Card) -> tuple[int, int]:
    """A hand card's value for uniqueness: ``(rank, suit)``; every joker is one value."""
    return card.key


def seen_state(state: ManipulationState, seat: int) -> ManipulationState:
    """The position as ``seat`` saw it: the other hands and the stock emptied (never stored, never shown)."""
    hands = tuple(h if i == seat else () for i, h in enumerate(state.hands))
    return replace(state, hands=hands, stock=())


def _solve(table: Sequence[Sequence[Card]], hand: Sequence[Card], rules: Any, max_states: int | None):
    return best_play(table, hand, objective="cards", rules=rules, max_states=max_states)


def second_best(
    table: Sequence[Sequence[Card]],
    hand: Sequence[Card],
    laid: Sequence[Card],
    rules: Any,
    max_states: int | None,
    *,
    stop_at: int | None = None,
) -> int:
    """The most hand cards any play with a set of hand cards other than ``laid`` (by value) lays; or,
    as soon as one reaches ``stop_at``, that number (the margin is lost: the rest is not searched)."""
    want = Counter(value_of(c) for c in laid)
    best = 0
    for v, k in want.items():
        kept, dropped = [], 0
        have = sum(1 for c in hand if value_of(c) == v)
        for c in hand:
            if value_of(c) == v and dropped < have - (k - 1):
                dropped += 1
                continue
            kept.append(c)
        best = max(best, _solve(table, kept, rules, max_states).cards)
        if stop_at is not None and best >= stop_at:
            break
    return best


def _layoffs(meld: Sequence[Card], hand: Sequence[Card], rules: Any) -> list[frozenset[str]]:
    """The sets of hand cards (ids) that extend ``meld`` into a valid meld, one per set of values."""
    naturals = [c for c in meld if not c.is_joker]
    suits = {c.suit for c in naturals}
    ranks = {c.rank for c in naturals}
    relevant = [c for c in hand if c.is_joker or c.suit in suits or c.rank in ranks]
    out: list[frozenset[str]] = []
    seen: set[tuple] = set()
    for size in range(1, min(len(relevant), 13 - len(meld)) + 1):
        for combo in combinations(relevant, size):
            values = tuple(sorted(value_of(c) for c in combo))
            if values in seen:
                continue
            seen.add(values)
            if classify(list(meld) + list(combo), rules) is not None:
                out.append(frozenset(c.id for c in combo))
    return out


def best_without_rearranging(
    table: Sequence[Sequence[Card]], hand: Sequence[Card], rules: Any, *, target: int, max_states: int | None = None
) -> int | None:
    """The most hand cards a play that keeps every table meld whole lays, or as soon as one reaches
    ``target``, that number; None when the search passes ``PLAIN_LEAVES`` (unknown)."""
    options = [o for o in (_layoffs(m, hand, rules) for m in table) if o]
    memo: dict[frozenset[str], int] = {}
    budget = [PLAIN_LEAVES]
    best = [0]

    def leaf(used: frozenset[str]) -> int:
        if used not in memo:
            budget[0] -= 1
            rest = [c for c in hand if c.id not in used]
            memo[used] = len(used) + (_solve([], rest, rules, max_states).cards if len(rest) >= 3 else 0)
        return memo[used]

    def walk(i: int, used: frozenset[str]) -> bool:
        if budget[0] <= 0:
            return True
        if len(hand) < best[0] or best[0] >= target:
            return True
        if i == len(options):
            best[0] = max(best[0], leaf(used))
            return best[0] >= target or budget[0] <= 0
        for ext in options[i]:
            if not ext & used and walk(i + 1, used | ext):
                return True
        return walk(i + 1, used)

    walk(0, frozenset())
    if budget[0] <= 0 and best[0] < target:
        return None
    return best[0]


def themes(before: Sequence[Sequence[Card]], after: Sequence[Sequence[Card]], hand_laid: Sequence[Card]) -> list[str]:
    """What the solution does, read from its rearrangement with the fewest cards moved (the analysis'
    :func:`table_diff`, the same steps the page shows), for players to choose puzzles by:
    ``joker_freed`` (a table joker moves or is declared anew), ``run_split`` (a run's natural cards end in
    two melds or more), ``group_to_run`` / ``run_to_group`` (a table card moves from a group into a run, or
    back), ``lay_off`` (hand cards added to a meld of the table), ``new_meld`` (a meld of hand cards
    only), ``long_play`` (six cards or more)."""
    diff = table_diff(before, after)
    old_kind = {n: classify(m) for n, m in enumerate(before, start=1)}
    new_kind = {n: classify([Card.from_code(r) for r in refs]) for n, refs, _new in diff.melds}
    out: set[str] = set()
    targets: dict[int, set[int]] = {}
    for a, b, refs in diff.moves:
        if any(not r.startswith("JK") for r in refs):  # a freed joker leaving a run does not split it
            targets.setdefault(a, set()).add(b)
        if old_kind.get(a) == "group" and new_kind.get(b) == "sequence":
            out.add("group_to_run")
        if old_kind.get(a) == "sequence" and new_kind.get(b) == "group":
            out.add("run_to_group")
        if any(r.startswith("JK") for r in refs):
            out.add("joker_freed")
    for a, moved_to in targets.items():
        kept = set() if a in diff.gone else {a}
        if old_kind.get(a) == "sequence" and len(moved_to | kept) >= 2:
            out.add("run_split")
    declared = {c.id: c.declared for m in after for c in m if c.is_joker}
    if any(c.is_joker and declared.get(c.id) != c.declared for m in before for c in m):
        out.add("joker_freed")
    if any(b <= len(before) for b, _refs in diff.laid):
        out.add("lay_off")
    if any(new and not any(b == n for _a, b, _r in diff.moves) for n, _refs, new in diff.melds):
        out.add("new_meld")
    if len(hand_laid) >= 6:
        out.add("long_play")
    return sorted(out)


def find(state: ManipulationState, seat: int, *, max_states: int | None = None) -> dict[str, Any] | None:
    """The "lay the most" puzzle of ``seat``'s meld step in ``state``, or None (see the module)."""
    rules = state.rules
    if rules.first_meld_min_points > 0 and not state.has_melded[seat]:
        return None  # the solver knows nothing of the first meld's minimum
    table = [list(m) for m in state.table]
    hand = list(state.hands[seat])
    if len(hand) < MIN_CARDS:
        return None
    try:
        best = _solve(table, hand, rules, max_states)
        n1 = best.cards
        if n1 < MIN_CARDS:
            return None
        # the margin first (it stops at the first set that comes too close; measured cheaper than the
        # search without rearranging over real games' positions: bench/puzzles.py)
        n2 = second_best(table, hand, best.played_cards, rules, max_states, stop_at=n1 - CARD_MARGIN + 1)
        if n1 - n2 < CARD_MARGIN:
            return None
        plain = best_without_rearranging(table, hand, rules, target=n1, max_states=max_states)
        if plain is None or plain >= n1:
            return None
    except SearchBudgetExceeded:
        return None
    seen = seen_state(state, seat)
    if not check_table(seen, seat, best.table_ids)["ok"]:
        return None  # never seen: the engine's own check refuses the solver's play
    return {
        "family": "manipulation",
        "kind": "lay_most",
        "seat": seat,
        "position": seen.to_dict(),
        "solution": {
            "table": best.table_ids,
            "laid": [c.id for c in best.played_cards],
            "cards": n1,
            "second": n2,
            "plain": plain,
        },
        "themes": themes(table, best.table_cards, best.played_cards),
    }


def check_answer(position: ManipulationState, seat: int, solution: dict[str, Any], table: object) -> dict[str, Any]:
    """A submitted arrangement: ``{"ok": solved?, "valid": the engine takes it, "laid": hand cards laid,
    "errors": the engine's refusals}``.  Solved: valid and laying the solution's number of cards."""
    result = check_table(position, seat, table)
    laid = len(result.get("played", []))
    return {
        "ok": bool(result["ok"]) and laid == solution["cards"],
        "valid": bool(result["ok"]),
        "laid": laid,
        "errors": result["errors"],
    }
