"""The season layer: compacted chunks of whole matches that reads across matches use instead of one file per
match and table. It is derived, never the truth: every figure across matches is the same with and without it,
a replaced match sends its chunk back to the snapshots until it is rebuilt, one-match readers never see it,
readers keep the chunks they opened, and a compaction killed half-way changes nothing a reader sees."""

from __future__ import annotations

import fcntl
import gc
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from combat_analysis.contracts.schema import TABLES
from combat_analysis.ingest.run import ingest_log, ingest_logs
from combat_analysis.ingest.simulate import simulated_match_id, write_match
from combat_analysis.season import figures as season
from combat_analysis.warehouse.store import (
    LAYER_DIR,
    LAYER_TABLES,
    committed_snapshot,
    compact,
    layer_chunks,
    match_ids,
    open_warehouse,
    table_sources,
)
from tests.support.paths import ROOT
from tests.support.pausing import PAUSE_ENV
from tests.support.warehouses import LAYER_SEEDS as SEEDS


def rounded(value):
    """Floats to 9 significant digits: an average's last bits depend on the order DuckDB adds in."""
    if isinstance(value, float):
        return float(f"{value:.9g}")
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    return value


def figures(root: Path) -> dict:
    """What readers across matches see: every table's rows and totals, and the season's figures."""
    con = open_warehouse(root)
    seen = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    seen["damage"] = (seen["damage"], con.execute("SELECT sum(amount), sum(mitigated) FROM damage").fetchone())
    seen["board"] = season.leaderboard(con, "damage_dealt", limit=50).model_dump()
    seen["kda"] = season.leaderboard(con, "kda", statistic="average", limit=50).model_dump()
    seen["profiles"] = [p.model_dump() for p in season.player_profiles(con)]
    seen["gods"] = [g.model_dump() for g in season.god_stats(con)]
    seen["matches"] = [m.model_dump() for m in season.selected_matches(con)]
    con.close()
    return rounded(seen)


def test_figures_across_matches_are_the_same_with_the_layer(warehouse, tmp_path):
    plain = tmp_path / "plain"
    shutil.copytree(warehouse, plain)
    assert compact(warehouse, chunk_matches=3) == 2
    chunks = layer_chunks(warehouse)
    assert [len(held) for _, held in chunks] == [3, 3]
    ids = sorted(match_ids(warehouse))
    assert [m for _, held in chunks for m in held] == ids[:6]
    sources = table_sources(warehouse)
    for table in TABLES:
        if table in LAYER_TABLES:
            assert sources[table] == [c / f"{table}.parquet" for c, _ in chunks] + [
                committed_snapshot(warehouse, ids[6]) / f"{table}.parquet"]
        else:
            assert sources[table] == [committed_snapshot(warehouse, m) / f"{table}.parquet" for m in ids]
    assert figures(warehouse) == figures(plain)
    assert compact(warehouse, chunk_matches=3) == 0  # up to date: nothing rewritten


def test_one_match_readers_never_read_the_layer(warehouse):
    compact(warehouse, chunk_matches=3)
    for match_id in match_ids(warehouse):
        assert table_sources(warehouse, match_id) == {
            t: [committed_snapshot(warehouse, match_id) / f"{t}.parquet"] for t in TABLES}


def test_a_replaced_match_leaves_its_chunk_until_it_is_rebuilt(warehouse, logs, tmp_path):
    compact(warehouse, chunk_matches=3)
    [(first, held), _] = layer_chunks(warehouse)
    replaced = held[1]
    seed = next(s for s in SEEDS if str(simulated_match_id(s, ("numeric", "odd", "text")[SEEDS.index(s) % 3]))
                == replaced)
    longer = tmp_path / "longer.log"
    write_match(longer, seed, minutes=9, id_style=("numeric", "odd", "text")[SEEDS.index(seed) % 3])
    reference = tmp_path / "reference"
    ingest_logs([*logs, longer], reference, chunk_matches=1000)
    assert ingest_logs([longer], warehouse, chunk_matches=1000)[0].result.status == "replaced"
    # the chunk no longer counts: its three matches are read from their snapshots, the new one included
    assert len(layer_chunks(warehouse)) == 1 and replaced not in layer_chunks(warehouse)[0][1]
    assert figures(warehouse) == figures(reference)
    assert compact(warehouse, chunk_matches=3) == 1  # rebuilt from what is committed now
    assert figures(warehouse) == figures(reference)
    assert not first.exists()  # the dropped chunk is swept once no reader holds it


def test_a_reader_keeps_the_chunks_it_opened(warehouse, logs, tmp_path):
    compact(warehouse, chunk_matches=3)
    reader = open_warehouse(warehouse)
    before = reader.execute("SELECT count(*), sum(damage_dealt) FROM player_stats").fetchone()
    opened = layer_chunks(warehouse)[0][0]
    write_match(tmp_path / "extra.log", 499, minutes=3)
    ingest_logs([tmp_path / "extra.log"], warehouse, chunk_matches=1000)
    os.remove(warehouse / LAYER_DIR / "current.json")  # the layer is gone: every chunk is stale now
    assert compact(warehouse, chunk_matches=4) == 2
    assert opened.exists()  # held by the reader
    assert reader.execute("SELECT count(*), sum(damage_dealt) FROM player_stats").fetchone() == before
    reader.close()
    del reader
    gc.collect()
    compact(warehouse, chunk_matches=4)
    assert not opened.exists()


def test_one_compactor_at_a_time(warehouse):
    (warehouse / LAYER_DIR).mkdir()
    fd = os.open(warehouse / LAYER_DIR / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert compact(warehouse, chunk_matches=3) == 0 and layer_chunks(warehouse) == []
    finally:
        os.close(fd)
    assert compact(warehouse, chunk_matches=3) == 2


def test_a_compaction_killed_before_its_pointer_changes_nothing(warehouse, tmp_path):
    before = figures(warehouse)
    code = f"from combat_analysis.warehouse.store import compact; compact({str(warehouse)!r}, chunk_matches=3)"
    proc = subprocess.Popen([sys.executable, "-m", "tests.support.pausing", "-c", code], cwd=ROOT, stderr=subprocess.PIPE,
                            env={**os.environ, PAUSE_ENV: "layer-pointer-temp-written"})
    said = b""
    deadline = time.monotonic() + 120
    while b"paused at layer-pointer-temp-written" not in said:
        assert proc.poll() is None and time.monotonic() < deadline, said
        said += os.read(proc.stderr.fileno(), 4096)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert layer_chunks(warehouse) == [] and len(list((warehouse / LAYER_DIR / "chunks").iterdir())) == 2
    assert figures(warehouse) == before
    assert compact(warehouse, chunk_matches=3) == 2
    assert sorted(p.name for p in (warehouse / LAYER_DIR / "chunks").iterdir()) == sorted(
        c.name for c, _ in layer_chunks(warehouse))  # what the killed one left is swept
    assert figures(warehouse) == before


def test_an_ingest_run_brings_the_layer_up_to_date(logs, tmp_path):
    root = tmp_path / "wh"
    ingest_logs(logs, root, chunk_matches=3)
    assert [len(held) for _, held in layer_chunks(root)] == [3, 3]
    ingest_log(logs[0], root)  # unchanged: nothing to compact, nothing rewritten
    assert [len(held) for _, held in layer_chunks(root)] == [3, 3]
