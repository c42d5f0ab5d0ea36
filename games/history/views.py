"""History pages: the match list, a match, its replay, its export, the leaderboard.

Reads only (selectors); htmx requests get the page's named partial.
"""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.history import ratings, selectors
from games.history.export import match_record
from games.history.forms import HistoryFilterForm
from games.models import MatchStatus, Variant


def _partial(request) -> bool:
    """An htmx swap gets the partial; a history restore (back button, cache miss) needs the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


@require_GET
def history_list(request):
    form = HistoryFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    ctx = {"form": form, **selectors.history_page(user=request.user, filters=filters, page=request.GET.get("page"))}
    query = request.GET.copy()
    query.pop("page", None)
    ctx["query"] = query.urlencode()
    if _partial(request):
        return render(request, "games/history/list.html#history-results", ctx)
    return render(request, "games/history/list.html", ctx)


@require_GET
def player_suggest(request):
    names = selectors.player_suggestions(prefix=request.GET.get("player", ""))
    return render(request, "games/history/list.html#player-options", {"suggestions": names})


@require_GET
def match_detail(request, match_id: int):
    match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    ctx = selectors.match_detail(match=match)
    ctx["viewer_seated"] = request.user.is_authenticated and any(s.user_id == request.user.pk for s in ctx["seats"])
    if _partial(request):
        return render(request, "games/history/match.html#match-record", ctx)
    return render(request, "games/history/match.html", ctx)


@require_GET
def match_analysis(request, match_id: int):
    """The match page's analysis panel alone (polled by htmx while the analysis runs)."""
    match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    ctx = {"match": match, "analysis": selectors.match_analysis(match=match, seats=selectors.seat_rows(match))}
    return render(request, "games/analysis/match_panel.html#analysis-panel", ctx)


@require_GET
def match_replay(request, match_id: int):
    match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    if match.status != MatchStatus.FINISHED:
        return render(request, "games/history/replay.html", {"match": match, "unavailable": True})
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    ctx = {"match": match, "r": selectors.replay_step(match=match, step=step)}
    if _partial(request):
        return render(request, "games/history/replay.html#replay-step", ctx)
    return render(request, "games/history/replay.html", ctx)


@require_GET
def match_export(request, match_id: int):
    match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    response = JsonResponse(match_record(match), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="rummyhub-match-{match.pk}.json"'
    return response


@require_GET
def leaderboard(request):
    variant = request.GET.get("variant") or Variant.MANIPULATION
    if variant not in Variant.values:
        raise Http404
    ctx = {
        "variant": variant,
        "variants": Variant.choices,
        "rows": selectors.leaderboard(variant=variant),
        "start": ratings.SHOWN_START,
    }
    if _partial(request):
        return render(request, "games/history/leaderboard.html#leaderboard-table", ctx)
    return render(request, "games/history/leaderboard.html", ctx)
