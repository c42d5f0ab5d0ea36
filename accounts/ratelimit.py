"""Rate limits on log-in and password reset: per account and per client address.

The counters are django-ratelimit's, in the default cache (LocMem in the embedded
default, Redis when ``REDIS_URL`` is set).  The limits are settings (README,
"Configuration"), rates such as ``5/15m``: that many POSTs per window.

Kept simple on purpose:

- Every POST counts, whatever its outcome, and a successful log-in resets nothing.
  The counter goes up *before* the password is looked at, so parallel guesses cannot
  slip past it; while a limit holds the password is not checked at all.
- The windows are django-ratelimit's fixed windows (each key with its own offset),
  so the wait shown is what is left of the current window, at most its length.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import unicodedata

from django.conf import settings
from django_ratelimit.core import get_usage

logger = logging.getLogger(__name__)

UNKNOWN_ADDRESS = "unknown"


def normalise(value: str) -> str:
    """An account as typed: the same form the log-in form compares (NFKC), case-folded, stripped."""
    return unicodedata.normalize("NFKC", value).casefold().strip()


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or behind our proxy the first X-Forwarded-For address.

    IPv6 clients are counted per /64 (one host usually holds a whole /64).  The proxy
    must set X-Forwarded-For itself (not append to the client's): the first address
    is the one the client could otherwise choose.
    """
    candidates = []
    if settings.RUMMYHUB_BEHIND_PROXY:
        candidates.append(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[0].strip())
    candidates.append(request.META.get("REMOTE_ADDR") or "")
    for candidate in candidates:
        try:
            address = ipaddress.ip_address(candidate)
        except ValueError:
            continue
        if address.version == 6:
            if address.ipv4_mapped is not None:
                return str(address.ipv4_mapped)
            return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
        return str(address)
    logger.warning("No client address in the request: all such requests share one rate limit.")
    return UNKNOWN_ADDRESS


def login_wait_minutes(request) -> int | None:
    """Count this log-in POST; the minutes to wait if it is over a limit, else None."""
    return _count(
        request,
        [
            (
                "accounts.login.account",
                normalise(request.POST.get("username", "")),
                settings.RUMMYHUB_LOGIN_LIMIT_ACCOUNT,
            ),
            ("accounts.login.address", client_address(request), settings.RUMMYHUB_LOGIN_LIMIT_ADDRESS),
        ],
    )


def password_reset_wait_minutes(request) -> int | None:
    """Count this password-reset POST; the minutes to wait if it is over a limit, else None."""
    return _count(
        request,
        [
            ("accounts.reset.email", normalise(request.POST.get("email", "")), settings.RUMMYHUB_RESET_LIMIT_EMAIL),
            ("accounts.reset.address", client_address(request), settings.RUMMYHUB_RESET_LIMIT_ADDRESS),
        ],
    )


def _count(request, limits: list[tuple[str, str, str]]) -> int | None:
    """Increment every (group, value, rate) counter; the longest wait among those over their limit."""
    waits = []
    for group, value, rate in limits:
        if not value:  # nothing typed: the form refuses it, and one shared counter would help no one
            continue
        usage = get_usage(request, group=group, key=lambda _group, _request, v=value: v, rate=rate, increment=True)
        if usage is not None and usage["should_limit"]:
            waits.append(max(1, math.ceil(usage["time_left"] / 60)))
    return max(waits) if waits else None
