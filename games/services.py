"""The only code that changes game state in the database (DESIGN.md §2, STYLE.md "Django layer").

Every service is keyword-only and does one user intent in one transaction:
lock the match row, check the expected version, apply the engine, append the
event, save the snapshot, bump the version, and broadcast *after commit*.  A
refusal raises ``ActionRefused`` (or the engine's ``RulesError``) and changes
nothing: the transaction rolls back and nothing is broadcast.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from games import gate, hotsql
from games.engine.errors import IllegalMove, InvalidAction, RulesError
from games.models import ChatMessage, Event, Match, MatchStatus, Round, RoundScore, Seat, TableConnection, new_seed
from games.variants import spec_for
from rummyhub import inputs, realtime

log = logging.getLogger(__name__)

BOT_POLICIES = ("basic", "random-legal")
BOT_NAMES = ("Ada", "Boole", "Cobb", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper")
READY_TIMEOUT = 30  # seconds before the next round starts without everybody's click
DISCONNECT_GRACE = 30  # seconds a disconnected player's turn waits when there is no timer
MISSED_TURNS_FOR_AUTOPILOT = 3
MAX_CHAT_LENGTH = 500
CHAT_RATE = (5, 10)  # at most 5 messages per 10 seconds per player
TIMER_CHOICES = (0, 30, 60, 120)


class ActionRefused(Exception):
    """A request the table refuses; ``message`` is shown to that player only."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StaleVersion(ActionRefused):
    def __init__(self, current: int) -> None:
        super().__init__("stale_version", _("The table changed before your move arrived; it has been refreshed."))
        self.current = current


# --------------------------------------------------------------------- helpers

# PostgreSQL's "try again" failures: serialization_failure, deadlock_detected, lock_not_available.
TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
RETRY_ATTEMPTS = 3
RETRY_PAUSE = 0.02  # seconds before the second attempt; twice that before the third
# A command that would have less time than this left for its row lock is refused instead.
MIN_LOCK_WAIT = 0.05


def is_transient(exc: BaseException) -> bool:
    """A database failure that rolled the transaction back and may well pass if run again."""
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if getattr(cause, "sqlstate", None) in TRANSIENT_SQLSTATES:
        return True
    return "database is locked" in str(exc)  # SQLite's busy timeout ran out


def is_pool_timeout(exc: BaseException) -> bool:
    """No pooled connection came within the pool's timeout (``DATABASE_POOL_TIMEOUT``): nothing was run."""
    if not isinstance(exc, OperationalError):
        return False
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # no psycopg_pool: no pool either
        return False
    return isinstance(exc.__cause__, PoolTimeout)


class TableBusy(ActionRefused):
    """A command that found its table busy until its deadline (``with_retry``): nothing was done."""

    def __init__(self) -> None:
        super().__init__("table_busy", _("The table is busy with another move; try again."))


def with_retry(service, /, **kwargs):
    """Run one service; if a transient database failure (a deadlock, a lock wait cut short)
    rolled its transaction back, run it again, up to ``RETRY_ATTEMPTS`` times in all.

    Safe because every service is one transaction that checks the state (and the expected
    version) under the match lock: a failed attempt changed nothing.  Inside an outer
    transaction nothing is retried (the outer one is broken anyway).

    A person's command at a table (``match_id`` and ``user``: the page's forms and the table
    socket both come through here) is also bounded in time, so that it is answered quickly and a
    burst at one table cannot hold the process's connections:

    - it first takes the table's gate in this process (``games.gate``; a socket's command has
      taken it on the event loop already): the commands behind it wait there, without a
      database connection, at most ``RUMMYHUB_LOCK_TIMEOUT`` seconds; one whose version is
      already stale is refused at once, without waiting;
    - its wait for the match row is bounded by what is left of ``RUMMYHUB_LOCK_BUDGET`` (at most
      ``RUMMYHUB_LOCK_TIMEOUT``; PostgreSQL's ``lock_timeout``, set in ``_locked``), and it is run
      again only while time is left;
    - a table still busy at the end is refused with ``table_busy``; a connection the pool could
      not give is refused with ``server_busy``.  Both are ``ActionRefused``: nothing changed.

    Anything else (the presence sweep, scripts) keeps the plain retries.
    """
    if "match_id" not in kwargs or "user" not in kwargs:
        return _attempts(service, kwargs, deadline=None)
    try:
        key = int(kwargs["match_id"])
    except (TypeError, ValueError):
        return service(**kwargs)  # no such table: the service refuses it

    def before_wait():
        # The gate is taken: a copy of a move already played needs no turn, and nobody waits
        # for the gate with a pooled connection in hand (a page's request has one by now).
        expected = kwargs.get("expected_version")
        if expected is not None:
            try:
                expected = inputs.parse_int(expected, lo=0, hi=2**31 - 1)
            except inputs.BadInput:
                expected = None  # the service refuses it
        current = hotsql.match_version(key) if expected is not None and 0 < key < 2**63 else None
        if current is not None and expected < current:  # versions only grow: stale under the lock too
            raise StaleVersion(current)
        if not connection.in_atomic_block:
            connection.close()

    try:
        with gate.held(key, timeout=settings.RUMMYHUB_LOCK_TIMEOUT, budget=settings.RUMMYHUB_LOCK_BUDGET,
                       before_wait=before_wait):
            return _attempts(service, kwargs, deadline=gate.deadline())
    except gate.Busy:
        raise TableBusy() from None
    except OperationalError as exc:
        if is_pool_timeout(exc):
            raise ActionRefused("server_busy", _("The server is busy; try again in a moment.")) from exc
        raise


def _attempts(service, kwargs: dict, *, deadline: float | None):
    """``service(**kwargs)``, run again after a transient failure (``with_retry``); ``deadline``
    (a command's): no new attempt without ``MIN_LOCK_WAIT`` seconds left, refused as busy instead."""
    for attempt in range(1, RETRY_ATTEMPTS + 1):
        try:
            return service(**kwargs)
        except OperationalError as exc:
            if not is_transient(exc) or connection.in_atomic_block:
                raise
            pause = RETRY_PAUSE * attempt
            if deadline is not None and (
                attempt == RETRY_ATTEMPTS or time.monotonic() + pause + MIN_LOCK_WAIT > deadline
            ):
                raise TableBusy() from exc
            if attempt == RETRY_ATTEMPTS:
                raise
            log.warning("%s failed (%s); trying again, attempt %d of %d",
                        getattr(service, "__name__", service), exc, attempt + 1, RETRY_ATTEMPTS)
            time.sleep(pause)


