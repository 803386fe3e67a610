"""The metric catalog: every figure the planner can answer, loaded once from `metrics.yaml`.

`metric(id)` and `dimension(id)` return frozen pydantic models; `METRICS` and `DIMENSIONS` map ids to them.
The YAML is the single place that says what a metric means, how it aggregates, what it may be grouped by
and how it is charted; the planner and the SQL compiler read nothing else. Every model forbids unknown
keys, so a misspelled key in the YAML fails loudly at import instead of being silently dropped.

The package also holds `kinds`: who is who in a log (players, minions, jungle camps, bosses, structures) by name.
May import `contracts`, `formatting`, `settings` and `keys`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

CATALOG_FILE = Path(__file__).with_name("metrics.yaml")

CHARTS = frozenset({"bar", "line", "stacked_bar", "kpi", "table", "timeline"})
AGGREGATIONS = frozenset({"sum", "count", "max", "ratio", "series", "event"})


class CatalogError(ValueError):
    """A catalog file that does not describe metrics the compiler can use."""


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Source(_Strict):
    """Where a base metric's rows come from: a warehouse table (or a fixed sub-select) and its actor column."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    actor: str
    table: str | None = None
    from_sql: str | None = Field(default=None, alias="from")
    value: str | None = None
    where: str | None = None
    players_only: bool = True  # join the roster, so only players' rows count
    timeless: bool = False  # rows with no match time (the roster): a time window does not narrow them
    columns: Mapping[str, str] = Field(default_factory=dict)  # event-level dimension id -> source column

    @model_validator(mode="after")
    def _one_relation(self) -> Source:
        if (self.table is None) == (self.from_sql is None):
            raise ValueError("a source needs exactly one of table or from")
        return self


class Metric(_Strict):
    id: str
    label: str
    unit: str = ""
    decimals: int = 0  # 2 for ratios unless stated
    aggregation: Literal["sum", "count", "max", "ratio", "series", "event"]
    dimensions: tuple[str, ...] = ()
    default_chart: Literal["bar", "line", "stacked_bar", "kpi", "table", "timeline"]
    synonyms: tuple[str, ...] = ()
    weak_synonyms: tuple[str, ...] = ()  # only count when no other metric word is present ("earned")
    noted_synonyms: tuple[str, ...] = ()  # read as this metric, and the reading is stated ("dps")
    # Phrases made of word classes (`$name`, from `word_classes` in the YAML) and plain words: [$size, crit] is every
    # "biggest crit", "fattest crit", "max critical hit"... They join the synonyms of the same strength at load.
    synonym_classes: tuple[tuple[str, ...], ...] = ()
    weak_classes: tuple[tuple[str, ...], ...] = ()
    noted_classes: tuple[tuple[str, ...], ...] = ()
    # figures answered next to this one when a noted phrase named it: a loose word keeps its literal reading in view
    # ("fattest crit" is the biggest hit, and the biggest critical hit is shown beside it)
    noted_with: tuple[str, ...] = ()
    # figures every answer of this one carries beside it, so its sentence can name its parts and base (kill
    # participation: the kills, the assists and the team's kills it is worked out from)
    shown_with: tuple[str, ...] = ()
    # how the figure is said of the one it was done to: damage "against" a target, healing "on" whom it healed
    target_preposition: Literal["against", "on"] = "against"
    kind: Literal["figure", "gold_diff", "event", "pattern"] = "figure"
    source: Source | None = None
    formula: str | None = None
    inputs: tuple[str, ...] = ()
    pattern: str | None = None  # kind pattern: the `patterns.py` function whose rows answer it
    description: str = ""  # one line, for the LLM prompt and the docs
    # never named by its own words: a rate or average made by `per_minute_rates` / `per_player_averages`, or a figure
    # only the planner uses (`players`); chosen from the question's shape, not its name
    generated: bool = False

    @model_validator(mode="before")
    @classmethod
    def _default_decimals(cls, raw: Any) -> Any:
        if isinstance(raw, dict) and raw.get("decimals") is None:
            return {**raw, "decimals": 2 if raw.get("aggregation") == "ratio" else 0}
        return raw

    @property
    def is_derived(self) -> bool:
        return self.formula is not None

    @property
    def is_figure(self) -> bool:
        return self.kind == "figure"


