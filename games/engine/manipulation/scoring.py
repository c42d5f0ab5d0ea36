"""Manipulation Rummy's round and match scoring (RULES B.7, B.8).

* :func:`manipulation_round_scores` — the B.7 algorithm, one score per seat;
* :func:`manipulation_round_result` — the same with winners, rounds won and
  the reason for every point (difference, undercut bonus, going-out bonus);
* :func:`manipulation_final_totals` — B.8 end-of-game bonuses;
* :class:`MatchTally` — cumulative scores, rounds won, dealer rotation and the
  end-of-game test, one immutable value per match.

``rules`` may be ``None`` (defaults), a
:class:`games.engine.manipulation.ManipulationRules` or its ``to_dict()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import InvalidAction
from .rules import ManipulationRules


def _rules(rules: object):
    if rules is None:
        return ManipulationRules()
    if isinstance(rules, dict):
        return ManipulationRules.from_dict(rules)
    return rules


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The scored outcome of one Manipulation round (B.7)."""

    hand_points: tuple[int, ...]
    knocker: int | None
    went_out: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds_won: tuple[int, ...]
    reasons: tuple[tuple[tuple[str, int], ...], ...] = field(default=())

    def to_dict(self) -> dict:
        return {
            "hand_points": list(self.hand_points),
            "knocker": self.knocker,
            "went_out": self.went_out,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "rounds_won": list(self.rounds_won),
            "reasons": [[{"code": c, "points": p} for c, p in seat] for seat in self.reasons],
        }

    @classmethod
    def from_dict(cls, d: dict) -> RoundResult:
        return cls(
            hand_points=tuple(d["hand_points"]),
            knocker=d["knocker"],
            went_out=bool(d["went_out"]),
            scores=tuple(d["scores"]),
            winners=tuple(d["winners"]),
            rounds_won=tuple(d["rounds_won"]),
            reasons=tuple(tuple((r["code"], r["points"]) for r in seat) for seat in d.get("reasons", [])),
        )


def _check_hand_points(hand_points: Sequence[int], knocker: int | None, went_out: bool) -> list[int]:
    h = [int(x) for x in hand_points]
    if len(h) < 2:
        raise InvalidAction("A round needs at least two players.", code="bad_scores")
    if any(x < 0 for x in h):
        raise InvalidAction("Hand points cannot be negative.", code="bad_scores")
    if knocker is not None and not 0 <= knocker < len(h):
        raise InvalidAction(f"Knocker {knocker} is not a seat.", code="bad_scores")
    if went_out and knocker is None:
        raise InvalidAction("Going out needs the seat that went out as knocker.", code="bad_scores")
    if went_out and h[knocker] != 0:  # type: ignore[index]
        raise InvalidAction("A player who went out has 0 points in hand.", code="bad_scores")
    return h


def manipulation_round_result(
    hand_points: Sequence[int], knocker: int | None, went_out: bool = False, rules: object = None
) -> RoundResult:
    """RULES B.7 with the reason for each seat's points.

    ``reasons[i]`` is a tuple of ``(code, points)``: ``("difference", d)`` the
    sum of differences, ``("undercut_bonus", 10)``, ``("going_out_bonus", 25)``.
    Option ``tie_nonknockers = none_win`` **[ext]**: when the lowest hands are
    tied in a case the sources do not settle (a tie for lowest without the
    knocker, the knocker tying three or more players, or a tie after stock
    exhaustion) nobody scores; the knocker tying one or two players is always
    settled as in the sources.
    """
    r = _rules(rules)
    h = _check_hand_points(hand_points, knocker, went_out)
    n = len(h)
    m = min(h)
    lowest = [i for i in range(n) if h[i] == m]
    winners = list(lowest)
    knocker_tied = knocker is not None and knocker in winners and len(winners) > 1
    if knocker_tied:
        winners.remove(knocker)
    if len(winners) > 1 and r.tie_nonknockers == "none_win":
        sourced = knocker_tied and len(winners) <= 2
        if not sourced:
            winners = []
    scores = [0] * n
    won = [0] * n
    reasons: list[tuple[tuple[str, int], ...]] = [()] * n
    for w in winners:
        diff = sum(h[j] - m for j in range(n) if j != w)
        parts = [("difference", diff)]
        s = diff
        if knocker is not None and w != knocker:
            s += r.undercut_bonus
            parts.append(("undercut_bonus", r.undercut_bonus))
        if w == knocker and went_out:
            s += r.going_out_bonus
            parts.append(("going_out_bonus", r.going_out_bonus))
        scores[w] += s
        won[w] += 1
        reasons[w] = tuple(parts)
    return RoundResult(
        hand_points=tuple(h),
        knocker=knocker,
        went_out=bool(went_out),
        scores=tuple(scores),
        winners=tuple(winners),
        rounds_won=tuple(won),
        reasons=tuple(reasons),
    )


def manipulation_round_scores(
    hand_points: Sequence[int], knocker: int | None, went_out: bool = False, rules: object = None
) -> list[int]:
    """Round scores per seat (RULES B.7); every non-winner scores 0."""
    return list(manipulation_round_result(hand_points, knocker, went_out, rules).scores)


@dataclass(frozen=True, slots=True)
class EndBonuses:
    """One seat's end-of-game bonuses (RULES B.8.2-B.8.3): ``game`` for reaching the target,
    ``rounds`` for the rounds won (``rounds_won`` of them)."""

    game: int
    rounds: int
    rounds_won: int


