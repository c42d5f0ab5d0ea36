"""The cover programme of the solver's tail (``solver/lp.py``) against the plain DP, case by case.

``cover_bound`` must never be below a case's best value (it may prune a case, and ends the searches
that reach it), and ``solve`` — the integer programme that finishes the cases the short depth-first
searches do not — must find exactly the case's best value, with melds the engine accepts.  The hard
positions of ``bench/solver_hard.py`` at the small scale, every joker case of each, under the default
rules (aces high or low, most points), the ace low with most cards (rummikub-solver's game) and
``new_meld_only``; the plain DP (``Forward(plain=True)``: no state merged or dropped but by the floor) is
the reference.  Then the whole solver with the depth-first steps cut to nothing, so that every case
goes through the programmes, against the solver as it runs.
"""

import sys
from pathlib import Path

import pytest

from games.engine import manipulation as game
from games.engine.manipulation import ManipulationRules
from games.engine.manipulation.melds import classify
from games.engine.manipulation.solver import best_play, lp, search
from games.engine.manipulation.solver.dp import NEG, Problem
from games.engine.manipulation.solver.forward import Forward

from .oracle import _state_for

BENCH = Path(__file__).resolve().parents[3] / "bench"
sys.path.insert(0, str(BENCH))

import solver_hard  # noqa: E402

RULES = {
    "default": (ManipulationRules(), "points"),
    "low_only_cards": (ManipulationRules(ace_in_sequences="low_only"), "cards"),
    "new_meld_only": (ManipulationRules(freed_joker_reuse="new_meld_only"), "points"),
}


def _cases(position, rules, objective, limit=6):
    melds, hand = search._parse_inputs(position.table, position.hand)
    step = search._Step(melds, hand, objective, rules)
    for _bound, _i, args, _const, _pre, _extra in step.cases()[:limit]:
        yield Problem(*args)


def _value(problem, built):
    """What the play's optional cards are worth in the problem's weights."""
    return sum(problem.joker_weight if c.is_joker else problem.weight[c.rank] for c in built.used)


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_cover_bound_is_admissible_and_the_integer_programme_exact_case_by_case(name):
    rules, objective = RULES[name]
    checked = tighter = 0
    for position in solver_hard.positions(60, small=True):
        for problem in _cases(position, rules, objective):
            exact, _complete = Forward(problem, plain=True).run(NEG, None)
            bound = lp.cover_bound(problem)
            plain = problem.ubr[1] + problem.Jo * problem.joker_weight
            solved = lp.solve(problem)
            if exact is None:
                # no play places the forced cards: neither programme may claim one with more than the plain bound
                assert solved is None or solved[0] <= plain, position.seed
                continue
            checked += 1
            assert bound is not None and exact[0] <= bound <= plain, (position.seed, exact[0], bound)
            tighter += bound < plain
            assert solved is not None, position.seed
            value, built = solved
            assert value == exact[0], (position.seed, value, exact[0])
            assert _value(problem, built) == value, position.seed
            laid = [c for m in built.melds for c in m]
            assert all(classify(m, rules) is not None for m in built.melds), position.seed
            forced = [c for cs in problem.forced.values() for c in cs] + list(problem.wild_forced)
            assert all(any(f.same_physical(c) for c in laid) for f in forced), position.seed
            assert len({(c.rank, c.suit, c.deck) for c in laid}) == len(laid), position.seed  # each card once
    assert checked >= 60
    assert tighter > 0  # the programme sees what the plain bound does not


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_solver_with_every_case_left_to_the_programmes_finds_the_same_plays(monkeypatch, name):
    rules, objective = RULES[name]
    positions = solver_hard.positions(80, small=True)
    expected = [best_play(p.table, p.hand, rules=rules, objective=objective) for p in positions]
    monkeypatch.setattr(search, "DFS_CAP_QUICK", 0)  # the first depth-first steps give up at once
    monkeypatch.setattr(search, "DFS_CAP_FROM_FLOOR", 0)  # and so does the one from the floor (new_meld_only)
    monkeypatch.setattr(search, "DFS_CAP_BEFORE_COVER", 0)  # and the small cases' one
    calls = []
    real = lp.solve
    monkeypatch.setattr(search, "solve_cover", lambda problem: calls.append(1) or real(problem))
    for p, before in zip(positions, expected, strict=True):
        play = best_play(p.table, p.hand, rules=rules, objective=objective)
        assert (play.points, len(play.played)) == (before.points, len(before.played)), p.seed
        if play.played:
            report = game.check_table(_state_for(p.table, p.hand, rules), 0, play.table_ids)
            assert report["ok"], (p.seed, report["errors"])
    assert len(calls) > 40  # the integer programme decided most of them
