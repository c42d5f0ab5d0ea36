"""Rate limits on log-in and password reset, per account and per client address (issue: login rate limit).

Limits (settings, README "Configuration"): log-in 5 POSTs per account and 20 per address
per 15 minutes; password reset 3 per e-mail and 5 per address per hour.
"""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts import ratelimit

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "correct-horse-battery"
LIMITED = "Too many attempts to sign in."
RESET_LIMITED = "Too many requests for a password reset."


@pytest.fixture(autouse=True)
def _empty_cache(settings):
    """The counters live in the default cache, which outlives a test: start and end empty."""
    # The hasher is beside the point here; a fast one keeps dozens of log-ins cheap.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    _clear()
    yield
    _clear()


@pytest.fixture(autouse=True)
def _still_clock(monkeypatch):
    """The clock held still for the test's attempts.  django-ratelimit's windows are fixed (each key with
    its own offset in the period): one that ended while a test made its attempts started the count again,
    and the limit the test expects was not reached (the ten clients' test spends seconds on 200 attempts
    under load: by our estimate, ten windows of 15 minutes and a few seconds of attempts, a window of one of
    its ten addresses ended within them in about one run in thirty).  A test
    that needs the window to pass moves the clock itself."""
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)


def _clear() -> None:
    """This run's keys only: on Redis, other test processes running at once (pytest-xdist) keep
    their own counters in the same database under their own key prefix (settings.REDIS_PREFIX)."""
    prefix = django_settings.CACHES["default"].get("KEY_PREFIX")
    if not prefix or not hasattr(cache, "_cache"):
        cache.clear()
        return
    client = cache._cache.get_client(write=True)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)


