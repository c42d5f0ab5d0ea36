"""Positions for the Manipulation tests: cards from ids, a state from hands and a table."""

from games.engine.cards import Card
from games.engine.manipulation import ManipulationRules, ManipulationState


def cards(text):
    """'5S.0 6S.0 JK=7S.0' -> tuple of Card (ids keep their deck index)."""
    return tuple(Card.from_code(c) for c in text.split())


def make_state(hands, table=(), stock="", *, seat=0, phase="drawn", draws=1, rules=None, **kw):
    hands = tuple(cards(h) for h in hands)
    rules = (rules or ManipulationRules()).for_players(len(hands))
    defaults = dict(
        rules=rules,
        players=len(hands),
        dealer=(seat - 1) % len(hands),
        hands=hands,
        stock=cards(stock),
        table=tuple(cards(m) for m in table),
        seat_to_act=seat,
        phase=phase,
        draws=draws,
        has_melded=(False,) * len(hands),
    )
    defaults.update(kw)
    return ManipulationState(**defaults)
