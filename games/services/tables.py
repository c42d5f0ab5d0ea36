"""Tables: create (from the lobby, seated for a tournament, a rematch), seats, start, abandon."""

from __future__ import annotations

import logging
import random
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import guards
from games.board import lists
from games.engine.errors import InvalidAction
from games.models import (
    BOT_NAMES,
    BOT_POLICIES,
    TIMER_CHOICES,
    DealSet,
    Match,
    MatchStatus,
    Seat,
)
from games.services.refusals import ActionRefused
from games.services.rounds import deal_round
from games.services.turnbased import check_cap, parse_move_time
from games.services.write import (
    host_only,
    lobby_changed,
    match_rules,
    must_be_open,
    own_seat,
    seat_of,
    seats_in_order,
    writing,
)
from games.variants import spec_for

log = logging.getLogger(__name__)


def match_create(
    *,
    host,
    variant: str,
    seats_count: int,
    options: dict[str, Any] | None = None,
    turn_timer: int = 0,
    is_private: bool = False,
    bots: int = 0,
    bot_policy: str = "basic",
    practice: bool = False,
    move_time: int = 0,
) -> Match:
    """Create a table with the host in seat 0 (and ``bots`` bot seats after it); a ``practice`` table
    is not rated and offers hints while every other seat is a bot (games.practice).  ``move_time``
    (seconds, ``MOVE_TIME_CHOICES``) makes it turn-based: no real-time turn timer then."""
    spec = spec_for(variant)
    if seats_count not in spec.seat_choices:
        raise ActionRefused(
            "bad_seats", _("This game is for %(choices)s players.") % {"choices": lists.items(spec.seat_choices)}
        )
    if turn_timer not in TIMER_CHOICES:
        raise ActionRefused("bad_timer", _("Choose a turn timer of none, 30, 60 or 120 seconds."))
    if bot_policy not in BOT_POLICIES:
        raise ActionRefused("bad_bot", _("Unknown bot."))
    move_time = parse_move_time(move_time)
    if move_time:
        turn_timer = 0
    if not practice:
        rated_only(host)
    options = dict(options or {})
    try:
        rules = spec.rules(options, seats_count)
    except InvalidAction as exc:
        raise ActionRefused("bad_option", exc.message) from None
    defaults = spec.option_defaults(seats_count)
    stored = {k: v for k, v in rules.to_dict().items() if k in defaults}
    with transaction.atomic():
        if move_time:
            check_cap(host)
        seats = [Seat(index=0, user=host)]
        seats += [
            Seat(index=i, bot_policy=bot_policy, bot_name=BOT_NAMES[i - 1]) if i <= bots else Seat(index=i)
            for i in range(1, seats_count)
        ]
        return _new_match(
            variant=variant,
            options=stored,
            host=host,
            turn_timer=turn_timer,
            is_private=is_private,
            seats=seats,
            practice=bool(practice),
            move_time=move_time,
        )


def match_create_seated(
    *, variant: str, options: dict[str, Any], users: list, turn_timer: int = 0, deal_set: DealSet | None = None
) -> Match:
    """A full table of ``users`` (seat order as given), started: a tournament's table.

    ``options`` are stored as they are (the tournament validated them when staff saved it).  With a
    ``deal_set`` (a duplicate round) the match deals its rounds from the set's seeds, draws its first
    dealer or roles from the set's match seed, and holds its seeds until the set is revealed.
    """
    if turn_timer not in TIMER_CHOICES:
        raise ActionRefused("bad_timer", _("Choose a turn timer of none, 30, 60 or 120 seconds."))
    with transaction.atomic():
        match = _new_match(
            variant=variant,
            options=options,
            host=users[0],
            turn_timer=turn_timer,
            seats=[Seat(index=i, user=u) for i, u in enumerate(users)],
            deal_set=deal_set,
        )
        return match_start(match_id=match.pk, user=users[0])


def _new_match(
    *,
    variant: str,
    options: dict,
    host,
    turn_timer: int,
    seats: list[Seat],
    is_private: bool = False,
    rematch_of: Match | None = None,
    deal_set: DealSet | None = None,
    practice: bool = False,
    move_time: int = 0,
) -> Match:
    """The one place a match row and its seats are created (the caller is in a transaction)."""
    shared = {} if deal_set is None else {"deal_set": deal_set, "deals_held": True, "seed": deal_set.match_seed}
    match = Match.objects.create(
        variant=variant,
        options=options,
        seats_count=len(seats),
        host=host,
        turn_timer=turn_timer,
        is_private=is_private,
        rematch_of=rematch_of,
        practice=practice,
        move_time=move_time,
        **shared,
    )
    for seat in seats:
        seat.match = match
    Seat.objects.bulk_create(seats)
    lobby_changed(match)
    return match


def rated_only(user) -> None:
    """Refuse a seat at a rated table to a player barred from them (``games.guards``: fair play)."""
    refusal = guards.current().rated_refusal(user=user)
    if refusal:
        raise ActionRefused("rated_bar", refusal)


