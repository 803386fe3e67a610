"""Matplotlib charts (Agg backend, PNG files) with one look across every report.

Team colours are fixed (team 1 blue, team 2 red) so a reader learns them once. Every function takes plain
lists, writes one PNG and returns its path; none of them runs generated code or reads the warehouse.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

from combat_analysis.fonts import use_fallback_fonts  # noqa: E402

use_fallback_fonts()  # player names carry accents, CJK and emoji

TEAM_COLORS = {1: "#2f6fde", 2: "#d64541"}
NEUTRAL = "#6c757d"
# Series that are not teams never use the team colours, so blue and red always mean team 1 and team 2.
PALETTE = ("#2a9d8f", "#f0a202", "#8e44ad", "#e76f51", "#264653", "#a3b18a", "#6d597a", "#b56576",
           "#3d5a80", "#9c6644")
FIGSIZE = (8, 4.5)
DPI = 110


def team_color(team) -> str:
    try:
        return TEAM_COLORS.get(int(team), NEUTRAL)
    except (TypeError, ValueError):
        return NEUTRAL


def _thousands(value, _pos=None) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 or float(value).is_integer() else f"{value:,.2f}"


def _style(ax, title: str, xlabel: str = "", ylabel: str = "") -> None:
    ax.set_title(title, fontsize=13, fontweight="bold", loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="both", alpha=0.25)


def _save(fig, path: Path) -> Path:
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
    ax.xaxis.set_major_formatter(FuncFormatter(_thousands))
    ax.margins(x=0.15)
    used = [t for t, c in TEAM_COLORS.items() if colors and c in colors]
    if used:
        from matplotlib.patches import Patch

        ax.legend(handles=[Patch(color=TEAM_COLORS[t], label=f"team {t}") for t in used], frameon=False,
                  loc="lower right", fontsize=9)
    _style(ax, title, xlabel)
    ax.grid(axis="y", visible=False)
    return _save(fig, path)


def grouped_bar(path: Path, categories: Sequence[str], series: dict[str, Sequence[float]], *, title: str,
                ylabel: str, colors: dict[str, str] | None = None) -> Path:
    fig, ax = plt.subplots(figsize=FIGSIZE)
    n = max(len(series), 1)
    width = 0.8 / n
    for i, (name, values) in enumerate(series.items()):
        xs = [c + (i - (n - 1) / 2) * width for c in range(len(categories))]
        color = (colors or {}).get(name, PALETTE[i % len(PALETTE)])
        bars = ax.bar(xs, values, width=width, label=name, color=color)
        ax.bar_label(bars, labels=[_thousands(v) for v in values], fontsize=8, padding=2)
    ax.set_xticks(range(len(categories)), [str(c) for c in categories])
    ax.yaxis.set_major_formatter(FuncFormatter(_thousands))
    if n > 1:
        ax.legend(frameon=False)
    _style(ax, title, "", ylabel)
    ax.grid(axis="x", visible=False)
    return _save(fig, path)


def line_chart(path: Path, series: dict[str, tuple[Sequence[float], Sequence[float]]], *, title: str,
               xlabel: str, ylabel: str, colors: dict[str, str] | None = None,
               markers: Sequence[tuple[float, str, str]] = (), ticks: Sequence[tuple[float, str]] = ()) -> Path:
    """Lines (at most five series, the caller picks which), vertical event markers (x, label, colour) and
    a rug of small ticks along the bottom (x, colour), e.g. player kills coloured by the killer's team."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    for i, (name, (xs, ys)) in enumerate(series.items()):
        ax.plot(xs, ys, marker="o", markersize=3, linewidth=2, label=name,
                color=(colors or {}).get(name, PALETTE[i % len(PALETTE)]))
    _markers(ax, markers)
    if ticks:
        ax.scatter([x for x, _ in ticks], [0.02] * len(ticks), marker="|", s=120, transform=ax.get_xaxis_transform(),
                   c=[c for _, c in ticks], alpha=0.8, label="player kills (by killer's team)")
    ax.yaxis.set_major_formatter(FuncFormatter(_thousands))
    if len(series) > 1:
        ax.legend(frameon=False, fontsize=9)
    _style(ax, title, xlabel, ylabel)
    return _save(fig, path)


def _markers(ax, markers: Sequence[tuple[float, str, str]]) -> None:
    for x, label, color in markers:
        ax.axvline(x, color=color, alpha=0.35, linewidth=1, linestyle="--")
        if label:
            ax.annotate(label, (x, 1), xycoords=("data", "axes fraction"), rotation=90, fontsize=7,
                        va="top", ha="right", color=color)


