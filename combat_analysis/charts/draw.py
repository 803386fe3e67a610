"""Matplotlib charts (Agg backend, PNG files) with one look across every report.

Team colours are fixed (team 1 blue, team 2 red) so a reader learns them once. Every function takes plain
lists, writes one PNG and returns its path; none of them runs generated code or reads the warehouse.

Layout rules every chart keeps: an axis of whole numbers (counts) has whole-number ticks; an axis label
names its measure once ("kills", not "kills (kills)"); labels that would collide (objective markers) are
placed in lanes measured with the renderer. Every chart is saved by `_save` (the season's charts too), which the
layout tests wrap to measure what each chart drew: no two texts may overlap, none may be cut off at the edge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import cast

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg  # noqa: E402
from matplotlib.figure import Figure, SubFigure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402

from combat_analysis.charts.fonts import use_fallback_fonts  # noqa: E402
from combat_analysis.charts.style import (  # noqa: E402, F401 - the look, charts' API too
    DPI,
    FIGSIZE,
    NEUTRAL,
    PALETTE,
    TEAM_COLORS,
    axis_label,
    team_color,
)
from combat_analysis.render.document import (  # noqa: E402, F401 - the one data URI writer, charts' API too
    png_data_uri,
)

use_fallback_fonts()  # player names carry accents, CJK and emoji


def _renderer(fig: Figure | SubFigure) -> RendererAgg:
    """The figure's Agg renderer, which measures text. cast: every canvas here is Agg (matplotlib.use("Agg")
    above), but the stubs type fig.canvas as FigureCanvasBase, which has no get_renderer."""
    return cast(FigureCanvasAgg, fig.canvas).get_renderer()


def _thousands(value, _pos=None) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 or float(value).is_integer() else f"{value:,.2f}"


def _value_axis(axis, values: Iterable[float | None]) -> None:
    """Thousands separators; whole-number ticks when every value is whole (no tick at 2.5 kills)."""
    axis.set_major_formatter(FuncFormatter(_thousands))
    if all(float(v).is_integer() for v in values if v is not None):
        axis.set_major_locator(MaxNLocator(nbins="auto", steps=[1, 2, 2.5, 5, 10], integer=True))


def _style(ax, title: str, xlabel: str = "", ylabel: str = "", *, title_pad: float = 6.0) -> None:
    ax.set_title(title, fontsize=13, fontweight="bold", loc="left", pad=title_pad)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="both", alpha=0.25)


def _save(fig, path: Path, kind: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, format="png")
    plt.close(fig)
    return path


def bar_h(path: Path, labels: Sequence[str], values: Sequence[float], *, title: str, xlabel: str,
          colors: Sequence[str] | None = None, decimals: int = 0) -> Path:
    """A sorted horizontal bar chart, the largest value on top, each bar labelled with its value."""
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], max(2.5, 0.45 * len(labels) + 1.2)))
    y = list(range(len(labels)))[::-1]
    bars = ax.barh(y, values, color=colors or PALETTE[0])
    ax.set_yticks(y, [str(label) for label in labels])
    for bar, value in zip(bars, values, strict=True):
        text = f"{value:,.{decimals}f}" if decimals else f"{value:,.0f}"
        ax.annotate(text, (bar.get_width(), bar.get_y() + bar.get_height() / 2), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=9)
    _value_axis(ax.xaxis, [0, *values])
    ax.margins(x=0.15)
    used = [t for t, c in TEAM_COLORS.items() if colors and c in colors]
    if used:
        # "best" keeps clear of the bars and of their value labels
        ax.legend(handles=[Patch(color=TEAM_COLORS[t], label=f"team {t}") for t in used], frameon=False,
                  loc="best", fontsize=9)
    _style(ax, title, xlabel)
    ax.grid(axis="y", visible=False)
    return _save(fig, path, "bar_h")


def grouped_bar(path: Path, categories: Sequence[str], series: Mapping[str, Sequence[float]], *, title: str,
                ylabel: str, colors: dict[str, str] | None = None) -> Path:
    """Bars side by side: one group per category, one bar per series, each labelled with its value."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    n = max(len(series), 1)
    width = 0.8 / n
    values_all: list[float] = []
    for i, (name, values) in enumerate(series.items()):
        xs = [c + (i - (n - 1) / 2) * width for c in range(len(categories))]
        color = (colors or {}).get(name, PALETTE[i % len(PALETTE)])
        bars = ax.bar(xs, values, width=width, label=name, color=color)
        # Value labels only where they fit above a bar; a crowded chart keeps its axis instead.
        if n * len(categories) <= 12:
            ax.bar_label(bars, labels=[_thousands(v) for v in values], fontsize=8, padding=2)
        values_all += list(values)
    ax.set_xticks(range(len(categories)), [str(c) for c in categories])
    _rotate_crowded(ax, [str(c) for c in categories])
    _value_axis(ax.yaxis, [0, *values_all])
    ax.margins(y=0.12)
    if n > 1:
        ax.legend(frameon=False, loc="best", fontsize=9)
    _style(ax, title, "", ylabel)
    ax.grid(axis="x", visible=False)
    return _save(fig, path, "grouped_bar")


