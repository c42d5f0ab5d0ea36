"""What a player typed, as a :class:`Command`: no database and no state, so a command that cannot be
read is answered at once and changes nothing (:class:`Unclear`, with the reason in the reader's words).

Grammar (English words; every language adds its own, :mod:`games.typed.vocabulary`)::

    help | read hand | read table | read meld N | what changed | status
    draw | draw stock | draw discard | take | pass
    new CARDS | add CARDS to N | move CARDS [from N] to (M | new) | joker as CARD [in N]
    reset | meld | end turn | knock [CARD] | gin [CARD] | discard CARD
    suggest (draw stock | draw discard | take | pass | discard CARD | knock CARD) | advice | follow | layout

A CARD is a short form (``7H``, ``10S``, ``TS``, ``QC``, ``JK``, ``7♥``: rank then suit, any case) or
its full name in the reader's language or in English ("seven of hearts"); a number N is written
with the digits of any script (``۳`` is 3) and read by :func:`plumbing.inputs.parse_int`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.typed import vocabulary as vocab
from plumbing import inputs

MAX_TEXT = 300  # a command line: "move 10S JK QS KS from 12 to new" is 32 characters
MAX_MELD = 200  # a meld's number (a two-pack table has at most ~36 melds; larger is refused as no meld)
MAX_CARDS = 20

_SHORT = re.compile(r"(10|[2-9tajqk]|[^\W\d_])([shdc♠♥♦♣♤♡♢♧]|[^\W\d_])")


@dataclass(frozen=True)
class Command:
    """One typed command: ``name`` (a key of :data:`vocabulary.COMMANDS`), the cards it names (codes
    ``"7H"``, ``"TS"``, ``"JK"``), the meld it reads or takes from (``meld``, 1-based), where cards
    go (``target``: a meld's number, or 0 for a new meld), a joker's card (``declared``) and an
    advisor's suggested move (``what``: a command key)."""

    name: str
    cards: tuple[str, ...] = ()
    meld: int | None = None
    target: int | None = None
    declared: str = ""
    what: str = ""


class Unclear(ValueError):
    """What the player typed is not a command; ``message`` says why, in the reader's language."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse(text: object) -> Command:
    """``text`` as a command, or :class:`Unclear`."""
    try:
        raw = inputs.check_text(text, max_length=MAX_TEXT)
    except inputs.BadInput as exc:
        raise Unclear(exc.code, exc.message) from None
    folded = vocab.fold(raw).strip(" .!")
    if not folded:
        raise Unclear("empty", _("Type a command, for example “read hand”, or “help” for the list."))
    name, rest = _command_word(folded)
    words = _words(rest)
    return _ARGUMENTS.get(name, _no_arguments)(name, words)


def _command_word(folded: str) -> tuple[str, str]:
    """The command the line starts with (its longest alias) and the rest of the line."""
    best = ("", "")
    for key, words in vocab.alias_table().items():
        for alias in words:
            if (folded == alias or folded.startswith(alias + " ")) and len(alias) > len(best[1]):
                best = (key, alias)
    if not best[0]:
        word = folded.split(" ", 1)[0][:30]
        raise Unclear(
            "unknown_command",
            _("“%(word)s” is not a command. Type “help” for the list.") % {"word": word},
        )
    return best[0], folded[len(best[1]) :].strip()


def _words(rest: str) -> list[str]:
    """The rest of the line as words, every full card name ("seven of hearts") made its code."""
    pattern, names = vocab.card_names()
    rest = pattern.sub(lambda m: " " + names[m.group(1)] + " ", rest)
    words = rest.replace(",", " ").split()
    if len(words) > MAX_CARDS + 6:
        raise Unclear("too_many_words", _("That command is too long."))
    return words


def card_code(word: str) -> str | None:
    """A word as a card's code (``"7H"``, ``"TS"``, ``"JK"``), or None."""
    ranks, suits = vocab.local_letters()
    if word in vocab.JOKER_WORDS or suits.get("joker:" + word) == -1:
        return "JK"
    m = _SHORT.fullmatch(word)
    if m is None:
        return None
    rank_word, suit_word = m.groups()
    rank = vocab.RANK_LETTERS.get(rank_word.upper())
    if rank is None:
        rank = ranks.get(rank_word)
    suit = vocab.SUIT_LETTERS.get(suit_word.upper(), vocab.SUIT_LETTERS.get(suit_word))
    if suit is None:
        suit = suits.get(suit_word)
    if rank is None or suit is None or suit < 0:
        return None
    return {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank)) + "SHDC"[suit]


