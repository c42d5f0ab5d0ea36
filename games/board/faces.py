"""Card faces: what a template needs to draw a card, in the viewer's language.

The one place that turns a card id (``"8S.0"``, ``"JK=7S.1"``) into its rank, suit and spoken
name, and the one place that writes a card's markup (:func:`card_html`, in templates the
``{% card %}`` tag of ``games.templatetags.cards``); the table boards, the Gin board, the round-end
tables, the replays and the refusal texts all draw cards through it.  No database, no state: a
card's face depends on its id and the language only.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.board import kept
from games.engine.cards import Card, sort_by_suit
from games.engine.text import CARD_NAMES

SUIT_LABELS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_face(ref: str, *, hidden: bool = False) -> dict[str, Any]:
    """What a template needs to draw one card from its id (``"8S.0"``, ``"JK=7S.1"``)."""
    if hidden:
        return {"hidden": True, "id": "", "ref": "", "label": _("a card from the player’s hand")}
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


# (card id, its options, language) -> its ``<li>``: a board draws up to a hundred cards per viewer
# per push, and the markup of one card with one set of options in one language never changes.
_CARD_HTML: dict[tuple[Any, ...], SafeString] = kept.forgettable({})
_CARD_HTML_MAX = 20_000  # card ids (jokers with each declaration) × options × languages: a few thousand


def card_html(
    ref: str = "",
    *,
    label: str = "",
    meld: int | None = None,
    suggested: bool = False,
    laid: bool = False,
    added: bool = False,
    source: str = "",
    pressable: bool = False,
    picture: bool = False,
    on_table: bool = False,
    mark: Any = None,
    language: str | None = None,
) -> SafeString:
    """The one markup of a card: its ``<li class="card ...">`` for a ``cards-row`` list.

    ``ref`` is the card's id (``"8S.0"``, ``"JK=7S.1"``); ``""`` draws a face-down card (``label``:
    what it is, by default a card of a player's hand).  A face-up card is a button (``.card-face``)
    named by its words, with ``data-id`` and ``data-ref`` for the scripts; ``pressable`` makes it a
    toggle (``aria-pressed``: picked for a move with the keyboard or a tap), ``source`` a card the
    Gin board draws from (``data-source``, ``gin-draggable``).  ``meld`` (the Gin hand's meld
    number), ``suggested`` (by the advisor), ``laid`` (laid off) and ``added`` (by a replay's step)
    mark it; ``on_table`` a Manipulation card that lay on the table when the step began
    (``data-on-table``: the page never lets it go back to a hand, RULES B.5.2 M2).  A ``picture`` is only shown (a round's result, a replay, the draw for roles): an
    image with no ids, never taken for a card in play.  ``mark`` (a Manipulation card a player's last
    move laid or moved: ``kind``, ``seat``, ``seq``) marks it until the viewer's next move (js/manipulation.js).
    Kept once per language (``language``: the current one, when the caller has it already).
    """
    key = (
        ref,
        label,
        meld,
        bool(suggested),
        bool(laid),
        bool(added),
        source,
        bool(pressable),
        bool(picture),
        bool(on_table),
        (mark.kind, mark.seat, mark.seq) if mark else None,
        language or get_language(),
    )
    html = _CARD_HTML.get(key)
    if html is None:
        html = card_html_for(
            card_face(ref, hidden=not ref),
            label=label,
            meld=meld,
            suggested=suggested,
            laid=laid,
            added=added,
            source=source,
            pressable=pressable,
            picture=picture,
            on_table=on_table,
            mark=mark,
        )
        if len(_CARD_HTML) < _CARD_HTML_MAX:
            _CARD_HTML[key] = html
    return html


def card_html_for(
    face: dict[str, Any],
    *,
    label: str = "",
    meld: int | None = None,
    suggested: bool = False,
    laid: bool = False,
    added: bool = False,
    source: str = "",
    pressable: bool = False,
    picture: bool = False,
    on_table: bool = False,
    mark: Any = None,
) -> SafeString:
    """:func:`card_html` from a face already made (:func:`card_face`, or a stored value shown as text)."""
    hidden = face.get("hidden", False)
    classes = ["card", "card-back" if hidden else "suit-" + face.get("suit_key", "")]
    if meld is not None:
        classes.append(f"gin-in-meld gin-meld-{int(meld)}")
    name = [label or face.get("label", "")]
    if suggested:
        classes.append("gin-suggested")
        name.append(_("suggested by the advisor"))
    if laid:
        classes.append("gin-laid-off")
        name.append(_("laid off"))
    if added:
        classes.append("added")
        name.append(_("added"))
    if source:
        classes.append("gin-draggable")
    attrs = ""
    if not hidden and not picture:
        attrs += f' data-id="{escape(face.get("id", ""))}" data-ref="{escape(face.get("ref", ""))}"'
    if source:
        attrs += f' data-source="{escape(source)}"'
    if on_table and not hidden and not picture:
        attrs += ' data-on-table="true"'
    if mark is not None:
        classes.append(f"card-{escape(mark.kind)}")
        attrs += f' data-mark="{escape(mark.kind)}" data-mark-seat="{int(mark.seat)}" data-mark-seq="{int(mark.seq)}"'
    aria_label = escape(" — ".join(name))
    if hidden:
        inner = f'<span class="card-face" role="img" aria-label="{aria_label}"></span>'
    else:
        shown = f'<span class="rank">{escape(face.get("rank", ""))}</span><span class="suit" aria-hidden="true">{escape(face.get("suit", ""))}</span>'
        if face.get("as"):
            shown += f'<span class="as suit-{escape(face.get("as_suit", ""))}">{escape(face["as"])}</span>'
        if picture:
            inner = f'<span class="card-face" role="img" aria-label="{aria_label}">{shown}</span>'
        else:
            pressed = ' aria-pressed="false"' if pressable else ""
            inner = (
                f'<button type="button" class="card-face" aria-label="{button_name(face, name)}"{pressed}>'
                f"{shown}</button>"
            )
    return mark_safe(f'<li class="{escape(" ".join(classes))}"{attrs}>{inner}</li>')  # every value escaped


def button_name(face: dict[str, Any], name: list[str]) -> str:
    """A card button's accessible name: the rank it shows first ("8", "Q", a joker's "7" it stands
    for), then its words, so that the name holds the visible text (WCAG 2.5.3, label in name: a
    speech user says what they see)."""
    shown = face["as"][:-1] if face.get("as") else face.get("rank", "")
    words = " — ".join(name)
    if not shown or shown == "★":
        return escape(words)
    # Translators: a card button's accessible name: the rank it shows ("8", "Q"), then its words.
    return escape(_("%(shown)s, %(words)s") % {"shown": shown, "words": words})


def cards_html(refs: list[str], on_table: Collection[str] = ()) -> SafeString:
    """The cards of a meld or a hand one may pick and drag ("" = face down), joined; those whose id
    is in ``on_table`` lay on the table when the step began (:func:`card_html`)."""
    return mark_safe("".join(card_items(refs, on_table)))  # each piece escaped


def card_items(refs: list[str], on_table: Collection[str] = ()) -> list[SafeString]:
    """:func:`cards_html`'s cards one by one (the language looked up once for them all: a hand that
    changed is drawn again whole, and most of its cards were drawn before)."""
    language = get_language()
    return [
        card_html(ref, pressable=True, on_table=bool(ref) and Card.from_code(ref).id in on_table, language=language)
        for ref in refs
    ]


def joker_option(code: str) -> dict[str, str]:
    card = Card.from_code(code)
    return {
        "code": code,
        "label": rank_text(card.rank) + SUIT_LABELS["SHDC"[card.suit]],
        "words": card_words(card.rank, card.suit),
    }


def rank_text(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


def card_words(rank: int, suit: int) -> str:
    """A card's name in the reader's language, whole ("seven of spades": games/engine/text.py)."""
    return _(CARD_NAMES[rank_code(rank) + "SHDC"[suit]])


def rank_code(rank: int) -> str:
    return {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


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