def manipulation_end_bonuses(
    scores: Sequence[int], rounds_won: Sequence[int], rules: object = None
) -> list[EndBonuses]:
    """Each seat's end-of-game bonuses (B.8.2-B.8.3).

    Every player with ``score >= game_target`` gets ``game_bonus``; every other
    player (option ``round_won_bonus_to = all``: every player) gets
    ``round_won_bonus × rounds won``.
    """
    r = _rules(rules)
    if len(scores) != len(rounds_won):
        raise InvalidAction("scores and rounds_won must have one entry per seat.", code="bad_scores")
    out = []
    for s, w in zip(scores, rounds_won, strict=True):
        reached = s >= r.game_target
        out.append(
            EndBonuses(
                game=r.game_bonus if reached else 0,
                rounds=r.round_won_bonus * w if not reached or r.round_won_bonus_to == "all" else 0,
                rounds_won=w,
            )
        )
    return out


def manipulation_final_totals(scores: Sequence[int], rounds_won: Sequence[int], rules: object = None) -> list[int]:
    """Totals after the end-of-game bonuses (RULES B.8.2–B.8.3): the scores plus
    :func:`manipulation_end_bonuses`."""
    return [
        s + b.game + b.rounds for s, b in zip(scores, manipulation_end_bonuses(scores, rounds_won, rules), strict=True)
    ]


def manipulation_is_match_over(scores: Sequence[int], rules: object = None) -> bool:
    """B.8.1: the game ends after a round in which some cumulative score reached the target."""
    r = _rules(rules)
    return any(s >= r.game_target for s in scores)


def manipulation_match_winners(scores: Sequence[int], rounds_won: Sequence[int], rules: object = None) -> list[int]:
    """B.8.4: seats with the highest final total (co-winners, or option ``final_tie = most_rounds_won``)."""
    r = _rules(rules)
    totals = manipulation_final_totals(scores, rounds_won, r)
    best = max(totals)
    tied = [i for i, t in enumerate(totals) if t == best]
    if len(tied) > 1 and r.final_tie == "most_rounds_won":
        most = max(rounds_won[i] for i in tied)
        tied = [i for i in tied if rounds_won[i] == most]
    return tied


def manipulation_next_dealer(dealer: int, players: int, winners: Sequence[int] = (), rules: object = None) -> int:
    """Dealer of the next round (B.4.1; option ``deal_rotation``).

    ``left``: the player on the dealer's left.  ``winner_deals`` **[ext]**: the
    round's winner; with several winners the first of them clockwise from the
    dealer's left; with none, the player on the dealer's left.
    """
    r = _rules(rules)
    left = (dealer + 1) % players
    if r.deal_rotation == "winner_deals" and winners:
        for k in range(players):
            seat = (left + k) % players
            if seat in winners:
                return seat
    return left


@dataclass(frozen=True, slots=True)
class MatchTally:
    """Cumulative bookkeeping of one Manipulation match (B.7–B.8).

    ``dealer`` is the dealer of the round just played (``None`` before the first).
    """

    players: int
    scores: tuple[int, ...] = ()
    rounds_won: tuple[int, ...] = ()
    rounds_played: int = 0
    dealer: int | None = None
    winners_last: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 5:
            raise InvalidAction("A Manipulation match has 2 to 5 players.", code="bad_players")
        if not self.scores:
            object.__setattr__(self, "scores", (0,) * self.players)
        if not self.rounds_won:
            object.__setattr__(self, "rounds_won", (0,) * self.players)

    @classmethod
    def start(cls, players: int) -> MatchTally:
        return cls(players=players)

    def add_round(self, result: RoundResult | dict, dealer: int | None = None) -> MatchTally:
        """A new tally with one more scored round (``result``: a RoundResult or an ``outcome()`` dict)."""
        if isinstance(result, dict):
            scores, won, winners = result["scores"], result["rounds_won"], result["winners"]
            dealer = result.get("dealer", dealer) if dealer is None else dealer
        else:
            scores, won, winners = result.scores, result.rounds_won, result.winners
        if len(scores) != self.players:
            raise InvalidAction("The round has a different number of seats.", code="bad_scores")
        return MatchTally(
            players=self.players,
            scores=tuple(a + b for a, b in zip(self.scores, scores, strict=True)),
            rounds_won=tuple(a + b for a, b in zip(self.rounds_won, won, strict=True)),
            rounds_played=self.rounds_played + 1,
            dealer=dealer,
            winners_last=tuple(winners),
        )

    def is_over(self, rules: object = None) -> bool:
        return manipulation_is_match_over(self.scores, rules)

    def final_totals(self, rules: object = None) -> list[int]:
        return manipulation_final_totals(self.scores, self.rounds_won, rules)

    def winners(self, rules: object = None) -> list[int]:
        return manipulation_match_winners(self.scores, self.rounds_won, rules)

    def next_dealer(self, rules: object = None) -> int | None:
        """Dealer of the next round; ``None`` before the first round (chosen at random, B.4.1)."""
        if self.dealer is None:
            return None
        return manipulation_next_dealer(self.dealer, self.players, self.winners_last, rules)

    def to_dict(self) -> dict:
        return {
            "players": self.players,
            "scores": list(self.scores),
            "rounds_won": list(self.rounds_won),
            "rounds_played": self.rounds_played,
            "dealer": self.dealer,
            "winners_last": list(self.winners_last),
        }

    @classmethod
    def from_dict(cls, d: dict) -> MatchTally:
        return cls(
            players=d["players"],
            scores=tuple(d["scores"]),
            rounds_won=tuple(d["rounds_won"]),
            rounds_played=d["rounds_played"],
            dealer=d["dealer"],
            winners_last=tuple(d.get("winners_last", ())),
        )


def is_match_over(tally_or_scores: MatchTally | Sequence[int], rules: object = None) -> bool:
    """B.8.1 for a :class:`MatchTally` or a list of cumulative scores."""
    if isinstance(tally_or_scores, MatchTally):
        return tally_or_scores.is_over(rules)
    return manipulation_is_match_over(tally_or_scores, rules)
