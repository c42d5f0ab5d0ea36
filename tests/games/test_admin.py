"""Staff see matches in the admin and end a stuck one; nobody edits a match's state there."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Match, MatchStatus, Seat
from plumbing import realtime

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:games_match_changelist"


@pytest.fixture
def staff(client, make_user):
    user = make_user("erin", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


@pytest.fixture
def stuck(make_user, settings):
    """A playing table whose clock step keeps failing: overdue, with a failure record."""
    settings.RUMMYHUB_FIXED_SEED = "7"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    state = {
        **match.state,
        "clock": {
            "failures": 3,
            "error": "DataError: integer out of range",
            "at": timezone.now().isoformat(),
            "held": False,
        },
    }
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=5), state=state)
    return Match.objects.get(pk=match.pk)


def test_staff_list_matches_with_filters_and_search(client, staff, stuck, make_user):
    other = services.match_create(host=make_user("carol"), variant="gin", seats_count=2)
    url = reverse(CHANGELIST)
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert f">{stuck.pk}<" in body and "Manipulation Rummy" in body and "Playing" in body
    assert "clock failures" in body.lower()
    playing = client.get(url, {"status__exact": MatchStatus.PLAYING}).content.decode()
    assert f"/admin/games/match/{stuck.pk}/change/" in playing
    assert f"/admin/games/match/{other.pk}/change/" not in playing
    by_player = client.get(url, {"q": "bob"}).content.decode()
    assert f"/admin/games/match/{stuck.pk}/change/" in by_player
    assert f"/admin/games/match/{other.pk}/change/" not in by_player
    by_id = client.get(url, {"q": str(other.pk)}).content.decode()
    assert f"/admin/games/match/{other.pk}/change/" in by_id
    assert f"/admin/games/match/{stuck.pk}/change/" not in by_id


def test_the_match_page_shows_the_state_read_only(client, staff, stuck):
    url = reverse("admin:games_match_change", args=[stuck.pk])
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "integer out of range" in body  # the clock's failure record
    assert "tally" in body  # the state, shown
    assert 'name="state"' not in body and 'name="deadline"' not in body and 'name="status"' not in body
    # A forged POST changes nothing.
    client.post(url, {"status": MatchStatus.FINISHED, "state": "{}", "deadline_0": "", "version": "0"})
    after = Match.objects.get(pk=stuck.pk)
    assert after.status == MatchStatus.PLAYING and after.state == stuck.state and after.version == stuck.version
    assert reverse("admin:games_match_add") not in client.get(reverse(CHANGELIST)).content.decode()
    assert client.get(reverse("admin:games_match_add")).status_code == 403
    assert client.post(reverse("admin:games_match_delete", args=[stuck.pk]), {"post": "yes"}).status_code == 403
    assert Match.objects.filter(pk=stuck.pk).exists()


def test_staff_end_a_stuck_match_through_the_admin_action(
    client, staff, stuck, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse(CHANGELIST), {"action": "abandon_matches", "_selected_action": [stuck.pk]}, follow=True
        )
    assert response.status_code == 200
    assert "1 match ended" in response.content.decode()
    after = Match.objects.get(pk=stuck.pk)
    assert after.status == MatchStatus.ABANDONED
    assert after.deadline is None
    assert after.version == stuck.version + 1
    assert (realtime.table_group(stuck.pk), {"type": "table.changed", "id": stuck.pk, "version": after.version}) in sent
    assert (realtime.LOBBY_GROUP, {"type": "lobby.changed", "id": stuck.pk}) in sent
    # The clock never picks it again.
    assert services.tick_due(now=timezone.now() + timedelta(days=1)) == 0


def test_ending_a_finished_match_is_refused_and_changes_nothing(
    client, staff, stuck, sent, django_capture_on_commit_callbacks
):
    Match.objects.filter(pk=stuck.pk).update(status=MatchStatus.FINISHED, deadline=None)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse(CHANGELIST), {"action": "abandon_matches", "_selected_action": [stuck.pk]}, follow=True
        )
    assert "already over" in response.content.decode()
    after = Match.objects.get(pk=stuck.pk)
    assert after.status == MatchStatus.FINISHED and after.version == stuck.version
    assert sent == []


def test_match_abandon_service_records_who(stuck, make_user, sent, django_capture_on_commit_callbacks, caplog):
    staff = make_user("dave", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_abandon(match_id=stuck.pk, by=staff)
    assert match.status == MatchStatus.ABANDONED and match.deadline is None
    assert any("dave" in r.getMessage() and str(stuck.pk) in r.getMessage() for r in caplog.records)
    assert Seat.objects.filter(match=stuck).count() == 2  # the seats (and the history) stay


def test_non_staff_cannot_reach_the_match_admin(client, make_user, stuck):
    client.force_login(make_user("mallory"))
    response = client.post(reverse(CHANGELIST), {"action": "abandon_matches", "_selected_action": [stuck.pk]})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert Match.objects.get(pk=stuck.pk).status == MatchStatus.PLAYING
