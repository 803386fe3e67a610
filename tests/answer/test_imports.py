"""What one command-line answer imports: neither matplotlib (the chart worker draws) nor pandas (DuckDB's Python
client imports it for any bound value, so a question across all matches binds none). Each costs an answer a
fifth to a third of a second; `benchmarks/answer.py` and `benchmarks/season.py` time the whole answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from combat_analysis.charts.jobs import ChartWorker
from combat_analysis.answer.pipeline import answer_question, choose_match
root, artifacts, question = sys.argv[1:4]
with ChartWorker() as charts:
    choice = choose_match(question, root)
    pkg = answer_question(question, warehouse_root=root, match_id=choice.match_id, scope_how=choice.how,
                          artifacts_dir=artifacts, charts=charts)
print(json.dumps({"answer": pkg.response.direct_answer, "charts": [v.file_path for v in pkg.visualizations.values()],
                  "modules": sorted(m for m in ("pandas", "matplotlib") if m in sys.modules)}))
"""


def _answer(folder, question: str) -> dict:
    run = subprocess.run([sys.executable, "-c", PROBE, str(folder / "warehouse"), str(folder / "artifacts"), question],
                         capture_output=True, text=True, env={**os.environ, "MPLBACKEND": "Agg"}, check=True)
    return json.loads(run.stdout)


@pytest.mark.parametrize("question", ["who dealt the most damage across all matches",
                                      "who dealt the most damage in the latest match"])
def test_an_answer_with_charts_imports_neither_matplotlib_nor_pandas(two_matches, question):
    out = _answer(two_matches, question)
    assert out["modules"] == []
    assert out["charts"] and all(path.endswith(".png") and os.path.getsize(path) > 5_000 for path in out["charts"])
    # one match: "dealt the most damage"; across matches (docs/season.md): "the player with the most damage dealt"
    assert any(said in out["answer"] for said in ("dealt the most damage", "had the most damage dealt",
                                                  "with the most damage dealt"))

