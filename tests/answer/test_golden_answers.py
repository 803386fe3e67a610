"""Golden answers on the sample match: five questions pinned to their direct answer, findings and chart
kinds, and every dev question judged with the shared scorer's own rules."""

from __future__ import annotations

import importlib.util
import json

import pytest

from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.formatting import number
from tests.support.paths import SCORE_TOOL, TRUTH_FILE
from tests.support.stages import ask_sample


def _load_scorer():
    spec = importlib.util.spec_from_file_location("shared_score", SCORE_TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kinds(pkg: AgentDataPackage) -> list[str]:
    return [v.type for v in pkg.visualizations.values()]


def finding(pkg: AgentDataPackage, kind: str) -> str:
    return next(f.description for f in (*pkg.analysis.key_findings, *pkg.analysis.comparisons,
                                         *pkg.analysis.patterns) if f.kind == kind)


def test_most_damage(stage_env):
    pkg = ask_sample(stage_env, "Who dealt the most damage in the match?")
    assert pkg.response.direct_answer == "VoidWalker dealt the most damage: 192,395 (ahead of Kraken_Mid with 150,742)."
    assert finding(pkg, "margin") == "VoidWalker has 41,653 damage dealt (27.63%) more than Kraken_Mid (150,742)."
    assert finding(pkg, "share") == "VoidWalker's 192,395 damage dealt is 15.58% of the 10 players' 1,235,074 damage dealt."
    assert finding(pkg, "team").startswith("Team 2's players total 677,761 damage dealt, team 1's 557,313")
    assert kinds(pkg) == ["bar_h"]
    leader = next(f for f in pkg.analysis.key_findings if f.kind == "leader")
    assert leader.significance == "high"
    assert leader.supporting_data[0].query_id == pkg.primary_result.query_id
    assert leader.supporting_data[0].rows == (0,)


def test_most_healing(stage_env):
    pkg = ask_sample(stage_env, "Who healed the most?")
    assert pkg.response.direct_answer == "PapiTacos healed the most: 28,752 (ahead of NightOwl07 with 28,399)."
    assert finding(pkg, "margin") == "PapiTacos has 353 healing done (1.24%) more than NightOwl07 (28,399)."
    assert finding(pkg, "outlier") == "PapiTacos is an outlier on healing done: 28,752 against a median of 536."
    assert kinds(pkg) == ["bar_h"]


def test_winner(stage_env):
    pkg = ask_sample(stage_env, "Which team won the match?")
    assert pkg.response.direct_answer == ("Team 2 won the match: team 2 destroyed the enemy Titan (LunaSol dealt the "
                                          "final blow at 31:59).")
    assert finding(pkg, "stomp") == ("Team 2 led on gold from start to finish (a stomp) and won the match, ending "
                                     "21,644 gold ahead; team 1 never led.")
    assert finding(pkg, "objectives") == ("Team 2 took 9 of the 14 objectives. Team 2 took the last objective (the "
                                          "Order Titan, at 31:59, last hit by LunaSol).")
    assert kinds(pkg) == ["event_timeline", "gold_diff"]


def test_team1_support_build(stage_env):
    pkg = ask_sample(stage_env, "What items did the team 1 support build?")
    answer = pkg.response.direct_answer
    assert answer.startswith("PapiTacos (team 1 Support, Sobek) built 25 items in this order: "
                             "Blink Rune, Axe, Chronos' Pendant, Obsidian Shard, Soul Gem,")
    assert answer.endswith("Book of Thoth, Battle Axe, Mana Potion.")
    assert finding(pkg, "build") == "PapiTacos bought 25 items, starting with Blink Rune and ending with Mana Potion."
    assert kinds(pkg) == ["table"]


def test_first_blood(stage_env):
    pkg = ask_sample(stage_env, "Who got first blood?")
    assert pkg.response.direct_answer == ("Tsunami88 got first blood, killing ÁngelDeth with Confound at 3:52 (match second 232), "
                                          "assisted by VoidWalker and mid_or_feed.")
    assert finding(pkg, "first_blood") == "First blood: Tsunami88 (team 2) killed ÁngelDeth at 3:52."
    # the victim's deaths bear on it; Brisk's kill streak and the match's team fights do not
    assert finding(pkg, "death_recap").startswith("ÁngelDeth died ")
    assert {f.kind for f in pkg.analysis.patterns} == {"death_recap"}
    assert kinds(pkg) == ["event_timeline", "heatmap"]


def test_followups_are_answered_by_the_same_pipeline(stage_env):
    pkg = ask_sample(stage_env, "Who dealt the most damage in the match?", followups=True)
    assert pkg.query_analysis.anticipated_followups[0] == "Which ability did VoidWalker deal the most damage with?"
    answers = {f.question: f.direct_answer for f in pkg.response.followup_answers}
    assert answers["Which ability did VoidWalker deal the most damage with?"].startswith(
        "The top ability by damage dealt for VoidWalker is Loki Basic Attack: 99,260")
    assert 2 <= len(answers) <= 3
    assert "You might also ask" in pkg.final_output.markdown


def test_every_dev_question_passes_the_shared_scorer(dev_packages):
    judge = _load_scorer().judge
    failures = []
    for row, pkg in dev_packages:
        ok, note = judge(row, json.loads(pkg.to_json()))
        if not ok:
            failures.append(f"{row['id']}: {note} :: {pkg.response.direct_answer}")
    assert not failures, "\n".join(failures)
    assert len(dev_packages) == 40


def test_dependent_question_names_who_it_resolved_to(stage_env):
    pkg = ask_sample(stage_env, "What abilities did the top damage dealer use?")
    assert pkg.response.direct_answer.startswith(
        "VoidWalker dealt the most damage (192,395). VoidWalker's damage dealt by ability: Loki Basic Attack: 99,260 "
        "(51.59% of VoidWalker's damage dealt); Vanish: 22,039;")


@pytest.mark.parametrize("earlier", ["Who did the most damage to enemy gods?", "which player dealt the most damage to gods"])
@pytest.mark.parametrize("followup", ["and per minute?", "what about per minute", "per minute?"])
def test_per_minute_after_a_ranking_ranks_by_the_rate(stage_env, earlier, followup):
    """'Per minute' after a ranking is the same ranking of the figure per minute of the match, not the match's
    minute-by-minute series."""
    truth = json.loads(TRUTH_FILE.read_text(encoding="utf-8"))
    minutes = truth["duration_seconds"] / 60
    rate = {p: row["damage_to_players"] / minutes for p, row in truth["players"].items()}
    first, second = sorted(rate, key=lambda p: -rate[p])[:2]
    pkg = ask_sample(stage_env, followup, previous_queries=(earlier,))
    assert pkg.plan.intent.value == "ranking" and pkg.plan.group_by == ("player",)
    assert pkg.response.direct_answer.startswith(
        f"{first} had the highest damage to players per minute: {number(rate[first], 2)} (ahead of {second} with "
        f"{number(rate[second], 2)})")


def test_per_minute_after_a_list_of_teams_is_still_the_series(stage_env):
    pkg = ask_sample(stage_env, "and per minute?", previous_queries=("damage for each team",))
    assert pkg.plan.intent.value == "timeline"
