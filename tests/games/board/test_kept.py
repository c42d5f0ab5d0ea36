"""games.board.kept.Kept: what it keeps when full."""

from __future__ import annotations

import threading

from games.board.kept import Kept


def test_a_full_cache_drops_the_entry_least_recently_asked_for():
    # A table in play asks for its markup at every version: an entry still asked for stays, however
    # long ago it was put; the one nobody asked for since goes.
    kept = Kept(3)
    for key in "abc":
        kept.put(key, key.upper())
    assert kept.get("a") == "A"  # asked for again: now the newest
    kept.put("d", "D")
    assert kept.get("b") is None  # put after "a", asked for never since: dropped
    assert [kept.get(k) for k in "acd"] == ["A", "C", "D"]
    assert len(kept) == 3


def test_putting_a_key_again_replaces_its_value_and_keeps_the_size():
    kept = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("a", 3)
    kept.put("c", 4)  # "b" is now the least recently used
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (3, None, 4)
    assert len(kept) == 2


def test_threads_asking_and_putting_at_once_never_exceed_the_size_nor_fail():
    kept = Kept(64)
    failures = []

    def work(offset: int) -> None:
        try:
            for i in range(5_000):
                key = (offset + i) % 200
                if kept.get(key) is None:
                    kept.put(key, str(key))
        except Exception as exc:  # any failure fails the test below
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(n * 37,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert len(kept) <= 64
    assert all(kept.get(k) in (None, str(k)) for k in range(200))