def gold_diff_chart(path: Path, minutes: Sequence[float], diffs: Sequence[float], *, title: str,
                    markers: Sequence[tuple[float, str, str]] = ()) -> Path:
    """Team 1 minus team 2: blue fill where team 1 is ahead, red where team 2 is."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    ax.plot(minutes, diffs, color="#222222", linewidth=2)
    ax.axhline(0, color="#222222", linewidth=0.8)
    ax.fill_between(minutes, diffs, 0, where=[d >= 0 for d in diffs], interpolate=True,
                    color=TEAM_COLORS[1], alpha=0.35, label="team 1 ahead")
    ax.fill_between(minutes, diffs, 0, where=[d <= 0 for d in diffs], interpolate=True,
                    color=TEAM_COLORS[2], alpha=0.35, label="team 2 ahead")
    _markers(ax, markers)
    ax.yaxis.set_major_formatter(FuncFormatter(_thousands))
    ax.legend(frameon=False, loc="best")
    _style(ax, title, "minute", "gold (team 1 - team 2)")
    return _save(fig, path)


def stacked_bar(path: Path, categories: Sequence[str], stacks: dict[str, Sequence[float]], *, title: str,
                xlabel: str) -> Path:
    """Horizontal stacked bars: one bar per category, one segment per stack (composition)."""
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], max(2.5, 0.5 * len(categories) + 2)))
    y = list(range(len(categories)))[::-1]
    left = [0.0] * len(categories)
    for i, (name, values) in enumerate(stacks.items()):
        ax.barh(y, values, left=left, label=name, color=PALETTE[i % len(PALETTE)])
        left = [a + (b or 0) for a, b in zip(left, values, strict=True)]
    ax.set_yticks(y, [str(c) for c in categories])
    ax.xaxis.set_major_formatter(FuncFormatter(_thousands))
    if stacks:
        ax.legend(frameon=False, fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    _style(ax, title, xlabel)
    ax.grid(axis="y", visible=False)
    return _save(fig, path)


def heatmap(path: Path, xs: Sequence[float], ys: Sequence[float], *, extent: tuple[float, float, float, float],
            title: str, bins: int = 24) -> Path:
    """A 2-D histogram of positions over the map extent (x_min, x_max, y_min, y_max)."""
    fig, ax = plt.subplots(figsize=(6, 6))
    x_min, x_max, y_min, y_max = extent
    counts = ax.hist2d(xs, ys, bins=bins, range=[[x_min, x_max], [y_min, y_max]], cmap="magma", cmin=1)
    fig.colorbar(counts[3], ax=ax, label="events")
    ax.set_aspect("equal")
    ax.set_facecolor("#1d1d28")
    _style(ax, title, "map x", "map y")
    ax.grid(False)
    return _save(fig, path)


def event_timeline(path: Path, kills: Sequence[tuple[float, int]], objectives: Sequence[tuple[float, str, int]],
                   *, title: str, highlight: Sequence[tuple[float, str]] = ()) -> Path:
    """Player kills as dots on one lane per team and objectives as labelled diamonds, over match minutes."""
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], 3.6))
    for team, lane in ((1, 2), (2, 1)):
        times = [s / 60 for s, t in kills if t == team]
        ax.scatter(times, [lane] * len(times), s=28, color=TEAM_COLORS[team], alpha=0.8,
                   label=f"kills by team {team}")
    # Objectives often fall minutes apart: stagger their labels on four rows so neighbours never overlap.
    row_free_at = [float("-inf")] * 4
    span = max((s for s, _, _ in objectives), default=60) / 60
    for second, label, team in sorted(objectives):
        x = second / 60
        ax.scatter([x], [0], marker="D", s=50, color=team_color(team), edgecolor="black", zorder=3)
        row = next((i for i, free in enumerate(row_free_at) if x >= free), 0)
        row_free_at[row] = x + span * 0.012 * (len(label) + 2)
        ax.annotate(label, (x, 0), xytext=(0, -10 - 9 * row), textcoords="offset points", fontsize=6.5,
                    ha="left", va="top", color="#333333")
    for second, label in highlight:
        ax.axvline(second / 60, color="#f0a202", linewidth=2, alpha=0.8)
        ax.annotate(label, (second / 60, 2.45), fontsize=8, color="#9a6700", ha="left")
    ax.set_yticks([0, 1, 2], ["objectives", "team 2 kills", "team 1 kills"])
    ax.set_ylim(-1.9, 2.7)
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(0, -0.3), ncol=2)
    _style(ax, title, "match minute")
    return _save(fig, path)


def thumbnail_b64(path: Path, width: int = 200) -> str:
    """A small PNG of a chart, base64-encoded (for Dagster metadata and report previews)."""
    from PIL import Image

    with Image.open(path) as img:
        ratio = width / img.width
        small = img.convert("RGB").resize((width, max(1, round(img.height * ratio))), Image.LANCZOS)
        buffer = io.BytesIO()
        small.save(buffer, format="PNG", optimize=True)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def png_data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")
