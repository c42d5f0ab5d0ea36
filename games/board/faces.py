"""Card faces: what a template needs to draw a card, in the viewer's language.

The one place that turns a card id (``"8S.0"``, ``"JK=7S.1"``) into its rank, suit and spoken
name; the table boards, the Gin board, the refusal texts and the history pages all draw cards
through it.  No database, no state: a card's face depends on its id and the language only.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine.cards import Card, sort_by_suit
from games.engine.text import RANK_NAMES, SUIT_NAMES

SUIT_LABELS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_face(ref: str, *, hidden: bool = False) -> dict[str, Any]:
    """What a template needs to draw one card from its id (``"8S.0"``, ``"JK=7S.1"``)."""
    if hidden:
        return {"hidden": True, "id": "", "ref": "", "label": _("a card from the player's hand")}
    card = Card.from_code(ref)
    face: dict[str, Any] = {"hidden": False, "ref": ref, "id": card.id, "joker": card.is_joker}
    if card.is_joker:
        face.update(rank="★", suit="", suit_key="joker", label=_("Joker"))
        if card.declared:
            rank, suit = card.declared
            face["as"] = rank_text(rank) + SUIT_LABELS["SHDC"[suit]]
            face["as_suit"] = "SHDC"[suit]
            face["label"] = _("Joker as %(card)s") % {"card": card_words(rank, suit)}
        return face
    face.update(
        rank=rank_text(card.rank),
        suit=SUIT_LABELS["SHDC"[card.suit]],
        suit_key="SHDC"[card.suit],
        label=card_words(card.rank, card.suit),
        points=card.points(),
    )
    return face


_CARD_HTML: dict[tuple[str, bool, str | None], str] = {}
_CARD_HTML_MAX = 20_000  # (card id or joker declaration) × language: a few thousand at most


def cards_html(refs: list[str]) -> SafeString:
    """The ``card`` partial for each ref ("" = face down), joined; each card is rendered once per language.

    A board draws up to a hundred cards per viewer per push; the markup of one card in one
    language never changes, so it is kept instead of re-running the template every time.
    """
    lang = get_language()
    out = []
    for ref in refs:
        key = (ref, not ref, lang)
        html = _CARD_HTML.get(key)
        if html is None:
            html = render_to_string("games/table.html#card", {"c": card_face(ref, hidden=not ref)})
            if len(_CARD_HTML) < _CARD_HTML_MAX:
                _CARD_HTML[key] = html
        out.append(html)
    return mark_safe("".join(out))  # each piece is the autoescaped partial


def joker_option(code: str) -> dict[str, str]:
    card = Card.from_code(code)
    return {"code": code, "label": rank_text(card.rank) + SUIT_LABELS["SHDC"[card.suit]],
            "words": card_words(card.rank, card.suit)}


def rank_text(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


def card_words(rank: int, suit: int) -> str:
    return _("%(rank)s of %(suit)s") % {"rank": _(RANK_NAMES[rank]), "suit": _(SUIT_NAMES["SHDC"[suit]])}


def sorted_hand(hand: list[str], order: list[str]) -> list[str]:
    if not order:
        return [c.id for c in sort_by_suit(Card.from_code(cid) for cid in hand)]
    pos = {cid: i for i, cid in enumerate(order)}
    return sorted(hand, key=lambda cid: (pos.get(cid, len(pos)), hand.index(cid)))


def card_text(ref: str | None) -> str:
    if not ref:
        return ""
    face = card_face(ref)
    return face.get("rank", "") + face.get("suit", "")