def _rotate_crowded(ax, labels: Sequence[str]) -> None:
    """Category labels that would run into each other are set at an angle."""
    fig = ax.figure
    renderer = _renderer(fig)
    fig.tight_layout()
    per_category = ax.get_window_extent(renderer).width / max(len(labels), 1)
    widest = max((t.get_window_extent(renderer).width for t in ax.get_xticklabels()), default=0)
    if widest > per_category * 0.9:
        plt.setp(ax.get_xticklabels(), rotation=90)


def line_chart(path: Path, series: Mapping[str, tuple[Sequence[float], Sequence[float]]], *, title: str,
               xlabel: str, ylabel: str, colors: dict[str, str] | None = None,
               markers: Sequence[tuple[float, str, str]] = (), ticks: Sequence[tuple[float, str]] = ()) -> Path:
    """Lines (at most five series, the caller picks which), vertical event markers (x, label, colour), labelled
    above the plot, and a rug of small ticks along the bottom (x, colour), e.g. player kills coloured by the
    killer's team."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    for i, (name, (xs, ys)) in enumerate(series.items()):
        ax.plot(xs, ys, marker="o", markersize=3, linewidth=2, label=name,
                color=(colors or {}).get(name, PALETTE[i % len(PALETTE)]))
    if ticks:
        ax.scatter([x for x, _ in ticks], [0.02] * len(ticks), marker="|", s=120, transform=ax.get_xaxis_transform(),
                   c=[c for _, c in ticks], alpha=0.8, label="player kills (by killer's team)")
    _value_axis(ax.xaxis, [x for xs, _ in series.values() for x in xs])
    _value_axis(ax.yaxis, [y for _, ys in series.values() for y in ys])
    if len(series) > 1 or ticks:
        ax.legend(frameon=False, fontsize=9, loc="best")
    _style(ax, title, xlabel, ylabel)
    lanes = _markers(ax, markers)
    _style(ax, title, xlabel, ylabel, title_pad=_title_pad(lanes))
    return _save(fig, path, "line_chart")


MARKER_FONT = 7.5
MARKER_LANES = 4  # rows of marker labels above a plot; a label that fits in none is left off (its line stays)


def _title_pad(lanes: int) -> float:
    return 6.0 + lanes * (MARKER_FONT + 3)


def _markers(ax, markers: Sequence[tuple[float, str, str]]) -> int:
    """Dashed vertical lines at `markers` (x, label, colour), each label written flat above the plot, in the
    first of a few lanes where its measured extent meets no other label. Returns the lanes used."""
    for x, _label, color in markers:
        ax.axvline(x, color=color, alpha=0.35, linewidth=1, linestyle="--")
    labelled = sorted((m for m in markers if m[1]), key=lambda m: m[0])
    if not labelled:
        return 0
    fig = ax.figure
    fig.tight_layout()  # the plot's final width, which fixes where each x lands
    renderer = _renderer(fig)
    frame = ax.get_window_extent(renderer)
    gap = 4.0  # pixels between neighbours in a lane
    lane_ends: list[float] = []
    for x, label, color in labelled:
        at = ax.transData.transform((x, 0))[0]
        probe = ax.text(0, 0, label, fontsize=MARKER_FONT)
        width = probe.get_window_extent(renderer).width
        probe.remove()
        # left-aligned at the line; right-aligned when that would run past the plot's right edge
        left, align = (at + 2, "left") if at + 2 + width <= frame.x1 + 2 else (at - 2 - width, "right")
        lane = next((i for i, end in enumerate(lane_ends) if left >= end + gap), None)
        if lane is None and len(lane_ends) < MARKER_LANES:
            lane_ends.append(float("-inf"))
            lane = len(lane_ends) - 1
        if lane is None:
            continue
        lane_ends[lane] = left + width
        ax.annotate(label, (x, 1), xycoords=("data", "axes fraction"),
                    xytext=(2 if align == "left" else -2, 3 + lane * (MARKER_FONT + 3)), textcoords="offset points",
                    fontsize=MARKER_FONT, ha=align, va="bottom", color=color, annotation_clip=False)
    return len(lane_ends)


def gold_diff_chart(path: Path, minutes: Sequence[float], diffs: Sequence[float], *, title: str,
                    markers: Sequence[tuple[float, str, str]] = ()) -> Path:
    """Team 1 minus team 2: blue fill where team 1 is ahead, red where team 2 is; objectives marked and
    labelled above the plot."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    ax.plot(minutes, diffs, color="#222222", linewidth=2)
    ax.axhline(0, color="#222222", linewidth=0.8)
    ax.fill_between(minutes, diffs, 0, where=[d >= 0 for d in diffs], interpolate=True,
                    color=TEAM_COLORS[1], alpha=0.35, label="team 1 ahead")
    ax.fill_between(minutes, diffs, 0, where=[d <= 0 for d in diffs], interpolate=True,
                    color=TEAM_COLORS[2], alpha=0.35, label="team 2 ahead")
    _value_axis(ax.xaxis, minutes)
    _value_axis(ax.yaxis, diffs)
    ax.legend(frameon=False, loc="best", fontsize=9)
    _style(ax, title, "minute", "gold (team 1 − team 2)")
    lanes = _markers(ax, markers)
    _style(ax, title, "minute", "gold (team 1 − team 2)", title_pad=_title_pad(lanes))
    return _save(fig, path, "gold_diff_chart")


