"""The charts' look that needs no matplotlib: team colours, the palette, sizes and axis labels.

The visualization stage decides colours and labels before any chart is drawn, possibly in another process
(`chart_jobs.py`), so these live apart from `charts.py`, whose import costs a third of a second.
"""

from __future__ import annotations

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


def axis_label(label: str, unit: str = "") -> str:
    """One clear axis label: the measure, and its unit only when the label does not already name it
    ("kills", "damage dealt", "KDA"; but "time alive (s)")."""
    word = unit.split("/")[0].strip().lower()
    stem = word[:-1] if len(word) > 3 and word.endswith("s") else word  # "kills" names "kill", "crits" "critical"
    named = any(w == stem or len(stem) >= 3 and w.startswith(stem) for w in label.lower().split())
    return f"{label} ({unit})" if unit and not named else label
