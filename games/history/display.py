"""Words and card faces for the history pages (translated; unknown codes shown as they are)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.cards import Card

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _suit_names() -> dict[str, str]:
    return {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}


def _rank_text(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


def card_face(ref: str) -> dict[str, Any]:
    """A card to draw from its id (``"8S.0"``, ``"JK=7S.1"``): rank, suit symbol, a spoken label."""
    try:
        card = Card.from_code(ref)
    except Exception:  # an unknown shape is shown as text, never an error page
        return {"id": str(ref), "rank": str(ref), "suit": "", "suit_key": "", "label": str(ref)}
    if card.is_joker:
        face = {"id": card.id, "rank": "★", "suit": "", "suit_key": "joker", "label": _("Joker")}
        if card.declared:
            rank, suit = card.declared
            key = "SHDC"[suit]
            face["as"] = _rank_text(rank) + SUIT_SYMBOLS[key]
            face["label"] = _("Joker as %(rank)s of %(suit)s") % {"rank": _rank_text(rank), "suit": _suit_names()[key]}
        return face
    key = "SHDC"[card.suit]
    return {
        "id": card.id,
        "rank": _rank_text(card.rank),
        "suit": SUIT_SYMBOLS[key],
        "suit_key": key,
        "label": _("%(rank)s of %(suit)s") % {"rank": _rank_text(card.rank), "suit": _suit_names()[key]},
    }


def reason_text(reason: Any) -> str:
    if not isinstance(reason, dict):
        return str(reason)
    code, points = reason.get("code"), reason.get("points", 0)
    texts = {
        "difference": _("difference %(p)s"),
        "differences": _("differences %(p)s"),
        "undercut_bonus": _("undercut bonus %(p)s"),
        "going_out_bonus": _("going-out bonus %(p)s"),
        "gin_bonus": _("gin bonus %(p)s"),
        "big_gin_bonus": _("big gin bonus %(p)s"),
        "deadwood": _("deadwood difference %(p)s"),
    }
    template = texts.get(code)
    if template is None:
        return f"{str(code).replace('_', ' ')} {points}"
    return template % {"p": points}


def result_text(kind: str) -> str:
    return {
        "knock": _("knock"),
        "went_out": _("went out"),
        "stock_exhausted": _("stock exhausted"),
        "gin": _("gin"),
        "big_gin": _("big gin"),
        "undercut": _("undercut"),
        "dead": _("dead hand"),
    }.get(kind or "", (kind or "").replace("_", " "))


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


def option_label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    minutes = int(seconds // 60)
    if minutes < 1:
        return _("under a minute")
    if minutes < 60:
        return ngettext("%(n)d min", "%(n)d min", minutes) % {"n": minutes}
    return _("%(h)d h %(m)02d min") % {"h": minutes // 60, "m": minutes % 60}
