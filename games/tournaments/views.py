"""Public tournament pages: the list, one tournament (live standings), registering and withdrawing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from games.tournaments import deals, selectors, services


def tournament_list(request):
    context = {**selectors.tournament_lists(), "my_tables": selectors.user_tournament_tables(request.user)}
    return render(request, "games/tournaments/list.html", context)


def tournament_detail(request, tournament_id: int):
    tournament = selectors.get_tournament(tournament_id)
    if tournament is None:
        raise Http404
    context = selectors.tournament_page(tournament, request.user)
    if request.htmx:
        return render(request, "games/tournaments/detail.html#standings", context)
    return render(request, "games/tournaments/detail.html", context)


def tournament_deals(request, tournament_id: int, number: int):
    """A closed duplicate round, deal by deal (the tournament page loads it into its "Deal by deal")."""
    tournament = selectors.get_tournament(tournament_id)
    cmp = deals.comparison(tournament, number, request.user) if tournament is not None else None
    if cmp is None:
        raise Http404
    context = {"tournament": tournament, "cmp": cmp}
    if request.htmx:
        return render(request, "games/tournaments/duplicate.html#comparison", context)
    return render(request, "games/tournaments/deals.html", context)


@require_POST
@login_required
def tournament_register(request, tournament_id: int):
    return _entry_action(request, tournament_id, services.entry_register)


@require_POST
@login_required
def tournament_withdraw(request, tournament_id: int):
    return _entry_action(request, tournament_id, services.entry_withdraw)


def _entry_action(request, tournament_id: int, service):
    tournament = selectors.get_tournament(tournament_id)
    if tournament is None:
        raise Http404
    error = None
    try:
        service(tournament_id=tournament.pk, user=request.user)
    except services.ActionRefused as exc:
        error = exc.message
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("tournaments:detail", tournament_id=tournament.pk)
    # The form's own block, and the entrants and standings it changed (out of band).
    context = {**selectors.tournament_page(tournament, request.user), "registration_error": error, "oob": True}
    return HttpResponse(
        "".join(
            render_to_string(f"games/tournaments/detail.html#{name}", context, request=request)
            for name in ("registration", "entrants", "standings")
        )
    )
