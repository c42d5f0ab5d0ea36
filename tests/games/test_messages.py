"""Engine refusals reach players through the translation catalogue (STYLE.md "Every page")."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest
from django.utils import translation

from games import forms, selectors, services
from games.board import table as board_table
from games.board import words
from games.engine import errors, gin, manipulation
from games.engine.cards import Card
from games.engine.errors import IllegalMove
from games.engine.manipulation import melds
from games.history.selectors import match_detail
from games.messages import REFUSALS, refusal_text
from games.models import Match
from games.variants import spec_for

ENGINE = Path(errors.__file__).parent
TABLES = {"manipulation": manipulation.MESSAGES, "gin": gin.MESSAGES, "melds": melds.MELD_MESSAGES}


def test_every_engine_template_is_marked_for_translation():
    """Each refusal template of the engines' tables is an ``N_("...")`` call in games/engine/text.py
    (what ``make messages`` extracts), and the site's refusal table is those tables, nothing more."""
    source = ast.parse((ENGINE / "text.py").read_text())
    marked = {
        node.args[0].value
        for node in ast.walk(source)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "N_"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }
    # A template with a count: NP_(singular, plural, count) marks both; the refusal carries the plural.
    marked |= {
        node.args[1].value
        for node in ast.walk(source)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "NP_"
        and len(node.args) > 1
        and isinstance(node.args[1], ast.Constant)
    }
    for table, templates in TABLES.items():
        assert templates, f"{table} has templates"
        for key, template in templates.items():
            assert template in marked, f"{table}.{key} is not marked with N_ in games/engine/text.py"
            assert REFUSALS[(table, key)] == template
    assert len(REFUSALS) == sum(len(t) for t in TABLES.values())


@pytest.mark.parametrize(("table", "key"), sorted(REFUSALS))
def test_template_placeholders_are_numbers_or_cards(table, key):
    """Each placeholder is a card param (codes, drawn as card faces) or a number the engine passes."""
    for name in re.findall(r"%\((\w+)\)s", REFUSALS[(table, key)]):
        assert name in errors.CARD_PARAMS or name in {"points", "limit", "min", "deadwood"}, name
    assert "{" not in REFUSALS[(table, key)]


def test_refusal_goes_through_gettext():
    plain = IllegalMove("not_your_turn", manipulation.MESSAGES["not_your_turn"])
    assert plain.params is None and plain.to_dict() == {"code": "not_your_turn", "message": plain.message}
    detailed = IllegalMove("invalid_meld", melds.MELD_MESSAGES["sequence_one_suit"], {"cards": ["5S", "6S", "7H"]})
    assert detailed.message == "5♠ 6♠ 7♥: a sequence must be one suit."
    calls = []
    fake = {detailed.template: "[%(cards)s / one suit]"}

    def gettext(text):
        calls.append(text)
        return fake.get(text, f"[{text}]")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("games.messages.gettext", gettext)
        assert refusal_text(plain, "manipulation") == f"[{plain.message}]"
        assert refusal_text(detailed, "manipulation") == "[5♠ 6♠ 7♥ / one suit]"
        # The same refusal stored as JSON (a draft report) reads the same.
        assert refusal_text(json.loads(json.dumps(detailed.to_dict())), "manipulation") == "[5♠ 6♠ 7♥ / one suit]"
    assert calls == [plain.message, detailed.template, detailed.template]


def test_cards_are_drawn_as_the_sites_faces_in_the_readers_language(monkeypatch):
    """Ten, a bare joker and a declared joker: the words around the card come from the catalogue."""
    words = {"Joker": "Jolly", "Joker (%(card)s)": "Jolly (%(card)s)"}
    monkeypatch.setattr("games.messages.gettext", lambda s: words.get(s, s))
    monkeypatch.setattr("games.board.faces._", lambda s: words.get(s, s))
    error = IllegalMove(
        "invalid_meld", melds.MELD_MESSAGES["joker_not_fitting"], {"cards": ["TS", "JK", "JK=9H"], "identity": "9H"}
    )
    rule = (
        ": this joker stands for 9♥ and keeps it, so it can go only where 9♥ fits, until a natural 9♥ takes its place."
    )
    assert error.message == "10♠ Joker Joker (9♥)" + rule
    assert refusal_text(error, "manipulation") == "10♠ Jolly Jolly (9♥)" + rule


