"""The analysis on the pages: the match page's panel (progress while queued or running, polled; the
summary and the missed plays once done), the replay's step with its rearrangement, the player's page."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.analysis import services
from games.analysis.hints import HintRefused
from games.analysis.models import AnalysisStatus, MatchAnalysis
from games.analysis.selectors import card_in_text, diff_view
from games.engine.analysis import manipulation as manip_analysis
from tests.engine.manipulation.helpers import make_state
from tests.games.analysis.support import DeclineOneMeldStepPerRound, NeverKnock, play_with_mistakes
from tests.games.test_every_string_marked import plain_words, pseudo  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice, settings, sent):
    return play_with_mistakes(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 30}
    )


def panel(client, match):
    return client.get(reverse("history:analysis", args=[match.pk])).content.decode()


def test_the_panel_shows_the_progress_and_polls_until_the_result(client, played):
    match, mistakes = played
    page = client.get(reverse("history:match", args=[match.pk])).content.decode()
    assert 'id="match-analysis"' in page and 'data-state="queued"' in page
    assert f'hx-get="{reverse("history:analysis", args=[match.pk])}"' in page and 'hx-trigger="every 2s"' in page

    services.analysis_request(match_id=match.pk)
    row = services.claim_next()
    MatchAnalysis.objects.filter(pk=row.pk).update(progress=12, total=48)
    html = panel(client, match)
    assert 'data-state="running"' in html and "Analysing the moves: 12 of 48" in html and 'value="25"' in html
    assert 'hx-trigger="every 2s"' in html

    services.analyse(row)
    html = panel(client, match)
    assert 'data-state="done"' in html and "hx-trigger" not in html
    assert "Best-play rate" in html and "Cards missed" in html
    links = re.findall(r'replay/\?step=(\d+)"', html)
    steps = {s["step"] for s in MatchAnalysis.objects.get(pk=row.pk).steps if s["missed"]}
    assert {int(x) for x in links} == steps and len(links) >= len(mistakes)


def test_a_failed_analysis_tells_no_details(client, played):
    match, _ = played
    services.analysis_request(match_id=match.pk)
    MatchAnalysis.objects.filter(match=match).update(status=AnalysisStatus.FAILED, error="Traceback: secret")
    html = panel(client, match)
    assert 'data-state="failed"' in html and "secret" not in html and "hx-trigger" not in html


def test_the_replay_shows_a_missed_play_with_its_rearrangement(client, played):
    match, mistakes = played
    row = services.analyse_match(match_id=match.pk)
    missed = sorted((s for s in row.steps if s["missed"] and s["seat"] == 0), key=lambda s: s["step"])
    first = missed[0]
    html = client.get(reverse("history:replay", args=[match.pk]), {"step": 0}).content.decode()
    assert (
        f'data-missed-nav="next" href="/matches/{match.pk}/replay/?step={min(s["step"] for s in row.steps if s["missed"])}"'
        in html
    )
    html = client.get(reverse("history:replay", args=[match.pk]), {"step": first["step"]}).content.decode()
    assert "A better play was possible" in html and "The table before this step" in html
    for laid in first["best"]["laid"]:
        assert f"meld {laid['to']}.</li>" in html
    assert f'<td class="num">{first["best_cards"]}</td><td class="num">{first["best_points"]}</td>' in html
    # a step the analysis weighed as the best
    best = next(s for s in row.steps if not s["missed"] and s["status"] == "ok" and s["best_cards"])
    html = client.get(reverse("history:replay", args=[match.pk]), {"step": best["step"]}).content.decode()
    assert "nothing better was possible" in html


def test_the_player_page_sums_the_analysed_matches(client, alice, played):
    match, mistakes = played
    services.analyse_match(match_id=match.pk)
    html = client.get(reverse("profile", args=["alice"])).content.decode()
    assert "Analysis of their play" in html
    row = re.search(r'<table class="history-table stats-table analysis-stats">.*?</table>', html, re.S).group(0)
    cells = re.findall(r'<td class="num">([^<]*)</td>', row)
    assert cells[0] == "1"  # one match analysed


def test_gin_pages(client, alice, settings, sent):
    match, mistakes = play_with_mistakes(
        alice, settings=settings, policy=NeverKnock(), variant="gin", seed="3", options={"game_target": 40}
    )
    row = services.analyse_match(match_id=match.pk)
    html = panel(client, match)
    assert "Knocks missed" in html
    step = next(s for s in row.steps if s["missed_knock"])
    html = client.get(reverse("history:replay", args=[match.pk]), {"step": step["step"]}).content.decode()
    assert "A knock was possible" in html


def test_a_private_match_analysis_stays_private(client, bob, alice, settings, sent):
    match, _ = play_with_mistakes(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 30}
    )
    match.is_private = True
    match.save(update_fields=["is_private"])
    client.force_login(bob)
    assert client.get(reverse("history:analysis", args=[match.pk])).status_code == 404


def test_the_analysis_pages_are_all_marked_for_translation(pseudo, played):  # noqa: F811 (the fixture)
    """In pseudo-Corsican (every message in fullwidth letters: games/test_every_string_marked.py), the
    panel, a replay step with a missed play and a best one, and the player's page show no plain English."""
    match, _ = played
    row = services.analyse_match(match_id=match.pk)
    missed = next(s for s in row.steps if s["missed"])
    best = next(s for s in row.steps if not s["missed"] and s["status"] == "ok")
    for url in (
        reverse("history:analysis", args=[match.pk]),
        reverse("history:replay", args=[match.pk]) + f"?step={missed['step']}",
        reverse("history:replay", args=[match.pk]) + f"?step={best['step']}",
        reverse("profile", args=["alice"]),
    ):
        page = pseudo.get(url).content.decode()
        assert 'id="match-analysis"' in page or 'id="analysis-step"' in page or "analysis-stats" in page
        assert plain_words(page) == [], url


def test_the_hints_are_all_marked_for_translation(pseudo):  # noqa: F811 (the fixture)
    s = make_state(["6H.0 6D.0 JK.0 KC.0", "2C.0 5H.0"], table=["3S.0 4S.0 5S.0 6S.0"], stock="3C.0")
    found = manip_analysis.hint(s, 0, max_states=10_000)
    with translation.override("co"):  # the words are made in the reader's language, as the view makes them
        hints = [
            {
                "family": "manipulation",
                "version": 1,
                "cards": found["cards"],
                "points": found["points"],
                "diff": diff_view(found["diff"]),
            },
            {"family": "manipulation", "version": 1, "cards": 0, "points": 0, "diff": None},
            {"family": "manipulation", "version": 1, "too_big": True},
            *(
                {"family": "gin", "version": 1, "kind": kind, "card": card_in_text(card), "deadwood": 3}
                for kind, card in (("gin", "KD.0"), ("gin", None), ("knock", "KD.0"), ("discard", "KD.0"))
            ),
        ]
        for hint in hints:
            assert plain_words(render_to_string("games/analysis/hint.html", {"hint": hint})) == [], hint
        refused = HintRefused("no_hint_now", "", 409)
        assert plain_words(render_to_string("games/analysis/hint.html", {"refused": refused})) == []
