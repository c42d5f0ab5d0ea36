"""A finished match's replay: the steps of each round (the deal, then each action) and the table as it
was at one step, every hand revealed."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.http import Http404
from django.utils.translation import gettext as _

from games.analysis.selectors import replay_analysis
from games.board import words
from games.history import display
from games.history.selectors.match_page import SeatRow, seat_name, seat_rows
from games.models import Event, Match, MatchStatus, Round
from games.rebuild import iter_round_states
from games.variants import spec_for


def replay_index(match: Match) -> list[tuple[int, int]]:
    """``[(round number, number of actions)]``: round r has 1 + actions steps (the deal, then each action)."""
    counts = dict(
        Event.objects.filter(match=match, kind="action")
        .values("round_number")
        .annotate(n=Count("id"))
        .values_list("round_number", "n")
    )
    numbers = Round.objects.filter(match=match).order_by("number").values_list("number", flat=True)
    return [(number, counts.get(number, 0)) for number in numbers]


def locate_step(index: list[tuple[int, int]], step: int) -> tuple[int, int, int]:
    """``(round number, step within the round, clamped global step)``; step 0 of a round is the deal."""
    total = sum(1 + n for _r, n in index)
    step = max(0, min(step, total - 1))
    first = 0
    for number, n in index:
        if step < first + 1 + n:
            return number, step - first, step
        first += 1 + n
    raise Http404  # a match without rounds has nothing to replay


def _table_melds(state) -> list[list[Any]]:
    return [list(m) for m in getattr(state, "table", ()) or ()]


def _meld_view(melds: list[list[Any]], before: list[list[Any]] | None) -> list[dict[str, Any]]:
    """The table's melds with the changes of this step: cards added, melds new or rearranged."""
    before_ids = {c.id for m in (before or []) for c in m}
    before_sets = {frozenset(c.id for c in m) for m in (before or [])}
    out = []
    for meld in melds:
        ids = frozenset(c.id for c in meld)
        cards = [
            {**display.card_face(f"{c.code}.{c.deck}"), "added": before is not None and c.id not in before_ids}
            for c in meld
        ]
        status = ""
        if before is not None and ids not in before_sets:
            status = "rearranged" if ids & before_ids else "new"
        out.append({"cards": cards, "status": status})
    return out


def replay_step(*, match: Match, step: int) -> dict[str, Any]:
    """The table as it was at ``step`` (every hand revealed; finished matches only)."""
    if match.status != MatchStatus.FINISHED:
        raise Http404
    index = replay_index(match)
    number, k, step = locate_step(index, step)

    rnd = Round.objects.get(match=match, number=number)
    previous = state = event = None
    for i, (ev, st) in enumerate(iter_round_states(match, rnd)):
        previous, state, event = state, st, ev
        if i == k:
            break
    seats = seat_rows(match)
    total = sum(1 + n for _r, n in index)
    spec = spec_for(match.variant)
    acting = spec.acting_seats(state)
    actor = event.seat if event is not None else None
    if event is None:
        text = _("Round %(n)d dealt.") % {"n": number}
    else:
        text = words.event_sentence(event.summary, seat_name(seats, event.seat), event.action)
    hands = _hands(spec, state)
    before = _hands(spec, previous) if previous is not None else None
    return {
        "step": step,
        "total": total,
        "last": total - 1,
        "prev": max(0, step - 1),
        "next": min(total - 1, step + 1),
        "round": number,
        "round_step": k,
        "rounds": [{"number": r, "first": sum(1 + n for _r, n in index[:i])} for i, (r, _n) in enumerate(index)],
        "text": text,
        "actor": actor,
        "hands": [
            {
                "seat": seats[i] if i < len(seats) else None,
                "cards": [
                    {
                        **display.card_face(c.id),
                        "new": before is not None and actor == i and c.id not in {x.id for x in before[i]},
                    }
                    for c in hand
                ],
                "acting": i in acting,
                "points": sum(c.points() for c in hand),
            }
            for i, hand in enumerate(hands)
        ],
        "melds": _meld_view(_table_melds(state), _table_melds(previous) if previous is not None else None),
        "discard": [display.card_face(_card_ref(spec, c)) for c in getattr(state, "discard", ()) or ()],
        "has_discard": hasattr(state, "discard"),
        "stock": len(getattr(state, "stock", ()) or ()),
        "phase": getattr(state, "phase", ""),
        "result": _step_result(spec, state, seats),
        # What the post-game analysis found at this step (the position before its action).
        "analysis": replay_analysis(match=match, step=step),
        "actor_name": seat_name(seats, actor),
        "before_melds": [[display.card_face(f"{c.code}.{c.deck}") for c in m] for m in _table_melds(previous)]
        if previous is not None
        else [],
    }


def _hands(spec, state) -> list[list[Any]]:
    """Every seat's hand as engine ``Card`` objects (the engine's own ``hand_of``: Gin keeps indices)."""
    count = len(getattr(state, "hands", ()) or ())
    return [list(spec.engine.hand_of(state, i)) for i in range(count)]


def _card_ref(spec, card: Any) -> str:
    if isinstance(card, int):
        return spec.engine.IDS[card]
    return getattr(card, "id", str(card))


def _step_result(spec, state, seats: list[SeatRow]) -> dict[str, Any] | None:
    """At a round's last step: how it ended and what each seat scored (the engine's outcome)."""
    if not spec.is_round_over(state):
        return None
    out = spec.engine.outcome(state) or {}
    scores = out.get("scores") or []

    def faces(cards: Any) -> list[dict[str, Any]]:
        return [display.card_face(_card_ref(spec, c)) for c in cards or [] if isinstance(c, (str, int))]

    layout = []
    for role, seat in (("knocker", out.get("knocker")), ("defender", out.get("defender"))):
        melds = out.get(f"{role}_melds")
        if seat is None or not isinstance(melds, list):
            continue
        layout.append(
            {
                "name": seat_name(seats, seat),
                "melds": [faces(m) for m in melds if isinstance(m, list)],
                "deadwood": faces(out.get(f"{role}_deadwood_cards")),
            }
        )
    layoffs = [lay.get("card") for lay in out.get("layoffs") or [] if isinstance(lay, dict)]
    return {
        "kind": words.result_text(out.get("kind") or out.get("end_reason") or ""),
        "scores": words.scores_text([(seat_name(seats, i), score) for i, score in enumerate(scores)]),
        "layout": layout,
        "layoffs": faces(layoffs),
    }
