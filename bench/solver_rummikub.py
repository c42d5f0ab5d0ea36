"""``rummikub-solver`` (PyPI; an integer program after den Hertog & Hulshof 2006) as a baseline for the
Manipulation solver, on the positions it can express.

Install: ``.venv/bin/pip install -r requirements-bench.txt`` (it pulls cvxpy-base, SciPy, NumPy; the
integer programs are solved by the HiGHS that SciPy ships, rummikub-solver's default backend here).

Rummikub is Manipulation Rummy with ranks 1–13 only (an ace is low), free jokers and a fixed number of
copies per card.  So a position is compared under our option ``ace_in_sequences = low_only``, with the
objective "most cards laid" (its ``SolverMode.TILE_COUNT``), and only when

* every table meld is valid with the ace low;
* every table joker is one Rummikub has: a joker whose identity no natural card on the table or in hand
  has is exactly a natural card of that identity (it can never be freed), and jokers of an identity
  that as many naturals on the table can free (option ``joker_substitute_from = hand_or_table``) are
  free jokers (freeing costs nothing, and a freed joker may take any identity).  A joker that only a
  natural from the hand could free has no Rummikub counterpart (freeing it is a choice that costs
  the hand card's place), and such a position is left out.

One documented difference stays: rummikub-solver leaves out the sets with a joker that are longer than
three cards and could lose the joker (a group of four with a joker, a run of four or five that starts
or ends with a joker; its README, "Solver improvements"), so where the best play needs such a meld its
optimum is lower.  The bench reports every position where the two optima differ.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.cards import Card
from games.engine.manipulation.melds import classify

INSTALL = "pip install -r requirements-bench.txt  (rummikub-solver and its cvxpy-base, SciPy, NumPy)"
LOW_ONLY = {"ace_in_sequences": "low_only"}


def load() -> Any | None:
    """The ``rummikub_solver`` module, or None when it is not installed."""
    try:
        import rummikub_solver
    except ImportError:
        return None
    return rummikub_solver


def expressible(table: list[list[Card]], hand: list[Card]) -> tuple[list, list] | str:
    """``(table tiles, rack tiles)`` as ``(rank, suit)`` pairs (``"J"`` for a free joker), or why not."""
    if any(classify(m, LOW_ONLY) is None for m in table):
        return "a table meld needs an ace high"
    nat_table = Counter(c.key for m in table for c in m if not c.is_joker)
    nat_hand = Counter(c.key for c in hand if not c.is_joker)
    jokers = Counter(c.declared for m in table for c in m if c.is_joker)
    tiles: list = [c.key for m in table for c in m if not c.is_joker]
    for ident, n in jokers.items():
        if not nat_table[ident] and not nat_hand[ident]:
            tiles += [ident] * n  # never freed: a natural card of its identity
        elif nat_table[ident] >= n:
            tiles += ["J"] * n  # always freed at no cost: a free joker
        else:
            return "a table joker only a hand card could free"
    rack = [("J" if c.is_joker else c.key) for c in hand]
    if sum(1 for x in tiles + rack if x == "J") > 4:
        return "more than 4 jokers"
    counts = Counter(x for x in tiles + rack if x != "J")
    if counts and max(counts.values()) > 2:  # pragma: no cover - a two-pack deck has two of each
        return "three copies of a card"
    return tiles, rack


class Baseline:
    """One rummikub-solver ``RuleSet`` per number of jokers (its model has a joker count), warmed up."""

    def __init__(self, module: Any, backend: str | None = None) -> None:
        """``backend``: rummikub-solver's ``MILPSolver`` by name (``SCIPY``, ``HIGHS``); None: its default
        (``HIGHS`` when highspy is installed, as the app now needs it, else ``SCIPY``)."""
        self.rs_mod = module
        self.backend = None if backend is None else module.MILPSolver(backend)
        self.rulesets: dict[int, Any] = {}

    def ruleset(self, jokers: int) -> Any:
        n = max(2, jokers)
        if n not in self.rulesets:
            rs = self.rs_mod.RuleSet(numbers=13, repeats=2, colours=4, jokers=n, min_len=3, solver_backend=self.backend)
            self.rulesets[n] = rs
            state = rs.new_game()  # the first solve builds the cvxpy problem: not timed
            state.add_rack(*self._tiles(rs, [(5, 0), (6, 0), (7, 0)]))
            state.initial = False
            rs.solve(state, self.rs_mod.SolverMode.TILE_COUNT)
        return self.rulesets[n]

    @staticmethod
    def _tiles(rs: Any, values: list) -> list:
        tiles = rs.tiles
        return [tiles[-1] if v == "J" else tiles[v[1] * 13 + v[0] - 1] for v in values]

    def prepare(self, table_tiles: list, rack: list) -> tuple[Any, Any]:
        rs = self.ruleset(sum(1 for x in table_tiles + rack if x == "J"))
        state = rs.new_game()
        state.add_table(*self._tiles(rs, table_tiles))
        state.add_rack(*self._tiles(rs, rack))
        state.initial = False
        return rs, state

    def cards(self, rs: Any, state: Any) -> int:
        """Most tiles it lays from the rack (0 when none)."""
        sol = rs.solve(state, self.rs_mod.SolverMode.TILE_COUNT)
        return 0 if sol is None else len(sol.tiles)
