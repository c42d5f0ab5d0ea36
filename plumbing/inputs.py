"""The one input layer: what a user sends is checked here before anything else runs.

Every value that comes from outside (a form field, a URL, a query string, a socket
frame, a JSON text inside a field) passes through these functions or through
``InputGuardMiddleware``, which applies them to every HTTP request.  A value that is
malformed (too deep, too large, a NUL byte or another character no stored text may
hold, digits that are not ASCII, the wrong type) raises :class:`BadInput` with a
stable ``code`` and a sentence for the user; callers turn it into their refusal (a
400 page, a board error, a socket ``bad_frame``).  Nothing has touched the database
by then, so a refusal changes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

MAX_DEPTH = 6  # the deepest legal JSON is a draft: [[card, ...], ...] inside a command frame (4)
MAX_ITEMS = 2_000  # values in one JSON text (a two-deck draft is 108 cards in ~40 melds)
MAX_URL_TEXT = 2_000  # one path segment or query value

# Characters no text of ours may hold: NUL (PostgreSQL rejects it in text and jsonb), the other C0
# controls but tab / newline / carriage return, and lone surrogates (not encodable as UTF-8).
_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_ASCII_INT = re.compile(r"-?[0-9]{1,18}")


class BadInput(ValueError):
    """A malformed value; ``message`` is for the user (translated), ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_text(value: Any, *, max_length: int | None = None, what: str = "") -> str:
    """``value`` if it is a string a page may store and show; else BadInput."""
    if not isinstance(value, str):
        raise BadInput("bad_type", _("That request holds something that is not text."))
    if _FORBIDDEN.search(value):
        raise BadInput("bad_character", _("That request holds a character that text cannot contain."))
    if max_length is not None and len(value) > max_length:
        raise BadInput("too_large", _("That request is too large."))
    return value


def parse_int(value: Any, *, lo: int, hi: int) -> int:
    """An integer written with ASCII digits only, within ``lo``–``hi``; else BadInput.

    ``str.isdigit()`` is true for "²" and "①", which ``int()`` then refuses, and ``int()``
    reads Arabic-Indic digits: neither is how a page of ours writes a seat or a version.
    """
    if isinstance(value, bool):
        raise BadInput("bad_number", _("That request carried no valid number."))
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _ASCII_INT.fullmatch(value):
        number = int(value)
    else:
        raise BadInput("bad_number", _("That request carried no valid number."))
    if not lo <= number <= hi:
        raise BadInput("bad_number", _("That number is out of range."))
    return number


def _depth_ok(text: str, max_depth: int) -> bool:
    """True if the brackets of this JSON text nest at most ``max_depth`` deep (strings skipped).

    Checked before parsing: the C parser recurses once per level and fails with RecursionError
    (not a ValueError) on a text nested about a thousand deep.
    """
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def _check_value(value: Any, budget: list[int]) -> None:
    """Walk a parsed JSON value: every string clean, every number finite, at most MAX_ITEMS values."""
    stack = [value]
    while stack:
        item = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise BadInput("too_large", _("That request is too large."))
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                check_text(key)
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            raise BadInput("bad_json", _("That request is not valid JSON."))


def parse_json(text: Any, *, max_depth: int = MAX_DEPTH, max_length: int = 64 * 1024) -> Any:
    """The value of a JSON text that is small, shallow and clean; else BadInput."""
    check_text(text, max_length=max_length)
    if not _depth_ok(text, max_depth):
        raise BadInput("too_deep", _("That request is nested too deeply."))
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BadInput("bad_json", _("That request is not valid JSON.")) from None
    _check_value(value, [MAX_ITEMS])
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def check_fields(fields: Any, *, max_length: int) -> dict[str, str]:
    """A form's fields (from a POST or a socket frame): a flat dict of short, clean strings."""
    if not isinstance(fields, dict):
        raise BadInput("bad_type", _("That request is not a form."))
    for key, value in fields.items():
        check_text(key, max_length=100)
        check_text(value, max_length=max_length)
    return fields


# ----------------------------------------------------------------------------------- HTTP


def _request_texts(request: HttpRequest) -> Iterable[str]:
    yield request.path
    for data in (request.GET, request.POST):
        for key, values in data.lists():
            yield key
            yield from values


def refusal_response(request: HttpRequest, error: BadInput, status: int = 400) -> HttpResponse:
    """The page a malformed request gets: its reason and its code (a page of its own: the session,
    the user and the language middleware have not run, and must not, on such a request)."""
    with translation.override(translation.get_language_from_request(request)):
        html = render_to_string("400.html", {"error": error, "LANGUAGE_CODE": translation.get_language()})
    return HttpResponse(html, status=status)


class InputGuardMiddleware:
    """Refuses with 400 any request whose path, query or form fields hold a character no text of
    ours may contain (NUL above all), before the session, the URL resolver, a view or the database
    sees it; a cookie holding one is dropped, as if it had not been sent.

    Values that must be numbers or JSON are checked where they are read (``parse_int``,
    ``parse_json``): only their reader knows the range and the depth.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for name, value in list(request.COOKIES.items()):
            if _FORBIDDEN.search(name) or _FORBIDDEN.search(value):
                del request.COOKIES[name]
        try:
            request.body  # noqa: B018 - read (and size-checked by Django) first, so a view may still read it
            for text in _request_texts(request):
                check_text(text)
        except BadInput as exc:
            return refusal_response(request, exc)
        return self.get_response(request)
