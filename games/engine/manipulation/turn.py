"""Manipulation Rummy's turn (RULES B.5, B.6): what a seat may do now, applying an action, the
compulsory actions of a timed-out turn, and the round's outcome (B.7)."""

from __future__ import annotations

from typing import Any

from ..cards import hand_points
from ..errors import IllegalMove, InvalidAction
from .rules import ManipulationRules
from .scoring import RoundResult, manipulation_next_dealer, manipulation_round_result
from .state import (
    Action,
    Draw,
    Knock,
    ManipulationState,
    Meld,
    action_from_dict,
    illegal,
    parse_table,
    replace_state,
)
from .tablecheck import analyse


def is_over(state: ManipulationState) -> bool:
    return state.phase == "over"


def hand_value(state: ManipulationState, seat: int) -> int:
    return hand_points(state.hands[seat], state.rules.joker_value)


def _turn_can_end(state: ManipulationState) -> bool:
    if state.phase in ("end", "final"):
        return True
    if state.phase == "drawn":
        r = state.rules
        return state.draws >= r.max_draws_per_turn or not state.stock or not r.must_draw_if_no_meld
    return False


def _knock_moment(state: ManipulationState) -> bool:
    """Is this a moment of the turn at which the knock timing allows a knock?"""
    r = state.rules
    if state.final_lap and not r.knock_in_final_lap:
        return False
    if r.knock_timing == "start_of_turn":
        return (state.phase == "start") or (state.phase == "final" and not state.melded)
    return _turn_can_end(state)


def can_knock(state: ManipulationState, seat: int) -> bool:
    """B.5.5: at the allowed moment of the turn, with a hand of at most ``knock_limit`` points."""
    if state.phase == "over" or seat != state.seat_to_act:
        return False
    return _knock_moment(state) and hand_value(state, seat) <= state.rules.knock_limit


def meld_step_follows(rules: ManipulationRules, draws: int) -> bool:
    """May a meld step follow the turn's ``draws``-th draw?  ("Most draws per turn", E.1.)

    RULES B.5 with N = ``max_draws_per_turn``: draw, then meld or draw again, ..., and the last draw
    ends the drawing with no meld after it (B.5: "no meld allowed after draw #3").  That last draw is
    what declining the meld after draw N-1 costs, so with N = 1 there is nothing to decline: one
    draw, then the player may meld (or end the turn), as a player choosing "1" expects of a rummy
    turn.  So: a meld after draw k iff k < N, or N = 1.  Every allowed value (1-3) is playable."""
    n = rules.max_draws_per_turn
    return draws < n or n == 1


def _can_meld(state: ManipulationState) -> bool:
    if state.phase == "drawn":
        return not state.melded and meld_step_follows(state.rules, state.draws)
    return state.phase == "final" and not state.melded


def _can_draw(state: ManipulationState) -> bool:
    return state.phase in ("start", "drawn") and state.draws < state.rules.max_draws_per_turn and bool(state.stock)


def legal_actions(state: ManipulationState, seat: int) -> list[dict]:
    """The action types ``seat`` may send now.

    ``{"type": "meld"}`` is a template: a real meld action carries the whole new ``table``.
    """
    if state.phase == "over" or seat != state.seat_to_act:
        return []
    out: list[dict] = []
    if _can_draw(state):
        out.append({"type": "draw"})
    if _can_meld(state):
        out.append({"type": "meld"})
    if can_knock(state, seat):
        out.append({"type": "knock"})
    if _turn_can_end(state):
        out.append({"type": "end_turn"})
    return out


# --------------------------------------------------------------------------- meld-step checking


