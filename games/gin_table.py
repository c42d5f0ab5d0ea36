"""The Gin board's context (three-player box game, two-player Gin, Oklahoma, Hollywood).

Built from the engine's per-seat view only; filled in by the Gin tables feature.
"""

from __future__ import annotations

from typing import Any


def gin_context(*, match, view: dict[str, Any], me, state, seats) -> dict[str, Any]:
    return {"gin": view}
