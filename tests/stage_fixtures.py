"""Fixtures for the package and stage tests, imported explicitly by each test module.

The sample match is ingested once per test process (conftest.sample_warehouse); every stage runs for real
(DuckDB, Parquet, matplotlib PNGs). `hand_planner` returns real QueryPlan objects for tests that must not
depend on the offline planner's wording.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from combat_analysis.answer.env import StageEnv
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan

os.environ.setdefault("MPLBACKEND", "Agg")

SHARED = Path(__file__).resolve().parents[2] / "shared"
SAMPLE_LOG = SHARED / "data" / "sample_match.log"
DEV_QUESTIONS = SHARED / "eval" / "dev_questions.jsonl"
SCORE_TOOL = SHARED / "tools" / "score.py"
MATCH_ID = "00000001-sample"

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


@pytest.fixture(scope="module")
def stage_warehouse(sample_warehouse) -> Path:
    """The session's sample warehouse (conftest.py): the stages only read it, so it is ingested once per test
    process rather than once per module."""
    return sample_warehouse


@pytest.fixture(scope="module")
def stage_env(stage_warehouse, tmp_path_factory) -> StageEnv:
    artifacts = tmp_path_factory.mktemp("artifacts")
    return StageEnv.build(warehouse_root=stage_warehouse, match_id=MATCH_ID, artifacts_dir=artifacts,
                          followups=False)


def ask_sample(env: StageEnv, question: str):
    """A question answered on the sample match through the real five stages, follow-ups off."""
    from combat_analysis.answer.pipeline import answer_question

    return answer_question(question, warehouse_root=env.warehouse_root, match_id=MATCH_ID,
                           artifacts_dir=env.artifacts_dir, followups=False)


def env_with(env: StageEnv, **changes) -> StageEnv:
    from dataclasses import replace

    return replace(env, **changes)
