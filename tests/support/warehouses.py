"""The simulated matches the warehouse tests (tests/warehouse/) build their warehouses from: the fixtures in
tests/warehouse/conftest.py and the tests themselves both need them."""

from __future__ import annotations

from pathlib import Path

from combat_analysis.ingest.simulate import simulated_match_id
from combat_analysis.warehouse.store import reader

# merging the files of many matches: nine matches, more than `store.COMPACT_AFTER`
MANY_SEEDS = (401, 402, 403, 404, 405, 406, 407, 408, 409)
# the locked connection against truth.py: a numeric id as the game writes them, a name with an apostrophe
TRUTH_MATCHES = {61: "5147276662", 62: "Match O'Neil"}
# snapshots: one match in two versions (a replacement)
SNAPSHOT_SEED = 81
SNAPSHOT_MATCH_ID = str(simulated_match_id(SNAPSHOT_SEED))


def data_files(root, table: str, match_id: str | None = None) -> list[Path]:
    """The Parquet files the lake's current version of a table reads (those holding a match's rows, if given)."""
    with reader(root) as con:
        files = [Path(r[0]) for r in con.execute(f"SELECT data_file FROM ducklake_list_files('lake', '{table}')").fetchall()]
        if match_id is None:
            return files
        return [f for f in files if con.execute(
            "SELECT count(*) FROM read_parquet(?) WHERE match_id = ?", [str(f), match_id]).fetchone()[0]]
