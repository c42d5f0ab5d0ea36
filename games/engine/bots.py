"""The bots of both games behind one call: ``choose_action(state, seat, policy="basic", rng=None)``.

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
    if getattr(state, "game", None) == "gin":
        return gin_bots.choose_action(state, seat, policy=policy, rng=rng)
    return manipulation_bots.choose_action(state, seat, policy, rng)
