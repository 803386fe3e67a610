"""`combat-analysis ingest` as users run it: folders and globs, one-line errors that name the file and never a
traceback, bounded memory on a 1 GB file without line breaks, and questions on logs with numeric match ids."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from combat_analysis.ingest.simulate import simulated_match_id, write_match
from tests.support.paths import ROOT
from tests.support.processes import run_module_with_peak
from tests.support.truth_checks import CORPUS


def cli(home: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "COMBAT_ANALYSIS_HOME": str(home), "MPLBACKEND": "Agg", "COMBAT_ANALYSIS_INGEST_REPORTS": "0"}
    env.pop("DAGSTER_HOME", None)
    return subprocess.run([sys.executable, "-m", "combat_analysis.app.main", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300, **kwargs)


def error_lines(run: subprocess.CompletedProcess) -> list[str]:
    return [line for line in run.stderr.splitlines() if line.startswith("error:")]


@pytest.mark.parametrize("case", ["missing", "folder", "corrupt gzip", "NUL in the id", "empty"])
def test_every_failure_is_one_line_naming_the_file(tmp_path, bad_files, case):
    path, says = bad_files[case]
    run = cli(tmp_path, "ingest", str(path))
    assert run.returncode == 2  # bad input, the same code `ask --log` gives
    [line] = error_lines(run)
    assert str(path) in line and says in line
    assert "Traceback" not in run.stderr
    # --debug adds a traceback only for what is unexpected; a bad file is expected
    debug = cli(tmp_path, "ingest", "--debug", str(path))
    assert debug.returncode == 2 and error_lines(debug) == [line] and "Traceback" not in debug.stderr


def test_one_bad_file_among_good_ones_fails_alone(tmp_path, bad_files):
    good = tmp_path / "good.log"
    write_match(good, 21, minutes=3)
    run = cli(tmp_path, "ingest", str(bad_files["corrupt gzip"][0]), str(good))
    assert run.returncode == 2
    assert len(error_lines(run)) == 1
    assert "2 files, 1 match: 1 ingested; 0 lines quarantined; 1 failed" in run.stderr


def test_a_1_gb_file_without_line_breaks_is_refused_quickly_in_bounded_memory(tmp_path):
    huge = tmp_path / "one-line.log"
    with open(huge, "wb") as f:
        block = b"x" * (1 << 20)
        for _ in range(1024):
            f.write(block)
    env = {**os.environ, "COMBAT_ANALYSIS_HOME": str(tmp_path / "home")}
    run, peak_kb = run_module_with_peak("combat_analysis.app.main", ["ingest", str(huge)], env=env, cwd=ROOT,
                                        peak_file=tmp_path / "peak")
    assert run.returncode == 2
    assert "line 1: too long: 1,073,741,824 bytes" in run.stderr and "Traceback" not in run.stderr
    assert peak_kb < 1024 * 1024  # KB: under 1 GB for the whole process
    huge.unlink()


def test_folders_and_globs_ingest_every_log_once(tmp_path):
    logs = tmp_path / "logs"
    write_match(logs / "a.log", 31, minutes=3)
    write_match(logs / "b.log", 32, minutes=3, id_style="odd")
    nested = logs / "week2" / "c.log"
    write_match(nested, 33, minutes=3)
    nested.with_suffix(".log.gz").write_bytes(gzip.compress(nested.read_bytes()))
    nested.unlink()
    (logs / "notes.md").write_text("not a log")
    run = cli(tmp_path, "ingest", str(logs), str(logs / "**" / "*.log.gz"), str(logs / "a.log"))
    assert run.returncode == 0, run.stderr
    assert f"skipped {logs / 'notes.md'}: not a combat log" in run.stderr
    assert "3 files, 3 matches: 3 ingested; 0 lines quarantined; 0 failed" in run.stderr
    listed = cli(tmp_path, "matches")
    for seed, style in ((31, "numeric"), (32, "odd"), (33, "numeric")):
        assert str(simulated_match_id(seed, style)) in listed.stdout
    again = cli(tmp_path, "ingest", str(logs / "*.log"))
    assert "2 files, 2 matches: 2 unchanged" in again.stderr


def leader(truth_file: Path) -> tuple[str, int]:
    truth = json.loads(truth_file.read_text(encoding="utf-8"))
    player, figures = max(truth["players"].items(), key=lambda kv: kv[1]["damage_dealt"])
    return player, figures["damage_dealt"]


def test_questions_work_on_numeric_match_ids(tmp_path):
    log = CORPUS[1]  # "matchID": "5147276662"
    player, damage = leader(log.with_name(log.name.replace(".log.gz", ".truth.json")))
    assert cli(tmp_path, "ingest", str(log)).returncode == 0
    run = cli(tmp_path, "ask", "--no-followups", "Who dealt the most damage in the match?")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"{player} dealt the most damage: {damage:,}")
    other = CORPUS[0]
    player, damage = leader(other.with_name(other.name.replace(".log.gz", ".truth.json")))
    run = cli(tmp_path, "ask", "--log", str(other), "--json", "--no-followups", "Who dealt the most damage in the match?")
    assert run.returncode == 0, run.stderr
    package = json.loads(run.stdout)
    assert package["response"]["direct_answer"].startswith(f"{player} dealt the most damage: {damage:,}")
