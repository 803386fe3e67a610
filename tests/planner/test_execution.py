"""The planner end to end on the real sample match: every dev question, planned, compiled, run, checked."""

from __future__ import annotations

import json
import math

import pytest

from combat_analysis.contracts.plan import Intent
from combat_analysis.planner import compile_plan, plan_question
from tests.support.paths import DEV_QUESTIONS
from tests.support.planner import primary_rows, run_queries, truth

DEV = [json.loads(line) for line in DEV_QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]


def _cells(columns, rows) -> list[str]:
    return [f"{c} {v}" for row in rows for c, v in zip(columns, row, strict=True)] + \
           [str(v) for row in rows for item in row for v in (item if isinstance(item, list) else [item])]


def _numbers(rows) -> list[float]:
    return [float(v) for row in rows for v in row if isinstance(v, (int, float)) and not isinstance(v, bool)]


def _close(found: float, want: float, rel: float, ab: float) -> bool:
    return abs(found - want) <= max(ab, rel * abs(want)) or math.isclose(found, want)


def test_vocabulary_reads_the_match(vocab):
    t = truth()
    assert set(vocab.player_names) == set(t["players"])
    assert vocab.duration_s == int(t["duration_seconds"])
    assert vocab.winner_team == t["winner"]
    assert "Loki Basic Attack" in vocab.abilities and "Blink Rune" in vocab.items


@pytest.mark.parametrize("row", DEV, ids=[r["id"] for r in DEV])
def test_dev_question_answered_from_primary_rows(row, con, vocab):
    plan = plan_question(row["question"], vocab)
    expect = row["expect"]
    if expect.get("refuse"):
        assert plan.intent == Intent.REFUSE
        assert plan.refusal and len(plan.refusal.suggestions) == 3
        assert not any(c.isdigit() for s in plan.refusal.suggestions for c in s)
        assert not any(c.isdigit() for c in plan.refusal.reason)
        return
    assert plan.intent != Intent.REFUSE, plan.refusal
    columns, rows = primary_rows(con, plan, vocab)
    assert rows, f"no rows for {plan}"
    rel, ab = expect.get("rel_tol", 0.005), expect.get("abs_tol", 0.0)
    if "entity" in expect and "value" in expect:
        # the entity's own row must carry the value; for rankings that row is the first
        top = rows[0]
        assert any(str(v).lower() == expect["entity"].lower() for v in top), (columns, rows[:3])
        assert any(_close(n, float(expect["value"]), rel, ab) for n in _numbers([top])), (columns, rows[:3])
        return
    text = " | ".join(_cells(columns, rows)).lower()
    for name in expect.get("entities", []) + ([expect["entity"]] if "entity" in expect else []):
        assert name.lower() in text, (name, columns, rows[:5])
    numbers = _numbers(rows)
    for value in expect.get("values", []) + ([expect["value"]] if "value" in expect else []):
        assert any(_close(n, float(value), rel, ab) for n in numbers), (value, columns, rows[:5])
    if "any_of" in expect:
        assert any(s.lower() in text for s in expect["any_of"]), (columns, rows)


METRIC_TO_TRUTH = {
    "damage_dealt": "damage_dealt", "damage_to_players": "damage_to_players", "damage_taken": "damage_taken",
    "damage_mitigated": "mitigated", "healing_done": "healing_done", "healing_received": "healing_received",
    "crits": "crits", "kills": "kills", "deaths": "deaths", "assists": "assists", "gold": "gold",
    "experience": "experience", "cc_applied": "cc_applied", "kda": "kda", "gpm": "gpm", "dpm": "dpm",
}


def test_every_player_figure_matches_the_truth_file(con, vocab):
    plan = plan_question("scoreboard", vocab).model_copy(update={"metrics": tuple(METRIC_TO_TRUTH), "limit": 10})
    columns, rows = primary_rows(con, plan, vocab)
    players = truth()["players"]
    assert len(rows) == len(players)
    for row in rows:
        got = dict(zip(columns, row, strict=True))
        want = players[got["player"]]
        for metric_id, key in METRIC_TO_TRUTH.items():
            assert got[metric_id] == pytest.approx(want[key], abs=0.006), (got["player"], metric_id)


def test_player_stats_agree_with_event_aggregation(con, vocab):
    """Whole-match figures come from the event tables; they must equal the warehouse's player_stats."""
    plan = plan_question("scoreboard", vocab).model_copy(update={"metrics": tuple(METRIC_TO_TRUTH)})
    columns, rows = primary_rows(con, plan, vocab)
    stats = {r[0]: r for r in con.execute("SELECT player, " + ", ".join(
        "damage_mitigated" if k == "damage_mitigated" else k for k in METRIC_TO_TRUTH) + " FROM player_stats").fetchall()}
    for row in rows:
        assert tuple(pytest.approx(v, abs=0.006) for v in row[1:]) == stats[row[0]][1:]


def test_team_totals_match_truth(con, vocab):
    plan = plan_question("compare kills, deaths, gold, experience, damage and healing of each team", vocab)
    assert plan.intent == Intent.COMPARISON and plan.group_by == ("team",)
    columns, rows = primary_rows(con, plan, vocab)
    teams = truth()["teams"]
    for row in rows:
        got = dict(zip(columns, row, strict=True))
        want = teams[str(got["team"])]
        for metric_id, key in [("kills", "kills"), ("deaths", "deaths"), ("gold", "gold"), ("experience", "experience"),
                               ("damage_dealt", "damage_dealt"), ("healing_done", "healing_done")]:
            assert got[metric_id] == pytest.approx(want[key]), (metric_id, got)


