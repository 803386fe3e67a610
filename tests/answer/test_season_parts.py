"""Cross-match classes said by their parts, over both simulated seasons, against truth.py aggregated in plain
Python (tests/support/season.py): a match-level time ranked and averaged, a player's best or worst game with
what identifies it (ties listed), damage said with its target kind, a name with another spelling in
parentheses, and slips in the scope words."""

from __future__ import annotations

from statistics import mean

import pytest

from combat_analysis.formatting import clock, number
from tests.support.season import (
    answered_across,
    ask_across,
    games_of,
    match_figures,
    named_players,
    start_order,
)


def _numbered(matches) -> dict[str, int]:
    return {m.match_id: n for n, m in enumerate(start_order(matches), start=1)}


@pytest.mark.parametrize(("template", "pick"), (
    ("in which game did first blood come fastest", min),
    ("what game saw the quickest first blood", min),
    ("which game had the slowest first blood", max),
))
def test_matches_ranked_by_their_first_blood_time(seasons, template, pick):
    home, matches = seasons
    times = [f for f in match_figures(matches) if f["first_blood_s"] is not None]
    want = pick(f["first_blood_s"] for f in times)
    first = min((f for f in times if f["first_blood_s"] == want), key=lambda f: (f["started_at"], f["match_id"]))
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert rows[0]["first_blood_s"] == want and rows[0]["match_id"] == first["match_id"], rows[:2]
    assert first["match_id"] in answer and clock(want) in answer, answer


@pytest.mark.parametrize("template", ("typically when does first blood land, on average",
                                      "when does first blood usually happen",
                                      "what time is first blood on avg"))
def test_the_average_first_blood_time_is_the_mean_over_the_matches(seasons, template):
    home, matches = seasons
    times = [f["first_blood_s"] for f in match_figures(matches) if f["first_blood_s"] is not None]
    want = mean(times)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert rows[0]["average_first_blood_s"] == pytest.approx(want), rows
    assert f"{clock(round(want))} ({number(want, 1)} seconds)" in answer, answer
    assert f"the mean over {len(times)} matches" in answer, answer


@pytest.mark.parametrize(("template", "metric", "which"), (
    ("{n} worst game - most deaths, what date", "deaths", "worst"),
    ("{n} highest damage game, gimme the match id", "damage_dealt", "best"),
    ("{n} lowest kill game, which day", "kills", "worst"),
))
def test_a_players_picked_game_is_named_by_number_id_and_day_with_every_tie(seasons, template, metric, which):
    home, matches = seasons
    numbers = _numbered(matches)
    for player in named_players(matches, least=3)[:3]:
        values = [(g[metric], g) for g in games_of(matches, player)]
        most = metric == "deaths" if which == "worst" else True
        want = (max if most else min)(v for v, _ in values)
        tied = sorted((g for v, g in values if v == want), key=lambda g: (g["started_at"], g["match_id"]))
        pkg, _ = ask_across(home, template.format(n=player))
        answer = answered_across(pkg)
        for g in tied:
            said = (f"game {numbers[g['match_id']]}, {g['match_id']} on {g['started_at'].date().isoformat()} "
                    f"({number(want, 2)})")
            assert said in answer, (said, answer)
        assert (f"{len(tied)} tied" in answer) == (len(tied) > 1), answer


@pytest.mark.parametrize(("template", "metric"), (
    ("how much dmg has {n} done to towers and phoenixes all season", "damage_to_structures"),
    ("total damage {n} did to buildings across all games", "damage_to_structures"),
    ("how much damage did {n} deal to gods overall", "damage_to_players"),
))
def test_damage_said_with_its_target_kind_is_that_catalog_figure(seasons, template, metric):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    want = sum(g[metric] for g in games_of(matches, player))
    pkg, rows = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    assert rows[0][f"total_{metric}"] == want, rows
    assert f"{number(want, 0)} in total" in answer, answer
    assert any("read as damage to" in a for a in pkg.plan.assumptions), pkg.plan.assumptions


@pytest.mark.parametrize("template", ("how does {alias} ({n}) do on {role}, W/L?", "how does {n} do on {role}, W/L?",
                                      "{n} ({alias}) win rate as {role}",
                                      "what's the record of {alias} ({n}) on {role}"))
def test_a_name_with_another_spelling_in_parentheses_is_that_player(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    role = games_of(matches, player)[0]["role"]
    rows_ = [g for g in games_of(matches, player) if g["role"] == role]
    wins, losses = sum(g["result"] == "win" for g in rows_), sum(g["result"] == "loss" for g in rows_)
    pkg, rows = ask_across(home, template.format(alias="qwzxv", n=player, role=role.lower()))
    answer = answered_across(pkg)
    assert (rows[0]["matches"], rows[0]["wins"], rows[0]["losses"]) == (len(rows_), wins, losses), (role, answer)
    assert ("{alias}" not in template) or any("'qwzxv' read as" in a for a in pkg.plan.assumptions), pkg.plan
    assert f"{len(rows_)} game" in answer, answer


@pytest.mark.parametrize(("template", "slip"), (("how many kills were there across all gmaes", "gmaes"),
                                                ("total kills over every mtaches", "mtaches"),
                                                ("how many kills in total over all the matchs", "matchs")))
def test_slips_in_scope_words_are_read_as_the_word_and_said(seasons, template, slip):
    home, matches = seasons
    want = sum(f["kills"] for f in match_figures(matches))
    pkg, _ = ask_across(home, template)
    answer = answered_across(pkg)
    assert number(want, 0) in answer, answer
    assert any(a.startswith(f"'{slip}' read as") for a in pkg.plan.assumptions), pkg.plan.assumptions


def _first_taken(matches, word: str) -> dict[str, int]:
    """Each match's first objective whose name holds `word` (METRICS.md: match the words), by match id."""
    out = {}
    for m in matches:
        seconds = [o["second"] for o in m.truth["objectives"] if word in o["target"].lower()]
        if seconds:
            out[m.match_id] = min(seconds)
    return out


@pytest.mark.parametrize(("template", "word", "pick"), (
    ("which game had the earliest first tower", "tower", min),
    ("what match saw the latest first fire giant", "fire giant", max),
    ("which game had the soonest first gold fury", "gold fury", min),
))
def test_matches_ranked_by_the_time_of_their_first_objective(seasons, template, word, pick):
    home, matches = seasons
    firsts = _first_taken(matches, word)
    want = pick(firsts.values())
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert rows[0]["match_id"] in [m for m, s in firsts.items() if s == want], rows[:2]
    assert f"{clock(want)} ({number(want)} seconds)" in answer, answer


@pytest.mark.parametrize("template", ("on average when does the first tower fall", "avg first tower time",
                                      "when does the first tower usually go down"))
def test_the_average_first_tower_time_is_the_mean_over_the_matches_that_had_one(seasons, template):
    home, matches = seasons
    firsts = list(_first_taken(matches, "tower").values())
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert rows[0]["average_first_tower_s"] == pytest.approx(mean(firsts)), rows
    assert f"({number(mean(firsts), 1)} seconds)" in answer and f"the mean over {len(firsts)} match" in answer, answer
