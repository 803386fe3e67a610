"""`combat-analysis migrate`: a home of the store before the lake (a folder per match: `current.json` naming the
committed snapshot, its `manifest.json` and one Parquet file per table) moved into the lake, row for row: every
figure agrees with truth.py afterwards, running it twice changes nothing, and a snapshot that cannot be read is
named without costing the others."""

from __future__ import annotations

import json
from pathlib import Path

from combat_analysis.contracts.schema import TABLES
from combat_analysis.ingest.run import ingest_log
from combat_analysis.keys import folder_name
from combat_analysis.warehouse.migrate import migrate
from combat_analysis.warehouse.store import committed_manifest, history, match_ids, open_warehouse, sql_string
from tests.support.commands import cli
from tests.support.truth_checks import CORPUS, assert_match_figures, assert_player_figures, truth_of


def old_home(lake: Path, into: Path) -> Path:
    """A warehouse folder in the earlier store's layout, written from the matches of a lake."""
    for match_id in match_ids(lake):
        snapshot = into / "matches" / folder_name(match_id) / "snapshots" / "20250101T000000000000Z-0123456789ab-01234567"
        snapshot.mkdir(parents=True)
        con = open_warehouse(lake, match_id)
        for table in TABLES:
            con.execute(f"COPY (SELECT * FROM {table}) TO {sql_string(str(snapshot / f'{table}.parquet'))} "
                        "(FORMAT parquet)")
        con.close()
        manifest = {**committed_manifest(lake, match_id), "format": 1, "snapshot": snapshot.name}
        (snapshot / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        (snapshot.parent.parent / "current.json").write_text(json.dumps({"snapshot": snapshot.name}), encoding="utf-8")
    return into


def test_migrate_moves_every_match_row_for_row_and_can_run_twice(tmp_path):
    source = tmp_path / "source"
    for log in CORPUS:
        ingest_log(log, source)
    old = old_home(source, tmp_path / "old")
    broken = old / "matches" / "broken" / "current.json"
    broken.parent.mkdir(parents=True)
    broken.write_text("{not json", encoding="utf-8")
    lake = tmp_path / "home" / "warehouse"
    first = migrate(old, lake)
    assert sorted(first.moved) == sorted(match_ids(source)) and first.skipped == ()
    assert len(first.problems) == 1 and "broken" in first.problems[0]
    for log in CORPUS:
        truth = truth_of(log)
        con = open_warehouse(lake, str(truth["match_id"]))
        assert_match_figures(con, truth)
        assert_player_figures(con, truth)
        con.close()
    again = migrate(old, lake)
    assert again.moved == () and sorted(again.skipped) == sorted(match_ids(source))
    assert all([v.action for v in history(lake, m)] == ["migrated"] for m in match_ids(lake))
    unchanged = ingest_log(CORPUS[0], lake)  # the migrated content is known: the log is unchanged
    assert unchanged.status == "unchanged"


def test_the_migrate_command(tmp_path):
    source = tmp_path / "source"
    ingest_log(CORPUS[0], source)
    home = tmp_path / "home"
    old_home(source, home / "warehouse")  # an earlier home: its snapshot folders in its own warehouse folder
    run = cli(home, "migrate")
    assert run.returncode == 0, run.stderr
    assert "1 match moved" in run.stdout
    assert match_ids(home / "warehouse") == match_ids(source)
    assert cli(home, "migrate").returncode == 0 and "1 already there" in cli(home, "migrate").stdout
    assert cli(tmp_path / "nowhere", "migrate").returncode == 2
