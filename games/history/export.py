"""The game record: a documented, versioned JSON export of a match (docs/game-record.md).

``match_record(match)`` writes it from the stored rows; ``import_record(record)``
replays it with the engine (deal each round from its seed and setup with the
round's shuffle, apply every action, close the round) and returns the states
and scores it reached, checking on the way that every round was dealt as the
record says (its ``deal`` and its commitment) and ends where it says.
A round's seed and deal are written once the round is over (docs/fairness.md);
the round in play is not part of the record, and a live match's record cannot
be re-imported.
"""

from __future__ import annotations

from typing import Any

from games.engine import shuffle
from games.engine.errors import InvalidAction
from games.models import Event, Match, MatchStatus, Round, RoundScore, Seat
from games.variants import spec_for

FORMAT = "rummyhub-game-record"
VERSION = 2  # 2: each round's shuffle, commitment and deal; 1: every round python-random, no deal
READS = (1, 2)


class RecordMismatch(InvalidAction):
    """The record does not replay to the result it states."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="record_mismatch")


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def _match_info(match: Match) -> dict[str, Any]:
    return {
        "id": match.pk,
        "variant": match.variant,
        "options": match.options,
        "seats": match.seats_count,
        "status": match.status,
        "created_at": _iso(match.created_at),
        "started_at": _iso(match.started_at),
        "finished_at": _iso(match.finished_at),
    }


def _seat_record(s: Seat, finished: bool) -> dict[str, Any]:
    return {
        "index": s.index,
        "name": s.display_name,
        "kind": "bot" if s.is_bot else "human",
        "bot_policy": s.bot_policy or None,
        "role": s.role or None,
        "final_total": s.final_total if finished else None,
        "winner": bool(s.is_winner) if finished else None,
    }


def _scores_by_round(match: Match) -> dict[int, list[RoundScore]]:
    scores: dict[int, list[RoundScore]] = {}
    for sc in RoundScore.objects.filter(round__match=match).order_by("round__number", "seat"):
        scores.setdefault(sc.round_id, []).append(sc)
    return scores


def _actions_by_round(match: Match) -> dict[int, list[dict[str, Any]]]:
    actions: dict[int, list[dict[str, Any]]] = {}
    for ev in Event.objects.filter(match=match, kind="action").order_by("seq"):
        actions.setdefault(ev.round_number, []).append(
            {"seq": ev.seq, "seat": ev.seat, "action": ev.action, "by_bot": ev.by_bot}
        )
    return actions


def _revealed_seed(match: Match, r: Round) -> str | int | None:
    """A finished round's seed as the record writes it (python-random's as a number); None before
    (and while a duplicate round holds it: ``Round.seed_shown``)."""
    if not r.seed_shown(match):
        return None
    return int(r.seed) if r.shuffle == shuffle.LEGACY else r.seed


def _deal_record(match: Match, r: Round) -> dict[str, Any] | None:
    """A finished round's deal as it was played: dealt again from its seed, setup and shuffle (None
    while its seed is not shown)."""
    if not r.seed_shown(match):
        return None
    spec = spec_for(match.variant)
    rules = spec.rules(match.options, match.seats_count)
    state, _dealer = spec.deal(rules, r.setup, shuffle.rng_for(r.shuffle, r.seed))
    return spec.dealt(rules, r.setup, state)


def _round_record(match: Match, r: Round, scores: list[RoundScore], actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "shuffle": r.shuffle,
        "commitment": r.commitment or None,
        "seed": _revealed_seed(match, r),
        "deal": _deal_record(match, r),
        "setup": r.setup,
        "actions": actions,
        "result": {
            "kind": r.result_kind,
            "knocker": r.knocker,
            "winners": r.winners,
            "hand_points": [sc.hand_points for sc in scores],
            "scores": [sc.score for sc in scores],
            "reasons": [sc.reasons for sc in scores],
        },
    }


def match_record(match: Match) -> dict[str, Any]:
    finished = match.status == MatchStatus.FINISHED
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    if not finished:
        # The round in play is not part of a live record: its actions would say nothing without its end.
        rounds = [r for r in rounds if r.finished_at is not None]
    scores = _scores_by_round(match)
    actions = _actions_by_round(match)
    return {
        "format": FORMAT,
        "version": VERSION,
        "match": _match_info(match),
        "seats": [_seat_record(s, finished) for s in seats],
        "rounds": [_round_record(match, r, scores.get(r.pk, []), actions.get(r.number, [])) for r in rounds],
        "final": {
            "totals": [s.final_total for s in seats] if finished else None,
            "winners": [s.index for s in seats if s.is_winner] if finished else None,
        },
    }


def import_record(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a finished match's record with the engine.

    Returns ``{"states": [final engine state of each round (as dicts)],
    "round_scores": [[score per seat] per round], "totals": [...],
    "winners": [...], "tally": {...}}``.  Raises ``InvalidAction`` for a
    record of another format/version or without seeds, ``RulesError`` for an
    illegal action, and ``RecordMismatch`` when the replay disagrees with the
    record (a deal, a commitment, a setup, a round result, or the final totals).
    """
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise InvalidAction("Not a RummyHub game record.", code="bad_record")
    if record.get("version") not in READS:
        raise InvalidAction(f"Unsupported game record version {record.get('version')!r}.", code="bad_record")
    info = record["match"]
    spec = spec_for(info["variant"])
    rules = spec.rules(info["options"], info["seats"])
    tally = None
    states, round_scores = [], []
    for rnd in record["rounds"]:
        if rnd.get("seed") is None:
            raise InvalidAction("The record has no shuffle seeds (the match was not finished).", code="bad_record")
        if tally is not None and rnd["setup"] != tally:
            raise RecordMismatch(f"Round {rnd['number']}: the stored setup differs from the replayed one.")
        tally = rnd["setup"]
        state = _deal_as_recorded(spec, rules, info, rnd, legacy=record["version"] == 1)
        for step in rnd["actions"]:
            state = spec.apply(state, step["seat"], step["action"])
        if not spec.is_round_over(state):
            raise RecordMismatch(f"Round {rnd['number']} does not end after its actions.")
        closed = spec.close_round(rules, tally, state)
        if closed.scores != rnd["result"]["scores"]:
            raise RecordMismatch(f"Round {rnd['number']}: replayed scores {closed.scores} differ from the record.")
        tally = closed.tally
        states.append(spec.dump(state))
        round_scores.append(list(closed.scores))
    if tally is None or not spec.is_match_over(rules, tally):
        raise RecordMismatch("The replayed match is not over.")
    totals, winners = spec.final(rules, tally)
    final = record.get("final") or {}
    if final.get("totals") is not None and (list(totals) != final["totals"] or list(winners) != final["winners"]):
        raise RecordMismatch("The replayed final totals differ from the record.")
    return {
        "states": states,
        "round_scores": round_scores,
        "totals": list(totals),
        "winners": list(winners),
        "tally": tally,
    }


def _deal_as_recorded(spec, rules, info: dict[str, Any], rnd: dict[str, Any], *, legacy: bool) -> Any:
    """A round dealt again from its seed with its shuffle (version 1: python-random), checked against
    the record's commitment and deal."""
    algorithm = shuffle.LEGACY if legacy else rnd.get("shuffle")
    state, _dealer = spec.deal(rules, rnd["setup"], shuffle.rng_for(algorithm, rnd["seed"]))
    if algorithm == shuffle.CURRENT:
        expected = shuffle.commitment(rnd["seed"], match_id=info["id"], round_number=rnd["number"])
        if rnd.get("commitment") != expected:
            raise RecordMismatch(f"Round {rnd['number']}: the seed does not match the commitment.")
    if not legacy and rnd.get("deal") != spec.dealt(rules, rnd["setup"], state):
        raise RecordMismatch(f"Round {rnd['number']}: the recorded deal is not the one its seed deals.")
    return state
