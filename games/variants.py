"""One adapter per game family between the stored match and the pure engine.

The services only ever talk to a ``GameSpec``: it turns table options into
engine rules, deals rounds from a seed, applies actions, closes a round into
the match bookkeeping ("tally"), and describes an action for the public log.
The Gin family plugs in here with the same methods, so the table machinery
(services, consumers, timers, bots) exists once.

A match snapshot (``Match.state``) is ``{"tally": {...}, "round": {...} | None}``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine import bots as engine_bots
from games.engine import manipulation as manip
from games.engine.errors import InvalidAction
from games.engine.scoring import MatchTally


@dataclass(frozen=True)
class ClosedRound:
    """What the services store when a round ends."""

    tally: dict[str, Any]
    outcome: dict[str, Any]
    result_kind: str
    knocker: int | None
    winners: list[int]
    hand_points: list[int | None]
    scores: list[int]
    reasons: list[list[dict[str, Any]]]


class GameSpec:
    key: str = ""
    seat_choices: tuple[int, ...] = ()
    engine: Any = None

    # ----- options --------------------------------------------------------
    def rules(self, options: dict[str, Any], seats: int) -> Any:
        raise NotImplementedError

    def option_defaults(self, seats: int) -> dict[str, Any]:
        raise NotImplementedError

    # ----- match flow -----------------------------------------------------
    def start(self, rules: Any, seats: int, rng: random.Random) -> dict[str, Any]:
        """The bookkeeping before the first round (``tally``)."""
        raise NotImplementedError

    def deal(self, rules: Any, tally: dict[str, Any], rng: random.Random) -> tuple[Any, int | None]:
        """A freshly dealt round state and its dealer."""
        raise NotImplementedError

    def close_round(self, rules: Any, tally: dict[str, Any], state: Any) -> ClosedRound:
        raise NotImplementedError

    def is_match_over(self, rules: Any, tally: dict[str, Any]) -> bool:
        raise NotImplementedError

    def final(self, rules: Any, tally: dict[str, Any]) -> tuple[list[int], list[int]]:
        """Final totals with bonuses, and the winning seats."""
        raise NotImplementedError

    def acting_seats(self, state: Any) -> list[int]:
        """Seats that may act now (normally ``[seat_to_act]``)."""
        return [] if state.seat_to_act is None else [state.seat_to_act]

    # ----- engine passthrough --------------------------------------------
    def load(self, data: dict[str, Any]) -> Any:
        return self.engine.from_dict(data)

    def dump(self, state: Any) -> dict[str, Any]:
        return self.engine.to_dict(state)

    def apply(self, state: Any, seat: int, action: dict[str, Any]) -> Any:
        return self.engine.apply(state, seat, action)

    def is_round_over(self, state: Any) -> bool:
        return self.engine.is_over(state)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return self.engine.spectator_view(state) if seat is None else self.engine.player_view(state, seat)

    def timeout_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return self.engine.timeout_actions(state, seat)

    def bot_action(self, state: Any, seat: int, policy: str, rng: random.Random) -> dict[str, Any]:
        return engine_bots.choose_action(state, seat, policy=policy, rng=rng)

    def describe(self, before: Any, after: Any, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        return {"code": action.get("type", "")}


class ManipulationSpec(GameSpec):
    key = "manipulation"
    seat_choices = (2, 3, 4, 5)
    engine = manip

    def rules(self, options: dict[str, Any], seats: int) -> manip.ManipulationRules:
        if not isinstance(options, dict):
            raise InvalidAction("Options must be a mapping.", code="bad_option")
        clean = {k: v for k, v in options.items() if k != "players"}
        return manip.ManipulationRules(**clean).for_players(seats)

    def option_defaults(self, seats: int) -> dict[str, Any]:
        d = manip.ManipulationRules().for_players(seats).to_dict()
        d.pop("players", None)
        return d

    def start(self, rules, seats, rng):
        return MatchTally.start(seats).to_dict()

    def deal(self, rules, tally, rng):
        t = MatchTally.from_dict(tally)
        dealer = t.next_dealer(rules)
        state = manip.new_round(rules, t.players, rng, dealer=dealer)
        return state, state.dealer

    def close_round(self, rules, tally, state):
        out = manip.outcome(state)
        t = MatchTally.from_dict(tally).add_round(out)
        if state.went_out:
            kind = "went_out"
        elif state.knocker is not None:
            kind = "knock"
        else:
            kind = "stock_exhausted"
        return ClosedRound(
            tally=t.to_dict(),
            outcome=out,
            result_kind=kind,
            knocker=state.knocker,
            winners=list(out["winners"]),
            hand_points=list(out["hand_points"]),
            scores=list(out["scores"]),
            reasons=[list(r) for r in out.get("reasons", [])],
        )

    def is_match_over(self, rules, tally):
        return MatchTally.from_dict(tally).is_over(rules)

    def final(self, rules, tally):
        t = MatchTally.from_dict(tally)
        return t.final_totals(rules), t.winners(rules)

    def describe(self, before, after, seat, action):
        kind = action.get("type")
        if kind == "draw":
            return {"code": "draw", "n": after.draws}
        if kind == "meld":
            before_table = {frozenset(manip.card_ref(c) for c in m) for m in before.table}
            after_table = {frozenset(manip.card_ref(c) for c in m) for m in after.table}
            played = len(before.hands[seat]) - len(after.hands[seat])
            changed = len(before_table - after_table)
            return {
                "code": "meld",
                "cards": played,
                "rearranged": changed,
                "new_melds": max(0, len(after.table) - len(before.table)),
                "went_out": bool(after.went_out),
            }
        if kind == "knock":
            return {"code": "knock"}
        if kind == "end_turn":
            return {"code": "end_turn"}
        return {"code": str(kind)}


SPECS: dict[str, GameSpec] = {"manipulation": ManipulationSpec()}


def spec_for(variant: str) -> GameSpec:
    try:
        return SPECS[variant]
    except KeyError:
        raise InvalidAction(f"Unknown variant {variant!r}.", code="bad_variant") from None
