"""Table services (games/services/tables.py): one transaction per intent, version bump + broadcast on
success, nothing on refusal."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match, MatchStatus, Seat

pytestmark = pytest.mark.django_db


def test_create_join_start_bumps_version_and_broadcasts(alice, bob, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    assert [s.user for s in match.seats.all()] == [alice, None, None]
    assert ("lobby", {"type": "lobby.changed", "id": match.pk}) in sent
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_join(match_id=match.pk, user=bob)
        services.seat_add_bot(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.version == 2
    table_msgs = [m for g, m in sent if g == f"table-{match.pk}"]
    assert table_msgs[-1] == {"type": "table.changed", "id": match.pk, "version": 2}
    # No card, hand or seed in any channel-layer message.
    with django_capture_on_commit_callbacks(execute=True):
        services.match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and match.round_number == 1
    for _group, message in sent:
        assert set(message) <= {"type", "id", "version", "message"}


def test_only_host_starts_and_every_seat_must_be_filled(alice, bob):
    match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    services.seat_join(match_id=match.pk, user=bob)
    with pytest.raises(services.ActionRefused) as exc:
        services.match_start(match_id=match.pk, user=bob)
    assert exc.value.code == "not_host"
    with pytest.raises(services.ActionRefused) as exc:
        services.match_start(match_id=match.pk, user=alice)
    assert exc.value.code == "seats_free"


def test_bad_options_are_refused_with_the_engines_reason(alice):
    with pytest.raises(services.ActionRefused) as exc:
        services.match_create(host=alice, variant="manipulation", seats_count=2, options={"knock_limit": 99})
    assert exc.value.code == "bad_option" and "knock_limit" in exc.value.message
    with pytest.raises(services.ActionRefused):
        services.match_create(host=alice, variant="manipulation", seats_count=6)
    assert not Match.objects.exists()


def test_private_table_needs_the_invite(alice, bob):
    match = services.match_create(host=alice, variant="manipulation", seats_count=2, is_private=True)
    with pytest.raises(services.ActionRefused) as exc:
        services.seat_join(match_id=match.pk, user=bob)
    assert exc.value.code == "private"
    services.seat_join(match_id=match.pk, user=bob, invite_token=match.invite_token)
    assert Seat.objects.get(match=match, index=1).user == bob
