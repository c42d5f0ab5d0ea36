"""Cards, decks, codes and point values (RULES B.1, C.1).

A card is written as a *code*: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` followed by
suit ``S H D C`` (``"AS"``, ``"TD"``, ``"QH"``); a joker is ``"JK"``, and a joker
placed in a meld carries its declared card, written ``"JK=9H"``.

With two packs every natural card exists twice; the physical copies are told
apart by a deck index, and the *id* used in HTML and JSON is ``code.deck``
(``"8S.0"``, ``"8S.1"``, ``"JK.0"``, ``"JK.1"``).  Rules look at the value
``(rank, suit)`` (see :attr:`Card.key` / :attr:`Card.effective`); ownership
and the DOM look at the physical id.

Every function that takes cards accepts codes, ids or :class:`Card` objects
(:func:`as_cards`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import InvalidAction
from .text import card_words

RANKS = "A23456789TJQK"
SUITS = "SHDC"

JOKER_RANK = 0
JOKER_SUIT = -1
DEFAULT_JOKER_VALUE = 25

_CODE_RE = re.compile(
    r"^(?:(?P<rank>[A2-9TJQK]|10)(?P<suit>[SHDC])|(?P<joker>JK)(?:=(?P<dr>[A2-9TJQK]|10)(?P<ds>[SHDC]))?)"
    r"(?:\.(?P<deck>\d{1,2}))?$"
)


def rank_from_char(ch: str) -> int:
    """``"A"`` → 1 … ``"K"`` → 13 (``"10"`` is accepted for ``"T"``)."""
    if ch == "10":
        return 10
    i = RANKS.find(ch)
    if i < 0 or len(ch) != 1:
        raise InvalidAction(f"Unknown rank {ch!r}.", code="bad_card")
    return i + 1


def suit_from_char(ch: str) -> int:
    i = SUITS.find(ch)
    if i < 0 or len(ch) != 1:
        raise InvalidAction(f"Unknown suit {ch!r}.", code="bad_card")
    return i


def value_code(rank: int, suit: int) -> str:
    """The code of a natural card value, e.g. ``(9, 1)`` → ``"9H"``."""
    return RANKS[rank - 1] + SUITS[suit]


def value_points(rank: int) -> int:
    """Hand-count value of a natural rank: ace 1, 2–10 face, J/Q/K 10 (B.1.3, C.1.1)."""
    return rank if rank < 10 else 10


_PARSED: dict[str | tuple[str, int], Card] = {}
_PARSED_MAX = 8192  # codes that parse are few (deck indices are small); the bound stops hostile input growing it


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card.

    ``rank`` is 1 (ace) … 13 (king), ``suit`` 0–3 for ``S H D C``; a joker has
    ``rank == 0`` and ``suit == -1``.  ``deck`` tells the physical copies apart.
    ``declared`` is a joker's declared identity ``(rank, suit)`` while it lies in
    a meld on the table, ``None`` otherwise (always ``None`` for natural cards).
    """

    rank: int
    suit: int
    deck: int = 0
    declared: tuple[int, int] | None = None
    # The physical id used in HTML/JSON: ``"8S.0"``, ``"JK.1"`` (never the declaration).  Worked out once,
    # when the card is made: a move's state is written and its views drawn by the ids of every card
    # (~250 reads a move at a four-seat table).  Not part of the card's value (equality, order, hash).
    id: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        base = "JK" if self.rank == JOKER_RANK else value_code(self.rank, self.suit)
        object.__setattr__(self, "id", f"{base}.{self.deck}")

    # ----- construction -------------------------------------------------
    @classmethod
    def from_code(cls, code: str, deck: int | None = None) -> Card:
        """Parse ``"8S"``, ``"JK"``, ``"JK=9H"``, or an id ``"8S.1"`` / ``"JK=9H.0"``."""
        if not isinstance(code, str):
            if isinstance(code, Card):
                return code
            raise InvalidAction(f"A card must be a code string, not {type(code).__name__}.", code="bad_card")
        # Cards are immutable and a game only ever names a few hundred codes: parse each once (a state is
        # read card by card at every move; a code without a deck of its own is kept by the code alone).
        key = code if deck is None else (code, deck)
        known = _PARSED.get(key)
        if known is not None:
            return known
        card = cls._parse(code, deck)
        if len(_PARSED) < _PARSED_MAX:
            _PARSED[key] = card
        return card

    @classmethod
    def _parse(cls, code: str, deck: int | None) -> Card:
        text = code.strip().upper()
        m = _CODE_RE.match(text)
        if not m:
            raise InvalidAction(f"{code!r} is not a card code.", code="bad_card")
        d = int(m.group("deck")) if m.group("deck") is not None else (deck or 0)
        if m.group("joker"):
            declared = None
            if m.group("dr"):
                declared = (rank_from_char(m.group("dr")), suit_from_char(m.group("ds")))
            return cls(JOKER_RANK, JOKER_SUIT, d, declared)
        return cls(rank_from_char(m.group("rank")), suit_from_char(m.group("suit")), d)

    @classmethod
    def joker(cls, deck: int = 0, declared: tuple[int, int] | None = None) -> Card:
        return cls(JOKER_RANK, JOKER_SUIT, deck, declared)

    # ----- formatting ---------------------------------------------------
    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def code(self) -> str:
        """``"8S"``, ``"JK"`` or ``"JK=9H"`` (no deck index)."""
        if self.is_joker:
            if self.declared is None:
                return "JK"
            return "JK=" + value_code(*self.declared)
        return value_code(self.rank, self.suit)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r}.{self.deck})"

    def pretty(self) -> str:
        """Human text with a suit symbol: ``"9♥"``, ``"10♠"``, ``"Joker"``, ``"Joker (9♥)"``."""
        return card_words(self.code)

    # ----- values -------------------------------------------------------
    @property
    def key(self) -> tuple[int, int]:
        """The value ``(rank, suit)`` of a natural card; ``(0, -1)`` for any joker."""
        return (self.rank, self.suit)

    @property
    def effective(self) -> tuple[int, int] | None:
        """Effective identity on the table (B.2.1): own value, or the joker's declaration."""
        if self.is_joker:
            return self.declared
        return (self.rank, self.suit)

    @property
    def index(self) -> int:
        """0–51 for natural cards (``suit * 13 + rank - 1``), 52 for a joker."""
        if self.is_joker:
            return 52
        return self.suit * 13 + self.rank - 1

    def points(self, joker_value: int = DEFAULT_JOKER_VALUE) -> int:
        """Hand-count value (B.1.3): joker 25 (an option), K/Q/J 10, face value, ace 1."""
        if self.is_joker:
            return joker_value
        return value_points(self.rank)

    def declare(self, rank: int, suit: int) -> Card:
        """This joker with a declared identity (jokers only)."""
        if not self.is_joker:
            raise InvalidAction(f"{self.code} is not a joker and cannot be declared.", code="not_joker")
        return Card(JOKER_RANK, JOKER_SUIT, self.deck, (rank, suit))

    def undeclared(self) -> Card:
        """The physical card without any declaration (as it is in a hand)."""
        if self.declared is None:
            return self
        return Card(self.rank, self.suit, self.deck, None)

    def same_physical(self, other: Card) -> bool:
        return self.rank == other.rank and self.suit == other.suit and self.deck == other.deck