def _locked(match_id: int) -> Match:
    """The match row, locked until the transaction ends (``SELECT ... FOR UPDATE``).

    The wait for it (and for any lock after it in the transaction) is bounded on PostgreSQL:
    ``RUMMYHUB_LOCK_TIMEOUT`` seconds, or what is left of the running command's budget.
    """
    try:
        pk = Match._meta.pk.get_prep_value(match_id)
    except (ValueError, TypeError):
        pk = None
    if not (isinstance(pk, int) and 0 < pk < 2**63):
        raise ActionRefused("no_table", _("There is no such table."))
    wait = settings.RUMMYHUB_LOCK_TIMEOUT
    deadline = gate.deadline()
    if deadline is not None:
        wait = max(MIN_LOCK_WAIT, min(wait, deadline - time.monotonic()))
    match = hotsql.locked_match(pk, lock_timeout=wait)
    if match is None:
        raise ActionRefused("no_table", _("There is no such table."))
    return match


def _check_version(match: Match, expected_version: Any) -> None:
    """Every move names the version of the table it was made on: a second copy of it (a double
    click, a retry, a flood) finds a newer version and is refused, so a move is never played twice."""
    try:
        expected = inputs.parse_int(expected_version, lo=0, hi=2**31 - 1)
    except inputs.BadInput:
        raise ActionRefused("bad_version", _("The request carried no valid table version.")) from None
    if expected != match.version:
        raise StaleVersion(match.version)


