"""Fair play's pages: report a player or a chat line, block or unblock, mute a table's chat, and a
player's own fair-play page.  Every id is parsed by plumbing.inputs; every action is rate limited."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from fairplay import selectors, services
from fairplay.forms import ReportForm
from games.models import ChatMessage
from plumbing import inputs

MAX_ID = 2**62


def _id(request, name: str) -> int | None:
    """An id field of the query or the form (ASCII digits), None when absent; BadInput when forged."""
    value = request.POST.get(name, request.GET.get(name, ""))
    if value == "":
        return None
    return inputs.parse_int(value, lo=1, hi=MAX_ID)


def _back(request, fallback: str):
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(fallback)


@login_required
def report(request):
    """Report a chat line (``message``), a player of a shared match (``match`` + ``player``) or a
    player (``player``, from a profile)."""
    try:
        message_id, match_id, player_id = _id(request, "message"), _id(request, "match"), _id(request, "player")
    except inputs.BadInput as exc:
        return render(request, "fairplay/report.html", {"refusal": exc.message}, status=400)
    line = ChatMessage.objects.select_related("user").filter(pk=message_id).first() if message_id else None
    target = line.user if line else get_user_model().objects.filter(pk=player_id, is_active=True).first()
    ctx = {"line": line, "target": target, "match_id": match_id, "message_id": message_id, "player_id": player_id}
    if target is None:
        return render(request, "fairplay/report.html", ctx | {"refusal": _("There is no such player.")}, status=404)
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.report_create(
                reporter=request.user,
                reason=form.cleaned_data["reason"],
                details=form.cleaned_data["details"],
                reported_id=target.pk,
                match_id=match_id,
                message_id=message_id,
            )
        except services.Refused as exc:
            status = 429 if exc.code == "rate_limited" else 400
            return render(request, "fairplay/report.html", ctx | {"form": form, "refusal": exc.message}, status=status)
        messages.success(
            request, _("Thank you. The moderators will look at your report; you will see here when it is handled.")
        )
        return redirect("fairplay:standing")
    return render(
        request, "fairplay/report.html", ctx | {"form": form}, status=400 if request.method == "POST" else 200
    )


@login_required
@require_POST
def block(request, user_id: int):
    if user_id > MAX_ID:
        raise Http404
    blocked = request.POST.get("blocked", "1") != "0"
    target = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    try:
        services.block_set(user=request.user, target_id=user_id, blocked=blocked)
    except services.Refused as exc:
        messages.error(request, exc.message)
        return redirect("profile", target.username) if target else redirect("fairplay:standing")
    if blocked:
        messages.success(
            request, _("Blocked. You will not be seated together, and you will not see each other's chat.")
        )
    else:
        messages.success(request, _("Unblocked."))
    return _back(request, "fairplay:standing")


@login_required
@require_POST
def table_mute(request, match_id: int):
    if match_id > MAX_ID:
        raise Http404
    muted = request.POST.get("muted", "1") != "0"
    try:
        services.table_mute_set(user=request.user, match_id=match_id, muted=muted)
    except services.Refused as exc:
        messages.error(request, exc.message)
    return redirect("games:table", match_id=match_id)


@login_required
def standing(request):
    """The player's own fair-play page: sanctions, their reports (handled or not), the players they block."""
    ctx = selectors.own_standing(user=request.user)
    services.reports_told(user=request.user)
    return render(request, "fairplay/standing.html", ctx)


def rules(request):
    """The fair-play rules as they are set: the abandon rule's window, warning and bars."""
    ctx = {
        "window_days": settings.RUMMYHUB_ABANDON_WINDOW_DAYS,
        "warn_at": settings.RUMMYHUB_ABANDON_WARN_AT,
        "bars": [
            (settings.RUMMYHUB_ABANDON_WARN_AT + 1 + i, hours)
            for i, hours in enumerate(settings.RUMMYHUB_ABANDON_BAR_HOURS)
        ],
    }
    return render(request, "fairplay/rules.html", ctx)
