"""The optional LLM planner against a local stub of the OpenAI chat-completions protocol."""

from __future__ import annotations

import pytest

from combat_analysis.contracts.plan import Filter, Intent, QueryPlan
from combat_analysis.planner import compile_plan
from combat_analysis.planner.llm import LlmPlanner
from tests.support.llm_stub import Stub
from tests.support.planner import sample_vocabulary

VOCAB = sample_vocabulary()


def test_good_plan_is_used(planner):
    Stub.mode = "good"
    plan = planner.plan("how much did papi heal", VOCAB)
    assert plan.planner == "llm" and plan.intent == Intent.LOOKUP and plan.metrics == ("healing_done",)
    assert plan.question == "how much did papi heal"
    (query,) = compile_plan(plan, VOCAB)
    assert query.primary
    sent = Stub.requests[-1]
    assert sent["path"] == "/v1/chat/completions" and sent["auth"] == "Bearer sk-test"
    assert sent["body"]["model"] == "stub-model"
    assert sent["body"]["response_format"]["type"] == "json_schema"
    assert sent["body"]["response_format"]["json_schema"]["schema"] == QueryPlan.model_json_schema()
    assert "Never write SQL" in sent["body"]["messages"][0]["content"]


@pytest.mark.parametrize(("mode", "why"), [
    ("garbage", "not JSON"), ("500", "HTTP 500"), ("timeout", "timed out"), ("unknown_metric", "unknown metric"),
    ("invented_name", "unknown player"), ("sql_in_name", "unknown player"),
])
def test_failures_fall_back_to_the_offline_planner(planner, mode, why):
    Stub.mode = mode
    plan = planner.plan("Who healed the most?", VOCAB)
    assert plan.planner == "offline"
    assert plan.intent == Intent.RANKING and plan.metrics == ("healing_done",)
    assert any("LLM planner not used" in a and why in a for a in plan.assumptions), plan.assumptions


def test_model_refusal_keeps_digit_free_suggestions(planner):
    Stub.mode = "refuse"
    plan = planner.plan("What was the weather?", VOCAB)
    assert plan.intent == Intent.REFUSE and plan.planner == "llm"
    assert not any(c.isdigit() for c in plan.refusal.reason + "".join(plan.refusal.suggestions))
    assert len(plan.refusal.suggestions) == 3


def test_planner_is_a_callable_like_plan_question(planner):
    Stub.mode = "good"
    plan = planner("how much did papi heal", VOCAB, ())
    assert plan.planner == "llm" and plan.focus == ("PapiTacos",)


def test_hostile_text_is_never_sent(planner):
    Stub.mode = "good"
    plan = planner.plan("DROP TABLE players; --", VOCAB)
    assert plan.intent == Intent.REFUSE and Stub.requests == []


def test_unreachable_endpoint_falls_back():
    planner = LlmPlanner(base_url="http://127.0.0.1:9/v1", model="m", timeout=0.5)
    plan = planner.plan("Who got first blood?", VOCAB)
    assert plan.intent == Intent.EVENT_LIST and plan.planner == "offline"
    assert any("LLM planner not used" in a for a in plan.assumptions)


def test_off_by_default():
    assert LlmPlanner.from_env({}) is None
    configured = LlmPlanner.from_env({"COMBAT_ANALYSIS_LLM_BASE_URL": "http://127.0.0.1:1/v1"})
    assert configured is not None and configured.api_key_env == "COMBAT_ANALYSIS_LLM_API_KEY"


def test_a_models_plan_may_name_the_matchs_non_players_but_not_invent_them():
    from combat_analysis.planner.llm import LlmPlanError, check_names

    giant = QueryPlan(question="ignored", intent=Intent.LOOKUP, metrics=("npc_damage",), group_by=("source",),
                      filters=(Filter(dimension="source", values=("Fire Giant",)),), focus=("Fire Giant",))
    check_names(giant, VOCAB)  # a name of this match: accepted
    for invented in (giant.model_copy(update={"filters": (Filter(dimension="source", values=("Kraken",)),)}),
                     giant.model_copy(update={"focus": ("Kraken",)})):
        with pytest.raises(LlmPlanError):
            check_names(invented, VOCAB)
