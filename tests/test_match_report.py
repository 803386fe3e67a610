"""The full match report on the sample match: result, MVP by its documented formula, cards, charts."""

from __future__ import annotations

import pytest

from combat_analysis.match_report import build_match_report, mvp_scores
from tests.conftest import SAMPLE_MATCH_ID


@pytest.fixture(scope="module")
def report(sample_warehouse, tmp_path_factory):
    out = tmp_path_factory.mktemp("match-report")
    return build_match_report(sample_warehouse, SAMPLE_MATCH_ID, out, handles_dir=out / "handles")


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
    assert "**Team 2 won** after 31 min 59 s" in report.markdown


def test_scoreboard_cards_objectives_and_fights(report):
    md = report.markdown
    assert "| 2 | VoidWalker | Jungle | Loki | 5 | 1 | 29 | 34.00 | 192,395 | 41,391 | 692 | 15,417 | 8,405 | 10,691 |" in md
    assert "| 31:59 | Order Titan | LunaSol | 2 |" in md
    assert "11 team fights" in md
    assert "Best abilities: Loki Basic Attack (99,260)" in md
    assert "Build order: Blink Rune → Axe → Chronos' Pendant" in md  # PapiTacos, team 1 support


def test_html_is_self_contained_with_every_chart(report):
    html = report.html_path.read_text(encoding="utf-8")
    assert html.count('src="data:image/png;base64,') == len(report.charts) == 3
    assert "http://" not in html and "https://" not in html
    for path in report.charts.values():
        assert path.read_bytes().startswith(b"\x89PNG")
