"""The gate every SQL statement passes before it runs, whichever planner wrote it.

A statement is accepted only if it is exactly one read-only query (SELECT, set operation, WITH) that ends in a
LIMIT and, scope by scope (sqlglot's `optimizer.scope`), reads only:

- warehouse views of `combat_analysis.schema`, unqualified, or a CTE visible in that scope (a CTE defined
  inside a sub-query does not exist outside it, so its name cannot smuggle a file path out), or its own
  sub-queries;
- columns those relations have (or select aliases);
- an allow-list of plain functions, as typed by sqlglot: no table function, no file reader, nothing sqlglot
  does not know (`read_csv`, `glob`, `getenv`, `query`... all fail);
- named parameters (`$player`) with plain names, and exactly the ones bound when the caller says which.

Comments, dollar-quoted strings, control characters (NUL included), non-ASCII names or keywords (look-alike
letters) and very long or deeply nested text are refused before parsing.
Anything else raises `UnsafeSqlError`, naming the offending part and what is available instead.
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Collection
from typing import NamedTuple

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.scope import Scope, build_scope
from sqlglot.tokens import TokenType

from combat_analysis.contracts.schema import WAREHOUSE_SCHEMA

# sqlglot logs a warning when it falls back to a generic Command; the validator reports it instead.
logging.getLogger("sqlglot").setLevel(logging.ERROR)

MAX_SQL_CHARS = 20_000

# Plain functions, by sqlglot's typed expression: a name sqlglot does not know (exp.Anonymous) never passes.
ALLOWED_FUNCTIONS: frozenset[type[exp.Func]] = frozenset({
    exp.Sum, exp.Count, exp.Max, exp.Min, exp.Avg, exp.Coalesce, exp.Greatest, exp.Least, exp.Round, exp.Cast,
    exp.TryCast, exp.Case, exp.If, exp.Nullif, exp.Explode, exp.Floor, exp.Ceil, exp.Abs, exp.ArrayAgg,
    exp.ArrayContains, exp.ArraySize, exp.Length, exp.Lower, exp.Upper, exp.Concat, exp.RowNumber, exp.Rank,
    exp.DenseRank, exp.GroupConcat, exp.CountIf, exp.AnyValue, exp.First, exp.Last, exp.ArgMax, exp.ArgMin,
    exp.Median, exp.Stddev,
})
OPERATORS = (exp.Connector, exp.Binary, exp.Unary, exp.Predicate)  # AND, =, NOT, LIKE...: not calls

FORBIDDEN_NODES = tuple(getattr(exp, name) for name in (
    "Insert", "Update", "Delete", "Drop", "Create", "Alter", "Command", "Pragma", "Copy", "Attach", "Detach",
    "Install", "Set", "Use", "Merge", "TruncateTable", "Transaction", "Commit", "Rollback", "Describe",
    "Summarize", "Export", "LoadData", "Into",
) if hasattr(exp, name))

QUERY_ROOTS = (exp.Select, exp.Union, exp.Intersect, exp.Except)
PARAMETER_NAME = re.compile(r"[a-z_][a-z0-9_]{0,63}")


class UnsafeSqlError(ValueError):
    """SQL that must not run; the message names the offending part."""


def _first_line(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0]


def _tables_hint() -> str:
    return "available tables: " + ", ".join(WAREHOUSE_SCHEMA)


def _check_text(sql: str) -> None:
    if len(sql) > MAX_SQL_CHARS:
        raise UnsafeSqlError(f"SQL is {len(sql):,} characters long; at most {MAX_SQL_CHARS:,} are accepted")
    bad = next((c for c in sql if c not in "\t\n\r" and unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        raise UnsafeSqlError(f"SQL contains the control character U+{ord(bad):04X}")


def _check_tokens(sql: str) -> None:
    try:
        tokens = sqlglot.tokenize(sql, read="duckdb")
    except SqlglotError as error:
        raise UnsafeSqlError(f"SQL does not parse: {_first_line(error)}") from None
    # Comments are where two SQL parsers most often disagree; a planner never writes them.
    if any(token.comments for token in tokens):
        raise UnsafeSqlError("comments are not allowed in SQL")
    for token in tokens:
        if token.token_type == TokenType.HEREDOC_STRING:
            raise UnsafeSqlError("dollar-quoted strings are not allowed in SQL")
        # Names and keywords are ASCII; anything else there is a look-alike (Cyrillic 'а' in 'plаyers').
        if not token.token_type.name.endswith("STRING") and not token.text.isascii():
            odd = next(c for c in token.text if not c.isascii())
            raise UnsafeSqlError(f"{token.text!r} has the non-ASCII character {odd!r} (U+{ord(odd):04X}) outside a "
                                 "string literal")


def _parse(sql: str) -> exp.Expr:
    try:
        statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None and not isinstance(s, exp.Semicolon)]
    except SqlglotError as error:
        raise UnsafeSqlError(f"SQL does not parse: {_first_line(error)}") from None
    except RecursionError:
        raise UnsafeSqlError("SQL is nested too deeply") from None
    if len(statements) != 1:
        kinds = ", ".join(type(s).__name__.upper() for s in statements) or "nothing"
        raise UnsafeSqlError(f"exactly one statement is allowed, found {len(statements)} ({kinds})")
    return statements[0]


def validate_sql(sql: str, parameters: Collection[str] | None = None) -> None:
    """Raise UnsafeSqlError unless `sql` is one safe, bounded, read-only query over the warehouse.

    `parameters`: the names that will be bound when it runs; given, the SQL must use exactly those."""
    if not isinstance(sql, str) or not sql.strip():
        raise UnsafeSqlError("empty SQL")
    used = _checked(sql).parameters
    if parameters is not None and used != set(parameters):
        raise UnsafeSqlError(f"the SQL uses parameters {sorted(used)} but {sorted(parameters)} are bound")


class _Verdict(NamedTuple):
    parameters: frozenset[str]  # the names of the parameters the SQL uses
    views: tuple[str, ...]  # the warehouse views it reads, in the order first named


def views_read(sql: str) -> tuple[str, ...]:
    """The warehouse views a safe statement reads, in the order first named (its CTEs are its own, not views);
    raises UnsafeSqlError as `validate_sql` does.

    >>> views_read("WITH k AS (SELECT * FROM kills) SELECT * FROM k JOIN players USING (player) LIMIT 5")
    ('players', 'kills')
    """
    return _checked(sql).views


# A statement is checked when it is compiled and again, with its parameters, when it runs; a resident process
# asks the same few statements again and again. The verdict depends on the text alone (the schema is fixed),
# so a passed text is remembered; a refused one raises and is never cached.
@functools.lru_cache(maxsize=512)
def _checked(sql: str) -> _Verdict:
    """Every check but the bound parameters'."""
    _check_text(sql)
    root = _parse(sql)
    if not isinstance(root, QUERY_ROOTS):
        raise UnsafeSqlError(f"only SELECT queries are allowed, not {root.key.upper()}: {root.sql()[:80]!r}")
    _check_tokens(sql)
    for node in root.walk():
        if isinstance(node, FORBIDDEN_NODES):
            raise UnsafeSqlError(f"{node.key.upper()} is not allowed inside a query: {node.sql()[:80]!r}")
    if root.args.get("limit") is None:
        raise UnsafeSqlError("the outermost query needs a LIMIT")
    _check_functions(root)
    used = _parameter_names(root)
    try:
        top = build_scope(root)
    except (SqlglotError, RecursionError) as error:
        raise UnsafeSqlError(f"the query's scopes cannot be resolved: {_first_line(error)}") from None
    if top is None:
        raise UnsafeSqlError("the query's scopes cannot be resolved")
    scopes = list(top.traverse())
    _check_relations(root, scopes)
    _check_columns(root, scopes)
    ctes = {c.alias_or_name for c in root.find_all(exp.CTE)}
    return _Verdict(used, tuple(dict.fromkeys(t.name for t in root.find_all(exp.Table) if t.name and t.name not in ctes)))


