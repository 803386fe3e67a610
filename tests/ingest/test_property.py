"""Property: on any simulated match (seed, length, density, id style, names, framing all varied) the
warehouse agrees with the independent `truth.py` on every player figure and on the match's own figures."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import ID_STYLES, NAMES, simulated_match_id, write_match
from combat_analysis.warehouse.store import match_ids, open_warehouse
from tests.support.truth_checks import assert_match_figures, assert_player_figures, truth_of

# 12 random matches a run (about 2 s each, the longest test of `make test`); a local run draws new ones, CI the same
# ones (the "ci" profile). COMBAT_ANALYSIS_PROPERTY_EXAMPLES=200 searches deeper before a release.
EXAMPLES = int(os.environ.get("COMBAT_ANALYSIS_PROPERTY_EXAMPLES", "12"))

# Names as real logs write them: letters of any script, digits, punctuation, symbols (emoji) and spaces.
any_name = st.text(alphabet=st.characters(whitelist_categories=("L", "N", "P", "S", "Zs")), min_size=1, max_size=16)
rosters = st.one_of(
    st.none(),  # the simulator's own default roster
    st.lists(st.one_of(st.sampled_from(NAMES), any_name), min_size=10, max_size=10, unique=True),
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=99_999), minutes=st.integers(min_value=3, max_value=14),
       scale=st.sampled_from([0.5, 1.0, 2.0]), id_style=st.sampled_from(ID_STYLES), names=rosters,
       bom=st.booleans(), crlf=st.booleans())
def test_warehouse_equals_truth_on_simulated_matches(tmp_path_factory, seed, minutes, scale, id_style, names,
                                                     bom, crlf):
    work = tmp_path_factory.mktemp("sim")
    log = work / "match.log"
    lines = write_match(log, seed, minutes=minutes, scale=scale, id_style=id_style, names=names, bom=bom, crlf=crlf)
    result = ingest_log(log, work / "wh")
    expected_id = str(simulated_match_id(seed, id_style))
    assert (result.match_id, result.lines_total, result.lines_quarantined) == (expected_id, lines, 0)
    assert match_ids(work / "wh") == [expected_id]
    truth = truth_of(log)
    con = open_warehouse(work / "wh", expected_id)
    assert_match_figures(con, truth)
    assert_player_figures(con, truth)
