"""The fair-play pages: report from a match page and a profile, block from a profile, mute a table's
chat; forged ids in a URL are refused."""

from __future__ import annotations

import pytest
from django.utils import timezone

from fairplay import services
from fairplay.models import Block, Report, TableMute
from games import services as game_services
from games.models import ChatMessage
from plumbing import answers
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


def test_a_staff_mute_refuses_the_next_chat_line_at_once_and_the_answer_shows_the_mute(
    client, alice, bob, carol, moderator
):
    """Staff mute a player from the report queue while their table's page is open: their next chat line
    is refused by the server (nothing saved, nothing sent), and the answer to the chat form is the
    mute's notice, put in the form's place, so the page shows it without a reload."""
    table = game_services.match_create(host=carol, variant="manipulation", seats_count=3)
    game_services.seat_join(match_id=table.pk, user=bob)
    line = game_services.chat_post(match_id=table.pk, user=bob, text="you all play like fools")
    client.force_login(bob)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="chat-form"' in page and "data-chat-refusal" not in page  # the page open before the mute

    report = services.report_create(reporter=carol, reason="abuse", message_id=line.pk)
    services.report_handle(report_id=report.pk, staff=moderator, action="mute", hours=24)

    response = client.post(f"/tables/{table.pk}/chat/", {"text": "still here"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 403 and response[answers.HEADER] == "1"  # shown in the form's place
    assert html.lstrip().startswith('<p class="hint" role="status" data-chat-refusal')
    assert "Your chat is muted by the moderators (until" in html and 'id="chat-form"' not in html
    assert ChatMessage.objects.filter(user=bob).count() == 1
    # Without scripts: back to the table, which shows the mute in the form's place.
    response = client.post(f"/tables/{table.pk}/chat/", {"text": "still here"}, follow=True)
    page = response.content.decode()
    assert "data-chat-refusal" in page and 'id="chat-form"' not in page
    assert ChatMessage.objects.filter(user=bob).count() == 1
