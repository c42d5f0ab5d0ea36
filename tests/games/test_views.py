"""Lobby and table views, with and without htmx; every refusal is a clear message and changes nothing."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import bots as engine_bots
from games.forms import MANIPULATION_OPTION_LABELS, TableCreateForm
from games.models import ChatMessage, Match, MatchStatus, Seat
from games.services import write
from games.variants import spec_for

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def started(host, other=None, seats=2, bots=1, settings=None, **kw):
    if settings is not None:
        settings.RUMMYHUB_FIXED_SEED = "3"
    match = services.match_create(host=host, variant="manipulation", seats_count=seats, bots=0 if other else bots, **kw)
    if other:
        services.seat_join(match_id=match.pk, user=other)
    services.match_start(match_id=match.pk, user=host)
    return Match.objects.get(pk=match.pk)


def test_lobby_requires_login(client):
    response = client.get(reverse("games:lobby"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_lobby_names_house_rules_with_the_forms_labels_not_option_keys(alice_client, make_user):
    services.match_create(host=make_user("bob"), variant="manipulation", seats_count=3, options={"knock_limit": 3})
    page = alice_client.get(reverse("games:lobby")).content.decode()
    assert 'title="Knock with at most (points): 3"' in page
    assert "knock_limit=3" not in page and "1 house rule<" in page


def test_lobby_lists_open_public_tables_and_htmx_gets_the_partial(alice_client, bob):
    public = services.match_create(host=bob, variant="manipulation", seats_count=3)
    services.match_create(host=bob, variant="manipulation", seats_count=3, is_private=True)
    page = alice_client.get(reverse("games:lobby"))
    assert page.status_code == 200
    assert page.context["open_tables"] == [public]
    assert b"<html" in page.content and b'id="lobby-tables"' in page.content
    partial = alice_client.get(reverse("games:lobby"), **HX)
    assert b"<html" not in partial.content and partial.content.strip().startswith(b'<div id="lobby-tables"')


def test_create_form_shows_every_option_with_its_default(alice_client):
    html = alice_client.get(reverse("games:lobby")).content.decode()

    for key in MANIPULATION_OPTION_LABELS:
        assert f'name="opt_{key}"' in html
    assert 'name="opt_knock_limit" value="5"' in html
    assert 'name="opt_game_target" value="150"' in html


def test_create_a_table_with_options_and_bots(alice_client):
    data = {
        "variant": "manipulation",
        "seats": 4,
        "bots": 2,
        "turn_timer": 60,
        "opt_knock_limit": 3,
        "opt_game_target": 150,
        "opt_ace_in_sequences": "low_only",
        "opt_knock_in_final_lap": "on",
        "opt_must_draw_if_no_meld": "on",
    }

    for name, field in TableCreateForm().fields.items():
        if name.startswith("opt_") and name not in data and field.initial is not None and field.initial is not False:
            data[name] = field.initial
    response = alice_client.post(reverse("games:create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get()
    assert response["Location"] == reverse("games:table", args=[match.pk])
    assert match.options["knock_limit"] == 3 and match.options["ace_in_sequences"] == "low_only"
    assert match.turn_timer == 60 and match.seats_count == 4
    assert [s.is_bot for s in match.seats.all()] == [False, True, True, False]


def test_create_with_bad_values_shows_errors_and_creates_nothing(alice_client):
    response = alice_client.post(
        reverse("games:create"),
        {"variant": "manipulation", "seats": 2, "bots": 3, "turn_timer": 0, "opt_knock_limit": 99},
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert "bots" in form.errors and "opt_knock_limit" in form.errors
    assert not Match.objects.exists()


def test_quick_game_is_three_clicks_from_sign_in(alice_client):
    home = alice_client.get(reverse("home")).content.decode()
    assert 'name="quick"' in home  # one click from the home page
    response = alice_client.post(reverse("games:create"), {"quick": "1"})
    match = Match.objects.get()
    assert response["Location"] == reverse("games:table", args=[match.pk])
    assert match.status == MatchStatus.PLAYING and match.seats_count == 3
    page = alice_client.get(response["Location"])
    assert page.status_code == 200 and page.context["hand"]


def test_table_page_full_and_partial(alice_client, settings):
    match = started(alice_client.user, settings=settings)
    full = alice_client.get(reverse("games:table", args=[match.pk]))
    assert (
        b"<html" in full.content and f'ws-connect="/ws/tables/{match.pk}/?v={match.version}"'.encode() in full.content
    )
    partial = alice_client.get(reverse("games:table", args=[match.pk]), **HX)
    assert partial.content.strip().startswith(b'<section id="table-board"')


def test_private_table_is_404_without_invite_and_open_with_it(client, bob, carol):
    match = services.match_create(host=bob, variant="manipulation", seats_count=2, is_private=True)
    client.force_login(carol)
    assert client.get(reverse("games:table", args=[match.pk])).status_code == 404
    assert client.get(reverse("games:table", args=[999_999])).status_code == 404
    url = reverse("games:table", args=[match.pk]) + f"?invite={match.invite_token}"
    assert client.get(url).status_code == 200
    response = client.post(reverse("games:join", args=[match.pk]))
    assert response.status_code == 302
    assert Seat.objects.get(match=match, index=1).user == carol


def test_a_full_table_waiting_for_its_host_tells_a_spectator_and_leads_back_to_the_lobby(
    client, alice, bob, carol, dave
):
    """A full open table: a signed-in player with no seat (a spectator) is told it is full and waits for its
    host (with the way back to the lobby), not shown an empty panel; the seated see their own note."""
    match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    services.seat_join(match_id=match.pk, user=bob)
    url = reverse("games:table", args=[match.pk])
    client.force_login(dave)
    # A free seat left: dave may sit, so nothing says it is full.
    assert "This table is full" not in client.get(url).content.decode()
    services.seat_join(match_id=match.pk, user=carol)
    for response in (client.get(url), client.get(url, **HX)):  # the page, and the board htmx fetches
        html = response.content.decode()
        panel = html.split('id="open-panel"')[1][:1500]
        assert "This table is full: it starts when its host starts the game." in panel
        assert f'href="{reverse("games:lobby")}"' in panel and "Back to the lobby" in panel
        assert "Waiting for players" not in html and "Full: waiting for the host" in html
    for seated, note in ((bob, "Waiting for the host to start the game."), (alice, "Start the game")):
        client.force_login(seated)
        html = client.get(url).content.decode()
        assert note in html and "This table is full" not in html


def test_spectator_sees_counts_not_cards(client, alice, bob, carol, settings):
    match = started(alice, bob, settings=settings)
    client.force_login(carol)
    response = client.get(reverse("games:table", args=[match.pk]))
    html = response.content.decode()
    state = spec_for("manipulation").load(match.state["round"])
    for hand in state.hands:
        for card in hand:
            assert f'data-id="{card.id}"' not in html
    assert 'id="hand"' not in html
    assert "10 cards" in html


def test_act_with_and_without_htmx(client, alice, bob, settings):
    match = started(alice, bob, settings=settings)
    state = spec_for("manipulation").load(match.state["round"])
    mover = [alice, bob][state.seat_to_act]
    client.force_login(mover)
    url = reverse("games:act", args=[match.pk])
    response = client.post(url, {"action": "draw", "version": match.version}, **HX)
    assert response.status_code == 200
    assert f'data-version="{match.version + 1}"'.encode() in response.content
    response = client.post(url, {"action": "end_turn", "version": match.version + 1})
    # Not allowed after one draw (B.5: pass means draw again); a plain POST redirects with the message.
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert any("draw" in str(m).lower() or "turn" in str(m).lower() for m in page.context["messages"])
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_every_move_form_on_the_board_posts_to_the_act_url(client, alice, bob, settings):
    match = started(alice, bob, settings=settings)
    mover = [alice, bob][spec_for("manipulation").load(match.state["round"]).seat_to_act]
    client.force_login(mover)
    html = client.get(reverse("games:table", args=[match.pk]), **HX).content.decode()
    url = reverse("games:act", args=[match.pk])
    forms = re.findall(r'<form method="post" action="([^"]*)" hx-post="([^"]*)"', html)
    assert 'data-action="draw"' in html and len(forms) >= 2  # Draw, and the sort buttons
    assert all(action == post == url for action, post in forms if "/act/" in action or not action), forms


def test_refusals_over_http_change_nothing(client, alice, bob, settings):
    match = started(alice, bob, settings=settings)
    state = spec_for("manipulation").load(match.state["round"])
    waiter = [alice, bob][1 - state.seat_to_act]
    client.force_login(waiter)
    url = reverse("games:act", args=[match.pk])
    cases = [
        ({"action": "draw", "version": match.version}, 400, "not_your_turn"),
        ({"action": "teleport", "version": match.version}, 400, "bad_action"),
        ({"action": "draw", "version": "abc"}, 400, "bad_version"),
        ({"action": "draw", "version": match.version - 1}, 409, "stale_version"),
    ]
    for data, status, code in cases:
        response = client.post(url, data, **HX)
        assert response.status_code == status, (data, response.status_code)
        assert f'data-error-code="{code}"'.encode() in response.content
    huge = client.post(reverse("games:draft", args=[match.pk]), {"table": "[" * 70_000, "version": match.version}, **HX)
    assert huge.status_code == 413
    junk = client.post(reverse("games:draft", args=[match.pk]), {"table": "{not json", "version": match.version}, **HX)
    assert junk.status_code == 400
    assert Match.objects.get(pk=match.pk).version == match.version


def test_draft_is_kept_across_reloads_and_reports_each_invalid_meld(client, alice, bob, settings):
    match = started(alice, bob, settings=settings)
    state = spec_for("manipulation").load(match.state["round"])
    mover = [alice, bob][state.seat_to_act]
    client.force_login(mover)
    client.post(reverse("games:act", args=[match.pk]), {"action": "draw", "version": match.version}, **HX)
    match.refresh_from_db()
    hand = spec_for("manipulation").load(match.state["round"]).hands[state.seat_to_act]
    table = [[hand[0].id, hand[1].id]]
    response = client.post(
        reverse("games:draft", args=[match.pk]), {"table": json.dumps(table), "version": match.version}, **HX
    )
    assert response.status_code == 200
    assert b"meld-invalid" in response.content and b"at least 3 cards" in response.content
    reloaded = client.get(reverse("games:table", args=[match.pk]))
    assert reloaded.context["drafting"] and reloaded.context["melds"][0]["ids"] == table[0]
    # Reset brings the table back to the start of the step.
    match.refresh_from_db()
    client.post(reverse("games:act", args=[match.pk]), {"action": "reset", "version": match.version}, **HX)
    assert Match.objects.get(pk=match.pk).draft is None


def test_bare_joker_asks_which_card_when_not_forced(client, alice, bob, settings):
    """A joker dropped where its identity is not forced offers the choices (B.3.1)."""
    match = started(alice, bob, settings=settings)
    mover_index = spec_for("manipulation").load(match.state["round"]).seat_to_act
    # Give the mover a joker and two fives of different suits (test fixture: the engine state is data).
    state = match.state["round"]
    hand = state["hands"][mover_index]
    everywhere = [c for h in state["hands"] for c in h] + state["stock"]
    wanted = ["JK.0", "5S.0", "5H.0"]
    for card_id in wanted:
        if card_id not in hand:
            holder = state["stock"] if card_id in state["stock"] else next(h for h in state["hands"] if card_id in h)
            holder.remove(card_id)
            victim = next(c for c in hand if c not in wanted)
            hand.remove(victim)
            holder.append(victim)
            hand.append(card_id)
    assert sorted(everywhere) == sorted([c for h in state["hands"] for c in h] + state["stock"])
    Match.objects.filter(pk=match.pk).update(state=match.state)
    mover = [alice, bob][mover_index]
    client.force_login(mover)
    client.post(reverse("games:act", args=[match.pk]), {"action": "draw", "version": match.version}, **HX)
    match.refresh_from_db()
    response = client.post(
        reverse("games:draft", args=[match.pk]), {"table": json.dumps([wanted]), "version": match.version}, **HX
    )
    html = response.content.decode()
    assert "data-joker-option" in html
    assert 'data-joker-option="5D"' in html and 'data-joker-option="5C"' in html
    assert ">5♦</button>" in html


def test_chat_is_escaped_limited_and_rate_limited(client, alice, bob, settings):
    match = started(alice, bob, settings=settings)
    client.force_login(alice)
    url = reverse("games:chat", args=[match.pk])
    client.post(url, {"text": "<script>alert(1)</script>"}, **HX)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    too_long = client.post(url, {"text": "x" * 501}, **HX)
    assert too_long.status_code == 400 and b"500 characters" in too_long.content
    for _ in range(4):
        client.post(url, {"text": "hi"}, **HX)
    limited = client.post(url, {"text": "one more"}, **HX)
    assert limited.status_code == 400 and b"too fast" in limited.content
    assert ChatMessage.objects.filter(match=match).count() == 5


def test_spectators_cannot_chat_or_act(client, alice, bob, carol, settings):
    match = started(alice, bob, settings=settings)
    client.force_login(carol)
    assert client.post(reverse("games:chat", args=[match.pk]), {"text": "hello"}, **HX).status_code == 400
    response = client.post(reverse("games:act", args=[match.pk]), {"action": "draw", "version": match.version}, **HX)
    assert b'data-error-code="not_seated"' in response.content
    assert not ChatMessage.objects.exists()


def test_disconnected_player_is_played_after_30_seconds_and_the_bot_takes_over(alice, bob, settings):
    """No timer: a player who left is played by compulsory moves after 30 s; after 3 misses the bot plays."""
    match = started(alice, bob, settings=settings)
    for _ in range(12):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        write.schedule_next_step(write.Write(match))
        match.save(update_fields=["deadline"])
        assert match.deadline is not None  # nobody is connected
        assert services.pending_step(match) in ("timeout", "bot")
        services.match_tick(match_id=match.pk, now=timezone.now() + timedelta(seconds=31))
        if Seat.objects.filter(match=match, autopilot=True).count() == 2:
            break
    assert Seat.objects.filter(match=match, autopilot=True).count() == 2
    match.refresh_from_db()
    assert services.pending_step(match) == "bot"
    # Coming back ends the autopilot.
    services.table_connection_open(match_id=match.pk, user=alice, token="alice-is-back")
    assert not Seat.objects.get(match=match, user=alice).autopilot


def test_next_round_starts_after_30_seconds_without_every_click(alice, bob, settings):
    match = started(alice, bob, settings=settings)
    Match.objects.filter(pk=match.pk).update(
        status=MatchStatus.BETWEEN_ROUNDS, deadline=timezone.now() + timedelta(seconds=30)
    )
    assert not services.match_tick(match_id=match.pk, now=timezone.now() + timedelta(seconds=5))
    assert services.match_tick(match_id=match.pk, now=timezone.now() + timedelta(seconds=31))
    match.refresh_from_db()
    assert match.round_number == 2 and match.status == MatchStatus.PLAYING


def test_rematch_reuses_seats_and_options(client, alice):
    match = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=2, options={"knock_limit": 4})
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    client.force_login(alice)
    response = client.post(reverse("games:rematch", args=[match.pk]))
    new = Match.objects.exclude(pk=match.pk).get()
    assert response["Location"] == reverse("games:table", args=[new.pk])
    assert new.options["knock_limit"] == 4 and new.rematch_of_id == match.pk
    assert [s.bot_name for s in new.seats.all()] == [s.bot_name for s in match.seats.all()]
    # Asking twice goes to the same rematch.
    client.post(reverse("games:rematch", args=[match.pk]))
    assert Match.objects.count() == 2


def test_cached_board_parts_never_leak_from_an_older_match_with_the_same_id(client, alice, settings):
    """The per-version cache of the log is keyed by the match itself, not only by id and version."""
    settings.RUMMYHUB_FIXED_SEED = "4"
    old = services.match_create(host=alice, variant="gin", seats_count=2, bots=1)
    services.match_start(match_id=old.pk, user=alice)
    for _ in range(3):
        old.refresh_from_db()
        state = spec_for("gin").load(old.state["round"])
        if state.seat_to_act != 0:
            break
        action = engine_bots.choose_action(state, 0, policy="basic")
        services.turn_submit(match_id=old.pk, user=alice, action=action, expected_version=old.version)
    old.refresh_from_db()
    client.force_login(alice)
    first = client.get(reverse("games:table", args=[old.pk]), **HX).content.decode()
    assert "upcard" in first or "drew" in first or "discarded" in first
    old_pk, old_version = old.pk, old.version
    old.delete()
    # A new table that gets the same id (a reset database, or SQLite reusing ids) at the same version.
    new = Match.objects.create(pk=old_pk, variant="manipulation", seats_count=2, host=alice)
    Seat.objects.create(match=new, index=0, user=alice)
    Seat.objects.create(match=new, index=1, bot_policy="basic", bot_name="Ada")
    services.match_start(match_id=new.pk, user=alice)
    Match.objects.filter(pk=new.pk).update(version=old_version)
    second = client.get(reverse("games:table", args=[new.pk]), **HX).content.decode()
    assert "upcard" not in second and "discarded" not in second
