"""Reads for the lobby and the table pages: plain projections, one per viewer (STYLE.md "Project before you render").

``table_context(match, user)`` is the only thing a table template or socket
frame is rendered from.  It is built from the engine's ``player_view`` for
the viewer's own seat (or ``spectator_view``), so another seat's hand, the
stock and the seeds never reach a template.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import store
from games.board import faces, words
from games.engine.cards import Card
from games.gin_table import gin_context
from games.messages import refusal_text
from games.models import READY_TIMEOUT, ChatMessage, Event, Match, MatchStatus, Round, RoundScore, Seat
from games.variants import spec_for

# ------------------------------------------------------------------ access


def access_match_for_user(*, match_id: int, user, invite: str | None = None) -> Match:
    """The one door to a match: missing and not-yours answer the same (404)."""
    match = Match.objects.filter(pk=match_id).select_related("host").first()
    if match is None or not user.is_authenticated:
        raise Http404
    if match.is_private:
        seated = Seat.objects.filter(match=match, user=user).exists()
        if not (seated or user.is_staff or match.host_id == user.pk or (invite and invite == match.invite_token)):
            raise Http404
    return match


def seat_presence(*, match_id: int, viewer: int | None) -> list[tuple[int, bool]]:
    """(seat index, online) for every human seat; the viewer's own seat is online."""
    seats = store.seats_with_presence(Seat.objects.filter(match_id=match_id, user__isnull=False, bot_policy=""))
    return [(s.index, s.index == viewer or store.is_connected(s)) for s in seats]


def seat_index_of(*, match_id: int, user) -> int | None:
    return Seat.objects.filter(match_id=match_id, user=user).values_list("index", flat=True).first()


# ------------------------------------------------------------------- cards


class Kept:
    """Up to ``size`` values by key, the oldest dropped first; safe from several threads.

    For markup and text that never change for their key (a seat row's fields, a log entry) and
    are asked for again at every push: renders run on the event loop and on worker threads.
    """

    def __init__(self, size: int):
        self.size = size
        self._items: dict = {}
        self._lock = threading.Lock()

    def get(self, key):
        return self._items.get(key)

    def put(self, key, value) -> None:
        with self._lock:
            while len(self._items) >= self.size:
                del self._items[next(iter(self._items))]  # the oldest (dicts keep insertion order)
            self._items[key] = value

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))


# About 0.7 KB a row.  A move makes one or two new rows (a score, a hand count), so the kept rows
# turn over all the time: the oldest go first, and a few thousand cover the tables in play.
_SEAT_ROWS = Kept(4096)


def seat_rows(seats: list[SeatInfo], *, between_rounds: bool) -> list[SafeString]:
    """The ``seat-row`` partial of each seat, kept per seat content and language.

    Only for a table that is not open (an open table's rows carry forms with the viewer's CSRF
    token).  A move changes one or two seats' rows; the others, and the same row seen by the
    other viewers, are the same markup again, so a board push rarely renders a row at all.
    The key is every field of the seat (``SeatInfo``), so no field can be left out of it.
    """
    lang = get_language()
    out = []
    for seat in seats:
        key = (lang, between_rounds, *vars(seat).values())
        html = _SEAT_ROWS.get(key)
        if html is None:
            html = render_to_string("games/table.html#seat-row", {"s": seat, "between_rounds": between_rounds})
            _SEAT_ROWS.put(key, html)
        out.append(html)
    return out


# ------------------------------------------------------------------- lobby


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
        base.filter(status__in=[MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS], is_private=False)
        .exclude(seats__user=user)
        .order_by("-started_at")[:20]
    )

    for m in open_tables + mine + live:
        m.free = m.seats_count - m.taken
        # The stored options are the whole rule set: the lobby names only what differs from the defaults.
        defaults = spec_for(m.variant).option_defaults(m.seats_count)
        m.house_rules = {k: v for k, v in (m.options or {}).items() if k in defaults and defaults[k] != v}
        m.options_summary = "; ".join(f"{label}: {value}" for label, value in words.options_text(m.variant, m.house_rules))
    return {"open_tables": open_tables, "my_tables": mine, "live_tables": live}


# ------------------------------------------------------------------- table


@dataclass
class SeatInfo:
    index: int
    name: str
    is_bot: bool
    is_me: bool
    is_empty: bool
    connected: bool
    autopilot: bool
    hand_count: int | None
    is_turn: bool
    is_dealer: bool
    role: str
    score: int | None
    rounds_won: int | None
    ready: bool
    final_total: int | None
    is_winner: bool
    user_id: int | None


