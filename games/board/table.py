"""One viewer's board of a table: ``table_context(data, user)``, the only thing a table template
or socket frame is rendered from (STYLE.md "Project before you render").

It is built from loaded data (``games.board.data.BoardData``; no database) and the engine's
``player_view`` for the viewer's own seat (or ``spectator_view``), so another seat's hand, the
stock and the seeds never reach a template.  Each game adds its own part (``GAME_PARTS``, by
``GameSpec.family``): ``games.board.manipulation`` and ``games.board.gin``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import practice, store
from games.board import faces, results, words
from games.board.data import LOG_LENGTH, BoardData, LogEvent
from games.board.gin import gin_context
from games.board.kept import Kept, forgettable
from games.board.manipulation import manipulation_context
from games.board.markup import collapsed
from games.models import DISCONNECT_GRACE, READY_TIMEOUT, Match, MatchStatus, Round, Seat
from games.variants import spec_for

# About 0.7 KB a row.  A row is kept with a mark where its card count goes (the count is drawn on its
# own, :func:`_count_html`), so the row of a seat whose count alone changed is the same kept markup:
# a move changes the mover's count and who is to play, and after a turn round every row it shows is kept.
_SEAT_ROWS = Kept(4096)
_COUNTS = Kept(1024)  # a card count's markup, per count and language
_COUNT = "\ue002"  # where a kept row's card count goes: a private-use character no template writes


def seat_rows(seats: list[SeatInfo], *, between_rounds: bool) -> list[SafeString]:
    """The ``seat-row`` partial of each seat, kept per seat content and language.

    Only for a table that is not open (an open table's rows carry forms with the viewer's CSRF
    token).  A move changes one or two seats' rows; the others, and the same row seen by the
    other viewers, are the same markup again, so a board push rarely renders a row at all.
    The key is every field of the seat (``SeatInfo``) but its card count, which is put in at its
    mark, so no field can be left out of it.
    """
    lang = get_language()
    out = []
    for seat in seats:
        fields = dict(vars(seat))
        count = fields.pop("hand_count")
        key = (lang, between_rounds, count is None, *fields.values())
        shape = _SEAT_ROWS.get(key)
        if shape is None:
            ctx = {"s": seat, "between_rounds": between_rounds, "count_mark": _COUNT}
            shape = collapsed(render_to_string("games/table.html#seat-row", ctx))
            _SEAT_ROWS.put(key, shape)
        # A number's markup in place of a character the template wrote.
        out.append(shape if count is None else mark_safe(shape.replace(_COUNT, _count_html(count, lang), 1)))
    return out


def _count_html(count: int, lang: str) -> str:
    """The ``seat-count`` partial of a number of cards (kept per count and language)."""
    key = (lang, count)
    html = _COUNTS.get(key)
    if html is None:
        html = collapsed(render_to_string("games/table.html#seat-count", {"cards": count}))
        _COUNTS.put(key, html)
    return html


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
    role_label: str
    score: int | None
    rounds_won: int | None
    ready: bool
    final_total: int | None
    is_winner: bool
    user_id: int | None


# A match field's choice labels by field, value and language (``Match.get_FOO_display`` hashes all the
# field's choices at every call: about 40 us each, twice a version).
_LABELS: dict[tuple[str, str, str], str] = forgettable({})


def _choice_label(field: str, value: str) -> str:
    """``Match.get_<field>_display()`` for ``value``, in the current language."""
    key = (field, value, get_language())
    label = _LABELS.get(key)
    if label is None:
        label = _LABELS[key] = str(dict(Match._meta.get_field(field).flatchoices).get(value, value))
    return label


@lru_cache(maxsize=4096)
def _act_url(match_id: int, prefix: str) -> str:
    """``prefix`` (the script prefix, which ``reverse`` reads itself) is only part of the cache key."""
    return reverse("games:act", args=[match_id])


@lru_cache(maxsize=64)
def _howto_url(variant: str, prefix: str) -> str:
    return reverse("games:howto", args=[variant])


@lru_cache(maxsize=4096)
def _hint_url(match_id: int, prefix: str) -> str:
    return reverse("games:hint", args=[match_id])


def table_context(
    data: BoardData, user, *, seat_refusal: str | None = None, language: str | None = None
) -> dict[str, Any]:
    """``user``'s board of the version ``data`` holds (a spectator's when they have no seat).

    ``seat_refusal``: why fair play keeps this viewer out of the table's free seats
    (``services.seat_refusal``, which reads the database: the caller asks it); an open table then
    shows it instead of "Sit here".

    What every viewer sees alike (:func:`public_context`) is worked out once per version and
    language; a seated viewer's board is that with their own part laid over it: their view of the
    round (their hand, what they may do), their seat marked, their own log if some entries are for
    some seats only.  The seat rows and the public log lines are not worked out again for them: the
    fragments showing those are public (``games.board.fragments``).  ``language``: the current one, when
    the caller has it.
    """
    language = language or get_language()
    base, game = _public_parts(data, language)
    match = data.match
    is_host = user.is_authenticated and match.host_id == user.pk
    me = next((s for s in data.seats if user.is_authenticated and s.user_id == user.pk), None)
    if me is None:
        return {**base, **game, "is_host": is_host, "seat_refusal": seat_refusal if base["is_open"] else None}
    spec, state, seats = base["spec"], data.state, data.seats
    view = spec.view(state, me.index) if state is not None else None
    ctx = {
        **base,
        "me": me,
        "my_index": me.index,
        "is_host": is_host,
        "view": view,
        "can_join": False,
        # A practice table's Hint button (games.practice: every other seat a bot).
        "hint_url": _hint_url(match.pk, get_script_prefix()) if practice.hint_seat(match, seats, user) else "",
    }
    if base["is_open"]:
        # An open table's seat list is this viewer's own (their buttons, their seat marked).
        ctx["seats"] = _seat_infos(match, seats, view, me.index, match.state.get("tally") or {}, timezone.now())
    timer = base["timer"]
    if timer is not None and timer["away"] is not None and view is not None and view.get("seat_to_act") == me.index:
        ctx["timer"] = None  # the player said to be away is this viewer, who is here
    if base["log_private"]:
        ctx["log_lines"] = log_lines = _log_lines(match, data.events, base["sentence_names"], me.index)
        ctx["log"] = mark_safe("".join(log_lines))  # every line was built by format_html
    if view is not None:
        ctx.update(_game_part(data, spec, view, me, base["sentence_names"], public=game, language=language))
    return ctx


def public_context(data: BoardData, language: str | None = None) -> dict[str, Any]:
    """The board of a viewer with no seat: what every public fragment is drawn from (in ``language``,
    the current one)."""
    base, game = _public_parts(data, language or get_language())
    return {**base, **game, "is_host": False}


def _public_parts(data: BoardData, language: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the board every viewer shares, the game's part of it for a viewer with no seat): once per
    version and language (the current one), kept on ``data`` (``BoardData.shared``) for the version's
    other viewers."""
    key = ("board", language)
    parts = data.shared.get(key)
    if parts is None:
        parts = data.shared[key] = _build_public(data, language)
    return parts


