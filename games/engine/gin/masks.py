"""Gin cards as ints and hands as bitmasks: a card is its index 0–51 (``suit * 13 + rank - 1``, the
same as :attr:`Card.index`), a hand an int with those bits set.  At the boundary cards are physical ids
(``"8S.0"``); codes (``"8S"``) and :class:`Card` objects are accepted wherever cards are taken."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import RANKS, SUITS, Card, pretty_value
from ..errors import IllegalMove, InvalidAction
from ..text import GIN_MESSAGES

M13 = (1 << 13) - 1
FULL_DECK = (1 << 52) - 1
VALUES = tuple(min(i % 13 + 1, 10) for i in range(52))  # RULES C.1.1: A=1, 2..10, J/Q/K=10
CODES = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
IDS = tuple(c + ".0" for c in CODES)

# points of one suit's 13-bit slice of a hand mask
SUIT_POINTS = tuple(sum(min(b + 1, 10) for b in range(13) if (p >> b) & 1) for p in range(1 << 13))

_LOOKUP: dict[Any, int] = {}
for _i in range(52):
    _LOOKUP[CODES[_i]] = _i
    _LOOKUP[IDS[_i]] = _i
    _LOOKUP[Card(_i % 13 + 1, _i // 13, 0)] = _i


def card_index(card: Any) -> int:
    """0–51 for a code (``"8S"``), id (``"8S.0"``), :class:`Card` or int; InvalidAction otherwise."""
    if isinstance(card, bool):
        raise InvalidAction(f"{card!r} is not a card.", code="bad_card")
    if isinstance(card, int):
        if 0 <= card < 52:
            return card
        raise InvalidAction(f"{card!r} is not a card index.", code="bad_card")
    try:
        return _LOOKUP[card]
    except (KeyError, TypeError):
        pass
    c = Card.from_code(card) if not isinstance(card, Card) else card
    if c.is_joker or c.deck != 0:
        raise InvalidAction(f"{card!r} is not a card of the single Gin pack.", code="bad_card")
    return c.index


def card_items(hand: Any) -> list:
    if isinstance(hand, str):
        return hand.replace(",", " ").split()
    return list(hand)


_BITS: dict[Any, int] = {k: 1 << v for k, v in _LOOKUP.items()}


def hand_mask(hand: Any) -> int:
    """The bitmask of a hand given as codes/ids/Cards (or a space-separated string, or an int mask)."""
    if isinstance(hand, int) and not isinstance(hand, bool):
        if hand < 0 or hand > FULL_DECK:
            raise InvalidAction("A hand mask must be a 52-bit non-negative int.", code="bad_card")
        return hand
    if isinstance(hand, str):
        hand = hand.replace(",", " ").split()
    elif not isinstance(hand, (list, tuple)):
        hand = list(hand)
    try:
        bits = [_BITS[c] for c in hand]
    except (KeyError, TypeError):
        bits = None
    if bits is not None:
        mask = sum(bits)
        if mask.bit_count() == len(bits):
            return mask
    mask = 0
    for c in hand:
        b = 1 << card_index(c)
        if mask & b:
            raise InvalidAction(
                f"{CODES[b.bit_length() - 1]} appears twice; a Gin pack has one of each card.", code="duplicate_card"
            )
        mask |= b
    return mask


def mask_cards(mask: int) -> list[int]:
    """Indices of the set bits, ascending (suit-major: spades A..K, hearts, diamonds, clubs)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_ids(mask: int) -> list[str]:
    return [IDS[i] for i in mask_cards(mask)]


def mask_points(mask: int) -> int:
    return (
        SUIT_POINTS[mask & M13]
        + SUIT_POINTS[(mask >> 13) & M13]
        + SUIT_POINTS[(mask >> 26) & M13]
        + SUIT_POINTS[mask >> 39]
    )


def pretty_cards(cards: Iterable[int]) -> str:
    return " ".join(pretty_value(i % 13 + 1, i // 13) for i in cards)


def illegal(code: str, template: str | None = None, **params: Any) -> IllegalMove:
    """The refusal ``code`` with the template ``GIN_MESSAGES[template or code]``; ``cards`` are card indices."""
    if "cards" in params:
        params["cards"] = [CODES[i] for i in params["cards"]]
    return IllegalMove(code, GIN_MESSAGES[template or code], params or None)
