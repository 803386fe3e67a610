"""Question in, Agent Data Package out: the five stages in order.

The Dagster assets call the stage functions one by one with the same `StageEnv`; `answer_question` is the
in-process path for the CLI and the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from combat_analysis.charts.jobs import DRAW_HERE, ChartDrawer
from combat_analysis.contracts.package import AgentDataPackage, new_package
from combat_analysis.stages import DEFAULT_INLINE_ROWS, STAGES, Planner, StageEnv

__all__ = ["MatchChoice", "answer_question", "choose_match", "new_package", "run_stages", "StageEnv"]


@dataclass(frozen=True)
class MatchChoice:
    """Which match a question reads: `match_id` None means across matches (the plan's scope says which);
    `how` is "named", "only" (the warehouse holds one) or "latest" (the default on a warehouse of several)."""

    match_id: str | None
    how: str


def choose_match(question: str, warehouse_root: Path | str, named: str | None = None) -> MatchChoice:
    """A named match wins (--match, --log). Else, on a warehouse of several matches, the question's scope words
    decide: a match id in the question, a set of matches or all of them ("across all matches", "this week",
    "over his last 10 games"), or, with no scope word, the latest match in start order (docs/season.md)."""
    from combat_analysis.planner.read.scope import read_scope
    from combat_analysis.stages.season_stage import warehouse_matches
    from combat_analysis.warehouse.query import open_locked
    from combat_analysis.warehouse.store import WarehouseError, match_ids

    if named:
        return MatchChoice(named, "named")
    known = match_ids(Path(warehouse_root))
    if not known:
        raise WarehouseError("the warehouse holds no match yet: ingest a log first (combat-analysis ingest FILE), "
                             "or ask with --log FILE")
    if len(known) == 1:
        return MatchChoice(known[0], "only")
    with open_locked(warehouse_root, tables=("matches",)) as con:
        matches = warehouse_matches(con)
    latest = max((s for _, s in matches if s is not None), default=None)
    scope = read_scope(question, tuple(m for m, _ in matches), latest)
    if scope.kind == "match" and scope.match_id:
        return MatchChoice(scope.match_id, "named")
    if scope.cross_match:
        return MatchChoice(None, "across")
    return MatchChoice(matches[-1][0], "latest")


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
    scope_how: str = "named",
    charts: ChartDrawer = DRAW_HERE,
) -> AgentDataPackage:
    """Answer one question about one match (or, with `match_id` None on a warehouse of several, across
    matches; `choose_match` picks); charts and reports go under artifacts_dir/<query_id>/, drawn by `charts`
    (here, by default)."""
    env = StageEnv.build(
        scope_how=scope_how,
        warehouse_root=warehouse_root,
        match_id=match_id,
        artifacts_dir=artifacts_dir,
        handles_dir=handles_dir,
        planner=planner,
        followups=followups,
        user_id=user_id,
        session_id=session_id,
        inline_row_cap=inline_row_cap or DEFAULT_INLINE_ROWS,
        charts=charts,
    )
    return run_stages(question, env, previous_queries=previous_queries, user_id=user_id, session_id=session_id)
