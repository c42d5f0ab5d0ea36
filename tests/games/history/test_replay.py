"""Replays end in the stored state; the export round-trips through the engine (import_record)."""

from __future__ import annotations

import copy
import json

import pytest

from games.engine import shuffle
from games.engine.errors import InvalidAction
from games.history.export import FORMAT, VERSION, RecordMismatch, import_record
from games.history.selectors import replay_index, replay_step
from games.models import Match, MatchStatus, Round, RoundScore, Seat
from games.rebuild import replay_round
from games.variants import spec_for
from tests.games.history.support import play_match, play_one_round
from tests.seeds import assert_no_secret_seed

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def matches(alice, make_user, settings):
    bob = make_user("bob")
    return [
        play_match(alice, settings=settings, seed="10", seats=3, bots=2, game_target=60),  # 4 rounds
        play_match(alice, settings=settings, seed="2", seats=2, bots=0, others=[bob]),  # 4 rounds
        play_match(alice, settings=settings, seed="21", seats=5, bots=4, game_target=30),
    ]


def test_replay_of_every_round_ends_in_the_stored_final_state(matches):
    """For every match of the test data: each round re-applied from its seed ends in its stored outcome."""
    for match in Match.objects.filter(status=MatchStatus.FINISHED):
        spec = spec_for(match.variant)
        rounds = list(Round.objects.filter(match=match).order_by("number"))
        assert rounds
        if match.seats_count < 5:
            assert len(rounds) >= 4
        for rnd in rounds:
            final = replay_round(match, rnd)
            assert spec.is_round_over(final)
            assert spec.engine.outcome(final) == rnd.outcome
            scores = list(RoundScore.objects.filter(round=rnd).order_by("seat").values_list("score", flat=True))
            assert list(rnd.outcome["scores"]) == scores
        # The last round's replay is the stored snapshot of the match.
        assert spec.dump(replay_round(match, rounds[-1])) == match.state["round"]


def test_replay_pages_step_through_every_event(client, matches):
    match = matches[0]
    index = replay_index(match)
    total = sum(1 + n for _r, n in index)
    first = client.get(f"/matches/{match.pk}/replay/")
    html = first.content.decode()
    assert first.status_code == 200 and "<html" in html and 'id="replay-step"' in html
    assert "Round 1 dealt." in html and 'data-replay-nav="next"' in html and "replay.js" in html
    assert f'max="{total - 1}"' in html
    # Every hand is revealed at the deal: 10 cards per seat (B.4).
    r = first.context["r"]
    assert [len(h["cards"]) for h in r["hands"]] == [10, 10, 10]
    # The last step shows the stored outcome's hands; steps past the end are clamped.
    last = client.get(f"/matches/{match.pk}/replay/?step=99999", **HX)
    body = last.content.decode()
    assert body.strip().startswith('<section id="replay-step"') and "<html" not in body
    assert f'value="{total - 1}"' in body
    r = replay_step(match=match, step=99999)
    assert r["step"] == total - 1
    last_round = Round.objects.get(match=match, number=index[-1][0])
    assert [[c["id"] for c in h["cards"]] for h in r["hands"]] == last_round.outcome["hands"]
    assert client.get(f"/matches/{match.pk}/replay/?step=abc").context["r"]["step"] == 0


def test_replay_marks_what_a_meld_changed(client, matches):
    """A meld step outlines the cards it added; a changed meld is marked new or rearranged."""
    seen_added = seen_status = False
    for match in matches:
        index = replay_index(match)
        total = sum(1 + n for _r, n in index)
        for step in range(total):
            r = replay_step(match=match, step=step)
            if " laid " not in r["text"]:
                assert not any(c["added"] for m in r["melds"] for c in m["cards"])
                continue
            added = [c for m in r["melds"] for c in m["cards"] if c["added"]]
            assert added
            seen_added = True
            seen_status |= any(m["status"] in ("new", "rearranged") for m in r["melds"])
            if seen_status:
                break
        if seen_added and seen_status:
            break
    assert seen_added and seen_status


