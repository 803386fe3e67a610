"""The snapshot warehouse: readers resolve pointers and hold what they read, replaced snapshots go only once no
reader holds them, `table_sources` names exactly the committed files, and "unchanged" trusts only what is
committed."""

from __future__ import annotations

import gc
import json

import pytest

from combat_analysis.contracts.schema import TABLES
from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import write_match
from combat_analysis.warehouse.store import (
    WarehouseError,
    committed_snapshot,
    digest_entry_path,
    garbage_marker,
    match_dir,
    open_warehouse,
    table_sources,
)
from tests.support.warehouses import SNAPSHOT_MATCH_ID as MATCH_ID


def events(con) -> int:
    return con.execute("SELECT count(*) FROM events").fetchone()[0]


def snapshots(root) -> list[str]:
    return sorted(p.name for p in (match_dir(root, MATCH_ID) / "snapshots").iterdir())


@pytest.mark.parametrize("scope", [MATCH_ID, None], ids=["one-match reader", "all-matches reader"])
def test_a_replaced_snapshot_stays_while_a_reader_holds_it(tmp_path, two_versions, scope):
    old, new = two_versions
    root = tmp_path / "wh"
    first = ingest_log(old, root)
    reader = open_warehouse(root, scope)
    before = events(reader)
    assert ingest_log(new, root).status == "replaced"
    assert events(reader) == before  # the reader still reads the snapshot it opened, whole
    assert snapshots(root) == sorted([first.snapshot_dir.rsplit("/", 1)[1], committed_snapshot(root, MATCH_ID).name])
    assert garbage_marker(root, MATCH_ID).exists()
    assert events(open_warehouse(root, scope)) > before  # a new reader sees the new match
    reader.close()
    del reader
    gc.collect()
    ingest_log(new, root)  # the next ingest, even an unchanged one, sweeps what nobody holds any more
    assert snapshots(root) == [committed_snapshot(root, MATCH_ID).name]
    assert not garbage_marker(root, MATCH_ID).exists()


def test_table_sources_names_exactly_the_committed_files(tmp_path):
    root = tmp_path / "wh"
    ids = []
    for seed in (82, 83):
        write_match(tmp_path / f"{seed}.log", seed, minutes=3, id_style="odd")
        ids.append(ingest_log(tmp_path / f"{seed}.log", root).match_id)
    one = table_sources(root, ids[0])
    assert set(one) == set(TABLES)
    assert all(files == [committed_snapshot(root, ids[0]) / f"{table}.parquet"] for table, files in one.items())
    every = table_sources(root)
    assert every["events"] == [committed_snapshot(root, m) / "events.parquet" for m in sorted(ids)]
    assert all(f.exists() for files in every.values() for f in files)
    with pytest.raises(WarehouseError, match="not in the warehouse"):
        table_sources(root, "nope")
    with pytest.raises(WarehouseError, match="NUL"):
        table_sources(root, "a\x00b")
    assert table_sources(tmp_path / "empty") == {table: [] for table in TABLES}


def test_unchanged_trusts_only_what_is_committed(tmp_path, two_versions):
    old, new = two_versions
    root = tmp_path / "wh"
    assert ingest_log(old, root).status == "ingested"
    assert ingest_log(old, root).status == "unchanged"
    assert ingest_log(new, root).status == "replaced"
    # the old file's index entry is gone with its snapshot: the old content is new again, not "unchanged"
    assert ingest_log(old, root).status == "replaced"
    # an index entry naming a snapshot that was never committed (as a crash may leave) is not trusted: the
    # file is read again, found committed as it is, and the entry repaired
    current = ingest_log(new, root)
    entry = digest_entry_path(root, current.source_sha256)
    entry.write_text(json.dumps({"snapshots": [{"match_id": MATCH_ID, "snapshot": "20990101T000000000000Z-"
                                                "000000000000-00000000"}]}))
    assert ingest_log(new, root).status == "unchanged"
    assert json.loads(entry.read_text())["snapshots"] == [
        {"match_id": MATCH_ID, "snapshot": committed_snapshot(root, MATCH_ID).name}]
