# combat-analysis: `make demo` and `make test` work on a fresh machine with Python 3.10+.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export DAGSTER_HOME := $(CURDIR)/.dagster_home
export COMBAT_ANALYSIS_HOME := $(CURDIR)/data
export MPLBACKEND := Agg
# Some machines set PYTHONDONTWRITEBYTECODE=1 for every process: then each command, test subprocess and Dagster
# run worker compiles all of combat_analysis from source again (about a quarter of a cold `ask`'s CPU). Our own
# targets write the bytecode cache instead.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install demo test typecheck lint-imports dev bench lint score clean

# -qq: errors only, so a first `make demo` stays readable.
$(VENV)/.installed: pyproject.toml
	@echo "installing combat-analysis into $(VENV) ..."
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install -qq --upgrade pip
	@$(PY) -m pip install -qq -e '.[dev,postgres]'
	@touch $@

install: $(VENV)/.installed

$(DAGSTER_HOME)/dagster.yaml: deploy/dagster.local.yaml
	@mkdir -p $(DAGSTER_HOME)
	@cp deploy/dagster.local.yaml $@

# Quiet by default (progress, then a one-screen summary; the full log goes to data/logs/demo.log).
# `make demo VERBOSE=1` prints Dagster's full log too.
demo: install $(DAGSTER_HOME)/dagster.yaml
	@$(PY) scripts/demo.py $(if $(VERBOSE),--verbose)

# One pytest-xdist worker per core; --dist loadfile keeps each test file on one worker, so a module's
# expensive fixtures (ingested warehouses, simulated seasons, Dagster runs) are built once.
# --no-loadscope-reorder keeps conftest.py's order (files with servers and daemons first) instead of
# xdist's most-tests-first, which would start those few long tests last.
# The type check and the layer contract run first (prerequisites), so a mypy error or an import that breaks a
# layer fails `make test` before any test starts. --durations=25 prints the slowest steps, so a CI log shows where time goes.
test: install typecheck lint-imports
	$(PY) -m pytest -n auto --dist loadfile --no-loadscope-reorder --durations=25

typecheck: install
	$(VENV)/bin/mypy

# The layers of combat_analysis and "no Dagster in the core": [tool.importlinter] in pyproject.toml.
lint-imports: install
	$(VENV)/bin/lint-imports

# `dg dev` reads [tool.dg] in pyproject.toml; --no-check-yaml because this project defines everything in
# Python (definitions.py), with no components' defs.yaml files to check.
# scripts/dev.py runs `dg dev` and stops it, webserver and daemon, on SIGTERM as on Ctrl-C.
dev: install $(DAGSTER_HOME)/dagster.yaml
	@$(PY) scripts/dev.py

# The benchmarks on the lake (benchmarks/RESULTS.md): niced, since the machine is shared; each lake is the embedded
# default of a temporary folder, whatever COMBAT_ANALYSIS_CATALOG or COMBAT_ANALYSIS_DATA_PATH say.
BENCH := nice -n 5 env -u COMBAT_ANALYSIS_CATALOG -u COMBAT_ANALYSIS_DATA_PATH $(PY)
bench: install
	$(BENCH) benchmarks/ingest.py
	$(BENCH) benchmarks/plan.py
	$(BENCH) benchmarks/season.py
	$(BENCH) benchmarks/answer.py

# Every shared question set, each in a fresh data home: one `direct answer alone` and `score` line per set.
score: install
	scripts/score_all.sh

lint: install
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(DAGSTER_HOME) data/warehouse data/artifacts data/handles data/packages data/reports data/requests data/demo \
		data/logs
