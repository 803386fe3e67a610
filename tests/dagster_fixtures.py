"""Helpers for tests that run real Dagster: an isolated data home and an ephemeral instance."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg

from resources import CombatHome, PackageIOManager, PlannerResource


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
    shutil.copyfile(Path(__file__).resolve().parents[1] / "deploy" / "dagster.local.yaml", path / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(path)):
        pass
    return path
