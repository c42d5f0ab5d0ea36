"""Lists inside a translated sentence: their separators are words of the language too (Persian
writes «،» and «؛», not ", " and "; "), so they come from the catalogue, never from the code."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import get_language, pgettext

from games.board import kept

_SEPARATORS: dict[str | None, tuple[str, str]] = kept.forgettable({})


def _separators() -> tuple[str, str]:
    """(between items, between clauses) in the current language, looked up once per language."""
    language = get_language()
    found = _SEPARATORS.get(language)
    if found is None:
        found = _SEPARATORS[language] = (pgettext("list separator", ", "), pgettext("clause separator", "; "))
    return found


def separator() -> str:
    """The separator between a list's items in the reader's language (", "; Persian "، ")."""
    return _separators()[0]


def items(values: Iterable[object]) -> str:
    """ "a, b, c": the items of a list inside a sentence."""
    return separator().join(str(v) for v in values)


def clauses(values: Iterable[object]) -> str:
    """ "a; b; c": clauses, each of which may hold a list of its own."""
    return _separators()[1].join(str(v) for v in values)
