"""``{{ name|bdi }}``: a value isolated in ``<bdi>`` inside a sentence (right-to-left pages read a
Latin name or a card code in its place, punctuation and all).  A builtin (settings.TEMPLATES): no
``{% load %}``.  In a ``{% blocktranslate with name=x|bdi %}`` the msgid keeps its plain ``%(name)s``.
"""

from __future__ import annotations

from django import template

from games.board import bidi as _bidi

register = template.Library()
register.filter("bdi", _bidi.bdi, is_safe=True)
