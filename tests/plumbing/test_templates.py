"""The per-language template loader: a fixed ``{% translate %}`` is drawn as the tag would draw it, in
the language the template was asked for in, and everything the tag cannot be replaced for is left alone."""

from __future__ import annotations

import pytest
from django.template import engines
from django.template.base import TextNode
from django.templatetags.i18n import TranslateNode
from django.utils import translation

from plumbing import templates

SOURCE = (
    "{% load i18n %}"
    '<p title="{% translate "Players" %}">{% translate "Waiting for players" %}</p>'
    "{% if on %}{% translate 'Players' context 'nothing' %}{% endif %}"
    '{% translate "Players" as word %}[{{ word }}]'
    "{% translate name %}"
    '{% autoescape off %}{% translate "A & B" %}{% endautoescape %}'
    '{% translate "A & B" %}'
)


@pytest.fixture
def loader():
    return templates.Loader(engines["django"].engine, [("django.template.loaders.locmem.Loader", {"t.html": SOURCE})])


def nodes_of(nodelist):
    for node in nodelist:
        yield node
        for child in templates._children(node):
            yield from nodes_of(child)


def render(loader, language, **context):
    from django.template import Context

    with translation.override(language):
        template = loader.get_template("t.html")
        return template, template.render(Context({"on": True, "name": "Chat", **context}))


def test_each_language_has_its_own_template_with_the_fixed_words_in_it(loader):
    ro, ro_html = render(loader, "ro")
    en, en_html = render(loader, "en")
    assert ro is not en
    assert 'title="Jucători">Așteaptă jucători</p>' in ro_html
    assert 'title="Players">Waiting for players</p>' in en_html
    with translation.override("ro"):
        assert loader.get_template("t.html") is ro  # kept


def test_what_cannot_be_fixed_is_left_to_the_tag(loader):
    template, html = render(loader, "ro")
    left = [node for node in nodes_of(template.nodelist) if isinstance(node, TranslateNode)]
    # ``as word`` and a variable
    assert len(left) == 2
    assert "[Jucători]" in html
    texts = [node.s for node in nodes_of(template.nodelist) if isinstance(node, TextNode)]
    assert "Jucători" in texts and "Așteaptă jucători" in texts


def test_escaping_is_the_tags(loader):
    _template, html = render(loader, "en")
    assert html.endswith("A & BA & B")  # a literal's translation is safe: not escaped, as the tag draws it


def test_the_same_as_django_would_draw(loader):
    from django.template import Context, Template

    for language in ("en", "ro", "fa", "ta", "co"):
        with translation.override(language):
            plain = Template(SOURCE).render(Context({"on": True, "name": "Chat"}))
        assert render(loader, language)[1] == plain
