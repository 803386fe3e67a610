"""Parse, check and derive every warehouse table for a batch of logs, in one DuckDB connection.

A batch is one or more log files, each known by a number `f`. Their lines go through DuckDB together, so a
folder of small logs costs a few large statements instead of many small ones per file: one CSV read of every
file, one JSON parse, one pass per derived table. Every row keeps `f` (its file) and, once the files are cut
into matches, `seg` (its match in the batch), and every join, group and window is per `seg`, so no figure
ever mixes two matches. Each match's snapshot is then written with one COPY per table (`copy_tables`).

The orchestration (which files, which matches to stage, errors per file, the commit) is in `ingest`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import duckdb

from combat_analysis.catalog.kinds import entity_kind, entity_team
from combat_analysis.contracts.schema import TABLES, WAREHOUSE_SCHEMA
from combat_analysis.ingest.logfile import (
    MAX_LINE_BYTES,
    START_PATTERN,
    BadLine,
    StartLine,
    Survey,
    fallback_match_id,
    read_line_batches,
    read_start,
)
from combat_analysis.keys import check_key
from combat_analysis.warehouse.store import sql_string, table_file

KNOWN_TYPES = {
    ("start", None),
    ("playermsg", "RoleAssigned"), ("playermsg", "GodHovered"), ("playermsg", "GodPicked"),
    ("itemmsg", "ItemPurchase"),
    ("CombatMsg", "Damage"), ("CombatMsg", "CritDamage"), ("CombatMsg", "CrowdControl"),
    ("CombatMsg", "Healing"), ("CombatMsg", "KillingBlow"),
    ("RewardMsg", "Currency"), ("RewardMsg", "Experience"),
}
TIME_FORMAT = "%Y.%m.%d-%H.%M.%S"
KEYS = ("eventType", "type", "itemid", "itemname", "time", "sourceowner", "targetowner", "value1", "value2",
        "locationx", "locationy", "text", "matchID")
# Beyond 2**53 a double no longer holds every integer, so sums of such amounts would be silently inexact.
MAX_EXACT_VALUE = 2**53
# LZ4 writes as fast as no compression and reads back as fast; snappy is slower to write and no smaller here.
PARQUET_OPTIONS = "FORMAT parquet, COMPRESSION lz4_raw"

# Every table and view a batch creates, dropped before the next batch.
BATCH_VIEWS = ("events", "events_base", "parsed")
BATCH_TABLES = ("batch_files", "parsed_csv", "framed_lines", "parsed_framed", "quarantine_raw", "segs", *TABLES)


@dataclass(frozen=True)
class BatchLog:
    """One file of a batch: its number in the batch (`f`), its path and its survey."""

    f: int
    path: Path
    survey: Survey


@dataclass(frozen=True)
class Segment:
    """One match's lines: `first_line`..`last_line` of the file, including any broken match after it."""

    match_id: str
    first_line: int
    last_line: int


@dataclass(frozen=True)
class StagedSegment:
    """A match to derive and stage: its number in the batch, its file and its lines."""

    seg: int
    log: BatchLog
    segment: Segment


@dataclass(frozen=True)
class SegmentSummary:
    """What a match's manifest says about its content, read once per batch."""

    bad: list[tuple[int, str]]
    event_counts: dict[str, int]
    table_rows: dict[str, int]


def reset(con) -> None:
    """Drop whatever an earlier batch left on the connection."""
    for name in BATCH_VIEWS:
        con.execute(f"DROP VIEW IF EXISTS {name}")
    for name in BATCH_TABLES:
        con.execute(f"DROP TABLE IF EXISTS {name}")


# -- reading and parsing -------------------------------------------------------------------------------------------
#
# DuckDB's CSV reader takes the files, one VARCHAR row per line (the unit separator never occurs in valid JSON,
# and no quoting), and each line is parsed as it streams by: the raw line is kept only where it is needed
# later (a line that does not parse, holds untrustworthy values, is or tries to be a start event, or is over
# the limit), so a batch never holds its logs' text twice.

CLEAN = "rtrim(line, ' ,' || chr(13) || chr(9))"  # a line without its CR and trailing comma
KNOWN = " OR ".join(
    f"(event_type = '{e}' AND " + ("type IS NULL" if t is None else f"type = '{t}'") + ")" for e, t in KNOWN_TYPES
)
PARSED_COLUMNS = ("event_type", "type", "time", "source", "target", "item_id", "item_name", "value1", "value2",
                  "location_x", "location_y", "text", "raw", "problem", "line")