def _build_public(data: BoardData, language: str) -> tuple[dict[str, Any], dict[str, Any]]:
    match = data.match
    seats = data.seats
    spec = spec_for(match.variant)
    state = data.state
    view = spec.view(state, None) if state is not None else None
    tally = match.state.get("tally") or {}
    now = timezone.now()

    seat_infos = _seat_infos(match, seats, view, None, tally, now)
    names = words.sentence_names(seats)  # the version's one naming of its seats in sentences

    ctx: dict[str, Any] = {
        "match": match,
        "spec": spec,  # the templates draw the game's own parts from it (board_styles, board_scripts ...)
        "seats": seat_infos,
        "me": None,
        "my_index": None,
        "view": view,
        "version": match.version,
        # Every move button posts here: reversed once per match, not once per button per render.
        "act_url": _act_url(match.pk, get_script_prefix()),
        "status": match.status,
        "variant_label": _choice_label("variant", match.variant),
        "status_label": _choice_label("status", match.status),
        "howto_url": _howto_url(match.variant, get_script_prefix()),
        "is_open": match.status == MatchStatus.OPEN,
        "is_playing": match.status == MatchStatus.PLAYING,
        "between_rounds": match.status == MatchStatus.BETWEEN_ROUNDS,
        "is_finished": match.status == MatchStatus.FINISHED,
        "can_join": match.status == MatchStatus.OPEN and any(s.is_empty for s in seats),
        "has_free_seats": any(s.is_empty for s in seats),
        "timer": _timer(match, now, seat_infos),
        "seat_rows": None
        if match.status == MatchStatus.OPEN
        else seat_rows(seat_infos, between_rounds=match.status == MatchStatus.BETWEEN_ROUNDS),
        # Each seat's name as the log, the prompt and the melds' marks say it (words.sentence_names).
        "sentence_names": names,
        "log_lines": (log_lines := _log_lines(match, data.events, names, None)),
        "log": mark_safe("".join(log_lines)),  # every line was built by format_html
        "log_length": LOG_LENGTH,  # the page keeps as many when a socket adds lines at the top
        # Some log entries are for some seats only: a seat then sees its own log, not the public one.
        "log_private": any("audience" in e.summary for e in data.events),
        # The current (or last) round's commitment to its seed, public from the deal on (docs/fairness.md).
        "commitment": match.state.get("commitment") if match.status != MatchStatus.OPEN else None,
    }
    # Lazy: the board reads it between rounds and at the end, and the scores panel only when its
    # cache (kept per count of finished rounds) misses.  It holds the rounds, not ``data``: this
    # context is kept on ``data``, and a closure over ``data`` would be a reference cycle, freed only
    # by the periodic full collection (plumbing.gctune).
    ctx["round_results"] = SimpleLazyObject(partial(_round_results, data.rounds, seats, data.match))
    ctx["scores_key"] = f"{len(data.rounds)}:{'|'.join(s.display_name for s in seats)}"
    # The result dialog's summary (games.board.results): between rounds and at the end only.
    ctx["outcome"] = SimpleLazyObject(partial(results.outcome, match, seats, ctx["round_results"]))
    if match.status == MatchStatus.FINISHED:
        ctx["final"] = sorted(seat_infos, key=lambda s: -(s.final_total or 0))
        ctx["rematch"] = data.rematch
    game = _game_part(data, spec, view, None, names, language=language) if view is not None else {}
    return ctx, game


