"""Provably fair deals (issue 17 §1, docs/fairness.md): the commitment shown at the deal matches the
seed revealed when the round is over; no page or record carries the seed of a round in play; the
command-line verifier accepts a real exported match and refuses a record with one card changed; the
rounds dealt before (python-random) replay as they did."""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from games import services
from games.engine import bots as engine_bots
from games.engine import shuffle
from games.history.export import import_record
from games.models import Match, MatchStatus, Round, Seat
from games.rebuild import iter_round_states, replay_current, replay_round
from games.variants import spec_for
from games.verify import MISMATCH, OK, UNREVEALED, verify_record
from tests.games.history.support import play_match, play_one_round
from tests.seeds import assert_no_secret_seed

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
HX = {"HTTP_HX_REQUEST": "true"}
COMMITMENT = re.compile(r'<code dir="ltr" data-commitment>([0-9a-f]{64})</code>')
SEED = re.compile(r'<code dir="ltr" data-seed>([0-9a-f]{64})</code>')


def play_to_round_end(match: Match) -> Match:
    """Play the round in play to its end (bots and the humans' greedy moves); the next is not dealt."""
    users = {s.index: s.user for s in Seat.objects.filter(match=match).select_related("user")}
    for _ in range(3000):
        services.run_until_human(match_id=match.pk, deal=False)
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return match
        spec = spec_for(match.variant)
        state = spec.load(match.state["round"])
        seat = spec.acting_seats(state)[0]
        action = engine_bots.choose_action(state, seat, policy="greedy")
        services.turn_submit(match_id=match.pk, user=users[seat], action=action, expected_version=match.version)
    raise AssertionError("the round did not end")


@pytest.mark.parametrize(("variant", "seats"), [("manipulation", 3), ("gin", 2)])
def test_the_commitment_shown_at_the_deal_matches_the_seed_revealed_at_the_end(
    client, alice, make_user, variant, seats
):
    match = services.match_create(host=alice, variant=variant, seats_count=seats, bots=seats - 1)
    services.match_start(match_id=match.pk, user=alice)
    client.force_login(make_user("dave"))  # a spectator sees it as the players do
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    shown = COMMITMENT.findall(page)
    rnd = Round.objects.get(match=match, number=1)
    assert shown == [rnd.commitment] and rnd.shuffle == shuffle.CURRENT
    assert_no_secret_seed(page, match.pk)
    assert not SEED.search(page)

    play_to_round_end(match)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    revealed = SEED.findall(page)  # on the round result
    assert revealed == [Round.objects.get(pk=rnd.pk).seed]
    assert shuffle.commitment(revealed[0], match_id=match.pk, round_number=1) == shown[0]
    # The match page and the game record show the same seed and commitment.
    detail = client.get(reverse("history:match", args=[match.pk])).content.decode()
    assert revealed[0] in detail and shown[0] in detail and 'data-deal-round="1"' in detail
    record = client.get(reverse("history:export", args=[match.pk])).json()
    assert record["rounds"][0]["seed"] == revealed[0] and record["rounds"][0]["commitment"] == shown[0]
    # The deal the record shows is the one that was played: the replay from the seed is the stored state.
    assert spec_for(variant).dump(replay_round(match, rnd)) == Match.objects.get(pk=match.pk).state["round"]


def test_no_page_or_record_carries_the_seed_of_the_round_in_play(client, alice, make_user, settings):
    bob = make_user("bob")
    live = play_one_round(alice, settings=settings, seats=3, bots=1, others=[bob])
    in_play = Round.objects.get(match=live, number=live.round_number)
    assert in_play.finished_at is None and len(in_play.seed) == 64
    urls = [
        reverse("games:table", args=[live.pk]),
        reverse("history:match", args=[live.pk]),
        reverse("history:export", args=[live.pk]),
        reverse("history:replay", args=[live.pk]),
        reverse("history:list"),
        reverse("games:lobby"),
    ]
    for viewer in (alice, bob, make_user("dave")):
        client.force_login(viewer)
        for url in urls:
            for headers in ({}, HX):
                response = client.get(url, **headers)
                assert response.status_code == 200, url
                assert_no_secret_seed(response.content.decode(), live.pk)
        board = client.get(reverse("games:table", args=[live.pk])).content.decode()
        assert in_play.commitment in board
    # The finished rounds are revealed: their seeds are on the match page.
    page = client.get(reverse("history:match", args=[live.pk])).content.decode()
    for rnd in Round.objects.filter(match=live, finished_at__isnull=False):
        assert rnd.seed in page and rnd.commitment in page


@pytest.fixture
def finished_record(client, alice, settings):
    match = play_match(alice, settings=settings, seed="3", seats=3, bots=2, game_target=60)
    assert match.status == MatchStatus.FINISHED and match.round_number >= 2
    return client.get(reverse("history:export", args=[match.pk])).json()


def change_one_card(record: dict, number: int) -> dict:
    """The record with one card of the first dealt hand (a Gin advisor has none) swapped for the top of
    the stock."""
    forged = copy.deepcopy(record)
    deal = forged["rounds"][number - 1]["deal"]
    hand = next(h for h in deal["hands"] if h)
    hand[0], deal["stock"][0] = deal["stock"][0], hand[0]
    return forged


