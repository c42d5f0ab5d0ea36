"""The words of the command line, in the reader's language and always in English too.

Every command is one msgid of aliases separated by ``|`` (a translator gives as many local words as
players may type: "trage|t"); the English ones are accepted in every language, so a player who
learnt them keeps them.  Card short forms (``7H``, ``10S``, ``QC``, ``JK``, ``7♥``) are accepted in
every language; a language may add its own rank and suit letters.  Words are compared casefolded.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from django.utils import translation
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy

from games.engine.text import CARD_NAMES

# command -> its aliases (``|`` between them).  The first English alias is the one the help names.
COMMANDS = {
    # Translators: typed commands at the table (aliases separated by "|", no spaces around "|"; a
    # player may type any of them, and the English ones always work). Give the words your players
    # would type. This one: say what the commands are.
    "help": pgettext_lazy("typed command", "help|?|commands"),
    # Translators: typed command: read my hand aloud (aliases separated by "|").
    "hand": pgettext_lazy("typed command", "read hand|hand|h"),
    # Translators: typed command: read the table (the melds, the piles) aloud (aliases separated by "|").
    "table": pgettext_lazy("typed command", "read table|table|t"),
    # Translators: typed command, followed by a meld's number: read that meld aloud (aliases separated by "|").
    "read_meld": pgettext_lazy("typed command", "read meld|m"),
    # Translators: typed command: what the other players did since my last move (aliases separated by "|").
    "changes": pgettext_lazy("typed command", "what changed|changes|c"),
    # Translators: typed command: whose turn it is and what I may do now (aliases separated by "|").
    "status": pgettext_lazy("typed command", "status|whose turn|s"),
    # Translators: typed command (Gin): draw the top card of the stock (aliases separated by "|").
    "draw_stock": pgettext_lazy("typed command", "draw stock|stock|ds"),
    # Translators: typed command (Gin): take the top card of the discard pile (aliases separated by "|").
    "draw_discard": pgettext_lazy("typed command", "draw discard|take discard|dd"),
    # Translators: typed command: draw a card (aliases separated by "|").
    "draw": pgettext_lazy("typed command", "draw|d"),
    # Translators: typed command (Gin): take the upcard (aliases separated by "|").
    "take": pgettext_lazy("typed command", "take upcard|take"),
    # Translators: typed command (Gin): refuse the upcard, or pass the 50th card (aliases separated by "|").
    "pass": pgettext_lazy("typed command", "pass"),
    # Translators: typed command, followed by cards: lay them from the hand as a new meld (aliases separated by "|").
    "new": pgettext_lazy("typed command", "new|n"),
    # Translators: typed command, "add 5S to 3": add cards from the hand to meld 3 (aliases separated by "|").
    "add": pgettext_lazy("typed command", "add|a"),
    # Translators: typed command, "move 9C from 2 to 4" / "move 9C from 2 to new" (aliases separated by "|").
    "move": pgettext_lazy("typed command", "move|mv"),
    # Translators: typed command, "joker as 6S": say which card a joker stands for (aliases separated by "|").
    "joker": pgettext_lazy("typed command", "joker as|joker|j"),
    # Translators: typed command: put the table back as it was at the start of the step (aliases separated by "|").
    "reset": pgettext_lazy("typed command", "reset|undo"),
    # Translators: typed command: lay the arranged table for good (the board's Meld button) (aliases separated by "|").
    "meld": pgettext_lazy("typed command", "meld"),
    # Translators: typed command: end my turn (aliases separated by "|").
    "end_turn": pgettext_lazy("typed command", "end turn|end|e"),
    # Translators: typed command: knock (end the round; in Gin followed by the card to discard) (aliases separated by "|").
    "knock": pgettext_lazy("typed command", "knock|k"),
    # Translators: typed command (Gin): go gin (knock with no deadwood) (aliases separated by "|").
    "gin": pgettext_lazy("typed command", "gin|g"),
    # Translators: typed command (Gin), followed by a card: discard it (aliases separated by "|").
    "discard": pgettext_lazy("typed command", "discard|x"),
    # Translators: typed command (box Gin, the advisor): suggest a move to the captain, "suggest discard 8S" (aliases separated by "|").
    "suggest": pgettext_lazy("typed command", "suggest|advise"),
    # Translators: typed command (box Gin): read the advisor's suggestion (aliases separated by "|").
    "advice": pgettext_lazy("typed command", "read advice|advice"),
    # Translators: typed command (box Gin, the captain): do what the advisor suggested (aliases separated by "|").
    "follow": pgettext_lazy("typed command", "follow|accept"),
    # Translators: typed command (Gin): read the hand's layout: the melds, the deadwood, the lay-offs (aliases separated by "|").
    "layout": pgettext_lazy("typed command", "layout|result"),
}

KEYWORDS = {
    # Translators: a word inside typed commands: "add 5S to 3", "move 9C from 2 to 4" (aliases separated by "|").
    "to": pgettext_lazy("typed command word", "to"),
    # Translators: a word inside typed commands: "move 9C from 2 to 4" (aliases separated by "|").
    "from": pgettext_lazy("typed command word", "from"),
    # Translators: a word inside typed commands: "move 9C from 2 to new" (a new meld) (aliases separated by "|").
    "new": pgettext_lazy("typed command word", "new"),
    # Translators: a word inside typed commands: "joker as 6S in 3" (the joker of meld 3) (aliases separated by "|").
    "in": pgettext_lazy("typed command word", "in"),
}


def _english(table: dict) -> dict[str, str]:
    """The msgids of ``table``: what English readers type, accepted in every language."""
    with translation.override(None):
        return {key: str(value) for key, value in table.items()}


ENGLISH = _english(COMMANDS)
ENGLISH_WORDS = _english(KEYWORDS)

RANK_LETTERS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
SUIT_LETTERS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}
JOKER_WORDS = {"jk", "joker", "★", "🃏"}


def local_letters() -> tuple[dict[str, int], dict[str, int]]:
    """The reader's language's own rank and suit letters (beside the English ones)."""
    return _local_letters(get_language() or "en")


@lru_cache(maxsize=16)
def _local_letters(language: str) -> tuple[dict[str, int], dict[str, int]]:
    """:func:`local_letters` of ``language`` (the active one), kept per language."""
    ranks = {
        # Translators: a card's short form typed at the table is its rank and suit letters ("QH"); the
        # letter a player of your language types for an ace (English "A"; keep "A" if it is the same).
        pgettext("typed card rank letter", "A"): 1,
        # Translators: the letter a player types for a jack in a card's short form (English "J").
        pgettext("typed card rank letter", "J"): 11,
        # Translators: the letter a player types for a queen in a card's short form (English "Q").
        pgettext("typed card rank letter", "Q"): 12,
        # Translators: the letter a player types for a king in a card's short form (English "K").
        pgettext("typed card rank letter", "K"): 13,
    }
    suits = {
        # Translators: the letter a player types for spades in a card's short form ("7S"; English "S").
        pgettext("typed card suit letter", "S"): 0,
        # Translators: the letter a player types for hearts in a card's short form ("7H"; English "H").
        pgettext("typed card suit letter", "H"): 1,
        # Translators: the letter a player types for diamonds in a card's short form ("7D"; English "D").
        pgettext("typed card suit letter", "D"): 2,
        # Translators: the letter a player types for clubs in a card's short form ("7C"; English "C").
        pgettext("typed card suit letter", "C"): 3,
    }
    # Translators: the word a player types for a joker (English "joker"; "JK" always works).
    joker = pgettext("typed card", "joker")
    return (
        {fold(k): v for k, v in ranks.items() if k.strip()},
        {fold(k): v for k, v in suits.items() if k.strip()} | {"joker:" + fold(joker): -1},
    )


# Full-width forms (what an East Asian keyboard types: "７Ｈ") are their ASCII letters and digits.
_FULLWIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}


def fold(text: str) -> str:
    """``text`` as the parser compares it: NFC, full-width forms as ASCII, every decimal digit of any
    script (Persian ۷, Arabic-Indic ٧, Tamil ௭, Devanagari ७) as its ASCII digit, casefolded, one space
    between words.  Only true decimal digits (Unicode category Nd) are digits: "²", "①" or "Ⅶ" stay
    what they are, and no card or number is read from them."""
    text = unicodedata.normalize("NFC", text).translate(_FULLWIDTH)
    out = []
    for ch in text:
        if unicodedata.category(ch) == "Nd":
            out.append(str(unicodedata.decimal(ch)))
        elif ch.isspace() or unicodedata.category(ch) in ("Cf", "Zs"):  # tabs, NBSP, zero-width joiners
            out.append(" ")
        else:
            out.append(ch)
    return " ".join("".join(out).casefold().split())


def aliases(key: str) -> list[str]:
    """Every way to type the command ``key`` in the reader's language, English included, folded."""
    return list(alias_table()[key])


