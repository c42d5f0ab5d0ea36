"""A turn's action (games/services/turns.py): a refusal changes and broadcasts nothing, one of two
concurrent submits applies, a move is four statements and numbers its event from the match."""

from __future__ import annotations

import importlib
import threading
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.board import table as board_table
from games.engine.errors import IllegalMove, RulesError
from games.live import boardcache
from games.models import Event, Match, Seat
from games.variants import spec_for
from tests.games.services.support import current_state, started_match

pytestmark = pytest.mark.django_db


def test_refused_moves_change_nothing_and_broadcast_nothing(
    alice, bob, sent, settings, django_capture_on_commit_callbacks
):
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    state = current_state(match)
    mover = state.seat_to_act
    users = {0: alice, 1: bob}
    other = users[1 - mover]
    version, events = match.version, Event.objects.count()
    sent.clear()
    refusals = [
        (other, {"type": "draw"}, match.version, IllegalMove),  # out of turn
        (users[mover], {"type": "draw"}, match.version - 1, services.StaleVersion),  # stale version
        (users[mover], {"type": "meld", "table": [["ZZ.9", "AS.0", "2S.0"]]}, match.version, RulesError),  # forged
        (users[mover], {"type": "knock"}, match.version, IllegalMove),  # before drawing
        (users[mover], {"type": "teleport"}, match.version, RulesError),  # malformed
        (users[mover], {"type": "meld", "table": "x" * 10_000}, match.version, RulesError),  # junk payload
    ]
    for user, action, expected, error in refusals:
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(error):
            services.turn_submit(match_id=match.pk, user=user, action=action, expected_version=expected)
    match.refresh_from_db()
    assert match.version == version
    assert Event.objects.count() == events
    assert current_state(match) == state
    assert sent == []


def test_a_card_from_another_hand_is_refused(alice, bob, settings):
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    state = current_state(match)
    mover = state.seat_to_act
    user = alice if mover == 0 else bob
    services.turn_submit(match_id=match.pk, user=user, action={"type": "draw"}, expected_version=match.version)
    match.refresh_from_db()
    theirs = [c.id for c in current_state(match).hands[1 - mover][:3]]
    with pytest.raises(RulesError):
        services.turn_submit(
            match_id=match.pk, user=user, action={"type": "meld", "table": [theirs]}, expected_version=match.version
        )


def test_two_concurrent_submits_apply_exactly_one(alice, bob, settings, transactional_db):
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    mover = current_state(match).seat_to_act
    user = alice if mover == 0 else bob
    results: list[str] = []
    barrier = threading.Barrier(2)

    def submit():
        barrier.wait()
        try:
            services.turn_submit(match_id=match.pk, user=user, action={"type": "draw"}, expected_version=match.version)
            results.append("ok")
        except services.StaleVersion:
            results.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok", "stale"]
    match.refresh_from_db()
    assert Event.objects.filter(match=match, kind="action").count() == 1
    assert len(current_state(match).hands[mover]) == 11


def test_a_move_is_four_statements_and_numbers_its_event_from_the_match(alice, bob, settings):
    """The hot path (a move at a table): the locked match, its seats, the event, the match; on
    PostgreSQL two queries of two statements each (two round trips inside the transaction)."""
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    mover = current_state(match).seat_to_act
    last = Event.objects.filter(match=match).order_by("-seq").first().seq
    assert match.event_seq == last
    with CaptureQueriesContext(connection) as queries:
        services.turn_submit(
            match_id=match.pk,
            user=alice if mover == 0 else bob,
            action={"type": "draw"},
            expected_version=match.version,
        )
    sent = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]  # the test's transaction
    statements = [part.split()[0] for sql in sent for part in sql.split("; ")]
    assert statements == ["SELECT", "SELECT", "INSERT", "UPDATE"]
    assert len(sent) == (2 if connection.vendor == "postgresql" else 4)
    assert ("FOR UPDATE" in sent[0]) == connection.features.has_select_for_update  # the match lock, first
    match.refresh_from_db()
    assert match.event_seq == last + 1
    assert list(Event.objects.filter(match=match).values_list("seq", flat=True)) == list(range(1, last + 2))


def test_the_migration_numbers_existing_matches_from_their_newest_event(alice, bob, settings):
    fill = importlib.import_module("games.migrations.0006_match_event_seq").fill
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    empty = services.match_create(host=bob, variant="manipulation", seats_count=2)
    Match.objects.update(event_seq=0)
    fill(apps, None)
    assert Match.objects.get(pk=match.pk).event_seq == Event.objects.filter(match=match).count() > 0
    assert Match.objects.get(pk=empty.pk).event_seq == 0


