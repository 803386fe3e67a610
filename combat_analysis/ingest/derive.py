"""Parse, check and derive every warehouse table for a batch of logs, in one DuckDB connection.

A batch is one or more log files, each known by a number `f`. Their lines go through DuckDB together, so a
folder of small logs costs a few large statements instead of many small ones per file: one CSV read of every
file, one JSON parse, one pass per derived table (its statement is a file of `sql/`, read once). Every row keeps `f` (its file) and, once the files are cut
into matches, `seg` (its match in the batch), and every join, group and window is per `seg`, so no figure
ever mixes two matches. Each match's rows are then taken from the batch by `match_rows`, for one commit.

The orchestration (which files, which matches to stage, errors per file, the commit) is in `ingest.run`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from functools import cache
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
from combat_analysis.warehouse.store import sql_literal, sql_string

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
# The derived tables of METRICS.md, in the order they are built: each is one statement in `sql/<table>.sql`.
DERIVED = ("players", "damage", "healing", "crowd_control", "kills", "rewards", "purchases", "objectives",
           "player_stats", "timeline", "gold_diff", "quarantine", "matches")
SQL_DIR = Path(__file__).with_name("sql")

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


@dataclass(frozen=True)
class SegmentShape:
    """What decides whether a staged match may enter the warehouse: who played, and how much of it is there."""

    players: int
    teams: int
    duration_s: int | None
    has_end: bool


def segment_shapes(con) -> dict[int, SegmentShape]:
    """Per staged match: its players and teams, its length and whether a Titan fell."""
    rows = con.execute("""
        SELECT s.seg, count(p.player), count(DISTINCT p.team), any_value(m.duration_s),
               any_value(m.winner_team) IS NOT NULL
        FROM segs s LEFT JOIN players p USING (seg) LEFT JOIN matches m USING (seg)
        GROUP BY s.seg""").fetchall()
    return {seg: SegmentShape(players, teams, duration, bool(has_end)) for seg, players, teams, duration, has_end in rows}


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
    _insert_rows(con, "batch_files", [(log.f, log.survey.lines, log.survey.cut) for log in logs])
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
    _insert_rows(con, "quarantine_raw", rows)
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
            f"SELECT f, line_no, reason FROM quarantine_raw WHERE regexp_matches(raw, {sql_string(START_PATTERN.pattern)})"
    ).fetchall():
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


def _insert_rows(con, table: str, rows: list[tuple]) -> None:
    """Append `rows` to `table` in one statement, a list per column unnested side by side: DuckDB's executemany runs
    one insert per row, seconds for the thousands of lines a broken start event quarantines."""
    if rows:
        columns = [list(column) for column in zip(*rows, strict=True)]
        said = ", ".join(f"unnest({sql_literal(column)})" for column in columns)
        con.execute(f"INSERT INTO {table} SELECT {said}")  # noqa: S608 - a table name of ours, values as literals


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
    _insert_rows(con, "quarantine_raw", rows)
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
    _insert_rows(con, "segs (seg, f, match_id, first_line, last_line, source_file, source_sha256)",
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
        con.execute(f"DELETE FROM segs WHERE list_contains({sql_literal(segs)}, seg)")


def set_clocks(con, clocks: dict[int, tuple[datetime | None, datetime | None]]) -> None:
    """Each match's own clock: its start, end, duration, the seconds rates divide by and its last minute."""
    for seg, (start, end) in clocks.items():
        duration = int((end - start).total_seconds()) if start is not None and end is not None else None
        said = map(sql_literal, (start, end, duration, float(max(duration or 0, 1)), (duration or 0) // 60, seg))
        con.execute("UPDATE segs SET started_at = {}, ended_at = {}, duration_s = {}, rate_seconds = {}, "
                    "last_minute = {} WHERE seg = {}".format(*said))


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
    rows = []
    for seg, name in con.execute("""
        SELECT DISTINCT seg, name FROM (SELECT seg, source AS name FROM events UNION ALL SELECT seg, target FROM events)
        WHERE name IS NOT NULL ORDER BY seg, name
    """).fetchall():
        teams = rosters[seg]
        kind = entity_kind(name, teams)
        rows.append((seg, match_of[seg], name, kind, entity_team(name, kind, teams)))
    con.execute("CREATE TABLE entities (seg INTEGER, match_id VARCHAR, name VARCHAR, kind VARCHAR, team INTEGER)")
    _insert_rows(con, "entities", rows)


@cache
def derived_table_sql(table: str) -> str:
    """The statement that builds one derived table, read from its file once per process."""
    return (SQL_DIR / f"{table}.sql").read_text(encoding="utf-8")


def derive_tables(con) -> None:
    """Every derived table of METRICS.md, for every staged match at once (each keyed and grouped by `seg`): the
    statements of `sql/`, in `DERIVED` order (each reads the tables before it)."""
    for name in DERIVED:
        con.execute(derived_table_sql(name))
        if name == "players":
            _entities(con)  # every name's kind and team, which the tables after `players` join


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


def match_rows(seg: int) -> dict[str, str]:
    """For each warehouse table, the SELECT of one match's rows from the batch, with exactly the warehouse's
    columns and types (the batch tables are in `seg` order, so DuckDB reads only the match's own row groups)."""
    out = {}
    for table in TABLES:
        columns = ", ".join(f"CAST({name} AS {kind}) AS {name}" for name, kind in WAREHOUSE_SCHEMA[table].items())
        out[table] = f"SELECT {columns} FROM {table} WHERE seg = {int(seg)}"
    return out


def match_clock(con, seg: int) -> dict:
    """A match's length and whether it has an end (a Titan fell), from its `matches` row in the batch."""
    row = con.execute(f"SELECT duration_s, winner_team IS NOT NULL FROM matches WHERE seg = {int(seg)}").fetchone()
    return {"duration_s": row[0] if row else None, "has_end": bool(row[1]) if row else False}
