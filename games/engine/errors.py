"""The two kinds of refusal the engines raise (STYLE.md, "Engine conventions").

``InvalidAction`` means the request itself is malformed (a bug or a bad client:
unknown action type, a card code that does not parse, a card id that is not
in the game).  ``IllegalMove`` means a well-formed move that the rules forbid;
its ``message`` is a sentence shown to the player and its ``code`` is stable and
machine-readable (tests and clients may switch on it).

A refusal that names cards or numbers keeps its English ``template`` (with
``%(name)s`` placeholders) and its ``params`` (JSON-safe: ints, and card codes
such as ``"5S"``, ``"JK"``, ``"JK=9H"`` for the names in :data:`CARD_PARAMS`), so
the web layer can say it in the reader's language with its own card faces;
``message`` is ``template % params`` in English.
"""

from __future__ import annotations

from typing import Any

# Params that hold card codes (one code, or a list of codes), with the separator between cards.
CARD_PARAMS: dict[str, str] = {"card": " ", "cards": " ", "identity": " ", "options": ", "}


def english_params(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` ready for an English template: card codes written as ``"5♠"``, ``"Joker (9♥)"``."""
    from .cards import Card  # cards imports this module

    out = dict(params)
    for key, sep in CARD_PARAMS.items():
        if key in out:
            value = out[key]
            codes = [value] if isinstance(value, str) else value
            out[key] = sep.join(Card.from_code(code).pretty() for code in codes)
    return out


class RulesError(Exception):
    """Base class of every refusal raised by the engines."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        self.template = message
        self.params = params
        if params is not None:
            message = message % english_params(params)
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.message

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "message"}``, with ``"template"`` and ``"params"`` when the sentence has details."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params is not None:
            out.update(template=self.template, params=self.params)
        return out


class InvalidAction(RulesError):
    """The action is malformed: it could never be legal in any state."""

    def __init__(self, message: str, code: str = "invalid", params: dict[str, Any] | None = None) -> None:
        super().__init__(code, message, params)


class IllegalMove(RulesError):
    """The action is well formed but the rules forbid it now."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(code, message, params)
