"""The language menu and a player's language (issue 16, point 3): every language the menu offers
switches the site, Corsican included (Django ships no Corsican: it needs our catalogue), and a
signed-in player's choice is kept on their profile and brought back by a log-in in another browser."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.core import checks
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from accounts.models import Profile

pytestmark = pytest.mark.django_db

CODES = [code for code, _name in settings.LANGUAGES]
PASSWORD = "correct-horse-battery"


def choose(client: Client, code: str, next_url: str = "/"):
    return client.post(reverse("set_language"), {"language": code, "next": next_url})


def page_language(client: Client) -> str:
    html = client.get(reverse("home")).content.decode()
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def test_every_language_of_the_menu_has_a_catalogue():
    """Django offers a language only with a catalogue (check_for_language): without locale/co's .mo,
    choosing Corsu did nothing."""
    assert [translation.check_for_language(code) for code in CODES] == [True] * len(CODES)
    assert [m.id for m in checks.run_checks(tags=[checks.Tags.translation])] == []


def test_the_menu_offers_every_language_by_its_own_name(client):
    html = client.get(reverse("home")).content.decode()
    for name in ("English", "Română", "فارسی", "தமிழ்", "Corsu"):
        assert name in html


@pytest.mark.parametrize("code", CODES)
def test_each_language_of_the_menu_switches_the_site(client, code):
    response = choose(client, code)
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == code
    assert page_language(client) == code


@pytest.mark.parametrize("start", [c for c in CODES if c != "co"])
def test_switching_to_corsican_from_each_other_language(client, start):
    choose(client, start)
    assert page_language(client) == start
    choose(client, "co")
    assert page_language(client) == "co"
    html = client.get(reverse("home")).content.decode()
    assert "Lingua" in html and 'dir="ltr"' in html  # a word of our Corsican catalogue


def test_corsican_dates_and_numbers_have_their_own_formats():
    with translation.override("co"):
        when = datetime.datetime(2026, 3, 4, 15, 7)
        assert formats.date_format(when, "DATETIME_FORMAT") == "4 March 2026, 15:07".replace(
            "March", translation.gettext("March")
        )
        assert formats.number_format(1234.5, 1, force_grouping=True) == "1\xa0234,5"


def test_a_signed_in_players_choice_is_kept_on_their_profile(client, alice):
    client.login(username="alice", password=PASSWORD)
    choose(client, "ta")
    assert Profile.objects.get(user=alice).language == "ta"
    choose(client, "co")
    assert Profile.objects.get(user=alice).language == "co"


def test_a_guests_choice_changes_no_profile(client, alice):
    choose(client, "fa")
    assert not Profile.objects.filter(user=alice).exists()


def test_the_choice_follows_the_player_to_another_browser(alice):
    first = Client()
    first.login(username="alice", password=PASSWORD)
    choose(first, "co")

    other = Client(HTTP_ACCEPT_LANGUAGE="ro")  # a browser that would show Romanian
    assert page_language(other) == "ro"
    response = other.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "co"
    assert page_language(other) == "co"


def test_a_player_who_never_chose_keeps_the_language_they_signed_in_with(alice):
    browser = Client(HTTP_ACCEPT_LANGUAGE="fa")
    browser.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert Profile.objects.get(user=alice).language == "fa"
    assert page_language(browser) == "fa"


def test_a_bad_language_code_is_refused_and_changes_nothing(client, alice):
    client.login(username="alice", password=PASSWORD)
    choose(client, "ta")
    response = choose(client, "xx-not-a-language")
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert Profile.objects.get(user=alice).language == "ta"
    assert page_language(client) == "ta"
