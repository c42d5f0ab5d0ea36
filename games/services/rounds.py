"""Dealing a round, closing it (scores, the match's end), and the players' "ready" between rounds."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import signals
from games.engine import shuffle
from games.engine.gin.bots import advice
from games.models import (
    Match,
    MatchStatus,
    Round,
    RoundScore,
    Seat,
)
from games.services.refusals import ActionRefused
from games.services.write import (
    Write,
    lobby_changed,
    match_rules,
    new_round_seed,
    own_seat,
    schedule_next_step,
    shared_seed,
    writing,
)

log = logging.getLogger(__name__)


def deal_round(write: Write, rules) -> None:
    """Deal the next round and save it (the next automatic step scheduled)."""
    match, spec = write.match, write.spec
    number = match.round_number + 1
    # A duplicate tournament table deals the round's shared seed of this deal number.
    seed = shared_seed(match.deal_set_id, number) if match.deal_set_id else new_round_seed(number)
    tally = match.state["tally"]
    state, dealer = spec.deal(rules, tally, shuffle.rng_for(shuffle.CURRENT, seed))
    # The table shows the commitment from the deal on; the seed stays here until the round is over.
    commitment = shuffle.commitment(seed, match_id=match.pk, round_number=number)
    Round.objects.create(
        match=match,
        number=number,
        dealer=dealer,
        shuffle=shuffle.CURRENT,
        seed=seed,
        commitment=commitment,
        setup=tally,
    )
    match.round_number = number
    match.state = {"tally": tally, "commitment": commitment}
    write.set_state(state)
    match.status = MatchStatus.PLAYING
    match.draft = None
    match.turn_started_at = timezone.now()
    Seat.objects.filter(match=match).update(ready=False)
    for index, role in enumerate(spec.seat_roles(tally, match.seats_count)):
        Seat.objects.filter(match=match, index=index).update(role=role)
    write.seats_changed()
    write.event(
        kind="deal",
        seat=None,
        action={"type": "deal", "round": number},
        summary={"code": "deal", "round": number, "dealer": dealer},
    )
    gin_bot_advice(write)
    schedule_next_step(write)
    write.save("state", "status", "started_at", "round_number", "deadline", "turn_started_at", "draft")


def close_round(write: Write, rules, state) -> None:
    """Store the round that just ended (result, scores, log line); the match is then over or between rounds."""
    match, spec = write.match, write.spec
    closed = spec.close_round(rules, match.state["tally"], state)
    rnd = Round.objects.get(match=match, number=match.round_number)
    rnd.result_kind = closed.result_kind
    rnd.knocker = closed.knocker
    rnd.winners = closed.winners
    rnd.outcome = closed.outcome
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["result_kind", "knocker", "winners", "outcome", "finished_at"])
    RoundScore.objects.bulk_create(
        [
            RoundScore(
                round=rnd,
                seat=i,
                hand_points=closed.hand_points[i] if i < len(closed.hand_points) else None,
                score=closed.scores[i],
                reasons=closed.reasons[i] if i < len(closed.reasons) else [],
            )
            for i in range(len(closed.scores))
        ]
    )
    match.state = {**match.state, "tally": closed.tally}
    write.event(
        kind="system",
        seat=None,
        action={"type": "round_end", "round": match.round_number},
        summary={
            "code": "round_end",
            "round": match.round_number,
            "kind": closed.result_kind,
            "winners": closed.winners,
        },
    )
    if spec.is_match_over(rules, closed.tally):
        totals, winners = spec.final(rules, closed.tally)
        match.status = MatchStatus.FINISHED
        match.finished_at = timezone.now()
        for i, total in enumerate(totals):
            Seat.objects.filter(match=match, index=i).update(final_total=total, is_winner=i in winners)
        # A player whose seat a bot was playing at the end left the match: an abandon (docs/fair-play.md).
        Seat.objects.filter(match=match, user__isnull=False, autopilot=True).update(abandoned=True)
        write.seats_changed()
        write.event(
            kind="system",
            seat=None,
            action={"type": "match_end"},
            summary={"code": "match_end", "totals": totals, "winners": winners},
        )
        lobby_changed(match)
        transaction.on_commit(lambda: _after_match_finished(match.pk))
    else:
        match.status = MatchStatus.BETWEEN_ROUNDS


def _after_match_finished(match_id: int) -> None:
    """Tell the rest of the site (ratings, tournaments: ``signals.match_finished``) once the
    finished match is committed.

    Every receiver is idempotent and also run by management commands (``rate_matches``,
    ``tournament_sync``), so a failure here delays it but loses nothing.
    """
    match = Match.objects.get(pk=match_id)
    for receiver, result in signals.match_finished.send_robust(sender=Match, match=match):
        if isinstance(result, Exception):
            log.error("%s failed for match %s", getattr(receiver, "__name__", receiver), match_id, exc_info=result)


def round_ready(*, match_id: int, user) -> Match:
    """A human is ready for the next round; when every human is, it is dealt."""
    with writing(match_id) as write:
        match = write.match
        if match.status != MatchStatus.BETWEEN_ROUNDS:
            raise ActionRefused("not_between_rounds", _("The next round cannot start now."))
        seat = own_seat(match, user)
        write.update_seat(seat, ready=True)
        waiting = Seat.objects.filter(match=match, user__isnull=False, ready=False, autopilot=False).exists()
        if not waiting:
            deal_round(write, match_rules(match))
        else:
            write.save()
        return match


def gin_bot_advice(write: Write) -> None:
    """Three-player Gin: a bot advisor advises a human captain at each of his decisions (RULES C.2.4).

    Called after every move but a suggestion, and after a deal: when the captain (human, not on
    autopilot) is now to decide and the advisor is a bot, the advisor's ``suggest`` goes through the
    engine and the log exactly like a human advisor's (audience: the team only), folded into the same
    version as the move that brought the decision.
    """
    spec, state = write.spec, write.state
    if not spec.team_advice or state.advisor is None or state.seat_to_act != state.nondealer:
        return
    advisor, captain = write.seat(state.advisor), write.seat(state.nondealer)
    if advisor is None or captain is None or not advisor.is_bot or captain.is_bot or captain.autopilot:
        return
    suggestion = advice(state)
    if suggestion is None:
        return
    action = {"type": "suggest", "suggestion": suggestion}
    after = spec.apply(state, state.advisor, action)
    write.event(
        kind="action",
        seat=state.advisor,
        action=action,
        summary=spec.describe(state, after, state.advisor, action),
        by_bot=True,
    )
    write.set_state(after)
