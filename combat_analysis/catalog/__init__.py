"""The metric catalog: every figure the planner can answer, loaded once from `metrics.yaml`.

`metric(id)` and `dimension(id)` return frozen objects; `METRICS` and `DIMENSIONS` map ids to them. The YAML
is the single place that says what a metric means, how it aggregates, what it may be grouped by and how it
is charted; the planner and the SQL compiler read nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

CATALOG_FILE = Path(__file__).with_name("metrics.yaml")

CHARTS = frozenset({"bar", "line", "stacked_bar", "kpi", "table", "timeline"})
AGGREGATIONS = frozenset({"sum", "count", "max", "ratio", "series", "event"})


@dataclass(frozen=True)
class Source:
    """Where a base metric's rows come from: a warehouse table (or a fixed sub-select) and its player column."""

    actor: str
    table: str | None = None
    from_sql: str | None = None
    value: str | None = None
    where: str | None = None
    players_only: bool = True  # join the roster, so only players' rows count
    columns: Mapping[str, str] = field(default_factory=dict)  # event-level dimension id -> source column


@dataclass(frozen=True)
class Metric:
    id: str
    label: str
    unit: str
    decimals: int
    aggregation: str
    dimensions: tuple[str, ...]
    default_chart: str
    synonyms: tuple[str, ...]
    weak_synonyms: tuple[str, ...] = ()  # only count when no other metric word is present ("earned")
    kind: str = "figure"  # figure, gold_diff or event
    source: Source | None = None
    formula: str | None = None
    inputs: tuple[str, ...] = ()

    @property
    def is_derived(self) -> bool:
        return self.formula is not None

    @property
    def is_figure(self) -> bool:
        return self.kind == "figure"


@dataclass(frozen=True)
class Dimension:
    id: str
    label: str
    level: str  # "player": an attribute of the roster; "event": a column of the event rows
    synonyms: tuple[str, ...]


def _metric(metric_id: str, raw: dict[str, Any]) -> Metric:
    aggregation = raw["aggregation"]
    src = raw.get("source")
    source = None
    if src:
        source = Source(actor=src["actor"], table=src.get("table"), from_sql=src.get("from"),
                        value=src.get("value"), where=src.get("where"), players_only=src.get("players_only", True),
                        columns=MappingProxyType(dict(src.get("columns") or {})))
    return Metric(
        id=metric_id, label=raw["label"], unit=raw.get("unit") or "",
        decimals=int(raw.get("decimals", 2 if aggregation == "ratio" else 0)),
        aggregation=aggregation, dimensions=tuple(raw.get("dimensions") or ()),
        default_chart=raw["default_chart"], synonyms=tuple(raw.get("synonyms") or ()),
        weak_synonyms=tuple(raw.get("weak_synonyms") or ()),
        kind=raw.get("kind", "figure"), source=source, formula=raw.get("formula"),
        inputs=tuple(raw.get("inputs") or ()),
    )


def _load(path: Path = CATALOG_FILE) -> tuple[Mapping[str, Metric], Mapping[str, Dimension]]:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    dimensions = {
        dim_id: Dimension(id=dim_id, label=spec["label"], level=spec["level"], synonyms=tuple(spec.get("synonyms") or ()))
        for dim_id, spec in raw["dimensions"].items()
    }
    metrics = {metric_id: _metric(metric_id, spec) for metric_id, spec in raw["metrics"].items()}
    _check(metrics, dimensions)
    return MappingProxyType(metrics), MappingProxyType(dimensions)


def _check(metrics: Mapping[str, Metric], dimensions: Mapping[str, Dimension]) -> None:
    """Fail at import on a catalog that cannot compile, rather than on the first question that uses it."""
    for m in metrics.values():
        problems = []
        if m.default_chart not in CHARTS:
            problems.append(f"chart {m.default_chart!r}")
        if m.aggregation not in AGGREGATIONS:
            problems.append(f"aggregation {m.aggregation!r}")
        problems += [f"dimension {d!r}" for d in m.dimensions if d not in dimensions]
        problems += [f"input {i!r}" for i in m.inputs if i not in metrics or metrics[i].is_derived]
        if m.kind == "figure" and (m.source is None) == (m.formula is None):
            problems.append("needs exactly one of source or formula")
        if problems:
            raise ValueError(f"catalog metric {m.id!r}: bad " + ", ".join(problems))


METRICS, DIMENSIONS = _load()


def metric(metric_id: str) -> Metric:
    try:
        return METRICS[metric_id]
    except KeyError:
        raise KeyError(f"unknown metric {metric_id!r}; known: {', '.join(METRICS)}") from None


def dimension(dimension_id: str) -> Dimension:
    try:
        return DIMENSIONS[dimension_id]
    except KeyError:
        raise KeyError(f"unknown dimension {dimension_id!r}; known: {', '.join(DIMENSIONS)}") from None


__all__ = ["METRICS", "DIMENSIONS", "Metric", "Dimension", "Source", "metric", "dimension"]