def test_the_python_verifier_accepts_a_real_match_and_refuses_one_card_changed(finished_record):
    checks = verify_record(finished_record)
    assert [c.status for c in checks] == [OK] * len(finished_record["rounds"])
    forged = verify_record(change_one_card(finished_record, 2))
    assert [c.status for c in forged] == [OK, MISMATCH] + [OK] * (len(checks) - 2)
    assert any(" was dealt " in p for p in forged[1].problems)
    # A changed seed no longer gives the commitment; a changed commitment no longer fits the seed.
    for key, value in (("seed", shuffle.new_seed()), ("commitment", "0" * 64)):
        other = copy.deepcopy(finished_record)
        other["rounds"][0][key] = value
        assert verify_record(other)[0].status == MISMATCH
    # The importer refuses the changed card too.
    with pytest.raises(Exception, match="deal"):
        import_record(change_one_card(finished_record, 2))


def test_the_python_verifier_runs_from_the_command_line_without_a_database(finished_record, tmp_path):
    good, bad, junk = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "junk.json"
    good.write_text(json.dumps(finished_record))
    bad.write_text(json.dumps(change_one_card(finished_record, 1)))
    junk.write_text("{not json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE"))}
    # The module imports no Django at all: it runs where no settings or database exist.
    probe = (
        "import sys; from games.verify import main; code = main(sys.argv[1:]);"
        " assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'channels')]; sys.exit(code)"
    )
    ran = subprocess.run([sys.executable, "-c", probe, str(good)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[0] == "round 1: ok"
    ran = subprocess.run(
        [sys.executable, "-m", "games.verify", str(bad)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert ran.returncode == 1 and "round 1: MISMATCH" in ran.stdout and "round 2: ok" in ran.stdout
    for args in ([str(junk)], [str(tmp_path / "missing.json")], []):
        ran = subprocess.run(
            [sys.executable, "-m", "games.verify", *args], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert ran.returncode == 2 and "Traceback" not in ran.stderr


@pytest.mark.parametrize("junk", [[], {"format": "x"}, {"format": "rummyhub-game-record", "rounds": "x"}])
def test_the_verifier_refuses_what_is_not_a_record(junk):
    with pytest.raises(Exception, match="Not a RummyHub game record"):
        verify_record(junk)


@pytest.mark.parametrize("change", ["seed_not_hex", "no_hands", "order_none", "jokers_huge", "round_not_dict"])
def test_a_malformed_round_is_a_mismatch_not_a_crash(finished_record, change):
    record = copy.deepcopy(finished_record)
    rnd = record["rounds"][0]
    if change == "seed_not_hex":
        rnd["seed"] = "xyz"
    elif change == "no_hands":
        del rnd["deal"]["hands"]
    elif change == "order_none":
        rnd["deal"]["order"] = None
    elif change == "jokers_huge":
        rnd["deal"]["jokers"] = 10**9
    else:
        record["rounds"][0] = "round"
    assert verify_record(record)[0].status == MISMATCH


def deal_the_old_way(monkeypatch):
    """New rounds dealt as before provably fair deals: Python's random.Random(a whole number), no commitment."""
    from games.services import rounds

    class Old:
        CURRENT = shuffle.LEGACY
        rng_for = staticmethod(shuffle.rng_for)

        @staticmethod
        def commitment(seed, **identity):
            return ""

    seeds = iter(range(9001, 9100))
    monkeypatch.setattr(rounds, "shuffle", Old)
    monkeypatch.setattr(rounds, "new_round_seed", lambda number: str(next(seeds)))


@pytest.mark.parametrize(("variant", "seats"), [("manipulation", 3), ("gin_box", 3), ("hollywood", 2)])
def test_rounds_of_the_old_shuffle_still_replay_identically(client, alice, settings, monkeypatch, variant, seats):
    deal_the_old_way(monkeypatch)
    match = play_match(alice, settings=settings, seats=seats, bots=seats - 1, variant=variant, game_target=50)
    monkeypatch.undo()
    spec = spec_for(variant)
    rules = spec.rules(match.options, match.seats_count)
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    assert rounds and all(r.shuffle == shuffle.LEGACY and r.commitment == "" for r in rounds)
    for rnd in rounds:
        # Dealt by Python's random.Random(seed), exactly as the engines deal with it.
        dealt, _dealer = spec.deal(rules, rnd.setup, random.Random(int(rnd.seed)))
        assert spec.dump(next(iter_round_states(match, rnd))[1]) == spec.dump(dealt)
        assert spec.engine.outcome(replay_round(match, rnd)) == rnd.outcome
    assert replay_current(match) == match.state["round"]
    record = client.get(reverse("history:export", args=[match.pk])).json()
    assert all(isinstance(r["seed"], int) and r["shuffle"] == shuffle.LEGACY for r in record["rounds"])
    assert import_record(record)["totals"] == [s.final_total for s in Seat.objects.filter(match=match)]
    assert {c.status for c in verify_record(record)} == {OK}
    assert {c.status for c in verify_record(change_one_card(record, 1))[:1]} == {MISMATCH}
    page = client.get(reverse("history:match", args=[match.pk])).content.decode()
    assert "dealt before verifiable deals" in page


def test_a_record_of_format_1_still_imports(client, alice, settings, monkeypatch):
    """Records written before (version 1: python-random rounds, no shuffle, commitment or deal)."""
    deal_the_old_way(monkeypatch)
    match = play_match(alice, settings=settings, seats=2, bots=1, game_target=40)
    monkeypatch.undo()
    record = client.get(reverse("history:export", args=[match.pk])).json()
    old = {
        **record,
        "version": 1,
        "rounds": [
            {k: v for k, v in r.items() if k not in ("shuffle", "commitment", "deal")} for r in record["rounds"]
        ],
    }
    assert import_record(old)["totals"] == record["final"]["totals"]
    assert {c.status for c in verify_record(old)} == {UNREVEALED}  # no deal in the record: nothing to compare