def _check_functions(root: exp.Expr) -> None:
    for func in root.find_all(exp.Func):
        if isinstance(func, OPERATORS) or type(func) in ALLOWED_FUNCTIONS:
            continue
        shown = func.name if isinstance(func, exp.Anonymous) else func.sql_name()
        allowed = ", ".join(sorted(f.key for f in ALLOWED_FUNCTIONS))
        raise UnsafeSqlError(f"function {shown}() is not allowed (table functions and file access are refused); "
                             f"allowed: {allowed}")


def _parameter_names(root: exp.Expr) -> frozenset[str]:
    used = set()
    for node in root.find_all(exp.Placeholder, exp.Parameter):
        name = node.name
        if isinstance(node, exp.Parameter) or not name or not PARAMETER_NAME.fullmatch(name):
            raise UnsafeSqlError(f"parameter {node.sql()!r} is not a named $parameter with a plain name")
        used.add(name)
    return frozenset(used)


def _check_relations(root: exp.Expr, scopes: list[Scope]) -> None:
    """Every table reference must be a warehouse view, or a CTE visible in the scope it appears in."""
    resolved: set[int] = set()
    for scope in scopes:
        for table in scope.tables:
            resolved.add(id(table))
            if not isinstance(table.this, exp.Identifier):
                raise UnsafeSqlError(f"table functions are not allowed: {table.this.sql()[:80]!r}; {_tables_hint()}")
            if table.args.get("db") or table.args.get("catalog"):
                raise UnsafeSqlError(f"qualified relation {table.sql()!r} is not allowed; {_tables_hint()}")
            if table.name in scope.cte_sources:
                continue
            if table.name not in WAREHOUSE_SCHEMA:
                visible = f"; CTEs here: {', '.join(scope.cte_sources)}" if scope.cte_sources else ""
                raise UnsafeSqlError(f"unknown table {table.name!r}; {_tables_hint()}{visible}")
    for table in root.find_all(exp.Table):  # fail closed: a reference no scope accounts for is refused
        if id(table) not in resolved:
            raise UnsafeSqlError(f"table reference {table.sql()[:80]!r} is outside any query scope")