def client_at(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def log_in(client: Client, username: str, password: str = "wrong-password", **extra):
    return client.post(reverse("accounts:login"), {"username": username, "password": password}, **extra)


def is_logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def ask_reset(client: Client, email: str):
    return client.post(reverse("accounts:password_reset"), {"email": email})


# ------------------------------------------------------------------ log-in


def test_wrong_passwords_lock_the_account_even_for_the_right_password(make_user):
    make_user("alice")
    client = client_at("10.0.0.1")
    for _ in range(5):
        response = log_in(client, "alice")
        assert response.status_code == 200
        assert b"Please enter a correct username and password" in response.content
    response = log_in(client, "alice", GOOD_PASSWORD)
    assert response.status_code == 429
    assert response.templates[0].name == "accounts/login.html"
    assert LIMITED in response.content.decode()
    # A fixed window (django-ratelimit): the wait is what is left of it, at most 15 minutes.
    minutes = int(re.search(r"Wait (\d+) minutes? and try again\.", response.content.decode()).group(1))
    assert 1 <= minutes <= 15
    assert not is_logged_in(client)


def test_a_limited_log_in_does_not_check_the_password(make_user):
    make_user("alice")
    client = client_at("10.0.0.1")
    for _ in range(5):
        log_in(client, "alice")
    checked = []
    receiver = lambda **kwargs: checked.append(kwargs)  # noqa: E731
    user_login_failed.connect(receiver)
    user_logged_in.connect(receiver)
    try:
        assert log_in(client, "alice", GOOD_PASSWORD).status_code == 429
        assert log_in(client, "alice").status_code == 429
    finally:
        user_login_failed.disconnect(receiver)
        user_logged_in.disconnect(receiver)
    assert checked == []


def test_the_locked_account_is_locked_from_every_address_and_others_are_not(make_user):
    make_user("alice")
    make_user("bob")
    attacker = client_at("10.0.0.1")
    for _ in range(6):
        log_in(attacker, "alice")
    assert log_in(client_at("10.0.0.2"), "alice", GOOD_PASSWORD).status_code == 429
    bob = client_at("10.0.0.3")
    assert log_in(bob, "bob", GOOD_PASSWORD).status_code == 302
    assert is_logged_in(bob)


def test_the_account_is_named_case_and_space_insensitively(make_user):
    make_user("alice")
    client = client_at("10.0.0.1")
    for name in ["alice", "ALICE", " Alice ", "aLiCe", "\uff41lice"]:  # the last one: a full-width "a"
        assert log_in(client, name).status_code == 200
    assert log_in(client_at("10.0.0.2"), "alice", GOOD_PASSWORD).status_code == 429


def test_ten_clients_guessing_one_account_share_its_limit(make_user):
    make_user("alice")
    clients = [client_at(f"10.0.1.{i}") for i in range(10)]
    statuses = [log_in(client, "alice").status_code for client in clients for _ in range(2)]
    assert statuses == [200] * 5 + [429] * 15
    assert log_in(client_at("10.0.2.1"), "alice", GOOD_PASSWORD).status_code == 429


def test_one_address_guessing_many_accounts_hits_the_address_limit(make_user):
    make_user("carol")
    client = client_at("10.0.0.9")
    for i in range(20):
        assert log_in(client, f"user{i}").status_code == 200
    response = log_in(client, "carol", GOOD_PASSWORD)
    assert response.status_code == 429
    assert LIMITED in response.content.decode()
    assert not is_logged_in(client)
    # Carol herself, from her own address, is not affected.
    carol = client_at("10.0.0.10")
    assert log_in(carol, "carol", GOOD_PASSWORD).status_code == 302


def test_ten_clients_guessing_many_accounts_are_each_limited(make_user):
    clients = [client_at(f"10.0.3.{i}") for i in range(10)]
    for n, client in enumerate(clients):
        for i in range(20):
            assert log_in(client, f"user{n}-{i}").status_code == 200
    for n, client in enumerate(clients):
        make_user(f"player{n}")
        assert log_in(client, f"player{n}", GOOD_PASSWORD).status_code == 429
    # Each account was tried once: from an address with attempts left, it logs in.
    assert log_in(client_at("10.0.4.1"), "player0", GOOD_PASSWORD).status_code == 302


def test_after_the_window_the_right_password_works(make_user, monkeypatch):
    make_user("alice")
    client = client_at("10.0.0.1")
    for _ in range(6):
        log_in(client, "alice")
    assert log_in(client, "alice", GOOD_PASSWORD).status_code == 429
    later = time.time() + 15 * 60 + 1
    monkeypatch.setattr(time, "time", lambda: later)
    response = log_in(client, "alice", GOOD_PASSWORD)
    assert response.status_code == 302
    assert is_logged_in(client)


def test_page_views_are_not_counted(make_user):
    make_user("alice")
    client = client_at("10.0.0.1")
    for _ in range(30):
        assert client.get(reverse("accounts:login")).status_code == 200
    assert log_in(client, "alice", GOOD_PASSWORD).status_code == 302


def test_limits_come_from_settings(make_user, settings):
    settings.RUMMYHUB_LOGIN_LIMIT_ACCOUNT = "2/15m"
    make_user("alice")
    client = client_at("10.0.0.1")
    assert [log_in(client, "alice").status_code for _ in range(3)] == [200, 200, 429]


def test_the_limited_page_keeps_the_form_and_next(make_user):
    make_user("alice")
    client = client_at("10.0.0.1")
    for _ in range(5):
        log_in(client, "alice")
    response = log_in(client, "alice", GOOD_PASSWORD, QUERY_STRING="next=/accounts/password/change/")
    assert response.status_code == 429
    html = response.content.decode()
    assert 'name="username"' in html and 'name="password"' in html
    assert 'value="/accounts/password/change/"' in html
    assert not response.context["form"].is_bound  # nothing was validated


def test_behind_a_proxy_the_first_forwarded_address_is_the_client(make_user, settings):
    settings.RUMMYHUB_BEHIND_PROXY = True
    settings.RUMMYHUB_LOGIN_LIMIT_ADDRESS = "2/15m"
    make_user("carol")
    proxy = client_at("10.9.9.9")
    first = {"HTTP_X_FORWARDED_FOR": "203.0.113.5, 10.9.9.9"}
    second = {"HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert log_in(proxy, "user1", **first).status_code == 200
    assert log_in(proxy, "user2", **first).status_code == 200
    assert log_in(proxy, "user3", **first).status_code == 429
    assert log_in(proxy, "carol", GOOD_PASSWORD, **second).status_code == 302


def test_without_the_proxy_setting_the_forwarded_header_is_ignored(make_user, settings):
    settings.RUMMYHUB_BEHIND_PROXY = False
    settings.RUMMYHUB_LOGIN_LIMIT_ADDRESS = "2/15m"
    client = client_at("10.0.0.1")
    statuses = [log_in(client, f"user{i}", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code for i in range(3)]
    assert statuses == [200, 200, 429]


# ---------------------------------------------------------- password reset


def test_password_reset_is_limited_per_address_and_sends_nothing(make_user):
    make_user("erin", email="erin@example.com")
    client = client_at("10.0.0.1")
    for i in range(5):
        assert ask_reset(client, f"nobody{i}@example.com").status_code == 302
    response = ask_reset(client, "erin@example.com")
    assert response.status_code == 429
    assert RESET_LIMITED in response.content.decode()
    minutes = int(re.search(r"Wait (\d+) minutes? and try again\.", response.content.decode()).group(1))
    assert 1 <= minutes <= 60
    assert response.templates[0].name == "accounts/password_reset.html"
    assert mail.outbox == []


def test_password_reset_is_limited_per_email_and_sends_nothing_more(make_user):
    make_user("erin", email="erin@example.com")
    for i, email in enumerate(["erin@example.com", "ERIN@example.com", " Erin@Example.com "]):
        assert ask_reset(client_at(f"10.0.0.{i}"), email).status_code == 302
    assert len(mail.outbox) == 3
    response = ask_reset(client_at("10.0.0.9"), "erin@example.com")
    assert response.status_code == 429
    assert RESET_LIMITED in response.content.decode()
    assert len(mail.outbox) == 3
    # Another account's reset is not affected.
    make_user("dave", email="dave@example.com")
    assert ask_reset(client_at("10.0.0.8"), "dave@example.com").status_code == 302
    assert len(mail.outbox) == 4


def test_password_reset_after_the_window_works_again(make_user, monkeypatch):
    make_user("erin", email="erin@example.com")
    client = client_at("10.0.0.1")
    for _ in range(3):
        ask_reset(client, "erin@example.com")
    assert ask_reset(client, "erin@example.com").status_code == 429
    later = time.time() + 60 * 60 + 1
    monkeypatch.setattr(time, "time", lambda: later)
    assert ask_reset(client, "erin@example.com").status_code == 302
    assert len(mail.outbox) == 4


# ---------------------------------------------------------- client address


@pytest.mark.parametrize(
    ("behind_proxy", "meta", "expected"),
    [
        (False, {"REMOTE_ADDR": "192.0.2.1"}, "192.0.2.1"),
        (False, {"REMOTE_ADDR": "192.0.2.1", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}, "192.0.2.1"),
        (True, {"REMOTE_ADDR": "10.9.9.9", "HTTP_X_FORWARDED_FOR": "203.0.113.5, 10.9.9.9"}, "203.0.113.5"),
        (True, {"REMOTE_ADDR": "10.9.9.9"}, "10.9.9.9"),  # no header: the proxy's own address
        (True, {"REMOTE_ADDR": "10.9.9.9", "HTTP_X_FORWARDED_FOR": "garbage"}, "10.9.9.9"),
        (False, {"REMOTE_ADDR": "2001:db8:1:2:aaaa::1"}, "2001:db8:1:2::"),  # IPv6: one /64
        (False, {"REMOTE_ADDR": "::ffff:192.0.2.7"}, "192.0.2.7"),
        (False, {"REMOTE_ADDR": ""}, "unknown"),
    ],
)
def test_client_address(rf, settings, behind_proxy, meta, expected):
    settings.RUMMYHUB_BEHIND_PROXY = behind_proxy
    request = rf.post("/", **meta)
    assert ratelimit.client_address(request) == expected


def test_the_admin_log_in_is_the_sites_rate_limited_one(client, make_user):
    """The admin's own log-in form had no limit: it now sends staff to the site's log-in."""
    staff = make_user("root", is_staff=True, is_superuser=True)
    response = client.get("/admin/login/?next=/admin/games/")
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:login") + "?next=%2Fadmin%2Fgames%2F"
    assert client.post("/admin/login/", {"username": "root", "password": "x"}).status_code == 302  # nothing checked
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert client.get("/admin/login/?next=https://evil.example.com/")["Location"].endswith("next=%2Fadmin%2F")
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200
