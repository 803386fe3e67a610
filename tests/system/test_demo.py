"""`make demo` as a new user sees it: a short summary that fits on one screen, the exact answers, reports that
exist, and Dagster's full log in a file instead of on the terminal."""

from __future__ import annotations

import math

import dagster as dg
import pytest

from tests.support.commands import SCREEN_COLUMNS, SCREEN_ROWS

pytestmark = pytest.mark.slow  # `make demo` end to end



def test_demo_summary_fits_on_one_screen_and_is_exact(demo, truth):
    run, _, data = demo
    output = run.stdout + run.stderr
    rows = sum(max(1, math.ceil(len(line) / SCREEN_COLUMNS)) for line in output.splitlines())
    assert rows <= SCREEN_ROWS, output
    assert "DEBUG" not in output and "Warning" not in output

    players = truth["players"]
    leader = max(players, key=lambda p: players[p]["damage_dealt"])
    runner_up = sorted(players, key=lambda p: -players[p]["damage_dealt"])[1]
    assert (f"{leader} dealt the most damage: {int(players[leader]['damage_dealt']):,} "
            f"(ahead of {runner_up} with {int(players[runner_up]['damage_dealt']):,})") in output
    assert f"Team {truth['winner']} won the match" in output
    (support,) = [p for p, r in players.items() if r["team"] == 1 and r["role"] == "Support"]
    built = players[support]["items"]
    assert f"{support} (team 1 Support, {players[support]['god']}) built {len(built)} items" in output
    assert f"{sum(truth['event_counts'].values()):,}" in output  # the match's lines
    # Paths are shown relative to where the demo runs (the project root under `make demo`).
    reports = [data.parent / word for line in output.splitlines() for word in line.split()
               if word.endswith("report.html")]
    assert len(reports) == 4 and all(path.is_file() and path.is_relative_to(data) for path in reports)


def test_demo_keeps_the_full_log_and_the_runs(demo):
    run, dagster_home, data = demo
    log = data / "logs" / "demo.log"
    assert f"Dagster's full log: {log.relative_to(data.parent)}" in run.stdout
    text = log.read_text(encoding="utf-8")
    assert text.count("RUN_SUCCESS") == 5 and " DEBUG " in text
    assert "BetaWarning" in text  # Python warnings are kept in the log, not shown on the terminal
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        runs = instance.get_runs()
    assert sorted(r.job_name for r in runs) == ["answer_question_job"] * 3 + ["ingest_match_job",
                                                                             "match_report_job"]
    assert all(r.status == dg.DagsterRunStatus.SUCCESS for r in runs)
