"""A date sent in a socket message's context (plain data: an ISO 8601 string) as the datetime the
``date`` filter formats in the page's language (templates/fairplay/chat_muted.html)."""

from __future__ import annotations

from datetime import datetime

from django import template

register = template.Library()


@register.filter
def from_iso(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if value else None
    except (TypeError, ValueError):
        return None
