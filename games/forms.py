"""The lobby's "new table" form: every rule option of the variant, with its default shown."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine import gin
from games.engine import manipulation as manip
from games.models import MOVE_TIME_CHOICES, TIMER_CHOICES, Variant
from games.variants import GIN_VARIANTS, spec_for
from plumbing import inputs

# Label and help for every option key of RULES E.1 (the engine owns values and defaults).
MANIPULATION_OPTION_LABELS: dict[str, tuple[Any, Any]] = {
    "jokers": (_("Jokers"), _("Default: 1 for two players, 2 for three to five.")),
    "hand_size": (_("Cards dealt"), ""),
    # RULES B.5 / E.1 (the engine's meld_step_follows): with 1, the draw is followed by the meld step.
    "max_draws_per_turn": (
        _("Most draws per turn"),
        _("1: draw one card, then you may meld. 2 or 3: draw, then meld or draw again; no meld after the last draw."),
    ),
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

# RULES E.2: label, help, and the table variants the option applies to (None: every Gin variant).
_TWO = ("gin", "oklahoma", "hollywood")
GIN_OPTION_LABELS: dict[str, tuple[Any, Any, tuple[str, ...] | None]] = {
    "knock_limit": (
        _("Knock with at most (deadwood)"),
        _("Oklahoma: the first upcard sets the limit."),
        ("gin_box", "gin", "hollywood"),
    ),
    "gin_bonus": (_("Gin bonus"), "", None),
    "undercut_bonus": (_("Undercut bonus"), "", None),
    "undercut_on_tie": (_("Equal deadwood is an undercut"), "", None),
    "big_gin": (_("Big gin (eleven cards melded)"), "", None),
    "no_discard_of_taken_card": (_("A card taken from the pile may not be discarded that turn"), "", None),
    "dead_hand_at_stock": (_("Dead hand when the stock is down to"), "", None),
    "fiftieth_card_rule": (_("50th-card rule (the last discard only to knock)"), "", None),
    "game_target": (_("Game ends at (points)"), _("Default: 100; Oklahoma 150."), ("gin_box", "gin", "oklahoma")),
    # Translators: Gin scoring: a "box" here is a hand won (a line on the score sheet), not the role "the box";
    # a "shutout" is a game the loser ended without scoring.
    "end_bonuses": (
        _("End-of-game bonuses (game, boxes, shutout)"),
        _("Default: off for three players, on for two."),
        None,
    ),
    "game_bonus": (_("Game bonus"), "", None),
    # Translators: Gin scoring: the bonus for each hand (each "box" on the score sheet) a player won.
    "box_bonus": (_("Box bonus per hand won"), "", None),
    "shutout": (_("Shutout"), "", None),
    "role_draw_ties": (_("Tied role draw"), "", ("gin_box",)),
    "advisor_can_advise": (_("The advisor may advise the captain"), "", ("gin_box",)),
    "dealer_2p": (_("Next dealer"), "", _TWO),
    "oklahoma": (_("Play Oklahoma rules (upcard sets the knock limit)"), "", ("hollywood",)),
    "oklahoma_ace": (_("Oklahoma: an ace upcard means"), "", ("oklahoma", "hollywood")),
    "oklahoma_spades_double": (_("Oklahoma: a spade upcard doubles the hand"), "", ("oklahoma", "hollywood")),
    "oklahoma_double_boxes": (_("Oklahoma: doubled hands count two boxes"), "", ("oklahoma", "hollywood")),
    "hollywood_target": (_("Each Hollywood game ends at (points)"), "", ("hollywood",)),
}
# Options whose default differs between Gin variants: a blank field means "the variant's default".
GIN_VARYING = ("game_target", "end_bonuses")
GIN_CHOICES: dict[str, list[tuple[Any, Any]]] = {
    "gin_bonus": [(25, "25"), (20, "20")],
    "undercut_bonus": [(10, "10"), (20, "20"), (25, "25")],
    "big_gin": [("off", _("off")), ("31", _("31 points")), ("gin+6", _("gin bonus + 6"))],
    "dead_hand_at_stock": [(2, _("2 cards"))],
    "box_bonus": [(25, "25"), (20, "20")],
    "shutout": [("game_bonus_200", _("game bonus 200")), ("double", _("winner's points doubled")), ("off", _("off"))],
    "role_draw_ties": [("redraw", _("the tied players draw again"))],
    "dealer_2p": [
        ("winner", _("the winner of the hand")),
        ("alternate", _("alternate")),
        ("loser", _("the loser of the hand")),
    ],
    "oklahoma_ace": [("gin_only", _("gin only, no knocking")), ("one", _("knock with 1 or less"))],
    "hollywood_target": [(100, "100"), (125, "125"), (150, "150")],
    "end_bonuses": [("", _("the variant's default")), ("on", _("on")), ("off", _("off"))],
}


def gin_defaults(variant: str) -> dict[str, Any]:
    """The engine's defaults of a Gin table variant (``gin_box`` ...), by option key."""
    spec = spec_for(variant)
    return spec.option_defaults(spec.default_seats)


