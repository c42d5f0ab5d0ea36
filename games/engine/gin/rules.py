"""Gin Rummy's table options (RULES E.2) as one immutable value, with the variants' presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidAction


@dataclass(frozen=True, slots=True)
class VariantTraits:
    """What a Gin variant fixes (python-chess's variant class attributes, as data): its ``players``,
    its defaults for ``game_target`` and ``end_bonuses`` (E.2), whether it is Oklahoma play (D.2;
    ``None``: optional) and whether it scores Hollywood's three games at once (D.3)."""

    players: int = 2
    game_target: int = 100
    end_bonuses: bool = True
    oklahoma: bool | None = False
    hollywood_scoring: bool = False


TRAITS: dict[str, VariantTraits] = {
    "box3": VariantTraits(players=3, end_bonuses=False),  # Part C
    "gin2": VariantTraits(),  # D.1
    "oklahoma": VariantTraits(game_target=150, oklahoma=True),  # D.2
    "hollywood": VariantTraits(oklahoma=None, hollywood_scoring=True),  # D.3, optionally Oklahoma play
}
VARIANTS = tuple(TRAITS)
VARIANT_ALIASES = {"gin_box": "box3", "box": "box3", "gin": "gin2", "two_player": "gin2"}  # web-layer keys
_RULE_KEYS = (
    "knock_limit",
    "gin_bonus",
    "undercut_bonus",
    "undercut_on_tie",
    "big_gin",
    "no_discard_of_taken_card",
    "dead_hand_at_stock",
    "fiftieth_card_rule",
    "game_target",
    "end_bonuses",
    "game_bonus",
    "box_bonus",
    "shutout",
    "role_draw_ties",
    "advisor_can_advise",
    "dealer_2p",
    "oklahoma_ace",
    "oklahoma_spades_double",
    "oklahoma_double_boxes",
    "hollywood_target",
)


def _bad(key: str, value: Any, allowed: str) -> InvalidAction:
    return InvalidAction(f"Gin option {key}={value!r} is not allowed ({allowed}).", code="bad_option")


# Integer options (RULES E.2): key -> (min, max); those with a fixed list of values also in INT_CHOICES.
# The open-ended ones are bounded so that no total can leave the stored 32-bit score columns.
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 10),
    "gin_bonus": (20, 25),
    "undercut_bonus": (10, 25),
    "dead_hand_at_stock": (2, 2),
    "game_target": (1, 10_000),
    "game_bonus": (0, 10_000),
    "box_bonus": (20, 25),
    "hollywood_target": (100, 150),
}
INT_CHOICES: dict[str, tuple[int, ...]] = {
    "gin_bonus": (20, 25),
    "undercut_bonus": (10, 20, 25),
    "dead_hand_at_stock": (2,),
    "box_bonus": (20, 25),
    "hollywood_target": (100, 125, 150),
}


_BOOL_OPTIONS = (
    "undercut_on_tie",
    "no_discard_of_taken_card",
    "fiftieth_card_rule",
    "end_bonuses",
    "advisor_can_advise",
    "oklahoma_spades_double",
    "oklahoma_double_boxes",
)
_CHOICE_OPTIONS: dict[str, tuple[str, ...]] = {
    "big_gin": ("off", "31", "gin+6"),
    "shutout": ("game_bonus_200", "double", "off"),
    "role_draw_ties": ("redraw",),
    "dealer_2p": ("winner", "alternate", "loser"),
    "oklahoma_ace": ("gin_only", "one"),
}


def _variant_of(options: dict[str, Any]) -> tuple[str, bool]:
    """``(variant, oklahoma)`` of the options (web-layer aliases accepted); InvalidAction when bad."""
    variant = options.get("variant", "box3")
    variant = VARIANT_ALIASES.get(variant, variant) if isinstance(variant, str) else variant
    if variant not in VARIANTS:
        raise _bad("variant", variant, " / ".join(VARIANTS))
    fixed = TRAITS[variant].oklahoma  # True / False: the variant fixes it; None: optional
    oklahoma = options.get("oklahoma", bool(fixed))
    if not isinstance(oklahoma, bool) or (fixed is not None and oklahoma != fixed):
        raise _bad("oklahoma", oklahoma, "true for the oklahoma variant, optional for hollywood")
    return variant, oklahoma


def _defaults(variant: str) -> dict[str, Any]:
    """Every option's default for the variant (RULES E.2)."""
    return {
        "knock_limit": 10,
        "gin_bonus": 25,
        "undercut_bonus": 10,
        "undercut_on_tie": True,
        "big_gin": "off",
        "no_discard_of_taken_card": True,
        "dead_hand_at_stock": 2,
        "fiftieth_card_rule": False,
        "game_target": TRAITS[variant].game_target,
        "end_bonuses": TRAITS[variant].end_bonuses,
        "game_bonus": 100,
        "box_bonus": 25,
        "shutout": "game_bonus_200",
        "role_draw_ties": "redraw",
        "advisor_can_advise": True,
        "dealer_2p": "winner",
        "oklahoma_ace": "gin_only",
        "oklahoma_spades_double": True,
        "oklahoma_double_boxes": False,
        "hollywood_target": 100,
    }


