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
from tests.support.crash import assert_nothing_left_behind, kill_ingest_at, state

pytestmark = pytest.mark.slow  # a real ingest process killed at every step

# In the order an ingest passes them: before anything is written, while staging in scratch, while indexing,
# around the commit of the pointer, and after it.
KILL_POINTS = [
    "scratch-created", "surveyed", "parsed", "staged-table:events", "staged-table:player_stats", "staged",
    "digest-temp-written", "digest-indexed", "garbage-marked", "snapshot-placed", "pointer-temp-written",
    "committed", "swept",
]
COMMITTED = KILL_POINTS.index("committed")


@pytest.mark.parametrize("point", KILL_POINTS)
def test_killed_new_ingest_leaves_nothing_or_the_whole_match(point, logs, expected, tmp_path):
    home = tmp_path / "home"
    kill_ingest_at(home, logs["new"], point)
    root = home / "warehouse"
    assert list((root / "scratch").iterdir())  # the killed ingest's scratch, for the next ingest to sweep
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


@pytest.mark.parametrize("point", ["digest-indexed", "committed"])
def test_killed_between_two_matches_of_one_file(point, logs, expected, tmp_path):
    home = tmp_path / "home"
    kill_ingest_at(home, logs["both"], point)
    root = home / "warehouse"
    after_kill = state(root)
    first_id, second_id = sorted(expected["both"], key=lambda m: m != str(simulated_match_id(51)))
    if point == "committed":  # the first match is committed whole, the second not at all
        assert after_kill == {first_id: expected["both"][first_id]}
    else:
        assert after_kill == {}
    rerun = ingest_log(logs["both"], root)
    assert [(r.match_id, r.status) for r in rerun.matches] == [
        (first_id, "unchanged" if point == "committed" else "ingested"), (second_id, "ingested")]
    assert state(root) == expected["both"]
    assert_nothing_left_behind(root)
