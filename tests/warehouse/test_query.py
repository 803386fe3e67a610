"""The locked query connection answers right: planned SQL over two simulated matches (a numeric id as the game
writes them, a name with an apostrophe) gives exactly what ../shared/tools/truth.py computes from the raw logs,
each connection sees only its match, results over the inline cap travel as handles with their exact types,
and key-derived folders stay inside the artifacts folder."""

from __future__ import annotations

import duckdb
import pytest

from combat_analysis.answer.env import StageEnv
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.contracts.schema import TABLES
from combat_analysis.keys import KeyRefused, folder_name
from combat_analysis.planner import Vocabulary, compile_plan
from combat_analysis.warehouse.query import QueryLimits, open_locked
from combat_analysis.warehouse.store import WarehouseError
from tests.support.warehouses import TRUTH_MATCHES as MATCHES


@pytest.mark.parametrize("match_id", MATCHES.values())
def test_planned_sql_on_the_locked_connection_matches_truth(truth_warehouse, match_id):
    root, figures = truth_warehouse
    expected = figures[match_id]["players"]
    with open_locked(root, match_id) as con:
        vocab = Vocabulary.from_connection(con)
        plan = QueryPlan(question="q", intent=Intent.RANKING, metrics=("damage_dealt", "kills"), group_by=("player",),
                         limit=500)
        (query,) = compile_plan(plan, vocab)
        out = con.run(query.sql)
        assert out.columns == ("player", "damage_dealt", "kills")
        assert {row[0]: (row[1], row[2]) for row in out.rows} == {
            name: (p["damage_dealt"], p["kills"]) for name, p in expected.items()}
        for name, p in expected.items():  # a bound parameter carries any name, quotes and emoji included
            got = con.run("SELECT deaths, gold FROM player_stats WHERE player = $player LIMIT 1", {"player": name})
            assert got.rows == ((p["deaths"], p["gold"]),)
        assert con.execute("SELECT DISTINCT match_id FROM events").fetchall() == [(match_id,)]


def test_one_match_or_every_match_and_unknown_matches(truth_warehouse):
    root, _ = truth_warehouse
    with open_locked(root, "5147276662") as one, open_locked(root) as both:
        for table in TABLES:
            (mine,) = one.execute(f"SELECT count(*) FROM {table}").fetchone()
            (every,) = both.execute(f"SELECT count(*) FROM {table} WHERE match_id = '5147276662'").fetchone()
            assert mine == every
        assert one.snapshot == both.snapshot
    with pytest.raises(WarehouseError, match=r"'no-such-match' is not in the warehouse .*\(2 matches; "):
        open_locked(root, "no-such-match")
    with open_locked(root) as con:  # without a match: every match's files, and still nothing else
        assert sorted(r[0] for r in con.execute("SELECT match_id FROM matches").fetchall()) == sorted(MATCHES.values())


def test_large_results_travel_as_handles_with_their_types(truth_warehouse, tmp_path):
    root, figures = truth_warehouse
    env = StageEnv.build(warehouse_root=root, match_id="5147276662", artifacts_dir=tmp_path, inline_row_cap=5,
                         limits=QueryLimits(timeout_s=5))
    sql = ("SELECT killer, victim, match_second, assists, location_x, is_player_kill FROM kills "
           "ORDER BY line_no LIMIT 500")
    with env.connect() as con:
        out = con.run(sql)
    handle = env.handles.put_result(out.columns, out.types, out.rows, source_sql=sql)
    assert handle.metadata.dtypes == dict(zip(out.columns, out.types, strict=True))
    assert handle.metadata.dtypes["assists"] == "VARCHAR[]" and handle.metadata.shape == (len(out.rows), 6)
    stored = env.handles.get(handle.handle_id)
    assert [tuple(r.values()) for r in stored] == list(out.rows)
    player_kills = sum(1 for r in out.rows if r[5])
    assert player_kills == figures["5147276662"]["total_kills"]
    parquet = duckdb.connect().execute(f"DESCRIBE SELECT * FROM '{handle.path}'").fetchall()
    assert {name: kind for name, kind, *_ in parquet} == handle.metadata.dtypes


def test_query_folders_are_encoded_keys(tmp_path):
    env = StageEnv.build(warehouse_root=tmp_path, match_id=None, artifacts_dir=tmp_path / "artifacts",
                         handles_dir=tmp_path / "handles")
    assert env.query_dir("../../etc") == tmp_path / "artifacts" / folder_name("../../etc")
    assert env.query_dir("q-1") == tmp_path / "artifacts" / "q-1"
    with pytest.raises(KeyRefused, match="query id"):
        env.query_dir("bad\x00id")
    assert sorted(p.name for p in (tmp_path / "artifacts").iterdir()) == sorted([folder_name("../../etc"), "q-1"])
