"""CPU of one clock step, in process: what ``bench/soak.py``'s lateness is made of.

Run: ``.venv/bin/python bench/clock_step.py [--tables 40] [--steps 3000] [--sqlite]``

A throwaway database (PostgreSQL ``rummyhub_clockstep_<pid>``, created and dropped; or a SQLite
file) holds ``--tables`` started tables with a bot in every seat (as in the soak).  One thread
then calls ``services.clock_step`` back to back, each time with a ``now`` far ahead so some table
is always due, and after each step renders the moved table's board for a spectator from this
process's board cache, as a watcher socket's push does.  Printed: CPU ms per step (process time)
and per push, steps per CPU second, and the same for a baseline measured in the same run: the
floor of a step's transaction (BEGIN, one row locked, COMMIT) on the same connection.
One process's clock cannot take more steps a second than 1 / (step + push CPU).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import throwaway  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--sort", default="cumulative", help="cProfile sort key (cumulative, tottime ...)")
    parser.add_argument(
        "--profile",
        choices=("step", "push"),
        help="also print cProfile's top functions (by --sort; CPU time) of the steps or the pushes",
    )
    args = parser.parse_args()
    with throwaway.database(f"rummyhub_clockstep_{os.getpid()}", sqlite=args.sqlite, RUMMYHUB_BOT_DELAY="0.05"):
        run(args)


def run(args) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from bench.soak import new_table
    from games import services
    from games.board import fragments
    from games.live import boardcache
    from games.models import Match

    call_command("migrate", verbosity=0)
    throwaway.broadcasts_to_a_running_loop()
    User = get_user_model()
    host = User.objects.create(username="clockstep-host", password="!unusable")
    watcher = User.objects.create(username="clockstep-watcher", password="!unusable")
    kinds = [("manipulation", 4), ("gin", 2)]
    tables = [new_table(host, *kinds[i % 2]) for i in range(args.tables)]
    far = timezone.now() + datetime.timedelta(days=1)

    def push(match_id: int) -> None:
        data = boardcache.board_data_for(match_id)
        fragments.board_for(data, watcher)

    def floor() -> None:
        with transaction.atomic():
            Match.objects.select_for_update().filter(pk=tables[0]).values_list("pk", flat=True).first()

    for _ in range(200):  # warm caches and connections
        step = services.clock_step(now=far)
        push(step.match_id)
        floor()

    import cProfile
    import pstats

    # Timed by the process's CPU, as the figures above: waiting on the database is not counted.
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    step_cpu, push_cpu, replaced = [], [], 0
    for _ in range(args.steps):
        t = time.process_time()
        if args.profile == "step":
            profiler.enable()
        step = services.clock_step(now=far)
        if args.profile == "step":
            profiler.disable()
        step_cpu.append(time.process_time() - t)
        t = time.process_time()
        if args.profile == "push":
            profiler.enable()
        push(step.match_id)
        if args.profile == "push":
            profiler.disable()
        push_cpu.append(time.process_time() - t)
        if Match.objects.filter(pk=step.match_id, status="finished").exists():
            Match.objects.filter(pk=step.match_id).delete()
            tables[tables.index(step.match_id)] = new_table(host, *kinds[tables.index(step.match_id) % 2])
            replaced += 1
    base = []
    for _ in range(args.steps):
        t = time.process_time()
        floor()
        base.append(time.process_time() - t)

    def ms(xs):
        return statistics.mean(xs) * 1e3

    total = ms(step_cpu) + ms(push_cpu)
    print(
        f"clock_step: {connection.vendor}, {args.tables} bot tables (manipulation:4, gin:2), {args.steps} steps, "
        f"{replaced} finished tables replaced; CPU of this process"
    )
    print(f"  step  {ms(step_cpu):6.2f} ms  (p90 {sorted(step_cpu)[int(len(step_cpu) * 0.9)] * 1e3:.2f} ms)")
    print(f"  push  {ms(push_cpu):6.2f} ms  (one spectator's board, from the board cache)")
    print(f"  step + push {total:.2f} ms: at most {1000 / total:.0f} steps a second on one core")
    print(
        f"  baseline: a transaction locking one row {ms(base):.2f} ms; step = {ms(step_cpu) / ms(base):.1f}x baseline"
    )
    if profiler is not None:
        print(f"  (profiled: the {args.profile} figures above include cProfile's overhead)")
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(45)


if __name__ == "__main__":
    main()
