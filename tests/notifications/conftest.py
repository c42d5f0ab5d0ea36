"""The notifications' fixtures: a two-player match in play, the site's VAPID key, a browser's push
keys, and a local push service that records what it receives."""

from __future__ import annotations

import base64
import http.server
import json
import os
import threading
from dataclasses import dataclass, field

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from games.models import Match, MatchStatus, Seat, Variant


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.fixture
def vapid_key(settings):
    """A fresh VAPID key for the site (its raw scalar, base64url) and its public key."""
    private = ec.generate_private_key(ec.SECP256R1())
    settings.RUMMYHUB_VAPID_PRIVATE_KEY = b64url(private.private_numbers().private_value.to_bytes(32, "big"))
    settings.RUMMYHUB_VAPID_SUBJECT = "mailto:ops@rummyhub.test"
    return private.public_key()


@dataclass
class BrowserKeys:
    """What a browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret."""

    private: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(raw)

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)


@pytest.fixture
def browser_keys():
    return BrowserKeys()


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


class PushService:
    """A push service on 127.0.0.1: every POST is recorded; a path's answer is ``status[path]`` (201)."""

    def __init__(self):
        self.received: list[Received] = []
        self.status: dict[str, int] = {}
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self, path: str) -> str:
        return self.origin + path

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def match_ab(alice, bob):
    """Manipulation Rummy, alice and bob seated, in play."""
    match = Match.objects.create(variant=Variant.MANIPULATION, seats_count=2, status=MatchStatus.PLAYING, host=alice)
    Seat.objects.create(match=match, index=0, user=alice)
    Seat.objects.create(match=match, index=1, user=bob)
    return match


def jwt_parts(token: str) -> tuple[dict, dict, bytes, bytes]:
    head, claims, signature = token.split(".")

    def unb64(text: str) -> bytes:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    return json.loads(unb64(head)), json.loads(unb64(claims)), f"{head}.{claims}".encode(), unb64(signature)
