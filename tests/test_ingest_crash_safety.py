"""Crash safety: a real `combat-analysis ingest` process is killed with SIGKILL at every step of its run, for a
new match, for a replacement and for a file holding two matches. After each kill, readers see exactly the old
state or the complete new state; a re-run completes the new state and leaves nothing behind.

The kill points are exact, not timed: `COMBAT_ANALYSIS_PAUSE_AT=<step>` makes the ingest say where it is on
stderr and wait there (`warehouse.pause_point`), and the test kills it then.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from combat_analysis.contracts.schema import TABLES
from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import simulated_match_id, write_match
from combat_analysis.warehouse.store import PAUSE_ENV, match_dir, match_ids, open_warehouse

ROOT = Path(__file__).resolve().parents[1]

# In the order an ingest passes them: before anything is written, while staging in scratch, while indexing,
# around the commit of the pointer, and after it.
KILL_POINTS = [
    "scratch-created", "surveyed", "parsed", "staged-table:events", "staged-table:player_stats", "staged",
    "digest-temp-written", "digest-indexed", "garbage-marked", "snapshot-placed", "pointer-temp-written",
    "committed", "swept",
]
COMMITTED = KILL_POINTS.index("committed")
SEED = 41
MATCH_ID = simulated_match_id(SEED)


def state(root: Path) -> dict:
    """What a reader sees: per committed match, its source digest, every table's row count and its totals."""
    seen = {}
    for match_id in match_ids(root):
        con = open_warehouse(root, match_id)
        counts = tuple(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES)
        sha = con.execute("SELECT source_sha256 FROM matches").fetchone()[0]
        totals = con.execute("SELECT sum(damage_dealt), sum(gold), sum(kills) FROM player_stats").fetchone()
        seen[match_id] = (sha, counts, totals)
        con.close()
    if seen:  # the all-matches view agrees with the per-match ones
        con = open_warehouse(root)
        assert con.execute("SELECT count(*) FROM events").fetchone()[0] == sum(
            s[1][TABLES.index("events")] for s in seen.values())
    return seen


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("crash-logs")
    old, new = work / "old.log", work / "new.log"
    write_match(old, SEED, minutes=4)
    write_match(new, SEED, minutes=5)  # same match id, other content: a replacement
    first, second = work / "a.log", work / "b.log"
    write_match(first, 51, minutes=4)
    write_match(second, 52, minutes=4)
    both = work / "two-matches.log"
    both.write_bytes(first.read_bytes().rstrip(b"\r\n") + b",\r\n" + second.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    return {"old": old, "new": new, "both": both}


@pytest.fixture(scope="module")
def expected(logs, tmp_path_factory) -> dict[str, dict]:
    """The states a reader may see: nothing, the old match, the new match, the two matches."""
    states = {"empty": {}}
    for name in ("old", "new", "both"):
        root = tmp_path_factory.mktemp(f"expected-{name}")
        ingest_log(logs[name], root)
        states[name] = state(root)
    assert states["old"][MATCH_ID][0] != states["new"][MATCH_ID][0]
    assert len(states["both"]) == 2
    return states


@pytest.fixture(scope="module")
def old_warehouse(logs, tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("old-home")
    ingest_log(logs["old"], home / "warehouse")
    return home


def kill_ingest_at(home: Path, log: Path, point: str) -> None:
    """Run `combat-analysis ingest LOG` until it reaches `point`, then SIGKILL it."""
    env = {**os.environ, "COMBAT_ANALYSIS_HOME": str(home), PAUSE_ENV: point}
    proc = subprocess.Popen([sys.executable, "-m", "combat_analysis.app.main", "ingest", str(log)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    said = b""
    deadline = time.monotonic() + 120
    try:
        while f"paused at {point}".encode() not in said:
            assert proc.poll() is None, f"the ingest ended before {point}: {said.decode(errors='replace')}"
            assert time.monotonic() < deadline, f"the ingest never reached {point}"
            ready, _, _ = select.select([proc.stderr], [], [], 1.0)
            if ready:
                said += os.read(proc.stderr.fileno(), 65536)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL


def assert_nothing_left_behind(root: Path) -> None:
    assert not list((root / "scratch").iterdir())
    assert not (root / "garbage").exists() or not list((root / "garbage").iterdir())
    for match_id in match_ids(root):
        folder = match_dir(root, match_id)
        assert len(list((folder / "snapshots").iterdir())) == 1
        assert sorted(p.name for p in folder.iterdir()) == ["current.json", "lock", "snapshots"]


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
