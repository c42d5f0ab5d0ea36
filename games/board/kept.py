"""Markup and text kept by their content, for the boards drawn again at every version.

Everything kept here in a language (its words, its markup) is registered (:class:`Kept` itself,
and :func:`forgettable` for plain dicts), so :func:`forget_all` drops it all: a test that swaps a
language's catalogue while the process runs (the catalogues never change in a running server).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager


class Kept:
    """Up to ``size`` values by key, the least recently used dropped first; safe from several threads.

    For markup and text that never change for their key (a seat row's fields, a log entry) and
    are asked for again at every push: renders run on the event loop and on worker threads.  A hit
    makes its entry the newest: what the tables in play ask for at every version stays, however
    long ago it was first put (dropping the oldest put, as this did, dropped markup still in use:
    at 250 tables about one fragment a version was drawn again, bench/README.md "Twentieth round").
    """

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        _FORGETTABLE.append(self)

    def get(self, key):
        items = self._items
        value = items.get(key)
        if value is not None:
            try:
                items.move_to_end(key)  # one C call: atomic under the GIL, as the get is
            except KeyError:  # dropped by a put meanwhile
                pass
        return value

    def put(self, key, value) -> None:
        with self._lock:
            items = self._items
            items[key] = value
            items.move_to_end(key)
            while len(items) > self.size:
                items.popitem(last=False)  # the least recently used

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))


_FORGETTABLE: list = []  # what forget_all clears: every Kept, and the dicts registered by forgettable


def forgettable(cache: dict) -> dict:
    """Register a module's dict of words or markup kept per language; returns it."""
    _FORGETTABLE.append(cache)
    return cache


def forget_all() -> None:
    """Drop everything kept (a test that swapped a catalogue; the templates' own cache is Django's loaders')."""
    for cache in _FORGETTABLE:
        cache.clear()


@contextmanager
def drawn_afresh() -> Iterator[None]:
    """Meanwhile every :class:`Kept` starts empty, and what is put in it is dropped after: a test draws a
    board from scratch, to compare it with the boards drawn from what is kept.  Not for a running server
    (every other thread's renders miss meanwhile, and what they put is lost)."""
    held = [(cache, cache._items) for cache in _FORGETTABLE if isinstance(cache, Kept)]
    for cache, _items in held:
        with cache._lock:
            cache._items = OrderedDict()
    try:
        yield
    finally:
        for cache, items in held:
            with cache._lock:
                cache._items = items
