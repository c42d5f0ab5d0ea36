"""Swiss seating benchmark: the slowest round's seating time and the rematches per round, against baselines.

A simulated Swiss event at tables of 4: each round the field (standing order: points, ties in a
random order) is seated by ``pairing.seat_swiss``, every table's result is random (placement points
4/2/1/0), and the tables feed the meeting history of the next round.  Every round is also seated,
from the same standings and history, by two baselines measured in the same run:

* **plain**: blocks of consecutive players in standing order (``table_sizes``), nothing avoided —
  the rematches there are the ones the search has to remove;
* **greedy**: tables filled in standing order, each player going to the first table with room
  where they met nobody (else the first with room) — what a tournament director does by hand;
* **old**: ``pairing.seat_swiss`` as it was before issue 18 (read from git, commit ``OLD_COMMIT``),
  a branch and bound over the whole field with a node budget, then pairwise swaps; only up to
  ``--old-max`` players (it takes seconds at 250 and recurses once per player: 1,000 crash).

Times are CPU seconds of this process (``time.process_time``); "vs new" is a baseline's slowest round
over the new one's.  Costs are ``pairing.seating_cost``: (rematches, points spread, squared standing
distance), lower is better, compared in that order; spread and squared distance are summed over
the rounds.

Run: .venv/bin/python bench/tournament_pairing.py [--quick] [--rounds 7] [--old-max 250] [--fields 250,1000,5000]
     [--ties shuffled|id]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.tournaments import pairing  # noqa: E402

OLD_COMMIT = "2fcf8de0d3ff1fba999868a03f9c48ed29bfebc9"
CHOICES = (2, 3, 4, 5)
SIZE = 4
POINTS = {1: [4], 2: [4, 0], 3: [4, 2, 0], 4: [4, 2, 1, 0], 5: [4, 3, 2, 1, 0]}


def old_pairing() -> types.ModuleType | None:
    """The pairing module before issue 18, from git (None when this is not a git checkout)."""
    try:
        source = subprocess.run(
            ["git", "show", f"{OLD_COMMIT}:games/tournaments/pairing.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("old_pairing")
    sys.modules["old_pairing"] = module  # dataclasses look their module up
    exec(compile(source, "old_pairing.py", "exec"), module.__dict__)  # our own file, from our git
    return module


def greedy(players: list, met: dict) -> list[list]:
    """First fit in standing order: the first table with room where the player met nobody, else the first with room."""
    sizes, _byes = pairing.table_sizes(len(players), SIZE, CHOICES)
    tables: list[list] = [[] for _ in sizes]
    open_tables = list(range(len(sizes)))
    for p in players:
        fits = [t for t in open_tables if not any(met.get(frozenset((p.id, q)), 0) for q in tables[t])]
        t = fits[0] if fits else open_tables[0]
        tables[t].append(p.id)
        if len(tables[t]) == sizes[t]:
            open_tables.remove(t)
    return tables


def plain(players: list, met: dict) -> list[list]:
    sizes, _byes = pairing.table_sizes(len(players), SIZE, CHOICES)
    tables, start = [], 0
    for s in sizes:
        tables.append([p.id for p in players[start : start + s]])
        start += s
    return tables


def timed(seat, *args, **kwargs):
    start = time.process_time()
    result = seat(*args, **kwargs)
    return result, time.process_time() - start


def simulate(n: int, rounds: int, old, *, shuffle_ties: bool = True, seed: int = 1) -> dict[str, list]:
    """Per round: seconds and cost of the new seating, the baselines and (when given) the old one."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(n), 0)
    history: list[tuple] = []
    out: dict[str, list] = {"new": [], "plain": [], "greedy": [], "old": []}
    for _ in range(rounds):
        order = list(points)
        if shuffle_ties:
            rng.shuffle(order)
        players = sorted((pairing.Player(id=i, points=points[i]) for i in order), key=lambda p: -p.points)
        met = pairing.meetings_of(history)
        tables, seconds = timed(pairing.seat_swiss, players, size=SIZE, seat_choices=CHOICES, met=met)
        out["new"].append((seconds, pairing.seating_cost([t.players for t in tables], players, met)))
        for name, baseline in (("plain", plain), ("greedy", greedy)):
            groups, seconds = timed(baseline, players, met)
            out[name].append((seconds, pairing.seating_cost(groups, players, met)))
        if old is not None:
            old_players = [old.Player(id=p.id, points=p.points) for p in players]
            old_tables, seconds = timed(old.seat_swiss, old_players, size=SIZE, seat_choices=CHOICES, met=met)
            out["old"].append((seconds, pairing.seating_cost([t.players for t in old_tables], players, met)))
        for t in tables:
            history.append(t.players)
            seats = list(t.players)
            rng.shuffle(seats)
            for place, pid in enumerate(seats):
                points[pid] += POINTS[len(seats)][place]
    return out


def report(n: int, rounds: int, runs: dict[str, list]) -> None:
    new_worst = max(s for s, _c in runs["new"])
    print(f"\n{n} players, tables of {SIZE}, {rounds} rounds")
    print(f"  {'':7} {'slowest round':>14} {'vs new':>7} {'spread':>7} {'sq. dist':>9}  rematches per round")
    for name in ("new", "plain", "greedy", "old"):
        if not runs[name]:
            continue
        worst = max(s for s, _c in runs[name])
        ratio = f"{worst / new_worst:6.2f}x" if name != "new" else "      1"
        spread, dist = (sum(c[k] for _s, c in runs[name]) for k in (1, 2))
        print(f"  {name:7} {worst * 1000:>11.1f} ms {ratio} {spread:>7} {dist:>9}  {[c[0] for _s, c in runs[name]]}")
    if runs["old"]:
        same = sum(1 for (_a, c1), (_b, c2) in zip(runs["new"], runs["old"], strict=True) if c1 == c2)
        cheaper = sum(1 for (_a, c1), (_b, c2) in zip(runs["new"], runs["old"], strict=True) if c1 < c2)
        print(f"  cost against old, per round: {same} equal, {cheaper} cheaper, {rounds - same - cheaper} dearer")
        for (_a, c1), (_b, c2) in zip(runs["new"], runs["old"], strict=True):
            if c1 != c2:
                print(f"    new {c1}  old {c2}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="250 and 1,000 players, 5 rounds, no old baseline")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--old-max", type=int, default=250, help="largest field the old algorithm seats (0: none)")
    parser.add_argument("--fields", default="250,1000,5000")
    parser.add_argument(
        "--ties",
        choices=("shuffled", "id"),
        default="shuffled",
        help="order of equal points: random, or by id (the pre-issue-18 bench: players who met "
        "stay next to each other, so the plain seating repeats many more tables)",
    )
    args = parser.parse_args()
    fields = [int(x) for x in args.fields.split(",")]
    rounds, old_max = args.rounds, args.old_max
    if args.quick:
        fields, rounds, old_max = [250, 1000], 5, 0
    old = old_pairing() if old_max else None
    if old_max and old is None:
        print("(no git history: the old algorithm is not measured)")
    for n in fields:
        runs = simulate(n, rounds, old if n <= old_max else None, shuffle_ties=args.ties == "shuffled")
        report(n, rounds, runs)


if __name__ == "__main__":
    main()
