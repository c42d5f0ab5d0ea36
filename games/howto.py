"""The "How to play" pages: one per game, and each game's table options as the engine has them.

The rules are told in the page templates (templates/games/howto/), written from RULES.md for players.
The options table is not a copy: every option's name, allowed values and default come from the same
places the new-table form and the engine take them (games/forms.py's labels and choices, the engines'
ranges and each variant's defaults, ``GameSpec.option_defaults``); only "what it changes" is said here.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import forms
from games.board import lists, words
from games.forms import move_time_label
from games.models import MISSED_TURNS_FOR_AUTOPILOT, MOVE_TIME_CHOICES, Variant
from games.variants import spec_for

# The games in the order the site names them, each with its page's template.
GAMES = (Variant.MANIPULATION, Variant.GIN_BOX, Variant.GIN, Variant.OKLAHOMA, Variant.HOLLYWOOD)

# What each option changes, in a sentence (the label and values are the form's own).
EFFECTS: dict[str, Any] = {
    # Manipulation Rummy (RULES E.1)
    "jokers": gettext_lazy("How many jokers are shuffled in."),
    "hand_size": gettext_lazy("How many cards each player is dealt."),
    "max_draws_per_turn": gettext_lazy("A turn ends after this many draws; no meld after the last one."),
    "must_draw_if_no_meld": gettext_lazy("Off: after a draw you may end your turn without melding or drawing."),
    "knock_limit": gettext_lazy("The most your hand may count when you knock."),
    "knock_timing": gettext_lazy("Whether you knock after your turn or before you draw."),
    "undercut_bonus": gettext_lazy("Paid to a player who beats or ties the knocker."),
    "going_out_bonus": gettext_lazy("Paid to the player who melds their last card."),
    "joker_value": gettext_lazy("What a joker left in your hand counts against you."),
    "ace_in_sequences": gettext_lazy("Where an ace may stand in a sequence (never K-A-2)."),
    "joker_substitute_from": gettext_lazy("Where the natural card that frees a table joker may come from."),
    "freed_joker_reuse": gettext_lazy("Where a freed joker must be placed again, in the same meld step."),
    "first_meld_min_points": gettext_lazy("The least a player's first meld must be worth, from their hand only."),
    "stock_exhausted": gettext_lazy("What happens when the last card of the stock is drawn."),
    "knock_in_final_lap": gettext_lazy("Whether a player may knock during the final meld lap."),
    "tie_nonknockers": gettext_lazy("When several players tie for the lowest hand below the knocker."),
    "game_target": gettext_lazy("The match ends after the round in which a total reaches this."),
    "game_bonus": gettext_lazy("Added at the end to every player who reached the target."),
    "round_won_bonus": gettext_lazy("Added at the end for every round a player won."),
    "round_won_bonus_to": gettext_lazy("Who receives the bonus for rounds won."),
    "final_tie": gettext_lazy("How equal final totals are decided."),
    "deal_rotation": gettext_lazy("Who deals the next round."),
    # The Gin games (RULES E.2)
    "gin_bonus": gettext_lazy("Added to the score of a player who goes gin."),
    "undercut_on_tie": gettext_lazy("Off: equal deadwood wins for the knocker."),
    "big_gin": gettext_lazy("Knocking with all eleven cards in melds, without a discard."),
    "no_discard_of_taken_card": gettext_lazy("The card you took from the discard pile stays in your hand this turn."),
    "dead_hand_at_stock": gettext_lazy("The hand ends with nobody scoring when the stock is down to this."),
    "fiftieth_card_rule": gettext_lazy("With two stock cards left, the last discard may be taken only to knock."),
    "end_bonuses": gettext_lazy("The game bonus, a bonus per hand won and the shutout at the end."),
    "box_bonus": gettext_lazy("The end bonus for every hand a player won."),
    "shutout": gettext_lazy("When the loser never scored in the game."),
    "role_draw_ties": gettext_lazy("When two players draw cards of the same rank for the roles."),
    "advisor_can_advise": gettext_lazy("Off: the advisor only watches."),
    "dealer_2p": gettext_lazy("Who deals the next hand."),
    "oklahoma": gettext_lazy("The first upcard sets the knock limit of the hand."),
    "oklahoma_ace": gettext_lazy("What an ace as the first upcard means."),
    "oklahoma_spades_double": gettext_lazy("A spade as the first upcard doubles the hand's score."),
    "oklahoma_double_boxes": gettext_lazy("A doubled hand also counts two boxes."),
    "hollywood_target": gettext_lazy("Where each of the three games closes."),
}


def _field_key(name: str) -> str:
    return name.removeprefix(forms.TableCreateForm.OPTION_PREFIX).removeprefix(forms.TableCreateForm.GIN_PREFIX)


def _values(field: Any) -> str:
    """The values an option takes, from its form field (built from the engine's tables)."""
    choices = getattr(field, "choices", None)
    if choices:
        return lists.items(label for value, label in choices if value != "")
    if field.widget.input_type == "checkbox":
        return _("yes or no")
    lo, hi = field.min_value, field.max_value
    return _("from %(lo)s to %(hi)s") % {"lo": lo, "hi": hi}


def option_rows(variant: str) -> list[dict[str, Any]]:
    """Each option of the game's tables: its label, its values, its default and what it changes."""
    form = forms.TableCreateForm()
    spec = spec_for(variant)
    defaults = spec.option_defaults(spec.default_seats)
    gin = variant in forms.GIN_VARIANTS
    prefix = form.GIN_PREFIX if gin else form.OPTION_PREFIX
    rows = []
    for name, field in form.fields.items():
        key = _field_key(name)
        if not name.startswith(prefix):
            continue
        only = forms.GIN_OPTION_LABELS[key][2] if gin else None  # the Gin variants an option is for
        if only and variant not in only:
            continue
        default = dict(words.options_text(variant, {key: defaults.get(key)})).get(str(field.label), "—")
        if key == "jokers":
            default = field.help_text
        rows.append(
            {
                "key": key,
                "label": field.label,
                "values": _values(field),
                "default": default,
                "effect": EFFECTS.get(key, ""),
            }
        )
    return rows


def page(request: HttpRequest, variant: str = "") -> HttpResponse:
    """``/how-to-play/<game>/``: the game's rules for players and its table options (anyone may read)."""
    games = [(v.value, v.label) for v in GAMES]
    if not variant:
        return redirect("games:howto", variant=Variant.MANIPULATION.value)
    if variant not in dict(games):
        raise Http404(_("There is no such game."))
    spec = spec_for(variant)
    ctx = {
        "variant": variant,
        "family": spec.family,  # the command line's section (games/howto/_typed.html) names its game's commands
        "title": Variant(variant).label,
        "games": games,
        "options": option_rows(variant),
        "template": f"games/howto/{variant}.html",
        "d": spec.option_defaults(spec.default_seats),
        # Turn-based tables (docs/turn-based.md): the lobby's times and the rule at the deadline.
        "move_times": lists.items([move_time_label(t) for t in MOVE_TIME_CHOICES]),
        "missed": MISSED_TURNS_FOR_AUTOPILOT,
    }  # the defaults the rules below are told with
    return render(request, "games/howto/page.html", ctx)
