"""Whole sentences (issue 16): counts take the language's plural forms, a list of scores is one list in
the reader's language with each name and signed number isolated for right-to-left reading, and the
replay's arrows are drawn, not read, and mirrored on a right-to-left page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.utils import translation

from games.board import words
from games.board.bidi import FSI, PDI
from games.history.selectors import replay_index
from games.models import Match, MatchStatus
from tests.games.history.support import play_match

HAND = (
    "Your hand counts %(p)s point (knock with %(k)s or fewer).",
    "Your hand counts %(p)s points (knock with %(k)s or fewer).",
)


def test_the_hands_points_take_the_plural_form_of_the_count():
    with translation.override("ro"):
        one = translation.ngettext(*HAND, 1) % {"p": 1, "k": 5}
        few = translation.ngettext(*HAND, 4) % {"p": 4, "k": 5}
        many = translation.ngettext(*HAND, 25) % {"p": 25, "k": 5}
    assert "1 punct " in one and "4 puncte " in few and "25 de puncte " in many
    with translation.override("co"):
        assert "1 puntu " in translation.ngettext(*HAND, 1) % {"p": 1, "k": 5}
    with translation.override("ro"):
        assert translation.ngettext("%(p)s point", "%(p)s points", 20) % {"p": 20} == "20 de puncte"


def test_a_rounds_scores_are_one_list_with_signs_isolated_on_a_right_to_left_page():
    scores = [("alice", 12), ("bob", -4), ("زهرا", 0)]
    with translation.override("en"):
        assert words.scores_text(scores) == f"alice +12, bob \u22124, {FSI}زهرا{PDI} 0"
    with translation.override("fa"):
        text = words.scores_text(scores)
    assert text == (f"{FSI}alice{PDI} {FSI}+12{PDI}، {FSI}bob{PDI} {FSI}\u22124{PDI}، {FSI}زهرا{PDI} {FSI}0{PDI}")


@pytest.mark.django_db
def test_the_replay_in_persian_isolates_scores_and_hides_its_arrows(client, alice, settings):
    match = play_match(alice, settings=settings, seed="3", game_target=30)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    client.force_login(alice)
    client.cookies["django_language"] = "fa"
    page = client.get(f"/matches/{match.pk}/replay/?step=0").content.decode()
    assert page.count('class="nav-arrow" aria-hidden="true"') == 4
    assert "◀ " not in page.replace('aria-hidden="true">◀', "")
    # The round's last step: "Round over — how: name +12، …" as one sentence, its numbers isolated.
    last = sum(1 + n for _r, n in replay_index(match)) - 1
    page = client.get(f"/matches/{match.pk}/replay/?step={last}").content.decode()
    assert "<strong>پایان دور</strong> — " in page
    assert f"{FSI}+" in page or f"{FSI}0{PDI}" in page


def test_the_arrows_are_mirrored_right_to_left():
    css = (Path(django_settings.BASE_DIR) / "static" / "css" / "history.css").read_text()
    assert '[dir="rtl"] .nav-arrow { transform: scaleX(-1); }' in css


@pytest.mark.django_db
def test_the_match_pages_signed_scores_are_isolated(client, alice, settings):
    match = play_match(alice, settings=settings, seed="3", game_target=30)
    client.force_login(alice)
    client.cookies["django_language"] = "fa"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    scores = re.findall(r'<span class="score">(?:<span aria-hidden="true">★ </span>)?(.*?)</span>', page)
    assert scores and all(re.fullmatch(r"<bdi>(\+\d+|0|\u2212\d+)</bdi>", s) for s in scores), scores


def test_an_engine_refusal_with_a_count_takes_its_plural_form():
    from games.engine.errors import IllegalMove
    from games.engine.text import MANIPULATION_MESSAGES
    from games.messages import refusal_text

    def refusal(points):
        return IllegalMove("knock_too_high", MANIPULATION_MESSAGES["knock_too_high"], {"points": points, "limit": 5})

    assert refusal(1).message == "Your hand counts 1 point: you may knock only with 5 or fewer."
    assert refusal(7).message == "Your hand counts 7 points: you may knock only with 5 or fewer."
    with translation.override("ro"):
        assert refusal_text(refusal(1), "manipulation").startswith("Mâna ta valorează 1 punct:")
        assert refusal_text(refusal(7), "manipulation").startswith("Mâna ta valorează 7 puncte:")
        assert refusal_text(refusal(25).to_dict(), "manipulation").startswith("Mâna ta valorează 25 de puncte:")


def test_counted_admin_and_chat_messages_take_plural_forms():
    with translation.override("ro"):
        assert translation.ngettext("%(n)d entrant added.", "%(n)d entrants added.", 1) % {"n": 1} == (
            "1 participant adăugat."
        )
        assert translation.ngettext("%(n)d entrant added.", "%(n)d entrants added.", 24) % {"n": 24} == (
            "24 de participanți adăugați."
        )
        limit = translation.ngettext(
            "Messages are limited to %(n)d character.", "Messages are limited to %(n)d characters.", 500
        ) % {"n": 500}
    assert limit == "Un mesaj poate avea cel mult 500 de caractere."


def test_the_howto_arrow_points_from_before_to_after_right_to_left():
    css = (Path(django_settings.BASE_DIR) / "static" / "css" / "howto.css").read_text()
    assert '[dir="rtl"] .howto .arrow { transform: scaleX(-1); }' in css


def test_a_rematchs_names_are_isolated_in_a_persian_reason():
    from games.tournaments.selectors import describe_reasons

    with translation.override("fa"):
        text = describe_reasons([{"code": "rematch_unavoidable", "pairs": [["alice", "bob"]]}])
    assert f"{FSI}alice{PDI}–{FSI}bob{PDI}" in text


def test_the_gin_role_draw_says_the_roles_as_one_list():
    from games.board.gin import _role_draw

    data = {"draws": [], "box": 0, "captain": 1, "advisor": 2}
    names = {0: "alice", 1: "bob", 2: "زهرا"}
    with translation.override("en"):
        assert _role_draw(data, names)[0]["roles_text"] == f"Box: alice, Captain: bob, Advisor: {FSI}زهرا{PDI}"
    with translation.override("fa"):
        text = _role_draw(data, names)[0]["roles_text"]
    assert f"{FSI}alice{PDI}، " in text and "Box" not in text


@pytest.mark.django_db
def test_names_beside_numbers_are_isolated_on_the_history_list(client, alice, settings):
    play_match(alice, settings=settings, seed="3", game_target=30)
    client.cookies["django_language"] = "fa"
    page = client.get("/history/").content.decode()
    assert re.search(r"<bdi>alice</bdi></a>\s*<span class=\"total\">", page)


@pytest.mark.django_db
def test_an_open_tables_seats_are_one_phrase_in_the_readers_words(client, alice, bob):
    from games import services

    services.match_create(host=bob, variant="manipulation", seats_count=3, bots=0)
    client.force_login(alice)
    client.cookies["django_language"] = "fa"
    page = client.get("/play/").content.decode()
    assert "3 صندلی، 2 خالی" in page  # the Persian comma, not ", " glued between two translated counts


def test_a_refusals_choice_of_cards_is_a_list_in_the_readers_words():
    from games.engine.errors import IllegalMove
    from games.engine.text import MANIPULATION_MESSAGES
    from games.messages import refusal_text

    error = IllegalMove(
        "joker_identity_needed",
        MANIPULATION_MESSAGES["joker_identity_needed"],
        {"cards": ["8H", "JK", "TH"], "options": ["9H", "9D"]},
    )
    assert "(9♥, 9♦)" in error.message
    with translation.override("fa"):
        text = refusal_text(error, "manipulation")
    assert "، " in text and ", " not in text.replace(PDI, "")


@pytest.mark.django_db
def test_a_name_in_a_pages_title_is_isolated_right_to_left(client, alice):
    client.cookies["django_language"] = "fa"
    page = client.get("/players/alice/").content.decode()
    assert f"<title>{FSI}alice{PDI} · RummyHub</title>" in page


def test_games_played_and_byes_are_one_counted_phrase():
    from django.template import Context, Template

    tpl = Template(
        "{% load i18n %}{% blocktranslate count n=byes with played=played %}{{ played }} + {{ n }} bye"
        "{% plural %}{{ played }} + {{ n }} byes{% endblocktranslate %}"
    )
    with translation.override("ro"):
        assert tpl.render(Context({"played": 4, "byes": 1})) == "4 + 1 rundă liberă"
        assert tpl.render(Context({"played": 4, "byes": 2})) == "4 + 2 runde libere"


def test_a_discard_choice_isolates_its_card_where_no_markup_may_go():
    from django.template import Context, Template

    tpl = Template(
        "{% load i18n %}{% with card=rank|add:suit %}{% blocktranslate with card=card|isolate d=d %}"
        "{{ card }} — deadwood {{ d }}{% endblocktranslate %}{% endwith %}"
    )
    with translation.override("fa"):
        assert tpl.render(Context({"rank": "10", "suit": "♠", "d": 5})) == f"{FSI}10♠{PDI} — بی‌مصرف 5"
    with translation.override("en"):
        assert tpl.render(Context({"rank": "10", "suit": "♠", "d": 5})) == "10♠ — deadwood 5"


def test_the_analysis_names_its_cards_as_a_list_of_the_language():
    from games.analysis.selectors import cards_text

    with translation.override("fa"):
        assert str(cards_text(["7S", "8S"])) == "<bdi>7♠</bdi>، <bdi>8♠</bdi>"
    assert str(cards_text(["7S", "8S"])) == "<bdi>7♠</bdi>, <bdi>8♠</bdi>"


def test_a_withdrawn_players_standing_is_one_phrase():
    from django.template import Context, Template

    tpl = Template(
        "{% load i18n %}{% blocktranslate with name=name|bdi %}{{ name }} (withdrawn){% endblocktranslate %}"
    )
    with translation.override("co"):
        assert tpl.render(Context({"name": "alice"})) == "<bdi>alice</bdi> (ritiratu)"
