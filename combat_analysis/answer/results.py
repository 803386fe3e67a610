"""Reading a question's results, for the stages of both sequences: the catalog's words for a figure, which
columns of a result name things and which hold figures, and the rows of a result or derived table.

`derived_table` stores what a stage computes beyond plain arithmetic on a result (team totals, pattern rows,
the matches a cross-match answer read) in `data.transformed_data`, inline or, past the inline cap, as a data
handle, so the fidelity check can trace every number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from combat_analysis.answer.env import StageEnv
from combat_analysis.catalog import metric
from combat_analysis.contracts.package import AgentDataPackage, DerivedTable, QueryResult
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.formatting import is_number
from combat_analysis.warehouse.handles import rows_of

DIMENSION_COLUMNS = ("player", "team", "role", "god", "ability", "item", "target_kind", "objective", "phase", "minute",
                     "period", "source", "source_kind", "target", "victim")
# How a dimension is named in a sentence, where its column name would read badly.
DIMENSION_WORDS = {"target_kind": "target kind", "source_kind": "attacker kind"}


def dimension_word(dimension: str | None) -> str:
    """"target kind", "attacker kind", "player"; "row" for none."""
    return DIMENSION_WORDS.get(dimension or "", (dimension or "row").replace("_", " "))


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


PREPOSITIONS = ("after", "before", "between", "from", "during", "since", "until", "in", "at", "over", "up")


def window_phrase(plan: QueryPlan | None) -> str:
    """' in the first 10 minutes', ' after minute 20': the plan's window as a phrase to append."""
    if plan is None or plan.window is None or not plan.window.label:
        return ""
    label = plan.window.label.strip()
    if label.split()[0].lower() in PREPOSITIONS:
        return f" {label}"
    return f" in the {label}" if not label.lower().startswith("the ") else f" in {label}"


def fmt_entity(column: str | None, value: Any) -> str:
    if column in ("team", "winner_team", "killer_team", "victim_team") and value is not None:
        return f"team {value}"
    if column == "minute" and value is not None:
        return f"minute {value}"
    return str(value)


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


def derived_table(rows: list[dict[str, Any]], description: str, env: StageEnv) -> DerivedTable:
    """Rows a stage computed, as a derived table: inline up to the env's inline cap, else through a data handle."""
    columns = tuple(rows[0]) if rows else ()
    if len(rows) > env.inline_row_cap:
        flat = [{k: (", ".join(v) if isinstance(v, list) else v) for k, v in r.items()} for r in rows]
        handle = env.handles.put_rows(flat, source=description)
        return DerivedTable(description=description, columns=columns, row_count=len(rows),
                            rows=tuple(rows[: env.inline_row_cap]), handle=handle)
    return DerivedTable(description=description, columns=columns, row_count=len(rows), rows=tuple(rows))


PAIR_GROUPS = (("player", "target"), ("player", "victim"))  # one player's figure on one other: the pairs ranked
PAIR_TABLE = "pairs"  # the analyst's table of the pairs, each named "<player> on <other>", for the chart


def pair_name(row: dict[str, Any], other: str) -> str:
    """A pair as the answer and its chart name it: "<player> on <other>"."""
    return f"{row.get('player')} on {row.get(other)}"


def pair_ranked(plan: QueryPlan | None) -> bool:
    """The plan ranks pairs of a player and whom they hit or killed ("whose hits on one foe added up highest")."""
    return plan is not None and plan.intent == Intent.RANKING and tuple(plan.group_by) in PAIR_GROUPS \
        and bool(plan.metrics)
