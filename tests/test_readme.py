"""The README's "Where things land" explains every folder a match report leaves in the data home."""

from __future__ import annotations

from combat_analysis.ingest.run import ingest_log
from combat_analysis.reports.match import build_match_report
from tests.support.paths import ROOT, SAMPLE_LOG, SAMPLE_MATCH_ID


def test_where_things_land_names_everything_a_match_report_writes(tmp_path):
    ingest_log(SAMPLE_LOG, tmp_path / "warehouse")
    out = tmp_path / "reports" / SAMPLE_MATCH_ID
    build_match_report(tmp_path / "warehouse", SAMPLE_MATCH_ID, out, handles_dir=tmp_path / "handles")
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Where things land", 1)[1].split("\n## ", 1)[0]
    row = next(line for line in section.splitlines() if line.startswith("| `data/reports/<match>/"))
    written = sorted(p.relative_to(out) for p in out.rglob("*"))
    # the headline answers are quoted, not kept: no folder of their own (see reports/match.py, _answer_battery)
    assert [p for p in written if (out / p).is_dir()] == []
    assert {p.suffix for p in written} == {".html", ".md", ".png"}
    for path in written:
        spelled = (f"/{path}`", f"`{path}`", f"`*{path.suffix}`")  # the first path is written out in full
        assert any(form in row for form in spelled), path
