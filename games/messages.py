"""Players' words for the engines' refusals, through Django's translations.

The engine speaks English and gives every refusal a stable ``code``.  The
sentences without card details are listed here once more, marked for
translation; a refusal whose message names cards keeps the engine's sentence.
A test checks this table against the engines' own message tables.
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from games.engine.errors import RulesError

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
    ("manipulation", "knock_not_now"): _("You cannot knock now."),
    ("manipulation", "knock_not_in_final_lap"): _("Knocking is not allowed in the final lap at this table."),
    ("manipulation", "no_card_from_hand"): _("A meld step must lay at least one card from your hand."),
    ("manipulation", "first_meld_table_untouched"): _(
        "Until your first meld you may not change the melds already on the table."
    ),
    ("gin", "hand_over"): _("This hand is over."),
    ("gin", "not_your_turn"): _("It is not your turn."),
    ("gin", "advisor_cannot_act"): _("The advisor holds no cards: he can only send suggestions to the captain."),
    ("gin", "not_advisor"): _("Only the advisor can send suggestions."),
    ("gin", "advice_disabled"): _("Advice from the advisor is switched off at this table."),
    ("gin", "upcard_decision"): _("First take the upcard or pass it."),
    ("gin", "must_draw"): _("Take a card first: draw from the stock or take the top discard."),
    ("gin", "must_draw_stock"): _("Both players passed the upcard: start by drawing from the stock."),
    ("gin", "must_discard"): _("You have taken a card: now discard one card or knock."),
    ("gin", "no_upcard_now"): _("The upcard can only be taken or passed at the start of the hand."),
    ("gin", "gin_only"): _("The first upcard was an ace: nobody may knock, only gin ends this hand."),
    ("gin", "must_knock"): _("You took the last discard under the 50th-card rule: you must knock now."),
    ("gin", "no_pass_now"): _("You can only pass the last discard when two stock cards are left."),
    ("gin", "big_gin_not_allowed"): _("Knocking without a discard (big gin) is not allowed at this table."),
    ("gin", "not_big_gin"): _("To knock without discarding, all eleven of your cards must be in melds."),
}


def refusal_text(error: RulesError, game: str) -> str:
    """The refusal in the player's language when it has no card details, else the engine's sentence."""
    english = REFUSALS.get((game, error.code))
    if english is not None and english == error.message:
        return gettext(english)
    return error.message
