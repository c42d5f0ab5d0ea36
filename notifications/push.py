"""Web Push (RFC 8030, 8291, 8292) through ``pywebpush``: the site's VAPID key and one push.

The payload is encrypted to the subscription's keys (aes128gcm) and the request is signed with the
VAPID key (an ES256 JWT whose ``aud`` is the push service's origin): only the subscriber's browser can
read it, and the push service knows which site sent it.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
from typing import Any

import requests
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

logger = logging.getLogger(__name__)

# What a push service answers for a subscription that is gone for good (RFC 8030 §7.3).
GONE = frozenset({404, 410})
TIMEOUT = 10  # seconds for one push service's answer


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@functools.lru_cache(maxsize=4)
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


def enabled() -> bool:
    """Whether this site can push: a VAPID key is configured (generated in debug)."""
    return bool(settings.RUMMYHUB_VAPID_PRIVATE_KEY)


def application_server_key() -> str:
    """The VAPID public key as the browser's ``applicationServerKey`` (base64url, uncompressed point)."""
    if not enabled():
        return ""
    public = _vapid(settings.RUMMYHUB_VAPID_PRIVATE_KEY).public_key
    return b64url(public.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))


def send(*, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any]) -> int:
    """Push ``payload`` (JSON) to one subscription; the push service's HTTP status, 0 if unreachable."""
    try:
        response = webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=_vapid(settings.RUMMYHUB_VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.RUMMYHUB_VAPID_SUBJECT},  # a fresh dict: webpush fills aud, exp
            ttl=settings.RUMMYHUB_PUSH_TTL,
            timeout=TIMEOUT,
            content_encoding="aes128gcm",
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else 0
        if status not in GONE:
            logger.warning("push to %s failed: %s", endpoint[:60], status or exc)
        return status
    except (requests.RequestException, ValueError) as exc:
        logger.warning("push to %s failed: %s", endpoint[:60], exc)
        return 0
    return response.status_code
