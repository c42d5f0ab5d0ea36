"""The engine's English words, once: card names, and every refusal template of both games.

A refusal (:class:`~games.engine.errors.RulesError`) carries a stable ``code``, one of the templates
below (``%(name)s`` placeholders) and JSON-safe ``params``: numbers, and card codes (``"5S"``,
``"JK"``, ``"JK=9H"``) for the names in :data:`CARD_PARAMS`.  :func:`english` fills a template for
the English ``message``; the web layer says the same template in the reader's language with its own
card faces (``games/messages.py``).

This module imports nothing of the engine: :mod:`.errors` and :mod:`.cards` sit above it.
"""

from __future__ import annotations

from typing import Any

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def N_(text: str) -> str:
    """Marks an English template for the site's translation catalogue (``make messages`` extracts it:
    games/management/commands/makemessages.py) and returns it unchanged: the engine imports no translation
    machinery, and these tables are the only copy of the words (``games/messages.py`` says them
    in the reader's language)."""
    return text


# The templates with a count whose noun takes its plural form ("1 point", "12 points"; Romanian "20 de puncte"):
# the plural template (the one a refusal carries) -> (singular, plural, the param that counts).
PLURALS: dict[str, tuple[str, str, str]] = {}


def NP_(singular: str, plural: str, count: str) -> str:
    """Marks a template with its plural for the catalogue (``make messages`` extracts both: ``NP_:1,2``) and
    returns the plural, the refusal's template; :func:`english` and the web layer (``ngettext``) choose the
    form from ``params[count]``."""
    PLURALS[plural] = (singular, plural, count)
    return plural


# A card's name, whole (no rank and suit glued together: a language may inflect either), by its code.
CARD_NAMES: dict[str, str] = {
    # Translators: a card's name, said whole ("seven of spades" is 7♠; a Romanian player says "șapte de pică").
    "AS": N_("ace of spades"), "2S": N_("two of spades"), "3S": N_("three of spades"), "4S": N_("four of spades"),
    "5S": N_("five of spades"), "6S": N_("six of spades"), "7S": N_("seven of spades"), "8S": N_("eight of spades"),
    "9S": N_("nine of spades"), "TS": N_("ten of spades"), "JS": N_("jack of spades"), "QS": N_("queen of spades"),
    "KS": N_("king of spades"),
    "AH": N_("ace of hearts"), "2H": N_("two of hearts"), "3H": N_("three of hearts"), "4H": N_("four of hearts"),
    "5H": N_("five of hearts"), "6H": N_("six of hearts"), "7H": N_("seven of hearts"), "8H": N_("eight of hearts"),
    "9H": N_("nine of hearts"), "TH": N_("ten of hearts"), "JH": N_("jack of hearts"), "QH": N_("queen of hearts"),
    "KH": N_("king of hearts"),
    "AD": N_("ace of diamonds"), "2D": N_("two of diamonds"), "3D": N_("three of diamonds"), "4D": N_("four of diamonds"),
    "5D": N_("five of diamonds"), "6D": N_("six of diamonds"), "7D": N_("seven of diamonds"), "8D": N_("eight of diamonds"),
    "9D": N_("nine of diamonds"), "TD": N_("ten of diamonds"), "JD": N_("jack of diamonds"), "QD": N_("queen of diamonds"),
    "KD": N_("king of diamonds"),
    "AC": N_("ace of clubs"), "2C": N_("two of clubs"), "3C": N_("three of clubs"), "4C": N_("four of clubs"),
    "5C": N_("five of clubs"), "6C": N_("six of clubs"), "7C": N_("seven of clubs"), "8C": N_("eight of clubs"),
    "9C": N_("nine of clubs"), "TC": N_("ten of clubs"), "JC": N_("jack of clubs"), "QC": N_("queen of clubs"),
    "KC": N_("king of clubs"),
}  # fmt: skip


# Params that hold card codes (one code, or a list of codes), with the separator between cards.
CARD_PARAMS: dict[str, str] = {"card": " ", "cards": " ", "identity": " ", "options": ", "}


