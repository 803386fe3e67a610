"""The MVP rule, written once: the catalog's `mvp_score` formula.

Questions ("who was the MVP") compile the formula to SQL like any derived metric; the match report
evaluates the same formula here, in Python, over its scoreboard. The two can never disagree because neither
holds its own copy of the weights.

Kills and assists reward fights won, deaths punish them; damage to gods, healing and mitigation (per
thousand) reward every role's way of carrying; objectives taken reward map control.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import sqlglot
from sqlglot import exp

from combat_analysis.catalog import metric

MVP_METRIC = "mvp_score"


@lru_cache(maxsize=1)
def _formula() -> exp.Expr:
    return sqlglot.parse_one(metric(MVP_METRIC).formula or "0", read="duckdb")


def inputs() -> tuple[str, ...]:
    """The metric ids the MVP score reads."""
    return metric(MVP_METRIC).inputs


def _evaluate(node: exp.Expr, values: Mapping[str, float]) -> float:
    if isinstance(node, exp.Paren):
        return _evaluate(node.this, values)
    if isinstance(node, exp.Literal) and not node.is_string:
        return float(node.this)
    if isinstance(node, exp.Column):
        return float(values.get(node.name) or 0.0)
    if isinstance(node, exp.Neg):
        return -_evaluate(node.this, values)
    if isinstance(node, exp.Greatest):
        return max(_evaluate(e, values) for e in (node.this, *node.expressions))
    if isinstance(node, exp.Binary):
        left, right = _evaluate(node.this, values), _evaluate(node.expression, values)
        if isinstance(node, exp.Add):
            return left + right
        if isinstance(node, exp.Sub):
            return left - right
        if isinstance(node, exp.Mul):
            return left * right
        if isinstance(node, exp.Div):
            return left / right
    raise ValueError(f"the MVP formula uses {node.sql()!r}, which mvp.py cannot evaluate")


def mvp_score(stats: Mapping[str, Any]) -> float:
    """One player's MVP score from their figures (keyed by catalog metric id), rounded like the SQL."""
    return round(_evaluate(_formula(), {k: float(v or 0) for k, v in stats.items()}), metric(MVP_METRIC).decimals)


def mvp_ranking(stats_by_player: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, float]]:
    """Players by MVP score, best first; ties broken by name for a stable answer."""
    scored = [(player, mvp_score(stats)) for player, stats in stats_by_player.items()]
    return sorted(scored, key=lambda s: (-s[1], s[0]))


def formula_text() -> str:
    """The rule as a reader sees it: '3 × kills + 1.5 × assists − 2 × deaths + ...'."""
    labels = {m: metric(m).label for m in inputs()}

    def show(node: exp.Expr) -> str:
        if isinstance(node, exp.Column):
            return labels.get(node.name, node.name)
        if isinstance(node, exp.Literal):
            return f"{float(node.this):,.10g}"
        if isinstance(node, exp.Paren):
            return f"({show(node.this)})"
        if isinstance(node, exp.Binary):
            op = {exp.Add: "+", exp.Sub: "−", exp.Mul: "×", exp.Div: "/"}.get(type(node), node.key)
            return f"{show(node.this)} {op} {show(node.expression)}"
        return node.sql()

    return show(_formula())


def scoreboard_stats(rows: Sequence[Mapping[str, Any]], objectives_by_player: Mapping[str, int]) -> dict[str, dict]:
    """The MVP inputs per player from `player_stats` rows plus objectives taken by each player."""
    return {r["player"]: {**{m: r.get(m) for m in inputs() if m in r},
                          "objectives_taken": objectives_by_player.get(r["player"], 0)} for r in rows}
