"""The one edge of a move: a table command from either transport, carried out, as an :class:`Outcome`.

The table page sends its moves as form fields, over HTTP (``/tables/<id>/act/``,
``/tables/<id>/draft/``: real forms, the fallback without a socket) or over the
table's socket while it is open (``{"type": "command", "kind": "act", "fields":
{...}}``).  Both hand them to :func:`carry_out` (the socket through :func:`carry_out_async`, which
first waits for the table's gate on the event loop): the size limit, the rate (a socket's
:class:`Rate`), the access check, the fields → the service (:func:`command_for`), the service with
its retries.  The transports only translate the outcome: the view into a response (its status from
:data:`STATUS`), the consumer into a frame.  One version parser (:func:`parse_version`), one size
limit (:data:`MAX_COMMAND`), one map of refusals (:data:`STATUS`).  The services and the engine
validate everything else.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games import selectors, services, store
from games.board import words
from games.engine.errors import RulesError
from games.messages import refusal_text
from games.models import MatchStatus
from games.typed import parse as typed_parse
from games.typed import plan as typed_plan
from games.variants import spec_for
from games.versions import gate
from plumbing import inputs

MAX_COMMAND = 32 * 1024  # a form's body or a socket's frame: a draft of 106 cards is ~2 KB
MAX_FIELD = 16 * 1024  # one field (a draft's table, a custom hand order)
MAX_VERSION = 2**31 - 1
COMMAND_BURST = 20  # commands a socket may send at once (a fast drag session sends a few per second) ...
COMMAND_RATE = 5.0  # ... refilled at this many per second; beyond that a command is refused unrun

KINDS = ("act", "draft", "typed")  # "typed": the command line's text (games.typed), carried out as an act or draft

ACTION_TYPES = {
    # Manipulation (RULES B.5)
    "draw",
    "meld",
    "knock",
    "end_turn",
    # Gin (RULES C.4-C.6, D)
    "take_upcard",
    "pass_upcard",
    "draw_stock",
    "draw_discard",
    "discard",
    "suggest",
    "pass",
}


REFUSALS = (services.ActionRefused, RulesError)  # what a command may answer with: shown, nothing changed


def error_text(error: Exception, variant: str) -> str:
    """What the player reads: engine refusals through the translation catalogue when they can be."""
    if isinstance(error, RulesError):
        return refusal_text(error, spec_for(variant).family)
    return getattr(error, "message", str(error))


def error_context(error: Exception, variant: str) -> dict[str, str]:
    """The board's ``error`` (shown to the one player whose command was refused)."""
    return {"code": getattr(error, "code", "error"), "message": error_text(error, variant)}


def _json(text: str) -> Any:
    """A field's JSON value through the input layer (shallow, small, clean), or ActionRefused."""
    try:
        return inputs.parse_json(text, max_length=MAX_FIELD)
    except inputs.BadInput as exc:
        raise services.ActionRefused(exc.code, exc.message) from None


def action_from_fields(fields: Mapping[str, str]) -> dict | None:
    """A form's fields as an engine action; the engine validates everything else."""
    kind = fields.get("action", "")
    if kind not in ACTION_TYPES:
        return None
    action: dict = {"type": kind}
    if fields.get("card"):
        action["card"] = fields["card"]
    for key in ("melds", "suggestion"):
        if fields.get(key):
            action[key] = _json(fields[key])
    return action


def command_for(kind: str, fields: Mapping[str, Any]) -> tuple[Callable[..., Any], dict[str, Any]]:
    """The service and its keyword arguments (besides ``match_id`` and ``user``); ActionRefused if malformed."""
    if kind not in KINDS:
        raise services.ActionRefused("bad_command", _("Unknown request; moves are sent with the page's buttons."))
    try:
        inputs.check_fields(fields, max_length=MAX_FIELD)
    except inputs.BadInput as exc:
        raise services.ActionRefused(exc.code, exc.message) from None
    version = fields.get("version")  # required by every service that takes it (services.write._check_version)
    if kind == "draft":
        table = _json(fields.get("table", ""))
        return services.draft_update, {"table": table, "expected_version": version}
    name = fields.get("action", "")
    if name == "reset":
        return services.draft_reset, {"expected_version": version}
    if name == "sort":
        order = _json(fields["order"]) if "order" in fields else None
        return services.hand_sort, {"mode": fields.get("mode", "suit"), "order": order}
    action = action_from_fields(fields)
    if action is None:
        raise services.ActionRefused("bad_action", _("That is not a move of this game."))
    return services.turn_submit, {"action": action, "expected_version": version}


