"""The metric catalog: complete against METRICS.md, self-consistent, and every figure compiles."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from combat_analysis.catalog import (
    CATALOG_FILE,
    CHARTS,
    DIMENSIONS,
    METRICS,
    CatalogError,
    _load,
    dimension,
    metric,
)
from combat_analysis.contracts.plan import Intent, QueryPlan, TimeWindow
from combat_analysis.contracts.schema import WAREHOUSE_SCHEMA
from combat_analysis.planner import compile_plan
from combat_analysis.warehouse.gate import validate_sql
from tests.support.planner import sample_vocabulary

# Every figure ../shared/METRICS.md defines, and the extra ones.
REQUIRED = {
    "damage_dealt", "damage_to_players", "damage_to_structures", "damage_to_minions", "damage_to_jungle",
    "damage_to_bosses", "damage_taken", "damage_mitigated", "healing_done", "healing_received", "crits", "biggest_hit",
    "kills", "deaths", "assists", "kda", "gold", "experience", "gpm", "dpm", "cc_applied", "items_purchased",
    "towers", "phoenixes", "titans", "gold_furies", "fire_giants", "objectives_taken", "first_blood", "winner",
    "objective_events", "build", "gold_diff",
    # issue 10: K/D, XP per minute, damage by a non-player source, most used ability, the MVP rule, patterns
    "kd", "xpm", "npc_damage", "hits", "mvp_score", "team_fights", "kill_streaks", "gold_swing", "death_recap",
}


def test_catalog_covers_every_metric():
    assert REQUIRED <= set(METRICS)
    assert {"player", "team", "role", "god", "ability", "item", "target_kind", "minute", "phase", "period", "source",
            "source_kind", "target"} <= set(DIMENSIONS)


def test_metric_objects_are_frozen_and_described():
    m = metric("damage_dealt")
    assert (m.label, m.unit, m.decimals, m.aggregation, m.default_chart) == ("damage dealt", "damage", 0, "sum", "bar")
    assert "dmg" in m.synonyms
    with pytest.raises(ValidationError, match="frozen"):
        m.label = "x"  # type: ignore[misc]
    assert metric("kda").decimals == 2 and metric("gpm").decimals == 2 and metric("kills").decimals == 0
    assert dimension("target_kind").label == "target kind"
    with pytest.raises(KeyError, match="unknown metric"):
        metric("mmr")


@pytest.mark.parametrize("metric_id", sorted(METRICS))
def test_metric_is_consistent(metric_id):
    m = metric(metric_id)
    assert m.default_chart in CHARTS
    assert set(m.dimensions) <= set(DIMENSIONS)
    if m.source is not None:
        if m.source.table:
            columns = WAREHOUSE_SCHEMA[m.source.table]
            assert m.source.actor in columns
            assert m.source.value is None or m.source.value in columns
            assert set(m.source.columns.values()) <= set(columns)
    if m.is_derived:
        assert all(metric(i).source is not None for i in m.inputs)


def _write_catalog(tmp_path: Path, edit) -> Path:
    raw = yaml.safe_load(CATALOG_FILE.read_text(encoding="utf-8"))
    edit(raw)
    path = tmp_path / "metrics.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return path


def test_the_catalog_file_itself_loads_through_the_same_checks(tmp_path):
    metrics, dimensions = _load(_write_catalog(tmp_path, lambda raw: None))
    assert set(metrics) == set(METRICS) and set(dimensions) == set(DIMENSIONS)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda raw: raw["metrics"]["kills"].update(synonym=["frags"]), r"metrics\.kills: synonym: Extra inputs"),
    (lambda raw: raw["metrics"]["gold"]["source"].update(colums={"team": "team"}), r"metrics\.gold: source\.colums"),
    (lambda raw: raw["dimensions"]["team"].update(lable="team"), r"dimensions\.team: lable"),
    (lambda raw: raw.update(metric={}), r"metrics\.yaml: metric: Extra inputs"),
    (lambda raw: raw["metrics"]["kda"].update(aggregation="average"), r"metrics\.kda: aggregation"),
    (lambda raw: raw["metrics"]["kd"].update(inputs=["kills", "deaths", "killz"]), r"catalog metric 'kd': bad input 'killz'"),
])
def test_a_misspelled_key_fails_loudly_naming_it(tmp_path, edit, message):
    with pytest.raises(CatalogError, match=message):
        _load(_write_catalog(tmp_path, edit))


def test_yaml_words_that_are_booleans_are_caught():
    # `on` unquoted in a YAML list is the boolean true: the strict model refuses it instead of dropping it
    with pytest.raises(CatalogError, match="synonyms"):
        from combat_analysis.catalog import Dimension, _parsed

        _parsed(Dimension, {"id": "victim", "label": "victim", "level": "event",
                            "synonyms": yaml.safe_load("[victim, on]")}, "test")


def test_synonyms_do_not_collide():
    seen: dict[str, str] = {}
    for m in METRICS.values():
        for phrase in m.synonyms:
            key = phrase.lower()
            assert seen.get(key, m.id) == m.id, f"'{phrase}' names both {seen[key]} and {m.id}"
            seen[key] = m.id


@pytest.mark.parametrize("metric_id", sorted(m.id for m in METRICS.values() if m.is_figure))
@pytest.mark.parametrize("window", [None, TimeWindow(label="last 10 minutes", from_end_s=600)])
def test_every_figure_compiles_for_every_dimension(metric_id, window):
    vocab = sample_vocabulary()
    m = metric(metric_id)
    for dim in [None, *m.dimensions]:
        if dim == "victim":
            continue
        intent = Intent.TIMELINE if dim == "minute" else Intent.RANKING if dim else Intent.LOOKUP
        plan = QueryPlan(question="q", intent=intent, metrics=(metric_id,), group_by=(dim,) if dim else (),
                         window=window)
        (query,) = compile_plan(plan, vocab)
        validate_sql(query.sql)
        assert query.primary