def _gin_fields(prefix: str) -> dict[str, forms.Field]:
    defaults = gin_defaults("gin")
    out: dict[str, forms.Field] = {}
    for key, (label, help_text, _variants) in GIN_OPTION_LABELS.items():
        name, default = f"{prefix}{key}", defaults[key]
        if key == "game_target":
            lo, hi = gin.OPTION_RANGES[key]
            out[name] = forms.IntegerField(
                label=label, min_value=lo, max_value=hi, required=False, help_text=_with_range(help_text, lo, hi)
            )
        elif key in GIN_CHOICES:
            choices = GIN_CHOICES[key]
            coerce = int if isinstance(choices[0][0], int) else str
            initial = "" if key in GIN_VARYING else default
            out[name] = forms.TypedChoiceField(
                label=label, choices=choices, coerce=coerce, initial=initial, required=False, help_text=help_text
            )
        elif isinstance(default, bool):
            out[name] = forms.BooleanField(label=label, required=False, initial=default, help_text=help_text)
        else:
            lo, hi = gin.OPTION_RANGES[key]
            out[name] = forms.IntegerField(
                label=label,
                min_value=lo,
                max_value=hi,
                required=False,
                initial=default,
                help_text=_with_range(help_text, lo, hi),
            )
    return out


def _with_range(help_text: Any, lo: int, hi: int) -> str:
    """The field's help with the range the engine accepts (RULES E: the engine's table of ranges)."""
    span = _("From %(lo)s to %(hi)s.") % {"lo": lo, "hi": hi}
    return format_lazy("{} {}", help_text, span) if help_text else span


def _option_fields(prefix: str) -> dict[str, forms.Field]:
    defaults = manip.ManipulationRules().to_dict()
    out: dict[str, forms.Field] = {}
    for key, (label, help_text) in MANIPULATION_OPTION_LABELS.items():
        default = defaults.get(key)
        name = f"{prefix}{key}"
        if key in manip.BOOL_OPTIONS:
            out[name] = forms.BooleanField(label=label, required=False, initial=default, help_text=help_text)
        elif key in manip.ENUM_OPTIONS:
            choices = [(v, CHOICE_LABELS.get(v, v)) for v in manip.ENUM_OPTIONS[key]]
            out[name] = forms.ChoiceField(label=label, choices=choices, initial=default, help_text=help_text)
        else:
            lo, hi = (0, 4) if key == "jokers" else manip.OPTION_RANGES[key]
            out[name] = forms.IntegerField(
                label=label,
                min_value=lo,
                max_value=hi,
                required=key != "jokers",
                initial=default,
                help_text=help_text if key == "jokers" else _with_range(help_text, lo, hi),
            )
    return out


def timer_choices() -> list[tuple[int, str]]:
    """The turn timer's choices in the reader's language (made per form: a plural is chosen by its number)."""
    return [
        (0, str(_("none"))),
        *[(t, ngettext("%(n)d second", "%(n)d seconds", t) % {"n": t}) for t in TIMER_CHOICES if t],
    ]


