#!/bin/sh
# `make run`: the server (daphne) and, beside it, the worker of the post-game analysis and of the
# notifications' push and mail (`manage.py runworker analysis notifications`, games/analysis/worker.py,
# notifications/consumers.py); Ctrl-C stops both.
#
# With the embedded default (SQLite, in-memory channel layer) the worker cannot hear the server: it
# finds finished matches by polling the database every RUMMYHUB_ANALYSIS_POLL seconds.  In production
# run the same command as a service of its own beside the daphne processes (REDIS_URL set: the
# servers also wake it through Redis when a match ends).
set -u
PY=${PY:-.venv/bin/python}
DAPHNE=${DAPHNE:-.venv/bin/daphne}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}

"$PY" manage.py runworker analysis notifications &
worker=$!

stop_worker() {
  kill -TERM "$worker" 2>/dev/null
  wait "$worker" 2>/dev/null
}
trap stop_worker EXIT
trap 'exit 130' INT TERM

"$DAPHNE" -b "$HOST" -p "$PORT" rummyhub.asgi:application
