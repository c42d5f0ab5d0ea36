"""RummyHub settings: one file, driven by the environment (DESIGN.md §6).

With no environment variable set this is a local development server on SQLite
with the in-memory channel layer.  Production sets at least
``DJANGO_SECRET_KEY``, ``DJANGO_DEBUG=0``, ``DJANGO_ALLOWED_HOSTS``,
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

import dj_database_url
from django.conf.locale import LANG_INFO
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_rate(name: str, default: str) -> str:
    """A django-ratelimit rate: a count per period, such as ``5/15m`` (periods s, m, h, d)."""
    value = os.environ.get(name) or default
    if not re.fullmatch(r"\d+/\d*[smhd]", value):
        raise ImproperlyConfigured(f"{name} must be a count per period such as 5/15m, not {value!r}.")
    return value


DEBUG = env_bool("DJANGO_DEBUG", True)


def _secret_key() -> str:
    key = os.environ.get("DJANGO_SECRET_KEY", "")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    # Development: a generated secret, kept in a git-ignored file so sessions
    # survive a restart and several local processes agree on it.
    path = BASE_DIR / ".dev-secret-key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        path.write_text(key)
        return key


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS",
    ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [],
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",  # first: `manage.py runserver` then serves websockets too
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "django_ratelimit",
    "accounts",
    "games",
    "notifications",
    "fairplay",  # above games: blocks, reports, abandons (docs/fair-play.md)
    # After games: the first app's command wins, and games' `runworker` adds the analysis worker's poll.
    "channels",
]

MIDDLEWARE = [
    # Outermost: the connection goes back to the pool when the answer is made (plumbing/dbrelease.py).
    "plumbing.dbrelease.ReleaseConnectionsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The one input layer (plumbing/inputs.py): a NUL byte in a path, a query or a field is a 400
    # before the session or any view reads it.
    "plumbing.inputs.InputGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A log-in brings back the player's language (the profile's) in the language cookie.
    "accounts.language.ProfileLanguageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "rummyhub.urls"
ASGI_APPLICATION = "rummyhub.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # django-template-partials' loader (``name#partial``) around Django's cached loader, here one
            # that compiles a template once per language with its fixed words translated (plumbing.templates).
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "plumbing.templates.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% partialdef %} / {% partial %} and the |bdi filter in every template without a {% load %}.
            "builtins": ["template_partials.templatetags.partials", "games.templatetags.bidi"],
        },
    },
]

# ---------------------------------------------------------------- database
# Waiting for a table (games.versions.gate, services.with_retry and _locked): a move or other table command
# waits at most RUMMYHUB_LOCK_TIMEOUT seconds for the commands of its table in this process, and
# as long for the table's row (PostgreSQL's lock_timeout, set per transaction; SQLite's busy
# timeout); it is run again after a wait cut short only within RUMMYHUB_LOCK_BUDGET seconds in
# all, and refused otherwise ("the table is busy"): every command is answered within a few seconds.
RUMMYHUB_LOCK_TIMEOUT = float(os.environ.get("RUMMYHUB_LOCK_TIMEOUT", "2"))
RUMMYHUB_LOCK_BUDGET = float(os.environ.get("RUMMYHUB_LOCK_BUDGET", "4"))

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0,  # ASGI: no persistent connections across event-loop threads
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # Writers queue (for at most this many seconds) instead of failing at once with
        # "database is locked"; a table command is then run again or refused (with_retry).
        "transaction_mode": "IMMEDIATE",
        "timeout": RUMMYHUB_LOCK_TIMEOUT,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not memory: the browser tests' daphne process must see the data.  One per
    # test process, so two test runs on one machine never share (or delete) each other's.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A bounded pool per process (psycopg_pool): no new connection per request or socket
    # render, and never more than DATABASE_POOL_MAX connections from one process.  What may hold
    # one at once in a daphne process:
    #   - the clock's workers: RUMMYHUB_CLOCK_WORKERS (4), at most half the pool;
    #   - the one thread of the sockets' connects and closes;
    #   - the event loop's default executor, min(32, CPUs + 4) threads (6 on 2 cores): the
    #     sockets' moves and board loads, and Django's logging of each 4xx/5xx answer;
    #   - one thread per HTTP request in flight, from its session lookup to its end (a table
    #     command gives its connection back as soon as its answer is rendered).
    # So 12 = 4 + 1 + 6 + 1, the HTTP requests sharing whatever is free.  Requests may queue on
    # the pool in a burst; what must not happen is holding a connection while waiting for
    # something else: a table's commands wait for its row one per process (games.versions.gate), the
    # others wait without a connection.  No connection within DATABASE_POOL_TIMEOUT seconds: a
    # table command is refused "server busy" (HTTP 503, the socket's error), anything else
    # answers 500; fast, either way.  Keep processes x DATABASE_POOL_MAX below PostgreSQL's
    # max_connections (100 by default).
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": 1,
            "max_size": env_int("DATABASE_POOL_MAX", 12),
            "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "5")),
        },
    }
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ----------------------------------------------------------- channel layer
REDIS_URL = os.environ.get("REDIS_URL", "")
# What this site's keys and channels on Redis start with.  The test suite runs in several processes
# at once (pytest-xdist), each with its own test database whose ids start at 1: each also gets its own
# prefix, or one process's "table-1" group would reach another's sockets.
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "rummyhub") + os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # No socket timeout: idle subscriptions must not be dropped.
                "hosts": [{"address": REDIS_URL, "socket_timeout": None, "max_connections": 10000}],
                "prefix": REDIS_PREFIX,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "plumbing.layers.SweepingInMemoryChannelLayer"}}

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
        }
    }
# The table board's per-version fragments (log, scores): rendered by every socket of a table
# in this process within milliseconds, so a process-local cache; a network round trip per
# render would cost more than the fragment.  One entry per version (about 2 KB): only the newest
# version of each table is still read, so 1,000 cover every table in play (5,000 kept 10 MB of dead ones).
CACHES["board"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "board",
    "OPTIONS": {"MAX_ENTRIES": 1000},
}

# -------------------------------------------------------------------- auth
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Rate limits (accounts/ratelimit.py): POSTs per account / per client address per window.
RUMMYHUB_LOGIN_LIMIT_ACCOUNT = env_rate("RUMMYHUB_LOGIN_LIMIT_ACCOUNT", "5/15m")
RUMMYHUB_LOGIN_LIMIT_ADDRESS = env_rate("RUMMYHUB_LOGIN_LIMIT_ADDRESS", "20/15m")
RUMMYHUB_RESET_LIMIT_EMAIL = env_rate("RUMMYHUB_RESET_LIMIT_EMAIL", "3/h")
RUMMYHUB_RESET_LIMIT_ADDRESS = env_rate("RUMMYHUB_RESET_LIMIT_ADDRESS", "5/h")
# Fair play (docs/fair-play.md): the abandon rule, counted over a rolling window of days: the
# WARN_AT-th abandon in the window warns, each one after it bars from rated tables for the next
# period of the ladder (hours; the last one repeats).  Every player action is rate limited.
RUMMYHUB_ABANDON_WINDOW_DAYS = env_int("RUMMYHUB_ABANDON_WINDOW_DAYS", 30)
RUMMYHUB_ABANDON_WARN_AT = env_int("RUMMYHUB_ABANDON_WARN_AT", 2)
RUMMYHUB_ABANDON_BAR_HOURS = [int(h) for h in env_list("RUMMYHUB_ABANDON_BAR_HOURS", ["24", "72", "168", "720"])]
RUMMYHUB_FAIRPLAY_LIMIT = env_rate("RUMMYHUB_FAIRPLAY_LIMIT", "30/h")  # blocks, mutes: per player
RUMMYHUB_REPORT_LIMIT = env_rate("RUMMYHUB_REPORT_LIMIT", "10/d")  # reports: per player
# django-ratelimit's counters live in CACHES["default"]; it flags LocMem as "not shared"
# (E003) and Django's own RedisCache as "not officially supported" (W001).  LocMem is
# right for the embedded default, which is one process; production sets REDIS_URL, and
# Django's RedisCache increments atomically (INCR).
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

# ------------------------------------------------------------------- email
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "RummyHub <noreply@localhost>")

# ------------------------------------------------------------ translations
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ro", _("Romanian")),
    ("fa", _("Persian")),
    ("ta", _("Tamil")),
    ("co", _("Corsican")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Django knows no Corsican yet: describe it so the language menu can name it.
LANG_INFO["co"] = {"bidi": False, "code": "co", "name": "Corsican", "name_local": "Corsu"}
# ... and its date and number formats (rummyhub/formats/co); the other languages' are Django's.
# Digits stay Western (0-9) in every language, Persian included: Django's Persian formats use them
# too, and card ranks, scores and codes then read alike at every table (docs/architecture.md).
FORMAT_MODULE_PATH = ["rummyhub.formats"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# ------------------------------------------------------------ static files
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# static/vendor/ is filled from node_modules by `make` (git-ignored).
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("DJANGO_STATIC_MANIFEST", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", DEBUG)

# ----------------------------------------------------------------- security
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", not DEBUG)
# Behind our reverse proxy: trust its X-Forwarded-Proto, and X-Forwarded-For for rate limits.
RUMMYHUB_BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)
if RUMMYHUB_BEHIND_PROXY:
    # The proxy terminates TLS and says so in this header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# ----------------------------------------------------------------- logging
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}

# ----------------------------------------------------------------- the game
# Seconds between two bot actions (0 in tests).
RUMMYHUB_BOT_DELAY = float(os.environ.get("RUMMYHUB_BOT_DELAY", "1.0"))
# Each server process runs a clock loop (bots, timers, next rounds) every this many seconds.
# Turn-based tables (docs/turn-based.md): the most turn-based games, not yet over, one player may sit
# at (creating or joining one more is refused).  20: a turn-based table waits on each of its players
# for up to its time per move (up to 3 days), so a player in more games than they follow stalls every
# table they sit at; 20 is about what a daily player answers in one sitting, and Board Game Arena
# caps its turn-based games per player for the same reason.
RUMMYHUB_TURN_BASED_MAX = env_int("RUMMYHUB_TURN_BASED_MAX", 20)
RUMMYHUB_CLOCK = env_bool("RUMMYHUB_CLOCK", True)
RUMMYHUB_CLOCK_INTERVAL = float(os.environ.get("RUMMYHUB_CLOCK_INTERVAL", "0.25"))
# Automatic steps one process runs at once (games.live.clockloop.worker_count): SQLite always 1 (one writer
# at a time); PostgreSQL at most half of DATABASE_POOL_MAX, the rest kept for requests and sockets.
RUMMYHUB_CLOCK_WORKERS = env_int(
    "RUMMYHUB_CLOCK_WORKERS", 4 if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" else 1
)
# A file each step of this process's clock appends a line to (time, match, lateness; bench/soak.py).
RUMMYHUB_CLOCK_TRACE = os.environ.get("RUMMYHUB_CLOCK_TRACE", "")
# Table presence: each process refreshes its open table sockets' rows every RUMMYHUB_HEARTBEAT
# seconds (and sweeps lapsed rows as often); a seat whose rows were not refreshed for
# RUMMYHUB_PRESENCE_TIMEOUT seconds is offline (a killed server's players go offline by themselves).
RUMMYHUB_HEARTBEAT = float(os.environ.get("RUMMYHUB_HEARTBEAT", "30"))
RUMMYHUB_PRESENCE_TIMEOUT = float(os.environ.get("RUMMYHUB_PRESENCE_TIMEOUT", "60"))
# While an open table's socket shows a viewer why fair play keeps them out of its seats, it asks again
# this often (seconds): a bar that ends or a block lifted changes nothing at the table to bring it.
RUMMYHUB_SEAT_REFUSAL_RECHECK = float(os.environ.get("RUMMYHUB_SEAT_REFUSAL_RECHECK", "60"))
# On a PostgreSQL whose autovacuum is off, each process vacuums the rows every move rewrites this
# often (seconds; games.live.clockloop.vacuum_if_needed).
RUMMYHUB_VACUUM_EVERY = float(os.environ.get("RUMMYHUB_VACUUM_EVERY", "30"))
# Fixed shuffle seed for tests and demos; empty means a fresh random seed per round.
RUMMYHUB_FIXED_SEED = os.environ.get("RUMMYHUB_FIXED_SEED", "")

# ----------------------------------------------------------------- the post-game analysis
# The worker (`manage.py runworker analysis`, games.analysis.worker) looks for finished matches to
# analyse every RUMMYHUB_ANALYSIS_POLL seconds; a finished match also wakes it at once when the channel
# layer is shared (Redis): RUMMYHUB_ANALYSIS_NOTIFY.  A claim older than RUMMYHUB_ANALYSIS_STALE
# seconds (its worker died) is taken again.
RUMMYHUB_ANALYSIS_POLL = float(os.environ.get("RUMMYHUB_ANALYSIS_POLL", "5"))
RUMMYHUB_ANALYSIS_NOTIFY = env_bool("RUMMYHUB_ANALYSIS_NOTIFY", bool(REDIS_URL))
RUMMYHUB_ANALYSIS_STALE = float(os.environ.get("RUMMYHUB_ANALYSIS_STALE", "600"))
# The analysis is exact; a meld step whose search would pass this many solver states is stored as
# "too large to weigh" and not counted (a bound on the worker's time, not an approximation).
RUMMYHUB_ANALYSIS_MAX_STATES = env_int("RUMMYHUB_ANALYSIS_MAX_STATES", 200_000)
# The solver's search states a practice hint may use (games.analysis.hints): past it, "no hint for this
# position" instead of a long search on a request.
RUMMYHUB_HINT_MAX_STATES = env_int("RUMMYHUB_HINT_MAX_STATES", 1_500)


# ----------------------------------------------------------------- notifications (issue 27)
# Web Push signs every push with the site's VAPID key (RFC 8292): a P-256 private key, its 32-byte
# scalar in base64url.  Debug without one: generated into the git-ignored .dev-vapid-key, like the
# secret key.  Production without one: push is off (no "Notify me"), mail still goes.
def _vapid_private_key() -> str:
    key = os.environ.get("RUMMYHUB_VAPID_PRIVATE_KEY", "").strip()
    if key or not DEBUG:
        return key
    path = BASE_DIR / ".dev-vapid-key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        import base64

        from cryptography.hazmat.primitives.asymmetric import ec

        scalar = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
        key = base64.urlsafe_b64encode(scalar.to_bytes(32, "big")).rstrip(b"=").decode()
        path.write_text(key)
        return key


RUMMYHUB_VAPID_PRIVATE_KEY = _vapid_private_key()
# Who runs the site, for the push services (a mailto: or https: URL, RFC 8292 "sub").
RUMMYHUB_VAPID_SUBJECT = os.environ.get("RUMMYHUB_VAPID_SUBJECT", "mailto:admin@localhost")
# The site's address as players reach it, for the links in mail sent by the worker (no request there).
RUMMYHUB_SITE_URL = os.environ.get("RUMMYHUB_SITE_URL", "http://127.0.0.1:8000")
# The notifications worker (`manage.py runworker notifications`) looks for notices due every this many
# seconds; with a shared (Redis) layer a new notice also wakes it at once (RUMMYHUB_NOTIFY_WAKE).
RUMMYHUB_NOTIFY_POLL = float(os.environ.get("RUMMYHUB_NOTIFY_POLL", "5"))
RUMMYHUB_NOTIFY_WAKE = env_bool("RUMMYHUB_NOTIFY_WAKE", bool(REDIS_URL))
# A player without push gets at most one "your move" mail per game per this many hours.
RUMMYHUB_NOTIFY_MAIL_HOURS = float(os.environ.get("RUMMYHUB_NOTIFY_MAIL_HOURS", "12"))
# Seconds a push service may keep an undelivered push (the device offline) before dropping it.
RUMMYHUB_PUSH_TTL = env_int("RUMMYHUB_PUSH_TTL", 24 * 3600)
# Push subscriptions one player may keep (devices); the oldest goes when a new one passes it.
RUMMYHUB_PUSH_DEVICES = env_int("RUMMYHUB_PUSH_DEVICES", 10)
# The push services a subscription's endpoint may name (a host or a parent domain): the worker posts
# to that address, so a forged subscription must not point it at another server.
RUMMYHUB_PUSH_HOSTS = env_list(
    "RUMMYHUB_PUSH_HOSTS",
    ["fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com"],
)
# "Notify me" (storing a device's subscription) per player per window; over it: HTTP 429.
RUMMYHUB_PUSH_SUBSCRIBE_LIMIT = env_rate("RUMMYHUB_PUSH_SUBSCRIBE_LIMIT", "20/h")
