"""The full match report: result, MVP by its documented formula, a scoreboard per team, cards, charts; on the
sample match and on a simulated match whose player names are hostile markup, against truth.py."""

from __future__ import annotations

import html
import re

from combat_analysis.render.document import md_text
from combat_analysis.reports.match import mvp_scores
from tests.support.simulated import HOSTILE_NAMES as HOSTILE


def test_mvp_follows_the_documented_formula():
    # 3 × kills + 1.5 × assists − 2 × deaths + to gods/1,000 + healing/1,000 + 0.5 × mitigated/1,000 + 2 × objectives
    board = [
        {"player": "A", "kills": 10, "assists": 30, "deaths": 4, "damage_to_players": 59694, "healing_done": 536,
         "damage_mitigated": 12594},
        {"player": "B", "kills": 0, "assists": 0, "deaths": 0, "damage_to_players": 0, "healing_done": 0,
         "damage_mitigated": 0},
    ]
    assert mvp_scores(board, {"A": 1}) == [("A", 135.53), ("B", 0.0)]


def test_report_names_winner_mvp_and_headlines(report):
    assert report.winner_team == 2 and report.duration_s == 1919
    assert (report.mvp, report.mvp_score) == ("mid_or_feed", 135.53)
    answers = dict(report.answers)
    assert answers["Who dealt the most damage in the match?"].startswith("VoidWalker dealt the most damage: 192,395")
    assert "Tsunami88" in answers["Who got first blood?"]
    assert "**Team 2 won** after 31:59" in report.markdown


def test_scoreboard_cards_objectives_and_fights(report):
    md = report.markdown
    assert md.index("**Team 1**") < md.index("**Team 2 (won)**") < md.index("## Charts")
    assert "| VoidWalker | Jungle | Loki | 5 | 1 | 29 | 34.00 | 192,395 | 41,391 | 692 | 15,417 | 8,405 | 10,691 |" in md
    assert "| 31:59 | Order Titan | LunaSol | 2 |" in md
    assert "11 team fights" in md
    assert "Best abilities: Loki Basic Attack (99,260)" in md
    assert "Build order: Blink Rune → Axe → Chronos' Pendant" in md  # PapiTacos, team 1 support


def test_html_is_self_contained_with_every_chart(report):
    page = report.html_path.read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == len(report.charts) == 3
    assert "http://" not in page and "https://" not in page
    for path in report.charts.values():
        assert path.read_bytes().startswith(b"\x89PNG")
    # every chart has alt text stating its data, and a caption
    alts = re.findall(r'<img src="data:[^"]+" alt="([^"]+)"><figcaption>([^<]+)</figcaption>', page)
    assert [a.split(",")[0] for a, _ in alts] == ["Horizontal bar chart of damage dealt by player",
                                                  "Line chart of team 1&#39;s gold minus team 2&#39;s over minutes 0 to 31",
                                                  "Timeline of 69 player kills by the killer&#39;s team and 14 objectives over the match."]


def test_a_simulated_scoreboard_equals_truth(hostile):
    report, truth = hostile
    for name, p in truth["players"].items():
        row = (f"| {md_text(name)} | {md_text(p['role'])} | {md_text(p['god'])} | {p['kills']} | {p['deaths']} | "
               f"{p['assists']} | {p['kda']:.2f} | {round(p['damage_dealt']):,} | {round(p['damage_to_players']):,} | "
               f"{round(p['healing_done']):,} | {round(p['mitigated']):,} | {round(p['gold']):,} | "
               f"{round(p['experience']):,} |")
        assert row in report.markdown, name
    assert report.winner_team == truth["winner"]
    if truth["winner"] is None:  # a simulated match cut before its Titan fell
        assert "**Winner unknown**: no Titan fell in this log, which runs" in report.markdown
        assert "**Team 1**" in report.markdown and "**Team 2**" in report.markdown
    else:
        assert f"**Team {truth['winner']} (won)**" in report.markdown


def test_names_from_the_log_are_text_in_markdown_and_html(hostile):
    report, _ = hostile
    md = report.markdown
    prose = re.sub(r"(`{3,}).*?\1", "", md, flags=re.S)
    assert not re.search(r"(?<!\\)<", prose), "raw HTML in the markdown"
    assert len(re.findall(r"(?<!\\)\]\(", prose)) == 3, "a link or image that is not one of the charts"
    assert not re.search(r"^#{1,2} (?!Match report|Headlines|Scoreboard|Charts|Objectives|Team fights|Players)", md,
                         re.M), "a name started a heading"
    assert md.startswith(f"# Match report: {md_text('<b>match</b> 53')}\n")
    page = report.html_path.read_text(encoding="utf-8")
    assert page.count("<script") == 1 and "<img src=x" not in page and "</sub><b>" not in page
    for name in HOSTILE:
        assert f"### {md_text(name)} (" in md
        assert html.escape(name) in page
