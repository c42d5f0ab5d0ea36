"""Reads for the lobby and the table pages: who may see a match, who sits and is here, the lobby's
lists, and a table board's data for one version (``board_data``).  What each viewer sees of that
data is ``games.board.table.table_context``."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Prefetch, Q
from django.http import Http404
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import forms, guards, store
from games.board import lists, words
from games.board.data import LOG_LENGTH, BoardData, LogEvent
from games.models import ChatMessage, Event, Match, MatchStatus, Round, RoundScore, Seat
from games.variants import spec_for


def access_match_for_user(*, match_id: int, user, invite: str | None = None) -> Match:
    """The one door to a match: missing and not-yours answer the same (404)."""
    match = Match.objects.filter(pk=match_id).select_related("host").first()
    if match is None or not user.is_authenticated:
        raise Http404
    if match.is_private:
        seated = Seat.objects.filter(match=match, user=user).exists()
        if not (seated or user.is_staff or match.host_id == user.pk or (invite and invite == match.invite_token)):
            raise Http404
    if match.deals_held and not user.is_staff and _plays_same_deals_elsewhere(match, user):
        raise Http404
    return match


def _plays_same_deals_elsewhere(match: Match, user) -> bool:
    """Whether ``user`` sits at another table of this duplicate round (the same deals, still held):
    watching this one would show them the cards they are to play."""
    return (
        Seat.objects.filter(user=user, match__deal_set_id=match.deal_set_id, match__deals_held=True)
        .exclude(match=match)
        .exists()
    )


def seat_presence(*, match_id: int, viewer: int | None) -> list[tuple[int, bool]]:
    """(seat index, online) for every human seat; the viewer's own seat is online."""
    seats = store.seats_with_presence(Seat.objects.filter(match_id=match_id, user__isnull=False, bot_policy=""))
    return [(s.index, s.index == viewer or store.is_connected(s)) for s in seats]


def seat_index_of(*, match_id: int, user) -> int | None:
    return Seat.objects.filter(match_id=match_id, user=user).values_list("index", flat=True).first()


def lobby_tables(*, user) -> dict[str, list[Match]]:
    base = Match.objects.annotate(
        taken=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__bot_policy="")),
    ).select_related("host")
    open_tables = list(base.filter(status=MatchStatus.OPEN, is_private=False).order_by("-created_at")[:50])
    mine = list(
        base.filter(seats__user=user)
        .exclude(status__in=[MatchStatus.FINISHED, MatchStatus.ABANDONED])
        .order_by("-created_at")
        .distinct()[:20]
    )
    live = list(
        # A duplicate round's tables are watched from their tournament's page (where the round's own
        # players do not see the other tables: the same deals as theirs).
        base.filter(status__in=[MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS], is_private=False, deals_held=False)
        .exclude(seats__user=user)
        .order_by("-started_at")[:20]
    )

    for m in open_tables + mine + live:
        m.free = m.seats_count - m.taken
        m.move_time_text = forms.move_time_label(m.move_time) if m.move_time else ""
        # The stored options are the whole rule set: the lobby names only what differs from the defaults.
        defaults = spec_for(m.variant).option_defaults(m.seats_count)
        m.house_rules = {k: v for k, v in (m.options or {}).items() if k in defaults and defaults[k] != v}
        m.options_summary = lists.clauses(
            f"{label}: {value}" for label, value in words.options_text(m.variant, m.house_rules)
        )
    return {"open_tables": open_tables, "my_tables": mine, "live_tables": live, "your_moves": your_moves(user=user)}


YOUR_MOVES = 50  # the most a list shows (the cap on turn-based games per player is lower by default)


