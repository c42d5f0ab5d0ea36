"""Lobby and table pages.  Every command is a real form POST; htmx gets the board partial back,
a plain browser is redirected to the table.  Pushes to the other players go over the socket."""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import commands, guards, selectors, services
from games.analysis import hints
from games.board import fragments
from games.forms import TableCreateForm
from games.live import boardcache
from games.models import Variant
from games.puzzles import selectors as puzzle_selectors
from games.tournaments.selectors import user_tournament_tables
from plumbing import answers, inputs

MAX_SEAT_INDEX = 4  # five seats at most (RULES B.1.1)


def home(request):
    # The turn-based games where it is the player's move (kept live over the lobby socket).
    daily = puzzle_selectors.daily_puzzle(timezone.localdate()) if request.user.is_authenticated else None
    return render(request, "home.html", {"your_moves": selectors.your_moves(user=request.user), "daily_puzzle": daily})


@login_required
def lobby(request):
    ctx = selectors.lobby_tables(user=request.user)
    ctx["form"] = TableCreateForm()
    ctx["my_tournament_tables"] = user_tournament_tables(request.user)
    ctx["fair_play_notice"] = guards.current().lobby_notice(user=request.user)
    template = "games/lobby.html#lobby-tables" if request.htmx else "games/lobby.html"
    return render(request, template, ctx)


@login_required
@require_POST
def table_create(request):
    if request.POST.get("quick") == "seat":
        # The lobby's "quick seat": a free seat at an open table of other players (never beside a
        # player one blocks or is blocked by).
        try:
            seat = services.seat_quick(user=request.user)
        except services.ActionRefused as exc:
            messages.error(request, exc.message)
            return redirect("games:lobby")
        if seat is None:
            messages.info(request, _("No open table has a free seat for you now: open a table of your own."))
            return redirect("games:lobby")
        return redirect("games:table", match_id=seat.match_id)
    if request.POST.get("quick"):
        # Home page "quick game": 3 seats, 2 bots, default rules, started at once.
        try:
            match = services.match_create(host=request.user, variant=Variant.MANIPULATION, seats_count=3, bots=2)
        except services.ActionRefused as exc:
            messages.error(request, exc.message)
            return redirect("games:lobby")
        services.match_start(match_id=match.pk, user=request.user)
        return redirect("games:table", match_id=match.pk)
    form = TableCreateForm(request.POST)
    if not form.is_valid():
        ctx = selectors.lobby_tables(user=request.user) | {"form": form, "form_open": True}
        return render(request, "games/lobby.html", ctx, status=400)
    data = form.cleaned_data
    try:
        match = services.match_create(
            host=request.user,
            variant=data["variant"],
            seats_count=data["seats"],
            options=form.rule_options(),
            turn_timer=data["turn_timer"],
            is_private=data["is_private"],
            bots=data["bots"],
            practice=data["practice"],
            move_time=data["move_time"],
        )
    except services.ActionRefused as exc:
        form.add_error(None, exc.message)
        ctx = selectors.lobby_tables(user=request.user) | {"form": form, "form_open": True}
        return render(request, "games/lobby.html", ctx, status=400)
    return redirect("games:table", match_id=match.pk)


@login_required
def table(request, match_id):
    invite = request.GET.get("invite")
    match = selectors.access_match_for_user(match_id=match_id, user=request.user, invite=invite)
    if invite:
        request.session[f"invite-{match.pk}"] = invite
    if request.htmx and request.GET.get("part") == "side":
        # The side panel alone, for who the viewer is now (a seat taken or left without a reload).
        me = selectors.seat_index_of(match_id=match.pk, user=request.user)
        return render(
            request,
            "games/table.html#table-side",
            {"match": match, "me": me is not None, **_chat_context(match, request.user)},
        )
    data = selectors.board_data(match)
    refusal = services.seat_refusal_shown(data.match, data.seats, request.user)
    board = fragments.board_for(data, request.user, request=request, seat_refusal=refusal)
    ctx = board.ctx
    ctx["board_html"] = board.html()
    if not request.htmx:
        ctx.update(_chat_context(match, request.user))
    ctx["invite"] = request.session.get(f"invite-{match.pk}", "")
    template = "games/table.html#table-board" if request.htmx else "games/table.html"
    return render(request, template, ctx)