def check_table(state: ManipulationState, seat: int, table: object) -> dict[str, Any]:
    """Validate a DRAFT arrangement for the UI without raising.

    Returns ``{"ok", "melds": [{"index", "cards", "valid", "kind", "code", "reason", "template",
    "params", "joker_options"}], "errors": [{"code", "message"}], "played": [ids], "points"}``;
    ``joker_options`` lists the codes (``"6H"``) a bare joker of that meld could stand for; a meld
    whose declared jokers did not fit it and may be declared anew (a joker from the hand, or a
    table joker freed by its natural card, RULES B.3.4) also has ``"jokers"``: ``{id: ref}``, each
    such joker as it will lie (``"JK=3H.0"`` when one card fits, ``"JK.0"`` while it is to be
    chosen from ``joker_options``).  A
    reason or error that names cards also has its English ``template`` and ``params`` (see :mod:`..text`).
    ``ok`` means the meld step would be accepted now (including whose turn it is).
    """
    try:
        proposed = table.table if isinstance(table, Meld) else parse_table(table)
        a = analyse(state, seat, proposed)
    except InvalidAction as exc:
        return {"ok": False, "melds": [], "errors": [exc.to_dict()], "played": [], "points": 0}
    errors = [e.to_dict() for e in a.errors]
    turn_error = _meld_turn_error(state, seat)
    if turn_error is not None:
        errors.insert(0, turn_error.to_dict())
    return {
        "ok": not errors,
        "melds": a.melds,
        "errors": errors,
        "played": [c.id for c in a.played],
        "points": hand_points(a.played, state.rules.joker_value),
    }


def _meld_turn_error(state: ManipulationState, seat: int) -> IllegalMove | None:
    if state.phase == "over":
        return illegal("round_over")
    if seat != state.seat_to_act:
        return illegal("not_your_turn")
    if _can_meld(state):
        return None
    if state.phase == "start":
        return illegal("no_meld_before_draw")
    if state.melded:
        return illegal("already_melded")
    if state.phase == "end":
        return illegal("no_meld_after_last_draw")
    return illegal("meld_not_now")  # pragma: no cover


# --------------------------------------------------------------------------- transitions


def _end_turn(state: ManipulationState) -> ManipulationState:
    seat = state.seat_to_act
    assert seat is not None
    n = state.players
    nxt = (seat + 1) % n
    if state.final_lap:
        if seat == state.last_drawer:
            return replace_state(state, phase="over", seat_to_act=None, end_reason="stock_exhausted")
        return replace_state(state, seat_to_act=nxt, phase="final", draws=0, melded=False, turn=state.turn + 1)
    if not state.stock:
        if state.rules.stock_exhausted == "final_meld_lap":
            return replace_state(
                state, seat_to_act=nxt, phase="final", draws=0, melded=False, final_lap=True, turn=state.turn + 1
            )
        return replace_state(state, phase="over", seat_to_act=None, end_reason="stock_exhausted")
    return replace_state(state, seat_to_act=nxt, phase="start", draws=0, melded=False, turn=state.turn + 1)


def _settle(state: ManipulationState) -> ManipulationState:
    """At the end of the turn with no knock possible, pass the turn on by itself."""
    if state.phase == "end" and not can_knock(state, state.seat_to_act):  # type: ignore[arg-type]
        return _end_turn(state)
    return state


def apply(state: ManipulationState, seat: int, action: dict | Action) -> ManipulationState:
    """Apply one action of ``seat``; returns the new state or raises IllegalMove / InvalidAction."""
    act = action_from_dict(action)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise InvalidAction(f"Seat {seat!r} is not at this table.", code="bad_seat")
    if state.phase == "over":
        raise illegal("round_over")
    if seat != state.seat_to_act:
        raise illegal("not_your_turn")
    if isinstance(act, Draw):
        return _draw(state, seat)
    if isinstance(act, Meld):
        return _meld(state, seat, act)
    if isinstance(act, Knock):
        return _knock(state, seat)
    if not _turn_can_end(state):  # EndTurn
        raise illegal("must_draw" if state.phase == "start" else "must_draw_or_meld")
    return _end_turn(replace_state(state, last_action=(seat, act.type)))


