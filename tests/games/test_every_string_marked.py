"""Every string a player reads is marked for translation (issue 16, point 2).

The pages are rendered in a pseudo-language: every message of the catalogue comes back in fullwidth
letters (ｌｉｋｅ ｔｈｉｓ), placeholders kept.  What is still written in plain Latin letters on the
page was never marked (or is English glued around a marked piece): players' names, bot names, card
ranks and the site's name aside, there must be none.  This finds what the catalogue tests cannot: a
string that is not in the catalogue at all.
"""

from __future__ import annotations

import html
import re

import pytest
from django.template.autoreload import reset_loaders
from django.urls import reverse
from django.utils.translation import trans_real

from games import services
from games.board import kept
from games.models import BOT_NAMES, Match
from plumbing import realtime
from tests.games.history.support import play_match

pytestmark = pytest.mark.django_db

PLACEHOLDER = re.compile(r"(%\(\w+\)[sd]|%[sd]|\{\w*\}|<[^>]+>|&\w+;)")
ALLOWED = {"RummyHub", "alice", "bob", *BOT_NAMES}
LANGUAGE_NAMES = ("English", "Română", "Corsu")  # the menu names each language in its own words
ATTRS = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')


def fullwidth(text: str) -> str:
    def shift(piece: str) -> str:
        return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalpha() else c for c in piece)

    return "".join(p if PLACEHOLDER.fullmatch(p) else shift(p) for p in PLACEHOLDER.split(text))


class Pseudo:
    """A translation object that says every message in fullwidth letters."""

    def __init__(self, base):
        self.base = base

    def gettext(self, message: str) -> str:
        return fullwidth(message.split("\x04", 1)[-1])

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return fullwidth((singular if n == 1 else plural).split("\x04", 1)[-1])

    def __getattr__(self, name):
        return getattr(self.base, name)


def clear_caches() -> None:
    """Drop every word and markup kept in a language, and the templates compiled for each language."""
    kept.forget_all()
    reset_loaders()


@pytest.fixture
def pseudo(monkeypatch, client):
    """Pages in Corsican, whose messages all come back in fullwidth letters."""
    original = trans_real.translation
    fake = Pseudo(original("co"))
    monkeypatch.setattr(trans_real, "translation", lambda lang: fake if lang == "co" else original(lang))
    client.cookies["django_language"] = "co"
    clear_caches()
    yield client
    clear_caches()


def plain_words(page: str) -> list[str]:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<template\b.*?</template>", " ", page, flags=re.S)
    page = re.sub(r"<code\b.*?</code>", " ", page, flags=re.S)  # data shown as it is (a seed, its commitment)
    texts = ATTRS.findall(page) + [re.sub(r"<[^>]+>", " ", page)]
    text = html.unescape(" ".join(texts))
    for name in LANGUAGE_NAMES:
        text = text.replace(name, " ")
    words = re.findall(r"[A-Za-z]{2,}", text)
    return sorted({w for w in words if w not in ALLOWED})


def read(client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    return plain_words(response.content.decode())


def test_every_page_a_player_reads_is_marked(pseudo, alice, bob, settings, monkeypatch):
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    finished = play_match(alice, settings=settings, seed="3", game_target=30)
    pseudo.force_login(alice)
    manip = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=2)
    services.match_start(match_id=manip.pk, user=alice)
    services.run_until_human(match_id=manip.pk)
    manip.refresh_from_db()
    services.turn_submit(match_id=manip.pk, user=alice, action={"type": "draw"}, expected_version=manip.version)
    gin = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    services.match_start(match_id=gin.pk, user=alice)
    services.run_until_human(match_id=gin.pk)
    pages = [
        reverse("home"),
        reverse("games:lobby"),
        reverse("games:table", args=[manip.pk]),
        reverse("games:table", args=[gin.pk]),
        reverse("games:table", args=[finished.pk]),
        reverse("history:match", args=[finished.pk]),
        reverse("history:replay", args=[finished.pk]) + "?step=5",
        reverse("history:list"),
        reverse("history:leaderboard"),
        reverse("profile", args=["alice"]),
        reverse("tournaments:list"),
        reverse("accounts:password_change"),
        *[reverse("games:howto", args=[v]) for v in ("manipulation", "gin_box", "gin", "oklahoma", "hollywood")],
    ]
    found = {url: read(pseudo, url) for url in pages}
    pseudo.logout()  # which forgets the cookies
    pseudo.cookies["django_language"] = "co"
    for url in (reverse("accounts:signup"), reverse("accounts:login"), reverse("accounts:password_reset")):
        found[url] = read(pseudo, url)
    found = {url: words for url, words in found.items() if words}
    assert not found, f"English not marked for translation, by page: {found}"
    assert Match.objects.filter(pk=manip.pk).exists()
