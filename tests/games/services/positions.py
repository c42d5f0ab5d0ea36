"""A Manipulation table put in a known position: the mover's hand and the table melds written into
the match's state (the engine state is data), after the mover's first draw."""

from __future__ import annotations

import dataclasses

from games.engine import manipulation as manip
from games.engine.cards import Card, make_deck
from games.models import Match


def set_position(match: Match, hand: str, table: list[str]) -> Match:
    """The player to act holds ``hand`` ("QH.0 3C.0 ...") and has drawn once; ``table`` holds the
    melds ("TH.0 JH.0 JK=QH.0"); the other cards are dealt to the others (10 each) and the stock."""
    match = Match.objects.get(pk=match.pk)
    state = manip.from_dict(match.state["round"])
    mover = state.seat_to_act
    used = {Card.from_code(c).id for c in hand.split()} | {Card.from_code(c).id for m in table for c in m.split()}
    rest = [c for c in make_deck(state.rules.packs, state.rules.jokers) if c.id not in used]
    hands = []
    for seat in range(state.players):
        if seat == mover:
            hands.append(tuple(Card.from_code(c).undeclared() for c in hand.split()))
        else:
            hands.append(tuple(rest[:10]))
            rest = rest[10:]
    state = dataclasses.replace(
        state,
        hands=tuple(hands),
        table=tuple(tuple(Card.from_code(c) for c in m.split()) for m in table),
        stock=tuple(rest),
        phase="drawn",
        draws=1,
        has_melded=(True,) * state.players,
    )
    match.state = {**match.state, "round": manip.to_dict(state)}
    match.draft = None
    match.version += 1  # a new version: no board of the old one is served from a cache
    match.save(update_fields=["state", "draft", "version"])
    return match