@dataclass(frozen=True)
class BoardData:
    """Everything a table board is rendered from, loaded once for one version of one match.

    Shared read-only by every viewer's render of that version (the socket pushes of one
    process reuse it, see ``games.boardcache``); each viewer's own projection is made from it
    by :func:`table_context`, so sharing it shares no secret.
    """

    match: Match
    seats: list[Seat]
    state: Any  # the engine's round state, or None between matches
    events: list[LogEvent]  # the last LOG_LENGTH, oldest first
    rounds: list[Round]  # finished rounds, each with ``score_rows`` (see _finished_rounds)
    rematch: Match | None

    @property
    def version(self) -> int:
        return self.match.version


LOG_LENGTH = 40


@dataclass(frozen=True, slots=True)
class LogEvent:
    """The part of an :class:`~games.models.Event` the board's log shows."""

    seq: int
    seat: int | None
    summary: dict[str, Any]
    by_bot: bool


LOG_FIELDS = ("seq", "seat", "summary", "by_bot")


def log_events(match: Match, previous: BoardData | None) -> list[LogEvent]:
    """The last LOG_LENGTH events; after ``previous`` (an older load of this match) only the new ones are read.

    Events are append-only with increasing ``seq`` (DESIGN §4), so the older ones never change.
    """
    if previous is not None and previous.match.created_at == match.created_at and previous.events:
        known = list(previous.events)
        new = store.events_after(match.pk, known[-1].seq)
        return (known + [LogEvent(e.seq, e.seat, e.summary, e.by_bot) for e in new])[-LOG_LENGTH:]
    rows = Event.objects.filter(match=match).order_by("-seq").values_list(*LOG_FIELDS)[:LOG_LENGTH]
    return [LogEvent(*row) for row in rows][::-1]


def seat_people_from(seats: list[Seat], previous: BoardData) -> bool:
    """Give ``seats`` the users (their names) of an older load of the match, if the same people
    sit there; False, and nothing given, if someone in ``seats`` is not in ``previous``."""
    users = {s.user_id: s.user for s in previous.seats if s.user_id is not None}
    if any(s.user_id is not None and s.user_id not in users for s in seats):
        return False
    for seat in seats:
        if seat.user_id is not None:
            seat.user = users[seat.user_id]
    return True


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
    spec = spec_for(match.variant)
    if previous is not None and previous.match.created_at != match.created_at:
        previous = None  # another match that had this id
    rounds: list[Round] = []
    if (previous is not None and previous.match.status == match.status
            and previous.match.round_number == match.round_number):
        rounds = previous.rounds  # a round ends with a change of status
    elif match.status != MatchStatus.OPEN and not (match.status == MatchStatus.PLAYING and match.round_number <= 1):
        rounds = _finished_rounds(match)
    return BoardData(
        match=match,
        seats=_seats_with_people(match, previous),
        state=spec.load(match.state["round"]) if match.state.get("round") else None,
        events=log_events(match, previous),
        rounds=rounds,
        rematch=Match.objects.filter(rematch_of=match).first() if match.status == MatchStatus.FINISHED else None,
    )


@lru_cache(maxsize=4096)
def _act_url(match_id: int, prefix: str) -> str:
    """``prefix`` (the script prefix, which ``reverse`` reads itself) is only part of the cache key."""
    return reverse("games:act", args=[match_id])


def table_context(match: Match, user, data: BoardData | None = None) -> dict[str, Any]:
    """One viewer's board: from ``data`` when given (it must be this match's), else loaded now."""
    if data is None:
        data = board_data(match)
    match = data.match
    seats = data.seats
    me = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    my_index = me.index if me else None
    spec = spec_for(match.variant)
    state = data.state
    view = spec.view(state, my_index) if state is not None else None
    tally = match.state.get("tally") or {}
    now = timezone.now()

    seat_infos = _seat_infos(match, seats, view, my_index, tally, now)

    ctx: dict[str, Any] = {
        "match": match,
        "spec": spec,  # the templates draw the game's own parts from it (board_template, board_styles ...)
        "seats": seat_infos,
        "me": me,
        "my_index": my_index,
        "is_host": user.is_authenticated and match.host_id == user.pk,
        "view": view,
        "version": match.version,
        # Every move button posts here: reversed once per match, not once per button per render.
        "act_url": _act_url(match.pk, get_script_prefix()),
        "status": match.status,
        "is_open": match.status == MatchStatus.OPEN,
        "is_playing": match.status == MatchStatus.PLAYING,
        "between_rounds": match.status == MatchStatus.BETWEEN_ROUNDS,
        "is_finished": match.status == MatchStatus.FINISHED,
        "can_join": match.status == MatchStatus.OPEN and me is None and any(s.is_empty for s in seats),
        "has_free_seats": any(s.is_empty for s in seats),
        "timer": _timer(match, now),
        "seat_rows": None if match.status == MatchStatus.OPEN else seat_rows(
            seat_infos, between_rounds=match.status == MatchStatus.BETWEEN_ROUNDS
        ),
        "log": _log(match, data.events, seats, my_index),
        # Lazy: only the page shows the chat.
        "chat": SimpleLazyObject(
            lambda: list(ChatMessage.objects.filter(match=match).select_related("user").order_by("-created_at")[:50])[
                ::-1
            ]
        ),
    }
    if view is not None:
        ctx.update(GAME_PARTS[spec.family](match=match, view=view, me=me, state=state, seats=seats, rounds=data.rounds))
    # Lazy: the board reads it between rounds and at the end, and the scores panel only when its
    # cache (kept per count of finished rounds) misses.
    ctx["round_results"] = SimpleLazyObject(lambda: _round_results(data.rounds, seats))
    ctx["scores_key"] = f"{len(data.rounds)}:{'|'.join(s.display_name for s in seats)}"
    if match.status == MatchStatus.FINISHED:
        ctx["final"] = sorted(seat_infos, key=lambda s: -(s.final_total or 0))
        ctx["rematch"] = data.rematch
    return ctx


