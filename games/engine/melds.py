"""DESIGN §3 keeps ``games.engine.melds.classify``: the meld rules live in :mod:`.manipulation.melds`."""

from .manipulation.melds import ace_mode_of, classify, completions, joker_options, sort_meld, validate_meld

__all__ = ["ace_mode_of", "classify", "completions", "joker_options", "sort_meld", "validate_meld"]
