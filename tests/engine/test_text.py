"""The engine's words live once, in games/engine/text.py: every refusal raised anywhere in the engine
takes its template from one of text's tables, and the card words are the cards' own."""

import ast
import re
from pathlib import Path

import pytest

from games.engine import text
from games.engine.cards import Card, make_deck
from games.engine.errors import IllegalMove

ENGINE = Path(text.__file__).parent
MODULES = sorted(ENGINE.rglob("*.py"))
# the table of the templates each game's modules may name by key
KEYS = {"manipulation": text.MANIPULATION_MESSAGES, "gin": text.GIN_MESSAGES}
TABLES = ("MANIPULATION_MESSAGES", "GIN_MESSAGES", "MELD_MESSAGES", "MESSAGES")


def _calls(tree, names):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            yield node


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_every_refusal_raised_uses_a_template_of_text(path):
    tree = ast.parse(path.read_text())
    where = path.relative_to(ENGINE)
    for call in _calls(tree, ("IllegalMove",)):
        message = call.args[1] if len(call.args) > 1 else None
        assert not isinstance(message, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.Call)), (
            f"{where}:{call.lineno}: IllegalMove with a sentence of its own; add it to games/engine/text.py"
        )
        assert isinstance(message, (ast.Name, ast.Subscript)), f"{where}:{call.lineno}"
        if isinstance(message, ast.Subscript):
            assert ast.unparse(message.value) in TABLES, f"{where}:{call.lineno}"
    game = where.parts[0] if len(where.parts) > 1 else None
    for call in _calls(tree, ("illegal", "_illegal")):
        assert game in KEYS, f"{where}:{call.lineno}: a refusal helper outside a game package"
        for arg in call.args:
            if isinstance(arg, ast.Constant):
                assert arg.value in KEYS[game], f"{where}:{call.lineno}: unknown template key {arg.value!r}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_template_table_outside_text(path):
    if path.name == "text.py":
        return
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                assert not (isinstance(target, ast.Name) and target.id.endswith("MESSAGES")), (path, target.id)


@pytest.mark.parametrize("table", ["MANIPULATION_MESSAGES", "MELD_MESSAGES", "GIN_MESSAGES"])
def test_placeholders_are_cards_or_numbers(table):
    for key, template in getattr(text, table).items():
        for name in re.findall(r"%\((\w+)\)s", template):
            assert name in text.CARD_PARAMS or name in {"points", "limit", "min", "deadwood"}, (table, key, name)


def test_card_words_are_the_cards_own():
    for card in make_deck(2, 2):
        assert text.card_words(card.code) == card.pretty()
        assert text.card_words(card.id) == card.pretty()
    assert [text.card_words(c) for c in ("TS", "JK", "JK=9H", "ah")] == ["10♠", "Joker", "Joker (9♥)", "A♥"]
    assert Card.from_code("JK=QD").pretty() == "Joker (Q♦)"


def test_english_fills_a_template_with_card_words():
    template = text.MANIPULATION_MESSAGES["joker_identity_needed"]
    params = {"cards": ["5S", "JK"], "options": ["4S", "6S"]}
    assert text.english(template, params) == "5♠ Joker: say which card the joker stands for (4♠, 6♠)."
    assert text.english(template, None) == template
    assert IllegalMove("joker_identity_needed", template, params).message == text.english(template, params)