@pytest.mark.parametrize("language", ["de", "xx"])
def test_a_language_without_a_catalogue_falls_back_to_english(language):
    """A language the site has no catalogue for (German: Django's own words only; an unknown code)."""
    with translation.override(language):
        plain = IllegalMove("must_draw", gin.MESSAGES["must_draw"])
        assert refusal_text(plain, "gin") == gin.MESSAGES["must_draw"]
        with pytest.raises(IllegalMove) as refused:
            gin.settle_knock(
                "AS 2S 3S 4S 7H 7D 7C 9C TC JC", "5S 7S QD KD QH 2H 3H 4D 6D 8D", knocker_melds=[["AS", "2S", "7H"]]
            )
        assert refused.value.code == "invalid_meld" and refused.value.params == {"cards": ["AS", "2S", "7H"]}
        assert refusal_text(refused.value, "gin") == refused.value.message
        assert refused.value.message.startswith("A♠ 2♠ 7♥: not a meld")


def test_cards_in_a_refusal_are_isolated_on_a_right_to_left_page():
    """In Persian the cards of a refusal sit between FSI and PDI (the characters of <bdi>), so "10♠ J♠"
    keeps its order and the sentence its punctuation; an English page's sentence is as it was."""
    error = IllegalMove("card_not_in_hand", gin.MESSAGES["card_not_in_hand"], {"cards": ["TS", "JS"]})
    with translation.override("fa"):
        assert "\u206810♠ J♠\u2069" in refusal_text(error, "gin")
    with translation.override("en"):
        assert refusal_text(error, "gin") == "10♠ J♠ is not in your hand."


def test_a_broken_translation_shows_the_english_sentence(monkeypatch):
    monkeypatch.setattr("games.messages.gettext", lambda s: "%(kards)s ?")
    error = IllegalMove("card_not_in_hand", gin.MESSAGES["card_not_in_hand"], {"cards": ["KD"]})
    assert refusal_text(error, "gin") == "K♦ is not in your hand."


def test_unknown_sentences_are_shown_as_they_are():
    already = IllegalMove("not_your_turn", "Nu este rândul tău.")  # a service's own, translated sentence
    assert refusal_text(already, "manipulation") == already.message
    assert refusal_text({"code": "x", "message": "Old stored sentence."}, "manipulation") == "Old stored sentence."
    assert (
        refusal_text(IllegalMove("must_draw", gin.MESSAGES["must_draw"]), "manipulation") == gin.MESSAGES["must_draw"]
    )


def test_draft_report_errors_and_meld_reasons_carry_templates():
    """check_table's report (stored as JSON with the draft) says each invalid meld through the table."""
    state = manipulation.new_round(None, 2, random.Random(7))
    seat = state.seat_to_act
    state = manipulation.apply(state, seat, {"type": "draw"})
    hand = state.hands[seat]
    table = [[manipulation.card_ref(c) for c in hand[:2]]]
    report = json.loads(json.dumps(manipulation.check_table(state, seat, table)))
    first = report["melds"][0]
    assert not first["valid"] and first["template"] == melds.MELD_MESSAGES["too_short"]
    assert first["params"] == {"cards": [c.code for c in hand[:2]]}
    assert refusal_text(first, "manipulation") == first["reason"]
    assert any(e["code"] == "invalid_meld" for e in report["errors"])
    for e in report["errors"]:
        assert refusal_text(e, "manipulation") == e["message"]


def test_refusal_params_stay_json_safe_and_message_is_the_template_filled():
    errors_seen = []
    for code, template in manipulation.MESSAGES.items():
        params = {
            name: ["5S", "JK=6S"] if name in errors.CARD_PARAMS else 12 for name in re.findall(r"%\((\w+)\)s", template)
        }
        error = IllegalMove(code, template, params or None)
        assert json.loads(json.dumps(error.to_dict())) == error.to_dict()
        assert "%(" not in error.message and "{" not in error.message
        errors_seen.append(error)
    assert any("5♠" in e.message for e in errors_seen)
    assert Card.from_code("JK=6S").pretty() in " ".join(e.message for e in errors_seen)


