"""Season charts (matplotlib Agg, PNG files), in the same look as the match charts (`charts.py`'s style helpers).

Like `charts.py`, every function takes plain lists, writes one PNG and returns its path. Team colours stay
reserved for teams, so results use shapes and the palette's other colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib.transforms import Bbox

from combat_analysis.charts.draw import FIGSIZE, NEUTRAL, PALETTE, _save, _style, _thousands, _value_axis, plt
from combat_analysis.render.document import is_figure

# Markers for a player's result in each match: filled for a win, hollow for a loss, a cross when the log names
# no winner.
RESULT_MARKERS = {"win": ("o", True), "loss": ("o", False), "unknown": ("x", True)}


def form_chart(path: Path, labels: Sequence[str], series: dict[str, Sequence[float]], results: Sequence[str], *,
               title: str) -> Path:
    """A player's form across matches: one panel and one line per metric, matches in start order along a
    shared x axis (`labels`, e.g. dates), each point marked by the match's result."""
    names = list(series)
    fig, axes = plt.subplots(len(names), 1, sharex=True, squeeze=False,
                             figsize=(FIGSIZE[0], max(FIGSIZE[1], 1.9 * len(names) + 1)))
    xs = list(range(len(labels)))
    for i, (ax, name) in enumerate(zip(axes[:, 0], names, strict=True)):
        color = PALETTE[i % len(PALETTE)]
        ys = list(series[name])
        ax.plot(xs, ys, color=color, linewidth=2, label=name)
        for result, (marker, filled) in RESULT_MARKERS.items():
            picked = [(x, y) for x, y, r in zip(xs, ys, results, strict=True) if r == result]
            if picked:
                ax.scatter([x for x, _ in picked], [y for _, y in picked], marker=marker, s=36, zorder=3,
                           color=color, facecolors=color if filled else "white", linewidths=1.5,
                           label=result if i == 0 else None)
        mean = sum(ys) / len(ys) if ys else 0
        ax.axhline(mean, color=NEUTRAL, linewidth=1, linestyle=":", alpha=0.8)
        ax.annotate(f"mean {_thousands(mean)}", (1, mean), xycoords=("axes fraction", "data"), fontsize=8,
                    ha="right", va="bottom", color=NEUTRAL)
        _value_axis(ax.yaxis, ys)
        _style(ax, title if i == 0 else "", "", name)
    bottom = axes[-1, 0]
    step = max(1, len(labels) // 12)  # at most about a dozen tick labels, however long the season
    bottom.set_xticks(xs[::step], [str(label) for label in labels][::step], rotation=30, ha="right", fontsize=8)
    bottom.set_xlabel("match (in start order)")
    if labels:  # above the top panel, right of the title, clear of the lines
        axes[0, 0].legend(frameon=False, fontsize=8, loc="lower right", bbox_to_anchor=(1, 1.0), ncol=4)
    return _save(fig, path, "form_chart")


def win_rate_bars(path: Path, labels: Sequence[str], win_rates: Sequence[float | None], games: Sequence[int], *,
                  title: str) -> Path:
    """Win rate per group (god, role, player), in the order given from the top, each bar labelled with its rate
    and the number of games behind it. A group with no decided game has no bar and says so."""
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], max(2.5, 0.45 * len(labels) + 1.2)))
    y = list(range(len(labels)))[::-1]
    widths = [100 * r if r is not None else 0 for r in win_rates]
    bars = ax.barh(y, widths, color=PALETTE[0])
    ax.set_yticks(y, [str(label) for label in labels])
    for bar, rate, n in zip(bars, win_rates, games, strict=True):
        text = f"{100 * rate:.0f}% · {n} games" if rate is not None else f"no decided game · {n} games"
        ax.annotate(text, (bar.get_width(), bar.get_y() + bar.get_height() / 2), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=9)
    ax.axvline(50, color=NEUTRAL, linewidth=1, linestyle="--", alpha=0.6)
    ax.set_xlim(0, 130)  # room for the labels past 100%
    ax.set_xticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
    _style(ax, title, "win rate (wins / decided games)")
    ax.grid(axis="y", visible=False)
    return _save(fig, path, "win_rate_bars")


def leaderboard_table(path: Path, columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str) -> Path:
    """A leaderboard as a table image: a header row, then one row per player, the leader highlighted and
    figures right-aligned."""
    fig, ax = plt.subplots(figsize=(FIGSIZE[0] * 0.8, 0.9 + 0.3 * (len(rows) + 1)))
    ax.axis("off")
    ax.set_title(title, fontsize=13, fontweight="bold", loc="left")
    if rows:
        numeric = [all(is_figure(r[i]) for r in rows) for i in range(len(columns))]
        table = ax.table(cellText=[list(r) for r in rows], colLabels=list(columns), bbox=Bbox.from_bounds(0, 0, 1, 1),
                         cellLoc="left", colLoc="left")
        table.auto_set_font_size(False)
        table.set_fontsize(9.5)
        for (row, col), cell in table.get_celld().items():
            cell.set_edgecolor("#e3e6ec")
            cell.get_text().set_horizontalalignment("right" if numeric[col] else "left")
            cell.PAD = 0.04
            if row == 0:
                cell.set_facecolor("#f0f2f6")
                cell.set_text_props(fontweight="bold")
            elif row == 1:
                cell.set_facecolor("#eef4ff")
        table.auto_set_column_width(list(range(len(columns))))
    else:
        ax.text(0.02, 0.5, "no player qualifies yet", fontsize=10, color=NEUTRAL)
    return _save(fig, path, "leaderboard_table")

