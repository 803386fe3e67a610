"""Fixtures of the report tests: the sample match's report, and a report of a match whose players are hostile markup."""

from __future__ import annotations

import pytest

from combat_analysis.ingest.run import ingest_log
from combat_analysis.reports.match import build_match_report
from tests.support.paths import SAMPLE_MATCH_ID
from tests.support.season import roster_season_once, truth_tool
from tests.support.simulated import HOSTILE_NAMES, roster, simulated_log


@pytest.fixture(scope="module")
def report(sample_warehouse, tmp_path_factory):
    out = tmp_path_factory.mktemp("match-report")
    return build_match_report(sample_warehouse, SAMPLE_MATCH_ID, out, handles_dir=out / "handles")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile-report")
    players = roster(simulated_log(folder, 53, "plain"))
    log = simulated_log(folder, 53, "<b>match</b> 53", scale=0.15, names=dict(zip(players, HOSTILE_NAMES, strict=True)))
    root = folder / "wh"
    match_id = ingest_log(log, root).match_id
    report = build_match_report(root, match_id, folder / "report", handles_dir=folder / "handles")
    return report, truth_tool.figures(*truth_tool.load(log))


@pytest.fixture(scope="session")
def roster_matches(tmp_path_factory):
    """The roster season (tests/support/season.py): one roster kept across nine matches, written once."""
    return roster_season_once(tmp_path_factory)
