"""The season report on a small season: empty boards of averages say who would qualify after how many more
matches, and a form chart is drawn only for a player with at least three matches (docs/season.md)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from combat_analysis.reports.season import (
    FORM_MIN_GAMES,
    MIN_MATCHES_FOR_AVERAGES,
    GroupsTable,
    ProfilesTable,
    build_season_report,
    season_boards,
)
from combat_analysis.season import figures as season
from combat_analysis.warehouse.store import open_warehouse
from tests.support.season import ingest_season


def _report(matches, folder):
    root = ingest_season(matches, folder / "warehouse")
    con = open_warehouse(root)
    try:
        profiles = ProfilesTable(matches=season.selected_matches(con),
                                 profiles=season.player_profiles(con, season.ALL_MATCHES))
        groups = GroupsTable(gods=season.god_stats(con, season.ALL_MATCHES),
                             roles=season.role_stats(con, season.ALL_MATCHES))
        return build_season_report(con, folder / "season", profiles, groups, season_boards(con), {})
    finally:
        con.close()


def _games(matches) -> Counter:
    return Counter(name for m in matches for name in m.truth["players"])


@pytest.mark.parametrize("size", (1, 2))
def test_a_small_season_says_nobody_qualifies_yet_and_who_is_closest(roster_matches, tmp_path, size):
    matches = roster_matches[:size]
    games = _games(matches)
    assert max(games.values()) < MIN_MATCHES_FOR_AVERAGES
    report = _report(matches, tmp_path)
    md = report.markdown
    assert md.count("| nobody qualifies yet |") == 3  # average KDA, average damage, win rate
    assert ("Nobody qualifies yet for average KDA, average damage dealt and win rate, which count players with at "
            f"least {MIN_MATCHES_FOR_AVERAGES} matches") in md
    closest = sorted(games.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    for name, n in closest:
        more = MIN_MATCHES_FOR_AVERAGES - n
        assert f"{name} after {more} more match{'es' if more > 1 else ''}" in md
    # no form chart from one or two dots: the leaders are named with their matches instead
    assert report.form_players == () and not any(k.startswith("form_") for k in report.charts)
    assert f"A form chart needs {FORM_MIN_GAMES} matches" in md
    assert re.search(rf"has {max(games.values())} match(es)? so far", md)


def test_a_season_long_enough_charts_form_and_ranks_averages(roster_matches, tmp_path):
    matches = roster_matches
    games = _games(matches)
    report = _report(matches, tmp_path)
    assert "nobody qualifies yet" not in report.markdown
    assert report.form_players and all(games[p] >= FORM_MIN_GAMES for p in report.form_players)
    assert len([k for k in report.charts if k.startswith("form_")]) == len(report.form_players)


def test_gods_with_few_games_come_after_the_others(roster_matches, tmp_path):
    matches = roster_matches[:4]
    report = _report(matches, tmp_path)
    gods = Counter(row["god"] for m in matches for row in m.truth["players"].values())
    alt = next(f.alt for f in report.figures if f.caption == "Win rate by god")
    shown = re.findall(r"(?:: |; )([^;:]+?) (?:\d[\d.]*%|n/a|–) of (\d+)", alt)
    counts = [int(n) for _, n in shown]
    few = [n < MIN_MATCHES_FOR_AVERAGES for n in counts]
    assert few == sorted(few)  # every god with 3 games or more comes before any with fewer
    if any(n < MIN_MATCHES_FOR_AVERAGES for n in gods.values()):
        assert "one or two games" in report.markdown
    else:
        assert "one or two games" not in report.markdown