def _seat_infos(match: Match, seats: list[Seat], view: dict | None, my_index: int | None, tally: dict,
                now) -> list[SeatInfo]:
    """Each seat as the board shows it to this viewer."""
    n = len(seats)
    scores = (tally.get("scores") or [None] * n) if tally else [None] * n
    won = (tally.get("rounds_won") or tally.get("hands_won") or [None] * n) if tally else [None] * n
    playing = match.status == MatchStatus.PLAYING
    return [
        SeatInfo(
            index=s.index,
            name=s.display_name,
            is_bot=s.is_bot,
            is_me=s.index == my_index,
            is_empty=s.is_empty,
            # The viewer is here: their own socket is connecting as this renders.
            connected=s.index == my_index or store.is_connected(s, now),
            autopilot=s.autopilot,
            hand_count=view["hand_counts"][s.index] if view else None,
            is_turn=bool(view) and view.get("seat_to_act") == s.index and playing,
            is_dealer=bool(view) and view.get("dealer") == s.index,
            role=s.role,
            score=scores[s.index],
            rounds_won=won[s.index],
            ready=s.ready,
            final_total=s.final_total,
            is_winner=s.is_winner,
            user_id=s.user_id,
        )
        for s in seats
    ]


def _timer(match: Match, now) -> dict[str, Any] | None:
    if match.deadline is None or match.status not in (MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS):
        return None
    remaining = max(0.0, (match.deadline - now).total_seconds())
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        total = READY_TIMEOUT
    elif match.turn_timer:
        total = match.turn_timer
    else:
        return None  # bots and disconnected players: no bar
    return {"remaining": round(remaining, 1), "total": total, "fraction": round(remaining / total, 3) if total else 0}


def _manipulation_context(*, match: Match, view: dict, me: Seat | None, state, **_parts) -> dict[str, Any]:
    """The Manipulation board's own part: the melds (the viewer's draft, or another's face down),
    the hand in the viewer's order, what the viewer may do and the prompt."""
    my_turn = me is not None and view.get("seat_to_act") == me.index and match.status == MatchStatus.PLAYING
    actions = {a["type"] for a in view.get("legal_actions", [])}
    draft, drafting, table_refs, hand_ids, reports = _draft_table(match, view, me)
    hand = faces.cards_html(faces.sorted_hand(hand_ids, me.hand_order if me else []))
    draft_report = (match.draft or {}).get("report") if drafting else None
    return {
        "melds": _meld_rows(table_refs, reports, drafting),
        "hand": hand,
        "my_turn": my_turn,
        "can_draw": "draw" in actions,
        "can_meld": "meld" in actions,
        "can_knock": "knock" in actions,
        "can_end_turn": "end_turn" in actions,
        "drafting": drafting,
        "draft_ok": bool(draft_report and draft_report.get("ok")),
        "draft_errors": [
            {"code": e.get("code"), "message": refusal_text(e, "manipulation")}
            for e in (draft_report or {}).get("errors", [])
        ],
        "someone_drafting": draft is not None and not drafting,
        "prompt": _manipulation_prompt(match, view, my_turn, actions),
        "stock_count": view.get("stock_count"),
        "phase": view.get("phase"),
        "draws": view.get("draws_this_turn", 0),
        "hand_points": view.get("hand_points"),
        "knock_limit": state.rules.knock_limit,
    }


