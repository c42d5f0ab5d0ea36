"""A browser's push subscription as it arrives ("Notify me": ``PushSubscription.toJSON()`` posted by
static/js/notify.js), checked before anything stores it: small, flat JSON (plumbing.inputs), an
``https`` endpoint at a known push service (the worker posts there), and keys of the right kind."""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext as _

from plumbing.inputs import BadInput, check_text, parse_json

MAX_BODY = 4096  # a real subscription is about 400 bytes (FCM's endpoint ~200, the keys ~110)
MAX_ENDPOINT = 1000
MAX_LABEL = 80
_B64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


@dataclass(frozen=True, slots=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str


def _b64url(value: object, *, size: int, what: str) -> bytes:
    text = check_text(value, max_length=200)
    if len(text) > (size * 4 + 2) // 3 + 2 or not _B64URL.fullmatch(text):
        raise BadInput("bad_key", _("The browser's %(key)s key is not valid.") % {"key": what})
    try:
        raw = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise BadInput("bad_key", _("The browser's %(key)s key is not valid.") % {"key": what}) from None
    if len(raw) != size:
        raise BadInput("bad_key", _("The browser's %(key)s key is not valid.") % {"key": what})
    return raw


def _known_push_service(host: str) -> bool:
    host = host.lower().rstrip(".")
    return any(host == known or host.endswith("." + known) for known in settings.RUMMYHUB_PUSH_HOSTS)


def parse_subscription(body: bytes) -> Subscription:
    """The subscription in a request's body; else BadInput (its message is for the player)."""
    if len(body) > MAX_BODY:
        raise BadInput("too_large", _("That request is too large."))
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("bad_json", _("That request is not valid JSON.")) from None
    value = parse_json(text, max_depth=2, max_length=MAX_BODY)
    if not isinstance(value, dict) or not isinstance(value.get("keys"), dict):
        raise BadInput("bad_subscription", _("That is not a push subscription."))
    endpoint = check_text(value.get("endpoint"), max_length=MAX_ENDPOINT)
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise BadInput("bad_endpoint", _("The push address is not a valid address.")) from None
    if parts.scheme != "https" or not parts.hostname or parts.username or parts.password:
        raise BadInput("bad_endpoint", _("The push address must be an https address."))
    if port not in (None, 443) or not _known_push_service(parts.hostname):
        raise BadInput("bad_endpoint", _("The push address is not at a push service this site knows."))
    p256dh = _b64url(value["keys"].get("p256dh"), size=65, what="p256dh")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p256dh)
    except ValueError:
        raise BadInput("bad_key", _("The browser's %(key)s key is not valid.") % {"key": "p256dh"}) from None
    _b64url(value["keys"].get("auth"), size=16, what="auth")
    return Subscription(endpoint=endpoint, p256dh=value["keys"]["p256dh"], auth=value["keys"]["auth"])


def device_label(user_agent: str) -> str:
    """A short name for a device from its user agent ("Chrome on Android"), for the player's list."""
    ua = user_agent[:500]
    browser = next(
        (
            name
            for key, name in (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
            if key in ua
        ),
        _("a browser"),
    )
    system = next(
        (
            name
            for key, name in (
                ("Android", "Android"),
                ("iPhone", "iOS"),
                ("iPad", "iPadOS"),
                ("Windows", "Windows"),
                ("Mac OS", "macOS"),
                ("Linux", "Linux"),
            )
            if key in ua
        ),
        "",
    )
    # Translators: a device in the player's list, e.g. "Chrome on Android".
    return (_("%(browser)s on %(system)s") % {"browser": browser, "system": system} if system else browser)[:MAX_LABEL]