def parse_version(value: Any) -> int | None:
    """A table version as a page writes it (ASCII digits, in range), or None: the one parser of
    versions at the edge (a command's field, the socket's ``?v=``)."""
    try:
        return inputs.parse_int(value, lo=0, hi=MAX_VERSION)
    except inputs.BadInput:
        return None


# The refusals by code, and the HTTP status each answers with (any other: 400).  A socket sends the
# same refusals as frames (the board with the error, or ``socket-error`` when there is no board).
STATUS = {
    "stale_version": 409,  # the table moved on: the board that comes with it is the current one
    "table_busy": 409,  # like a stale version: try again
    "too_large": 413,
    "too_fast": 429,
    "server_busy": 503,  # no database connection came in time: no board to answer with either
}


def too_large() -> services.ActionRefused:
    return services.ActionRefused("too_large", _("That request is too large."))


def too_fast() -> services.ActionRefused:
    return services.ActionRefused("too_fast", _("Too many moves at once: wait a moment and try again."))


@dataclass(frozen=True)
class Admitted:
    """Proof that ``user_id`` passed the access check of match ``match_id`` (:func:`admit`): a table
    socket's, made once at its connect.  Every command is a seated player's, and the services check
    the seat under the row's lock; the access check only keeps a table a viewer may not see from
    answering anything but 404, and the socket's connect has given that answer already."""

    match_id: int
    user_id: int


def admit(*, match_id: int, user, invite: str | None = None) -> tuple[Admitted, Any]:
    """The access check (``selectors.access_match_for_user``: Http404 raised), and its proof with the match."""
    match = selectors.access_match_for_user(match_id=match_id, user=user, invite=invite)
    return Admitted(match_id, user.pk), match


@dataclass(frozen=True)
class Outcome:
    """What became of a command: the version it made (None: it made none, e.g. a hand sorted), or its refusal."""

    moved_to: int | None = None
    refusal: Exception | None = None
    answer: str = ""  # a typed command's answer, for the command line's live region (its refusal's reason too)

    @property
    def code(self) -> str:
        return getattr(self.refusal, "code", "") if self.refusal is not None else ""

    @property
    def status(self) -> int:
        return 200 if self.refusal is None else STATUS.get(self.code, 400)


