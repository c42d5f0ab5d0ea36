"""The lobby's "new table" form: every rule option of the variant, with its default shown."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import manipulation as manip
from games.models import Variant
from games.services import TIMER_CHOICES

# Label and help for every option key of RULES E.1 (the engine owns values and defaults).
MANIPULATION_OPTION_LABELS: dict[str, tuple[Any, Any]] = {
    "jokers": (_("Jokers"), _("Default: 1 for two players, 2 for three to five.")),
    "hand_size": (_("Cards dealt"), ""),
    "max_draws_per_turn": (_("Most draws per turn"), ""),
    "must_draw_if_no_meld": (_("Draw again when you do not meld"), ""),
    "knock_limit": (_("Knock with at most (points)"), ""),
    "knock_timing": (_("When you may knock"), ""),
    "undercut_bonus": (_("Undercut bonus"), ""),
    "going_out_bonus": (_("Going-out bonus"), ""),
    "joker_value": (_("A joker in hand counts"), ""),
    "ace_in_sequences": (_("Aces in sequences"), ""),
    "joker_substitute_from": (_("A table joker can be replaced from"), ""),
    "freed_joker_reuse": (_("A freed joker may go into"), ""),
    "first_meld_min_points": (_("First meld minimum (points)"), _("0 means no minimum.")),
    "stock_exhausted": (_("When the stock runs out"), ""),
    "knock_in_final_lap": (_("Knocking allowed in the final lap"), ""),
    "tie_nonknockers": (_("Non-knockers tied for lowest"), ""),
    "game_target": (_("Game ends at (points)"), ""),
    "game_bonus": (_("Bonus for reaching the target"), ""),
    "round_won_bonus": (_("Bonus per round won"), ""),
    "round_won_bonus_to": (_("Round bonus goes to"), ""),
    "final_tie": (_("Equal final totals"), ""),
    "deal_rotation": (_("Next dealer"), ""),
}

CHOICE_LABELS: dict[str, Any] = {
    "end_of_turn": _("at the end of the turn"),
    "start_of_turn": _("at the start of the turn"),
    "high_or_low": _("high or low (no wrap)"),
    "low_only": _("low only"),
    "high_only": _("high only"),
    "hand_or_table": _("hand or table"),
    "hand_only": _("hand only"),
    "any_meld": _("any meld"),
    "new_meld_only": _("a new meld only"),
    "final_meld_lap": _("one final meld lap"),
    "end_immediately": _("the round ends at once"),
    "all_win": _("all of them win"),
    "none_win": _("none of them wins"),
    "others": _("players below the target"),
    "all": _("every player"),
    "co_winners": _("co-winners"),
    "most_rounds_won": _("most rounds won wins"),
    "left": _("passes to the left"),
    "winner_deals": _("the round's winner"),
}

VARIANT_SEATS = {Variant.MANIPULATION: (2, 3, 4, 5)}


def _option_fields(prefix: str) -> dict[str, forms.Field]:
    defaults = manip.ManipulationRules().to_dict()
    out: dict[str, forms.Field] = {}
    for key, (label, help_text) in MANIPULATION_OPTION_LABELS.items():
        default = defaults.get(key)
        name = f"{prefix}{key}"
        if key in manip._BOOLS:
            out[name] = forms.BooleanField(label=label, required=False, initial=default, help_text=help_text)
        elif key in manip._ENUMS:
            choices = [(v, CHOICE_LABELS.get(v, v)) for v in manip._ENUMS[key]]
            out[name] = forms.ChoiceField(label=label, choices=choices, initial=default, help_text=help_text)
        else:
            lo, hi = manip._INTS.get(key, (0, None))
            if key == "jokers":
                lo, hi = 0, 4
            out[name] = forms.IntegerField(
                label=label, min_value=lo, max_value=hi, required=key != "jokers",
                initial=default, help_text=help_text,
            )
    return out


class TableCreateForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), choices=[(Variant.MANIPULATION.value, Variant.MANIPULATION.label)])
    seats = forms.TypedChoiceField(
        label=_("Players"), coerce=int, choices=[(n, str(n)) for n in (2, 3, 4, 5)], initial=3
    )
    bots = forms.TypedChoiceField(
        label=_("Fill with bots"),
        coerce=int,
        choices=[(n, str(n)) for n in range(5)],
        initial=2,
        help_text=_("Bots take the seats after yours; leave seats free for friends."),
    )
    turn_timer = forms.TypedChoiceField(
        label=_("Turn timer"),
        coerce=int,
        choices=[(0, _("none")), *[(t, _("%(n)d seconds") % {"n": t}) for t in TIMER_CHOICES if t]],
        initial=0,
    )
    is_private = forms.BooleanField(
        label=_("Private table (join by invite link only)"), required=False, initial=False
    )

    OPTION_PREFIX = "opt_"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(_option_fields(self.OPTION_PREFIX))

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith(self.OPTION_PREFIX)]

    def main_fields(self):
        return [self[name] for name in self.fields if not name.startswith(self.OPTION_PREFIX)]

    def clean(self):
        data = super().clean()
        seats, bots = data.get("seats"), data.get("bots")
        if seats is not None and bots is not None and bots > seats - 1:
            self.add_error("bots", _("At most %(n)d bots fit at a table of %(s)d.") % {"n": seats - 1, "s": seats})
        return data

    def rule_options(self) -> dict[str, Any]:
        """The options that differ from the defaults (the engine fills in the rest)."""
        defaults = manip.ManipulationRules().for_players(self.cleaned_data["seats"]).to_dict()
        out = {}
        for name, value in self.cleaned_data.items():
            if not name.startswith(self.OPTION_PREFIX):
                continue
            key = name[len(self.OPTION_PREFIX):]
            if value is None:
                continue
            if value != defaults.get(key):
                out[key] = value
        return out
