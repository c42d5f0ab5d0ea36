"""The notifications' pages and endpoints: the service worker, "Notify me" with hostile input, the
bell and its list, the settings, and the bell redrawn live over the presence socket."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from notifications import services
from notifications.models import Notice, NoticeKind, NotificationSettings, PushSubscription
from rummyhub.asgi import application
from tests.fairplay.support import clear_rate_limits
from tests.notifications.conftest import BrowserKeys

pytestmark = pytest.mark.django_db

FCM = "https://fcm.googleapis.com/fcm/send/abc123"


@pytest.fixture(autouse=True)
def _fresh_limits():
    # This process's counters only: on Redis, cache.clear() empties the database the other test
    # processes keep their counters in (a rate-limit test running beside this one then let its
    # sixth attempt through).
    clear_rate_limits()
    yield
    clear_rate_limits()


def body(endpoint=FCM, keys=None, **extra):
    keys = keys or BrowserKeys()
    return json.dumps(
        {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": keys.p256dh, "auth": keys.auth}, **extra}
    )


def post(client, text, **headers):
    return client.post("/notifications/devices/", data=text, content_type="application/json", **headers)


def test_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    text = response.content.decode()
    assert "notificationclick" in text and "openWindow" in text and "matchAll" in text


def test_notify_me_stores_this_device(vapid_key, alice_client, alice):
    response = post(alice_client, body(), HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile")
    assert response.status_code == 201, response.content
    sub = PushSubscription.objects.get()
    assert (sub.user, sub.endpoint, sub.label) == (alice, FCM, "Chrome on Android")
    # The same device again: still one row.
    assert post(alice_client, body()).status_code == 201
    assert PushSubscription.objects.count() == 1


def test_notify_me_needs_a_login(vapid_key, client):
    response = post(client, body())
    assert response.status_code == 403 and PushSubscription.objects.count() == 0


def test_devices_per_player_are_capped(vapid_key, settings, alice_client):
    settings.RUMMYHUB_PUSH_DEVICES = 2
    for n in range(3):
        assert post(alice_client, body(endpoint=f"{FCM}{n}")).status_code == 201
    assert sorted(PushSubscription.objects.values_list("endpoint", flat=True)) == [f"{FCM}1", f"{FCM}2"]


keys = BrowserKeys()
HOSTILE = [
    ("x" * 5000, "too_large"),
    ("{not json", "bad_json"),
    ("[1, 2, 3]", "bad_subscription"),
    (json.dumps({"endpoint": FCM, "keys": {"p256dh": [[[[]]]], "auth": keys.auth}}), "too_deep"),
    (json.dumps({"endpoint": FCM, "keys": "nope"}), "bad_subscription"),
    (body(endpoint="http://fcm.googleapis.com/fcm/send/x"), "bad_endpoint"),
    (body(endpoint="https://127.0.0.1/push"), "bad_endpoint"),
    (body(endpoint="https://evil.example/fcm.googleapis.com"), "bad_endpoint"),
    (body(endpoint="https://fcm.googleapis.com.evil.example/x"), "bad_endpoint"),
    (body(endpoint="https://user:pw@fcm.googleapis.com/x"), "bad_endpoint"),
    (body(endpoint="https://fcm.googleapis.com:8443/x"), "bad_endpoint"),
    (body(endpoint="javascript:alert(1)"), "bad_endpoint"),
    (body(endpoint=FCM + "/" + "a" * 1000), "too_large"),
    (body(endpoint=FCM + "\x00"), "bad_character"),
    (json.dumps({"endpoint": FCM, "keys": {"p256dh": "A" * 150, "auth": keys.auth}}), "bad_key"),
    (json.dumps({"endpoint": FCM, "keys": {"p256dh": keys.p256dh, "auth": keys.auth + "AAAA"}}), "bad_key"),
    (json.dumps({"endpoint": FCM, "keys": {"p256dh": keys.p256dh[:-4] + "٠١٢٣", "auth": keys.auth}}), "bad_key"),
    # 65 bytes that are not a point on P-256.
    (json.dumps({"endpoint": FCM, "keys": {"p256dh": "BA" + "A" * 85, "auth": keys.auth}}), "bad_key"),
    (json.dumps({"endpoint": FCM, "keys": {"p256dh": 12, "auth": keys.auth}}), "bad_type"),
]


@pytest.mark.parametrize(("text", "code"), HOSTILE)
def test_notify_me_refuses_hostile_input_clearly(vapid_key, alice_client, text, code):
    response = post(alice_client, text)
    assert response.status_code == 400
    answer = response.json()
    assert answer["error"] == code and answer["message"]
    assert PushSubscription.objects.count() == 0


def test_notify_me_refuses_bytes_that_are_not_utf8(vapid_key, alice_client):
    response = alice_client.post("/notifications/devices/", data=b"\xff\xfe{}", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == "bad_json"


def test_notify_me_is_rate_limited(vapid_key, settings, alice_client):
    settings.RUMMYHUB_PUSH_SUBSCRIBE_LIMIT = "3/h"
    codes = [post(alice_client, body(endpoint=f"{FCM}{n}")).status_code for n in range(5)]
    assert codes == [201, 201, 201, 429, 429]
    assert PushSubscription.objects.count() == 3


def test_a_device_can_be_removed_only_by_its_owner(vapid_key, client, alice, bob):
    sub = services.subscription_save(
        user_id=alice.pk, endpoint=FCM, p256dh=BrowserKeys().p256dh, auth=BrowserKeys().auth
    )
    client.force_login(bob)
    client.post(f"/notifications/devices/{sub.pk}/delete/")
    assert PushSubscription.objects.count() == 1
    assert client.post("/notifications/devices/²/delete/").status_code == 400
    client.force_login(alice)
    client.post(f"/notifications/devices/{sub.pk}/delete/")
    assert PushSubscription.objects.count() == 0


def test_settings_form_saves_and_refuses_bad_times(alice_client, alice):
    page = alice_client.get("/notifications/settings/")
    assert page.status_code == 200 and b"Quiet hours from" in page.content
    ok = alice_client.post(
        "/notifications/settings/",
        {"push": "on", "quiet_start": "22:30", "quiet_end": "07:00", "time_zone": "Asia/Tehran"},
    )
    assert ok.status_code == 302
    prefs = NotificationSettings.objects.get(user=alice)
    assert (prefs.push, prefs.mail, str(prefs.quiet_start), prefs.time_zone) == (True, False, "22:30:00", "Asia/Tehran")
    for bad in (
        {"quiet_start": "٢٢:٣٠", "quiet_end": "07:00", "time_zone": "UTC"},
        {"quiet_start": "22:30", "time_zone": "UTC"},
        {"quiet_start": "22:30", "quiet_end": "07:00", "time_zone": "Mars/Olympus"},
        {"quiet_start": "25:00", "quiet_end": "07:00", "time_zone": "UTC"},
    ):
        assert alice_client.post("/notifications/settings/", bad).status_code == 400


def test_profile_shows_the_panel_only_to_its_player(vapid_key, alice_client, bob):
    own = alice_client.get("/players/alice/").content.decode()
    assert "notification-panel" in own and "data-notify-me" in own
    other = alice_client.get("/players/bob/").content.decode()
    assert "notification-panel" not in other


def test_bell_counts_unread_and_opening_marks_read(alice_client, alice, match_ab):
    first = services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE)
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.MATCH_ENDED)
    home = alice_client.get("/").content.decode()
    assert 'data-unread="2"' in home
    listing = alice_client.get("/notifications/").content.decode()
    assert f"Table {match_ab.pk}" in listing
    opened = alice_client.post(f"/notifications/{first.pk}/open/")
    assert opened.status_code == 302 and opened["Location"] == f"/tables/{match_ab.pk}/"
    assert 'data-unread="1"' in alice_client.get("/").content.decode()
    alice_client.post("/notifications/read/")
    assert Notice.objects.filter(read_at__isnull=True).count() == 0


def test_another_players_notice_is_not_marked(client, alice, bob, match_ab):
    notice = services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE)
    client.force_login(bob)
    client.post(f"/notifications/{notice.pk}/open/")
    notice.refresh_from_db()
    assert notice.read_at is None


@pytest.mark.django_db(transaction=True)
async def test_the_bell_is_redrawn_live_over_the_presence_socket(alice, match_ab):
    from channels.db import database_sync_to_async

    communicator = WebsocketCommunicator(application, "/ws/presence/", headers=[(b"origin", b"http://testserver")])
    communicator.scope["user"] = alice
    connected, _ = await communicator.connect()
    assert connected
    await communicator.receive_from(timeout=3)  # the online count
    await database_sync_to_async(services.notice_create)(
        user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE
    )
    frame = await communicator.receive_from(timeout=3)
    assert 'id="notice-bell"' in frame and 'hx-swap-oob="true"' in frame and 'data-unread="1"' in frame
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_bell_is_redrawn_live_over_a_table_socket(alice, match_ab):
    """A table page has no presence socket: its table socket carries the bell."""
    from channels.db import database_sync_to_async

    communicator = WebsocketCommunicator(
        application, f"/ws/tables/{match_ab.pk}/", headers=[(b"origin", b"http://testserver")]
    )
    communicator.scope["user"] = alice
    connected, _ = await communicator.connect()
    assert connected
    while not await communicator.receive_nothing(timeout=0.5):  # the board's first frames
        await communicator.receive_from()
    await database_sync_to_async(services.notice_create)(
        user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE
    )
    frame = await communicator.receive_from(timeout=3)
    assert 'id="notice-bell"' in frame and 'data-unread="1"' in frame
    await communicator.disconnect()


def test_logging_out_forgets_this_device_only(vapid_key, client, alice):
    other = services.subscription_save(
        user_id=alice.pk, endpoint=FCM + "other", p256dh=BrowserKeys().p256dh, auth=BrowserKeys().auth
    )
    client.force_login(alice)
    assert post(client, body()).status_code == 201
    assert PushSubscription.objects.count() == 2
    client.post("/accounts/logout/")
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [other.pk]
