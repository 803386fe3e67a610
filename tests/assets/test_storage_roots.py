"""The data home on another filesystem: the `CombatHome` resource pointed at a tmpfs mount while the logs arrive
on the disk. Everything the warehouse writes (its catalog and every data file, merged or not) stays under its own
root; only the logs are read from elsewhere. (Shared storage and object stores: docs/scaling.md.)"""

from __future__ import annotations

import os

import dagster as dg

from assets.ingest import match_warehouse, raw_match_log
from assets.sensors import incoming_logs_sensor
from combat_analysis.contracts.schema import TABLES
from combat_analysis.ingest.simulate import write_match
from combat_analysis.season import figures as season
from combat_analysis.warehouse.store import compact, match_ids, open_warehouse
from resources import CombatHome
from tests.support.dagster import new_instance
from tests.support.truth_checks import assert_player_figures, truth_of
from tests.support.warehouses import data_files


def test_a_home_on_another_filesystem_holds_the_whole_warehouse(tmpfs_home, tmp_path):
    incoming = tmp_path / "incoming"
    logs = []
    for seed in (91, 92, 93, 94):
        logs.append(incoming / f"scrim-{seed}.log")
        write_match(logs[-1], seed, minutes=3)
    assert os.stat(tmpfs_home).st_dev != os.stat(incoming).st_dev  # two filesystems
    home = CombatHome(home=str(tmpfs_home), incoming_dir=str(incoming), logs_per_run=2)
    instance = new_instance()
    with dg.build_sensor_context(instance=instance, resources={"home": home}) as context:
        tick = incoming_logs_sensor(context)
    instance.add_dynamic_partitions("matches", tick.dynamic_partitions_requests[0].partition_keys)
    for request in tick.run_requests:  # the sensor's runs, each over a range of two matches
        result = dg.materialize([raw_match_log, match_warehouse], instance=instance, resources={"home": home},
                                tags=request.tags)
        assert result.success
    root = home.paths.warehouse
    assert root == tmpfs_home.resolve() / "warehouse"
    assert len(match_ids(root)) == 4
    assert compact(root, min_files=2)  # the small files merged, on the same filesystem
    every = [f for table in TABLES for f in data_files(root, table)]
    assert every and all(f.is_relative_to(root) and os.stat(f).st_dev == os.stat(tmpfs_home).st_dev for f in every)
    con = open_warehouse(root)
    board = season.leaderboard(con, "kills", limit=100)
    assert sum(r.value for r in board.rows) == con.execute(
        "SELECT count(*) FROM kills WHERE is_player_kill").fetchone()[0]
    for log in logs:
        match_id = next(m for m in match_ids(root) if open_warehouse(root, m).execute(
            "SELECT source_file FROM matches").fetchone()[0] == log.name)
        assert_player_figures(open_warehouse(root, match_id), truth_of(log))
    assert not (tmp_path / "incoming" / "warehouse").exists()  # nothing written beside the logs
