"""The five stages: query analyst -> data engineer -> analyst -> visualization -> composer.

Each stage is `stage(pkg, env) -> AgentDataPackage`: it reads the package, never mutates it, and returns the
next version. `StageEnv` holds everything a stage needs from outside the package (warehouse, artifacts
directory, handle store, planner), so the CLI, the Dagster assets and the tests call the same functions.

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
from typing import Any, TypeGuard

from combat_analysis.charts.jobs import DRAW_HERE, ChartDrawer
from combat_analysis.contracts.package import AgentDataPackage, QueryResult
from combat_analysis.contracts.plan import QueryPlan
from combat_analysis.contracts.schema import TABLES
from combat_analysis.keys import path_for_key
from combat_analysis.warehouse.handles import HandleStore, rows_of
from combat_analysis.warehouse.query import LockedConnection, QueryLimits, open_locked

SEASON_TABLES = tuple(t for t in TABLES if t != "events")

# question, vocabulary, previous questions -> plan. The default is the offline planner.
Planner = Callable[[str, Any, Sequence[str]], QueryPlan]

DEFAULT_INLINE_ROWS = 50
DIMENSION_COLUMNS = ("player", "team", "role", "god", "ability", "item", "target_kind", "objective", "phase", "minute",
                     "period", "source", "source_kind", "target", "victim")


def default_planner(question: str, vocab: Any, previous: Sequence[str] = ()) -> QueryPlan:
    from combat_analysis.planner import plan_question

    return plan_question(question, vocab, previous)


@dataclass(frozen=True)
class StageEnv:
    warehouse_root: Path
    match_id: str | None
    artifacts_dir: Path
    handles: HandleStore
    inline_row_cap: int = DEFAULT_INLINE_ROWS
    planner: Planner = field(default=default_planner)
    followups: bool = True
    user_id: str = "anonymous"
    session_id: str = ""
    limits: QueryLimits = QueryLimits()
    # A follow-up's run: the plan, the figures and the answer text only; no follow-ups of its own, no charts,
    # no report files (the main answer's report shows it under "You might also ask").
    answer_only: bool = False
    # How the match was chosen: "named" (--match, --log, a question file), "latest" (no match named on a
    # warehouse of several: the latest one, and the answer says so). `match_id` None on a warehouse of several
    # matches means across matches: the plan's scope words say which (combat_analysis/planner/scope.py).
    scope_how: str = "named"
    # Who draws the charts: here, or a worker process the command line started before the answer (chart_jobs.py).
    charts: ChartDrawer = field(default=DRAW_HERE, compare=False, repr=False)
    # The question's open locked connection while a session lasts (`session()`); None outside one.
    shared: LockedConnection | None = field(default=None, compare=False, repr=False)

    @classmethod
    def build(
        cls,
        *,
        warehouse_root: Path | str,
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
        charts: ChartDrawer = DRAW_HERE,
    ) -> StageEnv:
        artifacts = Path(artifacts_dir)
        return cls(
            warehouse_root=Path(warehouse_root),
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
            charts=charts,
        )

    def connect(self) -> LockedConnection:
        """The locked query connection over the match's warehouse views: every stage, the CLI, the Dagster
        assets, the reports and the follow-ups run planned SQL through it, and it can read nothing else.
        Inside a session it is the session's connection, lent (closing it leaves it open); else a new one."""
        if self.shared is not None:
            return self.shared.lend()
        if self.match_id is None:
            # across matches: the season figures read the layer's tables, never `events`, whose view alone would
            # name every match's snapshot file (a thousand paths to resolve and allow at a thousand matches)
            return open_locked(self.warehouse_root, None, self.limits, tables=SEASON_TABLES)
        return open_locked(self.warehouse_root, self.match_id, self.limits)

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


# -- catalog and result-shape helpers shared by the analyst, visualization and composer ---------------------


@dataclass(frozen=True)
class MetricInfo:
    id: str
    label: str
    unit: str
    decimals: int
    default_chart: str = "bar"
    aggregation: str = "sum"

    @property
    def additive(self) -> bool:
        """Sums and counts: shares of a total make sense."""
        return self.aggregation in ("sum", "count")