def may_sit_with(user, others) -> None:
    """Refuse a seat beside a player ``user`` blocks or is blocked by (``games.guards``: fair play)."""
    refusal = guards.current().seating_refusal(user=user, others=others)
    if refusal:
        raise ActionRefused("blocked", refusal)


def seat_refusal(match: Match, user, seated: list[int]) -> ActionRefused | None:
    """Why fair play keeps ``user`` out of a seat at ``match`` beside the users ``seated`` (ids), or None:
    a bar from rated tables (a practice table takes everyone), a block either way (``games.guards``).

    A seat taken (:func:`seat_join`), a rematch asked for, and an open table's board (its "Sit here"
    buttons, ``board.table``) all ask this one question.
    """
    try:
        if not match.practice:
            rated_only(user)
        may_sit_with(user, seated)
    except ActionRefused as refusal:
        return refusal
    return None


def seat_refusal_inputs(match: Match, seats, user) -> tuple | None:
    """What :func:`seat_refusal_shown` depends on besides fair play's own records (who sits where), or
    None when it has nothing to ask: the table is not open, ``user`` has a seat there, or none is free."""
    if (
        match.status != MatchStatus.OPEN
        or not user.is_authenticated
        or any(s.user_id == user.pk for s in seats)
        or not any(s.is_empty for s in seats)
    ):
        return None
    return tuple(s.user_id if s.user_id is not None else bool(s.bot_policy) for s in seats)


def seat_refusal_shown(match: Match, seats, user) -> str | None:
    """:func:`seat_refusal`'s reason as an open table's board shows it to ``user``, a viewer without a
    seat while seats are free (None for anyone else): ``seats`` are the table's, as the board has them."""
    if seat_refusal_inputs(match, seats, user) is None:
        return None
    refusal = seat_refusal(match, user, [s.user_id for s in seats if s.user_id is not None])
    return refusal.message if refusal is not None else None


def seat_join(*, match_id: int, user, index: int | None = None, invite_token: str | None = None) -> Seat:
    with writing(match_id) as write:
        match = write.match
        must_be_open(match)
        if match.is_private and invite_token != match.invite_token and match.host_id != user.pk:
            raise ActionRefused("private", _("This table is private; you need its invite link."))
        if seat_of(match, user) is not None:
            raise ActionRefused("already_seated", _("You already have a seat at this table."))
        if match.move_time:
            check_cap(user)
        refusal = seat_refusal(match, user, [s.user_id for s in write.seats if s.user_id is not None])
        if refusal is not None:
            raise refusal
        free = Seat.objects.select_for_update().filter(match=match, user__isnull=True, bot_policy="")
        if index is not None:
            free = free.filter(index=index)
        seat = free.order_by("index").first()
        if seat is None:
            raise ActionRefused("table_full", _("That seat is taken."))
        seat.user = user
        try:
            with transaction.atomic():
                seat.save(update_fields=["user"])
        except IntegrityError:
            raise ActionRefused("already_seated", _("You already have a seat at this table.")) from None
        write.save()
        lobby_changed(match)
        return seat


def seat_leave(*, match_id: int, user) -> None:
    with writing(match_id) as write:
        match = write.match
        must_be_open(match)
        seat = own_seat(match, user)
        if match.host_id == user.pk:
            # The host leaving closes the table.
            match.status = MatchStatus.ABANDONED
            write.save("status")
        else:
            seat.user = None
            seat.save(update_fields=["user"])
            write.save()
        lobby_changed(match)


def seat_add_bot(*, match_id: int, user, index: int | None = None, policy: str = "basic") -> Seat:
    if policy not in BOT_POLICIES:
        raise ActionRefused("bad_bot", _("Unknown bot."))
    with writing(match_id) as write:
        match = write.match
        host_only(match, user)
        must_be_open(match)
        free = Seat.objects.filter(match=match, user__isnull=True, bot_policy="")
        if index is not None:
            free = free.filter(index=index)
        seat = free.order_by("index").first()
        if seat is None:
            raise ActionRefused("table_full", _("There is no free seat."))
        used = set(Seat.objects.filter(match=match).exclude(bot_name="").values_list("bot_name", flat=True))
        seat.bot_policy = policy
        seat.bot_name = next((n for n in BOT_NAMES if n not in used), f"Bot {seat.index + 1}")
        seat.save(update_fields=["bot_policy", "bot_name"])
        write.save()
        lobby_changed(match)
        return seat


def seat_remove_bot(*, match_id: int, user, index: int) -> None:
    with writing(match_id) as write:
        match = write.match
        host_only(match, user)
        must_be_open(match)
        updated = (
            Seat.objects.filter(match=match, index=index).exclude(bot_policy="").update(bot_policy="", bot_name="")
        )
        if not updated:
            raise ActionRefused("no_bot", _("There is no bot in that seat."))
        write.save()
        lobby_changed(match)


