"""Data handles: Parquet tables written by DuckDB, read back, expired and cleaned up."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from combat_analysis.contracts.package import DerivedTable
from combat_analysis.warehouse.handles import HandleExpiredError, HandleNotFoundError, HandleStore, rows_of


def test_put_and_get_round_trip(tmp_path, con):
    store = HandleStore(tmp_path)
    handle = store.put_table(con, "t", source_sql="SELECT * FROM t")
    assert (tmp_path / f"{handle.handle_id}.parquet").exists()
    assert handle.metadata.shape == (120, 3) and handle.metadata.columns == ("i", "player", "amount")
    assert handle.metadata.dtypes["i"] == "BIGINT" and handle.metadata.dtypes["player"] == "VARCHAR"
    rows = store.get(handle.handle_id)
    assert len(rows) == 120 and rows[5]["player"] == "p5"
    frame = store.get_frame(handle.handle_id)
    assert list(frame.columns) == ["i", "player", "amount"] and len(frame) == 120


def test_put_rows_and_rows_of(tmp_path):
    store = HandleStore(tmp_path)
    rows = [{"minute": m, "gold_diff": -100.0 * m} for m in range(60)]
    handle = store.put_rows(rows, source="test rows")
    assert store.get(handle.handle_id) == rows

    table = DerivedTable(description="test rows", columns=("minute", "gold_diff"), row_count=60,
                         rows=tuple(rows[:5]), handle=handle)
    assert rows_of(table, store) == rows
    assert rows_of(table.model_copy(update={"handle": None}), store) == rows[:5]


def test_missing_handle_is_a_clear_error(tmp_path):
    store = HandleStore(tmp_path)
    with pytest.raises(HandleNotFoundError, match="h_nope"):
        store.get("h_nope")
    with pytest.raises(HandleNotFoundError):
        store.get("../etc/passwd")


def test_expired_handle_error_and_cleanup(tmp_path, con):
    store = HandleStore(tmp_path, ttl=timedelta(minutes=5))
    now = datetime.now(timezone.utc)
    old = store.put_table(con, "t", source_sql="q1", now=now - timedelta(hours=1))
    fresh = store.put_table(con, "t", source_sql="q2", now=now)
    with pytest.raises(HandleExpiredError, match=old.handle_id):
        store.get(old.handle_id)
    assert len(store.get(fresh.handle_id)) == 120
    assert store.cleanup_expired(now=now) == [old.handle_id]
    assert not (tmp_path / f"{old.handle_id}.parquet").exists()
    assert store.ids() == [fresh.handle_id]
    assert store.cleanup_expired(now=now + timedelta(minutes=10)) == [fresh.handle_id]
    assert store.ids() == []
