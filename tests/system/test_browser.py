"""Layout of every report and chart: measured in matplotlib and in a real headless Chromium.

Every chart kind is drawn on the sample match and a corpus match (see `report_fixtures`). In matplotlib, the
boxes of every text a chart draws (titles, axis and tick labels, annotations, legend entries, table cells) must
not intersect and must stay inside the image. In Chromium, every report page, at a laptop width (880 px) and
a phone width (390 px), must not be wider than the screen, nothing may leave its card, nothing may need a horizontal
scroll bar (the scoreboard's XP column once did), no table cell may spill its content, and every image must
decode. Screenshots land in tests/out/ for a human to look at.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from combat_analysis.charts import draw as charts
from combat_analysis.charts import season as season_charts
from tests.support.layouts import text_layout
from tests.support.paths import ROOT
from tests.support.reports import CHART_KINDS, QUESTIONS

pytestmark = pytest.mark.slow

OUT = ROOT / "tests" / "out"  # screenshots for a human to look at
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]
WIDTHS = {"laptop": 880, "phone": 390}


def run_chromium(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                          timeout=180, check=False)


# --- charts, measured where they are drawn ----------------------------------------------------------------------

def test_every_chart_kind_is_drawn_on_both_matches(reports):
    kinds = {(layout.kind, layout.path.is_relative_to(reports.home)) for layout in reports.layouts}
    assert {kind for kind, _ in kinds} == CHART_KINDS
    assert all(callable(getattr(charts, k, None) or getattr(season_charts, k, None)) for k in CHART_KINDS)
    drawn = {}
    for name, pkg in reports.answers.items():
        match = name.rsplit("-q", 1)[0]
        drawn.setdefault(match, set()).update(v.type for v in pkg.visualizations.values())
    for match_id in reports.match_ids:
        assert {"bar_h", "grouped_bar", "line", "gold_diff", "stacked_bar", "heatmap", "event_timeline", "kpi",
                "table"} <= drawn[match_id]


def test_no_chart_text_overlaps_another_or_leaves_the_image(reports):
    assert len(reports.layouts) >= 2 * sum(len(k) for k in QUESTIONS.values())
    problems = {str(layout.path): (layout.overlapping, layout.cut_off) for layout in reports.layouts
                if layout.overlapping or layout.cut_off}
    assert not problems
    for layout in reports.layouts:  # the measurement saw the chart's texts: a title at least, and ticks
        assert len(layout.boxes) >= 3, layout.path


def test_the_measurement_finds_overlapping_labels(tmp_path):
    """The check itself can fail: two long labels drawn on top of each other are reported."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_title("A chart")
    ax.annotate("Order Phoenix", (0.5, 0.5), xycoords="axes fraction")
    ax.annotate("Chaos Phoenix", (0.52, 0.5), xycoords="axes fraction")
    ax.annotate("past the edge", (1.3, 0.2), xycoords="axes fraction", annotation_clip=False)
    fig.canvas.draw()
    layout = text_layout(fig, tmp_path / "x.png", "test")
    plt.close(fig)
    assert layout.overlapping == [("Order Phoenix", "Chaos Phoenix")]
    assert layout.cut_off == ["past the edge"]


# --- pages, measured in Chromium --------------------------------------------------------------------------------

