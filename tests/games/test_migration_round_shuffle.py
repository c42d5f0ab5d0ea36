"""Migration 0009: the rounds stored before provably fair deals are marked ``python-random`` and keep
their seed (a bigint, now its decimal text), so they deal and replay exactly as before."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import shuffle
from games.models import Round
from games.rebuild import iter_round_states
from games.variants import spec_for

BEFORE = [("games", "0008_hot_tables_autovacuum")]
AFTER = [("games", "0009_round_shuffle")]


@pytest.mark.django_db(transaction=True)
def test_existing_rounds_are_marked_as_the_old_shuffle_and_keep_their_seeds():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    match = old.get_model("games", "Match").objects.create(variant="manipulation", seats_count=3)
    seeds = [2**62 - 1, 7]
    for number, seed in enumerate(seeds, start=1):
        old.get_model("games", "Round").objects.create(
            match=match,
            number=number,
            seed=seed,
            setup={
                "players": 3,
                "scores": [0, 0, 0],
                "rounds_won": [0, 0, 0],
                "rounds_played": 0,
                "dealer": None,
                "winners_last": [],
            },
        )
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    rounds = list(Round.objects.filter(match_id=match.pk).select_related("match").order_by("number"))
    assert [(r.shuffle, r.seed, r.commitment) for r in rounds] == [(shuffle.LEGACY, str(s), "") for s in seeds]
    spec = spec_for("manipulation")
    rules = spec.rules({}, 3)
    for rnd, seed in zip(rounds, seeds, strict=True):
        before, _dealer = spec.deal(rules, rnd.setup, random.Random(seed))  # how the old code dealt it
        _event, replayed = next(iter_round_states(rnd.match, rnd))
        assert spec.dump(replayed) == spec.dump(before)
    # A round dealt from now on gets the documented shuffle and a fresh 256-bit seed.
    new = Round.objects.create(match_id=match.pk, number=3)
    assert new.shuffle == shuffle.CURRENT and len(new.seed) == 64