def _normalise(vals: dict[str, Any]) -> None:
    """The spellings accepted for ``big_gin`` and ``shutout`` written one way."""
    bg = vals["big_gin"]
    if bg is False or bg is None:
        bg = "off"
    if bg == 31 or bg == "31":
        bg = "31"
    vals["big_gin"] = bg
    if vals["shutout"] is False or vals["shutout"] is None:
        vals["shutout"] = "off"


def _check(vals: dict[str, Any]) -> None:
    """InvalidAction (code ``bad_option``) for the first option out of its range or choices."""
    for k, (lo, hi) in OPTION_RANGES.items():
        v, choices = vals[k], INT_CHOICES.get(k)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi or (choices and v not in choices):
            raise _bad(k, v, " / ".join(map(str, choices)) if choices else f"an integer {lo}-{hi}")
    for k in _BOOL_OPTIONS:
        if not isinstance(vals[k], bool):
            raise _bad(k, vals[k], "true / false")
    for k, allowed in _CHOICE_OPTIONS.items():
        if vals[k] not in allowed:
            raise _bad(k, vals[k], " / ".join(allowed))


@dataclass(frozen=True, slots=True, init=False)
class GinRules:
    """The table options of RULES E.2 plus the variant.

    ``variant``: ``"box3"`` (three players, Part C; the default), ``"gin2"`` (two-player Gin, D.1),
    ``"oklahoma"`` (D.2) or ``"hollywood"`` (D.3 scoring; with ``oklahoma=True`` also Oklahoma play).
    Defaults follow the E.2 table per variant (e.g. ``end_bonuses`` off for three players, on for two;
    ``game_target`` 150 for Oklahoma).
    """

    variant: str
    oklahoma: bool
    knock_limit: int
    gin_bonus: int
    undercut_bonus: int
    undercut_on_tie: bool
    big_gin: str
    no_discard_of_taken_card: bool
    dead_hand_at_stock: int
    fiftieth_card_rule: bool
    game_target: int
    end_bonuses: bool
    game_bonus: int
    box_bonus: int
    shutout: str
    role_draw_ties: str
    advisor_can_advise: bool
    dealer_2p: str
    oklahoma_ace: str
    oklahoma_spades_double: bool
    oklahoma_double_boxes: bool
    hollywood_target: int

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(_RULE_KEYS) - {"variant", "oklahoma"}
        if unknown:
            raise InvalidAction(f"Unknown Gin option(s): {', '.join(sorted(unknown))}.", code="bad_option")
        variant, oklahoma = _variant_of(options)
        vals = _defaults(variant)
        vals.update({k: v for k, v in options.items() if k in _RULE_KEYS})
        _normalise(vals)
        _check(vals)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "oklahoma", oklahoma)
        for k in _RULE_KEYS:
            object.__setattr__(self, k, vals[k])

    # presets ----------------------------------------------------------------------------------
    @classmethod
    def box3(cls, **options: Any) -> GinRules:
        """Three-player Gin "in the box" (Part C)."""
        return cls(variant="box3", **options)

    @classmethod
    def two_player(cls, **options: Any) -> GinRules:
        """Standard two-player Gin (D.1)."""
        return cls(variant="gin2", **options)

    @classmethod
    def hollywood(cls, oklahoma: bool = False, **options: Any) -> GinRules:
        """Hollywood scoring (D.3) over two-player play, optionally Oklahoma play."""
        return cls(variant="hollywood", oklahoma=oklahoma, **options)

    # properties ---------------------------------------------------------------------------------
    @property
    def traits(self) -> VariantTraits:
        return TRAITS[self.variant]

    @property
    def players(self) -> int:
        return self.traits.players

    @property
    def hollywood_scoring(self) -> bool:
        """Hollywood: three games scored at once (D.3)."""
        return self.traits.hollywood_scoring

    @property
    def target(self) -> int:
        """The score that ends a game: ``hollywood_target`` for Hollywood's games, else ``game_target``."""
        return self.hollywood_target if self.hollywood_scoring else self.game_target

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"variant": self.variant, "oklahoma": self.oklahoma}
        for k in _RULE_KEYS:
            d[k] = getattr(self, k)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GinRules:
        if not isinstance(d, dict):
            raise InvalidAction("Gin rules must be a dict.", code="bad_option")
        return cls(**d)


# ``GinRules.oklahoma`` is the flag field on an instance and the preset on the class.
def _oklahoma_preset(**options: Any) -> GinRules:
    return GinRules(variant="oklahoma", **options)


class _PresetOrFlag:
    """``GinRules.oklahoma()`` is the preset; ``rules.oklahoma`` on an instance is the bool flag."""

    def __init__(self, member: Any) -> None:
        self.member = member

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return _oklahoma_preset
        return self.member.__get__(obj, objtype)

    def __set__(self, obj: Any, value: Any) -> None:
        self.member.__set__(obj, value)


GinRules.oklahoma = _PresetOrFlag(GinRules.__dict__["oklahoma"])  # type: ignore[assignment]


def as_rules(rules: Any) -> GinRules:
    """``rules`` as a :class:`GinRules` (``None``: the defaults; a dict: its options)."""
    if rules is None:
        return GinRules()
    if isinstance(rules, GinRules):
        return rules
    if isinstance(rules, dict):
        return GinRules.from_dict(rules)
    raise InvalidAction("rules must be a GinRules or a dict of options.", code="bad_option")
