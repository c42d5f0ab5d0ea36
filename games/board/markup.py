"""Rendered markup made as the page shows it, before it is kept and sent to every socket."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe


def collapsed(html: str) -> SafeString:
    """Rendered markup with its runs of white space made one space, as the page shows them (the board
    has no preformatted text, and its pieces are sent to every socket at every move).  Only for markup
    a template rendered (escaped there)."""
    return mark_safe(" ".join(html.split()))