def _seats(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def _seat_of(match: Match, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(match=match, user=user).first()


def _own_seat(match: Match, user, seats: list[Seat] | None = None) -> Seat:
    """The user's seat at this match (from ``seats`` when the caller has read them); refused for anyone without one."""
    if seats is None:
        seat = _seat_of(match, user)
    else:
        seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise ActionRefused("not_seated", _("You have no seat at this table."))
    return seat


def _bump(match: Match, *fields: str, board: dict | None = None) -> None:
    """Save a new version of the match and tell its sockets once the transaction commits.

    ``board``: what the caller already holds of the new version (``seats`` read under the lock,
    the engine ``state``, the ``events`` it appended), handed to this process's board cache
    before the broadcast goes out, so the sockets here need not load that version again.
    """
    match.version += 1
    hotsql.update(match, ["version", "event_seq", *fields])
    if board is not None:
        from games import boardcache  # it reads through selectors, which use this module

        transaction.on_commit(lambda: boardcache.successor(match, **board))
    realtime.broadcast_on_commit(
        realtime.table_group(match.pk), {"type": "table.changed", "id": match.pk, "version": match.version}
    )


def _lobby_changed(match: Match) -> None:
    realtime.broadcast_on_commit(realtime.LOBBY_GROUP, {"type": "lobby.changed", "id": match.pk})


def _append_event(match: Match, *, kind: str, seat: int | None, action: dict, summary: dict, by_bot=False) -> Event:
    # The match row is locked, and every event is appended here and saved with the match (_bump).
    match.event_seq += 1
    return hotsql.insert(Event(
        match=match,
        seq=match.event_seq,
        round_number=match.round_number,
        seat=seat,
        kind=kind,
        action=action,
        summary=summary,
        by_bot=by_bot,
    ))


def _rng_for_round(match: Match, number: int) -> tuple[int, random.Random]:
    fixed = getattr(settings, "RUMMYHUB_FIXED_SEED", "")
    seed = (int(fixed) * 1000 + number) if str(fixed).strip() else new_seed()
    return seed, random.Random(seed)


def _host_only(match: Match, user) -> None:
    if match.host_id != getattr(user, "pk", None):
        raise ActionRefused("not_host", _("Only the host of the table can do that."))


def _must_be_open(match: Match) -> None:
    if match.status != MatchStatus.OPEN:
        raise ActionRefused("already_started", _("This table has already started."))


def _rules(match: Match):
    return spec_for(match.variant).rules(match.options, match.seats_count)


# ----------------------------------------------------------------- table setup


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
) -> Match:
    """Create a table with the host in seat 0 (and ``bots`` bot seats after it)."""
    spec = spec_for(variant)
    if seats_count not in spec.seat_choices:
        raise ActionRefused("bad_seats", _("This game is for %(choices)s players.") % {
            "choices": ", ".join(str(n) for n in spec.seat_choices)})
    if turn_timer not in TIMER_CHOICES:
        raise ActionRefused("bad_timer", _("Choose a turn timer of none, 30, 60 or 120 seconds."))
    if bot_policy not in BOT_POLICIES:
        raise ActionRefused("bad_bot", _("Unknown bot."))
    options = dict(options or {})
    try:
        rules = spec.rules(options, seats_count)
    except InvalidAction as exc:
        raise ActionRefused("bad_option", exc.message) from None
    defaults = spec.option_defaults(seats_count)
    stored = {k: v for k, v in rules.to_dict().items() if k in defaults}
    with transaction.atomic():
        match = Match.objects.create(
            variant=variant,
            options=stored,
            seats_count=seats_count,
            host=host,
            turn_timer=turn_timer,
            is_private=is_private,
        )
        Seat.objects.bulk_create(
            [Seat(match=match, index=i, user=host if i == 0 else None) for i in range(seats_count)]
        )
        for i in range(1, min(bots, seats_count - 1) + 1):
            Seat.objects.filter(match=match, index=i).update(bot_policy=bot_policy, bot_name=BOT_NAMES[i - 1])
        _lobby_changed(match)
    return match


def seat_join(*, match_id: int, user, index: int | None = None, invite_token: str | None = None) -> Seat:
    with transaction.atomic():
        match = _locked(match_id)
        _must_be_open(match)
        if match.is_private and invite_token != match.invite_token and match.host_id != user.pk:
            raise ActionRefused("private", _("This table is private; you need its invite link."))
        if _seat_of(match, user) is not None:
            raise ActionRefused("already_seated", _("You already have a seat at this table."))
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
        _bump(match)
        _lobby_changed(match)
        return seat


def seat_leave(*, match_id: int, user) -> None:
    with transaction.atomic():
        match = _locked(match_id)
        _must_be_open(match)
        seat = _own_seat(match, user)
        if match.host_id == user.pk:
            # The host leaving closes the table.
            match.status = MatchStatus.ABANDONED
            _bump(match, "status")
        else:
            seat.user = None
            seat.save(update_fields=["user"])
            _bump(match)
        _lobby_changed(match)


def seat_add_bot(*, match_id: int, user, index: int | None = None, policy: str = "basic") -> Seat:
    if policy not in BOT_POLICIES:
        raise ActionRefused("bad_bot", _("Unknown bot."))
    with transaction.atomic():
        match = _locked(match_id)
        _host_only(match, user)
        _must_be_open(match)
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
        _bump(match)
        _lobby_changed(match)
        return seat


def seat_remove_bot(*, match_id: int, user, index: int) -> None:
    with transaction.atomic():
        match = _locked(match_id)
        _host_only(match, user)
        _must_be_open(match)
        updated = Seat.objects.filter(match=match, index=index).exclude(bot_policy="").update(
            bot_policy="", bot_name=""
        )
        if not updated:
            raise ActionRefused("no_bot", _("There is no bot in that seat."))
        _bump(match)
        _lobby_changed(match)


def match_start(*, match_id: int, user) -> Match:
    with transaction.atomic():
        match = _locked(match_id)
        _host_only(match, user)
        _must_be_open(match)
        seats = _seats(match)
        if any(s.is_empty for s in seats):
            raise ActionRefused("seats_free", _("Every seat must be taken (add bots to free seats) before starting."))
        spec = spec_for(match.variant)
        rules = _rules(match)
        tally = spec.start(rules, match.seats_count, random.Random(match.seed))
        match.state = {"tally": tally, "round": None}
        match.status = MatchStatus.PLAYING
        match.started_at = timezone.now()
        _deal(match, spec, rules)
        _schedule(match, spec)
        _bump(match, "state", "status", "started_at", "round_number", "deadline", "turn_started_at", "draft")
        _lobby_changed(match)
        return match


def _deal(match: Match, spec, rules) -> None:
    number = match.round_number + 1
    seed, rng = _rng_for_round(match, number)
    tally = match.state["tally"]
    state, dealer = spec.deal(rules, tally, rng)
    Round.objects.create(match=match, number=number, dealer=dealer, seed=seed, setup=tally)
    match.round_number = number
    match.state = {"tally": tally, "round": spec.dump(state)}
    match.status = MatchStatus.PLAYING
    match.draft = None
    match.turn_started_at = timezone.now()
    Seat.objects.filter(match=match).update(ready=False)
    for index, role in enumerate(spec.seat_roles(tally, match.seats_count)):
        Seat.objects.filter(match=match, index=index).update(role=role)
    _append_event(match, kind="deal", seat=None, action={"type": "deal", "round": number},
                  summary={"code": "deal", "round": number, "dealer": dealer})
    _gin_bot_advice(match, spec, state)


# ------------------------------------------------------------------ game play


def turn_submit(*, match_id: int, user, action: dict[str, Any], expected_version: Any) -> Match:
    """A human's move for their own seat."""
    if not isinstance(action, dict):
        raise ActionRefused("bad_action", _("That request is not a move."))
    with transaction.atomic():
        match = _locked(match_id)
        _check_version(match, expected_version)
        # The mover's seat, the next one's, the board's.  (One query joined to the locked match
        # saves a round trip but costs more CPU: the match row is decoded once per seat.)
        seats = hotsql.seats_of(match.pk, online_since=presence_cutoff())
        seat = _own_seat(match, user, seats)
        if match.status != MatchStatus.PLAYING:
            raise ActionRefused("not_playing", _("There is no hand in play."))
        if action.get("type") == "meld" and "table" not in action:
            draft = match.draft or {}
            if draft.get("seat") != seat.index:
                raise ActionRefused("no_draft", _("Arrange the table first, then press Meld."))
            action = {"type": "meld", "table": draft.get("table", [])}
        _apply(match, seat.index, action, by_bot=False, seats=seats)
        if seat.missed_turns or seat.autopilot:
            Seat.objects.filter(pk=seat.pk).update(missed_turns=0, autopilot=False)
            seat.missed_turns, seat.autopilot = 0, False  # as the board handed on shows it
        return match


def _apply(match: Match, seat_index: int, action: dict[str, Any], *, by_bot: bool, seats=None) -> None:
    """Apply one move; ``seats``: the match's seats when the caller has read them under the lock."""
    spec = spec_for(match.variant)
    rules = _rules(match)
    before = spec.load(match.state["round"])
    after = spec.apply(before, seat_index, action)  # raises RulesError; nothing has been written
    stored_action = action if isinstance(action, dict) else action.to_dict()
    summary = spec.describe(before, after, seat_index, stored_action)
    event = _append_event(match, kind="action", seat=seat_index, action=stored_action, summary=summary, by_bot=by_bot)
    stored = spec.dump(after)
    match.state = {**match.state, "round": stored}
    fields = ["state", "draft", "deadline", "turn_started_at", "status", "finished_at"]
    if spec.acting_seats(before) != spec.acting_seats(after) or getattr(before, "turn", None) != getattr(
        after, "turn", None
    ):
        match.turn_started_at = timezone.now()
    # Any accepted move ends the draft: a meld committed it, a draw or a knock abandoned it.
    # (Gin advice is no move of the captain's: his knock layout stays.)
    if stored_action.get("type") != "suggest":
        match.draft = None
        _gin_bot_advice(match, spec, after)
    board = None
    if spec.is_round_over(after):
        _close_round(match, spec, rules, after)
        _schedule(match, spec)
    else:
        _schedule(match, spec, state=after, seats=seats)  # the state just stored: no second parse
        if seats is not None and match.state["round"] is stored:  # no advice folded in since
            board = {"seats": seats, "state": after, "events": [event]}
    _bump(match, *fields, board=board)


def _close_round(match: Match, spec, rules, state) -> None:
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
    _append_event(match, kind="system", seat=None, action={"type": "round_end", "round": match.round_number},
                  summary={"code": "round_end", "round": match.round_number, "kind": closed.result_kind,
                           "winners": closed.winners})
    if spec.is_match_over(rules, closed.tally):
        totals, winners = spec.final(rules, closed.tally)
        match.status = MatchStatus.FINISHED
        match.finished_at = timezone.now()
        for i, total in enumerate(totals):
            Seat.objects.filter(match=match, index=i).update(final_total=total, is_winner=i in winners)
        _append_event(match, kind="system", seat=None, action={"type": "match_end"},
                      summary={"code": "match_end", "totals": totals, "winners": winners})
        _lobby_changed(match)
        transaction.on_commit(lambda: _after_match_finished(match.pk))
    else:
        match.status = MatchStatus.BETWEEN_ROUNDS


def _after_match_finished(match_id: int) -> None:
    """Ratings and tournament results, once the finished match is committed.

    Both are idempotent and also run by management commands (``rate_matches``,
    ``tournament_sync``), so a failure here delays them but loses nothing.
    """
    from games.history.services import rating_update_for_match
    from games.tournaments.services import tournament_record_result

    match = Match.objects.get(pk=match_id)
    for step in (rating_update_for_match, tournament_record_result):
        try:
            step(match=match)
        except Exception:
            log.exception("%s failed for match %s", step.__name__, match_id)


DRAFT_REFUSALS = frozenset({"bad_table", "bad_action", "unknown_card", "duplicate_card", "bad_card", "card_not_available"})


def draft_update(*, match_id: int, user, table: Any, expected_version: Any) -> Match:
    """Store the acting player's unsaved arrangement, validated by the engine for display."""
    if isinstance(table, dict):  # Gin: the knocker's layout (gin_knock_layout, at the end of this module)
        return gin_knock_layout(match_id=match_id, user=user, layout=table, expected_version=expected_version)
    if not isinstance(table, list) or len(table) > 60 or any(not isinstance(m, list) or len(m) > 20 for m in table):
        raise ActionRefused("bad_draft", _("That arrangement is not a list of melds."))
    if any(not isinstance(c, str) or len(c) > 12 for m in table for c in m):
        raise ActionRefused("bad_draft", _("That arrangement contains something that is not a card."))
    table = [m for m in table if m]
    with transaction.atomic():
        match = _locked(match_id)
        _check_version(match, expected_version)
        seat = _own_seat(match, user)
        if match.status != MatchStatus.PLAYING or match.variant != "manipulation":
            raise ActionRefused("not_playing", _("There is no hand in play."))
        spec = spec_for(match.variant)
        state = spec.load(match.state["round"])
        if state.seat_to_act != seat.index:
            raise IllegalMove("not_your_turn", _("It is not your turn."))
        report = spec.engine.check_table(state, seat.index, table)
        # A draft may be any arrangement of the cards the player can use; one naming a card twice, or
        # a card that is neither in the hand nor on the table (forged, or stale), is refused.
        forged = next((e for e in report["errors"] if e["code"] in DRAFT_REFUSALS), None)
        if forged is not None:
            raise ActionRefused(forged["code"], forged["message"])
        match.draft = {"seat": seat.index, "table": table, "report": report}
        _bump(match, "draft")
        return match


def draft_reset(*, match_id: int, user, expected_version: Any) -> Match:
    with transaction.atomic():
        match = _locked(match_id)
        _check_version(match, expected_version)
        seat = _seat_of(match, user)
        if seat is None or not match.draft or match.draft.get("seat") != seat.index:
            raise ActionRefused("no_draft", _("There is nothing to reset."))
        match.draft = None
        _bump(match, "draft")
        return match


def hand_sort(*, match_id: int, user, mode: str = "suit", order: list[str] | None = None) -> None:
    """Remember the player's own order of their hand (by suit, by rank, or as dragged)."""
    from games.engine.cards import Card, sort_by_rank, sort_by_suit

    with transaction.atomic():
        match = _locked(match_id)
        seat = _own_seat(match, user)
        if not match.state.get("round"):
            return
        spec = spec_for(match.variant)
        view = spec.view(spec.load(match.state["round"]), seat.index)
        hand = list(view.get("hand") or [])
        if mode == "custom":
            if (not isinstance(order, list) or len(order) > 30 or not all(isinstance(c, str) for c in order)
                    or not set(order) <= set(hand)):
                raise ActionRefused("bad_order", _("That order does not match your hand."))
            ids = list(order) + [c for c in hand if c not in order]
        elif mode in ("suit", "rank"):
            cards = [Card.from_code(c) for c in hand]
            ids = [c.id for c in (sort_by_suit(cards) if mode == "suit" else sort_by_rank(cards))]
        else:
            raise ActionRefused("bad_order", _("Sort by suit or by rank."))
        Seat.objects.filter(pk=seat.pk).update(hand_order=ids)


def round_ready(*, match_id: int, user) -> Match:
    """A human is ready for the next round; when every human is, it is dealt."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != MatchStatus.BETWEEN_ROUNDS:
            raise ActionRefused("not_between_rounds", _("The next round cannot start now."))
        seat = _own_seat(match, user)
        Seat.objects.filter(pk=seat.pk).update(ready=True)
        waiting = Seat.objects.filter(match=match, user__isnull=False, ready=False, autopilot=False).exists()
        if not waiting:
            spec = spec_for(match.variant)
            _deal(match, spec, _rules(match))
            _schedule(match, spec)
            _bump(match, "state", "status", "round_number", "deadline", "turn_started_at", "draft")
        else:
            _bump(match)
        return match


def chat_post(*, match_id: int, user, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not text:
        raise ActionRefused("empty_chat", _("Write something first."))
    if len(text) > MAX_CHAT_LENGTH:
        raise ActionRefused("chat_too_long", _("Messages are limited to %(n)d characters.") % {"n": MAX_CHAT_LENGTH})
    with transaction.atomic():
        match = _locked(match_id)
        if _seat_of(match, user) is None:
            raise ActionRefused("not_seated", _("Only players at the table can chat."))
        count, seconds = CHAT_RATE
        recent = ChatMessage.objects.filter(
            match=match, user=user, created_at__gte=timezone.now() - timedelta(seconds=seconds)
        ).count()
        if recent >= count:
            raise ActionRefused("chat_rate", _("You are sending messages too fast; wait a few seconds."))
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        realtime.broadcast_on_commit(
            realtime.table_group(match.pk), {"type": "table.chat", "id": match.pk, "message": message.pk}
        )
        return message


def match_rematch(*, match_id: int, user) -> Match:
    """A new table with the same seats, options and timer (the host of the old one hosts it)."""
    with transaction.atomic():
        old = _locked(match_id)
        if old.status != MatchStatus.FINISHED:
            raise ActionRefused("not_finished", _("The match is not over yet."))
        me = _seat_of(old, user)
        if me is None:
            raise ActionRefused("not_seated", _("Only players of the match can ask for a rematch."))
        existing = Match.objects.filter(rematch_of=old).first()
        if existing is not None:
            return existing
        new = Match.objects.create(
            variant=old.variant,
            options=old.options,
            seats_count=old.seats_count,
            host=user,
            turn_timer=old.turn_timer,
            is_private=old.is_private,
            rematch_of=old,
        )
        Seat.objects.bulk_create(
            [
                Seat(match=new, index=s.index, user=s.user, bot_policy=s.bot_policy, bot_name=s.bot_name)
                for s in _seats(old)
            ]
        )
        old.version += 1
        old.save(update_fields=["version"])
        realtime.broadcast_on_commit(
            realtime.table_group(old.pk), {"type": "table.changed", "id": old.pk, "version": old.version}
        )
        _lobby_changed(new)
        return new


# --------------------------------------------------------- presence at a table


def presence_cutoff(now=None):
    """A table socket's row seen before this no longer counts (``RUMMYHUB_PRESENCE_TIMEOUT``)."""
    return (now or timezone.now()) - timedelta(seconds=settings.RUMMYHUB_PRESENCE_TIMEOUT)


def seats_with_presence(seats, now=None):
    """A ``Seat`` queryset whose rows carry ``online`` (read by :func:`is_connected`), in the same query.

    ``online``: the seat's user has a table socket at the match seen within the timeout.  The
    seats of a board are read this way (or through ``hotsql.seats_of``), so showing who is here
    costs no query per seat.
    """
    return seats.annotate(online=Exists(TableConnection.objects.filter(
        match_id=OuterRef("match_id"), user_id=OuterRef("user_id"), last_seen__gte=presence_cutoff(now)
    )))


def is_connected(seat: Seat, now=None) -> bool:
    """A bot is always here; a human while a table socket of theirs was seen within the timeout.

    From ``seat.online`` when the seat was read with it (:func:`seats_with_presence`,
    ``hotsql.seats_of``), else one query.
    """
    if seat.is_bot:
        return True
    if seat.user_id is None:
        return False
    online = getattr(seat, "online", None)
    if online is None:
        online = _user_here(seat.match_id, seat.user_id, now)
    return bool(online)


def _user_here(match_id: int, user_id: int, now=None) -> bool:
    return TableConnection.objects.filter(
        match_id=match_id, user_id=user_id, last_seen__gte=presence_cutoff(now)
    ).exists()


def _presence_changed(match: Match, seat: Seat, online: bool) -> None:
    """Only the seat's online dot changes: a small ``table.presence``, no version bump, so a
    connecting crowd does not make every seat re-render its board."""
    realtime.broadcast_on_commit(
        realtime.table_group(match.pk),
        {"type": "table.presence", "id": match.pk, "seat": seat.index, "online": online},
    )


def _reschedule(match: Match) -> None:
    """A seat came or went: the acting player's disconnect grace starts or ends."""
    if match.status == MatchStatus.PLAYING:
        _schedule(match, spec_for(match.variant))
        hotsql.update(match, ["deadline"])


def table_connection_open(*, match_id: int, user, token: str) -> None:
    """A table socket of ``user`` opened: its row, kept fresh by the socket's process
    (``consumers.Heartbeats``) until :func:`table_connection_close`.

    A spectator's socket has a row too: it counts as soon as they take a seat.  A player's
    first socket puts the seat online (``table.presence``); coming back ends the autopilot
    (a real change of the table: version bump).
    """
    if not user.is_authenticated:
        return
    now = timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        seat = _seat_of(match, user)
        was_online = seat is not None and _user_here(match.pk, user.pk, now)
        TableConnection.objects.create(match=match, user=user, token=token, opened_at=now, last_seen=now)
        if seat is None:
            return
        Seat.objects.filter(pk=seat.pk).update(last_seen=now, autopilot=False, missed_turns=0)
        if not was_online or seat.autopilot:
            _reschedule(match)
        if seat.autopilot:
            _bump(match)
        if not was_online:
            _presence_changed(match, seat, True)


def table_connection_close(*, token: str) -> None:
    """A table socket closed: its row goes.  Closing twice, or a row already swept, changes nothing.

    The seat's last socket closing starts the disconnect grace and turns its dot off.
    """
    row = TableConnection.objects.filter(token=token).values_list("match_id", "user_id").first()
    if row is None:
        return
    match_id, user_id = row
    now = timezone.now()
    with transaction.atomic():
        match = _locked(match_id)  # gone: its rows went with it (refused, like any request to it)
        deleted, _rows = TableConnection.objects.filter(token=token).delete()
        seat = Seat.objects.filter(match=match, user_id=user_id).first() if deleted else None
        if seat is None:
            return
        Seat.objects.filter(pk=seat.pk).update(last_seen=now)
        if not _user_here(match.pk, user_id, now):
            _reschedule(match)
            _presence_changed(match, seat, False)


SEEN_BATCH = 500  # tokens per UPDATE (SQLite's limit on query parameters is 999 on old builds)


def table_connections_seen(tokens) -> set[str]:
    """Mark these table sockets' rows as seen now; returns the tokens that have no row.

    The open sockets of a process send their heartbeat together through this (see
    ``games.consumers.Heartbeats``): one UPDATE per SEEN_BATCH sockets, and a read only when
    some row was missing (the sweep took it while its process stalled: the caller opens it again).
    """
    tokens = sorted(set(tokens))
    now = timezone.now()
    missing: set[str] = set()
    for start in range(0, len(tokens), SEEN_BATCH):
        batch = tokens[start : start + SEEN_BATCH]
        if TableConnection.objects.filter(token__in=batch).update(last_seen=now) < len(batch):
            found = TableConnection.objects.filter(token__in=batch).values_list("token", flat=True)
            missing.update(set(batch) - set(found))
    return missing


def presence_sweep(*, now=None) -> int:
    """Delete the table sockets' rows nobody refreshed within the timeout; returns how many.

    Such a row belongs to a server that died (SIGKILL, a crash) with the socket open: no
    disconnect ever closes it.  A seat left with no fresh row has gone: its "gone since" is its
    last heartbeat, its match's deadline is recomputed (the disconnect grace) and the table gets
    a ``table.presence``.  Every process's clock runs this about every ``RUMMYHUB_HEARTBEAT``
    seconds; several at once are safe (each match's rows are re-read under its lock).
    With nothing lapsed it is one query.
    """
    cutoff = presence_cutoff(now)
    lapsed = TableConnection.objects.filter(last_seen__lt=cutoff).values_list("match_id", flat=True).distinct()
    swept = 0
    for match_id in sorted(set(lapsed)):
        try:
            swept += with_retry(_sweep_match, match_id=match_id, cutoff=cutoff)
        except ActionRefused:
            continue  # the match was deleted meanwhile: its rows went with it
        except Exception:  # one match's failure must not keep every other table's rows forever
            log.exception("presence sweep of match %s failed", match_id)
    return swept


def _sweep_match(*, match_id: int, cutoff) -> int:
    with transaction.atomic():
        match = _locked(match_id)
        rows = list(
            TableConnection.objects.filter(match=match, last_seen__lt=cutoff).values_list("pk", "user_id", "last_seen")
        )
        if not rows:
            return 0  # another process swept them, or their heartbeat came back
        # A row refreshed since it was read (its process was only slow) stays.
        deleted, _rows = TableConnection.objects.filter(pk__in=[pk for pk, _u, _s in rows], last_seen__lt=cutoff).delete()
        last_beat: dict[int, Any] = {}
        for _pk, user_id, seen in rows:
            last_beat[user_id] = max(seen, last_beat.get(user_id, seen))
        here = set(
            TableConnection.objects.filter(match=match, user_id__in=last_beat, last_seen__gte=cutoff).values_list(
                "user_id", flat=True
            )
        )
        gone = [s for s in Seat.objects.filter(match=match, user_id__in=last_beat) if s.user_id not in here]
        for seat in gone:
            since = max(seat.last_seen or last_beat[seat.user_id], last_beat[seat.user_id])
            Seat.objects.filter(pk=seat.pk).update(last_seen=since)
        if gone:
            _reschedule(match)
        for seat in gone:
            _presence_changed(match, seat, False)
        return deleted


# -------------------------------------------------------------------- the clock


def _schedule(match: Match, spec, state=None, seats=None) -> None:
    """Set ``match.deadline``: when the next automatic step (bot, timer, next round) is due.

    ``state``: the engine state of ``match.state["round"]`` when the caller has it parsed already;
    ``seats``: the match's seats when the caller has read them in this transaction.
    """
    now = timezone.now()
    match.deadline = None
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        humans = Seat.objects.filter(match=match, user__isnull=False, autopilot=False).exists()
        match.deadline = now + timedelta(seconds=READY_TIMEOUT if humans else settings.RUMMYHUB_BOT_DELAY)
        return
    if match.status != MatchStatus.PLAYING or not match.state.get("round"):
        return
    if state is None:
        state = spec.load(match.state["round"])
    acting = spec.acting_seats(state)
    if not acting:
        return
    seat = next((s for s in seats or () if s.index == acting[0]), None) or Seat.objects.get(match=match, index=acting[0])
    started = match.turn_started_at or now
    if seat.is_bot or seat.autopilot:
        match.deadline = now + timedelta(seconds=settings.RUMMYHUB_BOT_DELAY)
    elif match.turn_timer:
        match.deadline = started + timedelta(seconds=match.turn_timer)
    elif not is_connected(seat, now):
        match.deadline = max(started, seat.last_seen or started) + timedelta(seconds=DISCONNECT_GRACE)


# What the clock does with a step that fails (docs/architecture.md, "Bots, timers and the clock").
CLOCK_STATUSES = (MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS)
CLOCK_BACKOFF = 2.0  # seconds a failed step is put off the first time; doubled at every failure in a row
CLOCK_BACKOFF_MAX = 300.0
CLOCK_MAX_FAILURES = 8  # then the match is held (no deadline) until a step succeeds or staff end it


@dataclass(frozen=True, slots=True)
class ClockStep:
    """One step the clock took: the match, when it was due, when the clock took it, what came of it.

    ``outcome``: "done" (a move or a deal), "nothing" (no longer due, nobody to act), "deferred"
    (a transient database failure: the next tick tries again), "failed" (put off, see
    ``CLOCK_BACKOFF``) or "held" (no deadline any more).
    """

    match_id: int
    deadline: Any  # datetime
    started: Any  # datetime
    outcome: str
    seconds: float

    @property
    def late(self) -> float:
        """Seconds between the deadline and the moment the clock took the step."""
        return (self.started - self.deadline).total_seconds()


def match_tick(*, match_id: int, now=None) -> bool:
    """Do the automatic step of a match if it is due; True if something happened.

    A failure of the step is raised to the caller (tests, demos); the clock goes through
    :func:`clock_step`, which isolates it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            match = Match.objects.select_for_update().get(pk=match_id)
        except Match.DoesNotExist:
            return False
        if match.deadline is None or match.deadline > now:
            return False
        return _step(match, spec_for(match.variant), now)


def _step(match: Match, spec, now) -> bool:
    """The automatic step of a locked, due match; True if something happened."""
    cleared = "clock" in match.state  # an earlier failure: this attempt succeeds (record gone) or rolls back
    if cleared:
        match.state = {k: v for k, v in match.state.items() if k != "clock"}
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        _deal(match, spec, _rules(match))
        _schedule(match, spec)
        _bump(match, "state", "status", "round_number", "deadline", "turn_started_at", "draft")
        return True
    state = spec.load(match.state["round"]) if match.status == MatchStatus.PLAYING else None
    acting = spec.acting_seats(state) if state is not None else ()
    if not acting:
        match.deadline = None
        match.save(update_fields=["deadline", "state"] if cleared else ["deadline"])
        return False
    seats = hotsql.seats_of(match.pk, online_since=presence_cutoff(now))
    seat = next(s for s in seats if s.index == acting[0])
    if seat.is_bot or seat.autopilot:
        rng = random.Random(f"{match.seed}:{match.version}")
        action = spec.bot_action(state, seat.index, seat.bot_policy or "basic", rng)
        _apply(match, seat.index, action, by_bot=True, seats=seats)
        return True
    # A human's time ran out (timer, or gone without a timer): compulsory moves only.
    match.draft = None
    for action in spec.timeout_actions(state, seat.index):
        _apply(match, seat.index, action, by_bot=False)
        if match.status != MatchStatus.PLAYING:
            break
    missed = seat.missed_turns + 1
    Seat.objects.filter(pk=seat.pk).update(
        missed_turns=missed, autopilot=missed >= MISSED_TURNS_FOR_AUTOPILOT
    )
    if missed >= MISSED_TURNS_FOR_AUTOPILOT:
        _schedule(match, spec)
        match.save(update_fields=["deadline"])
    return True


def _claim_due(now, exclude) -> Match | None:
    """The most overdue match that no other transaction holds, locked (``FOR UPDATE SKIP LOCKED``).

    A match locked by a player's move or by another clock (worker or process) is skipped, not
    waited for.  SQLite has no row locks: its transactions take the database's one write lock at
    their start (``transaction_mode=IMMEDIATE``), so a clock there runs one step at a time.
    """
    return hotsql.claim_due(now, CLOCK_STATUSES, exclude)


def clock_step(*, now=None, exclude=(), on_claim=None) -> ClockStep | None:
    """Claim the most overdue match and do its automatic step; None when nothing is due.

    Each process's clock runs this on a few threads at once (``games.clock``).  The step runs in a
    savepoint of the claiming transaction: if it raises, only the step is rolled back, and the match,
    still locked (no other clock can take it meanwhile), is put off there (:func:`_put_off`).  Any
    failure of one match ends here, logged with its id; the caller's next call takes the next match.
    ``exclude``: ids to leave alone (``tick_due`` steps each match once per call); ``on_claim()``
    is called once a match is claimed, before its step (the clock starts another worker then).
    """
    now = now or timezone.now()
    claimed = None
    try:
        with transaction.atomic():
            match = _claim_due(now, exclude)
            if match is None:
                return None
            claimed = (match.pk, match.deadline, match.version, timezone.now())
            if on_claim is not None:
                on_claim()
            try:
                with transaction.atomic():
                    outcome = "done" if _step(match, spec_for(match.variant), now) else "nothing"
            except Exception as exc:
                outcome = _put_off(match.pk, match.version, now, exc)
    except Exception as exc:
        if claimed is None:
            raise  # the claim itself failed (the database is away): no match to blame; the caller logs it
        # The commit, or the failure record itself, failed: try once more in a transaction of its own.
        try:
            with transaction.atomic():
                outcome = _put_off(claimed[0], claimed[2], now, exc)
        except Exception:
            log.exception("automatic step of match %s failed and could not be put off", claimed[0])
            outcome = "failed"
    match_id, deadline, _version, started = claimed
    return ClockStep(match_id=match_id, deadline=deadline, started=started, outcome=outcome,
                     seconds=(timezone.now() - started).total_seconds())


def _put_off(match_id: int, version: int, now, exc: BaseException) -> str:
    """A step of this match raised ``exc`` (its changes rolled back): put its deadline off.

    A transient database failure waits for the next tick only.  Any other failure is counted in
    the match's ``state["clock"]`` (``failures``, ``error``, ``at``, ``held``; shown in the admin)
    and puts the step off ``CLOCK_BACKOFF`` seconds, doubled at each failure in a row, up to
    ``CLOCK_BACKOFF_MAX``; after ``CLOCK_MAX_FAILURES`` (at once for a move the engine refuses,
    which would be refused again) the match is held: no deadline.  A player's move sets a new
    deadline (one more try); a successful step drops the record.  No version bump: the players'
    table has not changed.
    """
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None or match.version != version:
        log.error("automatic step of match %s failed after it was saved", match_id, exc_info=exc)
        return "done"
    if is_transient(exc):
        log.warning("automatic step of match %s put off to the next tick: %s", match_id, exc)
        match.deadline = now + timedelta(seconds=settings.RUMMYHUB_CLOCK_INTERVAL)
        match.save(update_fields=["deadline"])
        return "deferred"
    record = match.state.get("clock") or {}
    failures = int(record.get("failures", 0)) + 1
    held = isinstance(exc, RulesError) or failures >= CLOCK_MAX_FAILURES
    delay = min(CLOCK_BACKOFF * 2 ** (failures - 1), CLOCK_BACKOFF_MAX)
    match.state = {**match.state, "clock": {"failures": failures, "error": f"{type(exc).__name__}: {exc}"[:500],
                                            "at": now.isoformat(), "held": held}}
    match.deadline = None if held else now + timedelta(seconds=delay)
    match.save(update_fields=["state", "deadline"])
    log.error("automatic step of match %s failed (%d in a row); %s", match_id, failures,
              "held without a deadline" if held else f"put off {delay:g} s", exc_info=exc)
    return "held" if held else "failed"


def tick_due(*, now=None, limit: int = 50) -> int:
    """Run the due automatic steps, each match at most once, most overdue first; how many did something.

    One match's failure never stops the others (:func:`clock_step`).  The server's clock runs
    :func:`clock_step` on several threads instead (``games.clock``); this is the same work, one
    step after another, for scripts and tests.
    """
    now = now or timezone.now()
    seen: list[int] = []
    done = 0
    while len(seen) < limit:
        step = clock_step(now=now, exclude=seen)
        if step is None:
            break
        seen.append(step.match_id)
        done += step.outcome == "done"
    return done


def pending_step(match: Match) -> str | None:
    """What the clock will do at the deadline: "deal", "bot", "timeout" (a human's time ran out) or None."""
    if match.deadline is None:
        return None
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        return "deal"
    if match.status != MatchStatus.PLAYING or not match.state.get("round"):
        return None
    spec = spec_for(match.variant)
    acting = spec.acting_seats(spec.load(match.state["round"]))
    if not acting:
        return None
    seat = Seat.objects.get(match=match, index=acting[0])
    return "bot" if seat.is_bot or seat.autopilot else "timeout"


def run_until_human(*, match_id: int, max_steps: int = 10_000, deal: bool = True) -> int:
    """Play the due automatic steps at once (tests, demos): bots move until a human must act.

    Stops before a human's turn times out; with ``deal`` it also deals the next
    round instead of waiting for the ready clicks.
    """
    steps = 0
    while steps < max_steps:
        match = Match.objects.get(pk=match_id)
        step = pending_step(match)
        if step is None or step == "timeout" or (step == "deal" and not deal):
            break
        if not match_tick(match_id=match_id, now=max(match.deadline, timezone.now())):
            break
        steps += 1
    return steps


def match_abandon(*, match_id: int, by) -> Match:
    """Staff end a match that cannot go on (a step that keeps failing, a table nobody can finish).

    Abandoned, with no deadline: no clock takes it again.  Its seats, rounds and log stay; no
    result is recorded.  Refused for a match that is already over.
    """
    if not getattr(by, "is_staff", False):
        raise ActionRefused("not_staff", _("Only staff can end a match."))
    with transaction.atomic():
        match = _locked(match_id)
        if match.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            raise ActionRefused("already_over", _("This match is already over."))
        match.status = MatchStatus.ABANDONED
        match.deadline = None
        _bump(match, "status", "deadline")
        _lobby_changed(match)
    log.warning("match %s abandoned by %s", match.pk, by.get_username())
    return match


# ------------------------------------------------------------- Gin (issue #6)


def _gin_bot_advice(match: Match, spec, state) -> None:
    """Three-player Gin: a bot advisor advises a human captain at each of his decisions (RULES C.2.4).

    Called after every move but a suggestion, and after a deal: when the captain (human, not on
    autopilot) is now to decide and the advisor is a bot, the advisor's ``suggest`` goes through the
    engine and the log exactly like a human advisor's (audience: the team only), folded into the same
    version as the move that brought the decision.
    """
    if match.variant != "gin_box" or state.advisor is None or state.seat_to_act != state.nondealer:
        return
    from games.engine.gin.bots import advice

    seats = {s.index: s for s in Seat.objects.filter(match=match, index__in=(state.advisor, state.nondealer))}
    advisor, captain = seats.get(state.advisor), seats.get(state.nondealer)
    if advisor is None or captain is None or not advisor.is_bot or captain.is_bot or captain.autopilot:
        return
    suggestion = advice(state)
    if suggestion is None:
        return
    action = {"type": "suggest", "suggestion": suggestion}
    after = spec.apply(state, state.advisor, action)
    _append_event(match, kind="action", seat=state.advisor, action=action,
                  summary=spec.describe(state, after, state.advisor, action), by_bot=True)
    match.state = {**match.state, "round": spec.dump(after)}


GIN_LAYOUT_KEYS = {"card", "melds", "cancel"}


def gin_knock_layout(*, match_id: int, user, layout: Any, expected_version: Any) -> Match:
    """Gin: the layout the acting player prepares before knocking (RULES C.6.2), kept in ``Match.draft``.

    ``{"card": id}`` opens it with a minimum-deadwood layout after discarding that card;
    ``{"card": id, "melds": [[id, ...], ...]}`` stores the player's own (a group that is not a meld is
    kept and shown with the reason; cards in no group are deadwood); ``{"cancel": true}`` drops it.
    Only legal knock cards and cards of the player's own hand are accepted; the engine checks the
    layout as it would check the knock (and checks it again on the knock).  Only the knocker sees the
    draft, so it is saved without a version bump or broadcast: nobody learns a knock is being prepared.
    """
    from games.engine import gin

    def ids(value: Any) -> bool:
        return isinstance(value, list) and len(value) <= 11 and all(isinstance(c, str) and len(c) <= 12 for c in value)

    if not isinstance(layout, dict) or not set(layout) <= GIN_LAYOUT_KEYS:
        raise ActionRefused("bad_draft", _("That layout is not a card and a list of melds."))
    cancel = layout.get("cancel") is True
    card, melds = layout.get("card"), layout.get("melds")
    if not cancel and (not isinstance(card, str) or len(card) > 12
                       or (melds is not None and not (isinstance(melds, list) and len(melds) <= 11
                                                      and all(ids(m) for m in melds)))):
        raise ActionRefused("bad_draft", _("That layout is not a card and a list of melds."))
    with transaction.atomic():
        match = _locked(match_id)
        _check_version(match, expected_version)
        seat = _own_seat(match, user)
        if match.status != MatchStatus.PLAYING or match.variant == "manipulation":
            raise ActionRefused("not_playing", _("There is no hand in play."))
        if cancel:
            if (match.draft or {}).get("seat") == seat.index:
                match.draft = None
                match.save(update_fields=["draft"])
            return match
        spec = spec_for(match.variant)
        state = spec.load(match.state["round"])
        view = spec.view(state, seat.index)
        if {"type": "knock", "card": card} not in view["legal_actions"]:
            if state.seat_to_act != seat.index:
                raise IllegalMove("not_your_turn", _("It is not your turn."))
            raise ActionRefused("cannot_knock", _("You cannot knock discarding that card."))
        rest = [c for c in view["hand"] if c != card]
        edited = melds is not None
        if melds is None:
            melds = gin.best_melds(rest)[0]
        melds = [list(m) for m in melds if m]
        placed = [c for m in melds for c in m]
        if not set(placed) <= set(rest):
            raise ActionRefused("card_not_in_hand", _("That layout names a card that is not in your hand."))
        if len(placed) != len(set(placed)):
            raise ActionRefused("duplicate_card", _("A card can be in only one meld."))
        try:  # the engine's own check of this knock; its outcome is not kept (it depends on the other hand)
            spec.apply(state, seat.index, {"type": "knock", "card": card, "melds": melds})
            report: dict[str, Any] = {"ok": True}
        except RulesError as exc:
            report = {"ok": False, "code": exc.code}
        match.draft = {"seat": seat.index, "game": "gin_knock", "turn": state.turn, "card": card,
                       "melds": melds, "edited": edited, "report": report}
        match.save(update_fields=["draft"])
        return match
