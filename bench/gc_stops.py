"""How long the server's own garbage collections stop every thread, at 1,000 sockets.

``plumbing.gctune`` runs a collection every 5 minutes that freezes what it leaves, so the next
one scans only what came after, and a collection of everything (the thaw) every hour.  This runs
``bench/ws_load.py --postgres --modes app`` (250 tables x 4 sockets, 50 moves a second) with the
server's collector at shorter intervals (a periodic collection every ``--every`` seconds, a thaw
every ``--thaw-every``), and prints each collection's stop from the server's log, the periodic ones
beside the thaws of the same run.

Run: ``.venv/bin/python bench/gc_stops.py [--seconds 240] [--every 30] [--thaw-every 90]``

As an ``--app`` of ``ws_load.py`` (what the run above uses): ``bench.gc_stops:application``,
with ``GC_STOPS_FILE``, ``GC_EVERY`` and ``GC_THAW_EVERY`` in its environment.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(
    r"^(?P<kind>collection of everything|collection since the last) .*?(?P<freed>\d+) objects freed, every thread stopped (?P<ms>\d+) ms"
)


def _serve():
    """The app with the collector at the bench's intervals, its lines written to GC_STOPS_FILE."""
    import logging

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")
    from plumbing import gctune
    from rummyhub.asgi import application as app  # applies gctune.tune() with the defaults

    gctune.stop()
    handler = logging.FileHandler(os.environ["GC_STOPS_FILE"])
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger(gctune.__name__)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    gctune.tune(full_every=float(os.environ["GC_EVERY"]), thaw_every=float(os.environ["GC_THAW_EVERY"]))
    return app


def __getattr__(name):
    if name == "application":  # imported by daphne only: running this file as a script serves nothing
        return _serve()
    raise AttributeError(name)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=240, help="ws_load's measured window")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between two periodic collections")
    parser.add_argument("--thaw-every", type=float, default=90.0, help="seconds between two collections of everything")
    parser.add_argument("--tables", type=int, default=250)
    args = parser.parse_args()
    log_file = Path(tempfile.mkdtemp()) / "gc_stops.log"
    env = {
        **os.environ,
        "GC_STOPS_FILE": str(log_file),
        "GC_EVERY": str(args.every),
        "GC_THAW_EVERY": str(args.thaw_every),
        "PYTHONPATH": str(ROOT),
    }
    command = [
        sys.executable,
        str(ROOT / "bench" / "ws_load.py"),
        "--postgres",
        "--modes",
        "app",
        "--tables",
        str(args.tables),
        "--seconds",
        str(args.seconds),
        "--app",
        "bench.gc_stops:application",
    ]
    run = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    table = [line for line in run.stdout.splitlines() if line.startswith(("mode ", "app "))]
    print("\n".join(table) or run.stdout[-2000:] + run.stderr[-2000:])
    stops: dict[str, list[tuple[int, int]]] = {"collection since the last": [], "collection of everything": []}
    for line in log_file.read_text().splitlines() if log_file.exists() else ():
        found = LINE.match(line)
        if found:
            stops[found["kind"]].append((int(found["ms"]), int(found["freed"])))
    print(
        f"gc stops at {args.tables} tables x 4 sockets (periodic every {args.every:g} s, thaw every {args.thaw_every:g} s):"
    )
    for kind, seen in stops.items():
        ms = [m for m, _ in seen]
        if ms:
            print(
                f"  {kind:<27} n={len(ms):>2}  stop ms: median {statistics.median(ms):6.0f}  max {max(ms):6.0f}"
                f"  (each: {', '.join(str(m) for m in ms)}; objects freed: {', '.join(str(f) for _, f in seen)})"
            )
        else:
            print(f"  {kind:<27} n= 0")
    # The first periodic collection scans everything since start-up (the sockets just opened): not the
    # steady state, so the ratio leaves it out.
    periodic, thaws = stops["collection since the last"][1:], stops["collection of everything"]
    if periodic and thaws:
        ratio = statistics.median(m for m, _ in periodic) / statistics.median(m for m, _ in thaws)
        print(f"  periodic / thaw (medians, the first periodic left out): {ratio:.2f}")


if __name__ == "__main__":
    main()
