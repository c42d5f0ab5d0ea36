"""What the in-process benchmarks share: a throwaway database, and broadcasts handed to a running loop.

``clock_step.py``, ``move_cost.py`` and ``tournament_seat_service.py`` run the project's code in their own
process, as the server does (not in debug), on a database of their own.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def database(name: str, *, sqlite: bool = False, **env: str) -> Iterator[None]:
    """PostgreSQL database ``name`` (created, then dropped) or a SQLite file, set up for Django in this
    process with ``env`` (the server's settings: not in debug, no Redis); Django is set up by the caller."""
    if sqlite:
        url = f"sqlite:////tmp/{name}.sqlite3"
    else:
        url = f"postgres://postgres@127.0.0.1:5432/{name}"
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="rummyhub.settings",
        DATABASE_URL=url,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="bench-" + name,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        **env,
    )
    os.environ.pop("REDIS_URL", None)
    try:
        yield
    finally:
        if sqlite:
            Path(f"/tmp/{name}.sqlite3").unlink(missing_ok=True)
        else:
            from django.db import connections

            connections.close_all()
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--force", name], check=False)


def broadcasts_to_a_running_loop() -> None:
    """As in daphne, where a command's or the clock's thread belongs to the server's event loop: broadcasts
    are handed to a running loop (in-memory channel layer, no socket listening) and not waited for."""
    import asyncio
    import threading

    from asgiref.sync import SyncToAsync

    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    SyncToAsync.threadlocal.main_event_loop = loop
