"""Match history benchmark: p95 server time of the history list and of a match page with 10,000 matches.

Fills a throwaway database (Django's test database: a fresh SQLite file, and PostgreSQL too when
DATABASE_URL is set) with 10,000 finished matches of realistic shape (2–5 seats, 3–15 rounds, a score
row per seat and round) by bulk-creating rows directly, then times requests through Django's test
client (URL routing, middleware, selectors, template rendering — everything but the network).
The baseline, measured in the same run on the same data, renders the same templates from naive
queries (no select_related/prefetch_related, no column pruning: one query per row and per round).
Target: p95 ≤ 50 ms for each page.

Run: .venv/bin/python bench/history.py [--matches N] [--requests N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def fill(n_matches: int, rng: random.Random) -> dict:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from games.models import Match, MatchStatus, Round, RoundScore, Seat

    User = get_user_model()
    password = make_password("correct-horse-battery")
    users = User.objects.bulk_create(
        [User(username=f"player{i:04d}", password=password) for i in range(400)], batch_size=1000
    )
    now = timezone.now()
    variants = ["manipulation"] * 17 + ["gin", "gin_box", "oklahoma"]
    matches, shapes = [], []
    for _ in range(n_matches):
        seats = rng.randint(2, 5)
        rounds = rng.randint(3, 15)
        finished = now - timedelta(minutes=rng.randint(1, 365 * 24 * 60))
        started = finished - timedelta(minutes=rng.randint(5, 120))
        matches.append(
            Match(
                variant=rng.choice(variants),
                options={"game_target": 150},
                seats_count=seats,
                status=MatchStatus.FINISHED,
                is_private=rng.random() < 0.05,
                started_at=started,
                finished_at=finished,
                round_number=rounds,
                version=rounds * 40,
            )
        )
        shapes.append((seats, rounds))
    matches = Match.objects.bulk_create(matches, batch_size=2000)
    seat_rows, round_rows, plans = [], [], []
    for match, (n, rounds) in zip(matches, shapes, strict=True):
        people = rng.sample(users, n)
        totals = [0] * n
        per_round = []
        for number in range(1, rounds + 1):
            winner = rng.randrange(n)
            hand = [rng.randint(0, 90) for _ in range(n)]
            hand[winner] = rng.randint(0, min(hand))
            score = sum(h - hand[winner] for h in hand)
            totals[winner] += score
            per_round.append((winner, hand, score))
            round_rows.append(
                Round(
                    match=match,
                    number=number,
                    dealer=number % n,
                    shuffle="python-random",
                    seed=str(rng.getrandbits(60)),
                    result_kind=rng.choice(["knock", "went_out", "stock_exhausted"]),
                    knocker=winner,
                    winners=[winner],
                    finished_at=match.finished_at,
                    outcome={"hand_points": hand, "winners": [winner]},
                )
            )
        best = max(totals)
        for i in range(n):
            bot = rng.random() < 0.2 and i > 0
            seat_rows.append(
                Seat(
                    match=match,
                    index=i,
                    user=None if bot else people[i],
                    bot_policy="basic" if bot else "",
                    bot_name=f"Bot {i}" if bot else "",
                    final_total=totals[i] + (100 if totals[i] == best else 0),
                    is_winner=totals[i] == best,
                )
            )
        plans.append(per_round)
    Seat.objects.bulk_create(seat_rows, batch_size=5000)
    round_rows = Round.objects.bulk_create(round_rows, batch_size=5000)
    it = iter(round_rows)
    score_rows = []
    for per_round in plans:
        for winner, hand, score in per_round:
            rnd = next(it)
            for i, h in enumerate(hand):
                won = i == winner
                score_rows.append(
                    RoundScore(
                        round=rnd,
                        seat=i,
                        hand_points=h,
                        score=score if won else 0,
                        reasons=[{"code": "difference", "points": score}] if won else [],
                    )
                )
    RoundScore.objects.bulk_create(score_rows, batch_size=10000)
    return {
        "users": users,
        "match_ids": [m.pk for m in matches],
        "rounds": len(round_rows),
        "scores": len(score_rows),
        "seats": len(seat_rows),
    }


# ----------------------------------------------------------------------------- naive baseline


def naive_list(request):
    """The same page from naive queries: every column, seats and users fetched per row."""
    from django.core.paginator import Paginator
    from django.shortcuts import render
    from django.urls import reverse

    from games.history.forms import HistoryFilterForm
    from games.models import Match, MatchStatus

    qs = Match.objects.filter(status=MatchStatus.FINISHED, is_private=False).order_by("-finished_at")
    page = Paginator(qs, 25).get_page(request.GET.get("page"))
    rows = []
    for m in page.object_list:
        players = [
            {
                "name": s.display_name,
                "username": s.user.username if s.user_id else "",
                "is_bot": s.is_bot,
                "url": reverse("profile", args=[s.user.username]) if s.user_id else "",
                "total": s.final_total,
                "winner": s.is_winner,
            }
            for s in m.seats.all()
        ]
        rows.append(
            {
                "id": m.pk,
                "url": reverse("history:match", args=[m.pk]),
                "date": m.finished_at,
                "variant": m.get_variant_display(),
                "players": players,
                "rounds": m.rounds.count(),
                "duration": str(m.finished_at - m.started_at),
                "live": False,
                "private": m.is_private,
            }
        )
    return render(request, "games/history/list.html", {"form": HistoryFilterForm(), "page": page, "rows": rows})


def naive_match(request, match_id):
    """The same page with one query per round for its scores and one per seat for its user."""
    from django.shortcuts import render

    from games.history import selectors
    from games.models import Match, Round

    match = Match.objects.get(pk=match_id)
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    for rnd in rounds:
        list(rnd.scores.all())  # N+1, no prefetch
    original = selectors._finished_rounds
    selectors._finished_rounds = lambda _match: [r for r in rounds if r.finished_at]
    try:
        return render(request, "games/history/match.html", selectors.match_detail(match=match))
    finally:
        selectors._finished_rounds = original


# ----------------------------------------------------------------------------- one backend


def run_backend(n_matches: int, n_requests: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")
    import django

    django.setup()
    from django.conf import settings

    settings.DEBUG = False  # no query log (templates are cached by Django's default loaders either way)
    from django.db import connection
    from django.test import Client, RequestFactory
    from django.test.utils import CaptureQueriesContext

    # Not setup_test_environment(): its instrumented template rendering would be timed too.
    settings.ALLOWED_HOSTS = ["testserver"]
    old_name = connection.settings_dict["NAME"]
    # A database of its own (never the test suite's, which may be in use): created here, dropped at the end.
    throwaway = f"bench_history_{os.getpid()}"
    if connection.vendor == "sqlite":
        throwaway = str(Path(tempfile.gettempdir()) / f"{throwaway}.sqlite3")
    connection.settings_dict["TEST"] = {**connection.settings_dict.get("TEST", {}), "NAME": throwaway}
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        rng = random.Random(2026)
        t0 = time.perf_counter()
        data = fill(n_matches, rng)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # planner statistics, as autovacuum / a deployment would have them
        fill_s = time.perf_counter() - t0
        vendor = connection.vendor
        print(
            f"[{vendor}] filled {len(data['match_ids'])} matches, {data['seats']} seats, {data['rounds']} rounds, "
            f"{data['scores']} round scores in {fill_s:.1f} s"
        )
        client = Client()
        me = data["users"][0]
        client.force_login(me)
        ids = data["match_ids"]
        from games.models import Match

        public_ids = list(Match.objects.filter(pk__in=ids, is_private=False).values_list("pk", flat=True))
        list_urls = [
            "/history/",
            "/history/?variant=manipulation",
            f"/history/?player={data['users'][7].username}",
            "/history/?page=40",
            "/history/?mine=on",
            "/history/?variant=gin&page=3",
            "/history/?date_from=2026-01-01&date_to=2026-06-30",
        ]

        cpu: dict[int, float] = {}
        db_ms = [0.0]

        def db_timer(execute, sql, params, many, context):
            start = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                db_ms[0] += (time.perf_counter() - start) * 1000

        def timed(fn) -> float:
            """Wall-clock ms of one request (its CPU ms in this process and its ms waiting for the database
            are kept aside in ``cpu`` and ``db``)."""
            start, start_cpu = time.perf_counter(), time.process_time()
            db_ms[0] = 0.0
            with connection.execute_wrapper(db_timer):
                response = fn()
            elapsed = (time.perf_counter() - start) * 1000
            cpu[len(cpu)] = (time.process_time() - start_cpu) * 1000
            db[len(db)] = db_ms[0]
            assert response.status_code == 200, response.status_code
            return elapsed

        db: dict[int, float] = {}

        def cpu_of(first: int, count: int, source=cpu) -> list[float]:
            return [source[k] for k in range(first, first + count)]

        for url in list_urls:  # warm-up (template loading, connection)
            client.get(url)
        cpu.clear()
        db.clear()
        list_plan = [list_urls[i % len(list_urls)] for i in range(n_requests)]
        match_plan = [f"/matches/{rng.choice(public_ids)}/" for _ in range(n_requests)]
        list_ms = [timed(lambda u=url: client.get(u)) for url in list_plan]
        match_ms = [timed(lambda u=url: client.get(u)) for url in match_plan]
        list_cpu, match_cpu = cpu_of(0, n_requests), cpu_of(n_requests, n_requests)
        list_db, match_db = cpu_of(0, n_requests, db), cpu_of(n_requests, n_requests, db)
        with CaptureQueriesContext(connection) as q_list:
            client.get("/history/")
        with CaptureQueriesContext(connection) as q_match:
            client.get(f"/matches/{public_ids[0]}/")

        factory = RequestFactory()

        def request(path):
            r = factory.get(path)
            r.user = me
            r.htmx = False
            return r

        naive_list(request("/history/"))
        cpu.clear()
        n_naive = max(20, n_requests // 4)
        naive_pages = [(i % 50) + 1 for i in range(n_naive)]
        naive_ids = [rng.choice(public_ids) for _ in range(n_naive)]
        naive_list_ms = [timed(lambda p=p: naive_list(request(f"/history/?page={p}"))) for p in naive_pages]
        naive_match_ms = [timed(lambda m=m: naive_match(request(f"/matches/{m}/"), m)) for m in naive_ids]
        naive_list_cpu, naive_match_cpu = cpu_of(0, n_naive), cpu_of(n_naive, n_naive)
        naive_list_db, naive_match_db = cpu_of(0, n_naive, db), cpu_of(n_naive, n_naive, db)
        with CaptureQueriesContext(connection) as q_naive_list:
            naive_list(request("/history/"))
        with CaptureQueriesContext(connection) as q_naive_match:
            naive_match(request(f"/matches/{public_ids[0]}/"), public_ids[0])

        def line(name, samples, cpu_samples, db_samples, queries):
            return (
                f"[{vendor}] {name:<22} p50 {statistics.median(samples):6.1f} ms   p95 {percentile(samples, 95):6.1f} ms"
                f"   (cpu p95 {percentile(cpu_samples, 95):5.1f} ms, db p95 {percentile(db_samples, 95):5.1f} ms;"
                f" {len(samples)} requests, {len(queries)} queries per page)"
            )

        print(f"[{vendor}] load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(line("history list", list_ms, list_cpu, list_db, q_list))
        for k, url in enumerate(list_urls):
            mine = list_ms[k :: len(list_urls)]
            print(f"[{vendor}]     {url:<48} p50 {statistics.median(mine):6.1f} ms  max {max(mine):6.1f} ms")
        print(line("match page", match_ms, match_cpu, match_db, q_match))
        print(line("naive list (baseline)", naive_list_ms, naive_list_cpu, naive_list_db, q_naive_list))
        print(line("naive match (baseline)", naive_match_ms, naive_match_cpu, naive_match_db, q_naive_match))
        print(
            f"[{vendor}] baseline ratio (naive p95 / optimised p95): list "
            f"{percentile(naive_list_ms, 95) / percentile(list_ms, 95):.1f}x, match page "
            f"{percentile(naive_match_ms, 95) / percentile(match_ms, 95):.1f}x"
        )
        target = all(percentile(s, 95) <= 50 for s in (list_ms, match_ms))
        print(
            f"[{vendor}] target p95 <= 50 ms (wall clock) for both pages: {'met' if target else 'NOT met'}"
            + ("" if target or os.getloadavg()[0] < os.cpu_count() else " (the machine was busy: see the cpu p95)")
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--backend-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.backend_child:
        run_backend(args.matches, args.requests)
        return
    cmd = [
        sys.executable,
        __file__,
        "--backend-child",
        "--matches",
        str(args.matches),
        "--requests",
        str(args.requests),
    ]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    subprocess.run(cmd, env=env, check=True)  # SQLite (a fresh test database file)
    if os.environ.get("DATABASE_URL"):
        subprocess.run(cmd, env={**env, "DATABASE_URL": os.environ["DATABASE_URL"]}, check=True)


if __name__ == "__main__":
    main()