def _chat_context(match, user) -> dict:
    """The side panel's chat for ``user``: the lines they see, whether they muted this table's chat,
    and why they may not post (a moderators' mute: ``games.guards``)."""
    policy = guards.current()
    return {
        "chat": selectors.chat_messages(match, user),
        "chat_muted": policy.chat_hidden_authors(viewer_id=user.pk, match_id=match.pk) is None,
        "chat_refusal": policy.chat_refusal(user=user),
    }


def _respond(request, match_id, error: Exception | None = None, status: int = 200):
    """After a command: htmx gets the fresh board (with the error for this player), others a redirect."""
    match = selectors.access_match_for_user(
        match_id=match_id, user=request.user, invite=request.session.get(f"invite-{match_id}")
    )
    if not request.htmx:
        if error is not None:
            messages.error(request, commands.error_text(error, match.variant))
        return redirect("games:table", match_id=match_id)
    data = boardcache.load(match)  # the pushes of this version to the other sockets here reuse this load
    board = fragments.board_for(
        data,
        request.user,
        request=request,
        error=commands.error_context(error, match.variant) if error is not None else None,
        seat_refusal=services.seat_refusal_shown(data.match, data.seats, request.user),
    )
    # A refusal (4xx) is the board with its reason: the page shows it (plumbing/answers.py).
    return answers.shown(
        render(
            request,
            "games/table.html#table-board",
            {"board_html": board.html(), "spec": board.ctx["spec"]},
            status=status,
        )
    )


def _server_busy(message: str) -> HttpResponse:
    """No database connection came in time: the reason in plain text (every page says it in a notice,
    static/js/site.js), and when to try again."""
    return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8", headers={"Retry-After": "1"})


def _command(request, match_id, service, **kwargs) -> HttpResponse:
    selectors.access_match_for_user(
        match_id=match_id, user=request.user, invite=request.session.get(f"invite-{match_id}")
    )
    try:
        services.with_retry(service, match_id=match_id, user=request.user, **kwargs)
    except services.StaleVersion as exc:
        return _respond(request, match_id, exc, status=409)
    except commands.REFUSALS as exc:
        code = getattr(exc, "code", "")
        if code == "server_busy":  # no database connection came: no board to render either
            return _server_busy(exc.message)
        status = 409 if code == "table_busy" else 400  # busy: like a stale version, try again
        return _respond(request, match_id, exc, status=status if request.htmx else 200)
    return _respond(request, match_id)


def _seat_number(request, match_id, *, required: bool):
    """The ``seat`` field as a seat index (ASCII digits, 0–4), None when absent and optional; or the
    refusal to answer with (a seat written "²" or "①" is refused here, not by ``int()``)."""
    value = request.POST.get("seat", "")
    if value == "" and not required:
        return None, None
    try:
        return inputs.parse_int(value, lo=0, hi=MAX_SEAT_INDEX), None
    except inputs.BadInput:
        return None, _respond(request, match_id, services.ActionRefused("bad_seat", _("Choose a seat.")), status=400)


@login_required
@require_POST
def table_join(request, match_id):
    index, refused = _seat_number(request, match_id, required=False)
    if refused:
        return refused
    return _command(
        request,
        match_id,
        services.seat_join,
        index=index,
        invite_token=request.session.get(f"invite-{match_id}") or request.POST.get("invite"),
    )


@login_required
@require_POST
def table_leave(request, match_id):
    return _command(request, match_id, services.seat_leave)


@login_required
@require_POST
def table_add_bot(request, match_id):
    index, refused = _seat_number(request, match_id, required=False)
    if refused:
        return refused
    return _command(request, match_id, services.seat_add_bot, index=index, policy=request.POST.get("policy", "basic"))


@login_required
@require_POST
def table_remove_bot(request, match_id):
    index, refused = _seat_number(request, match_id, required=True)
    if refused:
        return refused
    return _command(request, match_id, services.seat_remove_bot, index=index)


@login_required
@require_POST
def table_start(request, match_id):
    return _command(request, match_id, services.match_start)


