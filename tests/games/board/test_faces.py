"""The one markup of a card (games.board.faces.card_html and the ``{% card %}`` tag): every board,
round-end table and replay draws its cards through it."""

from __future__ import annotations

import re

import pytest
from django.template import engines
from django.utils import translation

from games.board import faces


def render(source: str, **ctx) -> str:
    return engines["django"].from_string("{% load cards %}" + source).render(ctx)


def test_a_face_up_card_is_a_named_button_with_its_ids():
    html = faces.card_html("8S.0")
    assert html == (
        '<li class="card suit-S" data-id="8S.0" data-ref="8S.0"><button type="button" class="card-face" '
        'aria-label="8, eight of spades"><span class="rank">8</span><span class="suit" aria-hidden="true">♠</span>'
        "</button></li>"
    )


def test_a_pressable_card_is_a_toggle():
    assert 'aria-label="8, eight of spades" aria-pressed="false"' in faces.card_html("8S.0", pressable=True)


def test_a_face_down_card_shows_nothing_of_its_face():
    html = faces.card_html("")
    assert html.startswith('<li class="card card-back">') and "data-id" not in html and "data-ref" not in html
    assert 'role="img" aria-label="a card from the player’s hand"' in html
    assert 'aria-label="Face-down stock"' in faces.card_html("", label="Face-down stock")


def test_a_declared_joker_shows_what_it_stands_for():
    html = faces.card_html("JK=7S.1", pressable=True)
    assert 'class="card suit-joker" data-id="JK.1" data-ref="JK=7S.1"' in html
    assert 'aria-label="7, Joker as seven of spades"' in html and '<span class="as suit-S">7♠</span>' in html


def test_gin_marks_a_meld_a_suggestion_a_lay_off_and_a_drag_source():
    html = faces.card_html("KD.0", meld=2, suggested=True, source="discard")
    assert html.startswith(
        '<li class="card suit-D gin-in-meld gin-meld-2 gin-suggested gin-draggable" '
        'data-id="KD.0" data-ref="KD.0" data-source="discard">'
    )
    assert 'aria-label="K, king of diamonds — suggested by the advisor"' in html
    laid = faces.card_html("KD.0", laid=True, picture=True)
    assert "gin-laid-off" in laid and 'aria-label="king of diamonds — laid off"' in laid


def test_a_picture_is_an_image_without_ids():
    html = faces.card_html("QH.0", picture=True, added=True)
    assert html == (
        '<li class="card suit-H added"><span class="card-face" role="img" aria-label="queen of hearts — added">'
        '<span class="rank">Q</span><span class="suit" aria-hidden="true">♥</span></span></li>'
    )


@pytest.mark.parametrize("ref", ["AS.0", "TD.1", "KC.0", "JK.0", "JK=AH.1", ""])
def test_the_accessible_name_holds_the_rank_and_suit_words(ref):
    face = faces.card_face(ref, hidden=not ref)
    name = re.search(r'aria-label="([^"]*)"', faces.card_html(ref)).group(1)
    assert face["label"] in name
    if ref and not ref.startswith("JK"):
        assert any(w in name for w in ("ace", "ten", "king")) and any(
            w in name for w in ("spades", "diamonds", "clubs")
        )


def test_everything_written_is_escaped():
    html = faces.card_html_for(
        {"id": '"><x', "ref": "<script>", "rank": "<b>", "suit": "&", "suit_key": '"', "label": "<i>"}, source='"x'
    )
    assert "<script>" not in html and "<b>" not in html and "<i>" not in html and 'data-source="&quot;x"' in html
    assert 'class="card suit-&quot;' in html and "&amp;" in html


def test_each_card_is_written_once_per_language():
    first = faces.card_html("5C.0", pressable=True)
    assert faces.card_html("5C.0", pressable=True) is first
    with translation.override("ro"):
        assert faces.card_html("5C.0", pressable=True) is not first


def test_cards_html_joins_pickable_cards():
    html = faces.cards_html(["2H.0", ""])
    assert html.count("<li ") == 2 and html.count('aria-pressed="false"') == 1 and "card-back" in html


def test_the_tag_takes_an_id_or_a_face():
    assert render("{% card ref %}", ref="8S.0") == faces.card_html("8S.0")
    assert render("{% card '' %}") == faces.card_html("")
    face = {**faces.card_face("8S.0"), "meld": 1, "suggested": True}
    assert render("{% card c %}", c=face) == faces.card_html("8S.0", meld=1, suggested=True)
    assert render("{% card c picture=True laid=True %}", c=face) == faces.card_html(
        "8S.0", meld=1, suggested=True, picture=True, laid=True
    )
    # A face without a card id (the draw for roles, a stored value shown as text) is drawn from the face.
    odd = {"id": "ZZ", "rank": "ZZ", "suit": "", "suit_key": "", "label": "ZZ"}
    assert render("{% card c picture=True %}", c=odd) == (
        '<li class="card suit-"><span class="card-face" role="img" aria-label="ZZ"><span class="rank">ZZ</span>'
        '<span class="suit" aria-hidden="true"></span></span></li>'
    )