def match_start(*, match_id: int, user) -> Match:
    with writing(match_id) as write:
        match = write.match
        host_only(match, user)
        must_be_open(match)
        seats = seats_in_order(match)
        if any(s.is_empty for s in seats):
            raise ActionRefused("seats_free", _("Every seat must be taken (add bots to free seats) before starting."))
        rules = match_rules(match)
        tally = write.spec.start(rules, match.seats_count, random.Random(match.seed))
        match.state = {"tally": tally, "round": None}
        match.status = MatchStatus.PLAYING
        match.started_at = timezone.now()
        deal_round(write, rules)
        lobby_changed(match)
        return match


def match_rematch(*, match_id: int, user) -> Match:
    """A new table with the same seats, options and timer (the host of the old one hosts it)."""
    with writing(match_id) as write:
        old = write.match
        if old.status != MatchStatus.FINISHED:
            raise ActionRefused("not_finished", _("The match is not over yet."))
        me = seat_of(old, user)
        if me is None:
            raise ActionRefused("not_seated", _("Only players of the match can ask for a rematch."))
        existing = Match.objects.filter(rematch_of=old).first()
        if existing is not None:
            return existing
        if old.move_time:
            check_cap(user)
        refusal = seat_refusal(old, user, [s.user_id for s in seats_in_order(old) if s.user_id is not None])
        if refusal is not None:
            raise refusal
        new = _new_match(
            variant=old.variant,
            options=old.options,
            host=user,
            turn_timer=old.turn_timer,
            is_private=old.is_private,
            rematch_of=old,
            practice=old.practice,
            move_time=old.move_time,
            seats=[
                Seat(index=s.index, user=s.user, bot_policy=s.bot_policy, bot_name=s.bot_name)
                for s in seats_in_order(old)
            ],
        )
        write.save()  # its page now offers the way to the rematch
        return new


QUICK_SEAT_CANDIDATES = 50  # open tables looked at, newest first


def seat_quick(*, user, rng: random.Random | None = None) -> Seat | None:
    """A free seat at an open public table of other players (not a practice table, not one of
    ``user``'s), picked at random among those where nobody blocks ``user`` or is blocked by them;
    None when there is none (the caller opens a table instead)."""
    rated_only(user)
    rng = rng or random.SystemRandom()
    candidates = list(
        Match.objects.filter(
            status=MatchStatus.OPEN,
            is_private=False,
            practice=False,
            seats__user__isnull=True,
            seats__bot_policy="",
        )
        .exclude(seats__user=user)
        .distinct()
        .order_by("-created_at")
        .values_list("pk", flat=True)[:QUICK_SEAT_CANDIDATES]
    )
    seated: dict[int, list[int]] = {}
    for match_id, user_id in Seat.objects.filter(match_id__in=candidates, user__isnull=False).values_list(
        "match_id", "user_id"
    ):
        seated.setdefault(match_id, []).append(user_id)
    policy = guards.current()
    allowed = [m for m in candidates if not policy.seating_refusal(user=user, others=seated.get(m, []))]
    rng.shuffle(allowed)
    for match_id in allowed:
        try:
            return seat_join(match_id=match_id, user=user)
        except ActionRefused:
            continue  # taken or changed meanwhile: the next one
    return None


def seat_to_bot(*, match_id: int, index: int, policy: str, name: str) -> None:
    """A bot takes over seat ``index`` for the rest of the match (a tournament forfeit); if the seat
    is to act, the bot moves at the next tick."""
    with writing(match_id) as write:
        match = write.match
        Seat.objects.filter(match=match, index=index).update(bot_policy=policy, bot_name=name)
        write.seats_changed()
        if match.status == MatchStatus.PLAYING and write.state is not None:
            acting = write.spec.acting_seats(write.state)
            if acting and acting[0] == index:
                match.deadline = timezone.now()
        write.save("deadline")


def match_abandon(*, match_id: int, by) -> Match:
    """Staff end a match that cannot go on (a step that keeps failing, a table nobody can finish).

    Abandoned, with no deadline: no clock takes it again.  Its seats, rounds and log stay; no
    result is recorded.  Refused for a match that is already over.
    """
    if not getattr(by, "is_staff", False):
        raise ActionRefused("not_staff", _("Only staff can end a match."))
    with writing(match_id) as write:
        match = write.match
        if match.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            raise ActionRefused("already_over", _("This match is already over."))
        match.status = MatchStatus.ABANDONED
        match.deadline = None
        write.save("status", "deadline")
        lobby_changed(match)
    log.warning("match %s abandoned by %s", match.pk, by.get_username())
    return match


def deals_reveal(*, deal_set_id: int) -> list[int]:
    """A duplicate round's shared deals are revealed (its tournament round closed): every table dealt
    from the set shows its seeds, and its open boards show them at once (a new version each, pushed
    after commit).  The ids of the matches changed."""
    changed = []
    for match_id in Match.objects.filter(deal_set_id=deal_set_id, deals_held=True).values_list("pk", flat=True):
        with writing(match_id) as write:
            write.match.deals_held = False
            write.save("deals_held")
            changed.append(match_id)
    return changed
