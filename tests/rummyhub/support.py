"""manage.py run in a child process with a clean environment (no DJANGO_*, DATABASE_URL, REDIS_URL)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