def test_dependent_question_binds_the_leader(con, vocab):
    plan = plan_question("What abilities did the top damage dealer use?", vocab)
    queries = compile_plan(plan, vocab)
    assert [q.primary for q in queries] == [False, True]
    assert queries[1].parameters == {"player": "q1.player"} and "$player" in queries[1].sql
    results = run_queries(con, queries)
    columns, rows = results["q2"]
    assert columns == ["ability", "damage_dealt"]
    assert rows[0] == ("Loki Basic Attack", pytest.approx(99260))


def test_objectives_and_build_order_shapes(con, vocab):
    columns, rows = primary_rows(con, plan_question("When were the towers destroyed?", vocab), vocab)
    assert columns == ["objective", "target", "killer", "team", "match_second", "ability"]
    assert {r[0] for r in rows} == {"tower"} and len(rows) == 6
    columns, rows = primary_rows(con, plan_question("What did LunaSol build?", vocab), vocab)
    assert columns == ["player", "seq", "item", "match_second"]
    assert [r[2] for r in rows] == truth()["players"]["LunaSol"]["items"]


def test_follow_up_runs(con, vocab):
    history = ["How much damage did LunaSol deal?"]
    plan = plan_question("and Brisk?", vocab, history)
    columns, rows = primary_rows(con, plan, vocab)
    assert rows == [("Brisk", pytest.approx(138223))]
    plan = plan_question("only after 20 minutes", vocab, history)
    columns, rows = primary_rows(con, plan, vocab)
    assert rows[0][0] == "LunaSol" and plan.window and plan.window.start_s == 1200


def test_last_minutes_window_uses_duration(con, vocab):
    plan = plan_question("who dealt the most damage in the last 10 minutes", vocab)
    assert plan.window.from_end_s == 600
    columns, rows = primary_rows(con, plan, vocab)
    assert rows[0] == ("VoidWalker", pytest.approx(73019))


# Paraphrases of the dev questions and neighbours of them: the answer must sit in the primary query's rows.
PARAPHRASES = [
 ("Which player dealt the highest amount of damage?", "VoidWalker", 192395),
 ("Who was the biggest healer?", "PapiTacos", 28752),
 ("Who had the highest number of kills?", "Brisk", 17),
 ("Who assisted the most?", "mid_or_feed", 30),
 ("Who had the highest KDA ratio?", "VoidWalker", 34),
 ("Which player collected the most gold?", "Brisk", 10073),
 ("Who gained the most XP?", "Brisk", 11105),
 ("Highest GPM?", "Brisk", 314.95),
 ("Who soaked up the most damage?", "Kraken_Mid", 75625),
 ("Who blocked the most damage?", "Kraken_Mid", 17785),
 ("Who did the most damage to enemy players?", "mid_or_feed", 59694),
 ("Who crit the most?", "VoidWalker", 278),
 ("What's LunaSol's total damage?", "LunaSol", 99127),
 ("How much did Kraken_Mid heal?", "Kraken_Mid", 536),
 ("mid_or_feed KDA?", "mid_or_feed", 10),
 ("How many kills does mid_or_feed have?", "mid_or_feed", 10),
 ("What was VoidWalker's best ability?", "Loki Basic Attack", 99260),
 ("What's the strongest ability in the match?", "Loki Basic Attack", 99260),
 ("Which skill did the most damage overall?", "Loki Basic Attack", 99260),
 ("Who drew first blood?", "Tsunami88", 232),
 ("Who won?", "LunaSol", 2),
 ("Total number of deaths?", None, 79),
 ("How much gold did each team make?", None, 43647),
 ("Highest damage in a single hit?", "VoidWalker", 608),
 ("How many towers did the winning team take?", None, 4),
 ("Which role did the most damage?", "Jungle", 343137),
 ("Which god had the most healing?", "Sobek", 28752),
 ("Top damage in the first ten minutes?", "VoidWalker", 41595),
 ("Most damage after the 20 minute mark?", "VoidWalker", 85541),
 ("Most damage from minute 5 to minute 15?", "VoidWalker", 54866),
 ("Most damage during the final 10 minutes?", "VoidWalker", 73019),
 ("NightOwl07 vs Kraken_Mid damage", "NightOwl07", 114664),
 ("What was the damage per minute of VoidWalker?", "VoidWalker", 6015.48),
 ("How many kills did the teams get?", None, 53),
 ("How many people died in total?", None, 79),
 ("What is the total number of player deaths in the match?", None, 79),
 ("How much gold did team one and team two earn?", None, 22003),
 ("Which team won the game?", None, 2),
 ("Who got the first kill?", "Tsunami88", 232),
 ("What did the support on team 1 buy?", "Blink Rune", None),
 ("What was the most damaging ability?", "Loki Basic Attack", 99260),
 ("Which ability dealt the most damage for VoidWalker?", "Loki Basic Attack", 99260),
 ("How many towers were destroyed by team 2?", None, 4),
 ("What was the largest single hit in the match?", "VoidWalker", 608),
 ("Who did the most healing?", "PapiTacos", 28752),
 ("Who farmed the most gold?", "Brisk", 10073),
 ("Who had the most damage taken?", "Kraken_Mid", 75625),
]


@pytest.mark.parametrize(("question", "entity", "value"), PARAPHRASES, ids=[c[0][:40] for c in PARAPHRASES])
def test_paraphrase_answered_from_primary_rows(question, entity, value, con, vocab):
    plan = plan_question(question, vocab)
    assert plan.intent != Intent.REFUSE, plan.refusal
    columns, rows = primary_rows(con, plan, vocab)
    cells = [cell for row in rows for cell in row]
    if entity is not None:
        assert any(str(cell) == entity for cell in cells), (plan.metrics, plan.group_by, rows[:3])
    if value is not None:
        assert any(_close(n, float(value), 0.005, 0.011) for n in _numbers(rows)), (plan.metrics, rows[:3])
