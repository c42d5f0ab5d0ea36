# RummyHub — the two commands of the README:
#   make run    set everything up and serve http://127.0.0.1:8000 (SQLite, in-memory channel layer), with the
#               post-game analysis worker beside the server (scripts/run.sh; Ctrl-C stops both)
#   make test   set everything up and run ruff (lint and format check), the import contract and the whole test suite
# Both are idempotent: a second run only re-installs what changed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
# The tests run in this many processes at once (pytest-xdist): one per core.  The browser tests too,
# in their own invocation: each process has its own test database, Redis prefix, daphne server (on a
# free port) and Chromium; work is stolen from a busy process so one long journey does not hold the end.
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
E2E_ARGS = -n $(TEST_WORKERS) --dist worksteal
# The other tests in one process more than the cores: some of them wait (on sockets, PostgreSQL, a child
# process) and another process uses the core meanwhile (4:31 -> 4:05 here on 2 cores; the browser tests,
# whose Chromium keeps the cores busy, were slower so).
UNIT_ARGS = -n $(shell echo $$(( $(TEST_WORKERS) + 1 ))) --dist worksteal
SORTABLE := static/vendor/sortablejs/Sortable.min.js
# The webfonts (Fontsource packages from npm): only the subsets the site needs, with their @font-face rules.
FONTS := static/vendor/fonts/fonts.css
# axe-core (a devDependency, installed by `npm ci`): the browser tests inject it to check accessibility.
AXE := node_modules/axe-core/axe.min.js
# The catalogues (committed) and their compiled .mo files (built here, git-ignored).
PO_FILES := $(wildcard locale/*/LC_MESSAGES/*.po)
MO_STAMP := locale/.compiled
LANGS := ro fa ta co

.PHONY: run test setup setup-dev system assets migrate lint test-unit test-e2e bench clean messages messages-check

run: setup migrate
	$(PY) manage.py collectstatic --noinput -v 0
	@echo ""
	@echo "  RummyHub is running at http://$(HOST):$(PORT)/  (Ctrl-C stops it)"
	@echo ""
	@PY=$(PY) DAPHNE=$(VENV)/bin/daphne HOST=$(HOST) PORT=$(PORT) scripts/run.sh

test: setup-dev
	@scripts/ensure-system.sh chromium
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
# Models against migrations: no database needed, so the embedded one (a DATABASE_URL's database
# may not exist yet: CI's PostgreSQL has only the tests' own).
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py makemigrations --check --dry-run -v 0
	$(VENV)/bin/pytest -m "not e2e" $(UNIT_ARGS)
	$(VENV)/bin/pytest -m e2e $(E2E_ARGS)

test-unit: setup-dev
	$(VENV)/bin/pytest -m "not e2e" $(UNIT_ARGS)

test-e2e: setup-dev
	@scripts/ensure-system.sh chromium
	$(VENV)/bin/pytest -m e2e $(E2E_ARGS)

system:
	@scripts/ensure-system.sh python node

$(VENV)/bin/python:
	@scripts/ensure-system.sh python
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.runtime-installed: requirements.txt | $(VENV)/bin/python
	$(PIP) install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(PIP) install -q -r requirements-dev.txt
	touch $@ $(VENV)/.runtime-installed

node_modules/.package-lock.json: package.json package-lock.json
	@scripts/ensure-system.sh node
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(SORTABLE): node_modules/.package-lock.json
	mkdir -p $(dir $@)
	cp node_modules/sortablejs/Sortable.min.js node_modules/sortablejs/LICENSE $(dir $@)

$(FONTS): node_modules/.package-lock.json scripts/fonts.py | $(VENV)/.runtime-installed
	$(PY) scripts/fonts.py

assets: $(SORTABLE) $(FONTS)

$(AXE): node_modules/.package-lock.json
	@test -f $@ || { echo "$@ is missing: run npm ci"; exit 1; }

# The .mo files every language needs (Django finds a language only with its catalogue: Corsican,
# which Django itself does not ship, is offered only once locale/co has its .mo).
$(MO_STAMP): $(PO_FILES) | $(VENV)/.runtime-installed
	@scripts/ensure-system.sh gettext
	$(PY) manage.py compilemessages -v 0 --ignore=.venv --ignore=node_modules
	touch $@

setup: $(VENV)/.runtime-installed assets $(MO_STAMP)

setup-dev: $(VENV)/.dev-installed assets $(AXE) $(MO_STAMP)

migrate: setup
	$(PY) manage.py migrate --noinput -v 0

lint: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

# Extract every marked string into locale/<lang>/LC_MESSAGES/django.po (headers and Plural-Forms set,
# Django's own words filled from Django's catalogues: games/management/commands/makemessages.py).
messages: setup-dev
	@scripts/ensure-system.sh gettext
	$(PY) manage.py makemessages $(addprefix -l ,$(LANGS)) --ignore=.venv --ignore=node_modules \
	  --ignore=tests --ignore=bench --ignore=staticfiles --ignore=static/vendor --ignore=artifacts

# Each catalogue's figures: 0 untranslated and 0 fuzzy when the translations are complete.
messages-check:
	@scripts/ensure-system.sh gettext
	@for po in $(PO_FILES); do printf '%s: ' $$po; msgfmt --check --statistics -o /dev/null $$po 2>&1; done

bench: setup-dev
	$(PY) bench/engine_manipulation.py
	$(PY) bench/engine_gin.py

clean:
	rm -rf $(VENV) node_modules static/vendor staticfiles artifacts
