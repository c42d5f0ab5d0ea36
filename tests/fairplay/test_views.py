"""The fair-play pages: report from a match page and a profile, block from a profile, mute a table's
chat; forged ids in a URL are refused."""

from __future__ import annotations

import pytest
from django.utils import timezone

from fairplay.models import Block, Report, TableMute
from games import services as game_services
from tests.fairplay.support import finished_match

pytestmark = pytest.mark.django_db


def test_a_player_of_a_match_reports_another_from_the_match_page(client, alice, bob, carol):
    match = finished_match([alice, bob], at=timezone.now())
    client.force_login(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    link = f"/fair-play/report/?match={match.pk}&amp;player={bob.pk}"
    assert link in page and f"player={alice.pk}" not in page  # not oneself
    response = client.post("/fair-play/report/", {"match": match.pk, "player": bob.pk, "reason": "cheating"})
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.match_id) == (alice, bob, match.pk)
    client.force_login(carol)  # not a player of it: no link
    assert "/fair-play/report/" not in client.get(f"/matches/{match.pk}/").content.decode()


def test_a_profile_offers_block_and_report_and_they_work(client, alice, bob):
    client.force_login(alice)
    page = client.get(f"/players/{bob.username}/").content.decode()
    assert f"/fair-play/report/?player={bob.pk}" in page and "data-block" in page
    client.post(f"/fair-play/block/{bob.pk}/", {"blocked": "1", "next": f"/players/{bob.username}/"})
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert "Unblock" in client.get(f"/players/{bob.username}/").content.decode()
    response = client.post("/fair-play/report/", {"player": bob.pk, "reason": "spam", "details": "ads"})
    assert response.status_code == 302 and Report.objects.get().details == "ads"
    client.post(f"/fair-play/block/{bob.pk}/", {"blocked": "0"})
    assert not Block.objects.exists()


def test_a_table_chat_is_muted_and_shown_again_from_the_table(client, alice, bob):
    table = game_services.match_create(host=bob, variant="manipulation", seats_count=3)
    client.force_login(alice)
    client.post(f"/tables/{table.pk}/mute-chat/", {"muted": "1"})
    assert TableMute.objects.filter(user=alice, match=table).exists()
    assert "Show this table's chat" in client.get(f"/tables/{table.pk}/").content.decode()
    client.post(f"/tables/{table.pk}/mute-chat/", {"muted": "0"})
    assert not TableMute.objects.exists()


@pytest.mark.parametrize("url", ["/fair-play/block/{big}/", "/tables/{big}/mute-chat/", "/fair-play/block/999999/"])
def test_forged_ids_in_a_url_are_refused(client, alice, url):
    client.force_login(alice)
    response = client.post(url.format(big="9" * 30), {"blocked": "1", "muted": "1"}, follow=True)
    assert response.status_code in (200, 404)
    assert not Block.objects.exists() and not TableMute.objects.exists()


def test_a_page_needs_a_signed_in_player(client, bob):
    assert client.get(f"/fair-play/report/?player={bob.pk}").status_code == 302
    assert client.post(f"/fair-play/block/{bob.pk}/").status_code == 302