def card_words(code: str) -> str:
    """A card code in English with a suit symbol: ``"9H"`` → ``"9♥"``, ``"TS"`` → ``"10♠"``,
    ``"JK"`` → ``"Joker"``, ``"JK=9H"`` → ``"Joker (9♥)"`` (a deck index ``".1"`` is ignored)."""
    code = code.strip().upper().split(".")[0]
    if code.startswith("JK"):
        return f"Joker ({card_words(code[3:])})" if code.startswith("JK=") else "Joker"
    rank, suit = code[:-1], code[-1:]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS.get(suit, suit)


def english_params(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` ready for an English template: card codes written as ``"5♠"``, ``"Joker (9♥)"``."""
    out = dict(params)
    for key, sep in CARD_PARAMS.items():
        if key in out:
            value = out[key]
            codes = [value] if isinstance(value, str) else value
            out[key] = sep.join(card_words(code) for code in codes)
    return out


def english(template: str, params: dict[str, Any] | None) -> str:
    """The English sentence of a refusal: ``template`` filled with ``params`` (cards in words)."""
    if params is None:
        return template
    if template in PLURALS:
        singular, _plural, count = PLURALS[template]
        template = singular if params.get(count) == 1 else template
    return template % english_params(params)


# ----------------------------------------------------------------------------- Manipulation Rummy

# code -> English template of a refusal (RULES Part B).  A meld that is not valid is refused with
# code ``invalid_meld`` and a template of MELD_MESSAGES (key: the meld's problem).
MANIPULATION_MESSAGES: dict[str, str] = {
    "not_your_turn": N_("It is not your turn."),
    "round_over": N_("The round is over."),
    "must_draw": N_("You must draw a card first."),
    "must_draw_or_meld": N_("You must meld or draw another card before your turn can end."),
    "no_more_draws": N_("You cannot draw any more cards this turn."),
    "stock_empty": N_("The stock is empty: there is nothing to draw."),
    "no_draw_in_final_lap": N_("There is no drawing in the final lap."),
    "meld_not_now": N_("You cannot meld now."),
    "no_meld_before_draw": N_("You must draw before you meld."),
    "already_melded": N_("You have already made your meld step this turn."),
    "no_meld_after_last_draw": N_("No meld is allowed after your last draw of the turn."),
    "knock_too_high": NP_(
        "Your hand counts %(points)s point: you may knock only with %(limit)s or fewer.",
        "Your hand counts %(points)s points: you may knock only with %(limit)s or fewer.",
        "points",
    ),
    "knock_not_now": N_("You cannot knock now."),
    "knock_not_in_final_lap": N_("Knocking is not allowed in the final lap at this table."),
    "card_not_available": N_("%(card)s is not in your hand or on the table."),
    "table_card_missing": N_("%(cards)s must stay on the table: no card returns to a hand."),
    "freed_joker_not_placed": N_("%(card)s was freed and must be placed again in a meld in the same step."),
    "joker_identity_needed": N_("%(cards)s: say which card the joker stands for (%(options)s)."),
    "joker_identity_changed": N_(
        "The joker keeps its identity %(identity)s unless a natural %(identity)s replaces it."
    ),
    "joker_substitute_hand_only": (
        N_("The joker can only be replaced by a natural %(identity)s from your hand at this table.")
    ),
    "freed_joker_new_meld_only": (
        N_("%(cards)s: at this table a freed joker may only go into a new meld made with cards from your hand.")
    ),
    "no_card_from_hand": N_("A meld step must lay at least one card from your hand."),
    "first_meld_too_low": NP_(
        "Your first meld must be made only of cards from your hand worth at least %(min)s point"
        " (this one is worth %(points)s).",
        "Your first meld must be made only of cards from your hand worth at least %(min)s points"
        " (this one is worth %(points)s).",
        "min",
    ),
    "first_meld_table_untouched": N_("Until your first meld you may not change the melds already on the table."),
}


# problem -> template; ``%(cards)s`` is the meld (RULES B.2, B.3); ``%(identity)s`` the card a joker
# stands for (``joker_not_fitting`` only).
MELD_MESSAGES: dict[str, str] = {
    "too_short": N_("%(cards)s: a meld needs at least 3 cards."),
    "group_too_long": N_("%(cards)s: a group has at most 4 cards."),
    "group_same_suit": N_("%(cards)s: a group needs cards of different suits."),
    "sequence_one_suit": N_("%(cards)s: a sequence must be one suit."),
    "group_one_rank": N_("%(cards)s: a group must be one rank."),
    "sequence_duplicate_rank": N_("%(cards)s: a sequence cannot hold two cards of the same rank."),
    "sequence_gap": N_("%(cards)s: the ranks of a sequence must be consecutive."),
    "sequence_too_long": N_("%(cards)s: a sequence has at most 13 cards."),
    "ace_wrap": N_("%(cards)s: an ace cannot be in the middle of a sequence (K-A-2 is not allowed)."),
    "ace_low_only": N_("%(cards)s: with these table rules an ace in a sequence is low only (A-2-3)."),
    "ace_high_only": N_("%(cards)s: with these table rules an ace in a sequence is high only (Q-K-A)."),
    "joker_no_identity": N_("%(cards)s: no identity of the joker makes this a valid meld."),
    # Translators: RULES B.3.2, B.3.3: a joker on the table keeps the card it stands for (%(identity)s); it may
    # move only into a meld where that card fits, and only a real card of that identity frees it.
    "joker_not_fitting": N_(
        "%(cards)s: this joker stands for %(identity)s and keeps it, so it can go only where %(identity)s fits,"
        " until a natural %(identity)s takes its place."
    ),
}


# ----------------------------------------------------------------------------- Gin Rummy

# code -> English template of a refusal (RULES Parts C, D).
GIN_MESSAGES: dict[str, str] = {
    "hand_over": N_("This hand is over."),
    "not_your_turn": N_("It is not your turn."),
    "advisor_cannot_act": N_("The advisor holds no cards: he can only send suggestions to the captain."),
    "not_advisor": N_("Only the advisor can send suggestions."),
    "advice_disabled": N_("Advice from the advisor is switched off at this table."),
    "bad_suggestion": N_("That suggestion names a card the captain does not hold."),
    "discard_pile_empty": N_("The discard pile is empty: there is no card to take from it."),
    "upcard_decision": N_("First take the upcard or pass it."),
    "must_draw": N_("Take a card first: draw from the stock or take the top discard."),
    "must_draw_stock": N_("Both players passed the upcard: start by drawing from the stock."),
    "must_discard": N_("You have taken a card: now discard one card or knock."),
    "no_upcard_now": N_("The upcard can only be taken or passed at the start of the hand."),
    "card_not_in_hand": N_("%(cards)s is not in your hand."),
    "cannot_discard_taken_card": N_(
        "%(cards)s was just taken from the discard pile and cannot be discarded this turn."
    ),
    "knock_too_high": N_(
        "You cannot knock: after discarding %(cards)s your deadwood would be %(deadwood)s, more than %(limit)s."
    ),
    "knock_too_high_laid": N_("You cannot knock: the deadwood you lay out is %(deadwood)s, more than %(limit)s."),
    "gin_only": N_("The first upcard was an ace: nobody may knock, only gin ends this hand."),
    "invalid_meld": N_(
        "%(cards)s: not a meld (a set is 3 or 4 cards of one rank; a run is 3 or more cards "
        "in sequence in one suit, ace low)."
    ),
    "meld_card_twice": N_("%(cards)s is used in more than one meld."),
    "fiftieth_card_knock_only": N_("Only two stock cards are left: you may take %(cards)s only to knock with it."),
    "must_knock": N_("You took the last discard under the 50th-card rule: you must knock now."),
    "no_pass_now": N_("You can only pass the last discard when two stock cards are left."),
    "big_gin_not_allowed": N_("Knocking without a discard (big gin) is not allowed at this table."),
    "not_big_gin": N_("To knock without discarding, all eleven of your cards must be in melds."),
}
