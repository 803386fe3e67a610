"""After the CLI writes a match: without a Dagster instance, `ingest` writes the match report itself (its path on
stdout); with COMBAT_ANALYSIS_INGEST_REPORTS=0 it does not; an unchanged match's existing report is kept."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.paths import ROOT
from tests.support.simulated import simulated_log


def ingest(home, *logs, **extra) -> subprocess.CompletedProcess:
    env = {**os.environ, "COMBAT_ANALYSIS_HOME": str(home), "MPLBACKEND": "Agg", **extra}
    env.pop("DAGSTER_HOME", None)
    return subprocess.run([sys.executable, "-m", "combat_analysis.app.main", "ingest", *map(str, logs)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)


def test_ingest_without_an_instance_writes_the_match_report(tmp_path):
    home = tmp_path / "home"
    log = simulated_log(tmp_path, 66, "no-instance")
    first = ingest(home, log)
    assert first.returncode == 0, first.stderr
    report = home / "reports" / "no-instance" / "report.html"
    assert first.stdout.splitlines() == [f"report: {report}"]
    assert "no-instance" in report.read_text(encoding="utf-8")
    written = report.stat().st_mtime_ns
    again = ingest(home, log)  # unchanged, and its report is there: nothing written
    assert again.returncode == 0 and again.stdout == ""
    assert report.stat().st_mtime_ns == written


def test_reports_can_be_left_to_later(tmp_path):
    home = tmp_path / "home"
    run = ingest(home, simulated_log(tmp_path, 67, "no-report"), COMBAT_ANALYSIS_INGEST_REPORTS="0")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "" and not (home / "reports").exists()
