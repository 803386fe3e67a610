"""QueryPlan -> validated DuckDB SQL, built with sqlglot's expression builders.

User text never reaches the SQL as text: entity names become sqlglot string literals (quoted and escaped by
sqlglot) and values bound from an earlier query become DuckDB named parameters (`$player`). The only SQL
written as text is the catalog's fixed conditions (`metrics.yaml`), which sqlglot parses.

Result shapes (the composer relies on them):
- figures (ranking, lookup, comparison, breakdown, timeline): one column per group-by dimension, named by
  the dimension id, then one column per metric, named by the metric id;
- event lists: first blood `killer, victim, match_second, assists`; winner `winner_team, killer,
  match_second`; objectives `objective, target, killer, team, match_second`; kills `killer, victim,
  match_second, ability, assists, team`;
- build order: `player, seq, item, match_second`;
- roster: `player, team, role, god`; match facts: `match_id, started_at, ended_at, duration_s, winner_team`;
- gold difference: `minute, team1_gold, team2_gold, gold_diff`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import sqlglot
from sqlglot import exp

from combat_analysis.catalog import DIMENSIONS, METRICS, Metric, Source, metric
from combat_analysis.catalog import chains as chain_rule
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan, SqlQuery, TimeWindow
from combat_analysis.planner.vocabulary import Vocabulary
from combat_analysis.warehouse.gate import PARAMETER_NAME, validate_sql

ROSTER_DIMS = ("player", "team", "role", "god")
EVENT_KEY_DIMS = ("ability", "item", "target_kind", "objective", "phase", "victim", "source", "source_kind", "target")
LIST_LIMIT = 500  # event lists and un-ranked figures: every row of one match fits


class PlanError(ValueError):
    """A plan that cannot be compiled (unknown metric, dimension not allowed for a metric...)."""


def compile_plan(plan: QueryPlan, vocab: Vocabulary | None = None) -> list[SqlQuery]:
    """The plan's queries, validated, in the order of `plan.steps()`. A plan with `then` yields its own
    query first, then the dependent one, which binds `$name` parameters from the first query's first row
    and is the primary query. Each of `plan.parts` follows with its own queries (never primary).
    A refusal compiles to no query at all."""
    if plan.intent == Intent.REFUSE:
        return []
    # The same plan is compiled by the planner (to check it) and by the query analyst: compile it once.
    return list(_compiled(plan.model_dump_json()))


def forget_compiled() -> None:
    """Empty the cache of compiled plans (benchmarks measure cold compiles)."""
    _compiled.cache_clear()


@lru_cache(maxsize=256)
def _compiled(plan_json: str) -> tuple[SqlQuery, ...]:
    plan = QueryPlan.model_validate_json(plan_json)
    queries: list[SqlQuery] = []
    for part in (plan, *plan.parts):
        step: QueryPlan | None = part
        bound: dict[str, str] = {}
        parent_id: str | None = None
        while step is not None:
            query_id = f"q{len(queries) + 1}"
            sql = _compile_step(step, frozenset(bound))
            validate_sql(sql)
            parameters = {name: f"{parent_id}.{column}" for name, column in bound.items()}
            queries.append(SqlQuery(query_id=query_id, purpose=step.summary or _purpose(step), sql=sql,
                                    dependencies=(parent_id,) if parent_id else (), parameters=parameters,
                                    primary=part is plan and step.then is None))
            bound, parent_id, step = dict(step.bind), query_id, step.then
    return tuple(queries)


def _purpose(plan: QueryPlan) -> str:
    what = ", ".join(plan.metrics) or plan.intent.value
    by = f" by {', '.join(plan.group_by)}" if plan.group_by else ""
    return f"{plan.intent.value}: {what}{by}"


def _compile_step(plan: QueryPlan, bound: frozenset[str]) -> str:
    if not plan.metrics:
        raise PlanError("the plan names no metric")
    for metric_id in plan.metrics:
        if metric_id not in METRICS:
            raise PlanError(f"unknown metric {metric_id!r}; known: {', '.join(METRICS)}")
    for dim in plan.group_by + tuple(f.dimension for f in plan.filters):
        if dim not in DIMENSIONS:
            raise PlanError(f"unknown dimension {dim!r}; known: {', '.join(DIMENSIONS)}")
    head = metric(plan.metrics[0])
    if plan.condition is not None and (plan.intent == Intent.BUILD_ORDER or head.kind != "figure" or plan.windows):
        raise PlanError("a condition on a figure's value needs one figure per player, team, role or god")
    if head.id == "kill_chains":
        return _kill_chains(plan, bound).sql(dialect="duckdb")
    if plan.intent == Intent.BUILD_ORDER or head.id == "build":
        return _build_order(plan, bound).sql(dialect="duckdb")
    if head.kind == "pattern":
        return _pattern_rows(head, plan, bound).sql(dialect="duckdb")
    if head.kind == "event":
        return _event_list(head, plan, bound).sql(dialect="duckdb")
    if head.kind == "gold_diff":
        return _gold_diff(plan, bound).sql(dialect="duckdb")
    if plan.windows:
        return _periods(plan, bound).sql(dialect="duckdb")
    return _figures(plan, bound).sql(dialect="duckdb")


# ---------------------------------------------------------------------------------------------- values

def _value(value: str | int, bound: frozenset[str]) -> exp.Expr:
    """A filter value as SQL: `$name` of a bound parameter becomes that named parameter, anything else an
    escaped literal. A parameter name is emitted only if it is a plain name, never as text from the plan."""
    if isinstance(value, str) and value.startswith("$") and value[1:] in bound:
        if not PARAMETER_NAME.fullmatch(value[1:]):
            raise PlanError(f"parameter name {value[1:]!r} is not a plain name")
        return exp.Placeholder(this=value[1:])
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise PlanError(f"filter value {value!r} is neither text nor a whole number")
    return exp.convert(value)


def _match(column: exp.Expr, f: Filter, bound: frozenset[str]) -> exp.Expr:
    values = [_value(v, bound) for v in f.values]
    if not values:
        raise PlanError(f"filter on {f.dimension} has no value")
    if f.dimension == "team":
        values = [v if isinstance(v, exp.Placeholder) else exp.convert(_team_number(v)) for v in values]
    if f.op == "=" and len(values) == 1:
        return column.eq(values[0])
    if f.op == "!=" and len(values) == 1:
        return column.neq(values[0])
    condition = column.isin(*values)
    return exp.not_(condition) if f.op == "!=" else condition


def _team_number(value: exp.Expr) -> int:
    text = value.name if isinstance(value, exp.Literal) else str(value)
    digits = "".join(c for c in text if c.isdigit())
    if digits not in ("1", "2"):
        raise PlanError(f"team {text!r} is neither 1 nor 2")
    return int(digits)


def _duration() -> exp.Expr:
    return exp.Subquery(this=exp.select(exp.func("MAX", exp.column("duration_s"))).from_("matches", copy=False))


def _window_conditions(second: exp.Expr, window: TimeWindow | None) -> list[exp.Expr]:
    if window is None:
        return []
    conditions: list[exp.Expr] = []
    if window.from_end_s is not None:
        conditions.append(second >= exp.Sub(this=_duration(), expression=exp.convert(int(window.from_end_s))))
        conditions.append(second <= _duration())
    if window.start_s is not None:
        conditions.append(second >= exp.convert(int(window.start_s)))
    if window.end_s is not None:
        conditions.append(second < exp.convert(int(window.end_s)))
    return conditions


def _window_minutes(window: TimeWindow | None) -> exp.Expr:
    """The window's length in minutes, clipped to the match: the denominator of GPM and DPM."""
    duration = _duration()
    if window is None:
        seconds: exp.Expr = duration
    elif window.from_end_s is not None:
        seconds = exp.func("LEAST", exp.convert(int(window.from_end_s)), duration)
    else:
        end = duration if window.end_s is None else exp.func("LEAST", exp.convert(int(window.end_s)), duration)
        start = exp.convert(max(int(window.start_s or 0), 0))
        seconds = exp.Sub(this=end, expression=start)
    return exp.Div(this=exp.func("NULLIF", exp.paren(seconds), exp.convert(0)), expression=exp.convert(60.0))


