"""Charts agree with the answer: for each kind of chart, the values its drawing job is given are the answer's own
data and ../shared/tools/truth.py's figures, and the PNG is drawn.

A question is run through the query analyst, the data engineer and the analyst; each recommended chart's job is
read (`chart_job`, what the visualization stage hands to `charts.draw`), then the visualization stage draws them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from combat_analysis.answer.match.visualization import chart_job, visualization
from combat_analysis.answer.pipeline import MATCH
from combat_analysis.answer.results import primary_rows
from combat_analysis.contracts.package import new_package
from combat_analysis.formatting import clock

MATCHES = range(4)  # indexes into the fact_matches fixture


def analysed(match: dict, question: str):
    """The package after the analyst, and each recommended chart's kind with its drawing job."""
    env = match["env"]
    pkg = new_package(question, env.match_id)
    for _name, stage in MATCH.stages()[:3]:
        pkg = stage(pkg, env)
    jobs = {spec.kind: chart_job(spec, pkg, env)[0] for spec in pkg.analysis.recommended_visualizations}
    return pkg, jobs


def drawn(match: dict, pkg) -> dict[str, Path]:
    """The visualization stage run on the package: each chart kind's PNG, which must exist."""
    out = visualization(pkg, match["env"])
    files = {v.type: Path(v.file_path) for v in out.visualizations.values() if v.file_path}
    assert files and all(f.is_file() and f.stat().st_size > 0 for f in files.values())
    return files


@pytest.mark.parametrize("m", MATCHES)
def test_the_winner_timeline_plots_player_kills_by_team_and_deaths_to_the_map_apart(fact_matches, m):
    """Kills by towers were plotted as team kills and a minion's kill was left out; now the kill lanes are the
    player kills truth.py counts (so their first dot is first blood), and every death to a non-player is on a
    lane of its own."""
    match = fact_matches[m]
    truth = match["truth"]
    pkg, jobs = analysed(match, "which side won")
    kills, objectives = jobs["event_timeline"].args
    team = {p: row["team"] for p, row in truth["players"].items()}
    assert kills == [(k["second"], team[k["killer"]]) for k in truth["kills"]]
    assert min(kills)[0] == truth["first_blood"]["second"]
    assert jobs["event_timeline"].kwargs["map_deaths"] == [(d["second"], team[d["victim"]])
                                                           for d in truth["deaths_to_npcs"]]
    assert objectives == [(o["second"], o["target"].split()[-1].lower() if o["kind"] == "structure"
                           else o["target"].lower(), o["team"]) for o in truth["objectives"]]
    minutes, diffs = jobs["gold_diff"].args
    assert diffs == truth["team_gold_difference_by_minute"] and minutes == list(range(len(diffs)))
    alt = {v.type: v.alt_text for v in visualization(pkg, match["env"]).visualizations.values()}
    assert alt["event_timeline"].startswith(f"Timeline of {len(truth['kills'])} player kills by team, "
                                            f"{len(truth['deaths_to_npcs'])} deaths to non-players and "
                                            f"{len(truth['objectives'])} objectives")
    assert set(drawn(match, pkg)) == {"event_timeline", "gold_diff"}


