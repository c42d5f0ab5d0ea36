"""Right-to-left reading: what a sentence is filled with (a player's name, a card, a number) is
isolated from the words around it, so that a Persian sentence keeps its punctuation and its order
around a Latin name or "10♠" (and an English one around a Persian name).

In plain text (a log line, a prompt, a refusal, which also reach the page's title and the
screen reader's live region) a value is put between Unicode's FIRST STRONG ISOLATE and POP DIRECTIONAL
ISOLATE, the characters that ``<bdi>`` stands for; it is done where it matters: on a right-to-left
page, or for a value written right to left.  Templates use the ``bdi`` filter (``<bdi>``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language_bidi

FSI, PDI = "\u2068", "\u2069"


@lru_cache(maxsize=4096)  # names and cards: a few, again at every push
def _has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def isolate(value: Any) -> Any:
    """``value`` (a string) between FSI and PDI on a right-to-left page or when it is itself written
    right to left; anything else (a number for ``%d``) as it is."""
    if not isinstance(value, str) or not value or value.startswith(FSI):
        return value
    if get_language_bidi() or _has_rtl(value):
        return FSI + value + PDI
    return value


def isolated(params: Mapping[str, Any]) -> dict[str, Any]:
    """A sentence's parameters, each string isolated (:func:`isolate`)."""
    return {key: isolate(value) for key, value in params.items()}


def bdi(value: Any) -> SafeString:
    """``value`` in a ``<bdi>`` element, escaped (the ``bdi`` template filter)."""
    return format_html("<bdi>{}</bdi>", value)