def _value_problem() -> str:
    """SQL for why a parsed line's values cannot be trusted, or NULL: a numeric field that is present but not
    a finite number within exact range, negative damage, mitigation or healing, an itemid that is no integer."""
    checks = []
    for column, raw in (("value1", "v1"), ("value2", "v2"), ("location_x", "lx"), ("location_y", "ly")):
        field_name = {"location_x": "locationx", "location_y": "locationy"}.get(column, column)
        # The cast is tested first, so only the rare line whose number does not parse pays for the trim.
        checks.append(f"WHEN NOT coalesce(isfinite({column}), false) AND trim({raw}) <> '' "
                      f"THEN 'invalid value: {field_name} is not a finite number (' || left(trim({raw}), 40) || ')'")
        checks.append(f"WHEN abs({column}) > {MAX_EXACT_VALUE} "
                      f"THEN 'invalid value: {field_name} is out of range (' || left({raw}, 40) || ')'")
    checks.append("WHEN event_type = 'CombatMsg' AND type IN ('Damage', 'CritDamage') AND value1 < 0 "
                  "THEN 'invalid value: negative damage (' || trim(v1) || ')'")
    checks.append("WHEN event_type = 'CombatMsg' AND type IN ('Damage', 'CritDamage') AND value2 < 0 "
                  "THEN 'invalid value: negative mitigated damage (' || trim(v2) || ')'")
    checks.append("WHEN event_type = 'CombatMsg' AND type = 'Healing' AND value1 < 0 "
                  "THEN 'invalid value: negative healing (' || trim(v1) || ')'")
    checks.append("WHEN item_id IS NULL AND trim(iid) <> '' "
                  "THEN 'invalid value: itemid is not an integer (' || left(trim(iid), 40) || ')'")
    return "CASE WHEN event_type IS NULL THEN NULL " + " ".join(checks) + " END"


def _parse_select(source: str, parse_time: str, numbered: bool) -> str:
    """Every line of `source` (f, [line_no,] line) as one typed row, unparsable ones with a NULL event_type.
    Unknown event types keep their cleaned line in `raw`; `line` keeps the raw line only where it is needed."""
    struct = "{" + ", ".join(f'"{k}": "VARCHAR"' for k in KEYS) + "}"
    number = "line_no, " if numbered else ""
    return f"""
        SELECT f, {number}event_type, type, time, source, target, item_id, item_name, value1, value2,
               location_x, location_y, text,
               CASE WHEN event_type IS NOT NULL AND NOT coalesce({KNOWN}, false) THEN clean END AS raw,
               problem,
               CASE WHEN event_type IS NULL OR problem IS NOT NULL OR event_type = 'start'
                         OR strlen(line) > {MAX_LINE_BYTES} THEN line END AS line
        FROM (
            SELECT *, {_value_problem()} AS problem
            FROM (
                SELECT f, {number}line, clean, s.eventType AS event_type, s.type AS type,
                       CASE WHEN s.time IS NOT NULL THEN {parse_time}(s.time, '{TIME_FORMAT}') END AS time,
                       s.sourceowner AS source, s.targetowner AS target,
                       TRY_CAST(s.itemid AS BIGINT) AS item_id, s.itemid AS iid, s.itemname AS item_name,
                       TRY_CAST(s.value1 AS DOUBLE) AS value1, s.value1 AS v1,
                       TRY_CAST(s.value2 AS DOUBLE) AS value2, s.value2 AS v2,
                       TRY_CAST(s.locationx AS DOUBLE) AS location_x, s.locationx AS lx,
                       TRY_CAST(s.locationy AS DOUBLE) AS location_y, s.locationy AS ly,
                       s.text AS text
                FROM (SELECT f, {number}line, clean, try(from_json(clean, '{struct}')) AS s
                      FROM (SELECT *, {CLEAN} AS clean FROM {source}))))
    """


def _csv_source(files: list[tuple[int, Path]]) -> str:
    # A line longer than the limit makes the reader fail, and the file takes the framing path, which cuts it.
    listed = ", ".join(sql_string(str(p)) for _, p in files)
    numbers = ", ".join(str(int(f)) for f, _ in files)
    return (f"(SELECT [{numbers}][CAST(file_index AS BIGINT) + 1] AS f, coalesce(raw, '') AS line "
            f"FROM read_csv([{listed}], columns={{'raw': 'VARCHAR'}}, header=false, delim=chr(31), quote='', "
            f"escape='', auto_detect=false, compression='auto', max_line_size={MAX_LINE_BYTES + 64}))")


def _insert_parsed(con, table: str, source: str, numbered: bool) -> None:
    # strptime is much faster than try_strptime; only a log with a malformed time pays for the latter.
    try:
        con.execute(f"INSERT INTO {table} {_parse_select(source, 'strptime', numbered)}")
    except (duckdb.ConversionException, duckdb.InvalidInputException):
        con.execute(f"INSERT INTO {table} {_parse_select(source, 'try_strptime', numbered)}")


def read_logs(con, files: list[tuple[int, Path]]) -> None:
    """Parse every file (`f`, path) straight from DuckDB's CSV reader into `parsed_csv`, in file and line
    order. A file the reader refuses (invalid UTF-8, stray separators, a line over the limit) fails the whole
    statement; then each file is read alone, so only the refused ones are left to `settle_logs`."""
    empty = "(SELECT 0 AS f, '' AS line WHERE false)"
    con.execute(f"CREATE TABLE parsed_csv AS {_parse_select(empty, 'try_strptime', False)}")
    try:
        _insert_parsed(con, "parsed_csv", _csv_source(files), numbered=False)
        return
    except duckdb.Error:
        if len(files) == 1:
            return
    for f, path in files:
        try:
            _insert_parsed(con, "parsed_csv", _csv_source([(f, path)]), numbered=False)
        except duckdb.Error:
            continue


