"""A stored match walked for its analysis: every round replayed from its seed and its events
(``games.rebuild``), each action handed with the states before and after it to the pure analyser
(``games.engine.analysis``).  No writes here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from games.engine import analysis
from games.models import Event, Match, Round
from games.rebuild import iter_round_states
from games.variants import spec_for


def action_count(match: Match) -> int:
    return Event.objects.filter(match=match, kind="action").count()


def _transitions(match: Match, rnd: Round) -> Iterator[analysis.Transition]:
    before = None
    for k, (event, state) in enumerate(iter_round_states(match, rnd)):
        if event is not None:
            yield k, event.seat, event.action, before, state
        before = state


def walk(
    match: Match, *, max_states: int | None = None, on_action: Callable[[], None] | None = None
) -> list[dict[str, Any]]:
    """The match's step records, each with its ``round``, ``k`` (step within the round) and ``step``
    (the replay's step: each round is its deal, then one step per action)."""
    family = spec_for(match.variant).family
    steps: list[dict[str, Any]] = []
    first = 0  # the replay's step of this round's deal
    for rnd in Round.objects.filter(match=match).order_by("number"):
        transitions = list(_transitions(match, rnd))
        for record in analysis.analyse_round(family, transitions, max_states=max_states, on_action=on_action):
            record["round"] = rnd.number
            record["step"] = first + record["k"]
            steps.append(record)
        first += 1 + len(transitions)
    return steps
