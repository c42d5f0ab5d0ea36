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


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One part of a hand winner's score (RULES C.7, D.1.6, D.2.3), as the round's reasons store it:
    ``deadwood`` (the opponent's, in a gin), ``gin_bonus``, ``difference`` (D - K, or K - D in an
    undercut), ``undercut_bonus``; ``big_gin`` marks a big gin (points 0) and ``doubled`` carries the
    Oklahoma multiplier in ``points``."""

    kind: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.kind, "points": self.points}


def gin_hand_parts(
    kind: str,
    knocker_deadwood: int,
    defender_deadwood: int,
    rules: Any = None,
    *,
    multiplier: int = 1,
    big_gin: bool = False,
) -> tuple[ScorePart, ...]:
    """The parts of a finished hand's score for its winner (``kind`` as :func:`gin_hand_result` says it;
    a dead hand has none)."""
    r = as_rules(rules)
    k, d = knocker_deadwood, defender_deadwood
    if kind == "gin":
        parts = [ScorePart("deadwood", d), ScorePart("gin_bonus", r.gin_bonus)]
    elif kind == "knock":
        parts = [ScorePart("difference", d - k)]
    elif kind in ("undercut", "tie"):
        parts = [ScorePart("difference", k - d), ScorePart("undercut_bonus", r.undercut_bonus)]
    else:
        parts = []
    if big_gin:
        parts.append(ScorePart("big_gin", 0))
    if multiplier > 1:
        parts.append(ScorePart("doubled", multiplier))
    return tuple(parts)


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


@dataclass(frozen=True, slots=True)
class EndBonus:
    """One end-of-game bonus (RULES C.10.2, D.1.8): ``box`` (``count`` boxes, to every player),
    ``game`` (the winner's) or ``shutout`` (the winner's extra when another player never scored: a
    second game bonus, or the winner's points again).  ``game``: Hollywood's game (1-3), else 0."""

    kind: str
    seat: int
    points: int
    count: int = 0
    game: int = 0


def gin_end_bonuses(
    scores: list[int] | tuple[int, ...],
    hands_won: list[int] | tuple[int, ...],
    rules: Any = None,
    *,
    boxes: list[int] | tuple[int, ...] | None = None,
    target: int | None = None,
    end_bonuses: bool | None = None,
    game: int = 0,
) -> tuple[EndBonus, ...]:
    """The end bonuses (when ``end_bonuses``): every player gets ``box_bonus`` per hand won (``boxes``
    overrides the count, e.g. Oklahoma doubled boxes); the winner (the one highest score, which has
    reached the target) gets the game bonus; shutout (another player never scored): ``game_bonus_200``
    → a second game bonus, ``double`` → the winner's points again.  They do not count towards the
    target."""
    r = as_rules(rules)
    scores = list(scores)
    boxes = list(hands_won if boxes is None else boxes)
    if not (r.end_bonuses if end_bonuses is None else end_bonuses):
        return ()
    target = r.game_target if target is None else target
    if len(boxes) != len(scores):
        raise ValueError("scores and boxes differ in length")
    out = [EndBonus("box", i, b * r.box_bonus, count=b, game=game) for i, b in enumerate(boxes) if b]
    top = max(scores)
    if top >= target and scores.count(top) == 1:
        w = scores.index(top)
        out.append(EndBonus("game", w, r.game_bonus, game=game))
        shut = any(s == 0 for i, s in enumerate(scores) if i != w)
        if shut and r.shutout == "game_bonus_200":
            out.append(EndBonus("shutout", w, r.game_bonus, game=game))
        elif shut and r.shutout == "double":
            out.append(EndBonus("shutout", w, scores[w], game=game))
    return tuple(out)


def gin_final_totals(
    scores: list[int] | tuple[int, ...],
    hands_won: list[int] | tuple[int, ...],
    rules: Any = None,
    *,
    boxes: list[int] | tuple[int, ...] | None = None,
    target: int | None = None,
    end_bonuses: bool | None = None,
) -> list[int]:
    """Final totals: the scores plus :func:`gin_end_bonuses` (C.10.2, D.1.8)."""
    totals = list(scores)
    for bonus in gin_end_bonuses(scores, hands_won, rules, boxes=boxes, target=target, end_bonuses=end_bonuses):
        totals[bonus.seat] += bonus.points
    return totals


@dataclass(frozen=True, slots=True)
class EndBreakdown:
    """A finished match's end bonuses (:meth:`.match.GinMatch.end_breakdown`): ``points`` they are added
    to (Hollywood: the three games' scores summed), ``boxes`` (box units per seat, counted with or
    without end bonuses) and the ``bonuses`` themselves."""

    points: tuple[int, ...]
    boxes: tuple[int, ...]
    bonuses: tuple[EndBonus, ...]

    def bonus(self, seat: int, *kinds: str) -> int:
        """The points of ``seat``'s bonuses of these kinds (every kind when none is given)."""
        return sum(b.points for b in self.bonuses if b.seat == seat and (not kinds or b.kind in kinds))

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(p + self.bonus(i) for i, p in enumerate(self.points))


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
