"""Card faces and durations for the history pages (translated; unknown codes shown as they are).

The words of moves, results, reasons and house rules are the table's own: ``games.board.words``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board import faces


def card_face(ref: str) -> dict[str, Any]:
    """A card to draw from its id (``"8S.0"``, ``"JK=7S.1"``); an unknown shape is shown as text."""
    try:
        return faces.card_face(ref)
    except Exception:  # never an error page for an odd stored value
        return {"id": str(ref), "rank": str(ref), "suit": "", "suit_key": "", "label": str(ref)}


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    minutes = int(seconds // 60)
    if minutes < 1:
        return _("under a minute")
    if minutes < 60:
        return ngettext("%(n)d min", "%(n)d min", minutes) % {"n": minutes}
    return _("%(h)d h %(m)02d min") % {"h": minutes // 60, "m": minutes % 60}
