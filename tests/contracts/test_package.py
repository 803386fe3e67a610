"""The Agent Data Package: immutability, the digest chain, exact JSON round trips, tamper detection,
data handles for large results, refusals. Real warehouse, real stages, no mocks."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from pydantic import ValidationError

from combat_analysis.answer.match.data_engineer import data_engineer
from combat_analysis.answer.pipeline import MATCH, answer_question
from combat_analysis.answer.query_analyst import query_analyst
from combat_analysis.contracts.package import AgentDataPackage, ErrorEntry, PackageIntegrityError, new_package
from combat_analysis.warehouse.handles import HandleExpiredError, HandleStore
from tests.support.stages import MATCH_ID, env_with, hand_planner, run_each_stage


def test_a_new_package_is_version_zero_with_a_valid_digest():
    pkg = new_package("Who healed the most?", MATCH_ID, ["Who dealt the most damage?"], user_id="u1")
    assert pkg.version == 0 and pkg.parent_digest is None
    assert pkg.digest == pkg.compute_digest() and len(pkg.digest) == 64
    assert pkg.input.context.previous_queries == ("Who dealt the most damage?",)
    assert pkg.input.context.match_id == MATCH_ID


def test_assigning_any_field_raises():
    pkg = new_package("Who healed the most?", MATCH_ID)
    with pytest.raises(ValidationError):
        pkg.version = 7
    with pytest.raises(ValidationError):
        pkg.metadata.user_id = "mallory"
    with pytest.raises(ValidationError):
        pkg.input.raw_query = "something else"


def test_next_version_returns_a_new_package_and_leaves_the_input_alone():
    pkg = new_package("Who healed the most?", MATCH_ID)
    before = pkg.to_json()
    error = ErrorEntry(stage="test", error_type="note", description="just a note")
    nxt = pkg.next_version(stage="test", new_errors=[error])
    assert pkg.to_json() == before
    assert nxt is not pkg and nxt.version == 1 and nxt.parent_digest == pkg.digest
    assert nxt.errors == (error,) and nxt.metadata.processing_stage == "test"
    with pytest.raises(TypeError):
        pkg.next_version(stage="test", not_a_section=1)


def test_digest_chain_across_the_five_stages(versions):
    stages = [name for name, _ in MATCH.stages()]
    for i, (prev, pkg) in enumerate(zip(versions, versions[1:], strict=False)):
        assert pkg.version == prev.version + 1 == i + 1
        assert pkg.parent_digest == prev.digest
        assert pkg.digest == pkg.compute_digest() != prev.digest
        assert pkg.metadata.processing_stage == stages[i]
        assert [s.stage for s in pkg.metadata.processing_history] == stages[: i + 1]
        assert all(s.duration_ms >= 0 and s.end >= s.start for s in pkg.metadata.processing_history)
    final = versions[-1]
    assert final.query_analysis and final.data and final.analysis and final.response and final.final_output
    assert final.response.direct_answer.startswith("VoidWalker dealt the most damage: 192,395")


def test_stages_never_mutate_their_input(stage_env):
    env = env_with(stage_env, planner=hand_planner("damage ranking"))
    pkg = new_package("Who dealt the most damage in the match?", MATCH_ID)
    for _name, stage in MATCH.stages():
        before = pkg.to_json()
        nxt = stage(pkg, env)
        assert pkg.to_json() == before
        pkg = nxt


def test_json_round_trip_is_exact(versions):
    for pkg in versions:
        text = pkg.to_json()
        back = AgentDataPackage.from_json(text)
        assert back == pkg
        assert back.to_json() == text
        assert back.digest == pkg.digest


def test_tampered_json_is_rejected_with_a_clear_error(versions):
    final = versions[-1]
    data = json.loads(final.to_json())
    data["response"]["direct_answer"] = data["response"]["direct_answer"].replace("192,395", "292,395")
    with pytest.raises(PackageIntegrityError, match="does not match its content"):
        AgentDataPackage.from_json(json.dumps(data))
    data = json.loads(final.to_json())
    data["data"]["query_results"][0]["data"][0]["damage_dealt"] = 1.0
    with pytest.raises(PackageIntegrityError):
        AgentDataPackage.from_json(json.dumps(data))
    with pytest.raises(PackageIntegrityError, match="not a valid"):
        AgentDataPackage.from_json("{}")


def test_large_results_travel_as_handles_not_rows(stage_env, tmp_path):
    env = env_with(stage_env, planner=hand_planner("damage ranking"), inline_row_cap=4,
                   handles=HandleStore(tmp_path / "handles"))
    pkg = run_each_stage("Who dealt the most damage in the match?", env)[-1]
    result = pkg.primary_result
    assert result.result_summary.row_count == 10 and len(result.data) == 4 and result.truncated
    handle = result.handle
    assert handle is not None and handle.metadata.shape == (10, 2)
    assert handle.metadata.columns == ("player", "damage_dealt") and "damage_dealt" in handle.metadata.dtypes
    assert handle.metadata.source_sql == result.sql and handle.metadata.expires_at > handle.metadata.created_at
    rows = env.handles.get(handle.handle_id)
    assert len(rows) == 10 and rows[0] == {"player": "VoidWalker", "damage_dealt": 192395.0}
    # The analyst read the full table through the handle: the share is of all ten players' damage.
    share = next(f for f in pkg.analysis.key_findings if f.kind == "share")
    assert "1,235,074" in share.description
    text = pkg.to_json()
    assert "PapiTacos" not in json.dumps(json.loads(text)["data"]["query_results"][0]["data"])
    assert AgentDataPackage.from_json(text) == pkg


def test_an_expired_handle_names_itself_and_cleanup_removes_it(stage_env, tmp_path):
    store = HandleStore(tmp_path / "handles", ttl=timedelta(seconds=-1))  # already expired when written
    env = env_with(stage_env, planner=hand_planner("damage ranking"), inline_row_cap=3, handles=store)
    pkg = answer_question("Who dealt the most damage in the match?", warehouse_root=env.warehouse_root,
                          match_id=MATCH_ID, artifacts_dir=tmp_path / "a", planner=hand_planner("damage ranking"),
                          followups=False, handles_dir=tmp_path / "fresh", inline_row_cap=3)
    assert pkg.primary_result.handle is not None
    stale = data_engineer(query_analyst(new_package("Who dealt the most damage in the match?", MATCH_ID), env), env)
    handle_id = stale.primary_result.handle.handle_id
    with pytest.raises(HandleExpiredError, match=handle_id):
        store.get(handle_id)
    assert store.cleanup_expired() == [handle_id]
    assert store.ids() == []


def test_refusal_package_for_a_question_the_log_cannot_answer(stage_env):
    pkg = answer_question("What was the weather during the match?", warehouse_root=stage_env.warehouse_root,
                          match_id=MATCH_ID, artifacts_dir=stage_env.artifacts_dir, followups=False)
    assert pkg.version == 5 and pkg.is_refusal
    assert any(e.error_type == "unanswerable" and e.handled for e in pkg.errors)
    answer = pkg.response.direct_answer
    assert "cannot" in answer.lower()
    assert not any(ch.isdigit() for ch in answer + "".join(pkg.response.key_insights))
    assert pkg.response.key_insights, "a refusal suggests what can be asked instead"
    assert pkg.query_analysis.sql_queries == () and pkg.data is not None and pkg.data.query_results == ()
    assert pkg.final_output and "cannot" in pkg.final_output.markdown
    assert AgentDataPackage.from_json(pkg.to_json()) == pkg
