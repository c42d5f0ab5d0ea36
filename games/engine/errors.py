"""The two kinds of refusal the engines raise (STYLE.md, "Engine conventions").

``InvalidAction`` means the request itself is malformed (a bug or a bad client:
unknown action type, a card code that does not parse, a card id that is not
in the game).  ``IllegalMove`` means a well-formed move that the rules forbid;
its ``message`` is a sentence shown to the player and its ``code`` is stable and
machine-readable (tests and clients may switch on it).
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every refusal raised by the engines."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.message

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class InvalidAction(RulesError):
    """The action is malformed: it could never be legal in any state."""

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(code, message)


class IllegalMove(RulesError):
    """The action is well formed but the rules forbid it now."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