class Dimension(_Strict):
    id: str
    label: str
    level: Literal["player", "event"]  # an attribute of the roster, or a column of the event rows
    synonyms: tuple[str, ...] = ()


class _CatalogFile(_Strict):
    word_classes: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    dimensions: dict[str, dict[str, Any]]
    metrics: dict[str, dict[str, Any]]


def _phrases(sequence: tuple[str, ...], classes: Mapping[str, tuple[str, ...]], where: str) -> list[str]:
    """Every phrase a sequence of word classes (`$name`) and plain words makes: ($size, crit) -> "biggest crit", ..."""
    phrases = [""]
    for part in sequence:
        if part.startswith("$") and part[1:] not in classes:
            raise CatalogError(f"{where}: unknown word class {part!r}; known: {', '.join(classes)}")
        words = classes[part[1:]] if part.startswith("$") else (part,)
        phrases = [f"{p} {w}".strip() for p in phrases for w in words]
    return phrases


def _with_classes(m: Metric, classes: Mapping[str, tuple[str, ...]], where: str) -> Metric:
    """The metric with its phrase classes spelled out into synonyms of the same strength."""

    def spelled(own: tuple[str, ...], sequences: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys([*own, *(p for seq in sequences for p in _phrases(seq, classes, where))]))

    return m.model_copy(update={"synonyms": spelled(m.synonyms, m.synonym_classes),
                                "weak_synonyms": spelled(m.weak_synonyms, m.weak_classes),
                                "noted_synonyms": spelled(m.noted_synonyms, m.noted_classes)})


def _load(path: Path = CATALOG_FILE) -> tuple[Mapping[str, Metric], Mapping[str, Dimension]]:
    metrics, dimensions, _ = _load_all(path)
    return metrics, dimensions


def _load_all(path: Path = CATALOG_FILE) \
        -> tuple[Mapping[str, Metric], Mapping[str, Dimension], Mapping[str, tuple[str, ...]]]:
    # libyaml's safe loader when PyYAML has it: the pure-Python one took a tenth of a second of every start-up
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    raw = _parsed(_CatalogFile, yaml.load(path.read_text(encoding="utf-8"), Loader=loader), path.name)
    dimensions = {dim_id: _parsed(Dimension, {"id": dim_id, **spec}, f"{path.name}: dimensions.{dim_id}")
                  for dim_id, spec in raw.dimensions.items()}
    metrics = {metric_id: _with_classes(_parsed(Metric, {"id": metric_id, **spec}, f"{path.name}: metrics.{metric_id}"),
                                        raw.word_classes, f"{path.name}: metrics.{metric_id}")
               for metric_id, spec in raw.metrics.items()}
    metrics |= per_minute_rates(metrics)
    metrics |= per_player_averages(metrics)
    _check(metrics, dimensions)
    return MappingProxyType(metrics), MappingProxyType(dimensions), MappingProxyType(raw.word_classes)


_RATE_DIMENSIONS = ("player", "team", "role", "god")


def _rate_base(m: Metric) -> str | None:
    """The figure a per-minute rate divides (`gold` for `gpm`), read from its formula."""
    if m.aggregation != "ratio" or len(m.inputs) != 1 or m.formula is None:
        return None
    return m.inputs[0] if " ".join(m.formula.split()) == f"{m.inputs[0]} / window_minutes" else None


def per_minute_rates(metrics: Mapping[str, Metric]) -> dict[str, Metric]:
    """A per-minute rate for every additive player figure the YAML gives none ("assists per minute").

    METRICS.md defines GPM, DPM and XPM as the figure over the duration in minutes; the same division applies to
    any count or sum, so the rates are made here rather than written out twenty times. They carry no synonyms:
    the planner asks for one when a question wants a rate of a figure ("who had the most kills per minute"),
    since "kills per minute" alone is as often the minute-by-minute series."""
    covered = {base for m in metrics.values() if (base := _rate_base(m))}
    rates = {}
    for m in metrics.values():
        # a figure only the planner uses (the roster's size, a team's kills counted for each of its players) has no rate
        if (m.kind != "figure" or m.is_derived or m.aggregation not in ("sum", "count") or "player" not in m.dimensions
                or m.id in covered or m.generated):
            continue
        rate_id = f"{m.id}_per_minute"
        rates[rate_id] = Metric(
            id=rate_id, label=f"{m.label} per minute", unit=f"{m.unit}/min" if m.unit else "", aggregation="ratio",
            decimals=2, default_chart="bar", dimensions=tuple(d for d in _RATE_DIMENSIONS if d in m.dimensions),
            formula=f"{m.id} / window_minutes", inputs=(m.id,),
            description=f"{m.label} divided by the duration in minutes (as METRICS.md defines GPM and DPM)",
            generated=True)
    return rates