@pytest.mark.django_db
def test_history_shows_house_rules_with_the_forms_labels(alice, monkeypatch):
    """A match page names its options as the new-table form does, values included (no raw keys)."""
    options = {"freed_joker_reuse": "new_meld_only", "knock_in_final_lap": False, "jokers": 3}
    match = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=2, options=options)
    shown = dict(match_detail(match=match)["options"])  # the table stores every option, defaults too
    assert len(shown) == len(match.options) and not any("_" in label for label in shown)
    assert (
        shown.items()
        >= {
            str(forms.MANIPULATION_OPTION_LABELS["freed_joker_reuse"][0]): str(forms.CHOICE_LABELS["new_meld_only"]),
            str(forms.MANIPULATION_OPTION_LABELS["knock_in_final_lap"][0]): "no",
            str(forms.MANIPULATION_OPTION_LABELS["jokers"][0]): 3,
        }.items()
    )
    gin_rules = words.options_text("oklahoma", {"end_bonuses": True, "big_gin": "gin+6", "knock_limit": 5})
    assert gin_rules == [
        ("Knock with at most (deadwood)", 5),
        ("Big gin (eleven cards melded)", "gin bonus + 6"),
        ("End-of-game bonuses (game, boxes, shutout)", "on"),
    ]
    assert words.options_text("gin", {"unheard_of": 1}) == [("Unheard of", 1)]
    # The words go through the catalogue, and a language without one still reads.
    monkeypatch.setattr("games.board.words._", lambda s: f"[{s}]")
    assert words.options_text("manipulation", {"knock_in_final_lap": True})[0][1] == "[yes]"
    with translation.override("sw"):  # a language the site has no catalogue for
        assert words.options_text("manipulation", {"ace_in_sequences": "low_only"}) == [
            ("Aces in sequences", "low only")
        ]


@pytest.mark.django_db
def test_the_draft_shows_meld_reasons_and_errors_in_the_readers_language(alice, bob, settings, monkeypatch):
    """The Manipulation table's draft: each invalid meld's reason and the error list go through the catalogue."""
    settings.RUMMYHUB_FIXED_SEED = "3"
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    state = spec_for("manipulation").load(match.state["round"])
    mover = [alice, bob][state.seat_to_act]
    match = services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=match.version)
    hand = spec_for("manipulation").load(match.state["round"]).hands[state.seat_to_act]
    two = [[hand[0].id, hand[1].id]]
    match = services.draft_update(match_id=match.pk, user=mover, table=two, expected_version=match.version)
    monkeypatch.setattr("games.messages.gettext", lambda s: f"[{s}]")
    ctx = board_table.table_context(selectors.board_data(Match.objects.get(pk=match.pk)), mover)
    english = melds.MELD_MESSAGES["too_short"] % {"cards": f"{hand[0].pretty()} {hand[1].pretty()}"}
    assert ctx["melds"][0]["reason"] == f"[{english}]"
    assert f"[{english}]" in [e["message"] for e in ctx["draft_errors"]]


def test_the_drawn_prompt_names_the_tables_own_most_draws(monkeypatch):
    """RULES B.5 / E.1 "Most draws per turn": "draw 1 of N" with the table's N; no draw left → meld or end."""
    assert words.drawn_prompt(1, 2, True).endswith("draw 1 of 2.")
    assert words.drawn_prompt(2, 3, True).endswith("draw 2 of 3.")
    assert words.drawn_prompt(1, 1, False) == "Meld (drag cards onto the table) or end your turn."
    monkeypatch.setattr("games.board.words._", lambda s: f"[{s}]")
    assert words.drawn_prompt(1, 1, False).startswith("[")


def test_the_lobby_form_explains_most_draws_per_turn():
    help_text = str(forms.TableCreateForm().fields["opt_max_draws_per_turn"].help_text)
    assert "1: draw one card, then you may meld." in help_text and "From 1 to 3." in help_text


@pytest.mark.django_db
@pytest.mark.parametrize(
    "most, prompt",
    [
        (2, "Meld (drag cards onto the table) or draw again — draw 1 of 2."),
        (1, "Meld (drag cards onto the table) or end your turn."),
    ],
)
def test_the_board_prompt_after_a_draw_follows_most_draws_per_turn(alice, bob, settings, most, prompt):
    settings.RUMMYHUB_FIXED_SEED = "3"
    match = services.match_create(
        host=alice, variant="manipulation", seats_count=2, options={"max_draws_per_turn": most}
    )
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    mover = [alice, bob][match.state["round"]["seat_to_act"]]
    match = services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=match.version)
    ctx = board_table.table_context(selectors.board_data(Match.objects.get(pk=match.pk)), mover)
    assert ctx["prompt"] == prompt


def test_no_word_is_glued_in_brackets_after_a_name_in_a_template():
    """Issue 25.14: "alice (you)", "bob (forfeit)" were a name, then a translated word in brackets glued
    on; a language that puts the word first, or other brackets, could not say it.  Each is one
    translatable phrase with the name as a parameter (isolated for right-to-left pages)."""
    from pathlib import Path

    from django.conf import settings

    glued = re.compile(r"\(\s*\{%\s*(translate|trans)\s")
    found = [
        f"{path.relative_to(settings.BASE_DIR)}:{n}"
        for path in sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if glued.search(line)
    ]
    assert found == []