class Rate:
    """A token bucket (one per socket): a flood of commands must not make every seat re-render."""

    __slots__ = ("tokens", "at")

    def __init__(self) -> None:
        self.tokens, self.at = float(COMMAND_BURST), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(COMMAND_BURST, self.tokens + (now - self.at) * COMMAND_RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def carry_out(
    kind: str,
    fields: Mapping[str, Any],
    *,
    match_id: int,
    user,
    invite: str | None = None,
    size: int = 0,
    language: str | None = None,
    admitted: Admitted | None = None,
) -> Outcome:
    """Check and carry out one command (``size``: its body's or frame's length); never raises a refusal.

    A player who may not see the table gets ``Http404`` (as the page would), raised; ``admitted``
    (a socket's proof from its connect, :func:`admit`) stands for that check.  ``language``: the
    player's, for the refusal's message (the request's own when None).
    """
    with translation.override(language) if language else nullcontext():
        if size > MAX_COMMAND:
            return Outcome(refusal=too_large())
        if kind == "typed":  # a line of the command line: it reads the match (its game, the player's view)
            match = selectors.access_match_for_user(match_id=match_id, user=user, invite=invite)
            return carry_out_typed(fields, match=match, user=user)
        if admitted is None or admitted != Admitted(match_id, user.pk):
            admit(match_id=match_id, user=user, invite=invite)
        try:
            service, kwargs = command_for(kind, fields)
            result = services.with_retry(service, match_id=match_id, user=user, **kwargs)
        except REFUSALS as exc:
            return Outcome(refusal=exc)
    expected = parse_version(kwargs.get("expected_version"))
    version = getattr(result, "version", None)
    made = version is not None and expected is not None and version > expected
    return Outcome(moved_to=version if made else None)


async def carry_out_async(
    kind: str,
    fields: Mapping[str, Any],
    *,
    match_id: int,
    user,
    invite: str | None = None,
    size: int = 0,
    language: str | None = None,
    rate: Rate | None = None,
    admitted: Admitted | None = None,
) -> Outcome:
    """:func:`carry_out` for a socket: its :class:`Rate` first, then the table's gate, waited for on the
    event loop (a queue of moves at one table holds none of the threads every socket shares); the
    command then runs on a worker thread, which finds the gate held for it."""
    with translation.override(language) if language else nullcontext():
        if rate is not None and not rate.take():
            return Outcome(refusal=too_fast())
        try:
            async with gate.held_async(
                match_id, timeout=settings.RUMMYHUB_LOCK_TIMEOUT, budget=settings.RUMMYHUB_LOCK_BUDGET
            ):
                return await database_sync_to_async(carry_out, thread_sensitive=False)(
                    kind,
                    fields,
                    match_id=match_id,
                    user=user,
                    invite=invite,
                    size=size,
                    language=language,
                    admitted=admitted,
                )
        except gate.Busy:
            return Outcome(refusal=services.TableBusy())


def situation(match, user) -> typed_plan.Situation:
    """What ``user`` sees of the table now (their own view only), for the command line."""
    data = selectors.board_data(match)
    spec = spec_for(match.variant)
    me = next((seat for seat in data.seats if user.is_authenticated and seat.user_id == user.pk), None)
    view = spec.view(data.state, me.index if me is not None else None) if data.state is not None else None
    draft = match.draft if me is not None and (match.draft or {}).get("seat") == me.index else None
    return typed_plan.Situation(
        family=spec.family,
        version=match.version,
        seat=me.index if me is not None else None,
        view=view,
        draft=draft,
        names=words.sentence_names(data.seats),
        events=data.events,
        playing=match.status == MatchStatus.PLAYING,
        team_advice=spec.team_advice,
    )


def carry_out_typed(fields: Mapping[str, Any], *, match, user) -> Outcome:
    """A typed command (``fields["text"]``): read, or turned into the act or draft the board's forms
    send and carried out by the same services (:func:`command_for`); the answer says what it did or
    why not, with the board's own reasons.  The move is made on the version the command was read
    at: a table that moved on meanwhile refuses it as stale, and nothing changes."""
    family = spec_for(match.variant).family
    try:
        inputs.check_fields(fields, max_length=MAX_FIELD)
        command = typed_parse.parse(fields.get("text", ""))
        before = situation(match, user)
        step = typed_plan.plan(command, before)
    except inputs.BadInput as exc:
        return Outcome(refusal=services.ActionRefused(exc.code, exc.message), answer=exc.message)
    except typed_parse.Unclear as exc:
        return Outcome(refusal=services.ActionRefused(exc.code, exc.message), answer=exc.message)
    except RulesError as exc:
        return Outcome(refusal=exc, answer=error_text(exc, match.variant))
    if isinstance(step, typed_plan.Answer):
        return Outcome(answer=step.text)
    try:
        service, kwargs = command_for(step.kind, step.fields)
        result = services.with_retry(service, match_id=match.pk, user=user, **kwargs)
    except REFUSALS as exc:
        text = error_text(exc, match.variant)
        return Outcome(
            refusal=exc, answer=" ".join(t for t in (step.said, text) if t) if step.kind == "draft" else text
        )
    fresh = store.match_row(match.pk) or match  # the row after the move (access was checked before it)
    report = (fresh.draft or {}).get("report") if step.kind == "draft" else None
    answer = typed_plan.after(step, before, situation(fresh, user), report, lambda e: refusal_text(e, family))
    version = getattr(result, "version", None)
    made = version is not None and version > before.version
    return Outcome(moved_to=version if made else None, answer=answer)
