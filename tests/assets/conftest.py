"""Fixtures of the Dagster tests: data homes and instances with the sample match, questions, hostile partition keys
and the season materialized through real runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import dagster as dg
import pytest

from assets.ingest import match_warehouse, raw_match_log
from assets.questions import QuestionConfig, question_assets
from assets.reports import match_report
from assets.season import season_assets
from tests.support.dagster import (
    NEW,
    OLD,
    ask_question,
    automation_tick,
    drop_log,
    ingest_match,
    local_dagster_home,
    new_instance,
    resources_for,
)
from tests.support.hostile_keys import (
    MAPPABLE,
    MATCH_KEYS,
    QUESTION_MATCH_ID,
    REPORTED,
    UNMAPPABLE,
    file_names,
)
from tests.support.paths import ROOT, SAMPLE_LOG, SAMPLE_MATCH_ID
from tests.support.season import FIRST
from tests.support.simulated import simulated_log


@pytest.fixture(scope="module")
def two_questions(tmp_path_factory):
    """The sample match ingested through Dagster; one question asked, a moment noted, another asked."""
    home = tmp_path_factory.mktemp("housekeeping")
    instance = new_instance()
    instance.add_dynamic_partitions("matches", [SAMPLE_MATCH_ID])
    drop_log(home, SAMPLE_LOG)
    assert dg.materialize(
        [raw_match_log, match_warehouse], partition_key=SAMPLE_MATCH_ID, instance=instance,
        resources=resources_for(home),
        run_config={"ops": {"raw_match_log": {"config": {"path": str(home / "incoming" / SAMPLE_LOG.name)}}}},
    ).success
    assert ask_question(home, instance, "Who got first blood?", OLD).success
    time.sleep(0.05)
    between = datetime.now(timezone.utc)
    time.sleep(0.05)
    assert ask_question(home, instance, "Who dealt the most damage in the match?", NEW).success
    return home, instance, between


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    top = tmp_path_factory.mktemp("keys")
    home = top / "deep" / "er" / "still" / "home"
    home.mkdir(parents=True)
    return top, home


@pytest.fixture(scope="module")
def matches(place):
    top, home = place
    logs = top / "logs"
    logs.mkdir()
    instance = new_instance()
    instance.add_dynamic_partitions("matches", MATCH_KEYS + UNMAPPABLE)
    before = file_names(top, home) | {str(logs / f"match-{40 + i}.log") for i in range(len(MATCH_KEYS))}
    runs = {}
    for i, key in enumerate(MATCH_KEYS):
        log = simulated_log(logs, 40 + i, key)
        runs[key] = dg.materialize(
            [raw_match_log, match_warehouse], partition_key=key, instance=instance, resources=resources_for(home),
            run_config={"ops": {"raw_match_log": {"config": {"path": str(log)}}}}, raise_on_error=False)
    for key in REPORTED:
        runs[("report", key)] = dg.materialize([match_report], partition_key=key, instance=instance,
                                               resources=resources_for(home), raise_on_error=False)
    for key in UNMAPPABLE:
        runs[key] = dg.materialize(
            [raw_match_log, match_warehouse], partition_key=key, instance=instance, resources=resources_for(home),
            run_config={"ops": {"raw_match_log": {"config": {"path": str(logs / 'match-40.log')}}}}, raise_on_error=False)
        runs[("report", key)] = dg.materialize([match_report], partition_key=key, instance=instance,
                                               resources=resources_for(home), raise_on_error=False)
    return top, home, before, runs


@pytest.fixture(scope="module")
def questions(place):
    top, home = place
    home = home.parent / "qhome"
    home.mkdir()
    from combat_analysis.ingest.run import ingest_log

    ingest_log(simulated_log(top, 50, QUESTION_MATCH_ID), home / "warehouse")
    instance = new_instance()
    instance.add_dynamic_partitions("questions", MAPPABLE + UNMAPPABLE)
    before = file_names(top, home)
    runs = {}
    for i, key in enumerate(MAPPABLE + UNMAPPABLE):
        # one real answer (queries, charts, handles); the rest are refusals, which still write every
        # key-derived file: the registry entry, five packages and the report
        question = "Who got first blood?" if i == 0 else "What was the weather during the match?"
        config = QuestionConfig(question=question, match_id=QUESTION_MATCH_ID)
        runs[key] = dg.materialize(question_assets, partition_key=key, instance=instance,
                                   resources=resources_for(home), run_config=dg.RunConfig(ops={"query_plan": config}),
                                   raise_on_error=False)
    return top, home, before, runs


@pytest.fixture(scope="module")
def dagster_home(tmp_path_factory):
    """A data home with the sample match ingested through Dagster, and the instance that recorded it."""
    home = tmp_path_factory.mktemp("home")
    instance = new_instance()
    instance.add_dynamic_partitions("matches", [SAMPLE_MATCH_ID])
    drop_log(home, SAMPLE_LOG)
    result = dg.materialize(
        [raw_match_log, match_warehouse], partition_key=SAMPLE_MATCH_ID, instance=instance, resources=resources_for(home),
        run_config={"ops": {"raw_match_log": {"config": {"path": str(home / "incoming" / SAMPLE_LOG.name)}}}},
    )
    assert result.success
    return home, instance, result


@pytest.fixture(scope="module")
def materialized(tmp_path_factory):
    home = tmp_path_factory.mktemp("ui-charts")
    instance = new_instance()
    instance.add_dynamic_partitions("matches", [SAMPLE_MATCH_ID])
    drop_log(home, SAMPLE_LOG)
    resources = resources_for(home)
    assert dg.materialize(
        [raw_match_log, match_warehouse, match_report], partition_key=SAMPLE_MATCH_ID, instance=instance,
        resources=resources,
        run_config={"ops": {"raw_match_log": {"config": {"path": str(home / "incoming" / SAMPLE_LOG.name)}}}},
    ).success
    instance.add_dynamic_partitions("questions", ["gold-lead"])
    answer = dg.materialize(question_assets, partition_key="gold-lead", instance=instance, resources=resources,
                            run_config=dg.RunConfig(ops={"query_plan": QuestionConfig(
                                question="How did the team gold difference change over time?",
                                match_id=SAMPLE_MATCH_ID)}))
    season = dg.materialize(season_assets, instance=instance, resources=resources)
    assert answer.success and season.success

    def latest(key: str) -> dict:
        event = instance.get_latest_materialization_event(dg.AssetKey(key))
        return {k: v.value for k, v in event.asset_materialization.metadata.items()}

    return {name: latest(name) for name in ("charts", "answer_report", "match_report", "season_report")}


@pytest.fixture(scope="module")
def season_home(tmp_path_factory, season_matches):
    """Four matches ingested through Dagster, one match report built, and the season materialized."""
    home = tmp_path_factory.mktemp("season-home")
    instance = new_instance()
    first = season_matches[FIRST]
    keys = [ingest_match(home, instance, m) for m in first]
    landed = automation_tick(home, instance)  # the sensor's first tick, over a warehouse filled before it ran
    report = dg.materialize([match_report], partition_key=keys[0], instance=instance, resources=resources_for(home))
    assert report.success
    result = dg.materialize(season_assets, instance=instance, resources=resources_for(home))
    assert result.success
    return home, instance, result, landed, first


SHM = Path("/dev/shm")


@pytest.fixture()
def tmpfs_home():
    if not SHM.is_dir() or os.statvfs(SHM).f_bavail * os.statvfs(SHM).f_frsize < 512 * 1024 * 1024:
        pytest.skip("no tmpfs at /dev/shm with room for a warehouse")
    home = Path(tempfile.mkdtemp(prefix="combat-home-", dir=SHM))
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def cli_doors(tmp_path_factory):
    """Two small simulated matches written by `combat-analysis ingest` (a real subprocess) with DAGSTER_HOME set
    to an instance of the test's own; and one of them ingested through a Dagster run in another home, for the
    metadata a sensor ingest records."""
    top = tmp_path_factory.mktemp("doors")
    logs = [simulated_log(top, 61, "door-one"), simulated_log(top, 62, "door-two")]
    home, dagster_home = top / "home", local_dagster_home(top / "dagster_home")
    env = {**os.environ, "COMBAT_ANALYSIS_HOME": str(home), "DAGSTER_HOME": str(dagster_home), "MPLBACKEND": "Agg"}
    command = [sys.executable, "-m", "combat_analysis.app.main", "ingest", *map(str, logs)]
    ingest = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    again = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    through_run = new_instance()
    through_run.add_dynamic_partitions("matches", ["door-one"])
    assert dg.materialize([raw_match_log, match_warehouse], partition_key="door-one", instance=through_run,
                          resources=resources_for(top / "run-home"),
                          run_config={"ops": {"raw_match_log": {"config": {"path": str(logs[0])}}}}).success
    return home, dagster_home, ingest, again, through_run


@pytest.fixture()
def lake_home(tmp_path):
    """A data home whose warehouse holds one small simulated match, written without Dagster."""
    from combat_analysis.ingest.run import ingest_log

    home = tmp_path / "home"
    ingest_log(simulated_log(tmp_path, 63, "lake-only"), home / "warehouse")
    return home
