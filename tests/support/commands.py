"""Running the console script as users run it: a real process in a data home of the test's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

BIN = Path(sys.executable).parent  # the virtualenv's scripts, `combat-analysis` among them
SCREEN_COLUMNS, SCREEN_ROWS = 80, 24  # a terminal: `make demo`'s summary must fit one screen


def env_for(home: Path, **extra: str) -> dict[str, str]:
    """This process's environment with the data home `home` (and `extra`)."""
    return {**os.environ, "COMBAT_ANALYSIS_HOME": str(home), "MPLBACKEND": "Agg", "COMBAT_ANALYSIS_INGEST_REPORTS": "0",
            **extra}


def cli(home: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`combat-analysis ARGS` in `home`, with no Dagster home and no language-model settings of the caller's."""
    # No match report per ingested match (tests/app/test_record.py covers it): a test reads the figures it names.
    environment = {**os.environ, "COMBAT_ANALYSIS_HOME": str(home), "MPLBACKEND": "Agg",
                   "COMBAT_ANALYSIS_INGEST_REPORTS": "0"}
    for name in ("DAGSTER_HOME", "COMBAT_ANALYSIS_LLM_BASE_URL", "COMBAT_ANALYSIS_LLM_MODEL",
                 "COMBAT_ANALYSIS_LLM_API_KEY"):
        environment.pop(name, None)
    return subprocess.run([sys.executable, "-m", "combat_analysis.app.main", *args], capture_output=True, text=True,
                          env={**environment, **(env or {})}, cwd=ROOT, timeout=300)
