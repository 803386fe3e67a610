"""The optional language-model planner, configured the way users configure it, answering end to end."""

from __future__ import annotations

from combat_analysis.answer.pipeline import answer_question
from resources import PlannerResource
from tests.support.llm_stub import Stub
from tests.support.paths import SAMPLE_MATCH_ID


def test_planner_resource_is_off_by_default(monkeypatch):
    monkeypatch.delenv("COMBAT_ANALYSIS_LLM_BASE_URL", raising=False)
    assert PlannerResource().planner() is None


def test_configured_llm_planner_answers_through_the_pipeline(server, sample_warehouse, tmp_path,
                                                             monkeypatch):
    monkeypatch.setenv("STUB_LLM_KEY", "sk-test")
    monkeypatch.setattr(Stub, "mode", "good")
    Stub.requests.clear()
    planner = PlannerResource(llm_base_url=server, llm_model="stub-model", api_key_env="STUB_LLM_KEY").planner()
    pkg = answer_question("how much did papi heal", warehouse_root=sample_warehouse, match_id=SAMPLE_MATCH_ID,
                          artifacts_dir=tmp_path, planner=planner, followups=False)
    assert pkg.plan.planner == "llm"
    assert pkg.response.direct_answer == "PapiTacos did 28,752 healing."
    [request] = Stub.requests
    assert request["auth"] == "Bearer sk-test" and request["body"]["model"] == "stub-model"


def test_llm_garbage_falls_back_to_the_offline_planner(server, sample_warehouse, tmp_path,
                                                       monkeypatch):
    monkeypatch.setenv("STUB_LLM_KEY", "sk-test")
    monkeypatch.setattr(Stub, "mode", "garbage")
    planner = PlannerResource(llm_base_url=server, api_key_env="STUB_LLM_KEY").planner()
    pkg = answer_question("Who healed the most?", warehouse_root=sample_warehouse, match_id=SAMPLE_MATCH_ID,
                          artifacts_dir=tmp_path, planner=planner, followups=False)
    assert pkg.plan.planner == "offline"
    assert any(a.startswith("LLM planner not used") and a.endswith("the offline planner answered")
               for a in pkg.plan.assumptions), pkg.plan.assumptions
    assert pkg.response.direct_answer.startswith("PapiTacos healed the most: 28,752")