_GROUP_DIMENSIONS = ("team", "role", "god")


def per_player_averages(metrics: Mapping[str, Metric]) -> dict[str, Metric]:
    """The average per player of every additive figure and per-minute rate, for a group of players.

    METRICS.md: a role's average is its total divided by the number of players with the role (2); a team's is over
    its five. "Which role had the highest average damage" ranks these. The divisor is the `players` figure, the
    roster counted per group (no time window narrows it). Ratios that are not a sum over time (KDA, K/D) have no
    such average: their average is the mean of the players' own ratios, which the answer computes from their rows."""
    if "players" not in metrics:
        return {}
    out = {}
    for m in metrics.values():
        base = m.id if m.aggregation in ("sum", "count") and not m.is_derived else _rate_base(m)
        if m.kind != "figure" or base is None or m.id == "players" or m.generated or "role" not in m.dimensions:
            continue  # a figure of players' groups only (not the non-players' damage, not objectives)
        over_time = "" if base == m.id else " / window_minutes"
        out[f"{m.id}_per_player"] = Metric(
            id=f"{m.id}_per_player", label=f"average {m.label} per player", unit=m.unit, aggregation="ratio",
            decimals=2, default_chart="bar", dimensions=tuple(d for d in _GROUP_DIMENSIONS if d in m.dimensions),
            formula=f"{base}{over_time} / GREATEST(players, 1)", inputs=(base, "players"),
            description=f"{m.label} of a group of players divided by how many players it has (METRICS.md: a role's "
                        f"average is its total over its 2 players)", generated=True)
    return out


def average_of(metric_id: str) -> str | None:
    """The per-player average of a figure (`gold_per_player` for `gold`), or None."""
    return f"{metric_id}_per_player" if f"{metric_id}_per_player" in METRICS else None


def rate_of(metric_id: str) -> str | None:
    """The per-minute rate of a figure (`gpm` for `gold`, `kills_per_minute` for `kills`), or None."""
    return RATE_OF.get(metric_id)


def _parsed(model: type[_Strict], raw: Any, where: str) -> Any:
    """The model for one YAML entry, or a one-line CatalogError naming the entry, the key and the problem."""
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        raise CatalogError(f"{where}: {key}: {first['msg']}") from None


def _check(metrics: Mapping[str, Metric], dimensions: Mapping[str, Dimension]) -> None:
    """Fail at import on a catalog that cannot compile, rather than on the first question that uses it."""
    for m in metrics.values():
        problems = [f"dimension {d!r}" for d in m.dimensions if d not in dimensions]
        problems += [f"input {i!r}" for i in m.inputs if i not in metrics or metrics[i].is_derived]
        problems += [f"noted_with {i!r}" for i in m.noted_with if i not in metrics]
        problems += [f"shown_with {i!r}" for i in m.shown_with if i not in metrics]
        if m.kind == "figure" and (m.source is None) == (m.formula is None):
            problems.append("needs exactly one of source or formula")
        if m.kind == "pattern" and not m.pattern:
            problems.append("pattern metric without a pattern")
        if m.source is not None:
            problems += [f"column dimension {d!r}" for d in m.source.columns if d not in dimensions]
        if problems:
            raise CatalogError(f"catalog metric {m.id!r}: bad " + ", ".join(problems))


# WORD_CLASSES: the YAML's classes of words, for readers that need a class outside a metric's phrases (being
# beaten, said before the cause of a death)
METRICS, DIMENSIONS, WORD_CLASSES = _load_all()
RATE_OF: Mapping[str, str] = MappingProxyType({base: m.id for m in METRICS.values() if (base := _rate_base(m))})


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


__all__ = ["METRICS", "DIMENSIONS", "WORD_CLASSES", "Metric", "Dimension", "Source", "CatalogError", "metric", "dimension",
           "CHARTS", "AGGREGATIONS", "RATE_OF", "rate_of", "per_minute_rates", "per_player_averages", "average_of"]
