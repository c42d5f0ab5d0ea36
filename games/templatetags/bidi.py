"""``{{ name|bdi }}``: a value isolated in ``<bdi>`` inside a sentence (right-to-left pages read a
Latin name or a card code in its place, punctuation and all).  A builtin (settings.TEMPLATES): no
``{% load %}``.  In a ``{% blocktranslate with name=x|bdi %}`` the msgid keeps its plain ``%(name)s``.
"""

from __future__ import annotations

from django import template

from games.board import bidi as _bidi
from games.board import lists as _lists

register = template.Library()
register.filter("bdi", _bidi.bdi, is_safe=True)
# ``{{ numbers|items }}``: "1, 2, 3" with the language's own list separator (games.board.lists).
register.filter("items", _lists.items)
# ``{{ name|isolate }}``: where no markup may go (a page's <title>), the value between FSI and PDI on a
# right-to-left page (games.board.bidi.isolate), the plain-text twin of ``bdi``.
register.filter("isolate", _bidi.isolate)