def move_time_label(seconds: int) -> str:
    """A time per move in words: "12 hours", "1 day", "3 days" (the lobby, the table, How to play)."""
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    hours = seconds // 3600
    return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}


def move_time_choices() -> list[tuple[int, str]]:
    """The time per move's choices in the reader's language: real time, or a turn-based table."""
    # Translators: the lobby's "Time per move" choice for a table played live (with the turn timer).
    return [(0, str(_("real time (play now)"))), *[(t, move_time_label(t)) for t in MOVE_TIME_CHOICES]]


class TableCreateForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), choices=Variant.choices, initial=Variant.MANIPULATION.value)
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
        choices=[(0, _("none"))],  # and the timers, in the reader's language: __init__
        initial=0,
    )
    move_time = forms.TypedChoiceField(
        label=_("Time per move"),
        coerce=int,
        choices=[(0, _("real time (play now)"))],  # and the turn-based times: __init__
        initial=0,
        required=False,  # a form without it (the home page's quick game, an old page) makes a real-time table
        empty_value=0,
        help_text=_(
            "Turn-based: play over days. Each player has this long for a move and is told when it is "
            "their move; the turn timer is not used."
        ),
    )
    is_private = forms.BooleanField(label=_("Private table (join by invite link only)"), required=False, initial=False)
    practice = forms.BooleanField(
        label=_("Practice table (not rated)"),
        required=False,
        initial=False,
        help_text=_("While every other player is a bot, a Hint button shows the best play for your move."),
    )

    OPTION_PREFIX = "opt_"
    GIN_PREFIX = "gin_"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["turn_timer"].choices = timer_choices()
        self.fields["move_time"].choices = move_time_choices()
        self.fields.update(_option_fields(self.OPTION_PREFIX))
        self.fields.update(_gin_fields(self.GIN_PREFIX))
        if self.is_bound and self.data.get("variant") in GIN_VARIANTS:
            # A Gin table does not need the Manipulation options (a form may post only its own).
            for name in self.fields:
                if name.startswith(self.OPTION_PREFIX):
                    self.fields[name].required = False

    @property
    def is_gin(self) -> bool:
        return self.cleaned_data.get("variant") in GIN_VARIANTS

    def has_option_errors(self) -> bool:
        """True when a Manipulation option was refused: the page opens that section to show why."""
        return self.is_bound and any(self[n].errors for n in self.fields if n.startswith(self.OPTION_PREFIX))

    def has_gin_option_errors(self) -> bool:
        return self.is_bound and any(self[n].errors for n in self.fields if n.startswith(self.GIN_PREFIX))

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith(self.OPTION_PREFIX)]

    def gin_option_fields(self):
        """The Gin options, each with the table variants it applies to (``field.gin_variants``)."""
        out = []
        for key, (_label, _help, variants) in GIN_OPTION_LABELS.items():
            bound = self[f"{self.GIN_PREFIX}{key}"]
            bound.gin_variants = " ".join(variants or GIN_VARIANTS)
            out.append(bound)
        return out

    def gin_defaults_by_variant(self) -> dict[str, dict[str, Any]]:
        """Per Gin variant, the default shown in each field (for the lobby's small script)."""
        out = {}
        for variant in GIN_VARIANTS:
            d = gin_defaults(variant)
            out[variant] = {
                f"{self.GIN_PREFIX}{k}": ("on" if d[k] else "off") if k == "end_bonuses" else d[k]
                for k in GIN_OPTION_LABELS
            }
        return out

    def variant_tables(self) -> dict[str, dict[str, Any]]:
        """Per variant, what the lobby's script needs to adjust the form: its family (which options
        show), whether the game fixes the table size, the seats it deals for and the most bots."""
        out = {}
        for variant, _label in Variant.choices:
            spec = spec_for(variant)
            out[variant] = {
                "family": spec.family,
                "fixed": len(spec.seat_choices) == 1,
                "seats": spec.default_seats,
                "most_bots": max(spec.seat_choices) - 1,
            }
        return out

    def main_fields(self):
        return [
            self[name]
            for name in self.fields
            if not name.startswith(self.OPTION_PREFIX) and not name.startswith(self.GIN_PREFIX)
        ]

    def clean_move_time(self) -> int:
        """Only a listed time (the choice field already refused others), read by the one input layer."""
        raw = self.data.get("move_time")
        if raw in (None, ""):
            return 0
        try:
            seconds = inputs.parse_int(raw, lo=0, hi=max(MOVE_TIME_CHOICES))
        except inputs.BadInput as exc:
            raise forms.ValidationError(exc.message, code="bad_move_time") from None
        if seconds and seconds not in MOVE_TIME_CHOICES:
            raise forms.ValidationError(_("Choose a time per move from the list."), code="bad_move_time")
        return seconds

    def clean(self):
        data = super().clean()
        variant = data.get("variant")
        if variant in GIN_VARIANTS:
            data["seats"] = spec_for(variant).seat_choices[0]  # the variant fixes the table size
        seats, bots = data.get("seats"), data.get("bots")
        if seats is not None and bots is not None and bots > seats - 1:
            self.add_error(
                "bots",
                ngettext(
                    "At most %(n)d bot fits at a table of %(s)d.",
                    "At most %(n)d bots fit at a table of %(s)d.",
                    seats - 1,
                )
                % {"n": seats - 1, "s": seats},
            )
        return data

    def rule_options(self) -> dict[str, Any]:
        """The options that differ from the defaults (the engine fills in the rest)."""
        return rule_options_of(self.cleaned_data, self.cleaned_data["variant"], self.cleaned_data["seats"])


