"""The command line, run as users run it: a real process, real files, real output."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import dagster as dg

from combat_analysis.warehouse.store import history
from tests.support.commands import cli
from tests.support.llm_stub import Stub
from tests.support.paths import ROOT, SAMPLE_LOG, SAMPLE_MATCH_ID
from tests.support.simulated import doubled_damage


def test_simulate_writes_the_real_framing_deterministically(tmp_path):
    a, b, c = tmp_path / "a.log", tmp_path / "b.log", tmp_path / "c.log"
    runs = {}
    for path, seed in ((a, "3"), (b, "3"), (c, "4")):
        runs[path] = cli(tmp_path, "simulate", "--seed", seed, "--out", str(path))
        assert runs[path].returncode == 0, runs[path].stderr
    data = a.read_bytes()
    assert data == b.read_bytes() and data != c.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf{") and data.endswith(b"}\r\n")
    lines = data.decode("utf-8-sig").split("\r\n")[:-1]
    assert all(line.endswith("},") for line in lines[:-1]) and lines[-1].endswith("}")
    assert f"wrote {len(lines):,} lines to {a}" in runs[a].stderr
    event = json.loads(lines[20].rstrip(","))
    assert all(isinstance(v, str) for v in event.values())


def test_ingest_reports_each_file_and_fails_clearly(tmp_path, home):
    again = cli(home, "ingest", str(SAMPLE_LOG))
    assert again.returncode == 0
    assert "unchanged" in again.stderr and SAMPLE_MATCH_ID in again.stderr
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    bad = cli(home, "ingest", str(empty))
    assert bad.returncode == 2
    assert "is empty" in bad.stderr


def test_ask_json_prints_the_package(home):
    run = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", "--no-followups", "Who got first blood?")
    assert run.returncode == 0, run.stderr
    package = json.loads(run.stdout)
    answer = package["response"]["direct_answer"]
    assert "Tsunami88" in answer and "ÁngelDeth" in answer
    assert package["version"] == 5


def test_ask_prints_the_answer_first_and_the_report_last(home):
    """The answer's lines are printed (and flushed) as soon as it is worded, the report's path once it is written;
    they are the package's own words."""
    question = "how many assists did LunaSol get"
    run = cli(home, "ask", "--match", SAMPLE_MATCH_ID, question)
    package = json.loads(cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", question).stdout)
    assert run.returncode == 0, run.stderr
    *answer, report = run.stdout.splitlines()
    response = package["response"]
    assert answer == [response["direct_answer"], *(f"  - {i}" for i in response["key_insights"])]
    assert report.startswith("report: ") and Path(report.removeprefix("report: ")).is_file()


def test_ask_answer_only_prints_the_same_words_and_writes_no_files(home):
    question = "who got the most assists"
    full = json.loads(cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", "--no-followups", question).stdout)
    before = sorted((home / "artifacts").rglob("*"))
    run = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--answer-only", question)
    assert run.returncode == 0, run.stderr
    response = full["response"]
    assert run.stdout.splitlines() == [response["direct_answer"], *(f"  - {i}" for i in response["key_insights"])]
    assert sorted((home / "artifacts").rglob("*")) == before  # no chart, no report
    through_dagster = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--answer-only", "--dagster", question)
    assert through_dagster.returncode == 2 and "--answer-only" in through_dagster.stderr


def test_ask_with_log_reuses_an_identical_ingest(home):
    before = len(history(home / "warehouse", SAMPLE_MATCH_ID))
    run = cli(home, "ask", "--log", str(SAMPLE_LOG), "--no-followups", "How many kills did mid_or_feed get?")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("mid_or_feed") and "10" in run.stdout.splitlines()[0]
    assert len(history(home / "warehouse", SAMPLE_MATCH_ID)) == before  # nothing committed


def test_ask_on_an_empty_warehouse_says_how_to_add_a_match(tmp_path):
    run = cli(tmp_path, "ask", "Who healed the most?")
    assert run.returncode == 2
    assert "holds no match yet" in run.stderr and "--log FILE" in run.stderr


def test_ask_an_unknown_match_counts_the_known_ones_without_listing_them(home):
    run = cli(home, "ask", "--match", "nope", "Who healed the most?")
    assert run.returncode == 2
    # a count and where to see them: at 1,000 matches a list of ids is 12 KB of error text
    assert "nope" in run.stderr and "(1 match;" in run.stderr and "combat-analysis matches" in run.stderr
    assert SAMPLE_MATCH_ID not in run.stderr


def comparable(package: dict) -> dict:
    """A package without what legitimately differs between runs: times, ids, paths and digests."""
    response = package["response"]
    return {
        "answer": response["direct_answer"],
        "insights": response["key_insights"],
        "sql": [q["sql"] for q in package["query_analysis"]["sql_queries"]],
        "rows": [r["data"] for r in package["data"]["query_results"]],
        "findings": [f["description"] for f in package["analysis"]["key_findings"]],
        "charts": sorted(v["type"] for v in package["visualizations"].values()),
        "stages": [s["stage"] for s in package["metadata"]["processing_history"]],
    }


def test_dagster_path_gives_the_same_package_content(home, dagster_home):
    question = "Which player had the best KDA?"
    direct = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", question)
    through_dagster = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", "--dagster", question,
                          env={"DAGSTER_HOME": str(dagster_home)})
    assert direct.returncode == 0 and through_dagster.returncode == 0, through_dagster.stderr
    a, b = json.loads(direct.stdout), json.loads(through_dagster.stdout)
    assert comparable(a) == comparable(b)
    assert "VoidWalker" in a["response"]["direct_answer"] and "34" in a["response"]["direct_answer"]
    # It says where the run went, keeps Dagster's log out of the terminal, and the run is really there.
    assert f"Dagster run recorded in {dagster_home}" in through_dagster.stderr
    assert "DEBUG" not in through_dagster.stderr and "Warning" not in through_dagster.stderr
    assert "RUN_SUCCESS" in (home / "logs" / "ask.log").read_text(encoding="utf-8")
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        (run,) = instance.get_runs()
    assert run.job_name == "answer_question_job" and run.status == dg.DagsterRunStatus.SUCCESS


def test_without_dagster_home_runs_go_to_the_project_instance(tmp_path):
    from assets.launch import open_instance

    checkout = tmp_path / "checkout"
    (checkout / "deploy").mkdir(parents=True)
    (checkout / "workspace.yaml").write_text("load_from: []\n", encoding="utf-8")
    shutil.copyfile(ROOT / "deploy" / "dagster.local.yaml", checkout / "deploy" / "dagster.local.yaml")
    instance, where = open_instance({}, root=checkout)
    with instance:
        assert Path(instance.root_directory) == checkout / ".dagster_home"
    assert (checkout / ".dagster_home" / "dagster.yaml").read_bytes() == (ROOT / "deploy" / "dagster.local.yaml").read_bytes()
    assert where == f"Dagster run recorded in {checkout / '.dagster_home'} (the project's instance: `make dev` shows it)"

    instance, where = open_instance({}, root=tmp_path / "an-installed-package")
    with instance:
        assert instance.is_ephemeral
    assert "throwaway instance" in where and "DAGSTER_HOME" in where


def test_both_ask_paths_read_the_one_llm_key_variable(home, dagster_home, server, monkeypatch):
    monkeypatch.setattr(Stub, "mode", "good")
    Stub.requests.clear()
    args = ("ask", "--match", SAMPLE_MATCH_ID, "--json", "--no-followups", "--llm-base-url", server,
            "--llm-model", "stub-model", "how much did papi heal")
    key = {"COMBAT_ANALYSIS_LLM_API_KEY": "sk-one-name"}
    direct = cli(home, *args, env=key)
    through_dagster = cli(home, *args, "--dagster", env={**key, "DAGSTER_HOME": str(dagster_home)})
    for run in (direct, through_dagster):
        assert run.returncode == 0, run.stderr
        package = json.loads(run.stdout)
        assert package["query_analysis"]["plan"]["planner"] == "llm"
        assert package["response"]["direct_answer"] == "PapiTacos did 28,752 healing."
    assert Stub.requests and {r["auth"] for r in Stub.requests} == {"Bearer sk-one-name"}
    assert {r["body"]["model"] for r in Stub.requests} == {"stub-model"}


def test_every_option_has_help_and_home_goes_anywhere(home, tmp_path):
    from combat_analysis.app.cli import build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, sub in [("combat-analysis", parser), *commands.choices.items()]:
        for action in sub._actions:
            assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)
    assert parser.parse_args(["ask", "q"]).home is None
    assert parser.parse_args(["--home", "a", "ask", "q"]).home == "a"
    assert parser.parse_args(["ask", "--home", "b", "q"]).home == "b"

    elsewhere = tmp_path / "empty-home"
    for args in (("--home", str(home), "matches"), ("matches", "--home", str(home))):
        run = cli(elsewhere, *args)
        assert run.returncode == 0 and SAMPLE_MATCH_ID[:8] in run.stdout, run.stderr
    assert not (elsewhere / "warehouse").exists()


