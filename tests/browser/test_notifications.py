"""A player allows notifications: "Notify me", the service worker registers at /sw.js and the
device's subscription is stored; a push delivered to the worker through the DevTools protocol
(ServiceWorker.deliverPushMessage) shows a notification, and its click opens the table.

Headless Chromium here reaches no push service (FCM), so ``pushManager.subscribe`` fails with a push
service error; the test then lets the page's own code path go on with a subscription made with a
test key pair (``PushManager.prototype.subscribe`` wrapped: the real call first, its error recorded).
"""

from __future__ import annotations

import json

import pytest

from games.models import Match, MatchStatus, Seat, Variant
from notifications.models import PushSubscription
from tests.browser.conftest import login
from tests.notifications.conftest import BrowserKeys

pytestmark = pytest.mark.django_db(transaction=True)

FAKE_ENDPOINT = "https://fcm.googleapis.com/fcm/send/browser-test"

WRAP_SUBSCRIBE = """
(() => {
  if (!self.PushManager) return;
  const real = PushManager.prototype.subscribe;
  PushManager.prototype.subscribe = function (options) {
    return real.call(this, options).then(
      (sub) => { window.__pushSubscribe = "real"; return sub; },
      (error) => {
        window.__pushSubscribe = "failed: " + error.name + ": " + error.message;
        const json = { endpoint: "%(endpoint)s", expirationTime: null, keys: { p256dh: "%(p256dh)s", auth: "%(auth)s" } };
        return { endpoint: json.endpoint, toJSON: () => json };
      });
  };
})();
"""

CLICK_FIRST_NOTIFICATION = """
async (tablesOpen) => {
  // The worker's own notificationclick handler, with the window clients recorded: a script cannot
  // click a system notification, and a synthetic event may not open windows.
  const calls = [];
  const windows = tablesOpen.map((url) => ({ url, focus: async () => { calls.push(["focus", url]); } }));
  Object.defineProperty(self, "clients", {
    configurable: true,
    value: { matchAll: async () => windows, openWindow: async (url) => { calls.push(["open", url]); } },
  });
  const shown = await self.registration.getNotifications();
  const event = new NotificationEvent("notificationclick", { notification: shown[0] });
  let waited = Promise.resolve();
  Object.defineProperty(event, "waitUntil", { value: (promise) => { waited = promise; } });
  self.dispatchEvent(event);
  await waited;
  return calls;
}
"""


def wait_shown(page, count: int) -> list[dict]:
    """The notifications the worker shows, once there are ``count`` (or after 5 s)."""
    shown = []
    for _ in range(50):
        shown = page.evaluate(
            "navigator.serviceWorker.ready.then(r => r.getNotifications())"
            ".then(ns => ns.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url})))"
        )
        if len(shown) == count:
            break
        page.wait_for_timeout(100)
    return shown