def _draw(state: ManipulationState, seat: int) -> ManipulationState:
    if not _can_draw(state):
        if state.phase == "final":
            raise illegal("no_draw_in_final_lap")
        if state.phase in ("start", "drawn") and not state.stock:
            raise illegal("stock_empty")
        raise illegal("no_more_draws")
    card = state.stock[0]
    hands = list(state.hands)
    hands[seat] = hands[seat] + (card,)
    draws = state.draws + 1
    stock = state.stock[1:]
    new = replace_state(
        state,
        hands=tuple(hands),
        stock=stock,
        draws=draws,
        last_action=(seat, Draw.type),
        phase="drawn" if meld_step_follows(state.rules, draws) else "end",
        last_drawer=seat if not stock else state.last_drawer,
    )
    return _settle(new)


def _meld(state: ManipulationState, seat: int, act: Meld) -> ManipulationState:
    err = _meld_turn_error(state, seat)
    if err is not None:
        raise err
    a = analyse(state, seat, act.table)
    if a.errors:
        raise a.errors[0]
    played_ids = {c.id for c in a.played}
    hands = list(state.hands)
    hands[seat] = tuple(c for c in state.hands[seat] if c.id not in played_ids)
    has_melded = list(state.has_melded)
    has_melded[seat] = True
    new = replace_state(
        state,
        table=a.new_table,
        hands=tuple(hands),
        melded=True,
        has_melded=tuple(has_melded),
        last_action=(seat, Meld.type),
        phase="end",
    )
    if not hands[seat]:  # B.5.4 going out
        return replace_state(new, phase="over", seat_to_act=None, knocker=seat, went_out=True, end_reason="went_out")
    return _settle(new)


def _knock(state: ManipulationState, seat: int) -> ManipulationState:
    if not _knock_moment(state):
        if state.final_lap and not state.rules.knock_in_final_lap:
            raise illegal("knock_not_in_final_lap")
        if state.phase == "start":
            raise illegal("must_draw")
        if state.phase == "drawn":
            raise illegal("must_draw_or_meld")
        raise illegal("knock_not_now")
    pts = hand_value(state, seat)
    if pts > state.rules.knock_limit:
        raise illegal("knock_too_high", points=pts, limit=state.rules.knock_limit)
    last = (seat, Knock.type)
    return replace_state(state, phase="over", seat_to_act=None, knocker=seat, end_reason="knock", last_action=last)


def timeout_actions(state: ManipulationState, seat: int) -> list[dict]:
    """Actions that complete ``seat``'s current turn with no voluntary play (compulsory draws only)."""
    out: list[dict] = []
    s = state
    while s.phase != "over" and s.seat_to_act == seat and len(out) < 10:
        types = {a["type"] for a in legal_actions(s, seat)}
        if "end_turn" in types:
            out.append({"type": "end_turn"})
            break
        if "draw" in types:
            out.append({"type": "draw"})
            s = apply(s, seat, {"type": "draw"})
            continue
        break  # pragma: no cover - every non-final state allows draw or end_turn
    return out


# --------------------------------------------------------------------------- outcome and views


def round_result(state: ManipulationState) -> RoundResult | None:
    if state.phase != "over":
        return None
    pts = [hand_value(state, i) for i in range(state.players)]
    return manipulation_round_result(pts, state.knocker, state.went_out, state.rules)


def outcome(state: ManipulationState) -> dict[str, Any] | None:
    """``None`` while the round runs; then hand points, knocker, went_out, scores (B.7), reasons, rounds won."""
    res = round_result(state)
    if res is None:
        return None
    d = res.to_dict()
    d.update(
        end_reason=state.end_reason,
        hands=[[c.id for c in hand] for hand in state.hands],
        dealer=state.dealer,
        next_dealer=manipulation_next_dealer(state.dealer, state.players, res.winners, state.rules),
    )
    return d


def next_dealer(state: ManipulationState) -> int:
    """Dealer of the next round (B.4.1, option ``deal_rotation``)."""
    res = round_result(state)
    winners = res.winners if res is not None else ()
    return manipulation_next_dealer(state.dealer, state.players, winners, state.rules)
