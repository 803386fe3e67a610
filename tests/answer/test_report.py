"""Markdown and HTML reports: one document, answer first, charts embedded, self-contained, methodology with SQL;
a table that shows only its first rows says so and links every row as CSV beside the report."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from combat_analysis.answer.pipeline import answer_question
from combat_analysis.answer.report import full_table_path
from combat_analysis.render import document as render
from tests.support.stages import MATCH_ID


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
    assert "@media (max-width: 600px)" in page and page.count("<script") == 1
    assert "Team 2 won the match" in page and "package v5" in page


def test_markdown_and_html_are_one_document(winner):
    """The same sections in the same order, from the same templates."""
    md = winner.final_output.markdown
    page = Path(winner.final_output.html_path).read_text(encoding="utf-8")
    md_sections = re.findall(r"^## (.+)$", md, re.M)
    html_sections = re.findall(r"<section><h2>(.+?)</h2>", page)
    assert md_sections == html_sections and md_sections[-1] == "Methodology"
    assert md.count("![") == page.count("<img ")


def test_refusal_report_has_no_charts(stage_env):
    pkg = answer_question("What rank is mid_or_feed?", warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                          artifacts_dir=stage_env.artifacts_dir, followups=False)
    page = Path(pkg.final_output.html_path).read_text(encoding="utf-8")
    assert 'class="answer refusal"' in page and "<img" not in page
    assert "cannot" in pkg.final_output.markdown


# --- what a table shows, and the rest ---------------------------------------------------------------------------


def test_a_long_table_says_what_it_shows_and_links_every_row(simulated):
    root, match_id, truth, artifacts = simulated
    player = max(truth["players"], key=lambda p: len(truth["players"][p]["items"]))
    items = truth["players"][player]["items"]
    assert len(items) > 10
    pkg = answer_question(f"What was {player}'s build order?", warehouse_root=root, match_id=match_id,
                          artifacts_dir=artifacts, followups=False)
    table = pkg.response.supporting_data
    shown, total = len(table.rows), table.total_rows
    assert total == len(items) and shown < total
    folder = Path(pkg.final_output.markdown_path).parent
    csv_file = full_table_path(folder, table.source)
    with csv_file.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["item"] for r in rows] == items  # every row, in order, as truth.py computes them
    assert list(rows[0]) == list(table.columns) and {r["player"] for r in rows} == {player}
    md = pkg.final_output.markdown
    note = f"_The first {shown} of {total} rows; all of them are in [{csv_file.name}]({csv_file.name})._"
    assert note in md
    assert (f"> Build order: {total} rows; the first {shown} are under Supporting data, all of them are in "
            f"[{csv_file.name}]({csv_file.name}).") in md
    page = Path(pkg.final_output.html_path).read_text(encoding="utf-8")
    assert page.count(f'<a href="{csv_file.name}">{csv_file.name}</a>') == 2
    assert "shown as a table" not in md + page and not pkg.errors


def test_a_table_shown_whole_writes_no_csv(simulated):
    root, match_id, truth, artifacts = simulated
    pkg = answer_question("Who dealt the most damage in the match?", warehouse_root=root, match_id=match_id,
                          artifacts_dir=artifacts, followups=False)
    table = pkg.response.supporting_data
    assert table.total_rows == len(table.rows) == len(truth["players"])
    folder = Path(pkg.final_output.markdown_path).parent
    assert not list(folder.glob("*.csv")) and "rows are shown" not in pkg.final_output.markdown
    leader = max(truth["players"], key=lambda p: truth["players"][p]["damage_dealt"])
    assert f"| {render.md_text(leader)} |" in pkg.final_output.markdown


# --- the renderer itself ----------------------------------------------------------------------------------------

def test_md_table_escapes_every_cell_and_aligns_figures():
    got = render.md_table(["player", "damage", "note"],
                          [("a|b", 1234, "<b>x</b>"), ("[l](http://e)", "2.5", None), ("*x*", "71.4%", "`c`")])
    assert got.splitlines() == [
        "| player | damage | note |",
        "|---|---:|---|",
        r"| a\|b | 1234 | \<b\>x\</b\> |",
        r"| \[l\](http://e) | 2.5 |  |",
        r"| \*x\* | 71.4% | \`c\` |",
    ]


def test_links_are_percent_encoded_and_text_is_escaped(tmp_path):
    doc = render.Document("T <x>", (render.para("see ", render.link("the (data) [csv]", "a b/c).csv")),),
                          (render.Section("S", (render.CodeBlock("x ``` y", "sql"),)),))
    md, page = render.to_markdown(doc), render.to_html(doc)
    assert r"[the (data) \[csv\]](a%20b/c%29.csv)" in md and "# T \\<x\\>" in md
    assert "````sql\nx ``` y\n````" in md
    assert '<a href="a%20b/c%29.csv">the (data) [csv]</a>' in page and "<title>T &lt;x&gt;</title>" in page


def test_times_in_a_table_read_as_the_match_clock_and_the_csv_keeps_seconds(stage_env):
    from combat_analysis.formatting import clock

    pkg = answer_question("what did mid_or_feed buy, in order", warehouse_root=stage_env.warehouse_root,
                          match_id=MATCH_ID, artifacts_dir=stage_env.artifacts_dir, followups=False)
    table = pkg.response.supporting_data
    assert "match_second" in table.columns
    seconds = [row[table.columns.index("match_second")] for row in table.rows]
    md = pkg.final_output.markdown
    header = next(line for line in md.splitlines() if line.startswith("| player |"))
    assert "| time |" in header and "second" not in header
    shown = re.findall(r"^\| mid\\_or\\_feed \| \d+ \| [^|]+ \| ([^|]+) \|$", md, re.M)
    assert shown == [clock(s) for s in seconds] and any(int(s) >= 60 for s in seconds)
    assert all(re.fullmatch(r"\d+:[0-5]\d", t.strip()) for t in shown)
    page = Path(pkg.final_output.html_path).read_text(encoding="utf-8")
    assert f">{clock(seconds[-1])}<" in page


def test_an_answer_without_a_chart_says_what_it_is_instead(stage_env):
    from combat_analysis.answer.report import no_chart_reason

    def ask(question):
        return answer_question(question, warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                               artifacts_dir=stage_env.artifacts_dir, followups=False)

    purchases = ask("list every item mid_or_feed bought")
    rows = purchases.response.supporting_data.total_rows
    assert rows > 10
    assert no_chart_reason(purchases) == (f"no chart: the answer is a list of {rows} rows, under the report's "
                                          "Supporting data")
    assert no_chart_reason(ask("How much healing did the top healer do?")) == "no chart: the answer is a single figure"
    assert "not answered" in no_chart_reason(ask("What rank is mid_or_feed?"))


def test_no_finding_is_said_twice_in_a_report(dev_packages):
    said_twice = 0
    packages = [pkg for _, pkg in dev_packages]
    for pkg in packages:
        insights = set(pkg.response.key_insights)
        md = pkg.final_output.markdown
        for insight in insights:
            said_twice += md.count(render.md_text(insight)) > 1
        others = {f.description for f in (*pkg.analysis.key_findings, *pkg.analysis.comparisons,
                                           *pkg.analysis.patterns)} - insights
        assert ("## Other findings" in md or "## Findings" in md) == bool(others), pkg.input.raw_query
    assert said_twice == 0
    assert any(pkg.response.key_insights for pkg in packages)
