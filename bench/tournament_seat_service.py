"""The staff's "Seat next round" end to end: ``services.round_seat`` for a large Swiss field, in process.

Run: ``.venv/bin/python bench/tournament_seat_service.py [--players 1000] [--rounds 5] [--sqlite]
[--database NAME]``

A throwaway database (PostgreSQL ``rummyhub_seatbench_<pid>`` unless ``--database`` names one,
created and dropped; or a SQLite file) holds a Swiss tournament at tables of 4 with ``--players``
entrants.  Each round: ``services.round_seat`` (standings, earlier tables, the seating, the
draft tables and seats with every table's reasons written) is timed, then the round is marked
played with random placements straight in the tables (no matches: this measures the seating, not
the games).  Printed per round: wall and CPU seconds of ``round_seat``, and, measured in the same
run on the same standings and history, the pure ``pairing.seat_swiss`` (the ratio says what the
database part costs).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import throwaway  # noqa: E402

POINTS = {1: [4], 2: [4, 0], 3: [4, 2, 0], 4: [4, 2, 1, 0], 5: [4, 3, 2, 1, 0]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--database", help="PostgreSQL database to create and drop (default: per process)")
    args = parser.parse_args()
    with throwaway.database(args.database or f"rummyhub_seatbench_{os.getpid()}", sqlite=args.sqlite):
        run(args)


def run(args) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.tournaments import pairing, selectors, services
    from games.tournaments.models import Entry, RoundStatus, Tournament, TournamentSeat

    call_command("migrate", verbosity=0)
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"player{i:05d}", password="!") for i in range(args.players)]
    )
    staff = get_user_model().objects.create(username="staff", is_staff=True, is_superuser=True)
    t = Tournament.objects.create(
        name="Bench Swiss",
        variant="manipulation",
        format="swiss",
        table_size=4,
        rounds_count=args.rounds,
        registration_open=False,
    )
    Entry.objects.bulk_create([Entry(tournament=t, user=u, seed=i) for i, u in enumerate(users)])
    rng = random.Random(1)
    print(f"round_seat: {args.players} players at tables of 4, {'SQLite' if args.sqlite else 'PostgreSQL'}")
    print(f"{'round':>5} {'wall s':>8} {'CPU s':>8} {'seat_swiss CPU s':>17} {'ratio':>6} {'tables':>7}")
    for number in range(1, args.rounds + 1):
        # The baseline first, on the same standings and history as round_seat reads.
        standings = [s for s in selectors.tournament_standings(t) if not s.withdrawn]
        players = [pairing.Player(id=s.entry, points=s.points) for s in standings]
        met = pairing.meetings_of([x["entries"] for x in selectors.previous_tables(t) if not x["is_bye"]])
        cpu = time.process_time()
        pairing.seat_swiss(players, size=4, seat_choices=(2, 3, 4, 5), met=met)
        pure = time.process_time() - cpu
        wall, cpu = time.perf_counter(), time.process_time()
        rnd = services.round_seat(tournament_id=t.pk, by=staff)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        tables = rnd.tables.count()
        print(f"{number:>5} {wall:>8.3f} {cpu:>8.3f} {pure:>17.3f} {cpu / pure:>5.1f}x {tables:>7}")
        _play(rnd, rng, TournamentSeat, RoundStatus)


def _play(rnd, rng, seat_model, round_status) -> None:
    """Random placements straight into the draft seats, and the round marked closed."""
    seats = []
    for table in rnd.tables.prefetch_related("seats"):
        rows = list(table.seats.all())
        order = list(range(len(rows)))
        rng.shuffle(order)
        for seat, place in zip(rows, order, strict=True):
            seat.placement, seat.points, seat.game_points = place + 1, POINTS[len(rows)][place], 0
            seats.append(seat)
    seat_model.objects.bulk_update(seats, ["placement", "points", "game_points"], batch_size=1000)
    rnd.status = round_status.CLOSED
    rnd.save(update_fields=["status"])


if __name__ == "__main__":
    main()