def _outputs(query: exp.Expr) -> set[str]:
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


def _source_columns(source) -> set[str]:
    if isinstance(source, exp.Table):
        alias = source.args.get("alias")
        if alias is not None and alias.columns:
            return {c.name for c in alias.columns}
        return set(WAREHOUSE_SCHEMA.get(source.name, {"*": None}))
    alias = source.expression.parent.args.get("alias") if source.expression.parent else None
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return {c.name for c in alias.columns}
    return _outputs(source.expression) if source.is_derived_table or source.is_cte else {"*"}


def _check_columns(root: exp.Expr, scopes: list[Scope]) -> None:
    """Columns must exist in a relation of their scope or an enclosing one (correlated sub-queries), or be a
    select alias. sqlglot sometimes lists a nested sub-query's columns with its parent scope, so a name is
    finally looked up among all relations of the statement: column checks make errors clear, while what a
    query may read is decided by the relations."""
    aliases = {node.alias for node in root.find_all(exp.Alias)}
    statement: dict[str, set[str]] = {}
    for scope in scopes:
        for name, source in scope.sources.items():
            statement.setdefault(name, set()).update(_source_columns(source))
    everything = set().union(*statement.values()) if statement else set()
    for scope in scopes:
        visible: dict[str, set[str]] = {}
        outer: Scope | None = scope
        while outer is not None:
            for name, source in outer.sources.items():
                visible.setdefault(name, _source_columns(source))
            outer = outer.parent
        for column in scope.columns:
            if column.is_star:
                continue
            name, table = column.name, column.table
            if table:
                columns = visible.get(table, statement.get(table))
                if columns is None:
                    raise UnsafeSqlError(f"unknown table or alias {table!r} in {column.sql()!r}; in scope: "
                                         f"{', '.join(sorted(visible))}")
                if name not in columns and "*" not in columns:
                    raise UnsafeSqlError(f"unknown column {column.sql()!r}; {table} has: {', '.join(sorted(columns))}")
            elif name not in everything and name not in aliases and "*" not in everything:
                raise UnsafeSqlError(f"unknown column {name!r}; available columns: {', '.join(sorted(everything))}")
