"""Season classes over both simulated seasons, against truth.py (tests/support/season.py): a day said as a bound of
a range ("since the 12th", "before <month> <day>") selects the matches on its side of it; a name said before a
verb of having ("the most kills X has gotten") is the one who got them, not their victim; an objective said as
what was killed ("which players never slew a gold fury") is the objectives of that kind the players took."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest

from combat_analysis.formatting import count
from tests.support.season import answered_across, ask_across, event_games, games_of, named_players, totals

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


def _bound_day(matches) -> datetime:
    """A day of the latest match's month, before the latest match, with matches on both sides of it."""
    starts = sorted({m["started_at"] for m in event_games(matches)})
    latest = starts[-1]
    days = [datetime.combine(latest.date() - timedelta(days=back), time()) for back in range(1, latest.day)]
    split = [(min(sum(s < d for s in starts), sum(s >= d for s in starts)), d) for d in days]
    best = max(split, default=(0, None))
    if best[0] == 0:
        pytest.skip("no day of the latest month splits this season")
    return best[1]


@pytest.mark.parametrize(("template", "after"), [("kills leader since the {nth}?", True),
                                                 ("before {month} {day}, most kills?", False),
                                                 ("most kills since {month} {day}", True)])
def test_a_day_said_as_a_bound_selects_the_matches_on_its_side(seasons, template, after):
    home, matches = seasons
    day = _bound_day(matches)
    kept = [g for g in event_games(matches) if (g["started_at"] >= day) == after]
    kills = totals(kept, "kills")
    top = max(kills.values())
    question = template.format(nth=_ordinal(day.day), month=_MONTHS[day.month - 1], day=day.day)
    pkg, _ = ask_across(home, question)
    answer = answered_across(pkg)
    assert f"({count(len({g['match_id'] for g in kept}), 'match')})" in answer, answer
    assert any(p in answer for p, n in kills.items() if n == top) and f"{top} kills" in answer, (top, answer)


@pytest.mark.parametrize("template", ["highest kill count {p} has had in one match", "top kills {p} ever scored in one game"])
def test_a_name_before_a_verb_of_having_is_who_got_the_kills(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    best = max(g["kills"] for g in games_of(matches, player))
    pkg, _ = ask_across(home, template.format(p=player) + " across all matches")
    answer = answered_across(pkg)
    assert " on " + player not in answer and f"({best})" in answer, (best, answer)


def test_who_never_killed_a_boss_is_who_took_none_of_it(seasons):
    home, matches = seasons
    taken = totals(event_games(matches), "gold_furies")
    none = sorted(p for p, n in taken.items() if n == 0)
    pkg, _ = ask_across(home, "which players never slew a gold fury across all matches")
    answer = answered_across(pkg)
    if none:
        assert all(p in answer for p in none[:5]), (none, answer)
        assert not any(f"{p} with" in answer for p, n in taken.items() if n), answer
    else:
        assert "no player" in answer.lower() or "nobody" in answer.lower(), answer


def test_how_many_times_a_player_killed_a_boss_is_their_takes(seasons):
    home, matches = seasons
    player = named_players(matches, least=3)[-1]
    took = sum(g["fire_giants"] for g in games_of(matches, player))
    pkg, _ = ask_across(home, f"how many times has {player} killed the fire giant across all matches")
    answer = answered_across(pkg)
    assert f"{took} Fire Giant kill" in answer, (took, answer)
