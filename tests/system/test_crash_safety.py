"""Crash safety: a real `combat-analysis ingest` process is killed with SIGKILL at every step of its run, for a
new match, for a replacement and for a file holding two matches. After each kill, readers see exactly the old
state or the complete new state; a re-run completes the new state and leaves nothing behind.

The kill points are exact, not timed: the ingest runs under a test-only plugin (`tests/support/pausing.py`)
that wraps the warehouse's writes, and `COMBAT_ANALYSIS_PAUSE_AT=<step>` makes it say where it is on stderr and
wait there; the test kills it then.
"""

from __future__ import annotations

import shutil

import pytest

from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import simulated_match_id
from combat_analysis.warehouse.store import compact, file_counts, writer
from tests.support.crash import assert_nothing_left_behind, kill_at, kill_ingest_at, state

pytestmark = pytest.mark.slow  # a real ingest process killed at every step

# In the order an ingest passes them: before anything is written, while a match's tables are written in its
# open transaction (the first, the largest, the last), with all written and not committed, and after the commit.
KILL_POINTS = ["surveyed", "parsed", "written:matches", "written:events", "written:match_sources", "uncommitted",
               "committed"]
COMMITTED = KILL_POINTS.index("committed")


@pytest.mark.parametrize("point", KILL_POINTS)
def test_killed_new_ingest_leaves_nothing_or_the_whole_match(point, logs, expected, tmp_path):
    home = tmp_path / "home"
    kill_ingest_at(home, logs["new"], point)
    root = home / "warehouse"
    after_kill = state(root)
    assert after_kill == (expected["new"] if KILL_POINTS.index(point) >= COMMITTED else expected["empty"])
    rerun = ingest_log(logs["new"], root)
    assert rerun.status == ("unchanged" if KILL_POINTS.index(point) >= COMMITTED else "ingested")
    assert state(root) == expected["new"]
    assert_nothing_left_behind(root)


@pytest.mark.parametrize("point", KILL_POINTS)
def test_killed_replacement_leaves_the_old_or_the_whole_new_match(point, logs, expected, old_warehouse, tmp_path):
    home = tmp_path / "home"
    shutil.copytree(old_warehouse, home)
    kill_ingest_at(home, logs["new"], point)
    root = home / "warehouse"
    after_kill = state(root)
    assert after_kill == (expected["new"] if KILL_POINTS.index(point) >= COMMITTED else expected["old"])
    rerun = ingest_log(logs["new"], root)
    assert rerun.status == ("unchanged" if KILL_POINTS.index(point) >= COMMITTED else "replaced")
    assert state(root) == expected["new"]
    assert_nothing_left_behind(root)


@pytest.mark.parametrize("point", ["written:events", "uncommitted", "committed"])
def test_a_file_of_two_matches_lands_whole_or_not_at_all(point, logs, expected, tmp_path):
    """Both matches of one file are one commit: a kill before it leaves neither, after it both."""
    home = tmp_path / "home"
    kill_ingest_at(home, logs["both"], point)
    root = home / "warehouse"
    committed = point == "committed"
    assert state(root) == (expected["both"] if committed else {})
    rerun = ingest_log(logs["both"], root)
    first_id, second_id = sorted(expected["both"], key=lambda m: m != str(simulated_match_id(51)))
    status = "unchanged" if committed else "ingested"
    assert [(r.match_id, r.status) for r in rerun.matches] == [(first_id, status), (second_id, status)]
    assert state(root) == expected["both"]
    assert_nothing_left_behind(root)


def test_a_compaction_killed_before_its_commit_changes_nothing(logs, expected, tmp_path):
    home = tmp_path / "home"
    root = home / "warehouse"
    for name in ("old", "both"):
        ingest_log(logs[name], root)
    with writer(root) as con:
        before = file_counts(con)
    seen = state(root)
    kill_at(home, "merged-uncommitted",
            f"from combat_analysis.warehouse.store import compact; compact({str(root)!r}, min_files=1)")
    with writer(root) as con:
        assert file_counts(con) == before
    assert state(root) == seen
    assert compact(root, min_files=1)  # the next compaction does it
    assert state(root) == seen
    assert_nothing_left_behind(root)