def _and(conditions: Sequence[exp.Expr]) -> exp.Expr | None:
    return exp.and_(*conditions) if conditions else None


# --------------------------------------------------------------------------------------------- figures

@lru_cache(maxsize=256)
def _parsed(sql: str, condition: bool = False) -> exp.Expr:
    """The catalog's fixed SQL fragments, parsed once (callers copy before changing them)."""
    return sqlglot.condition(sql, dialect="duckdb") if condition else sqlglot.parse_one(sql, read="duckdb")


def _qualify(condition: exp.Expr, table: str) -> exp.Expr:
    condition = condition.copy()
    for column in condition.find_all(exp.Column):
        if not column.table:
            column.set("table", exp.to_identifier(table))
    return condition


def _source_relation(source: Source) -> exp.Expr:
    if source.from_sql:
        relation = _parsed(source.from_sql).copy()
        if not isinstance(relation, exp.Query):
            raise PlanError(f"source {source.from_sql!r} is not a query")
        return relation.subquery("e")
    if source.table is None:  # the catalog's Source validator requires a table or a from
        raise PlanError("a source names neither a table nor a from")
    return exp.to_table(source.table).as_("e")


def _source_of(m: Metric) -> Source:
    """A base figure's source (the catalog gives every non-derived figure one)."""
    if m.source is None:
        raise PlanError(f"{m.label} has no source table; it is not a base figure")
    return m.source


