"""The golden phrasings: each question must plan to the stated essentials (intent, metric, grouping, focus,
filters, window), and every plan must compile to SQL that passes validate_sql."""

from __future__ import annotations

import pytest
import yaml

from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.planner import compile_plan, plan_question
from combat_analysis.warehouse.gate import validate_sql
from tests.support.planner import GOLDEN_FILE, sample_vocabulary, tricky_vocabulary

GOLDEN = yaml.safe_load(GOLDEN_FILE.read_text(encoding="utf-8"))
VOCABS = {"sample": sample_vocabulary(), "tricky": tricky_vocabulary()}


def _check(plan: QueryPlan, want: dict) -> None:
    assert plan.intent == Intent(want["intent"]), (plan.intent, plan.refusal, plan.assumptions)
    if "metric" in want:
        assert plan.metrics and plan.metrics[0] == want["metric"], plan.metrics
    if "metrics" in want:
        assert list(plan.metrics) == want["metrics"]
    if "group_by" in want:
        assert list(plan.group_by) == want["group_by"]
    if "focus" in want:
        assert list(plan.focus) == want["focus"], plan.focus
    for dim, values in (want.get("filters") or {}).items():
        found = [f for f in plan.filters if f.dimension == dim]
        assert found and list(found[0].values) == values, plan.filters
    if "window" in want:
        if want["window"] is None:
            assert plan.window is None
        else:
            assert plan.window is not None
            got = {k: getattr(plan.window, k) for k in ("start_s", "end_s", "from_end_s")}
            assert got == {k: want["window"].get(k) for k in got}
    if "order" in want:
        assert plan.order == want["order"]
    if "limit" in want:
        assert plan.limit == want["limit"]
    if "shape" in want:
        assert plan.shape == want["shape"], plan.shape
    if "position" in want:
        assert plan.position == want["position"]
    if "windows" in want:
        assert [[w.start_s, w.end_s, w.from_end_s] for w in plan.windows] == want["windows"], plan.windows
    if "parts" in want:
        assert len(plan.parts) == len(want["parts"]), plan.parts
        for part, wanted in zip(plan.parts, want["parts"], strict=True):
            _check(part, wanted)
    if "child" in want:
        assert plan.then is not None and plan.bind == {"player": "player"}
        _check(plan.then, want["child"])


def test_golden_list_is_broad():
    assert len(GOLDEN) >= 150
    assert {row["intent"] for row in GOLDEN} == {i.value for i in Intent}


@pytest.mark.parametrize("row", GOLDEN, ids=[f"{i:03d}-{r['q'][:40]}" for i, r in enumerate(GOLDEN)])
def test_golden_question_plans(row):
    vocab = VOCABS[row.get("vocab", "sample")]
    plan = plan_question(row["q"], vocab, row.get("previous", ()))
    _check(plan, row)
    if plan.intent == Intent.REFUSE:
        assert plan.refusal is not None and len(plan.refusal.suggestions) == 3
        assert not any(c.isdigit() for c in plan.refusal.reason + "".join(plan.refusal.suggestions))
        assert compile_plan(plan, vocab) == []
        return
    queries = compile_plan(plan, vocab)
    assert sum(q.primary for q in queries) == 1
    for q in queries:
        validate_sql(q.sql)


def _scorer_refusal_pattern():
    import importlib.util

    from tests.support.paths import SHARED

    spec = importlib.util.spec_from_file_location("shared_score", SHARED / "tools" / "score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.REFUSAL


@pytest.mark.parametrize("row", [r for r in GOLDEN if r["intent"] == "refuse"], ids=lambda r: r["q"][:40] or "empty")
def test_refusal_reasons_read_as_refusals_to_the_scorer(row):
    plan = plan_question(row["q"], VOCABS[row.get("vocab", "sample")], row.get("previous", ()))
    assert _scorer_refusal_pattern().search(plan.refusal.reason), plan.refusal.reason


def test_a_very_long_question_is_read_from_its_start_and_says_so():
    from combat_analysis.planner.offline import MAX_QUESTION_CHARS

    question = "who healed the most " + "really " * MAX_QUESTION_CHARS
    plan = plan_question(question, sample_vocabulary())
    assert plan.metrics[0] == "healing_done"
    assert "the question was very long; only its start was read" in plan.assumptions
