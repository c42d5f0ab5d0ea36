"""What one board push costs in this process: a 4-seat Manipulation table (4 players' sockets and
``--spectators`` more), a move at a time, every socket's frame made from the version's data.

Times only the frames (the data of each version is loaded before the clock starts, as the move's
hand-off to the board cache has it), CPU time of this process per version.

Run: .venv/bin/python bench/push_cost.py [--moves 300] [--spectators 2] [--tables 250 --moves 5000]
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")
_db = Path(tempfile.mkdtemp()) / "push_cost.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{_db}"
# As a server runs (bench/ws_load.py's daphne): not in debug, where the templates and the markup kept by
# content are drawn afresh at every render.
os.environ.update(DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="127.0.0.1", DJANGO_STATIC_MANIFEST="0")
os.environ.setdefault("DJANGO_SECRET_KEY", "push-cost-" + "x" * 40)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import AnonymousUser  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import services  # noqa: E402
from games.board import fragments  # noqa: E402
from games.live import boardcache, boardviews  # noqa: E402
from games.models import Match, TableConnection, new_connection_token  # noqa: E402
from games.variants import spec_for  # noqa: E402


def per_socket(data, viewers, sockets):
    """The old path: every socket builds its viewer's board and diffs it against what it sent."""
    for user, sock in zip(viewers, sockets, strict=True):
        board = fragments.board_for(data, user, previous=sock.get("last"))
        sock["last"] = board.kept()
        sent, sent_parts = sock.setdefault("sent", {}), sock.setdefault("parts", {})
        out = []
        for name, html in board.fragments.items():
            piece = (
                html
                if name == "board-meta"
                else fragments.delta(html, board.parts.get(name), sent.get(name), sent_parts.get(name))
            )
            if piece:
                out.append(piece)
        sent.update(board.fragments)
        sent_parts.update(board.parts)


def per_view(data, viewers, sockets):
    """Each view drawn once per version (``games.live.boardviews``), each socket's frame made from it."""
    for user, sock in zip(viewers, sockets, strict=True):
        shown = sock.setdefault("shown", boardviews.Shown())
        shown.frame(boardviews.view_of(data, user))


PATHS = {"per socket": per_socket, "per view": per_view}
WARM_UP = 10


def new_match(users) -> Match:
    match = services.match_create(host=users[0], variant="manipulation", seats_count=4)
    for i, u in enumerate(users[1:], start=1):
        services.seat_join(match_id=match.pk, user=u, index=i)
    # Every player here, as their open sockets make them (ws_load.py): no "away" clock on the board.
    seen = timezone.now() + datetime.timedelta(days=1)
    TableConnection.objects.bulk_create(
        TableConnection(match_id=match.pk, user_id=u.pk, opened_at=seen, last_seen=seen, token=new_connection_token())
        for u in users
    )
    services.match_start(match_id=match.pk, user=users[0])
    boardcache.board_data_for(match.pk)
    return Match.objects.get(pk=match.pk)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--spectators", type=int, default=0)
    parser.add_argument(
        "--tables",
        type=int,
        default=1,
        help="tables moved in turn, a move each (as a server's: what is kept by content is shared by them all)",
    )
    parser.add_argument("--paths", default=",".join(PATHS), help="comma-separated: " + ", ".join(PATHS))
    args = parser.parse_args()
    paths = {name: PATHS[name] for name in args.paths.split(",")}
    call_command("migrate", verbosity=0)
    User = get_user_model()
    players = [[User.objects.create_user(f"p{t}-{i}", password="x") for i in range(4)] for t in range(args.tables)]
    matches = [new_match(users) for users in players]
    viewers = [users + [AnonymousUser()] * args.spectators for users in players]
    spec = spec_for("manipulation")
    sockets = {name: [[{} for _ in viewers[t]] for t in range(args.tables)] for name in paths}
    spent = dict.fromkeys(paths, 0.0)
    versions = 0
    warm_up = WARM_UP * args.tables
    for move in range(args.moves):
        t = move % args.tables
        users, match = players[t], matches[t]
        now = Match.objects.get(pk=match.pk)
        if now.status != "playing":  # the round is over: a new table (its sockets start afresh)
            match = matches[t] = now = new_match(users)
            for name in paths:
                sockets[name][t] = [{} for _ in viewers[t]]
        state = spec.load(now.state["round"])
        legal = spec.view(state, state.seat_to_act)["legal_actions"]
        kind = "draw" if any(a["type"] == "draw" for a in legal) else "end_turn"
        moved = services.turn_submit(
            match_id=match.pk, user=users[state.seat_to_act], action={"type": kind}, expected_version=now.version
        )
        data = boardcache.board_data_for(match.pk, min_version=moved.version)
        timed = versions >= warm_up  # the first versions import and fill the caches: not timed
        versions += 1
        for name, push in paths.items():  # in turn, each on its own copy of the version's shared renders
            fresh = type(data)(data.match, data.seats, data.state, data.events, data.rounds, data.rematch)
            t0 = time.process_time()
            push(fresh, viewers[t], sockets[name][t])
            if timed:
                spent[name] += time.process_time() - t0
    base = next(iter(spent.values()))
    versions -= warm_up
    print(
        f"push cost: {versions} versions timed, {args.tables} table(s) moved in turn, "
        f"{len(viewers[0])} sockets each (4 players, {args.spectators} spectators)"
    )
    for name, total in spent.items():
        print(
            f"  {name:<12} {total / versions * 1000:7.2f} ms CPU per version  ({total / base:.2f} x {next(iter(spent))})"
        )


if __name__ == "__main__":
    main()
