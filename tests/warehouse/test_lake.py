"""The warehouse lake: one transaction per file, time travel, history, removal and restore, housekeeping,
extensions loaded from their packages, and the locked reader's limits. Figures against the truth files."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta

import duckdb
import pytest

from combat_analysis.ingest.run import ingest_log
from combat_analysis.warehouse import extensions
from combat_analysis.warehouse import store as warehouse
from combat_analysis.warehouse.query import QueryRefused, open_locked
from tests.support.paths import ROOT, SAMPLE_LOG, SAMPLE_MATCH_ID
from tests.support.simulated import doubled_damage

TOP_DAMAGE = "SELECT player, damage_dealt FROM player_stats ORDER BY damage_dealt DESC LIMIT 1"


def _leader(truth: dict) -> tuple[str, float]:
    """The top damage dealer and their damage, from the truth file."""
    name = max(truth["players"], key=lambda p: truth["players"][p]["damage_dealt"])
    return name, truth["players"][name]["damage_dealt"]


def test_the_embedded_default_is_a_sqlite_catalog_with_parquet_beside_it(lake_root, truth):
    result = ingest_log(SAMPLE_LOG, lake_root)
    assert result.status == "ingested" and result.snapshot is not None
    assert (lake_root / "catalog.sqlite").is_file()
    assert list((lake_root / "data").rglob("*.parquet"))
    with open_locked(lake_root, SAMPLE_MATCH_ID) as con:
        player, damage = con.run(TOP_DAMAGE).rows[0]
    assert (player, damage) == _leader(truth)


def test_an_old_snapshot_answers_as_it_did_after_the_match_is_replaced(lake_root, tmp_path, truth):
    first = ingest_log(SAMPLE_LOG, lake_root)
    with open_locked(lake_root, SAMPLE_MATCH_ID) as con:
        before_snapshot, before = con.snapshot, con.run(TOP_DAMAGE).rows[0]
    leader = _leader(truth)[0]
    second = ingest_log(doubled_damage(SAMPLE_LOG, tmp_path / "sample_doubled.log", leader), lake_root)
    assert second.status == "replaced" and second.snapshot > first.snapshot
    with open_locked(lake_root, SAMPLE_MATCH_ID) as con:
        now = con.run(TOP_DAMAGE).rows[0]
    assert now[0] == leader and now[1] > before[1]
    with open_locked(lake_root, SAMPLE_MATCH_ID, snapshot=before_snapshot) as con:
        assert con.run(TOP_DAMAGE).rows[0] == before
    assert before[1] == _leader(truth)[1]


def test_history_remove_and_restore(lake_root, tmp_path, truth):
    ingest_log(SAMPLE_LOG, lake_root)
    ingest_log(doubled_damage(SAMPLE_LOG, tmp_path / "d.log", _leader(truth)[0]), lake_root)
    versions = warehouse.history(lake_root, SAMPLE_MATCH_ID)
    assert [v.action for v in versions] == ["ingested", "replaced"]
    warehouse.remove_match(lake_root, SAMPLE_MATCH_ID)
    assert SAMPLE_MATCH_ID not in warehouse.match_ids(lake_root)
    with pytest.raises(warehouse.WarehouseError, match="not in the warehouse"):
        open_locked(lake_root, SAMPLE_MATCH_ID)
    warehouse.restore_match(lake_root, SAMPLE_MATCH_ID)  # undoes the removal: the doubled version
    with open_locked(lake_root, SAMPLE_MATCH_ID) as con:
        assert con.run(TOP_DAMAGE).rows[0][1] > _leader(truth)[1]
    warehouse.restore_match(lake_root, SAMPLE_MATCH_ID, snapshot=versions[0].snapshot)  # the original
    with open_locked(lake_root, SAMPLE_MATCH_ID) as con:
        assert con.run(TOP_DAMAGE).rows[0][1] == _leader(truth)[1]
    assert [v.action for v in warehouse.history(lake_root, SAMPLE_MATCH_ID)] == [
        "ingested", "replaced", "removed", "restored", "restored"]


def test_housekeeping_expires_old_versions_and_only_then_deletes_their_files(lake_root, tmp_path, truth):
    ingest_log(SAMPLE_LOG, lake_root)
    with open_locked(lake_root, SAMPLE_MATCH_ID) as con:
        old = con.snapshot
    ingest_log(doubled_damage(SAMPLE_LOG, tmp_path / "d.log", _leader(truth)[0]), lake_root)
    files = set((lake_root / "data").rglob("*.parquet"))
    kept = warehouse.expire(lake_root, timedelta(days=30), grace=timedelta(0))
    assert kept.snapshots == 0 and set((lake_root / "data").rglob("*.parquet")) >= {
        f for f in files if "damage" in f.parts}  # the old version's files stay while it is kept
    with open_locked(lake_root, SAMPLE_MATCH_ID, snapshot=old) as con:
        assert con.run(TOP_DAMAGE).rows[0][1] == _leader(truth)[1]
    waiting = warehouse.expire(lake_root, timedelta(0))  # just expired: its files wait out the grace period
    assert waiting.snapshots > 0 and waiting.files_waiting > 0 and set((lake_root / "data").rglob("*.parquet")) >= files
    gone = warehouse.expire(lake_root, timedelta(0), grace=None)
    assert gone.files_deleted > 0 and not files <= set((lake_root / "data").rglob("*.parquet"))
    with pytest.raises(warehouse.WarehouseError, match="snapshot"):
        open_locked(lake_root, SAMPLE_MATCH_ID, snapshot=old)
    with open_locked(lake_root, SAMPLE_MATCH_ID) as con:  # the current version is whole
        assert con.run(TOP_DAMAGE).rows[0][1] > _leader(truth)[1]


def test_the_same_log_compressed_or_plain_is_unchanged(lake_root, tmp_path):
    import gzip

    packed = tmp_path / "sample_match.log.gz"
    packed.write_bytes(gzip.compress(SAMPLE_LOG.read_bytes()))
    first = ingest_log(packed, lake_root)
    again = ingest_log(SAMPLE_LOG, lake_root)
    assert (first.status, again.status) == ("ingested", "unchanged")
    assert len(warehouse.history(lake_root, SAMPLE_MATCH_ID)) == 1


def test_the_locked_reader_reads_the_lake_and_nothing_else(lake_root, tmp_path):
    ingest_log(SAMPLE_LOG, lake_root)
    secret = tmp_path / "secret.csv"
    secret.write_text("a\n1\n")
    with open_locked(lake_root, SAMPLE_MATCH_ID) as con:
        for sql in (f"SELECT * FROM read_csv('{secret}')", "SELECT * FROM read_csv('/etc/passwd')"):
            with pytest.raises(QueryRefused):
                con.execute(sql).fetchall()
        for statement in ("SET enable_external_access = true", "INSTALL httpfs", "LOAD httpfs",
                          f"ATTACH '{tmp_path / 'x.db'}' AS x", "INSERT INTO lake.players VALUES ('m', 'p', 1, 'r', 'g')"):
            with pytest.raises(QueryRefused):
                con.execute(statement)
        with pytest.raises(QueryRefused):
            con.run("SELECT count(*) FROM lake.damage")  # the lake's own tables are not the query surface


def test_extensions_load_from_their_packages_with_no_download(tmp_path, monkeypatch):
    """A connection never installs, downloads or autoloads: an empty extension folder and a home with nothing
    in it change nothing, and loading by name (which would need an install) fails."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    extension_dir = str(tmp_path / "ext")
    code = ("import duckdb; from combat_analysis.warehouse import extensions as e; "
            f"c = e.connect(('sqlite_scanner', 'ducklake'), {{'extension_directory': {extension_dir!r}}}); "
            "print(sorted(r[0] for r in c.execute(\"SELECT extension_name FROM duckdb_extensions() WHERE loaded\")"
            ".fetchall()));"
            "c.execute('LOAD httpfs')")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={
        "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT), "http_proxy": "http://127.0.0.1:9",
        "https_proxy": "http://127.0.0.1:9"})
    assert "ducklake" in run.stdout and "sqlite_scanner" in run.stdout, run.stderr
    assert "httpfs" in run.stderr and run.returncode != 0  # not installed: nothing was fetched for it
    assert not list((tmp_path / "ext").rglob("*.duckdb_extension"))
    assert json.loads((tmp_path / "cache" / "combat-analysis" / "verified-extensions.json").read_text())


def test_an_extension_built_for_another_duckdb_is_named(monkeypatch):
    monkeypatch.setattr(duckdb, "__version__", "0.0.1")
    with pytest.raises(extensions.ExtensionMissing, match="not built for DuckDB 0.0.1"):
        extensions.extension_file("ducklake")


def test_a_commit_that_keeps_conflicting_fails_clearly(lake_root, monkeypatch):
    ingest_log(SAMPLE_LOG, lake_root)
    tries = []

    def conflicting(cursor):
        raise duckdb.TransactionException("Failed to commit DuckLake transaction: database is locked")

    monkeypatch.setattr(warehouse, "FIRST_WAIT_S", 0.001)
    with warehouse.writer(lake_root) as con, pytest.raises(warehouse.CommitFailed, match="after 3 tries"):
        warehouse.commit(con, conflicting, message="test", info={}, retries=3,
                         on_retry=lambda n, e: tries.append(n))
    assert tries == [1, 2]
