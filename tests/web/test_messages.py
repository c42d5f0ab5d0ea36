"""Engine refusals reach players through the translation catalogue (STYLE.md "Every page")."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import gin, manipulation
from games.engine.errors import IllegalMove
from games.messages import REFUSALS, refusal_text


@pytest.mark.parametrize(("game", "module"), [("manipulation", manipulation), ("gin", gin)])
def test_every_plain_engine_sentence_is_marked_for_translation(game, module):
    plain = {code: text for code, text in module.MESSAGES.items() if "{" not in text}
    assert plain, "the engine has sentences without card details"
    for code, text in plain.items():
        assert REFUSALS.get((game, code)) == text, f"{game}.{code} is missing or differs in games/messages.py"


def test_refusal_goes_through_gettext_and_detailed_sentences_stay(monkeypatch):
    calls = []
    monkeypatch.setattr("games.messages.gettext", lambda s: calls.append(s) or f"[{s}]")
    plain = IllegalMove("not_your_turn", manipulation.MESSAGES["not_your_turn"])
    assert refusal_text(plain, "manipulation") == f"[{plain.message}]"
    detailed = IllegalMove("invalid_meld", "5♠ 6♠ 7♥: a sequence must be one suit.")
    assert refusal_text(detailed, "manipulation") == detailed.message
    assert calls == [plain.message]


def test_unknown_language_falls_back_to_english():
    with translation.override("ro"):
        error = IllegalMove("must_draw", gin.MESSAGES["must_draw"])
        assert refusal_text(error, "gin") == gin.MESSAGES["must_draw"]
