"""Helpers for tests that run real Dagster: an isolated data home and an ephemeral instance, a match ingested as a
partition, a question asked through the five question assets, a tick of the automation sensor."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg

from assets.ingest import match_warehouse, raw_match_log
from assets.questions import QuestionConfig, question_assets
from assets.reports import match_report
from assets.season import season_assets
from combat_analysis.inbox.requests import match_key
from resources import CombatHome, PackageIOManager, PlannerResource
from tests.support.paths import ROOT, SAMPLE_MATCH_ID

# The housekeeping tests' two question keys: keys are data, so spaces, capitals and a slash are fine.
OLD, NEW = "who got first blood", "Top-Damage/1"


def resources_for(home: Path) -> dict:
    return {
        "home": CombatHome(home=str(home)),
        "planner": PlannerResource(),
        "package_io_manager": PackageIOManager(root=str(home / "packages")),
    }


def drop_log(home: Path, log: Path, name: str | None = None) -> Path:
    incoming = home / "incoming"
    incoming.mkdir(parents=True, exist_ok=True)
    target = incoming / (name or log.name)
    shutil.copyfile(log, target)
    return target


def new_instance() -> dg.DagsterInstance:
    return dg.DagsterInstance.ephemeral()


def local_dagster_home(path: Path) -> Path:
    """A DAGSTER_HOME with the local instance's settings and its SQLite storage already created.

    Creating it here, before any Dagster process starts, matters: a daemon and a code server that meet an
    empty home both create and stamp the schema, and the loser of that race dies on alembic's revision check."""
    path.mkdir(parents=True)
    shutil.copyfile(ROOT / "deploy" / "dagster.local.yaml", path / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(path)):
        pass
    return path


def ask_question(home: Path, instance, question: str, key: str) -> dg.ExecuteInProcessResult:
    """`question` about the sample match through the five question assets, as the new question partition `key`."""
    instance.add_dynamic_partitions("questions", [key])
    config = QuestionConfig(question=question, match_id=SAMPLE_MATCH_ID)
    return dg.materialize(question_assets, partition_key=key, instance=instance, resources=resources_for(home),
                          run_config=dg.RunConfig(ops={"query_plan": config}))


def ingest_match(home: Path, instance, match) -> str:
    """A season match (tests/support/season.py) ingested as its match partition; returns the partition key."""
    key = match_key(match.match_id)
    instance.add_dynamic_partitions("matches", [key])
    result = dg.materialize([raw_match_log, match_warehouse], partition_key=key, instance=instance,
                            resources=resources_for(home),
                            run_config={"ops": {"raw_match_log": {"config": {"path": str(match.path)}}}})
    assert result.success
    return key


def automation_tick(home: Path, instance, cursor=None):
    """One tick of the automation sensor, as the daemon would evaluate it."""
    defs = dg.Definitions(assets=[raw_match_log, match_warehouse, match_report, *season_assets],
                          resources=resources_for(home))
    return dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=cursor)
