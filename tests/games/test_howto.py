"""The How to play pages (issue 16, point 6): one per game, linked from the lobby, the create form and
the table's "?", with pictures of melds drawn by the site's card markup and the table options read
from the engines' own tables (not a copy)."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games import forms, howto, services
from games.board.faces import card_html
from games.engine.manipulation import rules as manip_rules
from games.models import Variant
from games.typed import parse as typed_parse
from games.typed import plan as typed_plan
from games.variants import spec_for

pytestmark = pytest.mark.django_db

GAMES = [v.value for v in howto.GAMES]


@pytest.mark.parametrize("variant", GAMES)
def test_each_game_has_its_page_with_meld_pictures_and_options(client, variant):
    response = client.get(reverse("games:howto", args=[variant]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<h1>How to play {Variant(variant).label}</h1>" in html
    pictures = re.findall(r'<li class="card suit-\w+"><span class="card-face" role="img"', html)
    assert len(pictures) >= 3  # drawn by games.board.faces.card_html
    assert card_html("7H", picture=True) in html or card_html("7S", picture=True) in html
    rows = re.findall(r'<tr data-option="(\w+)">', html)
    assert rows == [row["key"] for row in howto.option_rows(variant)] and len(rows) >= 12
    for key in ("gin_box", "gin", "oklahoma", "hollywood", "manipulation"):
        assert reverse("games:howto", args=[key]) in html  # every game's page is one click away


def test_the_options_are_the_engines_own(monkeypatch):
    """A range or a default changed in the engine shows on the page: nothing is copied."""
    rows = {r["key"]: r for r in howto.option_rows("manipulation")}
    lo, hi = manip_rules.OPTION_RANGES["hand_size"]
    assert rows["hand_size"]["values"] == f"from {lo} to {hi}"
    assert rows["hand_size"]["default"] == spec_for("manipulation").option_defaults(3)["hand_size"]
    gin = {r["key"]: r for r in howto.option_rows("oklahoma")}
    assert gin["game_target"]["default"] == spec_for("oklahoma").option_defaults(2)["game_target"] == 150
    assert "knock_limit" not in gin  # Oklahoma's first upcard sets it (the form's own rule)
    assert "hollywood_target" in {r["key"] for r in howto.option_rows("hollywood")}
    assert "role_draw_ties" in {r["key"] for r in howto.option_rows("gin_box")}
    assert "role_draw_ties" not in {r["key"] for r in howto.option_rows("gin")}
    monkeypatch.setitem(manip_rules.OPTION_RANGES, "hand_size", (7, 12))
    assert {r["key"]: r for r in howto.option_rows("manipulation")}["hand_size"]["values"] == "from 7 to 12"


def test_every_option_says_what_it_changes():
    for variant in GAMES:
        for row in howto.option_rows(variant):
            assert str(row["effect"]), (variant, row["key"])
    known = set(forms.MANIPULATION_OPTION_LABELS) | set(forms.GIN_OPTION_LABELS)
    assert set(howto.EFFECTS) == known


def test_an_unknown_game_is_a_404_and_the_index_goes_to_the_first(client):
    assert client.get("/how-to-play/poker/").status_code == 404
    assert client.get("/how-to-play/%00/").status_code in (400, 404)
    response = client.get(reverse("games:howto_index"))
    assert response.status_code == 302 and response["Location"] == reverse("games:howto", args=["manipulation"])


@pytest.mark.parametrize("lang", ["ro", "fa", "ta", "co"])
def test_the_pages_render_in_every_language(client, lang):
    client.cookies["django_language"] = lang
    for variant in GAMES:
        html = client.get(reverse("games:howto", args=[variant])).content.decode()
        assert f'<html lang="{lang}"' in html


def test_linked_from_the_lobby_the_create_form_and_the_table(client, alice):
    client.force_login(alice)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert lobby.count(f'href="{reverse("games:howto_index")}"') >= 2  # the lobby and the create form
    match = services.match_create(host=alice, variant="gin", seats_count=2, bots=1)
    services.match_start(match_id=match.pk, user=alice)
    table = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert re.search(r'<a class="[^"]*table-help[^"]*" href="/how-to-play/gin/"[^>]*>\?</a>', table)


def test_the_prose_tells_the_engines_defaults():
    with translation.override("en"):
        defaults = spec_for("manipulation").option_defaults(3)
        html = render_to_string("games/howto/manipulation.html", {"d": defaults})
    assert f"count {defaults['knock_limit']} points or fewer" in html
    assert f"reaches {defaults['game_target']}" in html


@pytest.mark.parametrize("variant", GAMES)
def test_the_command_line_section_names_commands_of_its_game(client, variant):
    """How to play's section on the command line (issue 30): every command it shows is one the parser
    reads and the game carries out (or a read), so the page cannot teach a command that is refused."""
    html = client.get(reverse("games:howto", args=[variant])).content.decode()
    section = html.split('id="howto-typed"', 1)[1].split("</section>", 1)[0]
    shown = re.findall(r'<code dir="ltr" lang="en">([^<]+)</code>', section)
    assert len(shown) >= 10
    family = spec_for(variant).family
    handlers = typed_plan.MOVES[family]
    for text in shown:
        command = typed_parse.parse(text)
        assert command.name in handlers or command.name in typed_plan.READS, (variant, text)
    if variant == "gin_box":
        assert {"advice", "follow", "suggest discard 8S"} <= set(shown)
