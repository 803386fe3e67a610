"""Question in, Agent Data Package out: the five stages in order.

The Dagster assets call the stage functions one by one with the same `StageEnv`; `answer_question` is the
in-process path for the CLI and the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from combat_analysis.package import AgentDataPackage, new_package
from combat_analysis.stages import DEFAULT_INLINE_ROWS, STAGES, Planner, StageEnv

__all__ = ["answer_question", "new_package", "run_stages", "StageEnv"]


def run_stages(
    question: str,
    env: StageEnv,
    *,
    previous_queries: Sequence[str] = (),
    user_id: str = "anonymous",
    session_id: str = "",
) -> AgentDataPackage:
    """The five stages on one locked connection, opened once for the question and its follow-ups."""
    pkg = new_package(question, env.match_id, tuple(previous_queries), user_id=user_id, session_id=session_id)
    with env.session() as session:
        for _name, stage in STAGES:
            pkg = stage(pkg, session)
    return pkg


def answer_question(
    question: str,
    *,
    warehouse_root: Path | str,
    match_id: str | None,
    artifacts_dir: Path | str,
    previous_queries: Sequence[str] = (),
    user_id: str = "anonymous",
    session_id: str = "",
    planner: Planner | None = None,
    followups: bool = True,
    handles_dir: Path | str | None = None,
    inline_row_cap: int | None = None,
) -> AgentDataPackage:
    """Answer one question about one match; charts and reports go under artifacts_dir/<query_id>/."""
    env = StageEnv.build(
        warehouse_root=warehouse_root,
        match_id=match_id,
        artifacts_dir=artifacts_dir,
        handles_dir=handles_dir,
        planner=planner,
        followups=followups,
        user_id=user_id,
        session_id=session_id,
        inline_row_cap=inline_row_cap or DEFAULT_INLINE_ROWS,
    )
    return run_stages(question, env, previous_queries=previous_queries, user_id=user_id, session_id=session_id)