def your_moves(*, user, now=None) -> list[Match]:
    """The turn-based games where it is ``user``'s move, the nearest deadline first; each with
    ``left`` (seconds), ``left_text`` ("2 d 3 h left", in the active language) and ``opponents``
    (who the user plays: the other seats' names, a bot's with its badge).  Two queries."""
    if not user.is_authenticated:
        return []
    now = now or timezone.now()
    seats = (
        Seat.objects.filter(
            user=user,
            bot_policy="",
            autopilot=False,
            match__move_time__gt=0,
            match__status=MatchStatus.PLAYING,
            match__turn_seat=F("index"),
            match__turn_deadline__isnull=False,
        )
        .select_related("match")
        .prefetch_related(Prefetch("match__seats", queryset=Seat.objects.select_related("user").order_by("index")))
        .order_by("match__turn_deadline")[:YOUR_MOVES]
    )
    out = []
    formats = {**words.duration_formats(), **words.time_left_formats()}  # the page's script counts down with them
    for seat in seats:
        match = seat.match
        match.left = max(0.0, (match.turn_deadline - now).total_seconds())
        match.left_text = words.time_left_text(match.left)
        match.move_time_text = forms.move_time_label(match.move_time)
        match.formats = formats
        match.opponents = _opponents(match.seats.all(), seat.index)
        out.append(match)
    return out


def _opponents(seats, mine: int) -> str:
    """The other seats' names in a list ("<bdi>bob</bdi>, <bdi>Ada</bdi> bot"): each isolated (a name
    in another script keeps its own direction), a bot's with the badge the seats and history show."""
    bot = _("bot")
    names = [
        format_html('<bdi>{}</bdi> <span class="badge badge-quiet">{}</span>', s.display_name, bot)
        if s.is_bot
        else format_html("<bdi>{}</bdi>", s.display_name)
        for s in seats
        if s.index != mine and not s.is_empty
    ]
    return mark_safe(conditional_escape(lists.separator()).join(names))  # every name escaped by format_html


LOG_FIELDS = ("seq", "seat", "summary", "by_bot")


def log_events(match: Match, previous: BoardData | None) -> list[LogEvent]:
    """The last LOG_LENGTH events of ``match``'s version; after ``previous`` (another load of this
    match) only the new ones are read.

    Events are append-only with increasing ``seq`` (DESIGN §4), so the older ones never change.  The
    match row was read before this, in its own query: a move committed in between has appended
    events of a later version.  They are left out (``seq`` up to the row's ``event_seq``, which the
    move saves with its version), so the log is the one of the row's version, never a move ahead.
    """
    last = match.event_seq
    if previous is not None and previous.match.created_at == match.created_at and previous.events:
        known = [e for e in previous.events if e.seq <= last]  # ``previous`` may be a newer load
        if known:
            return _log_going_on(known, store.events_after(match.pk, known[-1].seq), last)
    rows = Event.objects.filter(match=match, seq__lte=last).order_by("-seq").values_list(*LOG_FIELDS)[:LOG_LENGTH]
    return [LogEvent(*row) for row in rows][::-1]


def _log_going_on(known: list[LogEvent], new: list[Event], last: int) -> list[LogEvent]:
    """The log of the version whose last event is ``last``: ``known`` (its events up to ``last``) and
    the ``new`` events read after them, the last LOG_LENGTH."""
    known = [*known, *(LogEvent(e.seq, e.seat, e.summary, e.by_bot) for e in new if e.seq <= last)]
    return known[-LOG_LENGTH:]


def round_state(match: Match) -> Any:
    """The engine state of the match's round (None before its first deal)."""
    return spec_for(match.variant).load(match.state["round"]) if match.state.get("round") else None


def seat_people_from(seats: list[Seat], previous: BoardData) -> bool:
    """Give ``seats`` the users (their names) of an older load of the match, if the same people
    sit there; False, and nothing given, if someone in ``seats`` is not in ``previous``."""
    users = {s.user_id: s.user for s in previous.seats if s.user_id is not None}
    if any(s.user_id is not None and s.user_id not in users for s in seats):
        return False
    for seat in seats:
        if seat.user_id is not None:
            # As select_related caches it: the user is the one ``user_id`` names (the descriptor's
            # assignment checks that again, and asks the router, 4.1 us a seat against 0.7, at every move).
            _SEAT_USER.set_cached_value(seat, users[seat.user_id])
    return True


_SEAT_USER = Seat._meta.get_field("user")


def _seats_with_people(match: Match, previous: BoardData | None) -> list[Seat]:
    """The seats in order with their users (the users of ``previous`` when the same people sit
    there), each with whether its player is here (``online``, read in the same query)."""
    now = timezone.now()
    if previous is not None:
        seats = store.seats_of(match.pk, online_since=store.presence_cutoff(now))
        if seat_people_from(seats, previous):
            return seats
    seats = Seat.objects.filter(match=match).select_related("user").order_by("index")
    return list(store.seats_with_presence(seats, now))


