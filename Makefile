# Referee. GNU make. `make run` serves the app on the LAN; `make test` runs every test.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PORT ?= 8000
WORKERS ?= 2
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp
TRANSLATIONS := referee/translations
POT := $(TRANSLATIONS)/messages.pot
PO_FILES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
MO_FILES := $(PO_FILES:.po=.mo)
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: help venv install translations messages run run-https test test-sqlite test-pg typecheck \
        system-deps bench bench-quick bench-pg bench-taps bench-championship lint clean

help:
	@echo "make run      serve on the LAN, Caddy in front of gunicorn (PORT=$(PORT)); prints the URL to open"
	@echo "make run-https the same over HTTPS, Caddy in front (DOMAIN=... for a public certificate)"
	@echo "make test     set everything up and run every test (SQLite, then PostgreSQL)"
	@echo "make bench    print benchmark figures (tests/bench)"
	@echo "make bench-quick every benchmark once, small, no figure judged (make test runs it last)"
	@echo "make bench-pg the league and clubs benchmarks on PostgreSQL only (pg_virtualenv)"
	@echo "make bench-taps one hand of each game tapped in Chromium: taps, and ms per tap on a cheap phone"
	@echo "make bench-championship a championship day at full size: the draw, the ranking, 75 phones and 20 watchers"
	@echo "make lint     ruff (format and lint) and the complexity ceiling; make test runs it first"
	@echo "make upgrade  upgrade a server in place: code, runtime dependencies, catalogues, schema, restart"
	@echo "make messages extract strings and update the .po files"
	@echo "make clean    remove the venv and caches"

## The virtualenv is rebuilt only when pyproject.toml or constraints.txt change.
venv install: $(STAMP)
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	touch $@

## A server's upgrade in place (docs/club-server.md, "Upgrading a server"): git pull, the runtime
## dependencies only (no test tools), the catalogues, the schema, and a restart of referee.service.
.PHONY: upgrade
upgrade:
	@tools/upgrade.sh

## Compiled catalogues (.mo) are build products, not in git.
translations: $(MO_FILES)
$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | $(STAMP)
	$(BIN)/pybabel compile --use-fuzzy -d $(TRANSLATIONS) -l $* --statistics

## Extract every marked string (_, gettext, ngettext, lazy _l, the rules' no-op N_) and
## merge it into the catalogues. Then translate the new entries in pt_BR/messages.po.
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k _l -k N_ -k NP_:1,2 --sort-output --no-location --width=100 \
	    --project=Referee -o $(POT) .
	$(BIN)/pybabel update -i $(POT) -d $(TRANSLATIONS) --no-fuzzy-matching --width=100 \
	    --ignore-obsolete
	rm -f $(POT)

## HTTPS on the LAN (Caddy's own authority; phones trust it once at /ca), or on DOMAIN=club.example.org
## (a public certificate): Caddy in front of gunicorn, both stopped by Ctrl-C (referee/serve/).
run-https: $(STAMP) translations
	@exec $(PY) -m referee.serve --https --workers $(WORKERS) $(if $(DOMAIN),--domain $(DOMAIN)) \
	    $(if $(HTTPS_PORT),--https-port $(HTTPS_PORT)) $(if $(HTTP_PORT),--http-port $(HTTP_PORT))

## Plain http on the LAN: Caddy on PORT in front of gunicorn (on a private socket), so slow or
## stalled connections wait in Caddy, not in gunicorn's few threads (referee/serve/cli.py says why).
## Without Caddy (and not root to install it), gunicorn alone, with a warning.
run: $(STAMP) translations
	@exec $(PY) -m referee.serve --port $(PORT) --workers $(WORKERS)

