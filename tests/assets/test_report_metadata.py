"""Charts in the Dagster UI: the answer, the match report and the season report each show their main chart at a
readable width in the materialization's metadata, with the report's path, and their descriptions say so."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import dagster as dg
import pytest
from PIL import Image

import definitions

IMAGE = re.compile(r"!\[([^\]]*)\]\(data:image/png;base64,([A-Za-z0-9+/=]+)\)")


def images(markdown: str) -> list[tuple[str, tuple[int, int]]]:
    """Each markdown image of a data URI: its alt text and the decoded PNG's size."""
    out = []
    for alt, data in IMAGE.findall(markdown):
        with Image.open(io.BytesIO(base64.b64decode(data))) as img:
            assert img.format == "PNG"
            out.append((alt, img.size))
    return out


def test_the_answer_shows_its_chart_and_report(materialized):
    meta = materialized["answer_report"]
    [(alt, (width, height))] = images(meta["chart"])
    assert width == 720 and 300 < height < 720
    assert alt.startswith("Line chart of team 1") and "**Team gold difference" in meta["chart"]
    report = Path(meta["report_html"])
    assert f"`{report}`" in meta["chart"] and report.is_file() and meta["report_url"] == report.as_uri()
    assert [size[0] for _, size in images(materialized["charts"]["charts"])] == [720]


def test_the_match_report_shows_the_gold_curve_first(materialized):
    meta = materialized["match_report"]
    [(alt, (width, _))] = images(meta["chart"])
    assert width == 720 and alt.startswith("Line chart of team 1's gold minus team 2's over minutes 0 to 31")
    assert sorted(size[0] for _, size in images(meta["more_charts"])) == [480, 480]
    assert f"`{meta['report_html']}`" in meta["chart"] and "VoidWalker" in meta["headlines"]
    # the preview names its charts instead of pointing at files the UI cannot load
    assert ".png)" not in meta["preview"] and "_Chart: Horizontal bar chart of damage dealt by player" in meta["preview"]
    assert ".png)" not in materialized["answer_report"]["report_preview"]


def test_the_season_report_shows_its_leaderboard(materialized):
    meta = materialized["season_report"]
    [(alt, (width, _))] = images(meta["chart"])
    assert 600 <= width <= 720 and alt.startswith("Total damage dealt: 1. VoidWalker 192,395")  # never enlarged
    assert all(size[0] <= 480 for _, size in images(meta["more_charts"]))
    assert Path(meta["report_html"]).is_file()


@pytest.mark.parametrize("asset", ["answer_report", "match_report", "season_report"])
def test_descriptions_say_where_the_chart_is(asset):
    spec = next(s for s in definitions.defs.resolve_all_asset_specs() if s.key == dg.AssetKey(asset))
    assert "`chart`" in spec.description and "Show Markdown" in spec.description
