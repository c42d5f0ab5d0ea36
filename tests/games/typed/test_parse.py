"""The command line's parser: every command, the short forms and full names of cards, digits of any
script, and malformed input (a clear reason, and nothing is made of it)."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.typed.parse import MAX_TEXT, Command, Unclear, card_code, parse
from games.typed.vocabulary import fold


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("help", Command("help")),
        ("?", Command("help")),
        ("read hand", Command("hand")),
        ("H", Command("hand")),
        ("read table", Command("table")),
        ("read meld 3", Command("read_meld", meld=3)),
        ("m 12", Command("read_meld", meld=12)),
        ("what changed", Command("changes")),
        ("status", Command("status")),
        ("draw", Command("draw")),
        ("draw stock", Command("draw_stock")),
        ("draw discard", Command("draw_discard")),
        ("take", Command("take")),
        ("pass", Command("pass")),
        ("new 7H 8H 9H", Command("new", cards=("7H", "8H", "9H"))),
        ("new 10s js qs", Command("new", cards=("TS", "JS", "QS"))),
        ("new JK 2♦ 3♢", Command("new", cards=("JK", "2D", "3D"))),
        ("add 5S to 3", Command("add", cards=("5S",), target=3)),
        ("add 5S 6S to new", Command("add", cards=("5S", "6S"), target=0)),
        ("move 9C from 2 to new", Command("move", cards=("9C",), meld=2, target=0)),
        ("move 9C from 2 to 4", Command("move", cards=("9C",), meld=2, target=4)),
        ("move 9C to 4", Command("move", cards=("9C",), target=4)),
        ("joker as 6S", Command("joker", declared="6S")),
        ("joker as 6S in 2", Command("joker", declared="6S", meld=2)),
        ("reset", Command("reset")),
        ("meld", Command("meld")),
        ("end turn", Command("end_turn")),
        ("end", Command("end_turn")),
        ("knock", Command("knock")),
        ("knock 8s", Command("knock", cards=("8S",))),
        ("gin", Command("gin")),
        ("gin KC", Command("gin", cards=("KC",))),
        ("discard QC", Command("discard", cards=("QC",))),
        ("suggest discard 8S", Command("suggest", cards=("8S",), what="discard")),
        ("suggest draw stock", Command("suggest", what="draw_stock")),
        ("advice", Command("advice")),
        ("follow", Command("follow")),
        ("layout", Command("layout")),
        # Full names, any case, extra spaces and a final full stop.
        ("  Discard   the ten of clubs.  ".replace("the ", ""), Command("discard", cards=("TC",))),
        ("new seven of hearts, eight of hearts, nine of hearts", Command("new", cards=("7H", "8H", "9H"))),
        # Digits of any script are digits (Persian, Arabic-Indic, Tamil, full width); NBSP is a space.
        ("read meld ۳", Command("read_meld", meld=3)),
        ("read meld ٣", Command("read_meld", meld=3)),
        ("add ௭H to ௨", Command("add", cards=("7H",), target=2)),
        ("ｎｅｗ ７Ｈ ８Ｈ ９Ｈ", Command("new", cards=("7H", "8H", "9H"))),
        ("add\u00a05S\u00a0to\u00a03", Command("add", cards=("5S",), target=3)),
    ],
)
def test_every_command(text, command):
    assert parse(text) == command


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("fly away", "unknown_command"),
        ("new", "no_card"),
        ("new 7X", "unknown_card"),
        ("new 1H", "unknown_card"),
        ("new 11H", "unknown_card"),
        ("new ²H", "unknown_card"),  # a superscript two is no digit
        ("new ①H", "unknown_card"),
        ("new ⅦH", "unknown_card"),
        ("add 7H", "bad_target"),
        ("add 7H to", "bad_target"),
        ("add 7H to 0", "bad_meld_number"),
        ("add 7H to -1", "bad_meld_number"),
        ("add 7H to 201", "bad_meld_number"),
        ("add 7H to 99999999999999999999999", "bad_meld_number"),
        ("add 7H to three", "bad_meld_number"),
        ("move 9C", "bad_target"),
        ("move 9C from to 3", "bad_meld_number"),
        ("joker as", "no_card"),
        ("joker as JK", "one_card"),
        ("joker as 6S 7S", "one_card"),
        ("read meld", "bad_meld_number"),
        ("read meld 1 2", "bad_meld_number"),
        ("discard", "no_card"),
        ("discard 7H 8H", "one_card"),
        ("draw now please", "extra_words"),
        ("suggest", "bad_suggestion"),
        ("suggest meld", "bad_suggestion"),
        ("new " + "7H " * 30, "too_many_words"),
        ("x" * (MAX_TEXT + 1), "too_large"),
        ("new 7H\x00", "bad_character"),
        ("\ud800", "bad_character"),
        ("new 7H\x1b[2J", "bad_character"),
    ],
)
def test_malformed_input_is_refused_with_a_reason(text, code):
    with pytest.raises(Unclear) as caught:
        parse(text)
    assert caught.value.code == code
    assert caught.value.message  # a sentence the player hears


def test_not_text_is_refused():
    for value in (None, 7, ["draw"], {"text": "draw"}):
        with pytest.raises(Unclear):
            parse(value)


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("7h", "7H"),
        ("7♥", "7H"),
        ("7♡", "7H"),
        ("10♠", "TS"),
        ("ts", "TS"),
        ("qc", "QC"),
        ("as", "AS"),
        ("jk", "JK"),
        ("joker", "JK"),
        ("★", "JK"),
        ("kd", "KD"),
        ("0h", None),
        ("7", None),
        ("h7", None),
    ],
)
def test_card_short_forms(word, code):
    assert card_code(fold(word)) == code


def test_every_language_takes_the_short_forms_and_english_commands():
    for language in ("ro", "fa", "ta", "co"):
        with translation.override(language):
            assert parse("add 5S to 3") == Command("add", cards=("5S",), target=3)
            assert parse("NEW 7♥ 8H 9h") == Command("new", cards=("7H", "8H", "9H"))
            assert parse("read meld ۲") == Command("read_meld", meld=2)


def test_a_card_named_in_the_readers_language():
    with translation.override("ro"):
        assert parse("discard șapte de pică") == Command("discard", cards=("7S",))


def test_fold_keeps_what_is_no_decimal_digit():
    assert fold("²①Ⅶ") == "²①ⅶ"
    assert fold("۱۲۳ ٤٥ ௬") == "123 45 6"