def alias_table() -> dict[str, tuple[str, ...]]:
    """Every command's aliases in the reader's language, English included, folded."""
    return _aliases(get_language() or "en")


@lru_cache(maxsize=16)
def _aliases(language: str) -> dict[str, tuple[str, ...]]:
    """Each command's aliases in ``language`` (the active one), folded; kept per language."""
    table = {}
    for key, local in COMMANDS.items():
        words = {fold(w) for w in str(local).split("|")} | {fold(w) for w in ENGLISH[key].split("|")}
        table[key] = tuple(sorted(w for w in words if w))
    return table


def keyword(key: str) -> frozenset[str]:
    """The ways to type a word inside commands ("to", "from", "new", "in"), English included, folded."""
    return _keywords(get_language() or "en")[key]


@lru_cache(maxsize=16)
def _keywords(language: str) -> dict[str, frozenset[str]]:
    return {
        key: frozenset(fold(w) for w in (str(local).split("|") + ENGLISH_WORDS[key].split("|")) if fold(w))
        for key, local in KEYWORDS.items()
    }


def first_alias(key: str) -> str:
    """The command's first word in the reader's language (what the help names)."""
    return str(COMMANDS[key]).split("|")[0]


@lru_cache(maxsize=16)
def _card_names(language: str) -> tuple[re.Pattern[str], dict[str, str]]:
    names: dict[str, str] = {}
    for code, english in CARD_NAMES.items():
        names[fold(english)] = code
        local = fold(gettext(english))
        if local:
            names[local] = code
    ordered = sorted(names, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in ordered) + r")(?!\w)")
    return pattern, names


def card_names() -> tuple[re.Pattern[str], dict[str, str]]:
    """A pattern of every card's full name (English and the reader's language), and name → code."""
    return _card_names(get_language() or "en")
