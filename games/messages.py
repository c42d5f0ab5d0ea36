"""Players' words for the engines' refusals, through Django's translations.

The engine speaks English: every refusal has a stable ``code``, an English
``template`` (``%(name)s`` placeholders) and JSON-safe ``params`` — numbers,
and card codes (``"5S"``, ``"JK=9H"``) for the names in
:data:`games.engine.errors.CARD_PARAMS`.  Every template the engines can raise
is listed here once more, marked for translation; :func:`refusal_text` says the
refusal in the reader's language and writes its cards as the site's card faces.
A test checks this table against the engines' own tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from games.board.faces import card_face
from games.engine.errors import CARD_PARAMS, RulesError

# (table, key) -> English template; the tables are manipulation.MESSAGES, gin.MESSAGES and
# melds.MELD_MESSAGES (a Manipulation meld that is not valid is refused with one of those).
REFUSALS = {
    ("manipulation", "not_your_turn"): _("It is not your turn."),
    ("manipulation", "round_over"): _("The round is over."),
    ("manipulation", "must_draw"): _("You must draw a card first."),
    ("manipulation", "must_draw_or_meld"): _("You must meld or draw another card before your turn can end."),
    ("manipulation", "no_more_draws"): _("You cannot draw any more cards this turn."),
    ("manipulation", "stock_empty"): _("The stock is empty: there is nothing to draw."),
    ("manipulation", "no_draw_in_final_lap"): _("There is no drawing in the final lap."),
    ("manipulation", "meld_not_now"): _("You cannot meld now."),
    ("manipulation", "no_meld_before_draw"): _("You must draw before you meld."),
    ("manipulation", "already_melded"): _("You have already made your meld step this turn."),
    ("manipulation", "no_meld_after_last_draw"): _("No meld is allowed after your last draw of the turn."),
    ("manipulation", "knock_too_high"): _(
        "Your hand counts %(points)s points: you may knock only with %(limit)s or fewer."
    ),
    ("manipulation", "knock_not_now"): _("You cannot knock now."),
    ("manipulation", "knock_not_in_final_lap"): _("Knocking is not allowed in the final lap at this table."),
    ("manipulation", "card_not_available"): _("%(card)s is not in your hand or on the table."),
    ("manipulation", "table_card_missing"): _("%(cards)s must stay on the table: no card returns to a hand."),
    ("manipulation", "freed_joker_not_placed"): _(
        "%(card)s was freed and must be placed again in a meld in the same step."
    ),
    ("manipulation", "joker_identity_needed"): _("%(cards)s: say which card the joker stands for (%(options)s)."),
    ("manipulation", "joker_identity_changed"): _(
        "The joker keeps its identity %(identity)s unless a natural %(identity)s replaces it."
    ),
    ("manipulation", "joker_substitute_hand_only"): _(
        "The joker can only be replaced by a natural %(identity)s from your hand at this table."
    ),
    ("manipulation", "freed_joker_new_meld_only"): _(
        "%(cards)s: at this table a freed joker may only go into a new meld made with cards from your hand."
    ),
    ("manipulation", "no_card_from_hand"): _("A meld step must lay at least one card from your hand."),
    ("manipulation", "first_meld_too_low"): _(
        "Your first meld must be made only of cards from your hand worth at least %(min)s points"
        " (this one is worth %(points)s)."
    ),
    ("manipulation", "first_meld_table_untouched"): _(
        "Until your first meld you may not change the melds already on the table."
    ),
    ("melds", "too_short"): _("%(cards)s: a meld needs at least 3 cards."),
    ("melds", "group_too_long"): _("%(cards)s: a group has at most 4 cards."),
    ("melds", "group_same_suit"): _("%(cards)s: a group needs cards of different suits."),
    ("melds", "sequence_one_suit"): _("%(cards)s: a sequence must be one suit."),
    ("melds", "group_one_rank"): _("%(cards)s: a group must be one rank."),
    ("melds", "sequence_duplicate_rank"): _("%(cards)s: a sequence cannot hold two cards of the same rank."),
    ("melds", "sequence_gap"): _("%(cards)s: the ranks of a sequence must be consecutive."),
    ("melds", "sequence_too_long"): _("%(cards)s: a sequence has at most 13 cards."),
    ("melds", "ace_wrap"): _("%(cards)s: an ace cannot be in the middle of a sequence (K-A-2 is not allowed)."),
    ("melds", "ace_low_only"): _("%(cards)s: with these table rules an ace in a sequence is low only (A-2-3)."),
    ("melds", "ace_high_only"): _("%(cards)s: with these table rules an ace in a sequence is high only (Q-K-A)."),
    ("melds", "joker_no_identity"): _("%(cards)s: no identity of the joker makes this a valid meld."),
    ("melds", "joker_not_fitting"): _("%(cards)s: the joker's declared card does not fit this meld."),
    ("gin", "hand_over"): _("This hand is over."),
    ("gin", "not_your_turn"): _("It is not your turn."),
    ("gin", "advisor_cannot_act"): _("The advisor holds no cards: he can only send suggestions to the captain."),
    ("gin", "not_advisor"): _("Only the advisor can send suggestions."),
    ("gin", "bad_suggestion"): _("That suggestion names a card the captain does not hold."),
    ("gin", "advice_disabled"): _("Advice from the advisor is switched off at this table."),
    ("gin", "upcard_decision"): _("First take the upcard or pass it."),
    ("gin", "must_draw"): _("Take a card first: draw from the stock or take the top discard."),
    ("gin", "must_draw_stock"): _("Both players passed the upcard: start by drawing from the stock."),
    ("gin", "must_discard"): _("You have taken a card: now discard one card or knock."),
    ("gin", "no_upcard_now"): _("The upcard can only be taken or passed at the start of the hand."),
    ("gin", "card_not_in_hand"): _("%(cards)s is not in your hand."),
    ("gin", "cannot_discard_taken_card"): _(
        "%(cards)s was just taken from the discard pile and cannot be discarded this turn."
    ),
    ("gin", "knock_too_high"): _(
        "You cannot knock: after discarding %(cards)s your deadwood would be %(deadwood)s, more than %(limit)s."
    ),
    ("gin", "knock_too_high_laid"): _(
        "You cannot knock: the deadwood you lay out is %(deadwood)s, more than %(limit)s."
    ),
    ("gin", "gin_only"): _("The first upcard was an ace: nobody may knock, only gin ends this hand."),
    ("gin", "invalid_meld"): _(
        "%(cards)s: not a meld (a set is 3 or 4 cards of one rank; a run is 3 or more cards in sequence in one"
        " suit, ace low)."
    ),
    ("gin", "meld_card_twice"): _("%(cards)s is used in more than one meld."),
    ("gin", "fiftieth_card_knock_only"): _(
        "Only two stock cards are left: you may take %(cards)s only to knock with it."
    ),
    ("gin", "must_knock"): _("You took the last discard under the 50th-card rule: you must knock now."),
    ("gin", "no_pass_now"): _("You can only pass the last discard when two stock cards are left."),
    ("gin", "big_gin_not_allowed"): _("Knocking without a discard (big gin) is not allowed at this table."),
    ("gin", "not_big_gin"): _("To knock without discarding, all eleven of your cards must be in melds."),
}

# The templates each game's refusals may carry.
_TABLES = {"manipulation": ("manipulation", "melds"), "gin": ("gin",)}
_KNOWN = {game: {text for (t, _key), text in REFUSALS.items() if t in tables} for game, tables in _TABLES.items()}


def card_text(code: str) -> str:
    """One card as the site draws it, in the reader's language: ``"10♠"``, ``"Joker"``, ``"Joker (9♥)"``."""
    face = card_face(code)
    if not face["joker"]:
        return face["rank"] + face["suit"]
    if face.get("as"):
        return gettext("Joker (%(card)s)") % {"card": face["as"]}
    return face["label"]


def _reader_params(params: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(params)
    for key, sep in CARD_PARAMS.items():
        if key in out:
            codes = [out[key]] if isinstance(out[key], str) else out[key]
            out[key] = sep.join(card_text(code) for code in codes)
    return out


def refusal_text(error: RulesError | Mapping[str, Any], game: str) -> str:
    """The refusal in the reader's language, else the engine's English sentence.

    ``error`` is a :class:`RulesError` or its ``to_dict()`` (also a meld report of
    ``check_table``, whose sentence is under ``"reason"``).
    """
    if isinstance(error, RulesError):
        message, template, params = error.message, error.template, error.params
    else:
        message = error.get("message") or error.get("reason") or ""
        template, params = error.get("template") or message, error.get("params")
    if template not in _KNOWN.get(game, ()):
        return message
    if params is None:
        return gettext(template)
    try:
        return gettext(template) % _reader_params(params)
    except (KeyError, TypeError, ValueError, RulesError):  # a broken translation or an odd stored value
        return message
