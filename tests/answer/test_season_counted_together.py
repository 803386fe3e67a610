"""Two or more kinds of event counted in one question across matches, joined by "and", "&", "n", "plus", "as well as",
a comma or a slash (objective kinds, first bloods, deaths by what killed): each kind's season count, named, and their
sum only where the kinds cannot overlap; over both simulated seasons, checked against truth.py."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import number
from tests.support.season import answered_across, ask_across, match_figures

LABELS = {"towers": "towers destroyed", "phoenixes": "phoenixes destroyed", "titans": "Titans destroyed",
          "gold_furies": "Gold Fury kills", "fire_giants": "Fire Giant kills", "first_bloods": "first bloods",
          "deaths_to_towers": "deaths to towers", "deaths_to_minions": "deaths to minions",
          "deaths_to_fire_giants": "deaths to the Fire Giant", "deaths_to_gold_furies": "deaths to the Gold Fury",
          "deaths_to_structures": "deaths to structures", "deaths_to_bosses": "deaths to bosses"}
_KILLERS = {"deaths_to_towers": ("tower",), "deaths_to_fire_giants": ("fire giant",),
            "deaths_to_gold_furies": ("gold fury",)}


def season_count(matches, kind: str) -> int:
    if kind == "first_bloods":
        return sum(m.truth["first_blood"] is not None for m in matches)
    if kind in _KILLERS:
        return sum(any(w in (d["killer"] or "").lower() for w in _KILLERS[kind])
                   for m in matches for d in m.truth["deaths_to_npcs"])
    return sum(row[kind] for row in match_figures(matches))


@pytest.mark.parametrize(("question", "kinds", "summed"), [
    ("how many towers and phoenixes were destroyed across all matches", ("towers", "phoenixes"), True),
    ("across every game, number of fire giants plus gold furies?", ("fire_giants", "gold_furies"), True),
    ("how many first bloods & towers in all matches", ("first_bloods", "towers"), False),
    ("total titans n fire giants over all games", ("titans", "fire_giants"), True),
    ("gold furies/titans across all matches, how many", ("gold_furies", "titans"), True),
    ("count of first bloods, titans and towers across all games", ("first_bloods", "titans", "towers"), False),
    ("how many tower deaths and fire giant deaths across all matches", ("deaths_to_towers", "deaths_to_fire_giants"),
     True),
    ("how many times did people die to towers as well as the gold fury in all games",
     ("deaths_to_towers", "deaths_to_gold_furies"), True),
])
def test_each_kind_counted_is_said(seasons, question, kinds, summed):
    home, matches = seasons
    pkg, _ = ask_across(home, question)
    answer = answered_across(pkg)
    counts = [season_count(matches, k) for k in kinds]
    for kind, value in zip(kinds, counts, strict=True):
        assert f"{number(value)} {LABELS[kind]}" in answer, (kind, value, answer)
    together = f"{number(sum(counts))} together"
    assert (together in answer) == summed, answer
    assert answer.index(LABELS[kinds[0]]) < answer.index(LABELS[kinds[-1]]), answer