def _game_part(
    data: BoardData,
    spec,
    view: dict[str, Any],
    me: Seat | None,
    names: dict[int, str],
    public: dict | None = None,
    *,
    language: str,
) -> dict[str, Any]:
    """The game's own part of a viewer's board (``GAME_PARTS``, by the game's family): ``me`` None for
    a viewer with no seat; ``names``: the seats' names in sentences, once per version; ``public``: the
    version's game part for a viewer with no seat (what a seat's part may share of it); ``language``:
    the current one."""
    return GAME_PARTS[spec.family](
        match=data.match,
        view=view,
        me=me,
        state=data.state,
        seats=data.seats,
        rounds=data.rounds,
        events=data.events,
        names=names,
        public=public or None,
        language=language,
    )


def _seat_infos(
    match: Match, seats: list[Seat], view: dict | None, my_index: int | None, tally: dict, now
) -> list[SeatInfo]:
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
            role_label=words.role_label(s.role),
            # At the end a seat shows its final total (with the end-of-game bonuses), as the results do.
            score=s.final_total
            if match.status == MatchStatus.FINISHED and s.final_total is not None
            else scores[s.index],
            rounds_won=won[s.index],
            ready=s.ready,
            final_total=s.final_total,
            is_winner=s.is_winner,
            user_id=s.user_id,
        )
        for s in seats
    ]


