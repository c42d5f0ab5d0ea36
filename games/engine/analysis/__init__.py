"""Post-game analysis, pure: every meld step of Manipulation Rummy weighed by the exact solver, every
Gin discard and knock decision weighed by the least deadwood reachable, a summary per seat, and the
practice hints (the best play now).

``analyse_round(family, transitions)`` walks one round: ``transitions`` yields ``(k, seat, action,
before, after)`` (``k``: the replay's step within the round, 1 for the first action).  It returns the
round's step records (dicts, JSON-ready: card ids and numbers), each with ``"k"`` and ``"family"``.
``summarise(steps, seats)`` adds them up per seat.  The web layer stores and words them.

``VERSION`` names what this code computes: a stored analysis of an older version is redone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import gin, manipulation

VERSION = 2  # 2: a rearrangement moves no card out of a meld an identical card enters (fewest moves)

__all__ = ["VERSION", "analyse_round", "gin", "manipulation", "summarise"]

Transition = tuple[int, int, dict[str, Any], Any, Any]


def analyse_round(
    family: str,
    transitions: Iterable[Transition],
    *,
    max_states: int | None = None,
    on_action: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """The step records of one round (see the package docstring).  ``on_action`` is called after each
    action (progress, and a chance for the caller to stop the walk by raising)."""
    steps = []
    for k, seat, action, before, after in transitions:
        record = None
        if family == "manipulation":
            if manipulation.is_meld_step(before, seat, action, after):
                laid = manipulation.laid_cards(before, after, seat) if action.get("type") == "meld" else []
                record = manipulation.weigh_step(before, seat, laid, max_states=max_states)
                record["action"] = action.get("type", "")
        elif family == "gin":
            record = gin.weigh_decision(before, seat, action)
        if record is not None:
            record["k"] = k
            record["family"] = family
            steps.append(record)
        if on_action is not None:
            on_action()
    return steps


SUMMARY_KEYS = ("steps", "best", "missed_cards", "missed_points", "missed_deadwood", "missed_knocks", "missed_gins")


def summarise(steps: Iterable[dict[str, Any]], seats: int) -> list[dict[str, int]]:
    """Per seat: the steps weighed, those played best, and what was missed (cards and points laid in
    Manipulation; deadwood, knocks and gins in Gin).  Steps not weighed (``status`` other than "ok")
    are left out."""
    out = [dict.fromkeys(SUMMARY_KEYS, 0) for _ in range(seats)]
    for s in steps:
        if s.get("status", "ok") != "ok" or not 0 <= s["seat"] < seats:
            continue
        row = out[s["seat"]]
        row["steps"] += 1
        row["best"] += int(not s["missed"])
        if s["family"] == "manipulation":
            row["missed_cards"] += max(0, s["most_cards"] - s["laid_cards"])
            row["missed_points"] += max(0, s["best_points"] - s["laid_points"])
        else:
            row["missed_deadwood"] += max(0, s["reached"] - s["best"])
            row["missed_knocks"] += int(s["missed_knock"])
            row["missed_gins"] += int(s["missed_gin"])
    return out
