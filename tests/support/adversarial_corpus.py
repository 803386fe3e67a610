"""The adversarial corpus: hostile SQL and text, as an attacker or a misbehaving language model would send it.

Each case is SQL with placeholders filled in per test run: `{secret_csv}`, `{secret_json}`, `{secret_txt}`,
`{secret_parquet}`, `{secret_db}` are canary files outside the warehouse whose content must never come back;
`{other_parquet}` is another match's committed partition (outside the connection's match); `{out}` is a folder
where nothing may ever be created; `{root}` is the warehouse root.

`expect`: "refused" (the validator and the locked connection's `run` refuse it), "timeout" or "rowcap" (valid SQL
that the locked connection must stop). Without the validator (`LockedConnection.execute`), a case that names a
file must still be refused; any other may run, contained: it reads no file and changes nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

from combat_analysis.contracts.schema import TABLES
from combat_analysis.warehouse.store import open_warehouse


@dataclass(frozen=True)
class Case:
    id: str
    sql: str
    expect: str = "refused"
    params: dict = field(default_factory=dict)

    def text(self, places: dict[str, str]) -> str:
        return self.sql.format(**places)

    @property
    def touches_files(self) -> bool:
        """Names a file or URL outside the lake's data: every layer must refuse it outright, never return rows.
        (The lake's own data files, named by path, are refused to planned SQL by the gate; DuckDB's file
        allow-list is the lake's data path and catalog, so without the gate such a statement may read lake data,
        never anything else.)"""
        return any(p in self.sql for p in ("{secret", "{out", "/etc/", "http://"))


def _cases(kind: str, expect: str, *sqls: str) -> list[Case]:
    return [Case(f"{kind}-{i + 1}", sql, expect) for i, sql in enumerate(sqls)]


DDL_DML = _cases(
    "ddl", "refused",
    "DROP TABLE players",
    "DROP VIEW damage",
    "CREATE TABLE stolen AS SELECT * FROM players",
    "CREATE OR REPLACE VIEW players AS SELECT 'mallory' AS player",
    "CREATE MACRO evil(x) AS x",
    "CREATE SEQUENCE s",
    "CREATE TEMP TABLE t AS SELECT 1 AS a",
    "CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 'v')",
    "ALTER VIEW players RENAME TO gone",
    "INSERT INTO players VALUES ('x', 'x', 1, 'x', 'x')",
    "UPDATE players SET team = 1",
    "DELETE FROM kills",
    "TRUNCATE damage",
    "WITH a AS (SELECT * FROM players) INSERT INTO players SELECT * FROM a",
    "MERGE INTO players USING kills ON false WHEN NOT MATCHED THEN INSERT DEFAULT VALUES",
)

COMMANDS = _cases(
    "command", "refused",
    "COPY players TO '{out}/players.csv'",
    "COPY (SELECT * FROM damage) TO '{out}/damage.parquet' (FORMAT parquet)",
    "COPY players FROM '{secret_csv}'",
    "EXPORT DATABASE '{out}/export'",
    "IMPORT DATABASE '{out}/export'",
    "ATTACH '{out}/evil.duckdb' AS evil",
    "ATTACH '{secret_db}' AS s (READ_ONLY)",
    "INSTALL httpfs",
    "FORCE INSTALL httpfs FROM 'http://127.0.0.1:9/'",
    "LOAD httpfs",
    "LOAD '{out}/evil.duckdb_extension'",
    "PRAGMA database_list",
    "PRAGMA enable_profiling",
    "PRAGMA profiling_output = '{out}/profile.txt'",
    "SET enable_external_access = true",
    "SET lock_configuration = false",
    "SET allowed_directories = ['/']",
    "SET threads = 64",
    "SET memory_limit = '64GB'",
    "SET temp_directory = '{out}/spill'",
    "RESET enable_external_access",
    "RESET memory_limit",
    "SET VARIABLE stolen = 1",
    "CALL pragma_version()",
    "CHECKPOINT",
    "DETACH memory",
    "USE memory.main",
    "EXPLAIN ANALYZE SELECT * FROM players",
    "SUMMARIZE players",
)

READERS = _cases(
    "reader", "refused",
    "SELECT * FROM read_csv('{secret_csv}') LIMIT 5",
    "SELECT * FROM read_csv_auto('{secret_csv}') LIMIT 5",
    "SELECT * FROM read_csv(['{secret_csv}', '{secret_csv}']) LIMIT 5",
    "SELECT * FROM read_json('{secret_json}') LIMIT 5",
    "SELECT * FROM read_json_auto('{secret_json}') LIMIT 5",
    "SELECT * FROM read_ndjson('{secret_json}') LIMIT 5",
    "SELECT * FROM read_json_objects('{secret_json}') LIMIT 5",
    "SELECT * FROM read_parquet('{secret_parquet}') LIMIT 5",
    "SELECT * FROM parquet_scan('{other_parquet}') LIMIT 5",
    "SELECT * FROM parquet_metadata('{secret_parquet}') LIMIT 5",
    "SELECT * FROM parquet_schema('{other_parquet}') LIMIT 5",
    "SELECT * FROM parquet_kv_metadata('{secret_parquet}') LIMIT 5",
    "SELECT * FROM read_text('{secret_txt}') LIMIT 5",
    "SELECT * FROM read_blob('{secret_txt}') LIMIT 5",
    "SELECT * FROM glob('{root}/*') LIMIT 5",
    "SELECT * FROM sniff_csv('{secret_csv}') LIMIT 5",
    "SELECT * FROM read_text('/etc/passwd') LIMIT 5",
    "SELECT * FROM read_csv('http://127.0.0.1:9/x.csv') LIMIT 5",
    "SELECT * FROM '{secret_csv}' LIMIT 5",
    "SELECT * FROM \"{secret_json}\" LIMIT 5",
    "SELECT * FROM '{secret_parquet}' LIMIT 5",
    "SELECT * FROM '{other_parquet}' LIMIT 5",
    "SELECT * FROM '{root}/*/*/data.parquet' LIMIT 5",
    "SELECT * FROM '/etc/passwd' LIMIT 5",
    "SELECT * FROM players WHERE player IN (SELECT content FROM read_text('{secret_txt}')) LIMIT 5",
    "SELECT p.player FROM players AS p JOIN '{secret_csv}' AS s ON true LIMIT 5",
    "SELECT player FROM players UNION ALL SELECT content FROM read_text('{secret_txt}') LIMIT 5",
    "SELECT player FROM players ORDER BY (SELECT count(*) FROM read_csv('{secret_csv}')) LIMIT 5",
    "SELECT read_text('{secret_txt}') LIMIT 1",
    "SELECT * FROM query('SELECT * FROM read_text(''{secret_txt}'')') LIMIT 5",
    "SELECT * FROM query_table('{secret_csv}') LIMIT 5",
    "SELECT getenv('HOME') AS home LIMIT 1",
    "SELECT current_setting('allowed_paths') AS paths LIMIT 1",
    "SELECT * FROM duckdb_settings() LIMIT 5",
    "SELECT * FROM duckdb_extensions() LIMIT 5",
)

SCOPES = _cases(
    "scope", "refused",
    # the bypass from issue 11: the CTE exists only inside the sub-query, the outer reference is the file
    "SELECT * FROM (WITH \"{secret_csv}\" AS (SELECT 1 AS a) SELECT a FROM \"{secret_csv}\") s, \"{secret_csv}\" LIMIT 5",
    "SELECT * FROM (WITH \"{other_parquet}\" AS (SELECT 1 AS a) SELECT a FROM \"{other_parquet}\") s, "
    "\"{other_parquet}\" LIMIT 5",
    "SELECT * FROM players WHERE EXISTS (WITH \"{secret_txt}\" AS (SELECT 1 AS a) SELECT a FROM \"{secret_txt}\") "
    "AND player IN (SELECT * FROM \"{secret_txt}\") LIMIT 5",
    "SELECT a FROM (WITH \"{secret_csv}\" AS (SELECT 1 AS a) SELECT a FROM \"{secret_csv}\") AS x UNION ALL "
    "SELECT * FROM \"{secret_csv}\" LIMIT 5",
    "WITH players AS (SELECT * FROM '{secret_csv}') SELECT * FROM players LIMIT 5",
    "WITH \"{secret_csv}\" AS (SELECT * FROM \"{secret_csv}\") SELECT * FROM \"{secret_csv}\" LIMIT 5",
    "WITH a AS (SELECT * FROM \"{secret_csv}\"), \"{secret_csv}\" AS (SELECT 1 AS x) SELECT * FROM a LIMIT 5",
    "SELECT * FROM players, LATERAL (SELECT * FROM \"{secret_csv}\") AS l LIMIT 5",
    "SELECT (SELECT max(column0) FROM \"{secret_csv}\") AS m FROM players LIMIT 5",
    "SELECT * FROM \"{secret_csv}\" AS players LIMIT 5",
    "SELECT * FROM memory.main.players LIMIT 5",
    "SELECT * FROM information_schema.tables LIMIT 5",
    "SELECT * FROM duckdb_tables LIMIT 5",
    "SELECT * FROM pg_catalog.pg_class LIMIT 5",
    "SELECT * FROM sqlite_master LIMIT 5",
)

TEXT_TRICKS = _cases(
    "text", "refused",
    "SELECT * FROM players LIMIT 1 -- '; DROP TABLE players",
    "SELECT * FROM players /* */ LIMIT 1; /* */ DROP TABLE players",
    "SELECT /* nested /* comment */ * FROM \"{secret_csv}\" -- */ LIMIT 1",
    "SELECT player FROM players --\nUNION ALL SELECT content FROM read_text('{secret_txt}') LIMIT 1",
    "SELECT $x$ ' $x$ AS a FROM read_text('{secret_txt}') LIMIT 1",
    "SELECT * FROM pl\u0430yers LIMIT 1",  # Cyrillic а
    "\u0405ELECT * FROM players LIMIT 1",  # Cyrillic Ѕ
    "\uff33\uff25\uff2c\uff25\uff23\uff34 * FROM players LIMIT 1",  # full-width SELECT
    "SEL\u200bECT * FROM players LIMIT 1",  # zero-width space
    "SELECT * FROM players\u202e LIMIT 1",  # right-to-left override
    "SELECT * FROM players LIMIT 1\x00; DROP TABLE players",
    "SELECT * FROM \"players\x00\" LIMIT 1",
    "SELECT * FROM players WHERE player = 'x\x00' LIMIT 1",
)

MULTI = _cases(
    "multi", "refused",
    "SELECT 1 AS a LIMIT 1; DROP TABLE players",
    "SELECT * FROM players LIMIT 1; COPY players TO '{out}/x.csv'",
    "SELECT 1 AS a LIMIT 1;; SET threads = 8",
    "SELECT * FROM players LIMIT 1;\nATTACH '{out}/x.db' AS x",
    "BEGIN TRANSACTION; DROP VIEW players; COMMIT",
    "SELECT * FROM players LIMIT 1; SELECT * FROM read_text('{secret_txt}') LIMIT 1",
)

RESOURCES = [
    Case("runaway-1", "SELECT count(*) AS n FROM damage AS a, damage AS b, damage AS c LIMIT 1", "timeout"),
    Case("runaway-2", "SELECT count(*) AS n FROM events AS a CROSS JOIN events AS b CROSS JOIN events AS c LIMIT 1",
         "timeout"),
    Case("rowcap-1", "SELECT a.line_no FROM events AS a, events AS b LIMIT 5000", "rowcap"),
    Case("size-1", "SELECT " + "(" * 3000 + "1" + ")" * 3000 + " AS a LIMIT 1", "refused"),
    Case("size-2", "SELECT player FROM players WHERE player IN (" + ", ".join(["'x'"] * 6000) + ") LIMIT 1",
         "refused"),
    Case("params-1", "SELECT * FROM players WHERE player = $player OR 1=1 LIMIT 5", "refused",
         {"player OR 1=1": "VoidWalker"}),
    Case("params-2", "SELECT * FROM players WHERE player = ? LIMIT 5", "refused", {"1": "x"}),
    Case("params-3", "SELECT * FROM players WHERE player = $1 LIMIT 5", "refused", {"1": "x"}),
]

CORPUS: list[Case] = DDL_DML + COMMANDS + READERS + SCOPES + TEXT_TRICKS + MULTI + RESOURCES


# --- the arena the corpus is sent into (tests/answer/conftest.py) ------------------------------------------

CANARY = f"CANARY-{uuid.uuid4().hex}"  # a secret planted outside the warehouse: no answer may ever show it
MATCH_A, MATCH_B = "4417029581", "Ränked 'B' #2"


def table_counts(root: Path) -> dict:
    """Rows per match in every warehouse table."""
    con = open_warehouse(root)
    try:
        return {t: con.execute(f"SELECT match_id, count(*) FROM {t} GROUP BY ALL ORDER BY ALL").fetchall()
                for t in TABLES}
    finally:
        con.close()


# SQLite's shared-memory index beside a WAL-mode catalog: every reader of the lake updates it, by design.
SQLITE_READER_FILES = ("-shm",)


def file_stamps(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder` with its size and modification time (but SQLite's readers' index)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith(SQLITE_READER_FILES)}
