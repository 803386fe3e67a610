"""Snapshots of the lake: a reader reads the snapshot it opened whole while the match is replaced, a replaced
version stays until housekeeping expires it and its files only go once no reader can be reading them, and
"unchanged" trusts only what is committed."""

from __future__ import annotations

from datetime import timedelta

import pytest

from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import write_match
from combat_analysis.warehouse.store import (
    WarehouseError,
    expire,
    match_ids,
    open_warehouse,
    remove_match,
)
from tests.support.warehouses import SNAPSHOT_MATCH_ID as MATCH_ID


def events(con) -> int:
    return con.execute("SELECT count(*) FROM events").fetchone()[0]


@pytest.mark.parametrize("scope", [MATCH_ID, None], ids=["one-match reader", "all-matches reader"])
def test_a_reader_reads_its_snapshot_whole_while_the_match_is_replaced(tmp_path, two_versions, scope):
    old, new = two_versions
    root = tmp_path / "wh"
    ingest_log(old, root)
    reader = open_warehouse(root, scope)
    before = events(reader)
    assert ingest_log(new, root).status == "replaced"
    assert events(reader) == before  # the reader still reads the snapshot it opened, whole
    assert events(open_warehouse(root, scope)) > before  # a new reader sees the new match
    expire(root, timedelta(hours=1), grace=timedelta(0))  # housekeeping keeps what is younger than the retention
    assert events(reader) == before
    reader.close()


def test_unchanged_trusts_only_what_is_committed(tmp_path, two_versions):
    old, new = two_versions
    root = tmp_path / "wh"
    assert ingest_log(old, root).status == "ingested"
    assert ingest_log(old, root).status == "unchanged"
    assert ingest_log(new, root).status == "replaced"
    assert ingest_log(new, root).status == "unchanged"
    remove_match(root, MATCH_ID)  # what was committed from this content is gone: it is new again
    assert ingest_log(new, root).status == "ingested"


def test_a_match_or_a_warehouse_that_is_not_there_is_named(tmp_path):
    root = tmp_path / "wh"
    assert match_ids(root) == [] and match_ids(tmp_path / "never") == []
    assert open_warehouse(root).execute("SELECT count(*) FROM matches").fetchone() == (0,)  # empty, not an error
    with pytest.raises(WarehouseError, match="no match yet"):
        open_warehouse(root, "m1")
    write_match(tmp_path / "m.log", 82, minutes=3, id_style="odd")
    ingest_log(tmp_path / "m.log", root)
    with pytest.raises(WarehouseError, match="not in the warehouse"):
        open_warehouse(root, "nope")
    with pytest.raises(WarehouseError, match="NUL"):
        open_warehouse(root, "a\x00b")