def _value_column(m: Metric, source: Source) -> str:
    if source.value is None:
        raise PlanError(f"{m.id}: a {m.aggregation} needs the source's value column")
    return source.value


def _dim_expr(dim: str, m: Metric) -> tuple[exp.Expr, bool]:
    """The column a dimension reads for a metric, and whether it needs the roster joined."""
    source = _source_of(m)
    if dim not in m.dimensions:
        raise PlanError(f"{m.label} cannot be split or filtered by {dim}; it allows {', '.join(m.dimensions)}")
    if dim in source.columns:
        return exp.column(source.columns[dim], table="e"), False
    if dim == "player":
        return exp.column(source.actor, table="e"), False
    if dim in ("team", "role", "god"):
        return exp.column(dim, table="p"), True
    if dim == "minute":
        return exp.column("minute", table="e"), False
    if dim == "phase":
        second = exp.column("match_second", table="e")
        return (exp.case()
                .when(second < exp.convert(600), exp.Literal.string("early game"))
                .when(second < exp.convert(1200), exp.Literal.string("mid game"))
                .else_(exp.Literal.string("late game"))), False
    raise PlanError(f"{m.label} has no column for {dim}")


def _base_cte(m: Metric, plan: QueryPlan, bound: frozenset[str]) -> exp.Select:
    source = _source_of(m)
    needs_roster = source.players_only
    keys = []
    for dim in plan.group_by:
        expr, roster = _dim_expr(dim, m)
        needs_roster |= roster
        keys.append((dim, expr))
    conditions: list[exp.Expr] = []
    if source.where:
        conditions.append(_qualify(_parsed(source.where, condition=True), "e"))
    for f in plan.filters:
        expr, roster = _dim_expr(f.dimension, m)
        needs_roster |= roster
        conditions.append(_match(expr, f, bound))
    if not source.timeless:
        conditions += _window_conditions(exp.column("match_second", table="e"), plan.window)
    agg: exp.Expr
    if m.aggregation == "count":
        agg = exp.Count(this=exp.Star())
    elif m.aggregation == "sum":
        agg = exp.func("SUM", exp.column(_value_column(m, source), table="e"))
    elif m.aggregation == "max":
        agg = exp.func("MAX", exp.column(_value_column(m, source), table="e"))
    else:
        raise PlanError(f"{m.id}: aggregation {m.aggregation!r} has no base form")
    select = exp.select(*[expr.as_(dim) for dim, expr in keys], agg.as_(m.id)).from_(_source_relation(source), copy=False)
    if needs_roster:
        select = select.join(exp.to_table("players").as_("p"),
                             on=exp.column(source.actor, table="e").eq(exp.column("player", table="p")), copy=False)
    condition = _and(conditions)
    if condition is not None:
        select = select.where(condition, copy=False)
    if keys:
        select = select.group_by(*[expr for _, expr in keys], copy=False)
    return select


