"""Browser tests: Playwright driving Debian's Chromium against a live daphne server.

Run them in their own pytest invocation (`pytest -m e2e`): after a
sync-Playwright test, async tests in the same session fail (STACK.md).  They run in parallel
(`-n <cores>`, as `make test` does): each xdist process has its own test database (pytest-django),
Redis prefix (settings.REDIS_PREFIX), daphne server on a free port (``live_daphne``) and Chromium.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from games.engine import manipulation as manip
from games.engine.melds import classify
from games.models import Match
from tests.live import LiveDaphne, session_cookie_for

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CHROMIUM = "/usr/bin/chromium"

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


# The live server's settings (tests/live.py), for the session's server and for a test's own.
LIVE_SETTINGS = {
    "RUMMYHUB_BOT_DELAY": 0.05,
    "RUMMYHUB_CLOCK": True,
    "RUMMYHUB_CLOCK_INTERVAL": 0.05,
    "RUMMYHUB_FIXED_SEED": "42",
    # The journeys log in some sixty times from one address within minutes; the limits
    # themselves are tested in tests/accounts/test_ratelimit.py.
    "RUMMYHUB_LOGIN_LIMIT_ADDRESS": "1000/15m",
    "RUMMYHUB_LOGIN_LIMIT_ACCOUNT": "1000/15m",
}


@pytest.fixture(scope="session")
def live_daphne(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), LiveDaphne(settings_overrides=LIVE_SETTINGS) as server:
        yield server


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def drag(page, source, target, steps: int = 12, *, rest: bool = False) -> None:
    """Drag with real mouse moves (SortableJS runs in fallback mode, as on touch screens).

    ``rest``: hover over the target a moment before the drop, as a hand does (SortableJS checks
    what is under the pointer only every few tens of ms: a drop at once may land before it looked).
    """
    source.wait_for(state="visible")
    target.wait_for(state="visible")
    page.wait_for_timeout(150)  # let a pushed board settle before grabbing the card
    a, b = source.bounding_box(), target.bounding_box()
    for _ in range(40):  # None while a board pushed meanwhile is swapped in (seen on a loaded machine): ask again
        if a is not None and b is not None:
            break
        page.wait_for_timeout(50)
        a, b = source.bounding_box(), target.bounding_box()
    assert a is not None and b is not None, "the drag's source or target is not on the page"
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        page.wait_for_timeout(15)
    if rest:
        for dx in (3, -3, 0):
            page.mouse.move(x1 + dx, y1)
            page.wait_for_timeout(60)
    page.mouse.up()


def meld_in_hand(state, seat):
    """Three cards of ``seat``'s hand (no joker) that make a meld, or None."""
    hand = [c for c in state.hands[seat] if not c.is_joker]
    for combo in itertools.combinations(hand, 3):
        if classify([c.code for c in combo]) is not None:
            return [c.id for c in combo]
    return None


def two_player_table(make_user, settings, seed: str = "11"):
    """A started 2-seat Manipulation table of alice (the host) and bob, dealt from ``seed``: the match,
    the player to move and the other one (users)."""
    settings.RUMMYHUB_FIXED_SEED = seed
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    state = manip.from_dict(Match.objects.get(pk=match.pk).state["round"])
    return match, [alice, bob][state.seat_to_act], [alice, bob][1 - state.seat_to_act]


def login(page, base_url: str, username: str, password: str = "correct-horse-battery", *, form: bool = False) -> None:
    """``username`` logged in in ``page``'s browser context, on the home page.

    By a session made on the server side (its cookie given to the context): a log-in through the form
    is a page load and a password check more, in every test that needs a player.  ``form``: through the
    log-in form, as a person does (test_accounts_journey; the form's rules are tested in tests/accounts).
    """
    if form:
        page.goto(base_url + "/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(base_url + "/")
        return
    user = get_user_model().objects.get(username=username)
    assert user.check_password(password)
    page.context.add_cookies([{"name": "sessionid", "value": session_cookie_for(user), "url": base_url}])
    page.goto(base_url + "/")


def wait_live(page, timeout: float = 15000) -> None:
    """Wait until the table page's socket is open and has brought the page up to date (its first
    frame): from then on another player's move reaches the page as a frame of what changed."""
    expect(page.locator(".table-page")).to_have_attribute("data-live", "true", timeout=timeout)