@pytest.mark.parametrize("m", MATCHES)
def test_a_ranking_bar_chart_plots_the_ranked_rows(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    pkg, jobs = analysed(match, "who dealt the most damage")
    labels, values = jobs["bar_h"].args
    ranked = sorted(truth["players"], key=lambda p: -truth["players"][p]["damage_dealt"])
    assert values == [truth["players"][p]["damage_dealt"] for p in ranked]
    assert labels == ranked
    _, rows = primary_rows(pkg, match["env"])
    assert values == [r["damage_dealt"] for r in rows]  # the answer's own rows
    assert pkg.response is None and set(drawn(match, pkg)) == {"bar_h"}


@pytest.mark.parametrize("m", MATCHES)
def test_a_death_recap_chart_plots_each_death_in_match_order(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    player = max(truth["players"], key=lambda p: (truth["players"][p]["deaths"], p))
    pkg, jobs = analysed(match, f"how did {player} die")
    labels, values = jobs["bar_h"].args
    deaths = sorted([k["second"] for k in truth["kills"] if k["victim"] == player]
                    + [d["second"] for d in truth["deaths_to_npcs"] if d["victim"] == player])
    assert labels == [clock(s) for s in deaths][:12]
    recap = next(t for name, t in pkg.data.transformed_data.items() if name == "pattern_death_recap")
    assert values == [r["damage_taken"] for r in recap.rows][:12]
    # a cut chart says what it leaves out, in its title and its alt text
    which = "each death" if len(deaths) <= 12 else f"the first 12 of {len(deaths)} deaths"
    assert pkg.analysis.recommended_visualizations[0].title == f"Damage taken before {which} of {player}"
    bars = f"{len(deaths)} bar{'s' if len(deaths) > 1 else ''}" if len(deaths) <= 12 else \
        f"the first 12 of {len(deaths)} bars"
    (alt,) = [v.alt_text for v in visualization(pkg, match["env"]).visualizations.values()]
    assert alt.startswith(f"Horizontal bar chart of damage taken by match time, in match order, {bars}: ")
    assert set(drawn(match, pkg)) == {"bar_h"}


@pytest.mark.parametrize("m", MATCHES)
def test_a_team_timeline_plots_each_teams_minutes(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    pkg, jobs = analysed(match, "damage dealt per minute for each team")
    (lines,) = jobs["line"].args
    for team in ("1", "2"):
        players = truth["teams"][team]["players"]
        per_minute = [sum(truth["players"][p]["per_minute"]["damage_dealt"][i] for p in players)
                      for i in range(len(truth["team_gold_difference_by_minute"]))]
        minutes, values = lines[f"team {team}"]
        assert values == [per_minute[i] for i in minutes]
        assert sum(values) == truth["teams"][team]["damage_dealt"]  # every minute with damage is plotted
    ticks = jobs["line"].kwargs["ticks"]
    assert len(ticks) == len(truth["kills"])  # player kills only, as the legend says
    assert set(drawn(match, pkg)) == {"line"}


@pytest.mark.parametrize("m", MATCHES)
def test_windows_side_by_side_plot_each_window_for_each_team(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    pkg, jobs = analysed(match, "compare the damage of each team in the first 10 minutes and the last 10 minutes")
    categories, series = jobs["grouped_bar"].args
    windows = {"first 10 minutes": "first_10_minutes", "last 10 minutes": "last_10_minutes"}
    assert set(categories) == set(windows)
    for team in ("1", "2"):
        players = truth["teams"][team]["players"]
        for i, period in enumerate(categories):
            want = sum(truth["windows"][windows[period]][p]["damage_dealt"] for p in players)
            assert series[f"team {team}"][i] == want
    assert set(drawn(match, pkg)) == {"grouped_bar"}


@pytest.mark.parametrize("m", MATCHES)
def test_a_comparison_of_several_figures_plots_each_for_each_player(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    a, b = sorted(truth["players"])[:2]
    pkg, jobs = analysed(match, f"compare kills, deaths and assists of {a} and {b}")
    categories, series = jobs["grouped_bar"].args
    assert sorted(categories) == sorted([a, b])
    for figure in ("kills", "deaths", "assists"):
        assert series[figure] == [truth["players"][p][figure] for p in categories]
    assert set(drawn(match, pkg)) == {"grouped_bar"}


@pytest.mark.parametrize("m", MATCHES)
def test_a_breakdown_plots_every_ability_of_the_player(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    player = sorted(truth["players"])[m]
    pkg, jobs = analysed(match, f"{player}'s damage by ability")
    abilities = truth["players"][player]["abilities"]
    categories, stacks = jobs["stacked_bar"].args
    plotted = {name: values[0] for name, values in stacks.items()}
    kept = dict(list(abilities.items())[:8])
    assert {k: v for k, v in plotted.items() if k != "other"} == kept
    assert plotted.get("other", 0) == sum(abilities.values()) - sum(kept.values())
    labels, values = jobs["bar_h"].args
    assert dict(zip(labels, values, strict=True)) == dict(list(abilities.items())[:12])
    assert set(drawn(match, pkg)) == {"stacked_bar", "bar_h"}


@pytest.mark.parametrize("m", MATCHES)
def test_where_players_died_plots_every_death(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    pkg, jobs = analysed(match, "who drew first blood")
    xs, ys = jobs["heatmap"].args
    deaths = len(truth["kills"]) + len(truth["deaths_to_npcs"])
    assert len(xs) == len(ys) == deaths
    highlight = jobs["event_timeline"].kwargs["highlight"]
    first = truth["first_blood"]
    assert highlight == [(first["second"], f"{first['killer']} on {first['victim']}")]
    assert set(drawn(match, pkg)) == {"event_timeline", "heatmap"}


@pytest.mark.parametrize("m", MATCHES)
def test_one_value_is_a_kpi_with_the_answers_figure(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    player = sorted(truth["players"])[m]
    pkg, jobs = analysed(match, f"how many assists did {player} have")
    assert jobs == {"kpi": None}
    alt = [v.alt_text for v in visualization(pkg, match["env"]).visualizations.values()]
    assert alt == [f"Assists: {truth['players'][player]['assists']}"]


@pytest.mark.parametrize("m", MATCHES)
def test_a_windowed_event_chart_plots_the_window_only(fact_matches, m):
    """A time-window answer's timeline draws the window's kills and deaths, and the objectives it lists."""
    match = fact_matches[m]
    truth = match["truth"]
    team = {p: row["team"] for p, row in truth["players"].items()}
    pkg, jobs = analysed(match, "what objectives fell in the first 15 minutes")
    kills, objectives = jobs["event_timeline"].args
    assert kills == [(k["second"], team[k["killer"]]) for k in truth["kills"] if k["second"] < 900]
    assert jobs["event_timeline"].kwargs["map_deaths"] == [(d["second"], team[d["victim"]])
                                                           for d in truth["deaths_to_npcs"] if d["second"] < 900]
    assert [(s, t) for s, _, t in objectives] == [(o["second"], o["team"]) for o in truth["objectives"]
                                                  if o["second"] < 900]
    assert pkg.analysis.recommended_visualizations[0].title == "Kills and objectives in the first 15 minutes"
    assert set(drawn(match, pkg)) == {"event_timeline"}
