"""Per-minute rates of any figure: "who had the most assists per minute" was answered with the match's assists
minute by minute, which names no player. A rate is the figure over the duration in minutes, as METRICS.md
defines GPM and DPM; "per minute" without a leader, a top N or a player stays the minute-by-minute series."""

from __future__ import annotations

import pytest

from combat_analysis.catalog import METRICS, RATE_OF, metric, rate_of
from combat_analysis.contracts.plan import Intent
from combat_analysis.planner import plan_question
from tests.support.planner import sample_vocabulary
from tests.support.stages import ask_sample

VOCAB = sample_vocabulary()

# (what a person says, catalog figure, truth.py key)
FIGURES = (("kills", "kills", "kills"), ("deaths", "deaths", "deaths"), ("assists", "assists", "assists"),
           ("healing", "healing_done", "healing_done"), ("damage taken", "damage_taken", "damage_taken"),
           ("crits", "crits", "crits"), ("damage to gods", "damage_to_players", "damage_to_players"),
           ("gold", "gold", "gold"), ("damage", "damage_dealt", "damage_dealt"), ("cc", "cc_applied", "cc_applied"))
RATE_SHAPES = ("who had the most {m} per minute?", "which player had the highest {m} per minute", "top 3 {m} per minute",
               "{m} per minute by player", "rank everyone by {m} per min", "best {m} a minute of anyone",
               "what were Brisk's {m} per minute?", "{m} per minute for VoidWalker")
SERIES_SHAPES = ("{m} per minute for each team", "{m} per minute over time", "show {m} each minute",
                 "how did {m} per minute change throughout the match")


def test_every_additive_player_figure_has_a_rate_and_rates_are_read_by_shape_not_name():
    for m in METRICS.values():
        if m.kind == "figure" and not m.is_derived and m.aggregation in ("sum", "count") and "player" in m.dimensions \
                and not m.generated:  # a figure only the planner uses has no rate
            assert m.id in RATE_OF, m.id
    assert (rate_of("gold"), rate_of("damage_dealt"), rate_of("experience")) == ("gpm", "dpm", "xpm")
    assert rate_of("kills") == "kills_per_minute" and rate_of("biggest_hit") is None and rate_of("kda") is None
    rate = metric("assists_per_minute")
    assert (rate.label, rate.formula, rate.decimals, rate.generated) == ("assists per minute",
                                                                          "assists / window_minutes", 2, True)


@pytest.mark.parametrize("shape", RATE_SHAPES)
def test_per_minute_of_a_leader_a_top_n_or_a_player_is_the_rate(shape):
    for said, figure, _ in FIGURES:
        question = shape.format(m=said)
        plan = plan_question(question, VOCAB)
        assert plan.intent != Intent.TIMELINE and plan.metrics[0] == rate_of(figure), (question, plan.metrics)
        assert not plan.caveats, (question, plan.caveats)


@pytest.mark.parametrize("shape", SERIES_SHAPES)
def test_per_minute_without_one_is_still_the_series(shape):
    for said, figure, _ in FIGURES:
        if figure in RATE_OF and RATE_OF[figure] in ("gpm", "dpm") and "each team" in shape:
            continue  # "gold per minute for each team" names GPM itself, which each team has
        question = shape.format(m=said)
        plan = plan_question(question, VOCAB)
        assert plan.intent == Intent.TIMELINE and plan.metrics[0] == figure, (question, plan.intent, plan.metrics)


@pytest.mark.parametrize(("question", "key"), [("who had the most assists per minute?", "assists"),
                                               ("deaths per minute by player", "deaths"),
                                               ("which player had the highest healing per minute", "healing_done"),
                                               ("top 3 players by crits per minute", "crits")])
def test_a_rate_is_each_players_figure_over_the_minutes_played(stage_env, truth, question, key):
    from combat_analysis.warehouse.handles import rows_of
    pkg = ask_sample(stage_env, question)
    minutes = truth["duration_seconds"] / 60
    rate = rate_of(key)
    rows = rows_of(pkg.primary_result, None)
    want = {p: round(f[key] / minutes, 2) for p, f in truth["players"].items()}
    assert rows and all(r[rate] == pytest.approx(want[r["player"]], abs=0.005) for r in rows), question
    leader = max(want, key=lambda p: want[p])
    assert leader in pkg.response.direct_answer and f"{want[leader]:g}" in pkg.response.direct_answer


def test_a_team_rate_and_a_windowed_rate(stage_env, truth):
    pkg = ask_sample(stage_env, "which team had the most kills per minute")
    minutes = truth["duration_seconds"] / 60
    teams = {t: sum(f["kills"] for f in truth["players"].values() if f["team"] == t) for t in (1, 2)}
    best = max(teams, key=lambda t: teams[t])
    assert pkg.response.direct_answer.startswith(f"Team {best} had the highest kills per minute: "
                                                 f"{round(teams[best] / minutes, 2):g}"), pkg.response.direct_answer
    windowed = plan_question("who had the most kills per minute in the first 10 minutes", VOCAB)
    assert windowed.metrics == ("kills_per_minute",) and windowed.window.end_s == 600
