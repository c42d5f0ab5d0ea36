"""Settings read the environment (DESIGN §6); production settings pass `check --deploy`."""

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


def test_check_deploy_is_clean_with_production_settings():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env_extra={
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "x7Rk2p9Qv4Lm8Nz1Tb6Wc3Yd5Hf0Js2Ga9Ue4Io7Pl1Kq8Mw3Xn6Zr5Vt2By9Cs4D",
            "DJANGO_ALLOWED_HOSTS": "rummy.example.com",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret():
    result = run_manage("check", env_extra={"DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "x"})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_environment_selects_database_and_channel_layer():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE']);"
        "print(s.CHANNEL_LAYERS['default']['BACKEND']);"
        "print(s.DEBUG)"
    )
    default = run_manage("shell", "--no-imports", "-c", code)
    assert default.stdout.split() == ["django.db.backends.sqlite3", "rummyhub.layers.SweepingInMemoryChannelLayer", "True"]
    scaled = run_manage(
        "shell",
        "--no-imports",
        "-c",
        code,
        env_extra={"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x", "REDIS_URL": "redis://127.0.0.1:6379/0"},
    )
    assert scaled.stdout.split() == [
        "django.db.backends.postgresql",
        "channels_redis.pubsub.RedisPubSubChannelLayer",
        "True",
    ]


def test_the_server_process_freezes_start_up_objects_and_collects_less_often():
    code = (
        "import gc; import rummyhub.asgi; from rummyhub import gctune;"
        "print(gc.get_threshold() == gctune.THRESHOLDS, gc.get_freeze_count() > 10000)"
    )
    result = run_manage("shell", "--no-imports", "-c", code)
    assert result.stdout.split() == ["True", "True"], result.stderr


def test_cyclic_garbage_in_the_oldest_generation_is_freed_by_the_periodic_full_collection():
    # The automatic full pass is off (gctune.THRESHOLDS); a cycle that reached the oldest
    # generation is freed only by the collector thread.  Without it, it stays for hours.
    code = (
        "import gc, sys, time, weakref\n"
        "from rummyhub import gctune\n"
        "class Node: pass\n"
        "def cycle():\n"
        "    a, b = Node(), Node(); a.b, b.a = b, a\n"
        "    ref = weakref.ref(a); gc.collect(1); return ref\n"  # survivors of gen 1 go to gen 2
        "gctune.tune(full_every=float(sys.argv[1]))\n"
        "ref = cycle(); time.sleep(0.8)\n"
        "print(ref() is None)\n"
    )
    freed = subprocess.run([sys.executable, "-c", code, "0.1"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    kept = subprocess.run([sys.executable, "-c", code, "3600"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert freed.stdout.split() == ["True"], freed.stderr
    assert kept.stdout.split() == ["False"], kept.stderr