def test_notify_me_subscribes_and_a_pushed_notice_opens_the_table(browser, live_daphne, make_user, artifacts):
    alice = make_user("alice")
    match = Match.objects.create(variant=Variant.GIN, seats_count=2, status=MatchStatus.OPEN, host=alice)
    Seat.objects.create(match=match, index=0, user=alice)
    keys = BrowserKeys()
    base = live_daphne.url

    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=base)
    context.add_init_script(WRAP_SUBSCRIBE % {"endpoint": FAKE_ENDPOINT, "p256dh": keys.p256dh, "auth": keys.auth})
    page = context.new_page()
    login(page, base, "alice")
    page.goto(f"{base}/tables/{match.pk}/")

    # The page asks nothing before the click.
    assert page.evaluate("navigator.serviceWorker.controller") is None
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    button = page.get_by_role("button", name="Notify me")
    button.click()
    page.locator("[data-notify-me][data-state=onText]").wait_for(timeout=15_000)
    outcome = page.evaluate("window.__pushSubscribe")
    print("pushManager.subscribe in headless Chromium:", outcome)
    assert outcome == "real" or outcome.startswith("failed: ")

    sub = PushSubscription.objects.get(user=alice)
    if outcome == "real":
        assert sub.endpoint.startswith("https://")
    else:
        assert (sub.endpoint, sub.p256dh, sub.auth) == (FAKE_ENDPOINT, keys.p256dh, keys.auth)
    assert page.evaluate("navigator.serviceWorker.getRegistration('/').then(r => r.scope)") == base + "/"

    # A push, straight into the worker through the DevTools protocol.
    cdp = context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(50):
        if any(r["scopeURL"] == base + "/" and not r["isDeleted"] for r in registrations):
            break
        page.wait_for_timeout(100)
    registration_id = next(r["registrationId"] for r in registrations if r["scopeURL"] == base + "/")
    payload = {
        "title": "Your move",
        "body": f"It is your move at Gin Rummy (two players) · Table {match.pk}.",
        "url": f"/tables/{match.pk}/",
        "tag": f"table-{match.pk}",
        "table": match.pk,
        "kind": "your_move",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": registration_id, "data": json.dumps(payload)},
    )
    shown = wait_shown(page, 1)
    assert shown == [
        {"title": "Your move", "body": payload["body"], "tag": f"table-{match.pk}", "url": f"/tables/{match.pk}/"}
    ]

    # Its click: the table opened (no tab of it open), or the open tab focused.
    worker = context.service_workers[0]
    assert worker.evaluate(CLICK_FIRST_NOTIFICATION, []) == [["open", f"{base}/tables/{match.pk}/"]]
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": registration_id, "data": json.dumps(payload)},
    )
    assert len(wait_shown(page, 1)) == 1
    open_tab = f"{base}/tables/{match.pk}/"
    assert worker.evaluate(CLICK_FIRST_NOTIFICATION, [f"{base}/", open_tab]) == [["focus", open_tab]]
    page.screenshot(path=str(artifacts / "notifications-notify-me.png"))

    # A real-time table's turn (table.js's event): nothing while the tab is shown, a notification
    # through the same worker once it is hidden.
    worker.evaluate("self.registration.getNotifications().then(ns => ns.forEach(n => n.close()))")
    turn = (
        "document.dispatchEvent(new CustomEvent('rummyhub:your-turn', {detail: {text: 'Your turn', title: 'Table'}}))"
    )
    page.evaluate(turn)
    page.wait_for_timeout(300)
    assert wait_shown(page, 0) == []
    page.evaluate("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
    page.evaluate(turn)
    assert wait_shown(page, 1) == [
        {"title": "Your turn", "body": "Table", "tag": f"table-{match.pk}", "url": f"/tables/{match.pk}/"}
    ]
    context.close()


@pytest.mark.parametrize("language", ["fa", "en"])
def test_bell_and_settings_fit_a_phone_left_to_right_and_right_to_left(
    browser, live_daphne, make_user, artifacts, language
):
    from notifications import services
    from notifications.models import NoticeKind

    alice = make_user("alice")
    match = Match.objects.create(variant=Variant.GIN, seats_count=2, status=MatchStatus.PLAYING, host=alice)
    Seat.objects.create(match=match, index=0, user=alice)
    for kind in (NoticeKind.YOUR_MOVE, NoticeKind.REMINDER, NoticeKind.MATCH_ENDED):
        services.notice_create(user_id=alice.pk, match_id=match.pk, kind=kind)
    base = live_daphne.url
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    login(page, base, "alice")
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page.reload()
    assert page.locator("html").get_attribute("dir") == ("rtl" if language == "fa" else "ltr")
    bell = page.locator("#notice-bell")
    assert bell.get_attribute("data-unread") == "3"
    box = bell.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert 0 <= box["x"] and box["x"] + box["width"] <= 390
    for url in ("/", "/notifications/", "/notifications/settings/"):
        page.goto(base + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
        page.screenshot(
            path=str(artifacts / f"notifications-{language}-{url.strip('/').replace('/', '-') or 'home'}.png")
        )
    # The list by keyboard: the first notice opens its table and is read.
    page.goto(base + "/notifications/")
    page.locator(".notice-open").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/tables/{match.pk}/")
    assert page.locator("#notice-bell").get_attribute("data-unread") == "2"
    context.close()
