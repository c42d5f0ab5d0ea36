""":class:`GinMatch`: the match-level bookkeeping value the caller keeps between Gin hands (roles or
dealer, cumulative scores, hands won, boxes, Hollywood's columns)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any

from ..errors import InvalidAction
from .hand import outcome
from .rules import as_rules
from .scoring import (
    EndBreakdown,
    HollywoodGame,
    gin_end_bonuses,
    gin_final_totals,
    gin_hollywood_entries,
    gin_next_dealer,
    gin_next_roles,
)
from .state import draw_roles


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
        r = as_rules(rules)
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
        hw = (HollywoodGame(),) * 3 if r.hollywood_scoring else ()
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
        if r.hollywood_scoring:
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
        return self.rules.target

    @property
    def is_over(self) -> bool:
        if self.rules.hollywood_scoring:
            return all(g.closed for g in self.hollywood)
        return max(self.scores) >= self.rules.game_target

    def game_totals(self) -> list[list[int]]:
        """Hollywood: the final totals of each of the three games (bonuses per game)."""
        return [gin_final_totals(g.scores, g.boxes, self.rules, target=self.target) for g in self.hollywood]

    def end_breakdown(self) -> EndBreakdown:
        """The end bonuses and what they are added to (C.10.2, D.1.8; Hollywood: each game's own, D.3.3)."""
        if not self.rules.hollywood_scoring:
            bonuses = gin_end_bonuses(self.scores, self.hands_won, self.rules, boxes=self.boxes)
            return EndBreakdown(self.scores, self.boxes, bonuses)
        games = self.hollywood
        per_game = (
            gin_end_bonuses(g.scores, g.boxes, self.rules, target=self.target, game=n)
            for n, g in enumerate(games, start=1)
        )
        return EndBreakdown(
            tuple(sum(g.scores[i] for g in games) for i in range(self.players)),
            tuple(sum(g.boxes[i] for g in games) for i in range(self.players)),
            tuple(b for bonuses in per_game for b in bonuses),
        )

    def final_totals(self) -> list[int]:
        """Totals with end bonuses (C.10.2, D.1.8; Hollywood: the sum over the three games)."""
        return list(self.end_breakdown().totals)

    @property
    def winner(self) -> int | None:
        """The seat with the highest final total once the match is over (None before, or on an exact tie)."""
        if not self.is_over:
            return None
        if not self.rules.hollywood_scoring:
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
            as_rules(d["rules"]),
            tuple(d["roles"]) if d["roles"] else None,
            d["dealer"],
            tuple(d["scores"]),
            tuple(d["hands_won"]),
            tuple(d["boxes"]),
            tuple(tuple(h) for h in d["history"]),
            tuple(HollywoodGame.from_dict(g) for g in d["hollywood"]),
            json.dumps(d["role_draw"], sort_keys=True) if d.get("role_draw") else None,
        )
