"""Gin scoring: hand scores (RULES C.7, D.1.6, D.2.3), game end and bonuses (C.10, D.1.8), role and
dealer rotation (C.9, D.1.2), Hollywood's three simultaneous games (D.3), and :class:`GinMatch`, the
match-level bookkeeping value the caller keeps between hands.

Every name here starts with ``gin_`` / ``Gin`` / ``Hollywood`` so that ``scoring.py`` can re-export
this module next to the Manipulation scoring functions.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any

from .errors import InvalidAction

__all__ = [
    "gin_hand_result",
    "gin_hand_score",
    "gin_final_totals",
    "gin_next_roles",
    "gin_next_dealer",
    "gin_hollywood_entries",
    "GinMatch",
    "HollywoodGame",
]


def _rules(rules: Any) -> Any:
    from .gin import _as_rules

    return _as_rules(rules)


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
    r = _rules(rules)
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


def gin_hand_score(
    knocker_deadwood: int, defender_deadwood: int, rules: Any = None, *, multiplier: int = 1, big_gin: bool = False
) -> int:
    """The points the winner of the hand scores (0 for a tie that is not an undercut)."""
    return gin_hand_result(knocker_deadwood, defender_deadwood, rules, multiplier=multiplier, big_gin=big_gin)[2]


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
    r = _rules(rules)
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
    r = _rules(rules)
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


# ---------------------------------------------------------------------------------------------
# The match
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GinMatch:
    """Bookkeeping between hands: roles or dealer, cumulative scores, hands won, Hollywood columns.

    Three players: ``roles`` = (box, captain, advisor) seat indices, rotated by :meth:`record` (C.9).
    Two players: ``dealer``, moved by ``dealer_2p``.  ``boxes`` counts box-bonus units (hands won, plus
    one more for a doubled Oklahoma hand with ``oklahoma_double_boxes``).  ``history`` holds one
    ``(kind, winner, points)`` per hand, dead hands included.
    """

    rules: Any
    roles: tuple[int, int, int] | None
    dealer: int
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    boxes: tuple[int, ...]
    history: tuple[tuple[str, int | None, int], ...] = ()
    hollywood: tuple[HollywoodGame, ...] = ()
    role_draw: str | None = None  # JSON of the initial role draw (3 players)

    # construction -----------------------------------------------------------------------------
    @classmethod
    def start(
        cls, rules: Any = None, rng: random.Random | None = None, *, roles: Any = None, dealer: int | None = None
    ) -> GinMatch:
        """A new match.  Three players: roles given, or drawn with :func:`gin.draw_roles` (C.2); two
        players: ``dealer`` given, or chosen at random (D.1.2)."""
        from .gin import draw_roles

        r = _rules(rules)
        n = r.players
        draw = None
        if n == 3:
            if roles is None:
                if rng is None:
                    raise InvalidAction("A random generator is needed to draw the roles.", code="bad_roles")
                rd = draw_roles(rng)
                roles = (rd.box, rd.captain, rd.advisor)
                draw = json.dumps(rd.to_dict(), sort_keys=True)
            roles = tuple(roles)
            if sorted(roles) != [0, 1, 2]:
                raise InvalidAction(
                    "roles must be (box, captain, advisor), a permutation of 0, 1, 2.", code="bad_roles"
                )
            dealer = roles[0]
        else:
            roles = None
            if dealer is None:
                if rng is None:
                    raise InvalidAction("A random generator is needed to choose the first dealer.", code="bad_roles")
                dealer = rng.randrange(2)
            if dealer not in (0, 1):
                raise InvalidAction("dealer must be 0 or 1.", code="bad_roles")
        hw = (HollywoodGame(),) * 3 if r.variant == "hollywood" else ()
        zero = (0,) * n
        return cls(r, roles, dealer, zero, zero, zero, (), hw, draw)

    # roles ----------------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def box(self) -> int | None:
        return self.roles[0] if self.roles else None

    @property
    def captain(self) -> int | None:
        return self.roles[1] if self.roles else None

    @property
    def advisor(self) -> int | None:
        return self.roles[2] if self.roles else None

    def next_round_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``gin.new_round(rules, seats, rng, **kw)`` for the next hand."""
        if self.roles is not None:
            return {"roles": list(self.roles)}
        return {"dealer": self.dealer}

    # recording --------------------------------------------------------------------------------
    def record(self, result: Any) -> GinMatch:
        """The match after a finished hand.  ``result``: a finished ``GinState``, its ``outcome()`` dict, or
        a ``(winner_seat | None, points, kind, multiplier)`` tuple."""
        if self.is_over:
            raise InvalidAction("The match is already over.", code="match_over")
        if hasattr(result, "game") and getattr(result, "game", None) == "gin":
            from .gin import outcome

            result = outcome(result)
            if result is None:
                raise InvalidAction("The hand is not over yet.", code="hand_not_over")
        if isinstance(result, dict):
            winner, points, kind = result["winner"], result["points"], result["kind"]
            mult = result.get("multiplier", 1)
        else:
            winner, points, kind, *rest = result
            mult = rest[0] if rest else 1
        r = self.rules
        n = self.players
        if winner is not None and not (0 <= winner < n):
            raise InvalidAction("winner must be a seat index.", code="bad_winner")
        if winner is not None and self.roles is not None and winner == self.roles[2]:
            raise InvalidAction("The advisor cannot win a hand.", code="bad_winner")
        if winner is None:
            # dead hand or a tie without undercut: nobody scores, roles and dealer unchanged (C.8, C.9.3)
            return replace(self, history=self.history + ((kind, None, 0),))
        scores = list(self.scores)
        won = list(self.hands_won)
        boxes = list(self.boxes)
        units = 2 if (mult > 1 and r.oklahoma_double_boxes) else 1
        won[winner] += 1
        boxes[winner] += units
        hw = self.hollywood
        if r.variant == "hollywood":
            hw = gin_hollywood_entries(hw, winner, won[winner], points, r.hollywood_target, units)
        scores[winner] += points
        roles = gin_next_roles(self.roles, winner) if self.roles is not None else None
        dealer = roles[0] if roles is not None else gin_next_dealer(self.dealer, winner, r)
        return replace(
            self,
            roles=roles,
            dealer=dealer,
            scores=tuple(scores),
            hands_won=tuple(won),
            boxes=tuple(boxes),
            history=self.history + ((kind, winner, points),),
            hollywood=hw,
        )

    # end of the match -------------------------------------------------------------------------
    @property
    def target(self) -> int:
        return self.rules.hollywood_target if self.rules.variant == "hollywood" else self.rules.game_target

    @property
    def is_over(self) -> bool:
        if self.rules.variant == "hollywood":
            return all(g.closed for g in self.hollywood)
        return max(self.scores) >= self.rules.game_target

    def game_totals(self) -> list[list[int]]:
        """Hollywood: the final totals of each of the three games (bonuses per game)."""
        return [gin_final_totals(g.scores, g.boxes, self.rules, target=self.target) for g in self.hollywood]

    def final_totals(self) -> list[int]:
        """Totals with end bonuses (C.10.2, D.1.8; Hollywood: the sum over the three games)."""
        if self.rules.variant == "hollywood":
            per = self.game_totals()
            return [sum(t[i] for t in per) for i in range(self.players)]
        return gin_final_totals(self.scores, self.hands_won, self.rules, boxes=self.boxes)

    @property
    def winner(self) -> int | None:
        """The seat with the highest final total once the match is over (None before, or on an exact tie)."""
        if not self.is_over:
            return None
        if self.rules.variant != "hollywood":
            top = max(self.scores)
            if self.scores.count(top) == 1:
                return self.scores.index(top)
            return None
        totals = self.final_totals()
        top = max(totals)
        return totals.index(top) if totals.count(top) == 1 else None

    @property
    def winners(self) -> list[int]:
        """[winner] once the match is over (empty before or on an exact tie), like the Manipulation tally."""
        w = self.winner
        return [] if w is None else [w]

    @property
    def margin(self) -> int | None:
        """Two players: the difference of the final totals (D.1.8)."""
        if self.players != 2:
            return None
        t = self.final_totals()
        return abs(t[0] - t[1])

    # serialisation ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "roles": list(self.roles) if self.roles else None,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "hands_won": list(self.hands_won),
            "boxes": list(self.boxes),
            "history": [list(h) for h in self.history],
            "hollywood": [g.to_dict() for g in self.hollywood],
            "role_draw": json.loads(self.role_draw) if self.role_draw else None,
            "is_over": self.is_over,
            "final_totals": self.final_totals() if self.is_over else None,
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GinMatch:
        return cls(
            _rules(d["rules"]),
            tuple(d["roles"]) if d["roles"] else None,
            d["dealer"],
            tuple(d["scores"]),
            tuple(d["hands_won"]),
            tuple(d["boxes"]),
            tuple(tuple(h) for h in d["history"]),
            tuple(HollywoodGame.from_dict(g) for g in d["hollywood"]),
            json.dumps(d["role_draw"], sort_keys=True) if d.get("role_draw") else None,
        )
