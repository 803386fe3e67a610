"""The one formatter: numbers with thousands separators and up to two decimals, the match clock, plurals and
counts, percentages and shares, and one missing value."""

from __future__ import annotations

import pytest

from combat_analysis import formatting as fmt


@pytest.mark.parametrize(("value", "decimals", "shown"), [
    (192395.0, 0, "192,395"), (192395, 2, "192,395"), (2.3333, 2, "2.33"), (2.5, 2, "2.5"), (2.0, 2, "2"),
    (1234.5678, 1, "1,234.6"), (2.125, 5, "2.12"), (-41653.4, 0, "-41,653"), (0, 0, "0"), (None, 0, "n/a"),
    ("Team 2", 0, "Team 2"), (True, 0, "True"),
])
def test_numbers(value, decimals, shown):
    assert fmt.number(value, decimals) == shown


def test_the_match_clock():
    assert [fmt.clock(s) for s in (0, 59, 163, 1919.9, 3600)] == ["0:00", "0:59", "2:43", "31:59", "60:00"]
    assert fmt.clock(None) == fmt.MISSING == "n/a"


def test_plurals_and_counts():
    assert [fmt.plural(w) for w in ("kill", "ability", "day", "match", "box", "target kind")] == [
        "kills", "abilities", "days", "matches", "boxes", "target kinds"]
    assert [fmt.count(n, "kill") for n in (0, 1, 2)] == ["0 kills", "1 kill", "2 kills"]
    assert fmt.count(1234, "match") == "1,234 matches"


def test_percentages_and_shares():
    # up to two decimals (METRICS.md: ratios and percentages), no trailing zeros
    assert fmt.percent(47.461) == "47.46%" and fmt.percent(50.0) == "50%" and fmt.percent(None) == "n/a"
    # a change that rounds to nothing has no sign, whichever way it went; a tiny part is not "0%"
    assert fmt.percent(-0.004) == "0%" and fmt.percent(-0.0) == "0%" and fmt.percent(-0.2) == "-0.2%"
    assert fmt.percent(0.0003) == "under 0.01%"
    assert fmt.rate(0.47461) == "47.46%" and fmt.rate(None) == "n/a"
    assert fmt.share(47.461, "team 1's kills") == "47.46% of team 1's kills"
