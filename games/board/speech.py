"""Cards, melds and hands said in the reader's language, for a screen reader: a run is "seven, eight,
nine of hearts", a set "seven of hearts, spades, clubs", a hand its suits one clause each.  The words
are whole msgids (the ranks alone, the suits after "of"), marked for translators."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games.board import kept, lists
from games.board.faces import card_words
from games.board.kept import Kept
from games.engine.cards import Card


def rank_word(rank: int) -> str:
    """A rank said alone, as in "seven, eight, nine of hearts"."""
    return _words()[0][rank]


def suit_word(suit: int) -> str:
    """A suit said after a list of ranks ("… of hearts")."""
    return _words()[1][suit]


_WORDS: dict[str | None, tuple[tuple[str, ...], tuple[str, ...]]] = kept.forgettable({})


def _words() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ranks and suits said alone, in the current language: looked up once per language (a board
    says every hand's cards at every version; 13 lookups per rank said were most of a board's CPU)."""
    language = get_language()
    words = _WORDS.get(language)
    if words is None:
        # Translators: a card's rank said alone, in a list of ranks of one suit ("seven, eight, nine of hearts").
        ranks = (
            "",
            pgettext("card rank alone", "ace"),
            pgettext("card rank alone", "two"),
            pgettext("card rank alone", "three"),
            pgettext("card rank alone", "four"),
            pgettext("card rank alone", "five"),
            pgettext("card rank alone", "six"),
            pgettext("card rank alone", "seven"),
            pgettext("card rank alone", "eight"),
            pgettext("card rank alone", "nine"),
            pgettext("card rank alone", "ten"),
            pgettext("card rank alone", "jack"),
            pgettext("card rank alone", "queen"),
            pgettext("card rank alone", "king"),
        )
        # Translators: a suit said after a list of ranks or in a list of suits ("seven, eight, nine of hearts").
        suits = (
            pgettext("suit after ranks", "spades"),
            pgettext("suit after ranks", "hearts"),
            pgettext("suit after ranks", "diamonds"),
            pgettext("suit after ranks", "clubs"),
        )
        words = _WORDS[language] = (ranks, suits)
    return words


def card_name(ref: str) -> str:
    """One card whole ("seven of hearts", "joker as six of spades", "joker"); "" is a card face down."""
    if not ref:
        return _("a card from the player’s hand")
    card = Card.from_code(ref)
    if not card.is_joker:
        return card_words(card.rank, card.suit)
    if card.declared:
        return _("joker as %(card)s") % {"card": card_words(*card.declared)}
    return _("joker")


def _rank_of(card: Card) -> int:
    return card.declared[0] if card.is_joker and card.declared else card.rank


def meld_words(refs: Sequence[str]) -> str:
    """A meld said as a player would: a run "seven, eight, nine of hearts" (a joker "joker for eight"
    where it stands), a set "seven of hearts, spades, clubs", anything else its cards one by one."""
    if not refs or "" in refs:
        return lists.items(card_name(r) for r in refs)
    cards = [Card.from_code(r) for r in refs]
    natural = [c for c in cards if not c.is_joker]
    bare = any(c.is_joker and not c.declared for c in cards)
    if natural and not bare:
        suits = {c.suit for c in natural} | {c.declared[1] for c in cards if c.is_joker}
        ranks = [_rank_of(c) for c in cards]
        if len(suits) == 1 and len(set(ranks)) == len(ranks):
            words = [
                # Translators: a joker inside a run, said where it stands ("seven, joker for eight, nine of hearts").
                _("joker for %(rank)s") % {"rank": rank_word(_rank_of(c))} if c.is_joker else rank_word(c.rank)
                for c in sorted(cards, key=_rank_of)
            ]
            # Translators: a run: its ranks, then its suit ("seven, eight, nine of hearts").
            return _("%(ranks)s of %(suit)s") % {"ranks": lists.items(words), "suit": suit_word(suits.pop())}
        if len(set(ranks)) == 1 and len(ranks) == len(
            {(_rank_of(c), c.suit if not c.is_joker else c.declared[1]) for c in cards}
        ):
            words = [
                _("joker for %(suit)s") % {"suit": suit_word(c.declared[1])} if c.is_joker else suit_word(c.suit)
                for c in cards
            ]
            # Translators: a set: its rank, then its suits ("seven of hearts, spades, clubs").
            return _("%(rank)s of %(suits)s") % {"rank": rank_word(ranks[0]), "suits": lists.items(words)}
    return lists.items(card_name(r) for r in refs)


_HANDS = Kept(4096)


def hand_words(refs: Iterable[str]) -> str:
    """A hand by suit, one clause each ("two, seven of spades; king of hearts; joker").

    Kept by the hand and language: every seat's hand is said at every version, and most did not change."""
    refs = tuple(refs)
    key = (get_language(), refs)
    said = _HANDS.get(key)
    if said is None:
        said = _hand_words(refs)
        _HANDS.put(key, said)
    return said


def _hand_words(refs: tuple[str, ...]) -> str:
    cards = [Card.from_code(r) for r in refs]
    rank_words, suit_words = _words()
    # The language's words looked up once for the hand's suits, not once a suit (each lookup asks
    # asgiref's Local for the language: the mover's hand is said anew at every draw).
    of_suit, separator = _("%(ranks)s of %(suit)s"), lists.separator()
    clauses = []
    for suit in range(4):
        ranks = sorted(c.rank for c in cards if not c.is_joker and c.suit == suit)
        if ranks:
            clauses.append(of_suit % {"ranks": separator.join(rank_words[r] for r in ranks), "suit": suit_words[suit]})
    clauses.extend(card_name(c.code) for c in cards if c.is_joker)
    return lists.clauses(clauses)


def numbered_melds(melds: Sequence[Sequence[str]]) -> list[str]:
    """Each meld as "Meld 3: seven, eight, nine of hearts"."""
    return [_("Meld %(n)d: %(cards)s") % {"n": i + 1, "cards": meld_words(m)} for i, m in enumerate(melds)]
