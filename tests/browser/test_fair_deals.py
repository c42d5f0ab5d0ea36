"""The browser's deal verifier (static/js/verify.js, issue 17 §1): in Chromium it reproduces the worked
example of docs/fairness.md, and "Verify the deal" on a match page accepts a real match and marks a
round whose record has one card changed (or another commitment) as a mismatch."""

from __future__ import annotations

import copy

import pytest
from playwright.sync_api import expect

from games.history.export import match_record
from games.models import MatchStatus
from plumbing import realtime
from tests.engine.test_shuffle import vector
from tests.games.history.support import play_match

pytestmark = pytest.mark.django_db(transaction=True)

OK = "OK: the seed gives the commitment and the cards that were dealt"
BAD_DEAL = "Mismatch: the seed does not deal the cards that were played"
BAD_COMMITMENT = "Mismatch: the seed does not give the commitment shown at the table"

EXAMPLE = """async (v) => {
  const F = window.RummyFair, seed = v["seed"];
  const out = {};
  out.commitment = await F.commitment(seed, +v["match id"], +v["round"], v["shuffle"]);
  let s = await F.stream(seed);
  out.draws = [];
  for (let i = 0; i < 8; i++) out.draws.push(await s.nextU32());
  s = await F.stream(seed);
  out.below52 = await s.below(52);
  out.belowBig = await s.below(3221225472);
  out.taken = s.counter();
  const gin = await F.deal(seed, {packs: 1, jokers: 0, hands: [[], []], order: [1, 0], hand_size: 10, upcard: "?"});
  out.gin = gin;
  out.manipulation = await F.deal(seed, {packs: 2, jokers: 2, hands: [[], [], []], order: [1, 2, 0], hand_size: 10,
                                         dealer_drawn: true});
  out.deck = F.deckIds(2, 2);
  return out;
}"""


@pytest.fixture
def finished(settings, monkeypatch, make_user):
    # Played at service level: nobody listens to its broadcasts (and the sync Playwright loop forbids them).
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    match = play_match(make_user("alice"), settings=settings, seed="3", seats=3, bots=2, game_target=60)
    assert match.status == MatchStatus.FINISHED and match.round_number >= 2
    return match


def test_the_browser_verifier_reproduces_the_documented_example(page, live_daphne, finished):
    page.goto(f"{live_daphne.url}/matches/{finished.pk}/")
    page.wait_for_function("() => window.RummyFair !== undefined")
    v = vector()
    got = page.evaluate(EXAMPLE, v)
    assert got["commitment"] == v["commitment"]
    assert got["draws"] == [int(x) for x in v["draws 0-7"].split()]
    assert got["below52"] == int(v["below(52) from draw 0"])
    assert got["belowBig"] == int(v["below(3221225472) next"].split()[0]) and got["taken"] == int(v["draws taken"])
    for pair in v["deck before the shuffle, 2 packs, 2 jokers"].split():
        position, card = pair.split("=")
        assert got["deck"][int(position)] == card
    prefix = "gin deal, order 1 0, 10 cards each, "
    assert got["gin"]["hands"][0] == v[prefix + "seat 0"].split()
    assert got["gin"]["hands"][1] == v[prefix + "seat 1"].split()
    assert got["gin"]["upcard"] == v[prefix + "upcard"]
    assert got["gin"]["stock"][:5] == v[prefix + "stock top"].split()
    pack = v["shuffled pack (1 pack, 0 jokers)"].split()
    assert [
        *[c for pair in zip(got["gin"]["hands"][1], got["gin"]["hands"][0], strict=True) for c in pair],
        got["gin"]["upcard"],
        *got["gin"]["stock"],
    ] == pack
    manipulation = got["manipulation"]
    assert manipulation["dealer"] == int(v["manipulation deal, 3 seats, 2 packs, 2 jokers, dealer drawn"])
    prefix = "manipulation deal, order 1 2 0, 10 cards each, "
    for seat in range(3):
        assert manipulation["hands"][seat] == v[prefix + f"seat {seat}"].split()
    count, top = v[prefix + "stock"].split(" cards, top: ")
    assert len(manipulation["stock"]) == int(count) and manipulation["stock"][:5] == top.split()


def results(page) -> list[str]:
    return [cell.strip() for cell in page.locator("#deal-check [data-verify-result]").all_inner_texts()]


def test_verify_the_deal_accepts_the_match_and_marks_a_changed_card(page, live_daphne, artifacts, finished):
    rounds = finished.round_number
    page.goto(f"{live_daphne.url}/matches/{finished.pk}/")
    section = page.locator("#deal-check")
    expect(section.get_by_role("heading", name="The deals")).to_be_visible()
    expect(section.locator("tbody tr")).to_have_count(rounds)
    section.get_by_role("button", name="Verify the deal").click()
    expect(section.locator("[data-verify-summary]")).to_have_text("Every revealed deal checks out.")
    assert results(page) == [OK] * rounds
    page.screenshot(path=str(artifacts / "fair-deals-ok.png"), full_page=True)

    # The same page, served a record with one card of round 2's deal changed (and round 1's commitment).
    forged = copy.deepcopy(match_record(finished))
    deal = forged["rounds"][1]["deal"]
    deal["hands"][0][0], deal["stock"][0] = deal["stock"][0], deal["hands"][0][0]
    forged["rounds"][0]["commitment"] = "f" * 64
    page.route(f"**/matches/{finished.pk}/export.json", lambda route: route.fulfill(json=forged))
    page.reload()
    button = page.locator("#deal-check").get_by_role("button", name="Verify the deal")
    button.focus()
    page.keyboard.press("Enter")  # the keyboard works as the mouse does
    expect(page.locator("#deal-check [data-verify-summary]")).to_have_text(
        "A deal does not check out: see the rounds marked “Mismatch”."
    )
    assert results(page) == [BAD_COMMITMENT, BAD_DEAL] + [OK] * (rounds - 2)
    assert page.locator('#deal-check [data-status="bad-deal"]').count() == 1
    page.screenshot(path=str(artifacts / "fair-deals-mismatch.png"), full_page=True)