def settle_logs(con, logs: list[BatchLog]) -> dict[int, list[BadLine]]:
    """Define `parsed(f, line_no, ...)` for the logs; return, per log, the lines that cannot be kept.

    The CSV reader's rows are a file's lines when it read back exactly the surveyed number of lines and none
    is over the limit; it skips blank lines, so any awkward file is framed in Python instead, which numbers
    every line itself. Insertion keeps the reader's order, so a row's line number is its rowid minus its
    file's first rowid, plus one; `parsed` reads one table at a time (no join), so it keeps that order too.
    The reader drops the byte-order mark itself; a blank line reads back as NULL, which in `parsed` would
    mean unreadable, so it is read as the empty string.
    """
    surveyed = {log.f: log.survey.lines for log in logs}
    first_rows: dict[int, int] = {}
    refused = []
    for f, rows, first_row, long_lines in con.execute(f"""
            SELECT f, count(*), min(rowid), count(*) FILTER (WHERE strlen(line) > {MAX_LINE_BYTES})
            FROM parsed_csv GROUP BY f""").fetchall():
        if rows == surveyed.get(f) and not long_lines:
            first_rows[f] = first_row
        else:
            refused.append(f)
    for f in refused:
        con.execute("DELETE FROM parsed_csv WHERE f = ?", [f])
    con.execute("CREATE TABLE batch_files (f INTEGER, lines_total BIGINT, cut BOOLEAN)")
    con.executemany("INSERT INTO batch_files VALUES (?, ?, ?)", [(log.f, log.survey.lines, log.survey.cut) for log in logs])
    con.execute("CREATE TABLE framed_lines (f INTEGER, line_no BIGINT, line VARCHAR)")
    unreadable = {log.f: _frame(con, log) for log in logs if log.f not in first_rows}
    empty = "(SELECT 0 AS f, CAST(0 AS BIGINT) AS line_no, '' AS line WHERE false)"
    con.execute(f"CREATE TABLE parsed_framed AS {_parse_select(empty, 'try_strptime', True)}")
    if unreadable:
        _insert_parsed(con, "parsed_framed", "framed_lines", numbered=True)
    con.execute("DROP TABLE framed_lines")
    first = _int_list([first_rows.get(f) for f in range(max(surveyed) + 1)])
    columns = ", ".join(PARSED_COLUMNS)
    con.execute(f"""
        CREATE VIEW parsed AS
        SELECT f, rowid - {first}[f + 1] + 1 AS line_no, {columns}
        FROM parsed_csv WHERE {first}[f + 1] IS NOT NULL
        UNION ALL SELECT f, line_no, {columns} FROM parsed_framed
    """)
    return unreadable


def _int_list(values: list[int | None]) -> str:
    """A BIGINT[] literal (NULL for None), for lookups by position in SQL that a view cannot take as a parameter."""
    return "CAST([" + ", ".join("NULL" if v is None else str(int(v)) for v in values) + "] AS BIGINT[])"


def _frame(con, log: BatchLog) -> list[BadLine]:
    """Frame an awkward file in Python (see `logfile`) into `framed_lines`; return its unreadable lines."""
    import numpy as np  # lazy: only awkward files pay for numpy and pandas
    import pandas as pd  # lazy: as above

    unreadable: list[BadLine] = []
    for batch in read_line_batches(log.path):
        unreadable.extend(batch.bad)
        frame = pd.DataFrame({
            "line_no": np.arange(batch.first_line_no, batch.first_line_no + len(batch.texts), dtype=np.int64),
            "line": batch.texts,
        })
        con.register("line_batch", frame)
        con.execute("INSERT INTO framed_lines SELECT $f, line_no, line FROM line_batch", {"f": log.f})
        con.unregister("line_batch")
    return unreadable


# -- checking ----------------------------------------------------------------------------------------------------

def quarantine_lines(con, unreadable: dict[int, list[BadLine]]) -> None:
    """Lines that do not parse, or hold values that cannot be trusted, go to `quarantine_raw` with a reason
    each; `events_base` is every other line (typed, checked columns, no match clock yet)."""
    con.execute("CREATE TABLE quarantine_raw (f INTEGER, line_no BIGINT, reason VARCHAR, raw VARCHAR)")
    con.execute(f"""
        INSERT INTO quarantine_raw
        SELECT f, line_no,
               CASE WHEN trim(clean) = '' THEN 'blank line'
                    WHEN NOT json_valid(clean) AND line_no = lines_total AND cut
                        THEN 'truncated line: the gzip archive ends mid-event, before its end marker'
                    WHEN NOT json_valid(clean) AND line_no = lines_total
                        THEN 'truncated line: the file ends mid-event'
                    WHEN NOT json_valid(clean) THEN 'malformed JSON'
                    WHEN json_type(clean) <> 'OBJECT' THEN 'not a JSON object'
                    ELSE 'no eventType' END,
               line
        FROM (SELECT f, line_no, line, {CLEAN} AS clean, lines_total, cut FROM parsed JOIN batch_files USING (f)
              WHERE event_type IS NULL AND line IS NOT NULL)
    """)  # an unreadable line (NULL) is not here: it has its own reason, below
    con.execute("INSERT INTO quarantine_raw SELECT f, line_no, problem, line FROM parsed WHERE problem IS NOT NULL")
    rows = [(f, b.line_no, b.reason, b.raw) for f, bad in unreadable.items() for b in bad]
    if rows:
        con.executemany("INSERT INTO quarantine_raw VALUES (?, ?, ?, ?)", rows)
    con.execute("CREATE VIEW events_base AS SELECT * FROM parsed WHERE event_type IS NOT NULL AND problem IS NULL")


# -- matches in a file: each start event begins one -----------------------------------------------------------

