"""The command line's conventions: the answer and its report path on stdout, everything else on stderr; one
exit code per cause across commands (0 answered, 1 refused, 2 bad input, 3 internal), listed in --help; a
question past 2,000 characters runs no stage; a folder's non-logs are skipped with a line each."""

from __future__ import annotations

import json
import shutil

from combat_analysis.contracts.question import MAX_QUESTION_CHARS
from tests.support.commands import cli
from tests.support.paths import SAMPLE_LOG, SAMPLE_MATCH_ID


def test_help_lists_the_exit_codes():
    said = cli(SAMPLE_LOG.parent, "--help").stdout
    for line in ("0  answered", "1  refused", "2  bad input", "3  internal error"):
        assert line in said


def test_the_answer_and_its_report_path_go_to_stdout(home):
    run = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--no-followups", "How many kills did mid_or_feed get?")
    assert run.returncode == 0, run.stderr
    first, *rest = run.stdout.splitlines()
    assert first.startswith("mid_or_feed") and "10" in first
    [report] = [line for line in rest if line.startswith("report: ")]
    assert report.endswith(".html") and "report:" not in run.stderr


def test_a_refusal_exits_1(home):
    run = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--no-followups", "What was mid_or_feed's ping?")
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert run.stdout.strip()  # the refusal is the answer: it says what the log lacks


def test_the_same_bad_file_is_bad_input_from_ingest_and_from_ask(tmp_path):
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    assert cli(tmp_path / "h", "ingest", str(empty)).returncode == 2
    assert cli(tmp_path / "h", "ask", "--log", str(empty), "who won?").returncode == 2


def test_a_question_past_the_limit_runs_no_stage(tmp_path, home):
    long = "who dealt the most damage " * (MAX_QUESTION_CHARS // 20)
    run = cli(home, "ask", "--match", SAMPLE_MATCH_ID, long)
    assert run.returncode == 2 and f"the limit is {MAX_QUESTION_CHARS:,}" in run.stderr and run.stdout == ""
    at_limit = ("who got first blood? " * 200)[:MAX_QUESTION_CHARS]
    assert cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--no-followups", at_limit).returncode in (0, 1)


def test_a_cut_copy_is_refused_with_exit_1_and_replace_says_so(tmp_path):
    home = tmp_path / "h"
    assert cli(home, "ingest", str(SAMPLE_LOG)).returncode == 0
    cut = tmp_path / "sample_match.log"
    cut.write_bytes(SAMPLE_LOG.read_bytes()[:300_000])
    refused = cli(home, "ingest", str(cut))
    assert refused.returncode == 1 and "refused:" in refused.stderr and "--replace" in refused.stderr
    asked = cli(home, "ask", "--log", str(cut), "who won?")
    assert asked.returncode == 1 and "26,671 lines" in asked.stderr
    replaced = cli(home, "ingest", "--replace", str(cut))
    assert replaced.returncode == 0 and f"combat-analysis restore {SAMPLE_MATCH_ID}" in replaced.stderr
    assert cli(home, "restore", SAMPLE_MATCH_ID).returncode == 0
    listed = cli(home, "matches").stdout
    assert "26,671" in listed and "31:59" in listed


def test_a_folder_ingest_skips_what_is_no_combat_log_and_exits_0(tmp_path):
    folder = tmp_path / "drop"
    folder.mkdir()
    shutil.copyfile(SAMPLE_LOG, folder / "sample_match.log")
    (folder / "sample_match.truth.json").write_text(json.dumps({"winner": 2}, indent=2))
    (folder / "notes.txt").write_text("scrim vs red team, bring snacks\n")
    (folder / "bom_only.log").write_bytes(b"\xef\xbb\xbf")
    run = cli(tmp_path / "h", "ingest", str(folder))
    assert run.returncode == 0, run.stderr
    skipped = sorted(line.split(":")[0] for line in run.stderr.splitlines() if line.startswith("skipped "))
    assert skipped == [f"skipped {folder / name}" for name in ("bom_only.log", "notes.txt", "sample_match.truth.json")]
    assert "1 file, 1 match: 1 ingested" in run.stderr