PROBE = """
function describe(el) {
  return el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).replace(/ /g, '.') : '')
    + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
}
function probe(frame) {
  var win = frame.contentWindow, doc = frame.contentDocument, width = win.innerWidth;
  function inner(box, el) {  // a box's content area: inside its padding
    var style = win.getComputedStyle(el);
    return {left: box.left + parseFloat(style.paddingLeft), right: box.right - parseFloat(style.paddingRight)};
  }
  var out = {viewport: width, page: doc.documentElement.scrollWidth, images: doc.images.length, broken: 0,
             wider: [], scrolls: [], spilled: []};
  Array.prototype.forEach.call(doc.images, function (i) { if (!(i.complete && i.naturalWidth > 0)) out.broken++; });
  doc.querySelectorAll('body *').forEach(function (el) {
    var box = el.getBoundingClientRect();
    // wider than the screen, or out of its card (the section, header or footer around it) or the page's column
    var card = el.parentElement.closest('section, header, footer, main');
    var room = card ? inner(card.getBoundingClientRect(), card) : {left: 0, right: width};
    if (box.width > 0 && (box.right > Math.min(width, room.right) + 1 || box.left < Math.max(0, room.left) - 1))
      out.wider.push(describe(el));
    // a box that would need a horizontal scroll bar to show all of its content (a 1 px box is hidden on purpose)
    if (box.width > 1 && /(auto|scroll|hidden)/.test(win.getComputedStyle(el).overflowX)
        && el.scrollWidth > el.clientWidth + 1)
      out.scrolls.push(describe(el));
    // text running out of its cell, paragraph or heading
    if (/^(TD|TH|PRE|H1|H2|H3|P|LI|FIGCAPTION)$/.test(el.tagName) && el.scrollWidth > el.clientWidth + 1)
      out.spilled.push(describe(el));
  });
  out.wider = out.wider.slice(0, 8); out.scrolls = out.scrolls.slice(0, 8); out.spilled = out.spilled.slice(0, 8);
  return out;
}
window.addEventListener('load', function () {
  var results = {};
  document.querySelectorAll('iframe').forEach(function (f) { results[f.id] = probe(f); });
  document.getElementById('result').textContent = JSON.stringify(results);
});
"""


def layout_in_chromium(binary: str, pages: dict[str, Path], folder: Path) -> dict[str, dict]:
    """Every page in an iframe of each width, probed from the harness page once all have loaded."""
    frames = "".join(
        f'<iframe id="{html.escape(name)}@{label}" src="{html.escape(page.as_uri())}" width="{width}" height="700">'
        f"</iframe>" for name, page in pages.items() for label, width in WIDTHS.items())
    harness = folder / "harness.html"
    harness.write_text(f'<!doctype html><html><body>{frames}<pre id="result">pending</pre>'
                       f"<script>{PROBE}</script></body></html>", encoding="utf-8")
    done = run_chromium(binary, folder / "profile", "--allow-file-access-from-files", "--virtual-time-budget=60000",
                        "--dump-dom", harness.as_uri())
    found = re.search(r'<pre id="result">(.*?)</pre>', done.stdout, re.S)
    assert found and found.group(1) != "pending", f"no result (exit {done.returncode}): {done.stderr[-800:]}"
    return json.loads(html.unescape(found.group(1)))


def test_every_page_fits_a_laptop_and_a_phone(chromium, reports, tmp_path):
    results = layout_in_chromium(chromium, reports.pages, tmp_path)
    assert len(results) == len(reports.pages) * len(WIDTHS)
    for key, got in results.items():
        name, label = key.rsplit("@", 1)
        assert got["viewport"] == WIDTHS[label], key
        assert got["page"] <= got["viewport"], f"{key} is {got['page']} px wide: {got['wider']}"
        assert got["wider"] == [] and got["scrolls"] == [] and got["spilled"] == [], key
        page = reports.pages[name].read_text(encoding="utf-8")
        assert got["images"] == page.count("<img ") and got["broken"] == 0, key
    for name in (n for n in reports.pages if n.endswith("-match-report")):
        assert results[f"{name}@laptop"]["images"] == 3
    assert results["season-report@phone"]["images"] >= 4


def test_screenshots_for_a_human(chromium, reports, tmp_path):
    """The match report, an answer with a long table and the season report, at both widths, in tests/out/."""
    from PIL import Image

    OUT.mkdir(exist_ok=True)
    sample = reports.match_ids[0]
    chosen = {"match_report": reports.pages[f"{sample}-match-report"],
              "answer_build_order": reports.pages[f"{sample}-q{len(QUESTIONS)}"],
              "season_report": reports.pages["season-report"]}
    for name, page in chosen.items():
        for label, width in WIDTHS.items():
            shot = OUT / f"{name}_{label}.png"
            shot.unlink(missing_ok=True)
            done = run_chromium(chromium, tmp_path / "profile", f"--window-size={width},2400", f"--screenshot={shot}",
                                page.as_uri())
            assert shot.exists(), f"no screenshot (exit {done.returncode}): {done.stderr[-500:]}"
            with Image.open(shot) as img:
                assert img.size == (width, 2400)
                colours = img.convert("RGB").getcolors(maxcolors=1_000_000)
                assert colours is None or len(colours) > 50, f"{shot} rendered blank"
