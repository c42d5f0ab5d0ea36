"""Manipulation Rummy's table options (RULES E.1) as one immutable value, with their defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from ..errors import InvalidAction

GAME = "manipulation"

# The options with a choice of values, and the yes/no options (games/forms.py builds the options form from them).
ENUM_OPTIONS = {
    "knock_timing": ("end_of_turn", "start_of_turn"),
    "ace_in_sequences": ("high_or_low", "low_only", "high_only"),
    "joker_substitute_from": ("hand_or_table", "hand_only"),
    "freed_joker_reuse": ("any_meld", "new_meld_only"),
    "stock_exhausted": ("final_meld_lap", "end_immediately"),
    "tie_nonknockers": ("all_win", "none_win"),
    "round_won_bonus_to": ("others", "all"),
    "final_tie": ("co_winners", "most_rounds_won"),
    "deal_rotation": ("left", "winner_deals"),
}
BOOL_OPTIONS = ("must_draw_if_no_meld", "knock_in_final_lap")
# key -> (min, max).  RULES E.1 says "int" for the score options; every one is bounded so that no
# match total can leave the stored 32-bit score columns (13 cards × 100 points + bonuses, over at
# most game_target / 1 rounds, stays far below 2**31) and the form shows the range.
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "hand_size": (7, 13),
    "max_draws_per_turn": (1, 3),
    "knock_limit": (0, 10),
    "undercut_bonus": (0, 500),
    "going_out_bonus": (0, 500),
    "joker_value": (0, 100),
    "first_meld_min_points": (0, 300),
    "game_target": (1, 10_000),
    "game_bonus": (0, 10_000),
    "round_won_bonus": (0, 500),
}

OPTION_DEFAULTS: dict[str, Any] = {
    "players": None,
    "jokers": None,
    "hand_size": 10,
    "max_draws_per_turn": 3,
    "must_draw_if_no_meld": True,
    "knock_limit": 5,
    "knock_timing": "end_of_turn",
    "undercut_bonus": 10,
    "going_out_bonus": 25,
    "joker_value": 25,
    "ace_in_sequences": "high_or_low",
    "joker_substitute_from": "hand_or_table",
    "freed_joker_reuse": "any_meld",
    "first_meld_min_points": 0,
    "stock_exhausted": "final_meld_lap",
    "knock_in_final_lap": True,
    "tie_nonknockers": "all_win",
    "game_target": 150,
    "game_bonus": 100,
    "round_won_bonus": 25,
    "round_won_bonus_to": "others",
    "final_tie": "co_winners",
    "deal_rotation": "left",
}


def _bad(key: str, value: object, expected: str) -> InvalidAction:
    return InvalidAction(f"Option {key} = {value!r} is not valid: expected {expected}.", code="bad_option")


@dataclass(frozen=True, slots=True, init=False)
class ManipulationRules:
    """The table options of RULES E.1, with their defaults.

    ``players`` may be left ``None`` until the round is dealt (it is then taken
    from the seats); ``jokers`` defaults by players: 2 → 1, 3–5 → 2 (allowed
    0–2 / 0–4).  Bad values raise :class:`InvalidAction` (code ``bad_option``).
    """

    players: int | None
    jokers: int | None
    hand_size: int
    max_draws_per_turn: int
    must_draw_if_no_meld: bool
    knock_limit: int
    knock_timing: str
    undercut_bonus: int
    going_out_bonus: int
    joker_value: int
    ace_in_sequences: str
    joker_substitute_from: str
    freed_joker_reuse: str
    first_meld_min_points: int
    stock_exhausted: str
    knock_in_final_lap: bool
    tie_nonknockers: str
    game_target: int
    game_bonus: int
    round_won_bonus: int
    round_won_bonus_to: str
    final_tie: str
    deal_rotation: str

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(OPTION_DEFAULTS))
        if unknown:
            raise InvalidAction(f"Unknown Manipulation option(s): {', '.join(unknown)}.", code="bad_option")
        values = {**OPTION_DEFAULTS, **options}
        for key, allowed in ENUM_OPTIONS.items():
            if values[key] not in allowed:
                raise _bad(key, values[key], " or ".join(allowed))
        for key in BOOL_OPTIONS:
            if not isinstance(values[key], bool):
                raise _bad(key, values[key], "true or false")
        for key, (lo, hi) in OPTION_RANGES.items():
            v = values[key]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise _bad(key, v, f"an integer {lo}–{hi}")
        players = values["players"]
        if players is not None and (not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5):
            raise _bad("players", players, "2 to 5")
        jokers = values["jokers"]
        if jokers is not None:
            if not isinstance(jokers, int) or isinstance(jokers, bool) or jokers < 0:
                raise _bad("jokers", jokers, "0–2 for 2 players, 0–4 for 3–5 players")
            if players is not None and jokers > (2 if players == 2 else 4):
                raise _bad("jokers", jokers, "0–2 for 2 players, 0–4 for 3–5 players")
            if jokers > 4:
                raise _bad("jokers", jokers, "at most 4")
        elif players is not None:
            values["jokers"] = 1 if players == 2 else 2
        for key, v in values.items():
            object.__setattr__(self, key, v)

    # ----- helpers ------------------------------------------------------
    @property
    def packs(self) -> int:
        """B.1.2: one pack for 2 players, two packs for 3–5."""
        return 1 if self.players == 2 else 2

    def replace(self, **changes: Any) -> ManipulationRules:
        d = self.to_dict()
        if "players" in changes and "jokers" not in changes and self.players is None:
            pass  # jokers stays as given (None → default by players)
        d.update(changes)
        return ManipulationRules(**d)

    def for_players(self, n: int) -> ManipulationRules:
        if self.players is None:
            return self.replace(players=n)
        if self.players != n:
            raise InvalidAction(f"These rules are for {self.players} players, not {n}.", code="bad_players")
        return self

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _option_names()}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> ManipulationRules:
        if d is None:
            return cls()
        if not isinstance(d, dict):
            raise InvalidAction("Rules must be a dict of options.", code="bad_option")
        return cls(**d)


@cache
def _option_names() -> tuple[str, ...]:
    """The options' names, in order (``dataclasses.fields`` builds its tuple at every call: a state is
    written and each view drawn with the rules as a dict)."""
    return tuple(f.name for f in fields(ManipulationRules))


def as_rules(rules: ManipulationRules | dict | None) -> ManipulationRules:
    """``rules`` as a :class:`ManipulationRules` (``None``: the defaults; a dict: its options)."""
    if isinstance(rules, ManipulationRules):
        return rules
    return ManipulationRules.from_dict(rules)
