"""Each stage on its own, with (pkg, env): dependency binding, SQL errors, skipped stages, follow-ups."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat_analysis.answer.match.analyst import analyst
from combat_analysis.answer.match.composer import composer
from combat_analysis.answer.match.data_engineer import data_engineer
from combat_analysis.answer.match.visualization import visualization
from combat_analysis.answer.query_analyst import query_analyst
from combat_analysis.contracts.package import AgentDataPackage, QueryAnalysis, SqlQueryInfo, new_package
from combat_analysis.contracts.plan import Intent, QueryPlan
from tests.support.stages import MATCH_ID, env_with, hand_planner

LEADER_SQL = "SELECT player, damage_dealt FROM player_stats ORDER BY damage_dealt DESC LIMIT 1"
ABILITY_SQL = ("SELECT ability, sum(amount) AS damage_dealt FROM damage WHERE source = $player "
               "GROUP BY ability ORDER BY damage_dealt DESC LIMIT 500")


def planned(question: str, plan: QueryPlan, queries: list[SqlQueryInfo]) -> AgentDataPackage:
    """A package as the query analyst would leave it, built from real plan and query objects."""
    pkg = new_package(question, MATCH_ID)
    return pkg.next_version(stage="query_analyst", query_analysis=QueryAnalysis(
        query_type=plan.intent.value, intent=plan.summary, sql_queries=tuple(queries), plan=plan))


def test_query_analyst_fills_the_plan_sql_tables_and_followups(stage_env):
    pkg = query_analyst(new_package("How much damage did LunaSol deal?", MATCH_ID), stage_env)
    qa = pkg.query_analysis
    assert pkg.version == 1 and qa.query_type == "lookup" and qa.plan.intent == Intent.LOOKUP
    assert "damage_dealt" in qa.required_data_points
    assert "damage" in qa.required_tables or "player_stats" in qa.required_tables
    assert sum(q.primary for q in qa.sql_queries) == 1
    assert pkg.input.context.focus_entities == ("LunaSol",)
    assert 2 <= len(qa.anticipated_followups) <= 3
    assert any("LunaSol" in f for f in qa.anticipated_followups)


def test_data_engineer_binds_parameters_from_the_first_row_of_a_dependency(stage_env):
    plan = QueryPlan(question="Which ability did the top damage dealer use most?", intent=Intent.BREAKDOWN,
                     metrics=("damage_dealt",), group_by=("ability",), summary="top dealer's abilities")
    pkg = planned(plan.question, plan, [
        SqlQueryInfo(query_id="q1", purpose="top damage dealer", sql=LEADER_SQL),
        SqlQueryInfo(query_id="q2", purpose="their abilities", sql=ABILITY_SQL, dependencies=("q1",),
                     parameters={"player": "q1.player"}, primary=True),
    ])
    out = data_engineer(pkg, stage_env)
    q1, q2 = out.data.query_results
    assert q1.status == q2.status == "ok" and q2.bound_parameters == {"player": "VoidWalker"}
    assert q2.data[0] == {"ability": "Loki Basic Attack", "damage_dealt": 99260.0}
    assert q2.column_types == {"ability": "VARCHAR", "damage_dealt": "DOUBLE"}
    assert q2.result_summary.top_row == q2.data[0] and q2.execution_time_ms >= 0
    final = composer(visualization(analyst(out, stage_env), stage_env), stage_env)
    assert final.response.direct_answer.startswith(
        "VoidWalker's damage dealt by ability: Loki Basic Attack: 99,260 (51.59% of VoidWalker's damage dealt)")


def test_a_sql_error_is_recorded_and_later_stages_carry_on(stage_env):
    plan = QueryPlan(question="broken", intent=Intent.RANKING, metrics=("damage_dealt",), group_by=("player",))
    pkg = planned("broken", plan, [
        SqlQueryInfo(query_id="q1", purpose="bad", sql="SELECT no_such_column FROM players LIMIT 5", primary=False),
        SqlQueryInfo(query_id="q2", purpose="needs q1", sql=ABILITY_SQL, dependencies=("q1",),
                     parameters={"player": "q1.player"}, primary=True),
    ])
    out = data_engineer(pkg, stage_env)
    assert [r.status for r in out.data.query_results] == ["error", "skipped"]
    assert [e.error_type for e in out.errors] == ["sql_error", "missing_data"]
    assert "no_such_column" in out.errors[0].description
    final = composer(visualization(analyst(out, stage_env), stage_env), stage_env)
    assert final.version == 5 and final.response.direct_answer.startswith("I cannot answer that right now")
    assert [s.status for s in final.metadata.processing_history][-3:] == ["skipped", "skipped", "ok"]
    assert final.final_output.html_path


def test_refused_plans_skip_the_data_stages(stage_env):
    env = env_with(stage_env, planner=hand_planner("weather"))
    pkg = query_analyst(new_package("What was the weather during the match?", MATCH_ID), env)
    assert pkg.query_analysis.query_type == "refuse" and pkg.query_analysis.sql_queries == ()
    assert pkg.errors[-1].error_type == "unanswerable"
    pkg = composer(visualization(analyst(data_engineer(pkg, env), env), env), env)
    assert pkg.response.direct_answer == "I cannot answer that: the combat log does not record weather."
    assert pkg.response.key_insights == ("You could ask instead: Who dealt the most damage in the match?",)


def test_charts_land_under_the_query_directory_with_alt_text_and_thumbnails(stage_env):
    env = env_with(stage_env, planner=hand_planner("damage ranking"))
    pkg = new_package("Who dealt the most damage in the match?", MATCH_ID)
    for stage in (query_analyst, data_engineer, analyst, visualization):
        pkg = stage(pkg, env)
    (chart,) = pkg.visualizations.values()
    assert chart.type == "bar_h" and chart.file_path.startswith(str(env.artifacts_dir / pkg.metadata.query_id))
    assert chart.alt_text.startswith("Horizontal bar chart of damage dealt by player")
    assert "VoidWalker 192,395" in chart.alt_text and chart.thumbnail_b64
    assert pkg.analysis.recommended_visualizations[0].reason == "ranking -> sorted horizontal bar"


def test_lookup_gets_context_and_a_kpi(stage_env):
    env = env_with(stage_env, planner=hand_planner("luna lookup"))
    pkg = new_package("How much damage did LunaSol deal?", MATCH_ID)
    for stage in (query_analyst, data_engineer, analyst, visualization, composer):
        pkg = stage(pkg, env)
    assert pkg.response.direct_answer == "LunaSol dealt 99,127 damage."
    context = next(f for f in pkg.analysis.key_findings if f.kind == "context")
    assert context.description.startswith("LunaSol ranks 8 of 10 players on damage dealt")
    assert context.supporting_data[0].query_id == "context_damage_dealt"
    assert "context_damage_dealt" in pkg.data.transformed_data
    assert [v.type for v in pkg.visualizations.values()] == ["kpi"]


QUESTION_WORDS = ["who", "dealt", "most", "damage", "kills", "team", "2", "first", "10", "minutes", "VoidWalker",
                  "compare", "and", "healing", "per", "minute", "build", "'", ";", "--", "DROP", "ÁngelDeth", "?",
                  "weather", "gold", "difference", "objectives", "after", "20", "ability", "🙂", "\"", "%"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.one_of(st.sampled_from(QUESTION_WORDS), st.text(max_size=8)), min_size=0, max_size=8))
def test_any_text_ends_in_a_package_never_an_exception(stage_env, words):
    question = " ".join(words)
    pkg = new_package(question, MATCH_ID)
    for stage in (query_analyst, data_engineer, analyst, visualization, composer):
        pkg = stage(pkg, stage_env)
    assert pkg.version == 5 and pkg.response is not None and pkg.response.direct_answer
    assert pkg.final_output is not None
    assert not [e.description for e in pkg.errors if e.error_type == "unsupported_number"]
    assert AgentDataPackage.from_json(pkg.to_json()) == pkg