def _finished_rounds(match: Match) -> list[Round]:
    """The match's finished rounds, each with its scores as ``score_rows`` (a plain list).

    Two queries instead of ``prefetch_related("scores")``: a prefetch caches each score's round on
    the score, a reference cycle per round that only a full collection frees (``bench/soak.py``
    counted ~30,000 such objects a minute at 100 tables)."""
    rounds = list(Round.objects.filter(match=match, finished_at__isnull=False).order_by("number"))
    rows: dict[int, list[RoundScore]] = {r.pk: [] for r in rounds}
    for score in RoundScore.objects.filter(round_id__in=list(rows)).order_by("seat"):
        rows[score.round_id].append(score)
    for r in rounds:
        r.score_rows = rows[r.pk]
    return rounds


def board_data(match: Match, previous: BoardData | None = None) -> BoardData:
    """Load a board's data: seats, the log (only its new events after ``previous``), finished rounds.

    ``previous``, an older load of the same match, also saves reading what cannot have changed
    since: the finished rounds while the status and round are the same, and the seated people.
    """
    if previous is not None and previous.match.created_at != match.created_at:
        previous = None  # another match that had this id
    rounds: list[Round] = []
    if (
        previous is not None
        and previous.match.status == match.status
        and previous.match.round_number == match.round_number
    ):
        rounds = previous.rounds  # a round ends with a change of status
    elif match.status != MatchStatus.OPEN and not (match.status == MatchStatus.PLAYING and match.round_number <= 1):
        rounds = _finished_rounds(match)
    return BoardData(
        match=match,
        seats=_seats_with_people(match, previous),
        state=round_state(match),
        events=log_events(match, previous),
        rounds=rounds,
        rematch=Match.objects.filter(rematch_of=match).first() if match.status == MatchStatus.FINISHED else None,
    )


def board_data_after(previous: BoardData) -> BoardData | None:
    """:func:`board_data` of ``previous``'s match as it is now, read in one round trip when what
    ``previous`` holds is all the rest it needs (``store.match_seats_and_events_after``): the same round
    being played or waited for, the same people seated, a log to go on from.  None when it cannot be
    (another database, a caller's transaction, a round or a match that ended, someone who sat down):
    the caller loads it whole."""
    match = previous.match
    if not previous.events or match.status == MatchStatus.FINISHED:
        return None
    read = store.match_seats_and_events_after(
        match.pk, online_since=store.presence_cutoff(), after_seq=previous.events[-1].seq
    )
    if read is None:
        return None
    now, seats, new = read
    if (
        now is None
        or now.created_at != match.created_at
        or now.status != match.status
        or now.round_number != match.round_number
        or not seat_people_from(seats, previous)
    ):
        return None
    last = now.event_seq  # the log of the row's version (``previous`` may be a newer load: log_events)
    return BoardData(
        match=now,
        seats=seats,
        state=round_state(now),
        events=_log_going_on([e for e in previous.events if e.seq <= last], new, last),
        rounds=previous.rounds,
        rematch=None,
    )


def chat_messages(match: Match, viewer=None) -> list[ChatMessage]:
    """The table's last 50 chat messages ``viewer`` sees, oldest first (the page shows them; pushes add
    new ones): none when they muted the table's chat, none of a player they block or who blocks them
    (``games.guards``: fair play)."""
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    hidden = guards.current().chat_hidden_authors(viewer_id=viewer_id, match_id=match.pk)
    if hidden is None:
        return []
    lines = ChatMessage.objects.filter(match=match).exclude(user_id__in=hidden)
    return list(lines.select_related("user").order_by("-created_at")[:50])[::-1]


def chat_line(*, message_id: int) -> tuple[ChatMessage | None, frozenset[int]]:
    """A new chat line (None: deleted since) and the viewers (user ids) it is not pushed to: who muted
    the table's chat, who blocks its author or is blocked by them (``games.guards``: fair play).  A
    seatless viewer who is not signed in sees every line."""
    message = ChatMessage.objects.select_related("user").filter(pk=message_id).first()
    if message is None:
        return None, frozenset()
    return message, guards.current().chat_line_hidden_from(author_id=message.user_id, match_id=message.match_id)
