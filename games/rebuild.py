"""Rebuild any state of a stored match from its rounds' seeds and its event log.

Each round is dealt again with the shuffle that dealt it (``Round.shuffle``: the documented
``fy-hmac-sha256-v1``, or Python's ``random.Random`` for the rounds dealt before it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine import shuffle
from games.models import Event, Match, Round
from games.variants import spec_for


def iter_round_states(match: Match, rnd: Round) -> Iterator[tuple[Event | None, Any]]:
    """Yield ``(event, state)``: the dealt state (event None), then the state after each action."""
    spec = spec_for(match.variant)
    rules = spec.rules(match.options, match.seats_count)
    state, _dealer = spec.deal(rules, rnd.setup, shuffle.rng_for(rnd.shuffle, rnd.seed))
    yield None, state
    events = Event.objects.filter(match=match, round_number=rnd.number, kind="action").order_by("seq")
    for event in events:
        state = spec.apply(state, event.seat, event.action)
        yield event, state


def replay_round(match: Match, rnd: Round) -> Any:
    states = iter_round_states(match, rnd)
    last = None
    for _event, last in states:  # noqa: B007 - the last state is the result
        continue
    return last


def replay_current(match: Match) -> dict[str, Any] | None:
    """The current round's state, replayed; equal to ``match.state["round"]`` (a test checks it)."""
    rnd = Round.objects.filter(match=match).order_by("-number").first()
    if rnd is None:
        return None
    return spec_for(match.variant).dump(replay_round(match, rnd))