def _timer(match: Match, now, seats: list[SeatInfo]) -> dict[str, Any] | None:
    """The clock the board shows: the wait between rounds, the turn timer, or the grace a player who
    is away has before their turn is played for them (``away``: their name); at a turn-based table the
    time left for the move (``long``: said in days, hours and minutes, ``words.duration_text``)."""
    if match.move_time and match.status == MatchStatus.PLAYING:
        # The deadline is the turn's (``Match.deadline`` may be a reminder's); a bot's move has none.
        if match.turn_deadline is None:
            return None
        remaining = max(0.0, (match.turn_deadline - now).total_seconds())
        return {
            "remaining": round(remaining, 1),
            "total": match.move_time,
            "fraction": round(remaining / match.move_time, 3),
            "deadline_ms": int(match.turn_deadline.timestamp() * 1000),
            "away": None,
            "long": words.duration_text(remaining),
            "formats": words.duration_formats(),
        }
    if match.deadline is None or match.status not in (MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS):
        return None
    remaining = max(0.0, (match.deadline - now).total_seconds())
    # ``remaining`` is for a page without scripts; the page counts down from ``deadline_ms`` itself.
    away = None
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        total = READY_TIMEOUT
    elif match.turn_timer:
        total = match.turn_timer
    else:
        acting = next((s for s in seats if s.is_turn), None)
        if acting is None or acting.is_bot or acting.autopilot or acting.connected:
            return None  # a bot's short delay: no bar
        total, away = DISCONNECT_GRACE, acting.name
    return {
        "remaining": round(remaining, 1),
        "total": total,
        "fraction": round(remaining / total, 3) if total else 0,
        "deadline_ms": int(match.deadline.timestamp() * 1000),
        "away": away,
        "long": "",
    }


# The board's game part for each family (GameSpec.family): what only that game's board shows.
GAME_PARTS = {"manipulation": manipulation_context, "gin": gin_context}


def _round_results(rounds: list[Round], seats: list[Seat], match: Match) -> list[dict[str, Any]]:
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
                    if number == last and seat.index < len(hands)
                    else [],
                }
            )
        out.append(
            {
                "number": rnd.number,
                "kind": rnd.result_kind,
                "kind_text": words.result_text(rnd.result_kind),
                # The results panel's heading: one sentence, as the log says it ("Round 3 is over: ...").
                "title": words.round_end_sentence(rnd.number, rnd.result_kind),
                "knocker": rnd.knocker,
                "rows": row,
                "outcome": rnd.outcome,
                # The seed is revealed once the round is over (these are finished rounds only), but a
                # duplicate round's only once every table has played it (the tournament round closed).
                "seed": rnd.seed if rnd.seed_shown(match) else None,
                "held": match.deals_held,
                "commitment": rnd.commitment,
            }
        )
    return out


# The lines of a log as a board last showed them, per match, language and viewer (None: the public log):
# (the seats' names they were worded with, each entry's line by its number).  A board shows the last
# LOG_LENGTH entries at every push, and all but the newest were worded at the push before: their lines
# are found by number, with no key to build per line.  ~0.3 KB a line, 40 lines a board.
_LOG_LINES = Kept(2048)


def _log_lines(match: Match, events: list[LogEvent], names: dict[int, str], viewer: int | None) -> list[SafeString]:
    """The last moves as the log list's items, the newest first; an entry with an ``audience`` is shown
    only to those seats.  ``names``: the seats' names in sentences (``words.sentence_names``).

    Joined rather than looped over in the template: a push words at most the newest entry, and the
    rest is a join of kept lines (and a socket sends only the new ones, ``games.board.fragments``).
    """
    slot = (get_language(), match.pk, match.created_at, viewer)
    kept = _LOG_LINES.get(slot)
    known = kept[1] if kept is not None and kept[0] == names else {}
    lines, now = [], {}
    for e in events:
        if "audience" in e.summary and viewer not in e.summary["audience"]:
            continue
        line = known.get(e.seq)
        if line is None:
            # ``data-seat``: whose move (the command line reads the others' moves aloud: js/typed.js).
            line = format_html(
                '<li data-seq="{}" data-seat="{}">{}</li>',
                e.seq,
                "" if e.seat is None else e.seat,
                words.event_sentence(e.summary, names.get(e.seat, "")),
            )
        now[e.seq] = line
        lines.append(line)
    _LOG_LINES.put(slot, (names, now))
    lines.reverse()
    return lines