def start_lines(con) -> dict[int, list[tuple[int, str | None, str | None]]]:
    """Per file, every line that is, or tries to be, a start event: (line, raw line if parsed, reason if
    quarantined), in line order."""
    found: dict[int, list] = defaultdict(list)
    for f, line_no, line in con.execute("SELECT f, line_no, line FROM events_base WHERE event_type = 'start'"
                                        ).fetchall():
        found[f].append((line_no, line, None))
    for f, line_no, reason in con.execute(
            "SELECT f, line_no, reason FROM quarantine_raw WHERE regexp_matches(raw, ?)",
            [START_PATTERN.pattern]).fetchall():
        found[f].append((line_no, None, reason))
    return {f: sorted(rows) for f, rows in found.items()}


def split_matches(con, log: BatchLog, starts: list[tuple[int, str | None, str | None]]) -> list[Segment]:
    """Cut one file into matches at its start events. A later start that is broken (malformed, no usable
    matchID, or repeating an earlier match's id) cannot say which match its lines belong to, so they are
    quarantined, never merged into the match before it. Raises `KeyRefused` for an id that cannot be kept."""
    parsed = [read_start(n, raw) for n, raw, reason in starts if reason is None]
    lines = [s for s in parsed if s is not None]
    lines += [StartLine(n, None, reason) for n, raw, reason in starts if reason is not None]
    lines.sort(key=lambda s: s.line_no)
    lines_total = log.survey.lines
    first = lines[0] if lines else None
    if first is not None and first.match_id is not None:
        first_id = first.match_id
    else:
        first_id = check_key(fallback_match_id(log.path), "the match id taken from the file name")
    segments = [Segment(first_id, 1, lines_total)]
    seen = {first_id: first.line_no if first else 1}
    for start in lines[1:]:
        problem = start.problem
        if problem is None and start.match_id in seen:
            problem = f"repeats the match id {start.match_id!r} of line {seen[start.match_id]}"
        previous = segments[-1]
        if problem is None:
            match_id = _match_id_of(start)
            segments[-1] = Segment(previous.match_id, previous.first_line, start.line_no - 1)
            segments.append(Segment(match_id, start.line_no, lines_total))
            seen[match_id] = start.line_no
            continue
        # Lines up to the next start are quarantined; the broken start is checked against the next one.
        next_start = next((s.line_no for s in lines if s.line_no > start.line_no), lines_total + 1)
        _quarantine_range(con, log, start.line_no, next_start - 1, problem)
    return segments


def _match_id_of(start: StartLine) -> str:
    """The match id of a start line without a problem (read_start gives every start without an id one)."""
    if start.match_id is None:
        raise ValueError(f"line {start.line_no}: a start event with neither a match id nor a problem")
    return start.match_id


def _quarantine_range(con, log: BatchLog, first: int, last: int, problem: str) -> None:
    """Quarantine lines `first`..`last` of a file. Their text is read from the file again (only lines that
    did not parse keep theirs in the batch), as the CSV reader gives it: without the line's CR."""
    params = {"f": log.f, "first": first, "last": last}
    con.execute("""
        UPDATE quarantine_raw SET reason = 'broken start event: ' || reason
        WHERE f = $f AND line_no = $first AND NOT starts_with(reason, 'broken start event')
    """, {"f": log.f, "first": first})
    wanted = {n for (n,) in con.execute(
        "SELECT line_no FROM events_base WHERE f = $f AND line_no BETWEEN $first AND $last", params).fetchall()}
    rows = []
    for batch in read_line_batches(log.path):
        if batch.first_line_no > last:
            break
        for offset, text in enumerate(batch.texts):
            line_no = batch.first_line_no + offset
            if line_no in wanted:
                reason = f"broken start event: {problem}" if line_no == first else \
                    f"after the broken start event at line {first}"
                rows.append((log.f, line_no, reason, (text or "").removesuffix("\r")))
    if rows:
        con.executemany("INSERT INTO quarantine_raw VALUES (?, ?, ?, ?)", rows)
    # `parsed` is a view: the lines leave its tables (a CSV-read line by its position, a framed one by number).
    # (A file's first line is never in such a range, so its first rowid still numbers the others.)
    con.execute("""
        DELETE FROM parsed_csv
        WHERE f = $f AND rowid - (SELECT min(rowid) FROM parsed_csv WHERE f = $f) + 1 BETWEEN $first AND $last
    """, params)
    con.execute("DELETE FROM parsed_framed WHERE f = $f AND line_no BETWEEN $first AND $last", params)


def quarantined_lines(con) -> dict[int, int]:
    """Quarantined lines per file."""
    return dict(con.execute("SELECT f, count(*) FROM quarantine_raw GROUP BY f").fetchall())


def first_quarantined(con, f: int, count: int = 5) -> list[tuple[int, str]]:
    return con.execute("SELECT line_no, reason FROM quarantine_raw WHERE f = ? ORDER BY line_no LIMIT ?",
                       [f, count]).fetchall()


# -- the matches to stage: their clocks ----------------------------------------------------------------------------

