"""Words and card faces for the history pages (translated; unknown codes shown as they are)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import forms as table_forms
from games import selectors as table_selectors


def card_face(ref: str) -> dict[str, Any]:
    """A card to draw from its id (``"8S.0"``, ``"JK=7S.1"``); an unknown shape is shown as text."""
    try:
        return table_selectors.card_face(ref)
    except Exception:  # never an error page for an odd stored value
        return {"id": str(ref), "rank": str(ref), "suit": "", "suit_key": "", "label": str(ref)}


def reason_text(reason: Any) -> str:
    if not isinstance(reason, dict):
        return str(reason)
    return table_selectors.reason_text(reason)


result_text = table_selectors.result_text


def event_text(summary: dict[str, Any] | None, action: dict[str, Any] | None, name: str) -> str:
    """One line for a replay step: what this seat did."""
    summary = summary or {}
    code = summary.get("code") or (action or {}).get("type", "")
    if code == "draw":
        return _("%(name)s drew a card.") % {"name": name}
    if code == "meld":
        n = summary.get("cards", 0)
        text = ngettext("%(name)s melded %(n)d card", "%(name)s melded %(n)d cards", n) % {"name": name, "n": n}
        if summary.get("rearranged"):
            k = summary["rearranged"]
            text += ngettext(", rearranging %(k)d meld", ", rearranging %(k)d melds", k) % {"k": k}
        if summary.get("went_out"):
            text += " — " + _("and went out!")
        return text + "."
    if code == "knock":
        return _("%(name)s knocked.") % {"name": name}
    if code == "end_turn":
        return _("%(name)s ended the turn.") % {"name": name}
    card = summary.get("card") or (action or {}).get("card")
    face = card_face(card)["label"] if isinstance(card, str) else ""
    if code == "discard":
        if face:
            return _("%(name)s discarded the %(card)s.") % {"name": name, "card": face}
        return _("%(name)s discarded.") % {"name": name}
    if code in ("take_upcard", "draw_discard"):
        if face:
            return _("%(name)s took the %(card)s from the discard pile.") % {"name": name, "card": face}
        return _("%(name)s took the top discard.") % {"name": name}
    if code == "draw_stock":
        return _("%(name)s drew from the stock.") % {"name": name}
    if code in ("pass_upcard", "pass"):
        return _("%(name)s passed.") % {"name": name}
    if code == "suggest":
        return _("%(name)s gave advice.") % {"name": name}
    return _("%(name)s: %(action)s") % {"name": name, "action": str(code).replace("_", " ")}


def options_text(variant: str, options: dict[str, Any]) -> list[tuple[str, Any]]:
    """A match's house rules as (label, value) in the reader's language, in the lobby form's order.

    The labels and choice names are the new-table form's own (games/forms.py); an option
    the form does not know is shown by its key.
    """
    gin = variant in table_forms.GIN_VARIANTS
    labels = table_forms.GIN_OPTION_LABELS if gin else table_forms.MANIPULATION_OPTION_LABELS
    order = list(labels)
    keys = sorted(options, key=lambda k: (order.index(k) if k in order else len(order), k))
    return [(_option_label(labels, k), _option_value(gin, k, options[k])) for k in keys]


def _option_label(labels: dict[str, tuple[Any, ...]], key: str) -> str:
    if key in labels:
        return str(labels[key][0])
    return key.replace("_", " ").capitalize()


def _option_value(gin: bool, key: str, value: Any) -> Any:
    if value is None:
        return "—"
    if gin and key in table_forms.GIN_CHOICES:
        if isinstance(value, bool):  # end_bonuses: stored as a bool, chosen as on/off
            value = "on" if value else "off"
        return str(dict(table_forms.GIN_CHOICES[key]).get(value, value))
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        return str(table_forms.CHOICE_LABELS.get(value, value))
    return value


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    minutes = int(seconds // 60)
    if minutes < 1:
        return _("under a minute")
    if minutes < 60:
        return ngettext("%(n)d min", "%(n)d min", minutes) % {"n": minutes}
    return _("%(h)d h %(m)02d min") % {"h": minutes // 60, "m": minutes % 60}
