"""CPU of one move on the live path, in process: ``bench/ws_load.py``'s move without the socket stack.

Run: ``.venv/bin/python bench/move_cost.py [--tables 60] [--moves 3000] [--sqlite]``

A throwaway database (PostgreSQL ``rummyhub_movecost_<pid>``, created and dropped; or a SQLite file)
holds ``--tables`` started four-seat Manipulation tables with a person in every seat, as ws_load's.
Moves are then made one table after the other, each as a socket's command makes it: the player to
act draws while they may, else ends their turn (``games.commands.carry_out``, on the board cache's
version), and then every seat's socket gets its frame of the new version, as the table's four sockets
in one process do (``boardviews.view_of`` of each seat, the mover's first, then ``Shown.frame``).
A table whose round ended is replaced by a new one.

Printed: CPU of this process per move (process time: waiting on the database is not counted), split
into the command (lock, engine, write, commit and its hand-off to the board cache), the mover's view
(with the version's public board: its context and fragments, drawn once, by the first view), the three
other seats' views and the four frames; and a baseline measured in the same run, the floor of a move's
transaction (BEGIN, one row locked, COMMIT).  What the socket stack adds (daphne, Channels, the thread
hop) is ws_load's.
"""

from __future__ import annotations

import argparse
import collections
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
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--sort", default="cumulative", help="cProfile sort key (cumulative, tottime ...)")
    parser.add_argument(
        "--profile",
        choices=("command", "views"),
        help="also print cProfile's top functions (by --sort; CPU time) of the commands or of the views and frames",
    )
    args = parser.parse_args()
    with throwaway.database(f"rummyhub_movecost_{os.getpid()}", sqlite=args.sqlite, DJANGO_STATIC_MANIFEST="0"):
        run(args)


def run(args) -> None:
    import django

    django.setup()
    import cProfile
    import pstats

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone, translation

    from games import commands, services
    from games.live import boardcache, boardviews
    from games.models import Match, MatchStatus, Seat, TableConnection
    from games.variants import spec_for

    call_command("migrate", verbosity=0)
    throwaway.broadcasts_to_a_running_loop()
    translation.activate("en")
    User = get_user_model()
    made = iter(range(10**9))

    def new_table() -> tuple:
        """A started table of four people, every one of them here (a table socket each), no deadline."""
        users = [User.objects.create(username=f"movecost-{next(made)}", password="!unusable") for _ in range(4)]
        match = services.match_create(host=users[0], variant="manipulation", seats_count=4)
        for i, user in enumerate(users[1:], start=1):
            services.seat_join(match_id=match.pk, user=user, index=i)
        services.match_start(match_id=match.pk, user=users[0])
        now = timezone.now()
        TableConnection.objects.bulk_create(
            TableConnection(match=match, user=u, opened_at=now, last_seen=now, token=f"mc{next(made):030d}")
            for u in users
        )
        Match.objects.filter(pk=match.pk).update(deadline=None)
        match = Match.objects.get(pk=match.pk)
        data = boardcache.board_data_for(match.pk, fresh=True, created_at=match.created_at)
        shown = [boardviews.Shown() for _ in users]
        for user, socket in zip(users, shown, strict=True):
            socket.frame(boardviews.view_of(data, user))  # each page's first board
        return match.pk, match.created_at, users, shown

    tables = [new_table() for _ in range(args.tables)]
    Seat.objects.update(last_seen=timezone.now())
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    cpu: collections.Counter = collections.Counter()
    replaced = 0

    def move(k: int, timed: bool) -> None:
        nonlocal replaced
        match_id, created, users, shown = tables[k % len(tables)]
        data = boardcache.board_data_for(match_id, created_at=created)
        spec = spec_for(data.match.variant)
        acting = spec.acting_seats(data.state) if data.match.status == MatchStatus.PLAYING else []
        if not acting:  # the round is over: a new table in its place
            tables[k % len(tables)] = new_table()
            replaced += 1
            return move(k, timed)
        seat = acting[0]
        legal = {a["type"] for a in spec.view(data.state, seat).get("legal_actions", [])}
        action = "draw" if "draw" in legal else "end_turn"
        t0 = time.process_time()
        if args.profile == "command" and timed:
            profiler.enable()
        outcome = commands.carry_out(
            "act",
            {"action": action, "version": str(data.match.version)},
            match_id=match_id,
            user=users[seat],
            language="en",
            admitted=commands.Admitted(match_id, users[seat].pk),
        )
        if args.profile == "command" and timed:
            profiler.disable()
        t1 = time.process_time()
        if outcome.moved_to is None:
            raise SystemExit(f"move_cost: a {action} at table {match_id} was refused: {outcome.refusal!r}")
        new = boardcache.peek(match_id, min_version=outcome.moved_to, created_at=created)
        if new is None:
            raise SystemExit("move_cost: the command's version was not handed to the board cache")
        if args.profile == "views" and timed:
            profiler.enable()
        laps = [t1]
        for index in [seat, *(i for i in range(len(users)) if i != seat)]:  # the mover's answer first
            view = boardviews.view_of(new, users[index])
            laps.append(time.process_time())
            shown[index].frame(view, reply=index == seat)
            laps.append(time.process_time())
        if args.profile == "views" and timed:
            profiler.disable()
        if timed:
            cpu["command"] += t1 - t0
            cpu["mover's view"] += laps[1] - laps[0]
            cpu["other views"] += sum(laps[i + 1] - laps[i] for i in range(2, len(laps) - 1, 2))
            cpu["frames"] += sum(laps[i + 1] - laps[i] for i in range(1, len(laps) - 1, 2))

    def floor() -> None:
        with transaction.atomic():
            Match.objects.select_for_update().filter(pk=tables[0][0]).values_list("pk", flat=True).first()

    for k in range(200):  # warm caches and connections
        move(k, timed=False)
        floor()
    start = time.process_time()
    for k in range(200, 200 + args.moves):
        move(k, timed=True)
    total = time.process_time() - start
    base = []
    for _ in range(args.moves):
        t = time.process_time()
        floor()
        base.append(time.process_time() - t)
    per_move = total / args.moves * 1e3
    floor_ms = statistics.mean(base) * 1e3
    print(
        f"move_cost: {connection.vendor}, {args.tables} four-seat Manipulation tables of people, {args.moves} moves "
        f"(draw, else end the turn), {replaced} tables replaced; CPU of this process"
    )
    print(f"  a move       {per_move:6.3f} ms  (the command and the four sockets' frames of its version)")
    for part in ("command", "mover's view", "other views", "frames"):
        print(f"    {part:13s} {cpu[part] / args.moves * 1e3:6.3f} ms")
    print(f"  baseline: a transaction locking one row {floor_ms:.3f} ms; a move = {per_move / floor_ms:.1f}x baseline")
    if profiler is not None:
        print(f"  (profiled: the {args.profile} figures above include cProfile's overhead)")
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(45)


if __name__ == "__main__":
    main()
