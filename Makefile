# Two entry points: `make serve` and `make test`. The first use creates .venv and installs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
DB ?= data/tabletape.duckdb

.PHONY: serve test bench install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/tabletape serve --host $(HOST) --port $(PORT) --db $(DB)

# The suite on the machine's cores, at most 4 workers: each starts its own Chromium, PostgreSQL and
# servers. A worker takes a whole file (loadfile): its module fixtures are made once, its tests run in order.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile

bench: $(STAMP)
	$(BIN)/python -m benchmarks
	$(BIN)/python -m benchmarks.marco_polo
	$(BIN)/python -m benchmarks.marco_polo_2
	$(BIN)/python -m benchmarks.http
	$(BIN)/python -m benchmarks.attack
	$(BIN)/python -m benchmarks.storm
	$(BIN)/python -m benchmarks.stats --small
	$(BIN)/python -m benchmarks.growth
	$(BIN)/python -m benchmarks.memory
	$(BIN)/python -m benchmarks.workers

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
