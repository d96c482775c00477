# MineDuel: `make run` starts the local backend, `make test` runs every check.
# Both create and use .venv at the repo root; nothing needs an AWS account.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 3000
# The one installer, at the version the lock was written with: bootstrapped into .venv from PyPI
# with its hashes checked (tools/uv-bootstrap.txt), so only Python and make are needed.
UV ?= $(BIN)/uv
UV_DEP := $(if $(filter $(BIN)/uv,$(UV)),$(BIN)/uv)
# uv never downloads a Python of its own: .venv is made by $(PYTHON), as the README says.
export UV_PYTHON_DOWNLOADS := never

.PHONY: setup run test checks checked-workers lint typecheck cfn-lint pytest fuzz workers bench bench-imports bench-bot bench-bot-variants bench-pairing bench-fair-play openapi web-shell lighthouse lock upgrade clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(BIN)/uv: $(BIN)/python tools/uv-bootstrap.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes \
		-r tools/uv-bootstrap.txt
	touch $@

# Exactly uv.lock, hashes checked; --locked refuses a lock that no longer matches pyproject.toml
# (never resolves anew: `make lock` does that, on purpose).
$(STAMP): $(UV_DEP) uv.lock pyproject.toml layers/engine/pyproject.toml layers/service/pyproject.toml
	$(UV) sync --locked --quiet
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/mineduel serve --port $(PORT)

# After a change to a pyproject.toml's requirements: the lock resolved again (keeping every
# version it can), the environment synced to it, and the files exported from it for pip and SAM
# written (src/mineduel/lockfiles.py; tests/test_locks.py holds them to the lock).
# `make upgrade`: every package to the newest version allowed, then every test (docs/dependencies.md).
lock: $(UV_DEP)
	$(UV) lock $(LOCK_FLAGS)
	$(UV) sync --locked --quiet
	$(BIN)/python -m mineduel.lockfiles
	touch $(STAMP)

upgrade:
	$(MAKE) --no-print-directory lock LOCK_FLAGS=--upgrade
	$(MAKE) --no-print-directory test

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict layers/engine/mineduel_engine
	$(BIN)/mypy layers/service/mineduel_service src/mineduel
	@for f in functions/*/app.py; do [ -f "$$f" ] || continue; $(BIN)/mypy "$$f" || exit 1; done

cfn-lint: $(STAMP)
	@if [ -f template.yaml ]; then $(BIN)/cfn-lint template.yaml; fi

# On pytest-xdist workers: each runs whole test files (a module's local stack starts once), on
# ports and temporary directories of its own; `PYTEST_WORKERS=0 make pytest` runs in one process.
# One worker more than cores: about a third of the suite's time is spent waiting (a browser, a
# push service's retry, an authenticator's 30-second step), and the third worker fills it
# (measured on 2 cores: 6 min 51 s with two workers, 6 min 23 s with three).
# The IAM audit's unused grants are judged on all the workers' calls together.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# The schema fuzz runs in one process of its own (schemathesis' tests share one node id, which
# pytest-xdist cannot schedule: tests/conftest.py's RUN_APART), everything else on workers.
FUZZ := tests/openapi/test_schema_fuzz.py
fuzz: $(STAMP)
	$(BIN)/pytest -n 0 $(FUZZ)

workers: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --ignore=$(FUZZ)

pytest: $(STAMP)
	$(MAKE) --no-print-directory fuzz
	$(MAKE) --no-print-directory workers

checks: lint typecheck cfn-lint

# Every check, and every test: the fuzz (one process) from the start, beside the static checks
# and, once they pass, the workers; each job's output is printed whole when it ends.
test: $(STAMP)
	$(MAKE) --no-print-directory -j2 --output-sync=target fuzz checked-workers

checked-workers: checks
	$(MAKE) --no-print-directory workers

bench: $(STAMP)
	$(BIN)/python -m mineduel.benchmarks

# Each function's cold import against the libraries' floor alone (interleaved rounds;
# IMPORT_ROUNDS=25 for tighter figures, IMPORT_FUNCTIONS=CommitMoveFunction for one).
bench-imports: $(STAMP)
	$(BIN)/python -m mineduel.benchmarks.imports

# The bot benchmark compares against ms_toollib, which only the optional `bench` extra installs.
bench-bot: $(STAMP)
	$(UV) sync --locked --quiet --extra bench
	$(BIN)/python -m mineduel.benchmarks.bot

# The mineseeker and windows-duel matches alone (1,000 games each by default; VARIANT_GAMES=200
# for a quick run).
bench-bot-variants: $(STAMP)
	PART=variants $(BIN)/python -m mineduel.benchmarks.bot

# Quick pairing's and fair play's AWS calls and DynamoDB units per request (POOL=100 open seeks
# waiting by default), on the local stack.
bench-pairing: $(STAMP)
	$(BIN)/python -m mineduel.benchmarks.pairing

# Fair-play screening measured on simulated players: false positives among 2,000 honest ones,
# detection among assisted ones within 20 rated games (a bank of 160 engine-played games, then
# the players on its positions: about a minute on two cores; --quick or HONEST=... to change).
bench-fair-play: $(STAMP)
	$(BIN)/python -m mineduel.benchmarks.fair_play

# Regenerate docs/openapi.json from the handlers' models (a test fails while it is stale). The
# file is replaced only once the whole document is built: a failure leaves it as it was.
openapi: $(STAMP)
	$(BIN)/python -m mineduel.openapi --output docs/openapi.json

# The service worker's list of web/'s files and their version (docs/web.md, "An app").
web-shell: $(STAMP)
	$(BIN)/python -m mineduel.webshell

# Lighthouse 12.2.3 (npm, pinned; installed once into .lighthouse/, which git ignores) on the
# local stack's screens at phone size, in Debian's Chromium: a measurement, not a test.
LIGHTHOUSE := .lighthouse/node_modules/.bin/lighthouse
$(LIGHTHOUSE):
	npm install --prefix .lighthouse --no-audit --no-fund --save-exact lighthouse@12.2.3

lighthouse: $(STAMP) $(LIGHTHOUSE)
	$(BIN)/python -m mineduel.benchmarks.lighthouse --lighthouse $(LIGHTHOUSE)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
