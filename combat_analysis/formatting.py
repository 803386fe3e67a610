"""The one way figures are written, in every answer and every report (METRICS.md, "Numbers in answers").

- numbers: thousands separators; sums and counts whole, ratios with up to two decimals
  (`number(192395.0)` -> "192,395", `number(2.3333, 2)` -> "2.33", `number(2.5, 2)` -> "2.5");
- the match clock, minutes and seconds from the match start (`clock(163)` -> "2:43");
- plurals (`plural("ability")` -> "abilities") and counts (`count(1, "kill")` -> "1 kill",
  `count(2, "match")` -> "2 matches");
- percentages and shares (`percent(47.46)` -> "47.5%", `share(47.46, "team 1's kills")` ->
  "47.5% of team 1's kills"; `rate(0.4746)` -> "47.5%" for a fraction);
- a missing value is `MISSING`, whatever it stands for.

Imports nothing of the project: every layer may use it.
"""

from __future__ import annotations

from typing import Any, TypeGuard

MISSING = "n/a"


def is_number(value: Any) -> TypeGuard[int | float]:
    """An int or a float (a bool is not a figure)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def number(value: Any, decimals: int = 0) -> str:
    """A figure with thousands separators: rounded to a whole number for `decimals` 0, else with up to
    `decimals` (at most two) decimals and no trailing zeros. Anything that is not a number is shown as it is."""
    if value is None:
        return MISSING
    if not is_number(value):
        return str(value)
    if decimals <= 0:
        return f"{round(value):,}"
    text = f"{value:,.{min(decimals, 2)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent(value: float | None) -> str:
    """A percentage with one decimal: 47.46 -> '47.5%'."""
    return MISSING if value is None else f"{value:.1f}%"


def rate(fraction: float | None) -> str:
    """A fraction as a percentage: 0.4746 -> '47.5%'."""
    return percent(None if fraction is None else 100 * fraction)


def share(value: float | None, of: str) -> str:
    """A percentage of a whole, named: share(47.46, "team 1's kills") -> "47.5% of team 1's kills"."""
    return f"{percent(value)} of {of}"


def clock(seconds: Any) -> str:
    """A match second on the match clock: 163 -> '2:43'."""
    if not is_number(seconds):
        return MISSING
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def plural(word: str) -> str:
    """The plural of a noun: "ability" -> "abilities", "match" -> "matches", "kill" -> "kills"."""
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def count(n: int, word: str) -> str:
    """A count and its noun: count(1, "kill") -> "1 kill", count(1234, "match") -> "1,234 matches"."""
    return f"{number(n)} {word if n == 1 else plural(word)}"
