"""Finished matches with known missed plays, played at service level: one human against basic bots
(the exact solver's best play by points), who plays like them except at the moments a test picks —
there they make a known mistake (decline a meld step, discard instead of knocking)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import services
from games.engine import bots as engine_bots
from games.engine.analysis import manipulation as manip_analysis
from games.engine.manipulation import bots as manip_bots
from games.models import Match, MatchStatus, Seat
from games.variants import spec_for

# (state, seat, round number) -> (the action the human takes, whether it is the known mistake)
Policy = Callable[[Any, int, int], tuple[dict[str, Any], bool]]


class DeclineOneMeldStepPerRound:
    """Manipulation with one draw per turn (then the meld step, or the end of the turn): the human lays
    the exact solver's best play at every meld step but one per round, where a play exists and they
    end the turn instead."""

    options = {"max_draws_per_turn": 1}

    def __init__(self) -> None:
        self.rounds: set[int] = set()

    def __call__(self, state, seat: int, round_number: int) -> tuple[dict[str, Any], bool]:
        if manip_analysis.can_meld(state, seat):
            best = manip_bots.best_meld(state, seat)
            if best is not None:
                if round_number not in self.rounds:
                    self.rounds.add(round_number)
                    return {"type": "end_turn"}, True
                return best, False
        return engine_bots.choose_action(state, seat, policy="basic"), False

    def undo(self, round_number: int) -> None:
        self.rounds.discard(round_number)


class NeverKnock:
    """Gin: the human plays the basic bot's moves, but discards (the least deadwood) where it would knock."""

    options: dict[str, Any] = {}

    def __call__(self, state, seat: int, round_number: int) -> tuple[dict[str, Any], bool]:
        action = engine_bots.choose_action(state, seat, policy="basic")
        if action["type"] == "knock" and action.get("card") and not state.must_knock:
            return spec_for("gin").engine.timeout_actions(state, seat)[0], True
        return action, False

    def undo(self, round_number: int) -> None:
        pass


def play_with_mistakes(
    host,
    *,
    settings,
    policy: Policy,
    variant="manipulation",
    seats=2,
    seed="5",
    options=None,
    practice=False,
    max_turns=5000,
) -> tuple[Match, list[tuple[int, int]]]:
    """A finished match; and the (round number, action number in the round) of each mistake made."""
    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_FIXED_SEED = seed
    match = services.match_create(
        host=host,
        variant=variant,
        seats_count=seats,
        bots=seats - 1,
        options={**policy.options, **(options or {})},
        practice=practice,
    )
    services.match_start(match_id=match.pk, user=host)
    mistakes = []
    for _ in range(max_turns):
        services.run_until_human(match_id=match.pk)
        match.refresh_from_db()
        if match.status == MatchStatus.FINISHED:
            break
        spec = spec_for(match.variant)
        state = spec.load(match.state["round"])
        acting = spec.acting_seats(state)
        if not acting or acting[0] != 0:
            continue
        action, mistaken = policy(state, 0, match.round_number)
        if mistaken:
            k = match.events.filter(round_number=match.round_number, kind="action").count() + 1
            mistakes.append((match.round_number, k))
        try:
            services.turn_submit(match_id=match.pk, user=host, action=action, expected_version=match.version)
        except services.StaleVersion:  # a live server's clock moved a bot meanwhile (browser tests)
            if mistaken:
                mistakes.pop()
                policy.undo(match.round_number)
            continue
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert Seat.objects.filter(match=match, index=0, user=host).exists()
    return match, mistakes