def _form_command(request, match_id, kind: str) -> HttpResponse:
    """A move as a form POST: the one edge of every move (``commands.carry_out``); this only turns its
    outcome into a response (its status from ``commands.STATUS``)."""
    size = len(request.body)
    fields = {} if size > commands.MAX_COMMAND else dict(request.POST.items())
    fields.pop("csrfmiddlewaretoken", None)
    outcome = commands.carry_out(
        kind,
        fields,
        match_id=match_id,
        user=request.user,
        invite=request.session.get(f"invite-{match_id}"),
        size=size,
    )
    if outcome.code == "server_busy":  # no database connection came: no board to render either
        return _server_busy(outcome.refusal.message)
    return _respond(request, match_id, outcome.refusal, status=outcome.status if request.htmx else 200)


@login_required
@require_POST
def table_act(request, match_id):
    return _form_command(request, match_id, "act")


@login_required
@require_POST
def table_draft(request, match_id):
    return _form_command(request, match_id, "draft")


@login_required
@require_POST
def table_typed(request, match_id):
    """A typed command as a form POST (the command line without a socket): the same edge
    (``commands.carry_out``, kind "typed"); htmx gets the board and the answer for the live region."""
    size = len(request.body)
    fields = {} if size > commands.MAX_COMMAND else {"text": request.POST.get("text", "")}
    outcome = commands.carry_out(
        "typed",
        fields,
        match_id=match_id,
        user=request.user,
        invite=request.session.get(f"invite-{match_id}"),
        size=size,
    )
    answer = outcome.answer or getattr(outcome.refusal, "message", "")
    if not request.htmx:
        if answer:
            messages.info(request, answer)
        return redirect("games:table", match_id=match_id)
    board = _respond(request, match_id)
    reply = render_to_string("games/table.html#typed-answer", {"answer": answer, "oob": True}, request=request)
    return HttpResponse(board.content.decode() + reply, status=200)


@login_required
@require_POST
def table_ready(request, match_id):
    return _command(request, match_id, services.round_ready)


@login_required
@require_POST
def table_chat(request, match_id):
    match = selectors.access_match_for_user(
        match_id=match_id, user=request.user, invite=request.session.get(f"invite-{match_id}")
    )
    try:
        services.with_retry(
            services.chat_post, match_id=match_id, user=request.user, text=request.POST.get("text", "")[:2000]
        )
    except services.ActionRefused as exc:
        if request.htmx and exc.code == "chat_muted":
            # A moderators' mute that came after the page was drawn: the notice takes the form's place.
            return answers.shown(
                render(request, "games/table.html#chat-refusal", {"chat_refusal": exc.message}, status=403)
            )
        if request.htmx:
            return answers.shown(
                render(
                    request,
                    "games/table.html#chat-form",
                    {"match": match, "chat_error": exc.message, "chat_error_code": exc.code},
                    status=400,
                )
            )
        messages.error(request, exc.message)
        return redirect("games:table", match_id=match_id)
    if request.htmx:
        return render(request, "games/table.html#chat-form", {"match": match})
    return redirect("games:table", match_id=match_id)


@login_required
@require_POST
async def table_hint(request, match_id):
    """A practice hint (games.analysis.hints): bounded, and worked out off the thread the requests'
    database work queues on, so a search never holds the other requests."""
    user = await request.auser()
    ctx: dict = {}
    status = 200
    try:
        ctx["hint"] = await database_sync_to_async(hints.hint_for, thread_sensitive=False)(match_id=match_id, user=user)
    except hints.HintRefused as exc:
        ctx["refused"], status = exc, exc.status
    return HttpResponse(render_to_string("games/analysis/hint.html", ctx), status=status)


@login_required
@require_POST
def table_rematch(request, match_id):
    selectors.access_match_for_user(match_id=match_id, user=request.user)
    try:
        new = services.with_retry(services.match_rematch, match_id=match_id, user=request.user)
    except services.ActionRefused as exc:
        return _respond(request, match_id, exc, status=400)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = new.get_absolute_url() if hasattr(new, "get_absolute_url") else f"/tables/{new.pk}/"
        return response
    return redirect("games:table", match_id=new.pk)