def create_segments(con, staged: list[StagedSegment]) -> dict[int, tuple[datetime | None, datetime | None]]:
    """Define `segs` for the matches to stage; return each one's (start, end): the first combat, item or
    reward event and the last event of any kind."""
    con.execute("""
        CREATE TABLE segs (seg INTEGER, f INTEGER, match_id VARCHAR, first_line BIGINT, last_line BIGINT,
                           source_file VARCHAR, source_sha256 VARCHAR, started_at TIMESTAMP, ended_at TIMESTAMP,
                           duration_s INTEGER, rate_seconds DOUBLE, last_minute INTEGER)
    """)
    con.executemany("INSERT INTO segs (seg, f, match_id, first_line, last_line, source_file, source_sha256) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(s.seg, s.log.f, s.segment.match_id, s.segment.first_line, s.segment.last_line,
                      s.log.path.name, s.log.survey.sha256) for s in staged])
    bounds = con.execute("""
        SELECT s.seg, min(e.time) FILTER (WHERE e.event_type IN ('itemmsg', 'CombatMsg', 'RewardMsg')), max(e.time)
        FROM segs s LEFT JOIN events_base e ON e.f = s.f AND e.line_no BETWEEN s.first_line AND s.last_line
        GROUP BY s.seg
    """).fetchall()
    return {seg: (start, end) for seg, start, end in bounds}


def drop_segments(con, segs: list[int]) -> None:
    if segs:
        con.execute("DELETE FROM segs WHERE list_contains($segs, seg)", {"segs": segs})


