"""axe-core (from npm, node_modules/axe-core) on the table page of both games while a hand is being
played (issue 15, "What it must show" 3): no violations, the experimental rules included (a card
button's accessible name must contain its visible text)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Match
from tests.browser.conftest import wait_live
from tests.browser.test_gin_journey import seed_for
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

RUN = """async () => {
  const r = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
    "wcag22aa", "best-practice", "experimental"]}, resultTypes: ["violations"]});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 12).map(n => n.target.join(" ") + " :: " + n.failureSummary.split("\\n").slice(1, 2).join(""))}));
}"""


def violations(browser, live_daphne, user, match_id, shot, artifacts):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_cookies([{"name": "sessionid", "value": session_cookie_for(user), "url": live_daphne.url}])
    page = context.new_page()
    page.goto(f"{live_daphne.url}/tables/{match_id}/")
    expect(page.locator("#table-board")).to_have_attribute("data-status", "playing")
    expect(page.locator("#hand .card, #gin-hand .card").first).to_be_visible()
    wait_live(page)  # the socket's opening frame is in (no push of it still to come)
    # The final look, not a frame of a fade-in (the draw for roles): the finite CSS animations have ended
    # (the timer's bar is a transition restarted every half second).
    page.wait_for_function(
        "() => document.getAnimations().every(a => !(a instanceof CSSAnimation)"
        " || a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)",
        timeout=10000,
    )
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN)
    page.screenshot(path=str(artifacts / shot))
    context.close()
    return found


def test_axe_finds_nothing_on_a_manipulation_table(browser, live_daphne, artifacts, make_user):
    assert AXE.exists(), "axe-core is missing: run `npm ci` (make setup-dev does)"
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=2)
    services.match_start(match_id=match.pk, user=alice)
    found = violations(browser, live_daphne, alice, match.pk, "a11y-manipulation.png", artifacts)
    assert not found, "axe-core: " + json.dumps(found, indent=1, ensure_ascii=False)


def test_axe_finds_nothing_on_a_gin_table(browser, live_daphne, artifacts, make_user):
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    Match.objects.filter(pk=match.pk).update(seed=seed_for(captain=0))
    services.match_start(match_id=match.pk, user=alice)
    found = violations(browser, live_daphne, alice, match.pk, "a11y-gin.png", artifacts)
    assert not found, "axe-core: " + json.dumps(found, indent=1, ensure_ascii=False)
