"""Post-game analysis and practice hints (issue 17 §2): what they cost, each against a baseline measured in
the same run.

1. The worker: a 12-round Manipulation match (three seats: a weaker "greedy" player and two "basic" bots,
   who lay the solver's best play) and a 12-hand two-player Gin match are played through the services in
   a throwaway SQLite database, marked finished after the 12th round, and analysed by the worker's own
   function (``games.analysis.services.analyse_match``).  Printed: the worker CPU time it stores
   (``MatchAnalysis.cpu_seconds``: the thread's CPU, database reads and writes included), the steps
   weighed, and the baseline: replaying the same match from the database (every round dealt again and
   every action applied: what the analysis walks, without weighing anything).
2. Engine only, over ``--matches`` simulated 12-round Manipulation matches (same seating, other seeds): the
   analysis CPU per match and per meld step (p50 / p99 / max), against the replay of those matches.
3. Hint latency (wall clock, one call at a time) over every meld-step position of those matches and every
   Gin discard of the Gin match: the engine's hint with the server's budget plus its words (what the view
   renders), p50 / p99 / max, against the basic bot's move on the same positions (which the server already
   computes at every bot turn).

Run: .venv/bin/python bench/analysis.py [--matches 3] [--seed 1] [--quick]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
DB = Path(tempfile.mkdtemp(prefix="rummyhub-bench-analysis-")) / "db.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")
os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402

from games import services  # noqa: E402
from games.analysis import selectors as analysis_selectors  # noqa: E402
from games.analysis import services as analysis_services  # noqa: E402
from games.engine import analysis, bots  # noqa: E402
from games.engine import gin as gin_engine  # noqa: E402
from games.engine import manipulation as manip  # noqa: E402
from games.engine.solver import SearchBudgetExceeded  # noqa: E402
from games.models import Match, MatchStatus, Round, Seat  # noqa: E402
from games.rebuild import iter_round_states  # noqa: E402
from plumbing import realtime  # noqa: E402

SEATS = ("greedy", "basic", "basic")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


# ----------------------------------------------------------------------------------------- 1. the worker


def stored_match(variant: str, policies: tuple[str, ...], rounds: int, seed: str) -> Match:
    """A match of ``rounds`` rounds played by bots through the services, then marked finished."""
    settings.RUMMYHUB_FIXED_SEED = seed
    host = get_user_model().objects.create_user(f"bench{seed}{variant}", password="x" * 12)
    options = {"game_target": 10_000}
    match = services.match_create(
        host=host, variant=variant, seats_count=len(policies), bots=len(policies) - 1, options=options
    )
    for i, policy in enumerate(policies):
        services.seat_to_bot(match_id=match.pk, index=i, policy=policy, name=f"Bot{i}")
    Seat.objects.filter(match=match, index=0).update(user=None)
    services.match_start(match_id=match.pk, user=host)
    while True:
        services.run_until_human(match_id=match.pk, deal=False)
        match.refresh_from_db()
        if match.status == MatchStatus.BETWEEN_ROUNDS and match.round_number >= rounds:
            break
        if match.status == MatchStatus.FINISHED:
            break
        services.run_until_human(match_id=match.pk, deal=True, max_steps=1)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    match.refresh_from_db()
    return match


def replay_cpu(match: Match) -> float:
    start = time.thread_time()
    for rnd in Round.objects.filter(match=match).order_by("number"):
        for _event, _state in iter_round_states(match, rnd):
            pass
    return time.thread_time() - start


def worker_figures(variant: str, policies: tuple[str, ...], seed: str) -> None:
    match = stored_match(variant, policies, 12, seed)
    rounds = Round.objects.filter(match=match).count()
    base = replay_cpu(match)
    row = analysis_services.analyse_match(match_id=match.pk)
    ok = sum(1 for s in row.steps if s.get("status", "ok") == "ok")
    print(
        f"worker, {variant} ({', '.join(policies)}), {rounds} rounds, {row.total} actions: analysis "
        f"{row.cpu_seconds:.2f} s CPU ({row.status}; {len(row.steps)} steps, {ok} weighed, "
        f"{sum(1 for s in row.steps if s['missed'])} missed); baseline replay {base:.3f} s; "
        f"ratio {row.cpu_seconds / max(base, 1e-9):.0f}x"
    )


# ------------------------------------------------------------------------------- 2. engine, many matches


def simulate(seed: int, rounds: int = 12) -> list[list[analysis.Transition]]:
    rules = manip.ManipulationRules().for_players(len(SEATS))
    out = []
    for r in range(rounds):
        state = manip.new_round(rules, len(SEATS), random.Random(seed * 1000 + r), dealer=r % len(SEATS))
        trans, k = [], 0
        while not manip.is_over(state):
            seat = state.seat_to_act
            action = bots.choose_action(state, seat, SEATS[seat], random.Random(k))
            after = manip.apply(state, seat, action)
            k += 1
            trans.append((k, seat, action, state, after))
            state = after
        out.append(trans)
    return out


def engine_figures(matches: list[list[list[analysis.Transition]]], max_states: int) -> None:
    per_match, per_step, replays = [], [], []
    for match in matches:
        start = time.process_time()
        for trans in match:
            state = trans[0][3]
            for _k, seat, action, _before, _after in trans:
                state = manip.apply(state, seat, action)
        replays.append(time.process_time() - start)
        total = 0.0
        for trans in match:
            for item in trans:
                t0 = time.process_time()
                analysis.analyse_round("manipulation", [item], max_states=max_states)
                dt = time.process_time() - t0
                total += dt
                if manip.legal_actions(item[3], item[1]) and any(
                    a["type"] == "meld" for a in manip.legal_actions(item[3], item[1])
                ):
                    per_step.append(dt)
        per_match.append(total)
    print(
        f"engine, {len(matches)} simulated 12-round Manipulation matches ({', '.join(SEATS)}): analysis "
        f"{statistics.mean(per_match):.2f} s CPU per match (max {max(per_match):.2f}); per meld step p50 "
        f"{1000 * pct(per_step, 0.5):.1f} ms, p99 {1000 * pct(per_step, 0.99):.1f} ms, max "
        f"{1000 * max(per_step):.0f} ms over {len(per_step)} steps; baseline replay "
        f"{statistics.mean(replays):.3f} s per match; ratio {statistics.mean(per_match) / statistics.mean(replays):.0f}x"
    )


# --------------------------------------------------------------------------------------------- 3. hints


def hint_figures(matches: list[list[list[analysis.Transition]]], gin_positions: list, budget: int) -> None:
    positions = [
        (before, seat)
        for match in matches
        for trans in match
        for _k, seat, _a, before, _after in trans
        if analysis.manipulation.can_meld(before, seat)
    ]
    hint_ms, bot_ms, too_big = [], [], 0
    for state, seat in positions:
        t0 = time.perf_counter()
        try:
            found = analysis.manipulation.hint(state, seat, max_states=budget)
            hint = {
                "family": "manipulation",
                "version": 1,
                "cards": found["cards"],
                "points": found["points"],
                "diff": analysis_selectors.diff_view(found["diff"]) if found["diff"] else None,
            }
        except SearchBudgetExceeded:
            too_big += 1
            hint = {"family": "manipulation", "version": 1, "too_big": True}
        render_to_string("games/analysis/hint.html", {"hint": hint})
        hint_ms.append(1000 * (time.perf_counter() - t0))
        t0 = time.perf_counter()
        bots.choose_action(state, seat, "basic", random.Random(0))
        bot_ms.append(1000 * (time.perf_counter() - t0))
    print(
        f"hint, Manipulation, {len(positions)} meld-step positions, budget {budget:,} states: p50 "
        f"{pct(hint_ms, 0.5):.1f} ms, p99 {pct(hint_ms, 0.99):.1f} ms, max {max(hint_ms):.0f} ms ({too_big} answered "
        f"'no hint'); baseline basic bot's move p50 {pct(bot_ms, 0.5):.1f} ms, p99 {pct(bot_ms, 0.99):.1f} ms; "
        f"ratio p50 {pct(hint_ms, 0.5) / max(pct(bot_ms, 0.5), 1e-9):.1f}x, p99 "
        f"{pct(hint_ms, 0.99) / max(pct(bot_ms, 0.99), 1e-9):.1f}x"
    )
    hint_ms, bot_ms = [], []
    for state, seat in gin_positions:
        t0 = time.perf_counter()
        found = analysis.gin.hint(state, seat)
        render_to_string(
            "games/analysis/hint.html",
            {
                "hint": {
                    "family": "gin",
                    "version": 1,
                    "kind": found["kind"],
                    "card": analysis_selectors.card_in_text(found["card"]),
                    "deadwood": found["deadwood"],
                }
            },
        )
        hint_ms.append(1000 * (time.perf_counter() - t0))
        t0 = time.perf_counter()
        gin_engine.bots.choose_action(state, seat, "basic")
        bot_ms.append(1000 * (time.perf_counter() - t0))
    print(
        f"hint, Gin, {len(gin_positions)} discard positions: p50 {pct(hint_ms, 0.5):.2f} ms, p99 "
        f"{pct(hint_ms, 0.99):.2f} ms; baseline basic bot's move p50 {pct(bot_ms, 0.5):.2f} ms, p99 "
        f"{pct(bot_ms, 0.99):.2f} ms"
    )


def gin_positions(hands: int, seed: int) -> list:
    rules = gin_engine.GinRules.two_player()
    out = []
    for h in range(hands):
        rng = random.Random(seed * 1000 + h)
        state = gin_engine.new_round(rules, 2, rng, dealer=h % 2)
        while state.phase != "over":
            seat = state.seat_to_act
            if state.phase == "discard":
                out.append((state, seat))
            state = gin_engine.apply(state, seat, gin_engine.bots.choose_action(state, seat, "basic", rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="one simulated match, no stored Gin match")
    parser.add_argument(
        "--hint-budget",
        type=int,
        nargs="*",
        default=[],
        help="hint budgets (solver states) to measure besides the server's",
    )
    args = parser.parse_args()
    realtime.send_now = lambda group, message: None  # nobody listens
    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_CLOCK = False
    call_command("migrate", verbosity=0)
    load = os.getloadavg()[0]
    print(
        f"Python {sys.version.split()[0]}; load average {load:.2f}; worker budget "
        f"{settings.RUMMYHUB_ANALYSIS_MAX_STATES:,} states per step, hint budget {settings.RUMMYHUB_HINT_MAX_STATES:,}"
    )
    worker_figures("manipulation", SEATS, str(args.seed))
    if not args.quick:
        worker_figures("gin", ("basic", "basic"), str(args.seed))
    matches = [simulate(args.seed + i) for i in range(1 if args.quick else args.matches)]
    engine_figures(matches, settings.RUMMYHUB_ANALYSIS_MAX_STATES)
    gin = gin_positions(4 if args.quick else 12, args.seed)
    for budget in [settings.RUMMYHUB_HINT_MAX_STATES, *args.hint_budget]:
        hint_figures(matches, gin, budget)


if __name__ == "__main__":
    main()