def _draft_table(match: Match, view: dict, me: Seat | None):
    """(draft, the viewer drafts, the melds shown, the hand left, the draft's meld reports).

    The drafting player sees the arrangement with the cards it takes from the hand; the others see
    it live, with the cards from the player's hand face down ("")."""
    draft = match.draft if match.draft and match.status == MatchStatus.PLAYING else None
    hand_ids = list(view.get("hand") or [])
    table_refs = [list(m) for m in view["table"]]
    if draft is None:
        return None, False, table_refs, hand_ids, []
    if me is not None and draft.get("seat") == me.index:
        table_refs = [list(m) for m in draft["table"]]
        placed = {Card.from_code(ref).id for m in table_refs for ref in m}
        hand_ids = [cid for cid in hand_ids if cid not in placed]
        return draft, True, table_refs, hand_ids, draft.get("report", {}).get("melds", [])
    public_ids = {Card.from_code(ref).id for m in view["table"] for ref in m}
    table_refs = [[ref if Card.from_code(ref).id in public_ids else "" for ref in m] for m in draft["table"]]
    return draft, False, table_refs, hand_ids, []


def _meld_rows(table_refs: list[list[str]], reports: list[dict], drafting: bool) -> list[dict[str, Any]]:
    melds = []
    for i, meld in enumerate(table_refs):
        report = reports[i] if i < len(reports) else {}
        melds.append({
            "index": i,
            "ids": [Card.from_code(ref).id if ref else "" for ref in meld],  # "" = face down
            "cards_html": faces.cards_html(meld),
            "valid": report.get("valid", True),
            "reason": refusal_text(report, "manipulation") if drafting and report.get("reason") else None,
            "joker_options": [faces.joker_option(code) for code in report.get("joker_options", [])] if drafting else [],
            "needs_joker": drafting and report.get("code") == "joker_identity_needed",
            "kind": report.get("kind"),
        })
    return melds


def _manipulation_prompt(match: Match, view: dict, my_turn: bool, actions: set[str]) -> str:
    phase, draws = view.get("phase"), view.get("draws_this_turn", 0)
    if my_turn:
        if phase == "start":
            return _("Your turn: draw a card.")
        if phase == "drawn":
            return _("Meld (drag cards onto the table) or draw again — draw %(n)d of 3.") % {"n": draws}
        if phase == "end":
            if "knock" in actions:
                return _("Your draws are done. Knock or end your turn.")
            return _("Your draws are done. End your turn.")
        if phase == "final":
            return _("Final lap: meld once more if you can, then end your turn.")
        return ""
    if view.get("seat_to_act") is not None and match.status == MatchStatus.PLAYING:
        return _("Waiting for another player…")
    return ""


# The board's game part for each family (GameSpec.family): what only that game's board shows.
GAME_PARTS = {"manipulation": _manipulation_context, "gin": gin_context}


def _round_results(rounds: list[Round], seats: list[Seat]) -> list[dict[str, Any]]:
    out = []
    running = [0] * len(seats)
    last = len(rounds) - 1
    for number, rnd in enumerate(rounds):
        scores = {s.seat: s for s in rnd.score_rows}
        hands = (rnd.outcome or {}).get("hands") or []
        row = []
        for seat in seats:
            sc = scores.get(seat.index)
            running[seat.index] += sc.score if sc else 0
            row.append(
                {
                    "seat": seat.index,
                    "hand_points": sc.hand_points if sc else None,
                    "score": sc.score if sc else 0,
                    "reasons": [words.reason_text(r) for r in (sc.reasons if sc else [])],
                    "total": running[seat.index],
                    "won": seat.index in (rnd.winners or []),
                    # Hands are revealed once the round is over (B.6); the board shows the last round's.
                    "hand": [faces.card_face(ref) for ref in hands[seat.index]]
                    if number == last and seat.index < len(hands) else [],
                }
            )
        out.append({"number": rnd.number, "kind": rnd.result_kind, "kind_text": words.result_text(rnd.result_kind),
                    "knocker": rnd.knocker, "rows": row, "outcome": rnd.outcome})
    return out


# A log entry's line (``<li>`` with its sentence, escaped) per match, entry, name and language: a
# board shows the last LOG_LENGTH entries at every push, and all but the newest were worded at the
# push before.  ~0.3 KB each.
_LOG_LINES = Kept(8192)


def _log(match: Match, events: list[LogEvent], seats: list[Seat], viewer: int | None) -> SafeString:
    """The last moves as the log list's items; an entry with an ``audience`` is shown only to those seats.

    Joined here rather than looped over in the template: a push words at most the newest entry,
    and the rest is a join of kept lines.
    """
    names = {s.index: s.display_name for s in seats}
    lang, made = get_language(), match.created_at
    lines = []
    for e in events:
        if "audience" in e.summary and viewer not in e.summary["audience"]:
            continue
        name = names.get(e.seat, "")
        key = (lang, match.pk, made, e.seq, name)
        line = _LOG_LINES.get(key)
        if line is None:
            line = format_html('<li data-seq="{}">{}</li>', e.seq, words.event_sentence(e.summary, name))
            _LOG_LINES.put(key, line)
        lines.append(line)
    return mark_safe("".join(lines))  # every line was built by format_html
