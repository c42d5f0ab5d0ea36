"""Django's cached template loader, one compiled template per language, its fixed words translated once.

A board is drawn again at every version of a table, for each view, and its partials hold dozens of
``{% translate "…" %}`` tags: each looks the words up in the catalogue at every render (the active
language is read from a context-local first), about a tenth of a board's CPU.  A tag whose words
and context are fixed gives the same text in a language every time, so this loader compiles each
template once per language and puts that text in place of the tag (a plain text node), drawn in
that language by the tag itself (a template's string literal is safe, so is its translation: the
tag never escapes it, whatever ``{% autoescape %}`` says).

Left as they are: a tag with ``as`` (it sets a variable), with a filter, or with a context that is
a variable; every ``{% blocktranslate %}`` (it has variables).  A ``{% language %}`` block
would change the language in the middle of a template: no template uses one, and a template that
does is compiled without this (:func:`_translate_fixed` leaves the whole template as it is).
"""

from __future__ import annotations

from django.template import Context
from django.template.base import NodeList, TextNode
from django.template.loaders import cached
from django.templatetags.i18n import LanguageNode, TranslateNode
from django.utils.translation import get_language


class Loader(cached.Loader):
    """``django.template.loaders.cached.Loader`` keyed by the active language as well."""

    def cache_key(self, template_name, skip=None):
        return f"{super().cache_key(template_name, skip)}:{get_language()}"

    def get_template(self, template_name, skip=None):
        key = self.cache_key(template_name, skip)
        fresh = key not in self.get_template_cache
        template = super().get_template(template_name, skip)
        if fresh:
            _translate_fixed(template.nodelist)
        return template


def _translate_fixed(nodelist: NodeList) -> None:
    if any(isinstance(node, LanguageNode) for node in _walk(nodelist)):
        return
    _replace(nodelist)


def _replace(nodelist: NodeList) -> None:
    for i, node in enumerate(nodelist):
        if isinstance(node, TranslateNode):
            if _fixed(node):
                text = TextNode(node.render(Context(autoescape=True)))
                text.origin, text.token = node.origin, node.token
                nodelist[i] = text
        else:
            for child in _children(node):
                _replace(child)


def _fixed(node: TranslateNode) -> bool:
    expression = node.filter_expression
    context = node.message_context
    return (
        node.asvar is None
        and not expression.filters
        and getattr(expression.var, "literal", None) is not None
        and (context is None or (isinstance(context.var, str) and not context.filters))
    )


def _children(node) -> list[NodeList]:
    if hasattr(node, "conditions_nodelists"):  # {% if %}: its ``nodelist`` is a new list of every branch's nodes
        return [branch for _condition, branch in node.conditions_nodelists]
    found = [getattr(node, name, None) for name in node.child_nodelists]
    return [nodes for nodes in found if isinstance(nodes, NodeList)]


def _walk(nodelist: NodeList):
    for node in nodelist:
        yield node
        for child in _children(node):
            yield from _walk(child)
