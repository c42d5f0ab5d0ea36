"""Every string of the notifications is marked for translation: their pages, the push's words and
the mail, rendered in the pseudo-language of tests/games/test_every_string_marked.py."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.utils import translation

from accounts.models import Profile
from notifications import services
from notifications.models import Notice, NoticeKind
from tests.games.test_every_string_marked import plain_words, pseudo, read  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def test_the_notifications_pages_are_marked(pseudo, alice, match_ab):  # noqa: F811
    pseudo.force_login(alice)
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE)
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.REMINDER)
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.MATCH_ENDED)
    token = services.unsubscribe_token(alice.pk)
    found = {
        url: read(pseudo, url)
        for url in (
            "/notifications/",
            "/notifications/settings/",
            f"/notifications/unsubscribe/{token}/",
            "/players/alice/",
        )
    }
    assert not {url: words for url, words in found.items() if words}


def test_the_push_and_the_mail_are_marked(pseudo, alice, match_ab):  # noqa: F811
    alice.email = "alice@example.com"
    alice.save()
    Profile.objects.update_or_create(user=alice, defaults={"language": "co"})
    notice = services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE)
    with translation.override("co"):
        payload = services.push_payload(Notice.objects.select_related("match").get(pk=notice.pk))
    assert plain_words(payload["title"] + " " + payload["body"]) == []
    services.deliver_due()
    message = mail.outbox[0]
    assert "/tables/" in message.body and "/notifications/unsubscribe/" in message.body
    assert plain_words(message.subject + " " + re.sub(r"https?://\S+", " ", message.body)) == []
