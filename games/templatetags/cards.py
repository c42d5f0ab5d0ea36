"""``{% card c %}``: a card's ``<li>`` in a template, written by :func:`games.board.faces.card_html`.

``c`` is a card id (``"8S.0"``; ``""`` face down) or a face made by :func:`~games.board.faces.card_face`
(a Gin hand's face also carries its ``meld`` and whether the advisor ``suggested`` it); the keyword
arguments are ``card_html``'s options: ``{% card c picture=True %}``, ``{% card "" label=... %}``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from games.board.faces import card_html, card_html_for

register = template.Library()


@register.simple_tag(name="card")
def card(c: str | dict[str, Any] | None, **options: Any) -> SafeString:
    if not isinstance(c, dict):
        return card_html(c or "", **options)
    options.setdefault("meld", c.get("meld"))
    options.setdefault("suggested", bool(c.get("suggested")))
    if c.get("hidden") or c.get("ref"):
        return card_html(c.get("ref", ""), **options)
    return card_html_for(c, **options)  # a face without a card id (a stored value shown as text)
