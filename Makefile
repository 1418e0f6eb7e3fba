# Two entry points: `make serve` and `make test`. The first use creates .venv and installs into it
# only what that target needs, every version pinned by requirements.lock (used as pip constraints).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# the environment holds no pip of its own (~25 MB with setuptools): the pip that came with python3
# installs into it (--python, pip 22.3 or newer); an older pip gets one inside, as a plain venv has
OUTER_PIP := $(shell $(PYTHON) -m pip --python "$$($(PYTHON) -c "import sys; print(sys.executable)")" --version >/dev/null 2>&1 && echo yes)
ifeq ($(OUTER_PIP),yes)
PIP := $(PYTHON) -m pip --python $(BIN)/python install --quiet -c requirements.lock
VENV_OPTIONS := --without-pip
else
PIP := $(BIN)/python -m pip install --quiet -c requirements.lock
VENV_OPTIONS :=
endif
# optional parts for serving, comma-separated: postgres (a PostgreSQL store), charts (the server charts)
EXTRAS ?=
comma := ,
EXTRA_STAMPS := $(foreach extra,$(subst $(comma), ,$(EXTRAS)),$(VENV)/.extra-$(extra))
HOST ?= 127.0.0.1
PORT ?= 8000
DB ?= data/tabletape.duckdb

.PHONY: serve test bench docs demo install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV_OPTIONS) $(VENV)

# serving alone: the runtime dependencies, no test or benchmark extras
$(VENV)/.serve: pyproject.toml requirements.lock | $(BIN)/python
	$(PIP) -e .
	@echo "$(VENV): $$(du -sh $(VENV) | cut -f1) installed for make serve"
	touch $@

# make serve EXTRAS=postgres,charts: those extras too, each once
$(VENV)/.extra-%: $(VENV)/.serve
	$(PIP) -e '.[$*]'
	touch $@

$(VENV)/.test: $(VENV)/.serve
	$(PIP) -e '.[test,docs]'
	@echo "$(VENV): $$(du -sh $(VENV) | cut -f1) installed for make test"
	touch $@

$(VENV)/.bench: $(VENV)/.serve
	$(PIP) -e '.[test,bench]'
	touch $@

install: $(VENV)/.serve $(EXTRA_STAMPS)

serve: $(VENV)/.serve $(EXTRA_STAMPS)
	$(BIN)/tabletape serve --host $(HOST) --port $(PORT) --db $(DB)

# a few finished games of each title and one in progress, in the store make serve opens
demo: $(VENV)/.serve
	$(BIN)/tabletape demo --db $(DB)

# The suite on the machine's cores, at most 4 workers: each starts its own Chromium, PostgreSQL and
# servers. A worker takes a whole file (loadfile): its module fixtures are made once, its tests run in order.
test: $(VENV)/.test
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile

# the manual (docs/) as a static site in site/; --strict: a broken link or a page left out of the nav fails
docs: $(VENV)/.test
	$(BIN)/python -m mkdocs build --strict --site-dir site

bench: $(VENV)/.bench
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
	$(BIN)/python -m benchmarks.tournament --quick

clean:
	rm -rf $(VENV) site .pytest_cache .hypothesis
