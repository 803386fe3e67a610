"""Chart functions write real PNGs; thumbnails are small base64 PNGs; counts get whole ticks, axes name their
measure once, and objective labels never overlap (measured with matplotlib's renderer)."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from combat_analysis.charts import draw as charts
from combat_analysis.charts.preview import thumbnail_b64
from tests.support.layouts import recorded_layouts
from tests.support.stages import MATCH_ID

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
    thumb = base64.b64decode(thumbnail_b64(path))
    assert thumb.startswith(PNG_MAGIC)
    with Image.open(io.BytesIO(thumb)) as img:
        assert img.width == 200 and img.height < 200
    assert charts.png_data_uri(path).startswith("data:image/png;base64,")


# --- layout: labels, ticks, markers -----------------------------------------------------------------------------

def _numbers(layout) -> list[str]:
    return [b.text for b in layout.boxes if b.text.replace(",", "").replace(".", "", 1).lstrip("-−").isdigit()]


@pytest.mark.parametrize(("label", "unit", "expected"), [
    ("kills", "kills", "kills"), ("damage dealt", "damage", "damage dealt"), ("gold per minute", "gold/min",
    "gold per minute"), ("critical hits", "crits", "critical hits"), ("KDA", "", "KDA"),
    ("time alive", "s", "time alive (s)"), ("Gold Fury kills", "kills", "Gold Fury kills")])
def test_an_axis_names_its_measure_once(label, unit, expected):
    assert charts.axis_label(label, unit) == expected


def test_counts_get_whole_number_ticks_and_ratios_keep_decimals(tmp_path):
    with recorded_layouts() as layouts:
        charts.bar_h(tmp_path / "kills.png", ["Brisk", "LunaSol", "VoidWalker", "x"], [17, 11, 5, 2], title="Kills",
                     xlabel="kills")
        charts.line_chart(tmp_path / "per_minute.png", {"team 1": ([0, 1, 2, 3], [0, 1, 3, 1])}, title="Kills per minute",
                          xlabel="minute", ylabel="kills")
        charts.bar_h(tmp_path / "kda.png", ["a", "b"], [1.5, 2.25], title="KDA", xlabel="KDA", decimals=2)
    kills, per_minute, kda = layouts
    assert [layout.kind for layout in layouts] == ["bar_h", "line_chart", "bar_h"]
    for layout in (kills, per_minute):
        ticks = _numbers(layout)
        assert ticks and all("." not in t for t in ticks), ticks  # no tick at 2.50 kills
    assert "2.25" in _numbers(kda) and any("." in t for t in _numbers(kda) if t not in ("1.50", "2.25"))


def test_objective_labels_never_overlap_however_close(tmp_path):
    minutes = list(range(33))
    diffs = [(-1) ** m * 150 * m for m in minutes]
    crowded = [(20 + i / 10, name, charts.team_color(1 + i % 2)) for i, name in enumerate(
        ["Fire Giant", "Order Phoenix", "Chaos Phoenix", "Gold Fury", "Order Tower", "Chaos Titan", "Order Titan"])]
    spread = [(m, f"tower {m}", charts.team_color(1)) for m in (3, 9, 15, 21, 27, 32)]
    with recorded_layouts() as layouts:
        charts.gold_diff_chart(tmp_path / "crowded.png", minutes, diffs, title="Gold", markers=crowded)
        charts.gold_diff_chart(tmp_path / "spread.png", minutes, diffs, title="Gold", markers=spread)
        charts.line_chart(tmp_path / "line.png", {"a": (minutes, [m % 4 for m in minutes])}, title="Kills per minute",
                          xlabel="minute", ylabel="kills", markers=crowded)
    for layout in layouts:
        assert layout.overlapping == [] and layout.cut_off == [], layout.path
    texts = [{b.text for b in layout.boxes} for layout in layouts]
    assert len({m[1] for m in crowded} & texts[0]) == charts.MARKER_LANES  # as many as there are lanes
    assert {m[1] for m in spread} <= texts[1]  # markers apart: every one labelled


def test_the_kills_chart_reads_kills_once(stage_env):
    from combat_analysis.answer.pipeline import answer_question

    with recorded_layouts() as layouts:
        pkg = answer_question("Who had the most kills?", warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                              artifacts_dir=stage_env.artifacts_dir, followups=False)
    assert [v.type for v in pkg.visualizations.values()] == ["bar_h"]
    (layout,) = layouts
    texts = [b.text for b in layout.boxes]
    assert "kills" in texts and not any("(kills)" in t for t in texts)
    assert "17" in texts and all("." not in t for t in _numbers(layout))  # Brisk's 17 kills; whole ticks


@pytest.mark.parametrize("kind", ["bar_h", "grouped_bar", "line", "stacked_bar"])
def test_a_chart_without_a_metric_fails_with_a_clear_error(stage_env, kind):
    # Found by mypy: these kinds read spec.y[0]; without one they died on `None.label` (an AttributeError
    # that the report's chart_error entry showed as "'NoneType' object has no attribute 'label'").
    from combat_analysis.answer.match.visualization import chart_job
    from combat_analysis.answer.pipeline import answer_question
    from combat_analysis.contracts.package import VisualizationSpec

    pkg = answer_question("Who had the most kills?", warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                          artifacts_dir=stage_env.artifacts_dir, followups=False)
    source = pkg.analysis.recommended_visualizations[0].source
    spec = VisualizationSpec(id="v9", kind=kind, source=source, title="No metric", reason="test", x="player",
                             series="team")
    with pytest.raises(ValueError, match=f"^a {kind} chart needs a metric in y$"):
        chart_job(spec, pkg, stage_env)