def test_export_round_trips_through_the_engine(client, matches):
    for match in matches:
        response = client.get(f"/matches/{match.pk}/export.json")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        assert "attachment" in response["Content-Disposition"]
        record = json.loads(response.content)
        assert record["format"] == FORMAT and record["version"] == VERSION
        for r in record["rounds"]:
            assert r["shuffle"] == shuffle.CURRENT and len(r["seed"]) == 64
            assert r["commitment"] == shuffle.commitment(r["seed"], match_id=match.pk, round_number=r["number"])
            assert r["deal"]["dealer"] == r["dealer"]
        result = import_record(record)
        seats = list(Seat.objects.filter(match=match).order_by("index"))
        assert result["totals"] == [s.final_total for s in seats]
        assert result["winners"] == [s.index for s in seats if s.is_winner]
        stored = [
            list(RoundScore.objects.filter(round=r).order_by("seat").values_list("score", flat=True))
            for r in Round.objects.filter(match=match).order_by("number")
        ]
        assert result["round_scores"] == stored
        assert result["states"][-1] == match.state["round"]
        assert result["tally"] == match.state["tally"]


def test_import_refuses_tampered_or_foreign_records(client, matches):
    record = json.loads(client.get(f"/matches/{matches[0].pk}/export.json").content)
    with pytest.raises(InvalidAction):
        import_record({**record, "version": 99})
    with pytest.raises(InvalidAction):
        import_record({"format": "something else"})
    forged = copy.deepcopy(record)
    forged["final"]["totals"][0] += 1
    with pytest.raises(RecordMismatch):
        import_record(forged)
    short = copy.deepcopy(record)
    short["rounds"][-1]["actions"].pop()
    with pytest.raises(RecordMismatch):
        import_record(short)


def test_live_export_reveals_the_finished_rounds_only(client, alice, settings):
    """A live match's record: each finished round with its seed and deal (revealed when it ended), the
    round in play not at all, and no seed of it anywhere (docs/fairness.md)."""
    live = play_one_round(alice, settings=settings)
    text = client.get(f"/matches/{live.pk}/export.json").content.decode()
    record = json.loads(text)
    assert [r["number"] for r in record["rounds"]] == list(range(1, live.round_number))
    for r in record["rounds"]:
        stored = Round.objects.get(match=live, number=r["number"])
        assert r["seed"] == stored.seed and r["commitment"] == stored.commitment and r["deal"]["hands"]
    assert record["final"]["totals"] is None
    in_play = Round.objects.get(match=live, number=live.round_number)
    assert in_play.finished_at is None and in_play.commitment
    assert_no_secret_seed(text, live.pk)
    with pytest.raises(InvalidAction):
        import_record(record)


@pytest.mark.parametrize(("variant", "seats"), [("gin", 2), ("gin_box", 3), ("oklahoma", 2), ("hollywood", 2)])
def test_gin_matches_have_pages_replays_and_records(client, alice, settings, variant, seats):
    """Every variant: match page with engine-computed end bonuses, replay to the stored state, export round trip."""
    match = play_match(alice, settings=settings, seats=seats, bots=seats - 1, variant=variant, game_target=50)
    assert match.status == MatchStatus.FINISHED
    spec = spec_for(variant)
    stored = [s.final_total for s in Seat.objects.filter(match=match).order_by("index")]
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200 and '<svg class="score-chart"' in page.content.decode()
    assert [b["total"] for b in page.context["bonuses"]] == stored
    for rnd in Round.objects.filter(match=match):
        final = replay_round(match, rnd)
        assert spec.engine.outcome(final) == rnd.outcome
    total = sum(1 + n for _r, n in replay_index(match))
    last = replay_step(match=match, step=total - 1)
    assert last["result"] is not None and last["discard"] is not None
    rnd = Round.objects.get(match=match, number=match.round_number)
    if rnd.outcome.get("knocker_melds"):
        # The knocker's layout is shown card by card at the end of the hand.
        shown = [c["id"] for m in last["result"]["layout"][0]["melds"] for c in m]
        assert len(shown) == sum(len(m) for m in rnd.outcome["knocker_melds"])
    assert client.get(f"/matches/{match.pk}/replay/?step={total - 1}", **HX).status_code == 200
    record = json.loads(client.get(f"/matches/{match.pk}/export.json").content)
    result = import_record(record)
    assert result["totals"] == stored
    assert result["tally"] == match.state["tally"]
