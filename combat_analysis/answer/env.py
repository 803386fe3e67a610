"""What every stage needs from outside the package: `StageEnv`.

Each stage is `stage(pkg, env) -> AgentDataPackage`: it reads the package, never mutates it, and returns the
next version. `StageEnv` holds everything a stage needs from outside the package (warehouse, artifacts
directory, handle store, planner, who draws the charts), so the CLI, the Dagster assets and the tests call the
same functions.

Opening the locked connection costs a DuckDB instance and its views (tens of milliseconds), so one question
opens it once: `env.session()` holds one connection for every stage of the question and its follow-ups, and
`env.connect()` lends it to each stage (a stage run on its own, as a Dagster asset is, opens its own).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from combat_analysis.charts.jobs import DRAW_HERE, ChartDrawer
from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.contracts.plan import QueryPlan
from combat_analysis.contracts.schema import TABLES
from combat_analysis.keys import path_for_key
from combat_analysis.planner import plan_question
from combat_analysis.planner.read.scope import ScopeReading
from combat_analysis.settings import Lake
from combat_analysis.warehouse.handles import HandleStore
from combat_analysis.warehouse.query import LockedConnection, QueryLimits, open_locked

SEASON_TABLES = tuple(t for t in TABLES if t != "events")

# question, vocabulary, previous questions -> plan. The default is the offline planner.
Planner = Callable[[str, Any, Sequence[str]], QueryPlan]

DEFAULT_INLINE_ROWS = 50


class FollowupRunner(Protocol):
    """How a follow-up question is answered: the pipeline's `run_stages`, handed to the composer on the env
    (`StageEnv.run_followup`), so that no stage imports the pipeline."""

    def __call__(self, question: str, env: StageEnv, *, previous_queries: Sequence[str] = (),
                 user_id: str = "anonymous", session_id: str = "") -> AgentDataPackage: ...


def default_planner(question: str, vocab: Any, previous: Sequence[str] = ()) -> QueryPlan:
    return plan_question(question, vocab, previous)


@dataclass(frozen=True)
class StageEnv:
    # The warehouse: a `settings.Lake`, or a warehouse folder whose lake the environment settings decide.
    warehouse_root: Lake | Path
    match_id: str | None
    artifacts_dir: Path
    handles: HandleStore
    inline_row_cap: int = DEFAULT_INLINE_ROWS
    planner: Planner = field(default=default_planner)
    followups: bool = True
    user_id: str = "anonymous"
    session_id: str = ""
    limits: QueryLimits = QueryLimits()
    # The plan, the figures and the answer text only; no follow-ups, no charts, no report files: a follow-up's
    # run (the main answer's report shows it under "You might also ask"), or `ask --answer-only`.
    answer_only: bool = False
    # How the match was chosen: "named" (--match, --log, a question file), "latest" (no match named on a
    # warehouse of several: the latest one, and the answer says so). `match_id` None on a warehouse of several
    # matches means across matches: the plan's scope words say which (combat_analysis/planner/read/scope.py).
    scope_how: str = "named"
    # The question's scope words as `pipeline.choose_match` read them, carried so they are read once; None when
    # no match was chosen that way (the query analyst then reads them itself, across matches).
    scope: ScopeReading | None = None
    # Who draws the charts: here, or a worker process the command line started before the answer (charts/jobs.py).
    charts: ChartDrawer = field(default=DRAW_HERE, compare=False, repr=False)
    # How the composer answers the anticipated follow-ups: set by the pipeline (`run_stages`); None answers none.
    run_followup: FollowupRunner | None = field(default=None, compare=False, repr=False)
    # The question's open locked connection while a session lasts (`session()`); None outside one.
    shared: LockedConnection | None = field(default=None, compare=False, repr=False)
    # The lake snapshot to read (`ask --as-of`, a question partition answered before); None: the latest when
    # the question starts. Every stage of one answer reads the snapshot its query analyst pinned.
    snapshot: int | None = None

    @classmethod
    def build(
        cls,
        *,
        warehouse_root: Lake | Path | str,
        match_id: str | None,
        artifacts_dir: Path | str,
        handles_dir: Path | str | None = None,
        planner: Planner | None = None,
        followups: bool = True,
        inline_row_cap: int = DEFAULT_INLINE_ROWS,
        user_id: str = "anonymous",
        session_id: str = "",
        limits: QueryLimits | None = None,
        scope_how: str = "named",
        scope: ScopeReading | None = None,
        charts: ChartDrawer = DRAW_HERE,
        snapshot: int | None = None,
        answer_only: bool = False,
    ) -> StageEnv:
        artifacts = Path(artifacts_dir)
        return cls(
            warehouse_root=warehouse_root if isinstance(warehouse_root, Lake) else Path(warehouse_root),
            snapshot=snapshot,
            match_id=match_id,
            artifacts_dir=artifacts,
            handles=HandleStore(Path(handles_dir) if handles_dir else artifacts / "handles"),
            inline_row_cap=inline_row_cap,
            planner=planner or default_planner,
            followups=followups,
            user_id=user_id,
            session_id=session_id,
            limits=limits or QueryLimits(),
            scope_how=scope_how,
            scope=scope,
            charts=charts,
            answer_only=answer_only,
        )

    def connect(self) -> LockedConnection:
        """The locked query connection over the match's warehouse views: every stage, the CLI, the Dagster
        assets, the reports and the follow-ups run planned SQL through it, and it can read nothing else.
        Inside a session it is the session's connection, lent (closing it leaves it open); else a new one."""
        if self.shared is not None:
            return self.shared.lend()
        if self.match_id is None:
            # across matches: the season figures never read `events`, one row per log line of every match
            return open_locked(self.warehouse_root, None, self.limits, tables=SEASON_TABLES, snapshot=self.snapshot)
        return open_locked(self.warehouse_root, self.match_id, self.limits, snapshot=self.snapshot)

    @contextmanager
    def session(self) -> Iterator[StageEnv]:
        """This env holding one locked connection until the block ends, so every stage of a question reads the
        same snapshot through the same connection (still locked, every statement still validated)."""
        if self.shared is not None:
            yield self
            return
        with self.connect() as con:
            yield dataclasses.replace(self, shared=con)

    def query_dir(self, query_id: str) -> Path:
        """`artifacts_dir/<query id, encoded>`: a query id is a key (a Dagster partition key, say), never a
        path; one that cannot be mapped raises `keys.KeyRefused` before anything is written."""
        path = path_for_key(self.artifacts_dir, query_id, what="query id")
        path.mkdir(parents=True, exist_ok=True)
        return path