def stacked_bar(path: Path, categories: Sequence[str], stacks: Mapping[str, Sequence[float]], *, title: str,
                xlabel: str) -> Path:
    """Horizontal stacked bars: one bar per category, one segment per stack (composition)."""
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], max(2.5, 0.5 * len(categories) + 2)))
    y = list(range(len(categories)))[::-1]
    left = [0.0] * len(categories)
    for i, (name, values) in enumerate(stacks.items()):
        ax.barh(y, values, left=left, label=name, color=PALETTE[i % len(PALETTE)])
        left = [a + (b or 0) for a, b in zip(left, values, strict=True)]
    ax.set_yticks(y, [str(c) for c in categories])
    _value_axis(ax.xaxis, [0, *left, *(v for values in stacks.values() for v in values)])
    if stacks:
        ax.legend(frameon=False, fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    _style(ax, title, xlabel)
    ax.grid(axis="y", visible=False)
    return _save(fig, path, "stacked_bar")


def heatmap(path: Path, xs: Sequence[float], ys: Sequence[float], *, extent: tuple[float, float, float, float],
            title: str, bins: int = 24) -> Path:
    """A 2-D histogram of positions over the map extent (x_min, x_max, y_min, y_max); the colour bar counts
    events, in whole numbers."""
    fig, ax = plt.subplots(figsize=(6, 6))
    x_min, x_max, y_min, y_max = extent
    counts = ax.hist2d(xs, ys, bins=bins, range=[[x_min, x_max], [y_min, y_max]], cmap="magma", cmin=1)
    bar = fig.colorbar(counts[3], ax=ax, label="events")
    _value_axis(bar.ax.yaxis, [0])
    ax.set_aspect("equal")
    ax.set_facecolor("#1d1d28")
    _value_axis(ax.xaxis, [0])
    _value_axis(ax.yaxis, [0])
    _style(ax, title, "map x", "map y")
    ax.grid(False)
    return _save(fig, path, "heatmap")


def event_timeline(path: Path, kills: Sequence[tuple[float, int]], objectives: Sequence[tuple[float, str, int]],
                   *, title: str, highlight: Sequence[tuple[float, str]] = (),
                   map_deaths: Sequence[tuple[float, int]] = ()) -> Path:
    """Player kills as dots on one lane per killer's team, deaths to non-players (towers, minions, camps,
    bosses) on a lane of their own coloured by the victim's team, and objectives as labelled diamonds, over
    match minutes. Objective labels sit below their diamonds, in as many rows as their measured widths need."""
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], 3.6))
    for team, lane in ((1, 3), (2, 2)):
        times = [s / 60 for s, t in kills if t == team]
        ax.scatter(times, [lane] * len(times), s=28, color=TEAM_COLORS[team], alpha=0.8,
                   label=f"kills by team {team}")
    if map_deaths:
        ax.scatter([s / 60 for s, _ in map_deaths], [1] * len(map_deaths), s=28, marker="x",
                   c=[team_color(t) for _, t in map_deaths], label="deaths to non-players")
    for second, _label, team in objectives:
        ax.scatter([second / 60], [0], marker="D", s=50, color=team_color(team), edgecolor="black", zorder=3)
    for second, label in highlight:
        ax.axvline(second / 60, color="#f0a202", linewidth=2, alpha=0.8)
        ax.annotate(label, (second / 60, 3.45), fontsize=8, color="#9a6700", ha="left")
    ax.set_yticks([0, 1, 2, 3], ["objectives", "deaths to non-players", "team 2 kills", "team 1 kills"])
    ax.set_xlim(left=0)
    # the legend gets a row of its own between the title and the lanes: a long title would run into it
    _style(ax, title, "match minute", title_pad=20)
    ax.legend(frameon=False, fontsize=8, loc="lower right", bbox_to_anchor=(1, 1.0), ncol=3)
    rows = _objective_labels(ax, objectives)
    # room below the objectives' lane for their label rows: 12 points, then 9 per row
    top = 3.8
    height = ax.get_window_extent(_renderer(fig)).height
    need = (12 + 9 * rows) * fig.dpi / 72
    ax.set_ylim(-top * need / max(height - need, 1.0) - 0.3, top)
    return _save(fig, path, "event_timeline")


def _objective_labels(ax, objectives: Sequence[tuple[float, str, int]]) -> int:
    """Objective names under their diamonds, each in the first row where its measured width meets no
    neighbour; returns the rows used."""
    fig = ax.figure
    fig.set_figheight(3.6 + 0.12 * min(len(objectives), 12))
    fig.tight_layout()
    renderer = _renderer(fig)
    frame = ax.get_window_extent(renderer)
    row_ends: list[float] = []
    for second, label, _team in sorted(objectives):
        at = ax.transData.transform((second / 60, 0))[0]
        probe = ax.text(0, 0, label, fontsize=6.5)
        width = probe.get_window_extent(renderer).width
        probe.remove()
        left, align = (at - 3, "left") if at - 3 + width <= frame.x1 else (at + 3 - width, "right")
        row = next((i for i, end in enumerate(row_ends) if left >= end + 4), None)
        if row is None:
            row_ends.append(float("-inf"))
            row = len(row_ends) - 1
        row_ends[row] = left + width
        ax.annotate(label, (second / 60, 0), xytext=(-3 if align == "left" else 3, -9 - 9 * row),
                    textcoords="offset points", fontsize=6.5, ha=align, va="top", color="#333333")
    return len(row_ends)


