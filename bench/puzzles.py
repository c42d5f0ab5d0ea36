"""Puzzles generated per match and the time it takes (issue 28, "What it must show" 2).

Bot matches are played in-process through the services (``bench/analysis.py``'s ``stored_match``: a
throwaway SQLite database, the seats bots, marked finished after ``--rounds`` rounds), analysed by the
worker's own function (``analysis_services.analyse_match``, which then generates the puzzles through
``signals.analysis_done``), and the generation is also timed on its own (``puzzles_generate`` over the
same match with the analysis' steps, and without them: the management command's path over past
matches).  Printed per game: matches, puzzles per match (by kind), generation CPU per match (p50 / max)
with and without the analysis' pre-filter, and the analysis' own CPU beside it as the baseline.

Run: .venv/bin/python bench/puzzles.py [--matches 3] [--rounds 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import analysis as bench_analysis
from django.conf import settings
from django.core.management import call_command

from games.analysis import services as analysis_services
from games.puzzles.models import Puzzle
from games.puzzles.services import puzzles_generate
from plumbing import realtime


def figures(variant: str, policies: tuple[str, ...], matches: int, rounds: int, seed: int) -> None:
    counts, kinds, with_steps, without, analysis_cpu = [], Counter(), [], [], []
    for i in range(matches):
        match = bench_analysis.stored_match(variant, policies, rounds, f"{seed}-{i}")
        row = analysis_services.analyse_match(match_id=match.pk)  # generates through signals.analysis_done
        analysis_cpu.append(row.cpu_seconds or 0.0)
        stored = [
            kind if kind != "knock_or_wait" else f"{kind}:{solution['answer']}"
            for kind, solution in Puzzle.objects.filter(match=match).values_list("kind", "solution")
        ]
        counts.append(len(stored))
        kinds.update(stored)
        Puzzle.objects.filter(match=match).delete()
        t0 = time.thread_time()
        again = puzzles_generate(match_id=match.pk, steps=row.steps)
        with_steps.append(time.thread_time() - t0)
        Puzzle.objects.filter(match=match).delete()
        t0 = time.thread_time()
        alone = puzzles_generate(match_id=match.pk)
        without.append(time.thread_time() - t0)
        assert again == alone == len(stored), (again, alone, len(stored))
    print(
        f"{variant} ({', '.join(policies)}), {matches} matches of {rounds} rounds: "
        f"{statistics.mean(counts):.1f} puzzles per match (min {min(counts)}, max {max(counts)}; "
        f"{dict(kinds)}); generation CPU per match after the analysis p50 {statistics.median(with_steps):.2f} s, "
        f"max {max(with_steps):.2f} s; over a past match (no analysis steps) p50 {statistics.median(without):.2f} s, "
        f"max {max(without):.2f} s; baseline: the analysis itself p50 {statistics.median(analysis_cpu):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    realtime.send_now = lambda group, message: None  # nobody listens
    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_CLOCK = False
    call_command("migrate", verbosity=0)
    print(f"Python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.2f}")
    figures("manipulation", bench_analysis.SEATS, args.matches, args.rounds, args.seed)
    figures("gin", ("basic", "basic"), args.matches, args.rounds, args.seed)


if __name__ == "__main__":
    main()
