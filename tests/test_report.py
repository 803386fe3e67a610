"""Markdown and HTML reports: answer first, charts embedded, self-contained, methodology with SQL."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from stage_fixtures import MATCH_ID, stage_env, stage_warehouse  # noqa: F401

from combat_analysis.pipeline import answer_question


@pytest.fixture(scope="module")
def winner(stage_env):  # noqa: F811
    return answer_question("Which team won the match?", warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                           artifacts_dir=stage_env.artifacts_dir, followups=False)


def test_markdown_leads_with_the_answer_and_links_charts(winner):
    md = winner.final_output.markdown
    assert md.startswith("# Which team won the match?\n\n**Answer:** Team 2 won the match")
    assert md.index("## Key insights") < md.index("## Charts") < md.index("## Methodology")
    links = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", md)
    assert len(links) == 2
    base = Path(winner.final_output.markdown_path).parent
    assert all((base / link).exists() for link in links)
    assert "```sql" in md and "winner_team" in md
    assert Path(winner.final_output.markdown_path).read_text(encoding="utf-8") == md


def test_html_is_self_contained_and_responsive(winner):
    page = Path(winner.final_output.html_path).read_text(encoding="utf-8")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    images = re.findall(r'<img src="([^"]+)" alt="([^"]+)"', page)
    assert len(images) == 2 and all(src.startswith("data:image/png;base64,") for src, _ in images)
    assert not re.search(r'(src|href)="(https?:)?//', page), "no external resources"
    assert page.index('id="direct-answer"') < page.index("<h2>Charts</h2>")
    assert "@media (max-width: 480px)" in page
    assert "Team 2 won the match" in page and "package v5" in page


def test_refusal_report_has_no_charts(stage_env):  # noqa: F811
    pkg = answer_question("What rank is mid_or_feed?", warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                          artifacts_dir=stage_env.artifacts_dir, followups=False)
    page = Path(pkg.final_output.html_path).read_text(encoding="utf-8")
    assert 'class="answer refusal"' in page and "<img" not in page
    assert "cannot" in pkg.final_output.markdown