# The house rules as fields, shared by the lobby's table form and the tournament admin's form (one source).


def rule_option_fields() -> dict[str, forms.Field]:
    """Every house rule as a field: Manipulation's (``opt_<key>``) and Gin's (``gin_<key>``), as the lobby offers them."""
    return {
        **_option_fields(TableCreateForm.OPTION_PREFIX),
        **_gin_fields(TableCreateForm.GIN_PREFIX),
    }


def rule_options_of(data: dict[str, Any], variant: str, seats: int) -> dict[str, Any]:
    """The options (by key) that differ from the variant's defaults at a table of ``seats``, from the
    cleaned values of :func:`rule_option_fields` (the engine fills in the rest)."""
    if variant in GIN_VARIANTS:
        return _gin_rule_options(data, variant)
    prefix = TableCreateForm.OPTION_PREFIX
    defaults = manip.ManipulationRules().for_players(seats).to_dict()
    out = {}
    for name, value in data.items():
        if not name.startswith(prefix):
            continue
        key = name[len(prefix) :]
        if value is None:
            continue
        if value != defaults.get(key):
            out[key] = value
    return out


def rule_option_initial(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """The fields' values showing stored ``options`` (the reverse of :func:`rule_options_of`)."""
    if variant in GIN_VARIANTS:
        out = {}
        for key, value in (options or {}).items():
            if key == "end_bonuses":
                value = "on" if value else "off"
            out[f"{TableCreateForm.GIN_PREFIX}{key}"] = value
        return out
    return {f"{TableCreateForm.OPTION_PREFIX}{key}": value for key, value in (options or {}).items()}


def _gin_rule_options(data: dict[str, Any], variant: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, (_label, _help, variants) in GIN_OPTION_LABELS.items():
        value = data.get(f"{TableCreateForm.GIN_PREFIX}{key}")
        if variants is not None and variant not in variants:
            continue
        if key == "end_bonuses":
            value = {"on": True, "off": False}.get(value)
        if value is None or value == "":
            continue
        values[key] = value
    defaults = gin_defaults(variant)
    if values.get("oklahoma"):
        defaults = {**gin.GinRules(variant="hollywood", oklahoma=True).to_dict(), "oklahoma": False}
    return {k: v for k, v in values.items() if v != defaults.get(k)}
