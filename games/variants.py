"""One adapter per game family between the stored match and the pure engine.

The services only ever talk to a ``GameSpec``: it turns table options into
engine rules, deals rounds from a seed, applies actions, closes a round into
the match bookkeeping ("tally"), and describes an action for the public log.
The Gin family plugs in here with the same methods, so the table machinery
(services, consumers, timers, bots) exists once.

A match snapshot (``Match.state``) is ``{"tally": {...}, "round": {...} | None}`` (and the round's
``"commitment"``, docs/fairness.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine import bots as engine_bots
from games.engine import gin
from games.engine import manipulation as manip
from games.engine.errors import InvalidAction
from games.engine.gin import GinMatch
from games.engine.manipulation.diff import table_diff
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
    """A game family's differences, as attributes the rest of the site reads instead of testing
    the variant's name: what it is called in the refusal texts, which board it draws, which
    drafts it keeps, whether the team has an advisor."""

    key: str = ""
    seat_choices: tuple[int, ...] = ()
    engine: Any = None
    family: str = ""  # "manipulation" | "gin": the refusal texts' and the board parts' key
    board_styles: tuple[str, ...] = ()  # static style sheets and scripts the table page adds for this game
    board_scripts: tuple[str, ...] = ()
    meld_drafts: bool = False  # the acting player arranges the table melds before committing them
    knock_layouts: bool = False  # the knocker arranges his melds before the knock
    team_advice: bool = False  # an advisor suggests the captain's moves (three-player box Gin)
    own_round_end: bool = False  # the game's own part shows a hand's result: no shared round-end table

    @property
    def default_seats(self) -> int:
        return self.seat_choices[0]

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

    def dealt(self, rules: Any, tally: dict[str, Any], state: Any) -> dict[str, Any]:
        """A freshly dealt state as the game record's ``deal`` (docs/fairness.md): the deck (``packs``,
        ``jokers``), the ``dealer`` and whether the shuffle's first draw chose it, the ``order`` of the
        seats one pass of the deal goes round, the ``hand_size``, the ``upcard`` and what each seat
        got (``hands``) and the ``stock``, top first, as card ids."""
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

    def bot_move(self, state: Any, seat: int, policy: str, rng: random.Random) -> tuple[dict[str, Any], Any]:
        """The bot's action, and the state after it when the bot applied it already (None: apply it)."""
        return engine_bots.choose_move(state, seat, policy=policy, rng=rng)

    def describe(self, before: Any, after: Any, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        return {"code": action.get("type", "")}

    def seat_roles(self, tally: dict[str, Any], seats: int) -> list[str]:
        """A role name per seat for the next hand ("" when the game has no roles)."""
        return [""] * seats

    # ----- duplicate tournaments (docs/tournaments.md) ----------------------
    def deal_positions(self, setup: dict[str, Any], dealer: int | None, seats: int) -> list[int]:
        """The seats in the order of a round's hands: seat A (the first hand dealt, the first to
        play) first, then B, …; a seat dealt no cards (the advisor) last.  ``setup``: the round's
        bookkeeping before its deal (``Round.setup``), ``dealer``: its dealer."""
        raise NotImplementedError

    def deal_results(self, scores: list[int], setup: dict[str, Any], seats: int) -> list[int]:
        """Each seat's result of a finished round, for (+) or against (−): what a duplicate
        tournament compares across the tables that played the same deal."""
        return list(scores)


class ManipulationSpec(GameSpec):
    key = "manipulation"
    seat_choices = (2, 3, 4, 5)
    engine = manip
    family = "manipulation"
    meld_drafts = True
    board_scripts = ("js/manipulation.js",)

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

    def dealt(self, rules, tally, state):
        n, r = state.players, state.rules
        return {
            "packs": r.packs,
            "jokers": r.jokers,
            "dealer": state.dealer,
            "dealer_drawn": MatchTally.from_dict(tally).next_dealer(rules) is None,
            "order": [(state.dealer + k) % n for k in range(1, n + 1)],
            "hand_size": r.hand_size,
            "upcard": None,
            "hands": [[c.id for c in hand] for hand in state.hands],
            "stock": [c.id for c in state.stock],
        }

    def deal_positions(self, setup, dealer, seats):
        return [((dealer or 0) + k) % seats for k in range(1, seats + 1)]  # from the dealer's left (B.4)

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
            diff = table_diff(before.table, after.table)  # public: the table before and after the step
            touched = {to for to, _cards in diff.laid} | {n for a, b, _cards in diff.moves for n in (a, b)}
            return {
                "code": "meld",
                "cards": played,
                "rearranged": changed,
                "new_melds": max(0, len(after.table) - len(before.table)),
                "went_out": bool(after.went_out),
                # What the step did, card by card (the log says it, the board marks it until the
                # viewer's next move): the cards laid from the hand, the table cards moved to another
                # meld, and every meld they changed as it lies now.
                "laid": [r for _to, cards in diff.laid for r in cards],
                "moved": [r for _a, _b, cards in diff.moves for r in cards],
                "melds": [list(cards) for n, cards, _new in diff.melds if n in touched],
            }
        if kind == "knock":
            return {"code": "knock"}
        if kind == "end_turn":
            return {"code": "end_turn"}
        return {"code": str(kind)}


class GinSpec(GameSpec):
    """Three-player box Gin (C), two-player Gin (D.1), Oklahoma (D.2) and Hollywood scoring (D.3)."""

    engine = gin
    family = "gin"
    own_round_end = True
    board_styles = ("css/gin.css",)
    board_scripts = ("js/gin.js",)
    knock_layouts = True

    def __init__(self, key: str, engine_variant: str, seat_choices: tuple[int, ...], *, team_advice: bool = False):
        self.key = key
        self.engine_variant = engine_variant
        self.seat_choices = seat_choices
        self.team_advice = team_advice

    def rules(self, options, seats):
        if not isinstance(options, dict):
            raise InvalidAction("Options must be a mapping.", code="bad_option")
        clean = {k: v for k, v in options.items() if k != "variant"}
        return gin.GinRules(variant=self.engine_variant, **clean)

    def option_defaults(self, seats):
        d = gin.GinRules(variant=self.engine_variant).to_dict()
        d.pop("variant", None)
        return d

    def start(self, rules, seats, rng):
        return GinMatch.start(rules, rng).to_dict()

    def deal(self, rules, tally, rng):
        t = GinMatch.from_dict(tally)
        state = gin.new_round(rules, t.players, rng, **t.next_round_kwargs())
        return state, state.dealer

    def dealt(self, rules, tally, state):
        ids = gin.IDS
        return {
            "packs": 1,
            "jokers": 0,
            "dealer": state.dealer,
            "dealer_drawn": False,
            "order": [state.nondealer, state.dealer],
            "hand_size": 10,
            "upcard": ids[state.first_upcard],
            "hands": [[ids[c] for c in hand] for hand in state.hands],
            "stock": [ids[c] for c in state.stock],
        }

    def close_round(self, rules, tally, state):
        out = gin.outcome(state)
        t = GinMatch.from_dict(tally).record(out)
        winner = out.get("winner")
        reasons: list[list[dict[str, Any]]] = [[] for _ in range(state.n_seats)]
        if winner is not None:
            reasons[winner] = _gin_reasons(out, rules)
        kind = out["kind"]
        return ClosedRound(
            tally=t.to_dict(),
            outcome=out,
            result_kind=kind,
            knocker=out.get("knocker"),
            winners=list(out.get("winners") or []),
            hand_points=list(out.get("hand_points") or []),
            scores=list(out.get("scores") or [0] * state.n_seats),
            reasons=reasons,
        )

    def is_match_over(self, rules, tally):
        return GinMatch.from_dict(tally).is_over

    def deal_positions(self, setup, dealer, seats):
        roles = setup.get("roles")
        if roles:  # (box, captain, advisor): the captain's hand is dealt first, the box's second (C.3)
            box, captain, advisor = roles
            return [captain, box, advisor]
        return [1 - (dealer or 0), dealer or 0]  # the non-dealer's hand first (D.1.3)

    def deal_results(self, scores, setup, seats):
        """The hand's points for the winner and against the loser (the box against the team, whose
        advisor shares the captain's result)."""
        roles = setup.get("roles")
        if roles:
            box, captain, advisor = roles
            out = [0] * seats
            out[box] = scores[box] - scores[captain]
            out[captain] = out[advisor] = scores[captain] - scores[box]
            return out
        return [scores[0] - scores[1], scores[1] - scores[0]]

    def final(self, rules, tally):
        t = GinMatch.from_dict(tally)
        return t.final_totals(), t.winners

    def bot_move(self, state, seat, policy, rng):
        action, after = engine_bots.choose_move(state, seat, policy=policy, rng=rng)
        if action is None:  # pragma: no cover - only the advisor's bot may pass, and it never acts in turn
            raise InvalidAction("The bot has nothing to do.", code="bot_idle")
        return action, after

    def seat_roles(self, tally, seats):
        roles = tally.get("roles")
        if not roles:
            return ["dealer" if i == tally.get("dealer") else "" for i in range(seats)]
        names = ["box", "captain", "advisor"]
        out = [""] * seats
        for name, seat in zip(names, roles, strict=True):
            out[seat] = name
        return out

    def describe(self, before, after, seat, action):
        kind = action.get("type")
        summary: dict[str, Any] = {"code": kind}
        if kind in ("discard", "draw_discard", "take_upcard"):
            # Discards and the upcard are public; a card drawn from the stock never is.
            card = action.get("card")
            if kind != "discard":
                top = before.discard[-1] if before.discard else None
                card = gin.IDS[top] if isinstance(top, int) else top
            summary["card"] = card
        if kind == "knock":
            out = gin.outcome(after) or {}
            summary.update(outcome=out.get("kind"), points=out.get("points"))
        if kind == "suggest":
            # Only the team sees that advice was given (and what): never the box.
            summary["audience"] = [before.nondealer, before.advisor]
            summary["suggestion"] = action.get("suggestion")
        return summary


def _gin_reasons(out: dict[str, Any], rules) -> list[dict[str, Any]]:
    """The winner's stored reasons: the engine's parts of the hand's score (RULES C.7, D.1.6, D.2.3)."""
    parts = gin.gin_hand_parts(
        out["kind"],
        out.get("knocker_deadwood") or 0,
        out.get("defender_deadwood") or 0,
        rules,
        multiplier=out.get("multiplier", 1) or 1,
        big_gin=bool(out.get("big_gin")),
    )
    return [part.to_dict() for part in parts]


SPECS: dict[str, GameSpec] = {
    "manipulation": ManipulationSpec(),
    "gin_box": GinSpec("gin_box", "box3", (3,), team_advice=True),
    "gin": GinSpec("gin", "gin2", (2,)),
    "oklahoma": GinSpec("oklahoma", "oklahoma", (2,)),
    "hollywood": GinSpec("hollywood", "hollywood", (2,)),
}


GIN_VARIANTS = tuple(key for key, spec in SPECS.items() if spec.family == "gin")


def spec_for(variant: str) -> GameSpec:
    try:
        return SPECS[variant]
    except KeyError:
        raise InvalidAction(f"Unknown variant {variant!r}.", code="bad_variant") from None
