"""Helpers for the tests that run the stages on the sample match (the `stage_env` fixture is in tests/conftest.py).

Every stage runs for real (DuckDB, Parquet, matplotlib PNGs). `hand_planner` returns real QueryPlan objects for
tests that must not depend on the offline planner's wording.
"""

from __future__ import annotations

from dataclasses import replace

from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.pipeline import MATCH, run_stages
from combat_analysis.contracts.package import new_package
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan
from tests.support.paths import SAMPLE_MATCH_ID

MATCH_ID = SAMPLE_MATCH_ID

HAND_PLANS = {
    "damage ranking": QueryPlan(question="Who dealt the most damage in the match?", intent=Intent.RANKING,
                                metrics=("damage_dealt",), group_by=("player",),
                                summary="Rank players by damage dealt."),
    "luna lookup": QueryPlan(question="How much damage did LunaSol deal?", intent=Intent.LOOKUP,
                             metrics=("damage_dealt",), group_by=("player",), focus=("LunaSol",),
                             filters=(Filter(dimension="player", values=("LunaSol",)),)),
    "weather": QueryPlan(question="What was the weather during the match?", intent=Intent.REFUSE,
                         refusal={"reason": "the combat log does not record weather",
                                  "suggestions": ("Who dealt the most damage in the match?",)}),
}


def hand_planner(key: str):
    """A planner that always returns HAND_PLANS[key] (with the asked question filled in)."""

    def plan(question, vocab, previous=()):
        return HAND_PLANS[key].model_copy(update={"question": question})

    return plan


def ask_sample(env: StageEnv, question: str, *, followups: bool = False, answer_only: bool = False,
               previous_queries: tuple[str, ...] = ()):
    """A question answered on the sample match through the real five stages, follow-ups off unless asked for, on
    the env's session if it holds one (`stage_env` does), as `answer_question` answers it."""
    return run_stages(question, replace(env, followups=followups, answer_only=answer_only),
                      previous_queries=previous_queries)


def env_with(env: StageEnv, **changes) -> StageEnv:
    return replace(env, **changes)


def run_each_stage(question, env):
    """The package before any stage and after each of the five, stage by stage (one match's sequence)."""
    versions = [new_package(question, MATCH_ID)]
    for _name, stage in MATCH.stages():
        versions.append(stage(versions[-1], env))
    return versions
