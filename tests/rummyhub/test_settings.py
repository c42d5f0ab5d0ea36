"""Settings read the environment (DESIGN §6); production settings pass `check --deploy`."""

from __future__ import annotations

from tests.rummyhub.support import run_manage


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
    assert default.stdout.split() == [
        "django.db.backends.sqlite3",
        "plumbing.layers.SweepingInMemoryChannelLayer",
        "True",
    ]
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


def test_the_site_hashes_passwords_with_pbkdf2_the_suites_fast_hasher_being_the_suites_own():
    """tests/conftest.py gives the test run a fast hasher; the site itself (a fresh process with its
    settings as they are) stores passwords with Django's PBKDF2."""
    code = (
        "from django.contrib.auth.hashers import get_hasher, make_password;"
        "print(get_hasher().algorithm);"
        "print(make_password('correct-horse-battery').split('$')[0])"
    )
    result = run_manage("shell", "--no-imports", "-c", code)
    assert result.stdout.split() == ["pbkdf2_sha256", "pbkdf2_sha256"], result.stderr
