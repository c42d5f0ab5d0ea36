"""Property tests over whole random rounds (RULES B.5.2 M1–M4, DESIGN §7, STYLE "Secret state")."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import bots
from games.engine import manipulation as game
from games.engine.cards import make_deck
from games.engine.errors import IllegalMove, InvalidAction
from games.engine.manipulation import ManipulationRules, ManipulationState
from games.engine.manipulation.melds import classify

POLICIES = ["greedy", "random-legal", "basic"]

OPTION_CHOICES = {
    "knock_limit": st.integers(0, 10),
    "knock_timing": st.sampled_from(["end_of_turn", "start_of_turn"]),
    "ace_in_sequences": st.sampled_from(["high_or_low", "low_only", "high_only"]),
    "joker_substitute_from": st.sampled_from(["hand_or_table", "hand_only"]),
    "freed_joker_reuse": st.sampled_from(["any_meld", "new_meld_only"]),
    "stock_exhausted": st.sampled_from(["final_meld_lap", "end_immediately"]),
    "knock_in_final_lap": st.booleans(),
    "must_draw_if_no_meld": st.booleans(),
    "max_draws_per_turn": st.integers(1, 3),
    "hand_size": st.integers(7, 13),
    "first_meld_min_points": st.sampled_from([0, 0, 30]),
    "tie_nonknockers": st.sampled_from(["all_win", "none_win"]),
}


@st.composite
def round_setups(draw):
    players = draw(st.integers(2, 5))
    options = {k: draw(v) for k, v in OPTION_CHOICES.items() if draw(st.booleans())}
    options["players"] = players
    options["jokers"] = draw(st.integers(0, 2 if players == 2 else 4))
    seed = draw(st.integers(0, 2**32 - 1))
    policies = [draw(st.sampled_from(POLICIES)) for _ in range(players)]
    return ManipulationRules(**options), seed, policies


def check_invariants(state, rules):
    # each physical card in exactly one place
    ids = [c.id for c in game.cards_in_play(state)]
    expected = [c.id for c in make_deck(rules.packs, rules.jokers)]
    assert Counter(ids) == Counter(expected)
    # the table is legal, jokers declared (M3, B.3)
    for meld in state.table:
        assert classify(list(meld), rules) is not None, meld
        assert all(c.declared is not None for c in meld if c.is_joker)
        assert all(c.declared is None for h in state.hands for c in h)
    # serialisation round trip, JSON-able
    d = state.to_dict()
    assert ManipulationState.from_dict(json.loads(json.dumps(d))) == state


def check_no_leak(state):
    """No player view holds a card of another hand or of the stock (ids, and codes not otherwise public)."""
    public_codes = {c.code for m in state.table for c in m} | {c.undeclared().code for m in state.table for c in m}
    views = [(seat, json.dumps(game.player_view(state, seat))) for seat in range(state.players)]
    views.append((None, json.dumps(game.spectator_view(state))))
    if state.phase == "over":
        return  # hands are revealed when the round is over
    for seat, text in views:
        own = set() if seat is None else {c.id for c in state.hands[seat]}
        own_codes = set() if seat is None else {c.code for c in state.hands[seat]}
        secret = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.stock)
        for c in secret:
            if c.id in own:
                continue
            assert f'"{c.id}"' not in text, (seat, c.id)
            if c.code not in public_codes and c.code not in own_codes and c.code != "JK":
                assert f'"{c.code}' not in text, (seat, c.code)


def try_refused(state, rng):
    """A refused action raises and leaves the state exactly as it was."""
    before = state.to_dict()
    wrong = (state.seat_to_act + 1) % state.players
    candidates = [
        (wrong, {"type": "draw"}),
        (state.seat_to_act, {"type": "meld", "table": [["AS.0", "AS.0", "AS.0"]]}),
        (state.seat_to_act, {"type": "meld", "table": []}),
        (state.seat_to_act, {"type": "bogus"}),
    ]
    seat, action = rng.choice(candidates)
    try:
        game.apply(state, seat, action)
    except (IllegalMove, InvalidAction):
        pass
    else:  # pragma: no cover - would be a bug in the candidate list
        raise AssertionError(f"{action} was accepted")
    assert state.to_dict() == before


def play_round(rules, seed, policies, checks=True, max_steps=600):
    state = game.new_round(rules, rules.players, random.Random(seed))
    bot_rng = random.Random(seed ^ 0xA5A5)
    log = []
    steps = 0
    while not game.is_over(state):
        seat = state.seat_to_act
        action = bots.choose_action(state, seat, policies[seat], bot_rng)
        assert action["type"] in {a["type"] for a in game.legal_actions(state, seat)}
        new = game.apply(state, seat, action)
        if action["type"] == "meld":
            # M1: at least one card left the hand; M2: every table card is still on the table
            assert len(new.hands[seat]) < len(state.hands[seat])
            old_ids = {c.id for m in state.table for c in m}
            assert old_ids <= {c.id for m in new.table for c in m}
        log.append((seat, action))
        state = new
        steps += 1
        if checks:
            check_invariants(state, rules)
            check_no_leak(state)
            if not game.is_over(state) and steps % 5 == 0:
                try_refused(state, bot_rng)
        assert steps < max_steps, "round did not terminate"
    return state, log


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_setups())
def test_random_rounds_keep_invariants_and_replay(setup):
    rules, seed, policies = setup
    final, log = play_round(rules, seed, policies)
    out = game.outcome(final)
    assert out is not None and len(out["scores"]) == rules.players
    assert sum(out["rounds_won"]) == len(out["winners"])
    # replaying the actions from the seed reproduces the state exactly
    replay = game.new_round(rules, rules.players, random.Random(seed))
    for seat, action in log:
        replay = game.apply(replay, seat, json.loads(json.dumps(action)))
    assert replay == final
    assert replay.to_dict() == final.to_dict()


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6))
def test_timeout_actions_finish_the_turn(players, seed):
    state = game.new_round(None, players, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(40):
        if game.is_over(state):
            break
        seat = state.seat_to_act
        if rng.random() < 0.5:
            acts = game.timeout_actions(state, seat)
            assert acts and all(a["type"] in {"draw", "end_turn"} for a in acts)
            for a in acts:
                state = game.apply(state, seat, a)
            assert game.is_over(state) or state.seat_to_act != seat
        else:
            state = game.apply(state, seat, bots.choose_action(state, seat, "greedy", rng))


def test_state_holds_no_seed():
    state = game.new_round(None, 3, random.Random(123456789))
    assert "123456789" not in json.dumps(state.to_dict())
