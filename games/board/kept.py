"""Markup and text kept by their content, for the boards drawn again at every version."""

from __future__ import annotations

import threading


class Kept:
    """Up to ``size`` values by key, the oldest dropped first; safe from several threads.

    For markup and text that never change for their key (a seat row's fields, a log entry) and
    are asked for again at every push: renders run on the event loop and on worker threads.
    """

    def __init__(self, size: int):
        self.size = size
        self._items: dict = {}
        self._lock = threading.Lock()

    def get(self, key):
        return self._items.get(key)

    def put(self, key, value) -> None:
        with self._lock:
            while len(self._items) >= self.size:
                del self._items[next(iter(self._items))]  # the oldest (dicts keep insertion order)
            self._items[key] = value

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))
