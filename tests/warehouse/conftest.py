"""Fixtures of the warehouse tests: warehouses of simulated and corpus matches, DuckDB connections for the gate and
the handles."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from combat_analysis.contracts.schema import WAREHOUSE_SCHEMA
from combat_analysis.ingest.run import ingest_log, ingest_logs
from combat_analysis.ingest.simulate import write_match
from tests.support.simulated import simulated_log
from tests.support.truth_checks import CORPUS
from tests.support.truth_checks import truth_tool as truth
from tests.support.warehouses import MANY_SEEDS, SNAPSHOT_SEED, TRUTH_MATCHES


@pytest.fixture(scope="module")
def corpus_warehouse(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    results = {log.name: ingest_log(log, root) for log in CORPUS}
    return root, results


@pytest.fixture(scope="module")
def oracle():
    """Empty warehouse tables and nothing else reachable: DuckDB decides what a statement really reads."""
    con = duckdb.connect(config={"python_enable_replacements": False, "autoload_known_extensions": False,
                                 "autoinstall_known_extensions": False})
    for table, columns in WAREHOUSE_SCHEMA.items():
        con.execute(f"CREATE TABLE {table} ({', '.join(f'{c} {t}' for c, t in columns.items())})")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    yield con
    con.close()


@pytest.fixture()
def con():
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT range AS i, 'p' || range AS player, range * 1.5 AS amount FROM range(120)")
    yield con
    con.close()


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[Path]:
    work = tmp_path_factory.mktemp("many-logs")
    found = []
    for i, seed in enumerate(MANY_SEEDS):
        log = work / f"m{seed}.log"
        write_match(log, seed, minutes=3 + i % 3, id_style=("numeric", "odd", "text")[i % 3])
        found.append(log)
    return found


@pytest.fixture()
def warehouse(logs, tmp_path) -> Path:
    """A lake of the simulated matches, one file per match and table: nothing merged yet."""
    root = tmp_path / "wh"
    ingest_logs(logs, root, merge=False)
    return root


@pytest.fixture()
def two_versions(tmp_path):
    old, new = tmp_path / "old.log", tmp_path / "new.log"
    write_match(old, SNAPSHOT_SEED, minutes=3)
    write_match(new, SNAPSHOT_SEED, minutes=4)
    return old, new


@pytest.fixture(scope="module")
def truth_warehouse(tmp_path_factory):
    top = tmp_path_factory.mktemp("engine")
    figures = {}
    for seed, match_id in TRUTH_MATCHES.items():
        log = simulated_log(top, seed, match_id)
        assert ingest_log(log, top / "wh").match_id == match_id
        figures[match_id] = truth.figures(*truth.load(log))
    return top / "wh", figures


@pytest.fixture()
def lake_root(tmp_path) -> Path:
    """Where a test's own lake goes: the embedded default under a warehouse folder."""
    return tmp_path / "warehouse"
