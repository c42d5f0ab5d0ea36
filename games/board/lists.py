"""Lists inside a translated sentence: their separators are words of the language too (Persian
writes «،» and «؛», not ", " and "; "), so they come from the catalogue, never from the code."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import pgettext


def separator() -> str:
    """The separator between a list's items in the reader's language (", "; Persian "، ")."""
    return pgettext("list separator", ", ")


def items(values: Iterable[object]) -> str:
    """ "a, b, c": the items of a list inside a sentence."""
    return separator().join(str(v) for v in values)


def clauses(values: Iterable[object]) -> str:
    """ "a; b; c": clauses, each of which may hold a list of its own."""
    return pgettext("clause separator", "; ").join(str(v) for v in values)
