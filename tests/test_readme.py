"""The README's "Where things land" explains every folder a match report leaves in the data home."""

from __future__ import annotations

from combat_analysis.ingest.run import ingest_log
from combat_analysis.reports.match import build_match_report
from tests.support.paths import ROOT, SAMPLE_LOG, SAMPLE_MATCH_ID


def test_where_things_land_names_every_folder_a_match_report_writes(tmp_path):
    ingest_log(SAMPLE_LOG, tmp_path / "warehouse")
    out = tmp_path / "reports" / SAMPLE_MATCH_ID
    build_match_report(tmp_path / "warehouse", SAMPLE_MATCH_ID, out, handles_dir=tmp_path / "handles")
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Where things land", 1)[1].split("\n## ", 1)[0]
    folders = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_dir())
    assert folders, "the report wrote no folder"
    for folder in folders:
        # the report's own folders are named in the table; a question's folder is the `<question id>` slot
        pattern = "/".join("<question id>" if part != "battery" else part for part in folder.parts)
        assert f"data/reports/<match>/{pattern}/" in section, folder