## Debian packages the tests need (root only; skipped when already there).
system-deps:
	@missing=""; \
	test -x /usr/bin/chromium || missing="$$missing chromium chromium-driver fonts-liberation"; \
	command -v pg_virtualenv >/dev/null || missing="$$missing postgresql"; \
	command -v zbarimg >/dev/null || missing="$$missing zbar-tools"; \
	command -v caddy >/dev/null || missing="$$missing caddy"; \
	command -v certutil >/dev/null || missing="$$missing libnss3-tools"; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        $(APT_GET) update -qq && $(APT_GET) install -y -qq --no-install-recommends $$missing; \
	    else \
	        echo "warning: missing Debian packages:$$missing (run as root to install)" >&2; \
	    fi; \
	fi

test: system-deps $(STAMP) translations lint typecheck test-sqlite test-pg
	@$(MAKE) --no-print-directory bench-quick

typecheck: $(STAMP)
	@if [ -d referee/rules ]; then $(BIN)/mypy --strict referee/rules; \
	else echo "referee/rules not there yet: mypy skipped"; fi

# pytest exits 5 when it collected nothing: that must fail, so no `|| true` anywhere.
test-sqlite: $(STAMP) translations
	$(BIN)/pytest

## The PostgreSQL pass runs again only the tests that reach the database (--database-only,
## tests/conftest.py): the others gave their answer in the SQLite pass. Each pass migrates once.
## The upgrade from the previous release runs on both databases.
test-pg: $(STAMP) translations
	@if command -v pg_virtualenv >/dev/null; then \
	    pg_virtualenv -t sh -c 'TEST_DATABASE_URL=postgresql+psycopg:// $(BIN)/pytest -q --database-only tests/web tests/proof tests/packaging/test_upgrade.py'; \
	else echo "pg_virtualenv not found: PostgreSQL run skipped" >&2; fi

bench: $(STAMP) translations
	$(PY) -m tests.bench.run
	@$(MAKE) --no-print-directory bench-pg

## Every benchmark once, small (BENCH_QUICK=1, tests/bench/run.py --quick): a few iterations, small
## sizes, short loads, one hand in the browser; no figure is judged, but a benchmark a change broke
## (an exception, a request that failed) fails `make test`, which runs it after the tests.
bench-quick: $(STAMP) translations
	$(PY) -m tests.bench.run --quick

## One hand of each game tapped in Chromium (tests/bench/game_paths.py), on a desktop and on a
## cheap-phone profile (docs/speed.md); `make bench` runs it too.
bench-taps: $(STAMP) translations
	$(PY) -m tests.bench.run game_taps

## A championship day at the issue's size (tests/bench/bench_championship.py): 300 players, 75
## tables, 5 rounds of 40 deals; the draw, the ranking pages, 75 scorer phones and 20 watchers on
## gunicorn. `make bench` runs it too. BENCH_CHAMP_SECONDS=300 for a longer paced load.
bench-championship: $(STAMP) translations
	$(PY) -m tests.bench.run championship draw

## The league's and the clubs' benchmarks on PostgreSQL, on a throwaway cluster (`make bench` runs
## it last). BENCH_LEAGUE_SIZES=100000 for a quick run (default 100k, 300k and 1M hands);
## BENCH_CLUBS_HANDS=100000 likewise for the big club among 1,000 (default 1M).
bench-pg: $(STAMP) translations
	@if command -v pg_virtualenv >/dev/null; then \
	    pg_virtualenv -t sh -c 'TEST_DATABASE_URL=postgresql+psycopg:// $(PY) -m tests.bench.run league clubs'; \
	else echo "pg_virtualenv not found: the league benchmark on PostgreSQL skipped (make system-deps installs it)" >&2; fi

## Format, lint, and no function above cyclomatic complexity 20 (radon's rank D or worse).
lint: $(STAMP)
	$(BIN)/ruff format --check --quiet referee tests tools
	$(BIN)/ruff check --quiet referee tests tools
	@complex=$$($(BIN)/radon cc --min D --show-complexity referee); \
	if [ -n "$$complex" ]; then echo "above complexity 20:"; echo "$$complex"; exit 1; fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .hypothesis *.egg-info tests/e2e/screenshots
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find $(TRANSLATIONS) -name '*.mo' -delete