def metric_info(metric_id: str) -> MetricInfo:
    """Label, unit and decimals from the catalog; a plain fallback for columns the catalog lacks."""
    try:
        from combat_analysis.catalog import metric

        found = metric(metric_id)
        return MetricInfo(
            id=metric_id,
            label=str(getattr(found, "label", metric_id.replace("_", " "))),
            unit=str(getattr(found, "unit", "") or ""),
            decimals=int(getattr(found, "decimals", 0) or 0),
            default_chart=str(getattr(found, "default_chart", "bar") or "bar"),
            aggregation=str(getattr(found, "aggregation", "sum") or "sum"),
        )
    except Exception:  # noqa: BLE001 - an unknown column still deserves a readable label
        return MetricInfo(id=metric_id, label=metric_id.replace("_", " "), unit="", decimals=0, aggregation="other")


def fmt_number(value: Any, decimals: int = 0) -> str:
    """METRICS.md style: integers with thousands separators, ratios with up to two decimals."""
    if value is None:
        return "n/a"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if decimals <= 0:
        return f"{round(value):,}"
    text = f"{value:,.{min(decimals, 2)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


PREPOSITIONS = ("after", "before", "between", "from", "during", "since", "until", "in", "at", "over", "up")


def window_phrase(plan: QueryPlan | None) -> str:
    """' in the first 10 minutes', ' after minute 20': the plan's window as a phrase to append."""
    if plan is None or plan.window is None or not plan.window.label:
        return ""
    label = plan.window.label.strip()
    if label.split()[0].lower() in PREPOSITIONS:
        return f" {label}"
    return f" in the {label}" if not label.lower().startswith("the ") else f" in {label}"


def fmt_pct(value: float) -> str:
    return f"{value:.1f}%"


def fmt_entity(column: str | None, value: Any) -> str:
    if column in ("team", "winner_team", "killer_team", "victim_team") and value is not None:
        return f"team {value}"
    if column == "minute" and value is not None:
        return f"minute {value}"
    return str(value)


def is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class Shape:
    """How a result table reads: which columns name things and which hold the metrics."""

    dimensions: tuple[str, ...]
    metrics: tuple[str, ...]


def result_shape(rows: list[dict[str, Any]], columns: Sequence[str], plan: QueryPlan | None) -> Shape:
    planned = tuple(plan.metrics) if plan else ()
    metrics = tuple(c for c in columns if c in planned)
    if not metrics:
        numeric = [c for c in columns if c not in DIMENSION_COLUMNS and rows and all(
            is_number(r.get(c)) or r.get(c) is None for r in rows)]
        metrics = tuple(c for c in numeric if c not in ("seq", "match_second", "line_no"))
    dimensions = tuple(c for c in columns if c in DIMENSION_COLUMNS and c not in metrics)
    if not dimensions:
        dimensions = tuple(c for c in columns if c not in metrics and rows and not is_number(rows[0].get(c)))[:1]
    return Shape(dimensions=dimensions, metrics=metrics)


def primary_rows(pkg: AgentDataPackage, env: StageEnv) -> tuple[QueryResult | None, list[dict[str, Any]]]:
    result = pkg.primary_result
    if result is None or result.status != "ok":
        return result, []
    return result, rows_of(result, env.handles)


def all_rows(pkg: AgentDataPackage, env: StageEnv, source: str) -> list[dict[str, Any]]:
    """Rows of a query result (by query id) or of a derived table (by name)."""
    result = pkg.result(source)
    if result is not None:
        return rows_of(result, env.handles) if result.status == "ok" else []
    if pkg.data is not None and source in pkg.data.transformed_data:
        return rows_of(pkg.data.transformed_data[source], env.handles)
    return []


from combat_analysis.stages.analyst import analyst  # noqa: E402
from combat_analysis.stages.composer import composer  # noqa: E402
from combat_analysis.stages.data_engineer import data_engineer  # noqa: E402
from combat_analysis.stages.query_analyst import query_analyst  # noqa: E402
from combat_analysis.stages.visualization import visualization  # noqa: E402

STAGES = (
    ("query_analyst", query_analyst),
    ("data_engineer", data_engineer),
    ("analyst", analyst),
    ("visualization", visualization),
    ("composer", composer),
)

__all__ = [
    "STAGES",
    "StageEnv",
    "analyst",
    "composer",
    "data_engineer",
    "query_analyst",
    "visualization",
]