def _cards(words: list[str], *, at_least: int = 1) -> tuple[str, ...]:
    codes = []
    for word in words:
        code = card_code(word)
        if code is None:
            raise Unclear(
                "unknown_card", _("“%(word)s” is not a card. Write a card as 7H, 10S, QC or JK.") % {"word": word[:20]}
            )
        codes.append(code)
    if len(codes) < at_least:
        raise Unclear("no_card", _("Name the cards, for example 7H 8H 9H."))
    if len(codes) > MAX_CARDS:
        raise Unclear("too_many_words", _("That command is too long."))
    return tuple(codes)


def _number(word: str) -> int:
    try:
        return inputs.parse_int(word, lo=1, hi=MAX_MELD)
    except inputs.BadInput:
        raise Unclear("bad_meld_number", _("“%(word)s” is not a meld's number.") % {"word": word[:20]}) from None


def _no_arguments(name: str, words: list[str]) -> Command:
    if words:
        raise Unclear("extra_words", _("“%(word)s” does not belong after this command.") % {"word": words[0][:20]})
    return Command(name)


def _read_meld(name: str, words: list[str]) -> Command:
    if len(words) != 1:
        raise Unclear("bad_meld_number", _("Say which meld, for example “read meld 3”."))
    return Command(name, meld=_number(words[0]))


def _cards_only(name: str, words: list[str]) -> Command:
    return Command(name, cards=_cards(words))


def _one_card_or_none(name: str, words: list[str]) -> Command:
    cards = _cards(words, at_least=0)
    if len(cards) > 1:
        raise Unclear("one_card", _("Name one card."))
    return Command(name, cards=cards)


def _one_card(name: str, words: list[str]) -> Command:
    cards = _cards(words)
    if len(cards) != 1:
        raise Unclear("one_card", _("Name one card."))
    return Command(name, cards=cards)


def _split(words: list[str], key: str) -> tuple[list[str], list[str]] | None:
    marks = vocab.keyword(key)
    for i, word in enumerate(words):
        if word in marks:
            return words[:i], words[i + 1 :]
    return None


def _target(words: list[str]) -> int:
    """Where cards go: a meld's number, or 0 for a new meld."""
    if len(words) != 1:
        raise Unclear("bad_target", _("Say where to, for example “to 3” or “to new”."))
    if words[0] in vocab.keyword("new"):
        return 0
    return _number(words[0])


def _add(name: str, words: list[str]) -> Command:
    parts = _split(words, "to")
    if parts is None:
        raise Unclear("bad_target", _("Say where to, for example “add 5S to 3”."))
    return Command(name, cards=_cards(parts[0]), target=_target(parts[1]))


def _move(name: str, words: list[str]) -> Command:
    parts = _split(words, "to")
    if parts is None:
        raise Unclear("bad_target", _("Say where to, for example “move 9C from 2 to 4” or “to new”."))
    head, target = parts
    source = _split(head, "from")
    meld = None
    if source is not None:
        head, after = source
        if len(after) != 1:
            raise Unclear("bad_meld_number", _("Say which meld the cards come from, for example “from 2”."))
        meld = _number(after[0])
    return Command(name, cards=_cards(head), meld=meld, target=_target(target))


def _joker(name: str, words: list[str]) -> Command:
    parts = _split(words, "in")
    meld = None
    if parts is not None:
        words, after = parts
        if len(after) != 1:
            raise Unclear("bad_meld_number", _("Say which meld, for example “joker as 6S in 3”."))
        meld = _number(after[0])
    cards = _cards(words)
    if len(cards) != 1 or cards[0] == "JK":
        raise Unclear("one_card", _("Say the one card the joker stands for, for example “joker as 6S”."))
    return Command(name, declared=cards[0], meld=meld)


_SUGGESTIBLE = ("draw_stock", "draw_discard", "take", "pass", "discard", "knock", "gin")


def _suggest(name: str, words: list[str]) -> Command:
    text = " ".join(words)
    if not text:
        raise Unclear("bad_suggestion", _("Say what to suggest, for example “suggest discard 8S”."))
    what, rest = _command_word(text)
    if what not in _SUGGESTIBLE:
        raise Unclear("bad_suggestion", _("Say what to suggest, for example “suggest discard 8S”."))
    inner = _ARGUMENTS.get(what, _no_arguments)(what, _words(rest))
    return Command(name, cards=inner.cards, what=what)


_ARGUMENTS = {
    "read_meld": _read_meld,
    "new": _cards_only,
    "add": _add,
    "move": _move,
    "joker": _joker,
    "discard": _one_card,
    "knock": _one_card_or_none,
    "gin": _one_card_or_none,
    "suggest": _suggest,
}
