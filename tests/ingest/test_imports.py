"""What an ingest process imports: not pandas. DuckDB's Python client imports it (0.6 s) for any bound Python value,
so the ingest of a well-formed log writes its values as SQL literals (`warehouse.store.sql_literal`; a garbage line's
NUL bytes are kept too: test_edge_cases.py). `benchmarks/answer.py` times the folder ingest against DuckDB's scan."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.paths import SAMPLE_LOG
from tests.support.truth_checks import truth_of

PROBE = """
import json, sys
from pathlib import Path
from combat_analysis.ingest.run import ingest_logs
from combat_analysis.warehouse import store
log, root = Path(sys.argv[1]), Path(sys.argv[2])
outcomes = ingest_logs([log], root)
with store.reader(root) as lake:
    matches = store.match_ids(lake)
    sources = lake.execute("SELECT lines_total, has_end FROM lake.match_sources").fetchall()
print(json.dumps({"errors": [str(o.error) for o in outcomes if o.error], "matches": matches, "sources": sources,
                  "modules": sorted(m for m in ("pandas", "matplotlib") if m in sys.modules)}))
"""


def test_an_ingest_imports_neither_pandas_nor_matplotlib(tmp_path):
    run = subprocess.run([sys.executable, "-c", PROBE, str(SAMPLE_LOG), str(tmp_path / "warehouse")],
                         capture_output=True, text=True, check=True)
    out = json.loads(run.stdout)
    truth = truth_of(SAMPLE_LOG)
    assert out["errors"] == [] and out["matches"] == [str(truth["match_id"])]
    assert out["sources"] == [[truth["lines"], True]]
    assert out["modules"] == []
