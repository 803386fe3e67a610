"""Season charts are real PNGs that show what they claim: a panel per metric, a bar per group, a row per player."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from combat_analysis.charts import season as season_charts
from combat_analysis.render.document import is_figure


def pixels(path: Path) -> tuple[int, int, int]:
    """Width, height and the number of distinct colours: a blank or broken image has one or two."""
    with Image.open(path) as img:
        assert img.format == "PNG"
        colours = img.convert("RGB").getcolors(maxcolors=1_000_000) or []
        return img.width, img.height, len(colours)


def test_form_chart_has_a_panel_per_metric(tmp_path):
    labels = [f"03-{d:02d}" for d in range(1, 31)]
    series = {"KDA": [1 + (i % 5) / 2 for i in range(30)], "damage dealt": [30_000 + 900 * i for i in range(30)]}
    results = ["win", "loss", "unknown"] * 10
    two = pixels(season_charts.form_chart(tmp_path / "two.png", labels, series, results, title="Zoë: form"))
    one = pixels(season_charts.form_chart(tmp_path / "one.png", labels, {"KDA": series["KDA"]}, results,
                                          title="Zoë: form"))
    three = pixels(season_charts.form_chart(tmp_path / "three.png", labels, {**series, "gold": list(range(30))},
                                            results, title="Zoë: form"))
    assert one[0] == two[0] == three[0]
    assert one[1] <= two[1] < three[1]  # each metric adds a panel
    assert min(one[2], two[2], three[2]) > 50


def test_form_chart_of_a_single_match(tmp_path):
    assert pixels(season_charts.form_chart(tmp_path / "f.png", ["06-01"], {"KDA": [2.5]}, ["win"], title="t"))[2] > 20


def test_win_rate_bars_grow_with_groups_and_allow_no_decided_game(tmp_path):
    few = pixels(season_charts.win_rate_bars(tmp_path / "few.png", ["Thor", "Loki"], [0.5, None], [4, 2],
                                             title="Win rate by god"))
    many = pixels(season_charts.win_rate_bars(tmp_path / "many.png", [f"god {i}" for i in range(12)],
                                              [i / 12 for i in range(12)], list(range(1, 13)), title="Win rate"))
    assert many[1] > few[1] and few[2] > 20


def test_leaderboard_table_has_a_row_per_player(tmp_path):
    rows = [(str(i), f"player {i}", str(20 - i), f"{1000 * (20 - i):,}") for i in range(1, 11)]
    ten = pixels(season_charts.leaderboard_table(tmp_path / "ten.png", ["#", "player", "matches", "total"], rows,
                                                 title="Total damage dealt"))
    three = pixels(season_charts.leaderboard_table(tmp_path / "three.png", ["#", "player", "matches", "total"],
                                                   rows[:3], title="Total damage dealt"))
    empty = pixels(season_charts.leaderboard_table(tmp_path / "none.png", ["#", "player"], [], title="Nobody"))
    assert ten[1] > three[1] > empty[1]
    assert ten[2] > 20 and empty[2] > 2


@pytest.mark.parametrize("text", ["1,234", "2.86", "71.4%", "-3", "12"])
def test_figures_are_right_aligned(text):
    assert is_figure(text)


@pytest.mark.parametrize("text", ["Zoë", "3rd", "", "1.2.3", "n/a"])
def test_names_are_left_aligned(text):
    assert not is_figure(text)
