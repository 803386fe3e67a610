"""Real logs unlike the sample (numeric ids, accents, apostrophes, CJK, a stomp, a long game won by team 1, LF
and CRLF, with and without a BOM): the warehouse holds every figure of their independent truth files."""

from __future__ import annotations

import json

import pytest

from combat_analysis.warehouse.store import match_ids, open_warehouse
from tests.support.truth_checks import CORPUS, assert_match_figures, assert_player_figures


@pytest.mark.parametrize("log", CORPUS, ids=lambda p: p.name.split(".")[0])
def test_corpus_match_holds_its_truth(corpus_warehouse, log):
    root, results = corpus_warehouse
    truth = json.loads(log.with_name(log.name.replace(".log.gz", ".truth.json")).read_text(encoding="utf-8"))
    result = results[log.name]
    assert result.match_id == truth["match_id"] and result.match_id.isdigit()
    assert (result.status, result.lines_total, result.lines_quarantined) == ("ingested", truth["lines"], 0)
    con = open_warehouse(root, result.match_id)
    assert_match_figures(con, truth)
    assert_player_figures(con, truth)


def test_numeric_ids_stay_text_across_matches(corpus_warehouse):
    root, results = corpus_warehouse
    assert sorted(match_ids(root)) == sorted(r.match_id for r in results.values())
    con = open_warehouse(root)
    assert con.execute("SELECT typeof(match_id), count(DISTINCT match_id) FROM player_stats GROUP BY 1").fetchall() \
        == [("VARCHAR", 3)]
