"""The bots of both games behind one call: ``choose_action(state, seat, policy="basic", rng=None)``, and
``choose_move`` (the action with the state after it when the bot applied it already to check it).

The policies are :mod:`.manipulation.bots` and :mod:`.gin.bots` (``basic``, ``greedy``,
``random-legal``); every policy only returns legal actions (property-tested).
"""

from __future__ import annotations

import random
from typing import Any

from .gin import bots as gin_bots
from .manipulation import bots as manipulation_bots

POLICIES = manipulation_bots.POLICIES


def choose_action(state: Any, seat: int, policy: str = "basic", rng: random.Random | None = None) -> Any:
    """The action ``seat`` takes now (only called when it is ``seat``'s turn); see each game's bots."""
    return choose_move(state, seat, policy, rng)[0]


def choose_move(state: Any, seat: int, policy: str = "basic", rng: random.Random | None = None) -> tuple[Any, Any]:
    """:func:`choose_action`'s action and the state after it, or None where the action is yet to be applied
    (a Manipulation bot applies its meld to check it: :func:`.manipulation.bots.choose_move`)."""
    if getattr(state, "game", None) == "gin":
        return gin_bots.choose_action(state, seat, policy=policy, rng=rng), None
    return manipulation_bots.choose_move(state, seat, policy, rng)
