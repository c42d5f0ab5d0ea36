"""Players' words for the engines' refusals, through Django's translations.

The engine speaks English: every refusal has a stable ``code``, an English
``template`` (``%(name)s`` placeholders) and JSON-safe ``params`` — numbers,
and card codes (``"5S"``, ``"JK=9H"``) for the names in
:data:`games.engine.errors.CARD_PARAMS`.  The templates are the engine's own
tables (``games/engine/text.py``, marked for the catalogue with ``N_``); :func:`refusal_text` says
the refusal in the reader's language and writes its cards as the site's card faces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from games.board import lists
from games.board.bidi import isolate
from games.board.faces import card_face
from games.engine import text
from games.engine.errors import CARD_PARAMS, RulesError

# (table, key) -> English template: the engine's own tables (games/engine/text.py), the only copy.
# Their templates are marked there with ``N_`` for the catalogue; a Manipulation meld that is not
# valid is refused with one of MELD_MESSAGES.
_ENGINE_TABLES = {"manipulation": text.MANIPULATION_MESSAGES, "melds": text.MELD_MESSAGES, "gin": text.GIN_MESSAGES}
REFUSALS = {
    (table, key): template for table, templates in _ENGINE_TABLES.items() for key, template in templates.items()
}

# The templates each game's refusals may carry.
_TABLES = {"manipulation": ("manipulation", "melds"), "gin": ("gin",)}
_KNOWN = {game: {text for (t, _key), text in REFUSALS.items() if t in tables} for game, tables in _TABLES.items()}


def card_text(code: str) -> str:
    """One card as the site draws it, in the reader's language: ``"10♠"``, ``"Joker"``, ``"Joker (9♥)"``."""
    face = card_face(code)
    if not face["joker"]:
        return face["rank"] + face["suit"]
    if face.get("as"):
        return gettext("Joker (%(card)s)") % {"card": face["as"]}
    return face["label"]


def _reader_params(params: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(params)
    for key, sep in CARD_PARAMS.items():
        if key in out:
            codes = [out[key]] if isinstance(out[key], str) else out[key]
            texts = [card_text(code) for code in codes]
            # A list of choices ("9♥, 9♦") takes the language's separator (Persian «،»); a meld's cards a space.
            out[key] = isolate(lists.items(texts) if sep.strip() else sep.join(texts))
    return out


def _translated(template: str, params: Mapping[str, Any] | None) -> str:
    """``template`` in the reader's language; a template with a count (``text.PLURALS``) in the count's form."""
    if params is not None and template in text.PLURALS:
        singular, plural, count = text.PLURALS[template]
        n = params.get(count)
        if isinstance(n, int):
            return ngettext(singular, plural, n)
    return gettext(template)


def refusal_text(error: RulesError | Mapping[str, Any], game: str) -> str:
    """The refusal in the reader's language, else the engine's English sentence.

    ``error`` is a :class:`RulesError` or its ``to_dict()`` (also a meld report of
    ``check_table``, whose sentence is under ``"reason"``).
    """
    if isinstance(error, RulesError):
        message, template, params = error.message, error.template, error.params
    else:
        message = error.get("message") or error.get("reason") or ""
        template, params = error.get("template") or message, error.get("params")
    if template not in _KNOWN.get(game, ()):
        return message
    if params is None:
        return gettext(template)
    try:
        return _translated(template, params) % _reader_params(params)
    except (KeyError, TypeError, ValueError, RulesError):  # a broken translation or an odd stored value
        return message
