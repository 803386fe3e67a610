"""After the CLI writes matches to the warehouse: Dagster told of them, or their match reports written here.

With a Dagster instance configured ($DAGSTER_HOME), `python -m assets.record` records each match there as a
`matches` partition with a `match_warehouse` materialization like a sensor ingest's, and the instance's
automation builds its match report and brings the season up to date. The core never imports dagster: that is a
subprocess. Without an instance, `ingest` writes each new or changed match's report itself
(`<home>/reports/<match>/report.html`, its path on stdout); COMBAT_ANALYSIS_INGEST_REPORTS=0 skips that.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence

from rich.console import Console

from combat_analysis.keys import path_for_key
from combat_analysis.settings import Paths

DAGSTER_HOME_ENV = "DAGSTER_HOME"
REPORTS_ENV = "COMBAT_ANALYSIS_INGEST_REPORTS"
UNCHANGED = "unchanged"

err = Console(stderr=True, soft_wrap=True)


def record_ingest(paths: Paths, results: Sequence, environ: Mapping[str, str] = os.environ, *,
                  reports: bool = True) -> None:
    """After `ingest`: every match it read is recorded in the instance (recording is idempotent), else each new or
    changed match gets its report, and one whose report was never written gets it too (unless `reports` is off:
    `ingest --no-reports`, or COMBAT_ANALYSIS_INGEST_REPORTS=0)."""
    if not results:
        return
    if environ.get(DAGSTER_HOME_ENV):
        _record_in_dagster(paths, [r.match_id for r in results], environ)
    elif reports and environ.get(REPORTS_ENV, "1") != "0":
        for result in results:
            if result.status != UNCHANGED or not _report_dir(paths, result.match_id).joinpath("report.html").exists():
                _write_report(paths, result.match_id)


def record_ask_log(paths: Paths, result, environ: Mapping[str, str] = os.environ) -> None:
    """After `ask --log` read a new or changed match: recorded in the instance, if one is configured (the answer
    does not wait for a match report)."""
    changed = [r.match_id for r in result.matches if r.status != UNCHANGED]
    if changed and environ.get(DAGSTER_HOME_ENV):
        _record_in_dagster(paths, changed, environ)


def _record_in_dagster(paths: Paths, match_ids: list[str], environ: Mapping[str, str]) -> None:
    command = [sys.executable, "-m", "assets.record", "--home", str(paths.home), "--", *match_ids]
    run = subprocess.run(command, capture_output=True, text=True, env=dict(environ))
    if run.returncode != 0:
        # The matches are in the warehouse either way; the instance's warehouse_sync sensor records them later.
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        err.print(f"[yellow]warning:[/yellow] not recorded in Dagster ({environ[DAGSTER_HOME_ENV]}): {last}; "
                  "the warehouse_sync sensor records them when the instance's daemon runs", markup=True)
        return
    sys.stderr.write(run.stderr)


def _report_dir(paths: Paths, match_id: str):
    return path_for_key(paths.reports, match_id, what="match id")


def _write_report(paths: Paths, match_id: str) -> None:
    from combat_analysis.reports.match import build_match_report  # lazy: the report path, for a new match

    err.print(f"writing the match report of {match_id} (no Dagster instance: set DAGSTER_HOME to have Dagster "
              f"build it; {REPORTS_ENV}=0 skips it)")
    report = build_match_report(paths.lake, match_id, _report_dir(paths, match_id), handles_dir=paths.handles)
    print(f"report: {report.html_path}")

