# combat-analysis: `make demo` and `make test` work on a fresh machine with Python 3.10+.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export DAGSTER_HOME := $(CURDIR)/.dagster_home
export COMBAT_ANALYSIS_HOME := $(CURDIR)/data
export MPLBACKEND := Agg

.PHONY: install demo test dev bench lint clean

$(VENV)/.installed: pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,postgres]'
	@touch $@

install: $(VENV)/.installed

$(DAGSTER_HOME)/dagster.yaml:
	@mkdir -p $(DAGSTER_HOME)
	@cp deploy/dagster.local.yaml $@

demo: install $(DAGSTER_HOME)/dagster.yaml
	$(PY) scripts/demo.py

test: install
	$(PY) -m pytest

dev: install $(DAGSTER_HOME)/dagster.yaml
	$(VENV)/bin/dagster dev -w workspace.yaml

bench: install
	$(PY) benchmarks/ingest.py
	$(PY) benchmarks/plan.py

lint: install
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(DAGSTER_HOME) data/warehouse data/artifacts data/handles data/packages data/reports data/requests data/demo
