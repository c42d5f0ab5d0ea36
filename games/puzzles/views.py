"""The puzzle pages (signed-in players only): the list (rating, streak, themes, the daily puzzle), a
puzzle's board (the game's own fragments), its draft (Manipulation: every drag checked by the engine),
and the answer (the verdict at once, the solution on a miss, the rating change)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine.errors import RulesError
from games.puzzles import boards, selectors, services
from games.puzzles.selectors import THEMES
from plumbing import answers, inputs

DRAFTS = "puzzle-drafts"  # the session's drafts, by puzzle id (the page may be reloaded mid-draft)
THEME = "puzzle-theme"  # the theme chosen for "Next puzzle" (none: any theme)


def _index_context(request, theme: str) -> dict:
    return {
        "mine": selectors.player_rating(request.user),
        "themes": selectors.theme_choices(),
        "theme": theme,
        "daily": selectors.daily_puzzle(timezone.localdate()),
    }


@login_required
def puzzle_index(request):
    theme = request.GET.get("theme") or ""
    return render(request, "games/puzzles/index.html", _index_context(request, theme if theme in THEMES else ""))


@login_required
def puzzle_next(request):
    theme = request.GET.get("theme") or ""
    theme = theme if theme in THEMES else ""
    if theme:
        request.session[THEME] = theme  # the next puzzle after this one is of the same theme
    else:
        request.session.pop(THEME, None)
    puzzle = selectors.next_puzzle(request.user, theme=theme or None)
    if puzzle is not None:
        return redirect("puzzles:play", pk=puzzle.pk)
    # None to give: the whole puzzles page (the other themes, the daily puzzle), saying why.
    context = _index_context(request, theme)
    context["none_left"] = _none_left(theme)
    return render(request, "games/puzzles/index.html", context)


def _none_left(theme: str) -> str:
    """Why "Next puzzle" has nothing for this player (of ``theme`` when one was chosen)."""
    if not selectors.puzzles_exist():
        return _("There are no puzzles yet. They are made from positions of finished games: play a game and come back.")
    if not theme:
        return _("No puzzle left for you here: you have answered them all. New ones come from every finished game.")
    label = THEMES[theme]
    if selectors.puzzles_exist(theme=theme):
        # Translators: %(theme)s is a puzzle theme's name ("High card").
        return _(
            "You have answered every puzzle of the theme “%(theme)s”. Choose another theme, or take the next "
            "puzzle of any theme."
        ) % {"theme": label}
    # Translators: %(theme)s is a puzzle theme's name ("High card").
    return _(
        "There is no puzzle of the theme “%(theme)s” yet. Choose another theme, or take the next puzzle of any theme."
    ) % {"theme": label}


def _puzzle(pk) -> object:
    try:
        puzzle = selectors.puzzle_by_id(inputs.parse_int(pk, lo=1, hi=2**31 - 1))
    except inputs.BadInput:
        puzzle = None
    if puzzle is None:
        raise Http404(_("No such puzzle."))
    return puzzle


def _draft(request, puzzle):
    return (request.session.get(DRAFTS) or {}).get(str(puzzle.pk))


def _context(request, puzzle, *, verdict=None, error=None, by_rank=False):
    attempt = selectors.attempt_of(request.user, puzzle)
    context = {
        "puzzle": puzzle,
        "themes": selectors.theme_labels(puzzle),
        "attempt": attempt,
        "verdict": verdict,
        "error": error,
        "mine": selectors.player_rating(request.user),
        "source": selectors.source_match_id(puzzle) if attempt else None,
        "solution": boards.solution(puzzle) if attempt and not attempt.solved else None,
        "act_url": reverse("puzzles:answer", args=[puzzle.pk]),
    }
    theme = request.session.get(THEME, "")
    if theme in THEMES:
        context["next_theme"], context["next_theme_label"] = theme, THEMES[theme]
    if puzzle.family == "manipulation":
        # once answered: the arrangement the player submitted, no longer movable
        shown = (attempt.answer or {}).get("table") if attempt else _draft(request, puzzle)
        context.update(boards.manipulation_board(puzzle, shown))
        context["can_meld"] = attempt is None
    else:
        context.update(boards.gin_board(puzzle, answered=attempt is not None, by_rank=by_rank))
    return context


def _board(request, puzzle, *, status=200, **kw):
    template = "games/puzzles/play.html" + ("#table-board" if request.htmx else "")
    # A refusal (4xx) is the board with its reason: the page shows it (plumbing/answers.py).
    return answers.shown(render(request, template, _context(request, puzzle, **kw), status=status))


@login_required
def puzzle_play(request, pk):
    return _board(request, _puzzle(pk))


@login_required
@require_POST
def puzzle_draft(request, pk):
    """A Manipulation draft (the arrangement shown after a drag), checked by the engine, kept in the session."""
    puzzle = _puzzle(pk)
    try:
        table = boards.parse_draft(puzzle, request.POST.get("table", ""))
    except inputs.BadInput as exc:
        return _board(request, puzzle, status=400, error={"code": exc.code, "message": exc.message})
    drafts = request.session.get(DRAFTS) or {}
    drafts = {k: v for k, v in drafts.items() if k != str(puzzle.pk)} | {str(puzzle.pk): table}
    request.session[DRAFTS] = dict(list(drafts.items())[-20:])
    return _board(request, puzzle)


def _already_answered(request, puzzle):
    error = {"code": "already_answered", "message": _("You have answered this puzzle already.")}
    return _board(request, puzzle, status=409, error=error)


@login_required
@require_POST
def puzzle_answer(request, pk):
    """The answer: Manipulation's arrangement (``table`` JSON, else the draft shown), a Gin discard
    (``action=discard``, ``card``), a knock or a wait (``action=knock`` / ``wait``)."""
    puzzle = _puzzle(pk)
    if selectors.attempt_of(request.user, puzzle) is not None and request.POST.get("action") != "sort":
        return _already_answered(request, puzzle)
    try:
        answer = boards.parse_answer(puzzle, request.POST, _draft(request, puzzle))
        if answer["action"] == "sort":  # the hand's order (a button, a drag inside the hand): not kept
            return _board(request, puzzle, by_rank=answer["mode"] == "rank")
        report = boards.check(puzzle, answer)
        if not report["valid"]:  # the engine's own refusal (a forged card, an invalid meld): not rated
            raise inputs.BadInput(*boards.refusal(report))
    except inputs.BadInput as exc:
        return _board(request, puzzle, status=400, error={"code": exc.code, "message": exc.message})
    except RulesError:  # never seen: the engine refused what the checks above let through
        return _board(
            request, puzzle, status=400, error={"code": "bad_answer", "message": _("That answer is not valid.")}
        )
    try:
        verdict = services.puzzle_answer(puzzle_id=puzzle.pk, user=request.user, solved=report["solved"], answer=answer)
    except services.AlreadyAnswered:  # the same answer twice at once: the second lost the race
        return _already_answered(request, puzzle)
    if not request.htmx:
        return redirect("puzzles:play", pk=puzzle.pk)
    return _board(request, verdict.puzzle, verdict=verdict)
