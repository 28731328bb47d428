# The two commands that matter: `make run` and `make test`. Everything else is a step of them.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup system-deps lint format check fast-tests test run bench demo-catalog demo-prices demo-prices-report clean

# The inner loop: no browser, no model, no Redis or Milvus, no external data, nothing slow.
FAST_TESTS := not slow and not browser and not model and not redis and not milvus and not shared_data
# Parallel test workers; each has its own Redis database and ports (tests/conftest.py).
TEST_WORKERS ?= auto
# Every target may write bytecode caches, whatever the shell says: with PYTHONDONTWRITEBYTECODE
# set, an editable checkout never caches src/'s bytecode nor pytest its rewritten tests, so every
# process (each test worker, each `cartwise` a test starts) compiled every module it imported
# from source again (~0.6 s of CPU of a one-shot `cartwise ask`). __pycache__ is ignored by git.
unexport PYTHONDONTWRITEBYTECODE

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

system-deps:
	@scripts/ensure-system-deps.sh

lint: setup
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/lint-imports

format: setup
	$(BIN)/ruff check --fix src tests benchmarks scripts
	$(BIN)/ruff format src tests benchmarks scripts

# The static checks beside the fast tests, not before them: mypy runs on one core, and a cold
# one (a fresh clone) takes about a minute of a busy machine, which the test workers use
# meanwhile. Either failing fails `check`; each line of output comes out whole.
check: setup
	$(MAKE) --no-print-directory -j2 --output-sync=line lint fast-tests

fast-tests: setup
	$(BIN)/pytest -q -n $(TEST_WORKERS) -m '$(FAST_TESTS)'

test: setup system-deps
	scripts/with-redis.sh bash -c '$(MAKE) --no-print-directory lint && $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile'

run: setup
	$(BIN)/cartwise serve

bench: setup system-deps
	scripts/with-redis.sh $(BIN)/python -m benchmarks

demo-catalog: setup
	$(BIN)/python scripts/generate_demo_catalog.py
	$(BIN)/python scripts/gen_catalog_doc.py
	$(BIN)/python scripts/export_demo_vectors.py

# Re-derive the demo catalog's price table from the real listings in ../shared/data (then
# `make demo-catalog`, then `demo-prices-report`).
demo-prices: setup
	$(BIN)/python scripts/calibrate_demo_prices.py

demo-prices-report: setup
	$(BIN)/python scripts/calibrate_demo_prices.py --report

clean:
	rm -rf $(VENV) .cartwise .pytest_cache .mypy_cache .ruff_cache