def test_a_player_back_from_autopilot_is_waited_for_as_a_human_at_once(alice, bob, settings):
    """A move of a seat on autopilot ends the autopilot (RULES' house timing: the bot only stands in),
    and the deadline the same move sets is a human's (the disconnect grace), not the bot delay: the
    clock must not play the player's next step of the same turn for them."""
    settings.RUMMYHUB_BOT_DELAY = 0.5
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    mover = current_state(match).seat_to_act
    user = {0: alice, 1: bob}[mover]
    Seat.objects.filter(match=match, index=mover).update(autopilot=True, missed_turns=3)
    before = timezone.now()
    moved = services.turn_submit(match_id=match.pk, user=user, action={"type": "draw"}, expected_version=match.version)
    assert current_state(match).seat_to_act == mover  # still their turn: up to three draws, then the meld
    seat = Seat.objects.get(match=match, index=mover)
    assert not seat.autopilot and seat.missed_turns == 0
    assert moved.deadline - before >= timedelta(seconds=services.DISCONNECT_GRACE - 1)
    assert Match.objects.get(pk=match.pk).deadline == moved.deadline


@pytest.mark.parametrize("most", [1, 2, 3])
def test_every_most_draws_per_turn_leaves_a_meld_step_after_the_first_draw(alice, bob, settings, most):
    # House rule "Most draws per turn" (RULES E.1 max_draws_per_turn, B.5): with 1 the draw is
    # followed by the meld step (the turn used to pass at once, so nobody could ever meld).
    match = started_match(alice, bots=0, others=[bob], settings=settings, max_draws_per_turn=most)
    mover = current_state(match).seat_to_act
    user = alice if mover == 0 else bob
    services.turn_submit(match_id=match.pk, user=user, action={"type": "draw"}, expected_version=match.version)
    match.refresh_from_db()
    state = current_state(match)
    legal = {a["type"] for a in spec_for(match.variant).view(state, mover)["legal_actions"]}
    assert state.seat_to_act == mover and "meld" in legal
    assert ("draw" in legal) == (most > 1) and ("end_turn" in legal) == (most == 1)
    if most == 1:
        services.turn_submit(match_id=match.pk, user=user, action={"type": "end_turn"}, expected_version=match.version)
        assert current_state(match).seat_to_act == 1 - mover


def test_the_advisor_cannot_suggest_taking_from_an_empty_discard_pile(alice, bob, carol, settings):
    """Three-player Gin (RULES C.5.4): once the captain has taken the upcard the pile is empty until he
    discards; the service refuses the advisor's "take the discard" (nothing written) and the advisor's
    board does not offer it."""
    settings.RUMMYHUB_FIXED_SEED = "5"
    match = services.match_create(host=alice, variant="gin_box", seats_count=3)
    for user in (bob, carol):
        services.seat_join(match_id=match.pk, user=user)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    spec = spec_for(match.variant)
    state = spec.load(match.state["round"])
    users = {s.index: s.user for s in Seat.objects.filter(match=match).select_related("user")}
    captain, advisor = users[state.captain], users[state.advisor]

    def buttons():
        ctx = board_table.table_context(boardcache.load(Match.objects.get(pk=match.pk)), advisor)
        return [b["action"] for b in ctx["gin"]["suggest_buttons"]]

    assert buttons() == ["take_upcard", "pass_upcard", "knock"]
    match = services.turn_submit(
        match_id=match.pk, user=captain, action={"type": "take_upcard"}, expected_version=match.version
    )
    assert spec.load(match.state["round"]).discard == ()
    version, events = match.version, Event.objects.count()
    with pytest.raises(IllegalMove) as refused:
        services.turn_submit(
            match_id=match.pk,
            user=advisor,
            expected_version=match.version,
            action={"type": "suggest", "suggestion": {"action": "draw_discard"}},
        )
    assert refused.value.code == "discard_pile_empty"
    match.refresh_from_db()
    assert (match.version, Event.objects.count()) == (version, events)
    assert buttons() == ["draw_stock", "knock"]
    services.turn_submit(
        match_id=match.pk,
        user=advisor,
        expected_version=match.version,
        action={"type": "suggest", "suggestion": {"action": "draw_stock"}},
    )


@pytest.mark.parametrize("status", ["between_rounds", "finished"])
def test_a_hand_is_sorted_only_while_its_round_is_played(alice, bob, settings, status):
    """At a round's end the hand shown is the one it ended with: there is nothing left to arrange, so a
    sort (by suit, by rank or dragged) is refused and the order kept is not changed."""
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    services.hand_sort(match_id=match.pk, user=alice, mode="rank")
    kept = Seat.objects.get(match=match, index=0).hand_order
    assert kept
    Match.objects.filter(pk=match.pk).update(status=status)
    for mode, order in (("suit", None), ("rank", None), ("custom", list(reversed(kept)))):
        with pytest.raises(services.ActionRefused) as refused:
            services.hand_sort(match_id=match.pk, user=alice, mode=mode, order=order)
        assert refused.value.code == "not_playing"
    assert Seat.objects.get(match=match, index=0).hand_order == kept
