"""The gate every SQL statement passes before it runs, whichever planner wrote it.

A statement is accepted only if it is exactly one read-only query (SELECT, set operation, WITH) over the
warehouse views of `combat_analysis.schema` and its own CTEs and sub-queries, uses only known columns and an
allow-list of plain functions (so no read_csv, glob or other table function can reach a file), and ends in
a LIMIT. Anything else raises `UnsafeSqlError`, naming the offending part and what is available instead.
"""

from __future__ import annotations

import logging

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from combat_analysis.schema import WAREHOUSE_SCHEMA

# sqlglot logs a warning when it falls back to a generic Command; the validator reports it instead.
logging.getLogger("sqlglot").setLevel(logging.ERROR)

ALLOWED_FUNCTIONS = frozenset("""
sum count max min avg coalesce greatest least round cast trycast case if nullif explode unnest floor ceil abs
arrayagg list arraycontains arraysize length lower upper concat rownumber rank denserank groupconcat
countif anyvalue first last argmax argmin median stddev
""".split())

FORBIDDEN_NODES = tuple(getattr(exp, name) for name in (
    "Insert", "Update", "Delete", "Drop", "Create", "Alter", "Command", "Pragma", "Copy", "Attach", "Detach",
    "Install", "Set", "Use", "Merge", "TruncateTable", "Transaction", "Commit", "Rollback", "Describe",
    "Summarize", "Export", "LoadData",
) if hasattr(exp, name))

QUERY_ROOTS = (exp.Select, exp.Union, exp.Intersect, exp.Except)


class UnsafeSqlError(ValueError):
    """SQL that must not run; the message names the offending part."""


def _tables_hint() -> str:
    return "available tables: " + ", ".join(WAREHOUSE_SCHEMA)


def _parse(sql: str) -> exp.Expression:
    try:
        statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None and not isinstance(s, exp.Semicolon)]
    except SqlglotError as error:
        raise UnsafeSqlError(f"SQL does not parse: {str(error).splitlines()[0]}") from None
    if len(statements) != 1:
        kinds = ", ".join(type(s).__name__.upper() for s in statements) or "nothing"
        raise UnsafeSqlError(f"exactly one statement is allowed, found {len(statements)} ({kinds})")
    return statements[0]


def _outputs(query: exp.Expression) -> set[str]:
    """The column names a query or sub-query produces; '*' if it passes columns through."""
    if isinstance(query, exp.Subquery):
        query = query.this
    if isinstance(query, (exp.Union, exp.Intersect, exp.Except)):
        return _outputs(query.left)
    if isinstance(query, exp.Select):
        names = set()
        for projection in query.expressions:
            if isinstance(projection, exp.Star) or (isinstance(projection, exp.Column) and projection.is_star):
                names.add("*")
            elif projection.alias_or_name:
                names.add(projection.alias_or_name)
        return names
    return {"*"}


def validate_sql(sql: str) -> None:
    """Raise UnsafeSqlError unless `sql` is one safe, bounded, read-only query over the warehouse."""
    if not isinstance(sql, str) or not sql.strip():
        raise UnsafeSqlError("empty SQL")
    root = _parse(sql)
    if not isinstance(root, QUERY_ROOTS):
        raise UnsafeSqlError(f"only SELECT queries are allowed, not {root.key.upper()}: {root.sql()[:80]!r}")
    for node in root.walk():
        if isinstance(node, FORBIDDEN_NODES):
            raise UnsafeSqlError(f"{node.key.upper()} is not allowed inside a query: {node.sql()[:80]!r}")
    if root.args.get("limit") is None:
        raise UnsafeSqlError("the outermost query needs a LIMIT")
    _check_functions(root)
    scopes = _check_relations(root)
    _check_columns(root, scopes)


def _check_functions(root: exp.Expression) -> None:
    for func in root.find_all(exp.Func):
        if isinstance(func, (exp.Connector, exp.Binary, exp.Unary, exp.Predicate)):
            continue  # AND, OR, NOT, comparisons: operators, not calls
        name = (func.name if isinstance(func, exp.Anonymous) else func.key).lower().replace("_", "")
        if name not in ALLOWED_FUNCTIONS:
            shown = func.name if isinstance(func, exp.Anonymous) else func.sql_name()
            raise UnsafeSqlError(f"function {shown}() is not allowed (table functions and file access are "
                                 f"refused); allowed: {', '.join(sorted(ALLOWED_FUNCTIONS))}")


def _check_relations(root: exp.Expression) -> dict[str, set[str]]:
    """Check every FROM/JOIN relation; return each name or alias in the statement -> its columns."""
    ctes = {cte.alias_or_name: _outputs(cte.this) for cte in root.find_all(exp.CTE)}
    relations: dict[str, set[str]] = {}
    for table in root.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):
            raise UnsafeSqlError(f"table functions are not allowed: {table.this.sql()[:80]!r}; {_tables_hint()}")
        if table.args.get("db") or table.args.get("catalog"):
            raise UnsafeSqlError(f"qualified relation {table.sql()!r} is not allowed; {_tables_hint()}")
        name = table.name
        if name in ctes:
            columns = ctes[name]
        elif name in WAREHOUSE_SCHEMA:
            columns = set(WAREHOUSE_SCHEMA[name])
        else:
            extra = f"; CTEs: {', '.join(ctes)}" if ctes else ""
            raise UnsafeSqlError(f"unknown table {name!r}; {_tables_hint()}{extra}")
        # The same alias may name different relations in different sub-queries; accept the union.
        relations.setdefault(name, set()).update(columns)
        if table.alias:
            relations.setdefault(table.alias, set()).update(columns)
    for sub in root.find_all(exp.Subquery):
        if sub.alias:
            relations.setdefault(sub.alias, set()).update(_outputs(sub))
    return relations


def _check_columns(root: exp.Expression, relations: dict[str, set[str]]) -> None:
    aliases = {node.alias for node in root.find_all(exp.Alias)}
    everything = set().union(*relations.values()) if relations else set()
    passthrough = "*" in everything
    for column in root.find_all(exp.Column):
        if column.is_star:
            continue
        name, table = column.name, column.table
        if table:
            if table not in relations:
                raise UnsafeSqlError(f"unknown table or alias {table!r} in {column.sql()!r}; in scope: "
                                     f"{', '.join(sorted(relations))}")
            columns = relations[table]
            if name not in columns and "*" not in columns:
                raise UnsafeSqlError(f"unknown column {column.sql()!r}; {table} has: {', '.join(sorted(columns))}")
        elif name not in everything and name not in aliases and not passthrough:
            raise UnsafeSqlError(f"unknown column {name!r}; available columns: {', '.join(sorted(everything))}")