def _base_metrics(metric_ids: Sequence[str]) -> list[Metric]:
    out: list[Metric] = []
    for metric_id in metric_ids:
        m = metric(metric_id)
        if not m.is_figure:
            raise PlanError(f"{m.label} is an event list, not a figure; it cannot share a query with figures")
        for base in ([metric(i) for i in m.inputs] if m.is_derived else [m]):
            if base not in out:
                out.append(base)
    return out


def _keys_relation(plan: QueryPlan, bases: list[Metric], bound: frozenset[str]) -> exp.Expr:
    """Every group the answer has a row for: the roster's teams/roles/players (so a player with no kills
    still shows 0), times the match's minutes for timelines; or the groups the events produce."""
    dims = plan.group_by
    if any(d in EVENT_KEY_DIMS for d in dims):
        parts = [exp.select(*[exp.column(d) for d in dims]).from_(f"m_{b.id}", copy=False) for b in bases]
        keys: exp.Query = parts[0]
        for part in parts[1:]:
            keys = exp.union(keys, part, distinct=True)
        for value in _named_abilities(plan, bound):
            # "A or B, which did more": an ability named is a row of its own, 0 when it did none of the figure
            keys = exp.union(keys, exp.select(value.as_("ability")), distinct=True)
        return keys.subquery("k")
    roster = [d for d in dims if d in ROSTER_DIMS]
    select = exp.select(*[exp.column(d, table="p").as_(d) for d in roster]).distinct(copy=False)
    if not roster:
        select = exp.select(exp.column("minute", table="ev").as_("minute")).distinct(copy=False).from_(
            exp.to_table("events").as_("ev"), copy=False)
        conditions: list[exp.Expr] = [exp.column("match_second", table="ev") >= exp.convert(0)]
        conditions += _window_conditions(exp.column("match_second", table="ev"), plan.window)
        return select.where(_and(conditions), copy=False).subquery("k")
    select = select.from_(exp.to_table("players").as_("p"), copy=False)
    roster_conditions = [_match(exp.column(f.dimension, table="p"), f, bound) for f in plan.filters
                         if f.dimension in ROSTER_DIMS]
    if "minute" in dims:
        select = select.select(exp.column("minute", table="ev").as_("minute"), copy=False).join(
            exp.select(exp.column("minute")).distinct(copy=False).from_("events", copy=False).where(
                _and([exp.column("match_second") >= exp.convert(0)]
                     + _window_conditions(exp.column("match_second"), plan.window)), copy=False).subquery("ev"),
            join_type="cross")
    condition = _and(roster_conditions)
    if condition is not None:
        select = select.where(condition, copy=False)
    return select.subquery("k")


def _named_abilities(plan: QueryPlan, bound: frozenset[str]) -> list[exp.Expr]:
    """The abilities a plan split by ability alone keeps by name ("=" or "in"), as SQL values."""
    if plan.group_by != ("ability",):
        return []
    return [_value(v, bound) for f in plan.filters if f.dimension == "ability" and f.op in ("=", "in")
            for v in f.values]