def pretty_value(rank: int, suit: int) -> str:
    """A natural card value in words: ``(10, 0)`` → ``"10♠"``."""
    return card_words(value_code(rank, suit))


def parse_cards(cards: str | Iterable[str | Card]) -> list[Card]:
    """Parse ``"AS TD JK"`` (or a list of codes/ids/Cards) into a list of :class:`Card`.

    A code without a deck index that repeats gets the next free deck index
    (``"8S 8S"`` → ``8S.0``, ``8S.1``; ``"JK JK"`` → ``JK.0``, ``JK.1``) so the
    result is a list of distinct physical cards as in a two-deck game.  Explicit
    ids (``"8S.1"``) are kept as given.
    """
    if isinstance(cards, str):
        items: list[str | Card] = [c for c in re.split(r"[\s,]+", cards.strip()) if c]
    else:
        items = list(cards)
    out: list[Card] = []
    explicit: set[tuple[int, int, int]] = set()
    pending: list[tuple[int, Card]] = []
    for i, item in enumerate(items):
        card = Card.from_code(item) if not isinstance(item, Card) else item
        out.append(card)
        if isinstance(item, Card) or "." in str(item):
            explicit.add((card.rank, card.suit, card.deck))
        else:
            pending.append((i, card))
    used = set(explicit)
    for i, card in pending:
        d = 0
        while (card.rank, card.suit, d) in used:
            d += 1
        used.add((card.rank, card.suit, d))
        out[i] = Card(card.rank, card.suit, d, card.declared)
    return out


def as_cards(cards: str | Iterable[str | Card]) -> list[Card]:
    """Normalise any accepted card input to a list of :class:`Card` (alias of parse_cards)."""
    return parse_cards(cards)


def make_deck(packs: int = 1, jokers: int = 0) -> list[Card]:
    """An ordered deck: ``packs`` standard 52-card packs and ``jokers`` jokers.

    Natural cards of pack *p* have deck index *p*; jokers are ``JK.0``, ``JK.1``…
    """
    deck = [Card(rank, suit, p) for p in range(packs) for suit in range(4) for rank in range(1, 14)]
    deck.extend(Card.joker(j) for j in range(jokers))
    return deck


def hand_points(cards: Iterable[Card], joker_value: int = DEFAULT_JOKER_VALUE) -> int:
    """Sum of hand-count values (B.1.3): :meth:`Card.points` of each card, with one call a card, not two
    (every view of a seat counts its hand)."""
    return sum(joker_value if c.rank == JOKER_RANK else value_points(c.rank) for c in cards)


def sort_by_suit(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (c.is_joker, c.suit, c.rank, c.deck))


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (c.is_joker, c.rank, c.suit, c.deck))