def set_clocks(con, clocks: dict[int, tuple[datetime | None, datetime | None]]) -> None:
    """Each match's own clock: its start, end, duration, the seconds rates divide by and its last minute."""
    rows = []
    for seg, (start, end) in clocks.items():
        duration = int((end - start).total_seconds()) if start is not None and end is not None else None
        rows.append((start, end, duration, float(max(duration or 0, 1)), (duration or 0) // 60, seg))
    con.executemany("UPDATE segs SET started_at = ?, ended_at = ?, duration_s = ?, rate_seconds = ?, "
                    "last_minute = ? WHERE seg = ?", rows)


# -- the derived tables ------------------------------------------------------------------------------------------

def build_events(con) -> None:
    """`events`: the staged matches' parsed lines with their match id and match clock, a view (the clock is
    cheap arithmetic, and a second copy of every event is not). Each row finds its match by its file (when the
    match is the whole file, as most are) or by its file and line range, by position in lists rather than by
    a join, so the rows keep the order of the lines."""
    segs = con.execute("""
        SELECT s.seg, s.f, s.first_line, s.last_line, s.match_id, s.started_at, b.lines_total
        FROM segs s JOIN batch_files b USING (f) ORDER BY s.seg
    """).fetchall()
    file_seg: list[int | None] = [None] * (max(f for _, f, *_ in segs) + 1)
    ranges = []
    for seg, f, first, last, _, _, lines_total in segs:
        if first == 1 and last == lines_total:  # the file's only match
            file_seg[f] = seg
        else:
            ranges.append(f"WHEN f = {int(f)} AND line_no BETWEEN {int(first)} AND {int(last)} THEN {int(seg)}")
    seg_of = f"{_int_list(file_seg)}[f + 1]"
    if ranges:
        seg_of = f"coalesce({seg_of}, CASE {' '.join(ranges)} END)"
    size = segs[-1][0] + 1
    match_ids, starts = ["NULL"] * size, ["NULL"] * size
    for seg, _, _, _, match_id, started_at, _ in segs:
        match_ids[seg] = sql_string(match_id)
        if started_at is not None:
            starts[seg] = sql_string(started_at.isoformat(sep=" "))
    match_id_of = f"CAST([{', '.join(match_ids)}] AS VARCHAR[])[seg + 1]"
    start_of = f"CAST([{', '.join(starts)}] AS TIMESTAMP[])[seg + 1]"
    con.execute(f"""
        CREATE VIEW events AS
        SELECT seg, {match_id_of} AS match_id, line_no, event_type, type, time,
               TRY_CAST(date_diff('second', {start_of}, time) AS INTEGER) AS match_second,
               TRY_CAST(floor(date_diff('second', {start_of}, time) / 60) AS INTEGER) AS minute,
               source, target, item_id, item_name, value1, value2, location_x, location_y, text, raw
        FROM (SELECT CAST({seg_of} AS INTEGER) AS seg, * FROM events_base)
        WHERE seg IS NOT NULL
    """)


def _entities(con) -> None:
    """Every name seen as a source or target of each match, with its kind and team (`entities`' rules)."""
    rosters: dict[int, dict[str, int]] = defaultdict(dict)
    for seg, player, team in con.execute("SELECT seg, player, team FROM players").fetchall():
        rosters[seg][player] = team
    match_of = dict(con.execute("SELECT seg, match_id FROM segs").fetchall())
    columns: tuple[list, ...] = ([], [], [], [], [])
    for seg, name in con.execute("""
        SELECT DISTINCT seg, name FROM (SELECT seg, source AS name FROM events UNION ALL SELECT seg, target FROM events)
        WHERE name IS NOT NULL ORDER BY seg, name
    """).fetchall():
        teams = rosters[seg]
        kind = entity_kind(name, teams)
        for column, value in zip(columns, (seg, match_of[seg], name, kind, entity_team(name, kind, teams)), strict=True):
            column.append(value)
    con.execute("CREATE TABLE entities (seg INTEGER, match_id VARCHAR, name VARCHAR, kind VARCHAR, team INTEGER)")
    if columns[0]:
        con.execute("INSERT INTO entities SELECT unnest($seg), unnest($mid), unnest($name), unnest($kind), "
                    "unnest(CAST($team AS INTEGER[]))",
                    {"seg": columns[0], "mid": columns[1], "name": columns[2], "kind": columns[3], "team": columns[4]})


def derive_tables(con) -> None:
    """Every derived table of METRICS.md, for every staged match at once (each keyed and grouped by `seg`)."""
    con.execute("""
        CREATE TABLE players AS
        WITH roles AS (
            SELECT seg, match_id, source AS player, TRY_CAST(value1 AS INTEGER) AS team,
                   regexp_replace(item_name, '^E', '') AS role,
                   row_number() OVER (PARTITION BY seg, source ORDER BY line_no DESC) AS newest
            FROM events WHERE event_type = 'playermsg' AND type = 'RoleAssigned'),
        picks AS (
            SELECT seg, source AS player, item_name AS god,
                   row_number() OVER (PARTITION BY seg, source ORDER BY time DESC, line_no DESC) AS newest
            FROM events WHERE event_type = 'playermsg' AND type = 'GodPicked')
        SELECT r.seg, r.match_id, r.player, r.team, r.role, p.god
        FROM roles r LEFT JOIN picks p ON p.seg = r.seg AND p.player = r.player AND p.newest = 1
        WHERE r.newest = 1 ORDER BY r.seg, r.team, r.player
    """)
    _entities(con)
    con.execute("""
        CREATE TABLE damage AS
        SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute, e.source, s.kind AS source_kind,
               s.team AS source_team, e.target, t.kind AS target_kind, t.team AS target_team,
               e.item_name AS ability, e.value1 AS amount, e.value2 AS mitigated, e.type = 'CritDamage' AS is_crit,
               e.location_x, e.location_y
        FROM events e LEFT JOIN entities s ON s.seg = e.seg AND s.name = e.source
        LEFT JOIN entities t ON t.seg = e.seg AND t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type IN ('Damage', 'CritDamage') ORDER BY e.seg, e.line_no
    """)
    con.execute("""
        CREATE TABLE healing AS
        SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute, e.source, s.team AS source_team, e.target,
               t.kind AS target_kind, e.item_name AS ability, e.value1 AS amount
        FROM events e LEFT JOIN entities s ON s.seg = e.seg AND s.name = e.source
        LEFT JOIN entities t ON t.seg = e.seg AND t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type = 'Healing' ORDER BY e.seg, e.line_no
    """)
    con.execute("""
        CREATE TABLE crowd_control AS
        SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute, e.source, s.team AS source_team, e.target,
               t.kind AS target_kind, e.item_name AS ability
        FROM events e LEFT JOIN entities s ON s.seg = e.seg AND s.name = e.source
        LEFT JOIN entities t ON t.seg = e.seg AND t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type = 'CrowdControl' ORDER BY e.seg, e.line_no
    """)
    # Assists per METRICS.md: teammates of the killer (not the killer) who damaged the victim in the
    # ten match seconds up to and including the killing blow.
    con.execute("""
        CREATE TABLE kills AS
        WITH blows AS (
            SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute, e.source AS killer, s.kind AS killer_kind,
                   s.team AS killer_team, e.target AS victim, t.kind AS victim_kind, t.team AS victim_team,
                   e.item_name AS ability, coalesce(s.kind = 'player' AND t.kind = 'player', false) AS is_player_kill,
                   e.location_x, e.location_y
            FROM events e LEFT JOIN entities s ON s.seg = e.seg AND s.name = e.source
            LEFT JOIN entities t ON t.seg = e.seg AND t.name = e.target
            WHERE e.event_type = 'CombatMsg' AND e.type = 'KillingBlow'),
        helpers AS (
            SELECT b.seg, b.line_no, list_sort(list_distinct(list(d.source))) AS assists
            FROM blows b JOIN damage d
              ON d.seg = b.seg AND d.target = b.victim AND b.is_player_kill AND d.source_kind = 'player'
             AND d.source_team = b.killer_team AND d.source <> b.killer
             AND d.match_second BETWEEN b.match_second - 10 AND b.match_second
            GROUP BY b.seg, b.line_no)
        SELECT b.seg, b.match_id, b.line_no, b.match_second, b.minute, b.killer, b.killer_kind, b.killer_team,
               b.victim, b.victim_kind, b.victim_team, b.ability, b.is_player_kill,
               CASE WHEN b.is_player_kill THEN coalesce(h.assists, CAST([] AS VARCHAR[])) END AS assists,
               b.location_x, b.location_y
        FROM blows b LEFT JOIN helpers h ON h.seg = b.seg AND h.line_no = b.line_no ORDER BY b.seg, b.line_no
    """)
    con.execute("""
        CREATE TABLE rewards AS
        SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute,
               CASE e.type WHEN 'Currency' THEN 'gold' ELSE 'experience' END AS reward,
               e.source AS giver, g.kind AS giver_kind, e.target AS recipient, r.kind AS recipient_kind,
               r.team AS recipient_team, e.value1 AS amount
        FROM events e LEFT JOIN entities g ON g.seg = e.seg AND g.name = e.source
        LEFT JOIN entities r ON r.seg = e.seg AND r.name = e.target
        WHERE e.event_type = 'RewardMsg' AND e.type IN ('Currency', 'Experience') ORDER BY e.seg, e.line_no
    """)
    con.execute("""
        CREATE TABLE purchases AS
        SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute, e.source AS player, p.team,
               row_number() OVER (PARTITION BY e.seg, e.source ORDER BY e.time, e.line_no) AS seq,
               e.item_id, e.item_name AS item
        FROM events e LEFT JOIN players p ON p.seg = e.seg AND p.player = e.source
        WHERE e.event_type = 'itemmsg' AND e.type = 'ItemPurchase' ORDER BY e.seg, e.line_no
    """)
    con.execute("""
        CREATE TABLE objectives AS
        SELECT seg, match_id, line_no, match_second, minute, victim AS target, victim_kind AS target_kind,
               CASE WHEN lower(victim) LIKE '%tower%' THEN 'tower'
                    WHEN lower(victim) LIKE '%phoenix%' THEN 'phoenix'
                    WHEN lower(victim) LIKE '%titan%' THEN 'titan'
                    WHEN lower(victim) LIKE '%gold fury%' THEN 'gold fury'
                    WHEN lower(victim) LIKE '%fire giant%' THEN 'fire giant'
                    ELSE lower(victim) END AS objective,
               killer, killer_kind,
               -- a minion's or monster's last hit counts for the side that attacked the structure
               CASE WHEN killer_kind = 'player' THEN killer_team
                    WHEN victim_team IS NOT NULL THEN 3 - victim_team END AS team
        FROM kills WHERE victim_kind IN ('structure', 'boss') ORDER BY seg, line_no
    """)
    con.execute("""
        CREATE TABLE player_stats AS
        WITH dealt AS (
            SELECT seg, source AS player, sum(amount) AS damage_dealt,
                   sum(amount) FILTER (WHERE target_kind = 'player') AS damage_to_players,
                   sum(amount) FILTER (WHERE target_kind = 'structure') AS damage_to_structures,
                   sum(amount) FILTER (WHERE target_kind = 'minion') AS damage_to_minions,
                   sum(amount) FILTER (WHERE target_kind = 'jungle') AS damage_to_jungle,
                   sum(amount) FILTER (WHERE target_kind = 'boss') AS damage_to_bosses,
                   count(*) FILTER (WHERE is_crit) AS crits, max(amount) AS biggest_hit
            FROM damage GROUP BY seg, source),
        taken AS (SELECT seg, target AS player, sum(amount) AS damage_taken, sum(mitigated) AS damage_mitigated
                  FROM damage GROUP BY seg, target),
        healed AS (SELECT seg, source AS player, sum(amount) AS healing_done FROM healing GROUP BY seg, source),
        received AS (SELECT seg, target AS player, sum(amount) AS healing_received FROM healing GROUP BY seg, target),
        kill_counts AS (SELECT seg, killer AS player, count(*) AS kills FROM kills WHERE is_player_kill
                        GROUP BY seg, killer),
        death_counts AS (SELECT seg, victim AS player, count(*) AS deaths FROM kills GROUP BY seg, victim),
        assist_counts AS (SELECT seg, player, count(*) AS assists
                          FROM (SELECT seg, unnest(assists) AS player FROM kills WHERE is_player_kill)
                          GROUP BY seg, player),
        earned AS (SELECT seg, recipient AS player, sum(amount) FILTER (WHERE reward = 'gold') AS gold,
                          sum(amount) FILTER (WHERE reward = 'experience') AS experience
                   FROM rewards GROUP BY seg, recipient),
        cc AS (SELECT seg, source AS player, count(*) AS cc_applied FROM crowd_control GROUP BY seg, source),
        bought AS (SELECT seg, player, count(*) AS items_purchased FROM purchases GROUP BY seg, player),
        roster AS (SELECT p.*, s.rate_seconds FROM players p JOIN segs s ON s.seg = p.seg)
        SELECT p.seg, p.match_id, p.player, p.team, p.role, p.god,
               coalesce(damage_dealt, 0) AS damage_dealt, coalesce(damage_to_players, 0) AS damage_to_players,
               coalesce(damage_to_structures, 0) AS damage_to_structures,
               coalesce(damage_to_minions, 0) AS damage_to_minions, coalesce(damage_to_jungle, 0) AS damage_to_jungle,
               coalesce(damage_to_bosses, 0) AS damage_to_bosses, coalesce(damage_taken, 0) AS damage_taken,
               coalesce(damage_mitigated, 0) AS damage_mitigated, coalesce(healing_done, 0) AS healing_done,
               coalesce(healing_received, 0) AS healing_received, coalesce(crits, 0) AS crits,
               coalesce(biggest_hit, 0) AS biggest_hit, coalesce(kills, 0) AS kills,
               coalesce(deaths, 0) AS deaths, coalesce(assists, 0) AS assists,
               (coalesce(kills, 0) + coalesce(assists, 0)) / greatest(coalesce(deaths, 0), 1) AS kda,
               coalesce(gold, 0) AS gold, coalesce(experience, 0) AS experience,
               coalesce(gold, 0) / (p.rate_seconds / 60) AS gpm,
               coalesce(damage_dealt, 0) / (p.rate_seconds / 60) AS dpm,
               coalesce(cc_applied, 0) AS cc_applied, coalesce(items_purchased, 0) AS items_purchased
        FROM roster p
        LEFT JOIN dealt USING (seg, player) LEFT JOIN taken USING (seg, player) LEFT JOIN healed USING (seg, player)
        LEFT JOIN received USING (seg, player) LEFT JOIN kill_counts USING (seg, player)
        LEFT JOIN death_counts USING (seg, player) LEFT JOIN assist_counts USING (seg, player)
        LEFT JOIN earned USING (seg, player) LEFT JOIN cc USING (seg, player) LEFT JOIN bought USING (seg, player)
        ORDER BY p.seg, p.team, p.player
    """)
    con.execute("""
        CREATE TABLE timeline AS
        WITH minutes AS (SELECT seg, CAST(unnest(range(0, last_minute + 1)) AS INTEGER) AS minute FROM segs),
        grid AS (SELECT p.seg, p.match_id, m.minute, p.player, p.team FROM players p JOIN minutes m ON m.seg = p.seg),
        earned AS (SELECT seg, minute, recipient AS player, sum(amount) FILTER (WHERE reward = 'gold') AS gold,
                          sum(amount) FILTER (WHERE reward = 'experience') AS experience
                   FROM rewards WHERE minute >= 0 GROUP BY ALL),
        dealt AS (SELECT seg, minute, source AS player, sum(amount) AS damage FROM damage WHERE minute >= 0
                  GROUP BY ALL),
        per_minute AS (
            SELECT g.seg, g.match_id, g.minute, g.player, g.team, coalesce(e.gold, 0) AS gold,
                   coalesce(e.experience, 0) AS experience, coalesce(d.damage, 0) AS damage
            FROM grid g LEFT JOIN earned e USING (seg, minute, player) LEFT JOIN dealt d USING (seg, minute, player))
        SELECT *, sum(gold) OVER w AS cum_gold, sum(experience) OVER w AS cum_experience,
               sum(damage) OVER w AS cum_damage
        FROM per_minute
        WINDOW w AS (PARTITION BY seg, player ORDER BY minute ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
        ORDER BY seg, minute, team, player
    """)
    con.execute("""
        CREATE TABLE gold_diff AS
        SELECT seg, match_id, minute, sum(cum_gold) FILTER (WHERE team = 1) AS team1_gold,
               sum(cum_gold) FILTER (WHERE team = 2) AS team2_gold,
               coalesce(sum(cum_gold) FILTER (WHERE team = 1), 0)
                 - coalesce(sum(cum_gold) FILTER (WHERE team = 2), 0) AS gold_diff
        FROM timeline GROUP BY seg, match_id, minute ORDER BY seg, minute
    """)
    con.execute("""
        CREATE TABLE quarantine AS
        SELECT s.seg, s.match_id, q.line_no, q.reason, q.raw
        FROM quarantine_raw q JOIN segs s ON q.f = s.f AND q.line_no BETWEEN s.first_line AND s.last_line
        ORDER BY s.seg, q.line_no
    """)
    # The winner is the team that took the first titan (in line order), whatever that row's team is.
    con.execute("""
        CREATE TABLE matches AS
        WITH titans AS (SELECT seg, first(team ORDER BY line_no) AS winner_team FROM objectives
                        WHERE objective = 'titan' GROUP BY seg),
        bad AS (SELECT seg, count(*) AS n FROM quarantine GROUP BY seg)
        SELECT s.seg, s.match_id, s.started_at, s.ended_at, s.duration_s, t.winner_team, s.source_file,
               s.source_sha256, s.last_line - s.first_line + 1 AS lines_total,
               s.last_line - s.first_line + 1 - coalesce(b.n, 0) AS lines_parsed,
               coalesce(b.n, 0) AS lines_quarantined
        FROM segs s LEFT JOIN titans t ON t.seg = s.seg LEFT JOIN bad b ON b.seg = s.seg
        ORDER BY s.seg
    """)


def summaries(con) -> dict[int, SegmentSummary]:
    """Per staged match: its quarantined lines (line, reason), its event counts and its rows per table."""
    segs = [r[0] for r in con.execute("SELECT seg FROM segs ORDER BY seg").fetchall()]
    bad: dict[int, list] = defaultdict(list)
    for seg, line_no, reason in con.execute("SELECT seg, line_no, reason FROM quarantine ORDER BY seg, line_no"
                                            ).fetchall():
        bad[seg].append((line_no, reason))
    counts: dict[int, dict[str, int]] = defaultdict(dict)
    for seg, event_type, n in con.execute(
            "SELECT seg, event_type, count(*) FROM events GROUP BY ALL ORDER BY seg, event_type").fetchall():
        counts[seg][event_type] = n
    rows: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(TABLES, 0))
    union = " UNION ALL ".join(f"SELECT '{t}' AS t, seg, count(*) AS n FROM {t} GROUP BY seg" for t in TABLES)
    for table, seg, n in con.execute(union).fetchall():
        rows[seg][table] = n
    return {seg: SegmentSummary(bad[seg], counts[seg], rows[seg]) for seg in segs}


def copy_tables(con, seg: int, folder: Path) -> None:
    """Write one match's snapshot tables, one Parquet file each, with exactly the warehouse's columns and types.
    The batch tables are in `seg` order, so DuckDB reads only the match's own row groups."""
    for table in TABLES:
        copy_table(con, seg, folder, table)


def copy_table(con, seg: int, folder: Path, table: str) -> None:
    """One table of one match's snapshot, as one Parquet file."""
    columns = ", ".join(f"CAST({name} AS {kind}) AS {name}" for name, kind in WAREHOUSE_SCHEMA[table].items())
    target = table_file(folder, table)
    con.execute(f"COPY (SELECT {columns} FROM {table} WHERE seg = {int(seg)}) TO {sql_string(str(target))} "
                f"({PARQUET_OPTIONS})")