def test_version():
    from combat_analysis import __version__

    run = subprocess.run([sys.executable, "-m", "combat_analysis.app.main", "--version"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == f"combat-analysis {__version__}"
    import importlib.metadata

    assert importlib.metadata.version("combat-analysis") == __version__


def test_matches_lists_the_warehouse(home):
    run = cli(home, "matches")
    assert run.returncode == 0
    assert SAMPLE_MATCH_ID[:8] in run.stdout and "31:59" in run.stdout and "team 2 (Chaos)" in run.stdout


def test_cleanup_handles_runs(home):
    run = cli(home, "cleanup-handles")
    assert run.returncode == 0
    assert "expired handle" in run.stderr


def test_no_followups_holds_on_both_ask_paths(home, dagster_home):
    question = "Which player had the best KDA?"
    for through in ([], ["--dagster"]):
        run = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", "--no-followups", *through, question,
                  env={"DAGSTER_HOME": str(dagster_home)})
        assert run.returncode == 0, run.stderr
        pkg = json.loads(run.stdout)
        assert pkg["response"]["followup_answers"] == [], through
        assert len(pkg["query_analysis"]["anticipated_followups"]) == 3  # still suggested, not answered
        assert "VoidWalker" in pkg["response"]["direct_answer"]


def test_as_of_reproduces_an_answer_after_its_match_is_replaced(tmp_path, truth):
    """The issue's time-travel check, as a user runs it: ask, replace the match with a log whose figures
    differ, then `--as-of` the first answer's snapshot gives the first answer's figures."""
    home = tmp_path / "home"
    assert cli(home, "ingest", str(SAMPLE_LOG)).returncode == 0
    question = ["--no-followups", "--json", "who dealt the most damage"]
    first = json.loads(cli(home, "ask", *question).stdout)
    leader = max(truth["players"], key=lambda p: truth["players"][p]["damage_dealt"])
    replaced = cli(home, "ingest", str(doubled_damage(SAMPLE_LOG, tmp_path / "doubled.log", leader)))
    assert replaced.returncode == 0 and "replaced" in replaced.stderr
    now = json.loads(cli(home, "ask", *question).stdout)
    assert now["response"]["direct_answer"] != first["response"]["direct_answer"]
    snapshot = first["metadata"]["warehouse_snapshot"]
    then = json.loads(cli(home, "ask", "--as-of", str(snapshot), *question).stdout)
    assert then["response"]["direct_answer"] == first["response"]["direct_answer"]
    assert f"{int(truth['players'][leader]['damage_dealt']):,}" in then["response"]["direct_answer"]
    assert then["metadata"]["warehouse_snapshot"] == snapshot
    listed = cli(home, "matches", "--history", SAMPLE_MATCH_ID)
    assert listed.returncode == 0 and "ingested" in listed.stdout and "replaced" in listed.stdout


def test_remove_and_restore_a_match(tmp_path):
    home = tmp_path / "home"
    assert cli(home, "ingest", str(SAMPLE_LOG)).returncode == 0
    removed = cli(home, "remove", SAMPLE_MATCH_ID)
    assert removed.returncode == 0 and "restore" in removed.stdout
    asked = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--no-followups", "who healed the most")
    assert asked.returncode == 2 and "not in the warehouse" in asked.stderr
    assert cli(home, "remove", SAMPLE_MATCH_ID).returncode == 2  # nothing left to remove
    assert cli(home, "restore", SAMPLE_MATCH_ID).returncode == 0
    asked = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--no-followups", "who healed the most")
    assert asked.returncode == 0 and "PapiTacos" in asked.stdout and "28,752" in asked.stdout
