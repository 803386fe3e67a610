"""Chart functions write real PNGs; thumbnails are small base64 PNGs."""

from __future__ import annotations

import base64
import io

from PIL import Image

from combat_analysis import charts

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png(path):
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC)
    with Image.open(io.BytesIO(data)) as img:
        return img.size


def test_every_chart_kind_writes_a_png(tmp_path):
    paths = [
        charts.bar_h(tmp_path / "bar.png", ["VoidWalker", "Kraken_Mid"], [192395.0, 150742.0], title="Damage",
                     xlabel="damage", colors=[charts.team_color(2), charts.team_color(1)]),
        charts.grouped_bar(tmp_path / "grouped.png", ["Brisk", "VoidWalker"], {"kills": [17, 5], "deaths": [5, 1]},
                           title="K/D", ylabel=""),
        charts.line_chart(tmp_path / "line.png", {"team 1": ([0, 1, 2], [10, 20, 15]), "team 2": ([0, 1, 2], [5, 25, 30])},
                          title="Damage per minute", xlabel="minute", ylabel="damage",
                          markers=[(1.5, "tower", charts.team_color(2))]),
        charts.gold_diff_chart(tmp_path / "gold.png", [0, 1, 2, 3], [0, 300, -200, -900], title="Gold difference"),
        charts.stacked_bar(tmp_path / "stacked.png", ["VoidWalker"], {"jungle": [146728], "player": [41391]},
                           title="By target kind", xlabel="damage"),
        charts.heatmap(tmp_path / "heat.png", [0, 10, -500, 7000], [0, 12, 300, -7000],
                       extent=(-7800, 7800, -7300, 7300), title="Deaths"),
        charts.event_timeline(tmp_path / "events.png", [(232, 2), (600, 1)], [(1919, "titan", 2)], title="Events",
                              highlight=[(232, "first blood")]),
    ]
    for path in paths:
        width, height = _png(path)
        assert width >= 400 and height >= 200, path


def test_team_colours_are_fixed_and_distinct():
    assert charts.team_color(1) != charts.team_color(2)
    assert charts.team_color("2") == charts.TEAM_COLORS[2]
    assert charts.team_color(None) == charts.NEUTRAL
    assert not set(charts.TEAM_COLORS.values()) & set(charts.PALETTE)


def test_thumbnail_is_a_small_png(tmp_path):
    path = charts.bar_h(tmp_path / "bar.png", ["a", "b"], [2.0, 1.0], title="t", xlabel="x")
    thumb = base64.b64decode(charts.thumbnail_b64(path))
    assert thumb.startswith(PNG_MAGIC)
    with Image.open(io.BytesIO(thumb)) as img:
        assert img.width == 200 and img.height < 200
    assert charts.png_data_uri(path).startswith("data:image/png;base64,")
