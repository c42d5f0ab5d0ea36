"""Web Push against a local push service: the VAPID signature checked (an ES256 JWT against the
site's public key), the payload decrypted with the subscription's keys (RFC 8291, aes128gcm) and
with no other, and a subscription the service calls gone (404, 410) deleted."""

from __future__ import annotations

import json
import time

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from games import signals
from notifications import push, services
from notifications.models import Delivery, Notice, NoticeKind, PushSubscription
from tests.notifications.conftest import BrowserKeys, b64url, jwt_parts

pytestmark = pytest.mark.django_db


def check_vapid(received, *, public_key, origin):
    """The request's VAPID header: a JWT signed by the site's key for this push service's origin."""
    scheme, _, params = received.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    raw_public = public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert fields["k"] == b64url(raw_public)
    head, claims, signed, signature = jwt_parts(fields["t"])
    assert head == {"typ": "JWT", "alg": "ES256"}
    assert len(signature) == 64  # JOSE: r and s, 32 bytes each
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    public_key.verify(der, signed, ec.ECDSA(hashes.SHA256()))  # raises InvalidSignature if forged
    assert claims["aud"] == origin
    assert claims["sub"] == "mailto:ops@rummyhub.test"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    return claims


def test_your_move_push_is_signed_and_readable_only_with_the_subscription_keys(
    vapid_key, push_service, browser_keys, match_ab, alice
):
    services.subscription_save(
        user_id=alice.pk,
        endpoint=push_service.endpoint("/push/alice"),
        p256dh=browser_keys.p256dh,
        auth=browser_keys.auth,
    )
    signals.your_move.send(type(match_ab), match_id=match_ab.pk, user_id=alice.pk, deadline=None, turn_based=True)
    assert services.deliver_due() == 1

    assert len(push_service.received) == 1
    got = push_service.received[0]
    assert got.path == "/push/alice"
    assert got.headers["content-encoding"] == "aes128gcm"
    assert int(got.headers["ttl"]) > 0
    check_vapid(got, public_key=vapid_key, origin=push_service.origin)

    plain = http_ece.decrypt(
        got.body, private_key=browser_keys.private, auth_secret=browser_keys.auth_secret, version="aes128gcm"
    )
    payload = json.loads(plain)
    assert payload["table"] == match_ab.pk
    assert payload["url"] == f"/tables/{match_ab.pk}/"
    assert f"Table {match_ab.pk}" in payload["body"]
    assert payload["kind"] == "your_move"
    # The table's name is nowhere in the clear.
    assert f"Table {match_ab.pk}".encode() not in got.body

    # Another browser's keys cannot read it.
    other = BrowserKeys()
    with pytest.raises((InvalidTag, http_ece.ECEException)):
        http_ece.decrypt(got.body, private_key=other.private, auth_secret=other.auth_secret, version="aes128gcm")
    with pytest.raises((InvalidTag, http_ece.ECEException)):
        http_ece.decrypt(got.body, private_key=browser_keys.private, auth_secret=other.auth_secret, version="aes128gcm")

    notice = Notice.objects.get()
    assert (notice.delivery, notice.pushed, notice.kind) == (Delivery.SENT, 1, NoticeKind.YOUR_MOVE)


def test_a_forged_vapid_signature_is_caught_by_the_check(vapid_key, push_service, browser_keys, match_ab, alice):
    """The check above can fail: a key that is not the site's does not verify the JWT."""
    services.subscription_save(
        user_id=alice.pk, endpoint=push_service.endpoint("/p"), p256dh=browser_keys.p256dh, auth=browser_keys.auth
    )
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.REMINDER)
    services.deliver_due()
    stranger = ec.generate_private_key(ec.SECP256R1()).public_key()
    with pytest.raises((InvalidSignature, AssertionError)):
        check_vapid(push_service.received[0], public_key=stranger, origin=push_service.origin)


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_is_deleted_and_the_others_still_get_it(status, vapid_key, push_service, match_ab, alice):
    gone, kept = BrowserKeys(), BrowserKeys()
    push_service.status["/gone"] = status
    services.subscription_save(
        user_id=alice.pk, endpoint=push_service.endpoint("/gone"), p256dh=gone.p256dh, auth=gone.auth
    )
    services.subscription_save(
        user_id=alice.pk, endpoint=push_service.endpoint("/kept"), p256dh=kept.p256dh, auth=kept.auth
    )
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE)
    services.deliver_due()
    assert sorted(r.path for r in push_service.received) == ["/gone", "/kept"]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [push_service.endpoint("/kept")]
    assert Notice.objects.get().pushed == 1


