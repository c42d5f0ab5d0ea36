"""The two kinds of refusal the engines raise (STYLE.md, "Engine conventions").

``InvalidAction`` means the request itself is malformed (a bug or a bad client:
unknown action type, a card code that does not parse, a card id that is not
in the game).  ``IllegalMove`` means a well-formed move that the rules forbid;
its ``code`` is stable and machine-readable (tests and clients may switch on it).

A refusal is its ``code``, its English ``template`` (one of :mod:`.text`'s tables,
``%(name)s`` placeholders) and its ``params`` (JSON-safe: ints, and card codes such
as ``"5S"``, ``"JK"``, ``"JK=9H"`` for the names in :data:`CARD_PARAMS`), so the web
layer can say it in the reader's language with its own card faces; ``message`` is
the English sentence (:func:`.text.english`).
"""

from __future__ import annotations

from typing import Any

from .text import CARD_PARAMS, english

__all__ = ["CARD_PARAMS", "IllegalMove", "InvalidAction", "RulesError"]  # CARD_PARAMS: part of the params contract


class RulesError(Exception):
    """Base class of every refusal raised by the engines."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        self.template = message
        self.params = params
        message = english(message, params)
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
