"""Gin scoring: hand scores (RULES C.7, D.1.6, D.2.3), game end and bonuses (C.10, D.1.8), role and
dealer rotation (C.9, D.1.2) and Hollywood's three simultaneous games (D.3).  The match value that keeps
them between hands is :class:`.match.GinMatch`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidAction
from .rules import as_rules

# ---------------------------------------------------------------------------------------------
# One hand
# ---------------------------------------------------------------------------------------------


def gin_hand_result(
    knocker_deadwood: int, defender_deadwood: int, rules: Any = None, *, multiplier: int = 1, big_gin: bool = False
) -> tuple[str, str | None, int]:
    """``(outcome, winner, points)`` of a knock (RULES C.7, D.1.6, D.2.3).

    ``outcome`` is ``"gin"`` (K = 0: D + gin bonus; never undercut), ``"knock"`` (K < D: D - K),
    ``"undercut"`` (K > D, or K = D with ``undercut_on_tie``: K - D + undercut bonus) or ``"tie"``
    (K = D without ``undercut_on_tie``: nobody scores).  ``winner`` is ``"knocker"``, ``"defender"`` or
    None.  ``multiplier`` (Oklahoma spades: 2) multiplies the whole score, bonuses included.  Big gin
    (11 cards melded, option ``big_gin``): bonus 31, or gin bonus + 6.
    """
    r = as_rules(rules)
    k, d = knocker_deadwood, defender_deadwood
    if k == 0:
        bonus = r.gin_bonus
        if big_gin and r.big_gin == "31":
            bonus = 31
        elif big_gin and r.big_gin == "gin+6":
            bonus = r.gin_bonus + 6
        return "gin", "knocker", (d + bonus) * multiplier
    if k < d:
        return "knock", "knocker", (d - k) * multiplier
    if k == d and not r.undercut_on_tie:
        return "tie", None, 0
    return "undercut", "defender", (k - d + r.undercut_bonus) * multiplier


# ---------------------------------------------------------------------------------------------
# Rotation
# ---------------------------------------------------------------------------------------------


def gin_next_roles(roles: tuple[int, int, int], winner: int | None) -> tuple[int, int, int]:
    """(box, captain, advisor) after a hand (RULES C.9): box won → captain and advisor swap; captain won →
    captain becomes box, advisor becomes captain, old box sits out; no winner (dead hand) → unchanged."""
    box, captain, advisor = roles
    if winner is None:
        return (box, captain, advisor)
    if winner == box:
        return (box, advisor, captain)
    if winner == captain:
        return (captain, advisor, box)
    raise InvalidAction("The advisor cannot win a hand.", code="bad_winner")


def gin_next_dealer(dealer: int, winner: int | None, rules: Any = None) -> int:
    """The next two-player dealer (RULES D.1.2, option ``dealer_2p``); dead hand: same dealer."""
    r = as_rules(rules)
    if winner is None:
        return dealer
    if r.dealer_2p == "winner":
        return winner
    if r.dealer_2p == "loser":
        return 1 - winner
    return 1 - dealer


# ---------------------------------------------------------------------------------------------
# Game end (C.10, D.1.8)
# ---------------------------------------------------------------------------------------------


def gin_final_totals(
    scores: list[int] | tuple[int, ...],
    hands_won: list[int] | tuple[int, ...],
    rules: Any = None,
    *,
    boxes: list[int] | tuple[int, ...] | None = None,
    target: int | None = None,
    end_bonuses: bool | None = None,
) -> list[int]:
    """Final totals with the end bonuses (when ``end_bonuses``): the winner (the highest score, which has
    reached the target) gets the game bonus; every player gets ``box_bonus`` per hand won (``boxes``
    overrides the count, e.g. Oklahoma doubled boxes); shutout (another player never scored):
    ``game_bonus_200`` → game bonus doubled, ``double`` → the winner's points doubled.  The bonuses
    do not count towards the target."""
    r = as_rules(rules)
    scores = list(scores)
    boxes = list(hands_won if boxes is None else boxes)
    bonuses = r.end_bonuses if end_bonuses is None else end_bonuses
    if not bonuses:
        return scores
    target = r.game_target if target is None else target
    totals = [s + b * r.box_bonus for s, b in zip(scores, boxes, strict=True)]
    top = max(scores)
    if top >= target and scores.count(top) == 1:
        w = scores.index(top)
        shut = any(s == 0 for i, s in enumerate(scores) if i != w)
        bonus = r.game_bonus
        if shut and r.shutout == "game_bonus_200":
            bonus = 2 * r.game_bonus
        elif shut and r.shutout == "double":
            totals[w] += scores[w]
        totals[w] += bonus
    return totals


# ---------------------------------------------------------------------------------------------
# Hollywood (D.3)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HollywoodGame:
    """One of Hollywood's three games: per-player scores and box counts, and whether it is closed."""

    scores: tuple[int, int] = (0, 0)
    boxes: tuple[int, int] = (0, 0)
    closed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "boxes": list(self.boxes), "closed": self.closed}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HollywoodGame:
        return cls(tuple(d["scores"]), tuple(d["boxes"]), bool(d["closed"]))


def gin_hollywood_entries(
    games: tuple[HollywoodGame, ...], winner: int, nth_win: int, points: int, target: int, box_units: int = 1
) -> tuple[HollywoodGame, ...]:
    """Enter a hand won for the ``nth_win``-th time by ``winner`` (RULES D.3.2-3): Game i (i = 1..3) gets
    the score if ``nth_win >= i`` and the game is still open; a game closes when a total reaches target."""
    out = []
    for i, g in enumerate(games):
        if nth_win >= i + 1 and not g.closed:
            sc = list(g.scores)
            bx = list(g.boxes)
            sc[winner] += points
            bx[winner] += box_units
            g = HollywoodGame(tuple(sc), tuple(bx), max(sc) >= target)
        out.append(g)
    return tuple(out)
