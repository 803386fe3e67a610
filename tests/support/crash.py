"""Killing a real ingest at an exact step and reading what it left: the crash-safety tests (tests/system/) and the
folder ingest's (tests/ingest/). The ingest runs under the test-only plugin `tests.support.pausing`."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from combat_analysis.contracts.schema import TABLES
from combat_analysis.warehouse.store import expire, file_counts, match_ids, open_warehouse, writer
from tests.support.paths import ROOT
from tests.support.pausing import PAUSE_ENV


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


def kill_ingest_at(home: Path, log: Path, point: str) -> None:
    """Run `combat-analysis ingest LOG` until it reaches `point`, then SIGKILL it."""
    _kill_at(home, point, ["ingest", str(log)])


def kill_at(home: Path, point: str, statement: str) -> None:
    """Run a Python statement until it reaches `point`, then SIGKILL it."""
    _kill_at(home, point, ["-c", statement])


def _kill_at(home: Path, point: str, arguments: list[str]) -> None:
    env = {**os.environ, "COMBAT_ANALYSIS_HOME": str(home), PAUSE_ENV: point, "COMBAT_ANALYSIS_INGEST_REPORTS": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "tests.support.pausing", *arguments], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    said = b""
    deadline = time.monotonic() + 120
    try:
        while f"paused at {point}".encode() not in said:
            assert proc.poll() is None, f"it ended before {point}: {said.decode(errors='replace')}"
            assert time.monotonic() < deadline, f"it never reached {point}"
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
    """Once housekeeping has run (no grace: no reader is left), the data folder holds exactly the files the lake's
    current version reads: nothing a killed writer wrote survives, and nothing the lake needs is gone."""
    expire(root, timedelta(0), grace=None)
    with writer(root) as con:
        listed = {Path(r[0]).resolve() for r in con.execute(
            "SELECT data_file FROM ducklake_list_files('lake', 'events') UNION ALL "
            + " UNION ALL ".join(f"SELECT data_file FROM ducklake_list_files('lake', '{t}')" for t in file_counts(con))
            ).fetchall()}
    on_disk = {p.resolve() for p in (root / "data").rglob("*.parquet")}
    assert on_disk == listed