def test_a_failing_push_service_keeps_the_subscription(vapid_key, push_service, browser_keys, match_ab, alice):
    push_service.status["/busy"] = 503
    services.subscription_save(
        user_id=alice.pk, endpoint=push_service.endpoint("/busy"), p256dh=browser_keys.p256dh, auth=browser_keys.auth
    )
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE)
    services.deliver_due()
    assert PushSubscription.objects.count() == 1
    assert Notice.objects.get().delivery == Delivery.BELL


def test_match_ended_is_pushed_to_players_away_from_the_table(vapid_key, push_service, match_ab, alice, bob):
    keys = {alice.pk: BrowserKeys(), bob.pk: BrowserKeys()}
    for user in (alice, bob):
        services.subscription_save(
            user_id=user.pk,
            endpoint=push_service.endpoint(f"/u{user.pk}"),
            p256dh=keys[user.pk].p256dh,
            auth=keys[user.pk].auth,
        )
    signals.match_finished.send(type(match_ab), match=match_ab)
    signals.match_finished.send(type(match_ab), match=match_ab)  # heard twice: told once
    services.deliver_due()
    assert sorted(r.path for r in push_service.received) == sorted(f"/u{u.pk}" for u in (alice, bob))
    for got in push_service.received:
        user_id = int(got.path[2:])
        k = keys[user_id]
        payload = json.loads(
            http_ece.decrypt(got.body, private_key=k.private, auth_secret=k.auth_secret, version="aes128gcm")
        )
        assert payload["kind"] == "match_ended" and payload["table"] == match_ab.pk


def test_the_application_server_key_is_the_vapid_public_key(vapid_key):
    raw = vapid_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert push.application_server_key() == b64url(raw)


def test_no_vapid_key_means_no_push(settings, push_service, browser_keys, match_ab, alice):
    settings.RUMMYHUB_VAPID_PRIVATE_KEY = ""
    services.subscription_save(
        user_id=alice.pk, endpoint=push_service.endpoint("/x"), p256dh=browser_keys.p256dh, auth=browser_keys.auth
    )
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE)
    services.deliver_due()
    assert push_service.received == []


def test_the_worker_polls_the_notifications_channel_and_delivers(
    vapid_key, push_service, browser_keys, match_ab, alice
):
    from games.analysis import worker
    from notifications.consumers import NotifyConsumer

    assert worker.POLLS["notifications"] == ("notifications.poll", "RUMMYHUB_NOTIFY_POLL")
    services.subscription_save(
        user_id=alice.pk, endpoint=push_service.endpoint("/w"), p256dh=browser_keys.p256dh, auth=browser_keys.auth
    )
    services.notice_create(user_id=alice.pk, match_id=match_ab.pk, kind=NoticeKind.YOUR_MOVE)
    NotifyConsumer().notifications_poll({"type": "notifications.poll"})
    assert [r.path for r in push_service.received] == ["/w"]


def test_a_failing_notice_never_breaks_the_move(match_ab, alice, carol, caplog, monkeypatch):
    """The receiver logs and returns: the sender (a move's commit) goes on."""
    signals.your_move.send(type(match_ab), match_id=10**9, user_id=alice.pk, deadline=None, turn_based=True)
    signals.your_move.send(type(match_ab), match_id=match_ab.pk, user_id=carol.pk, deadline=None, turn_based=True)
    assert Notice.objects.count() == 0  # no such match; carol is not seated there

    def broken(**kwargs):
        raise RuntimeError("database away")

    monkeypatch.setattr(services, "notice_create", broken)
    signals.your_move.send(type(match_ab), match_id=match_ab.pk, user_id=alice.pk, deadline=None, turn_based=True)
    signals.move_reminder.send(type(match_ab), match_id=match_ab.pk, user_id=alice.pk, deadline=None, left=None)
    assert "no 'your move' notice" in caplog.text and "no reminder notice" in caplog.text
