"""One bot entry for both games (games/engine/bots.py): each state goes to its own game's bots."""

import types

from games.engine import bots


def test_gin_states_are_dispatched(monkeypatch):
    fake = types.SimpleNamespace(
        choose_action=lambda state, seat, policy="basic", rng=None: {"type": "gin", "policy": policy}
    )
    monkeypatch.setattr(bots, "gin_bots", fake)

    class GinState:
        game = "gin"

    assert bots.choose_action(GinState(), 0, "random-legal") == {"type": "gin", "policy": "random-legal"}


def test_manipulation_states_are_dispatched(monkeypatch):
    # the game's bots give the action with the state after it (None: yet to be applied)
    fake = types.SimpleNamespace(choose_move=lambda state, seat, policy="basic", rng=None: ({"type": policy}, None))
    monkeypatch.setattr(bots, "manipulation_bots", fake)

    class ManipulationState:
        game = "manipulation"

    assert bots.choose_action(ManipulationState(), 1, "greedy") == {"type": "greedy"}