def _metric_expr(m: Metric, plan: QueryPlan) -> exp.Expr:
    def base_value(base: Metric) -> exp.Expr:
        return exp.func("COALESCE", exp.column(base.id, table=f"m_{base.id}"), exp.convert(0))

    if not m.is_derived:
        return base_value(m)
    formula = _parsed(m.formula).copy()
    replacements = {i: base_value(metric(i)) for i in m.inputs}
    replacements["window_minutes"] = _window_minutes(plan.window)

    def swap(node):
        if isinstance(node, exp.Column) and not node.table and node.name in replacements:
            return exp.paren(replacements[node.name].copy())
        return node

    value = formula.transform(swap)
    return exp.func("ROUND", exp.Cast(this=exp.paren(value), to=exp.DataType.build("DOUBLE")),
                    exp.convert(m.decimals))


_CONDITION_OPS = {">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE}


def _condition_expr(op: str, left: exp.Expr, right: exp.Expr) -> exp.Expr:
    return _CONDITION_OPS[op](this=left, expression=right)


def _figures(plan: QueryPlan, bound: frozenset[str]) -> exp.Select:
    bases = _base_metrics(plan.metrics)
    dims = plan.group_by
    outer_columns: list[exp.Expr] = []
    if dims:
        keys = _keys_relation(plan, bases, bound)
        outer = exp.select().from_(keys, copy=False)
        for base in bases:
            on = _and([exp.column(d, table="k").eq(exp.column(d, table=f"m_{base.id}")) for d in dims])
            outer = outer.join(exp.to_table(f"m_{base.id}"), on=on, join_type="left", copy=False)
        outer_columns += [exp.column(d, table="k").as_(d) for d in dims]
    else:
        outer = exp.select().from_(f"m_{bases[0].id}", copy=False)
        for base in bases[1:]:
            outer = outer.join(exp.to_table(f"m_{base.id}"), join_type="cross", copy=False)
    outer_columns += [_metric_expr(metric(mid), plan).as_(mid) for mid in plan.metrics]
    outer = outer.select(*outer_columns, copy=False)
    for base in bases:
        outer = outer.with_(f"m_{base.id}", as_=_base_cte(base, plan, bound), copy=False)
    headline = exp.column(plan.metrics[0])
    if plan.intent == Intent.TIMELINE or (dims and dims[0] == "minute"
                                          and plan.intent not in (Intent.RANKING, Intent.BREAKDOWN)):
        order = [exp.Ordered(this=exp.column(d)) for d in dims]
    else:
        order = [exp.Ordered(this=headline, desc=plan.order == "desc", nulls_first=False)]
        order += [exp.Ordered(this=exp.column(d)) for d in dims]
    if plan.condition is not None:
        if not dims or plan.intent == Intent.TIMELINE or dims[0] == "minute":
            raise PlanError("a condition on a figure's value needs one figure per player, team, role or god")
        compared = plan.condition.metric or plan.metrics[0]
        if compared not in plan.metrics:
            raise PlanError(f"the condition is on {compared!r}, which is not one of the plan's figures")
        figure = _metric_expr(metric(compared), plan)
        outer = outer.where(_condition_expr(plan.condition.op, figure, exp.convert(plan.condition.value)), copy=False)
    if dims:
        outer = outer.order_by(*order, copy=False)
    if plan.intent == Intent.RANKING and plan.shape == "top" and dims:
        # "top 3" names three rows, and every row tied with the third
        rank = exp.Window(this=exp.Anonymous(this="RANK"), order=exp.Order(expressions=[
            exp.Ordered(this=_metric_expr(metric(plan.metrics[0]), plan), desc=plan.order == "desc",
                        nulls_first=False)]))
        return outer.qualify(rank <= exp.convert(int(plan.limit)), copy=False).limit(LIST_LIMIT, copy=False)
    limit = plan.limit if plan.intent == Intent.RANKING else max(plan.limit, LIST_LIMIT)
    return outer.limit(max(int(limit), 1), copy=False)


def _periods(plan: QueryPlan, bound: frozenset[str]) -> exp.Select:
    """Windows side by side: the figures once per window, each row labelled with its window (`period`),
    in the order the question named them."""
    rest = tuple(d for d in plan.group_by if d != "period")
    parts = []
    for i, window in enumerate(plan.windows):
        one = plan.model_copy(update={"window": window, "windows": (), "group_by": rest, "shape": "auto",
                                      "intent": Intent.COMPARISON if rest else Intent.LOOKUP})
        parts.append(exp.select(exp.Literal.string(window.label).as_("period"), exp.Star())
                     .from_(_figures(one, bound).subquery(f"w{i + 1}"), copy=False))
    union: exp.Query = parts[0]
    for part in parts[1:]:
        union = exp.union(union, part, distinct=False)
    order_case = exp.case()
    for i, window in enumerate(plan.windows):
        order_case = order_case.when(exp.column("period").eq(exp.Literal.string(window.label)), exp.convert(i))
    order = [exp.Ordered(this=order_case)]
    if rest:
        order.append(exp.Ordered(this=exp.column(plan.metrics[0]), desc=plan.order == "desc", nulls_first=False))
        order += [exp.Ordered(this=exp.column(d)) for d in rest]
    return exp.select(exp.Star()).from_(union.subquery("periods"), copy=False).order_by(*order, copy=False).limit(LIST_LIMIT, copy=False)


# ------------------------------------------------------------------------------------ the other shapes

def _gold_diff(plan: QueryPlan, bound: frozenset[str]) -> exp.Select:
    columns = ["minute", "team1_gold", "team2_gold", "gold_diff"]
    select = exp.select(*columns).from_("gold_diff", copy=False)
    conditions = [_match(exp.column("minute"), f, bound) for f in plan.filters if f.dimension == "minute"]
    minute_start = exp.Mul(this=exp.column("minute"), expression=exp.convert(60))
    conditions += _window_conditions(minute_start, plan.window)
    condition = _and(conditions)
    if condition is not None:
        select = select.where(condition, copy=False)
    return select.order_by("minute", copy=False).limit(max(plan.limit, LIST_LIMIT), copy=False)


_ASSIST_ROWS = ("SELECT UNNEST(assists) AS assister, killer, victim, match_second, line_no, killer_team FROM kills "
                "WHERE is_player_kill")


def _event_list(head: Metric, plan: QueryPlan, bound: frozenset[str]) -> exp.Select:
    if head.id == "first_blood":
        return (exp.select("killer", "victim", "match_second", "assists", "ability").from_("kills", copy=False)
                .where(exp.column("is_player_kill"), copy=False).order_by("match_second", "line_no", copy=False).limit(1, copy=False))
    if head.id == "winner":
        titan = exp.to_table("objectives").as_("t")
        on = _and([exp.column("objective", table="t").eq(exp.Literal.string("titan")),
                   exp.column("team", table="t").eq(exp.column("winner_team", table="m"))])
        return (exp.select(exp.column("winner_team", table="m").as_("winner_team"),
                           exp.column("killer", table="t").as_("killer"),
                           exp.column("match_second", table="t").as_("match_second"))
                .from_(exp.to_table("matches").as_("m"), copy=False).join(titan, on=on, join_type="left")
                .order_by(exp.column("match_second", table="t"), copy=False).limit(1, copy=False))
    if head.id == "roster":
        select = exp.select("player", "team", "role", "god").from_("players", copy=False)
        conditions = [_match(exp.column(f.dimension), f, bound) for f in plan.filters if f.dimension in ROSTER_DIMS]
        condition = _and(conditions)
        if condition is not None:
            select = select.where(condition, copy=False)
        return select.order_by("team", "role", "player", copy=False).limit(LIST_LIMIT, copy=False)
    if head.id == "lobby_info":
        # the log's first event to the match start: every event before the match start has a negative match second
        first = exp.func("MIN", exp.column("match_second", table="e"))
        return (exp.select(exp.func("MIN", exp.column("time", table="e")).as_("lobby_started_at"),
                           exp.func("MIN", exp.column("started_at", table="m")).as_("started_at"),
                           exp.func("GREATEST", exp.Neg(this=first), exp.convert(0)).as_("lobby_s"))
                .from_(exp.to_table("events").as_("e"), copy=False).join(exp.to_table("matches").as_("m"), join_type="cross")
                .limit(1, copy=False))
    if head.id == "match_info":
        return exp.select("match_id", "started_at", "ended_at", "duration_s", "winner_team").from_("matches", copy=False).limit(1, copy=False)
    if head.id == "objective_events":
        # "structures last hit by minions": the killer by name or kind narrows the list
        columns = {"player": exp.column("killer"), "team": exp.column("team"), "objective": exp.column("objective"),
                   "source": exp.column("killer"), "source_kind": exp.column("killer_kind"), "target": exp.column("target")}
        # the blow's ability, from the kill row the objective was derived from (the same line of the log)
        blow = exp.select(exp.column("ability", table="k")).from_(exp.to_table("kills").as_("k")).where(
            exp.column("line_no", table="k").eq(exp.column("line_no", table="objectives")))
        select = exp.select("objective", "target", "killer", "team", "match_second",
                            exp.Subquery(this=blow).as_("ability")).from_("objectives", copy=False)
    elif head.id == "kill_events":
        columns = {"team": exp.column("killer_team"), "source": exp.column("killer"), "victim": exp.column("victim")}
        select = (exp.select("killer", "victim", "match_second", "ability", "assists",
                             exp.column("killer_team").as_("team"), "location_x", "location_y")
                  .from_("kills", copy=False).where(exp.column("is_player_kill"), copy=False))
    elif head.id == "death_events":
        # every death of a player, whoever or whatever dealt the blow (METRICS.md: deaths from any source)
        columns = {"player": exp.column("victim"), "team": exp.column("victim_team"), "source": exp.column("killer"),
                   "source_kind": exp.column("killer_kind")}
        select = (exp.select("victim", exp.column("killer").as_("cause"), exp.column("killer_kind").as_("cause_kind"),
                             "match_second", "ability", exp.column("victim_team").as_("team"))
                  .from_("kills", copy=False).where(exp.column("victim_kind").eq(exp.Literal.string("player")), copy=False))
    elif head.id == "assist_events":
        # one row per assist: every player kill with the players credited with assisting it (METRICS.md: assists)
        columns = {"player": exp.column("assister"), "team": exp.column("killer_team")}
        select = (exp.select("assister", "killer", "victim", "match_second", exp.column("killer_team").as_("team"))
                  .from_(exp.Subquery(this=sqlglot.parse_one(_ASSIST_ROWS, read="duckdb"), alias=exp.TableAlias(
                      this=exp.to_identifier("a"))), copy=False))
    else:
        raise PlanError(f"no event list for {head.id!r}")
    conditions = []
    for f in plan.filters:
        if head.id == "kill_events" and f.dimension == "player":
            # a player's kill list holds the kills they made and the deaths they suffered
            conditions.append(exp.or_(_match(exp.column("killer"), f, bound), _match(exp.column("victim"), f, bound)))
        elif f.dimension in columns:
            conditions.append(_match(columns[f.dimension], f, bound))
        else:
            raise PlanError(f"{head.label} cannot be filtered by {f.dimension}")
    conditions += _window_conditions(exp.column("match_second"), plan.window)
    condition = _and(conditions)
    if condition is not None:
        select = select.where(condition, copy=False)
    desc = plan.order == "desc"  # "the last objective": latest first
    if head.id == "death_events" and plan.group_by == ("player",):
        # one row per player, at their first death (their last, latest first): "the first 3 players to die"
        edge = exp.Window(this=exp.RowNumber(), partition_by=[exp.column("victim")], order=exp.Order(expressions=[
            exp.Ordered(this=exp.column("match_second"), desc=desc), exp.Ordered(this=exp.column("line_no"), desc=desc)]))
        select = select.qualify(exp.EQ(this=edge, expression=exp.convert(1)), copy=False)
    return (select.order_by(exp.Ordered(this=exp.column("match_second"), desc=desc),
                            exp.Ordered(this=exp.column("line_no"), desc=desc), copy=False)
            .limit(max(min(int(plan.limit), LIST_LIMIT), 1), copy=False))


def _pattern_rows(head: Metric, plan: QueryPlan, bound: frozenset[str]) -> exp.Select:
    """The rows a match pattern is computed from: the gold curve for a comeback or stomp, the kill feed for
    fights and streaks (a player's own kills and deaths for their streak or death recap)."""
    if head.pattern == "gold_swing":
        return _gold_diff(plan.model_copy(update={"filters": ()}), bound)
    feed = plan.model_copy(update={"order": "asc", "limit": LIST_LIMIT,
                                   "filters": tuple(f for f in plan.filters if f.dimension in ("player", "team"))})
    return _event_list(metric("kill_events"), feed, bound)


def _kill_chains(plan: QueryPlan, bound: frozenset[str]) -> exp.Select:
    """The kill chains the question defined (`catalog/kill_chains.sql`, its values written in as checked integers),
    of the players, sides, roles or gods filtered, wholly inside the window: one row per chain."""
    if plan.chain is None:
        raise PlanError("a kill-chain plan needs the chain the question defined")
    values = chain_rule.parameters(plan.chain)
    parsed = sqlglot.parse_one(chain_rule.CHAIN_SQL, read="duckdb")
    for placeholder in list(parsed.find_all(exp.Placeholder)):
        if placeholder.name not in values:
            raise PlanError(f"the kill-chain SQL names an unknown value {placeholder.name!r}")
        placeholder.replace(exp.convert(int(values[placeholder.name])))
    assert isinstance(parsed, exp.Select)
    conditions = []
    for f in plan.filters:
        if f.dimension not in ROSTER_DIMS:
            raise PlanError(f"kill chains cannot be filtered by {f.dimension}")
        conditions.append(_match(exp.column(f.dimension, table="p" if f.dimension != "player" else "ch"), f, bound))
    conditions += _window_conditions(exp.column("start_second", table="ch"), plan.window)
    conditions += _window_conditions(exp.column("end_second", table="ch"), plan.window)
    condition = _and(conditions)
    return parsed.where(condition, copy=False) if condition is not None else parsed


def _build_order(plan: QueryPlan, bound: frozenset[str]) -> exp.Select:
    select = (exp.select(exp.column("player", table="b").as_("player"), exp.column("seq", table="b").as_("seq"),
                         exp.column("item", table="b").as_("item"),
                         exp.column("match_second", table="b").as_("match_second"))
              .from_(exp.to_table("purchases").as_("b"), copy=False)
              .join(exp.to_table("players").as_("p"),
                    on=exp.column("player", table="b").eq(exp.column("player", table="p")), copy=False))
    conditions = []
    for f in plan.filters:
        if f.dimension in ROSTER_DIMS:
            conditions.append(_match(exp.column(f.dimension, table="p"), f, bound))
        elif f.dimension == "item":
            conditions.append(_match(exp.column("item", table="b"), f, bound))
        else:
            raise PlanError(f"a build order cannot be filtered by {f.dimension}")
    conditions += _window_conditions(exp.column("match_second", table="b"), plan.window)
    condition = _and(conditions)
    if condition is not None:
        select = select.where(condition, copy=False)
    if plan.limit < LIST_LIMIT:
        # the first or last purchases in time ("his last purchase", "who bought Blink Rune first")
        desc = plan.order == "desc"
        return (select.order_by(exp.Ordered(this=exp.column("match_second", table="b"), desc=desc),
                                exp.Ordered(this=exp.column("seq", table="b"), desc=desc), copy=False)
                .limit(max(int(plan.limit), 1), copy=False))
    return (select.order_by(exp.column("team", table="p"), exp.column("player", table="b"),
                            exp.column("seq", table="b"), copy=False)
            .limit(max(plan.limit, LIST_LIMIT), copy=False))
