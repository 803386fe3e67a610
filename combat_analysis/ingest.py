"""Ingest one SMITE 2 combat log into the warehouse: parse, check, derive every METRICS.md table, commit.

Python surveys the file (digest, line count) and frames awkward files into numbered lines (see `logfile`);
DuckDB parses the JSON, types and checks the values and derives the tables under a memory limit, spilling to
the ingest's scratch folder, so memory stays bounded for any file size.

A file may hold several matches: each `start` event begins one, with its own id and clock. Each match is
written as a complete snapshot (one Parquet file per table and a manifest) and published by one atomic
pointer replacement (see `warehouse`), so readers see the old match or the complete new one, never a mix.
"""

from __future__ import annotations

import gzip
import zlib
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from combat_analysis import warehouse
from combat_analysis.entities import entity_kind, entity_team
from combat_analysis.keys import KeyRefused, check_key
from combat_analysis.logfile import (
    MAX_LINE_BYTES,
    START_PATTERN,
    BadLine,
    StartLine,
    Survey,
    fallback_match_id,
    read_line_batches,
    read_start,
    survey_log,
)
from combat_analysis.schema import TABLES, WAREHOUSE_SCHEMA
from combat_analysis.warehouse import pause_point

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
# A real match lasts under an hour; a clock spanning a day means the times are not one match's.
MAX_MATCH_SECONDS = 24 * 3600
# Reasons start with their kind, so the summary can count them (`reason_kind`).
REASON_KINDS = ("invalid value", "too long", "invalid UTF-8", "broken start event", "after the broken start event",
                "truncated line")


class IngestError(RuntimeError):
    """The log cannot be ingested as it is; the message (one line) names the file and the problem."""


class EmptyLogError(IngestError):
    pass


class MalformedLogError(IngestError):
    pass


@dataclass(frozen=True)
class IngestResult:
    """One match read from a file. A file holding several matches gives the first here and the others in
    `more` (`matches` lists them all)."""

    match_id: str
    status: str  # ingested (new match), replaced (same match id, new content), unchanged (identical file already in)
    source_file: str
    source_sha256: str
    lines_total: int
    lines_parsed: int
    lines_quarantined: int
    event_counts: dict[str, int] = field(default_factory=dict)
    table_rows: dict[str, int] = field(default_factory=dict)
    first_bad_lines: tuple[tuple[int, str], ...] = ()
    quarantine_reasons: dict[str, int] = field(default_factory=dict)  # reason kind -> lines
    snapshot_dir: str = ""
    first_line: int = 1
    last_line: int = 0
    more: tuple[IngestResult, ...] = ()

    @property
    def matches(self) -> tuple[IngestResult, ...]:
        return (self, *self.more)


def reason_kind(reason: str) -> str:
    """The kind of a quarantine reason, for summaries: "invalid value", "too long", "malformed JSON", ..."""
    return next((kind for kind in REASON_KINDS if reason.startswith(kind)), reason)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def check_log_file(path: Path) -> None:
    """An `IngestError` unless `path` is an existing regular file."""
    if not path.exists():
        raise IngestError(f"no such log file: {path}")
    if path.is_dir():
        raise IngestError(f"{path} is a folder, not a log file (`combat-analysis ingest FOLDER` reads its logs)")
    if not path.is_file():
        raise IngestError(f"{path} is not a regular file")


def _csv_source(path: Path) -> str:
    # One VARCHAR column per line: the unit separator never occurs in valid JSON, and no quoting. A line
    # longer than the limit makes the reader fail, and the file takes the framing path, which cuts it.
    compression = "gzip" if path.suffix == ".gz" else "none"
    return (f"read_csv({warehouse.sql_string(str(path))}, columns={{'raw': 'VARCHAR'}}, header=false, delim=chr(31), "
            f"quote='', escape='', auto_detect=false, compression='{compression}', "
            f"max_line_size={MAX_LINE_BYTES + 64})")


def _read_plain_lines(con, path: Path) -> int | None:
    """Let DuckDB's CSV reader take the file directly, one VARCHAR row per line. Returns the row count, or
    None when the reader refuses the file (invalid UTF-8, stray separators, a line over the limit)."""
    try:
        con.execute(f"CREATE TABLE csv_lines AS SELECT raw FROM {_csv_source(path)}")
        rows, longest = con.execute("SELECT count(*), max(strlen(raw)) FROM csv_lines").fetchone()
    except duckdb.Error:
        con.execute("DROP TABLE IF EXISTS csv_lines")
        return None
    return rows if (longest or 0) <= MAX_LINE_BYTES else None


def _load_lines(con, path: Path, survey: Survey, plain_rows: int | None) -> list[BadLine]:
    """Fill `lines(line_no, raw)`; return the lines that cannot be kept (undecodable, too long).

    The CSV reader's rows are the lines when it read back exactly the surveyed number of lines; it skips
    blank lines, so any awkward file falls back to framing in Python, which numbers every line itself.
    """
    if plain_rows == survey.lines:
        # CTAS keeps the reader's order, so rowid is the line number minus one. The reader drops the
        # byte-order mark itself; a blank line reads back as NULL, which in `lines` would mean
        # unreadable, so it becomes the empty string.
        con.execute("CREATE VIEW lines AS SELECT rowid + 1 AS line_no, coalesce(raw, '') AS raw FROM csv_lines")
        return []
    import numpy as np  # only awkward files pay for these imports
    import pandas as pd

    con.execute("DROP TABLE IF EXISTS csv_lines")
    con.execute("CREATE TABLE lines (line_no BIGINT, raw VARCHAR)")
    unreadable: list[BadLine] = []
    for batch in read_line_batches(path):
        unreadable.extend(batch.bad)
        frame = pd.DataFrame({
            "line_no": np.arange(batch.first_line_no, batch.first_line_no + len(batch.texts), dtype=np.int64),
            "raw": batch.texts,
        })
        con.register("line_batch", frame)
        con.execute("INSERT INTO lines SELECT line_no, raw FROM line_batch")
        con.unregister("line_batch")
    return unreadable


CLEAN = "rtrim(raw, ' ,' || chr(13) || chr(9))"  # a line without its CR and trailing comma
KNOWN = " OR ".join(
    f"(event_type = '{e}' AND " + ("type IS NULL" if t is None else f"type = '{t}'") + ")" for e, t in KNOWN_TYPES
)


def _value_problem() -> str:
    """SQL for why a parsed line's values cannot be trusted, or NULL: a numeric field that is present but not
    a finite number within exact range, negative damage, mitigation or healing, an itemid that is no integer."""
    checks = []
    for column, raw in (("value1", "v1"), ("value2", "v2"), ("location_x", "lx"), ("location_y", "ly")):
        field_name = {"location_x": "locationx", "location_y": "locationy"}.get(column, column)
        checks.append(f"WHEN {raw} <> '' AND NOT coalesce(isfinite({column}), false) "
                      f"THEN 'invalid value: {field_name} is not a finite number (' || left({raw}, 40) || ')'")
        checks.append(f"WHEN abs({column}) > {MAX_EXACT_VALUE} "
                      f"THEN 'invalid value: {field_name} is out of range (' || left({raw}, 40) || ')'")
    checks.append("WHEN event_type = 'CombatMsg' AND type IN ('Damage', 'CritDamage') AND value1 < 0 "
                  "THEN 'invalid value: negative damage (' || v1 || ')'")
    checks.append("WHEN event_type = 'CombatMsg' AND type IN ('Damage', 'CritDamage') AND value2 < 0 "
                  "THEN 'invalid value: negative mitigated damage (' || v2 || ')'")
    checks.append("WHEN event_type = 'CombatMsg' AND type = 'Healing' AND value1 < 0 "
                  "THEN 'invalid value: negative healing (' || v1 || ')'")
    checks.append("WHEN iid <> '' AND item_id IS NULL "
                  "THEN 'invalid value: itemid is not an integer (' || left(iid, 40) || ')'")
    return "CASE WHEN event_type IS NULL THEN NULL " + " ".join(checks) + " END"


def _create_events_base(con, parse_time: str) -> None:
    # Every line becomes a row, unparsable ones with a NULL event_type: a filter here would make DuckDB
    # evaluate the JSON parse twice, which costs more than deleting the rare bad rows afterwards.
    struct = "{" + ", ".join(f'"{k}": "VARCHAR"' for k in KEYS) + "}"
    con.execute(f"""
        CREATE TABLE events_base AS
        SELECT line_no, event_type, type, time, source, target, item_id, item_name, value1, value2,
               location_x, location_y, text, raw, {_value_problem()} AS problem
        FROM (
            SELECT line_no, s.eventType AS event_type, s.type AS type,
                   CASE WHEN s.time IS NOT NULL THEN {parse_time}(s.time, '{TIME_FORMAT}') END AS time,
                   s.sourceowner AS source, s.targetowner AS target,
                   TRY_CAST(s.itemid AS BIGINT) AS item_id, trim(s.itemid) AS iid, s.itemname AS item_name,
                   TRY_CAST(s.value1 AS DOUBLE) AS value1, trim(s.value1) AS v1,
                   TRY_CAST(s.value2 AS DOUBLE) AS value2, trim(s.value2) AS v2,
                   TRY_CAST(s.locationx AS DOUBLE) AS location_x, trim(s.locationx) AS lx,
                   TRY_CAST(s.locationy AS DOUBLE) AS location_y, trim(s.locationy) AS ly,
                   s.text AS text, CAST(NULL AS VARCHAR) AS raw
            FROM (SELECT line_no, try(from_json({CLEAN}, '{struct}')) AS s FROM lines))
    """)  # `lines` is in line order and CTAS keeps it


def _parse_lines(con, lines_total: int, unreadable: list[BadLine]) -> None:
    """Parse every line once into `events_base` (typed, checked columns, no match clock yet); lines that do not
    parse or hold values that cannot be trusted go to `quarantine_raw` with a reason each, and unknown event
    types keep their raw line."""
    try:
        _create_events_base(con, "strptime")
    except (duckdb.ConversionException, duckdb.InvalidInputException):
        # strptime is much faster than try_strptime; only a log with a malformed time pays for the latter.
        con.execute("DROP TABLE IF EXISTS events_base")
        _create_events_base(con, "try_strptime")
    con.execute("CREATE TABLE quarantine_raw (line_no BIGINT, reason VARCHAR, raw VARCHAR)")
    unparsed, bad_values = con.execute(
        "SELECT count(*) FILTER (WHERE event_type IS NULL), count(*) FILTER (WHERE problem IS NOT NULL) "
        "FROM events_base").fetchone()
    if unparsed > len(unreadable):  # unreadable lines are NULL here too, and already have their reason
        con.execute(f"""
            INSERT INTO quarantine_raw
            SELECT line_no,
                   CASE WHEN trim(clean) = '' THEN 'blank line'
                        WHEN NOT json_valid(clean) AND line_no = $last THEN 'truncated line: the file ends mid-event'
                        WHEN NOT json_valid(clean) THEN 'malformed JSON'
                        WHEN json_type(clean) <> 'OBJECT' THEN 'not a JSON object'
                        ELSE 'no eventType' END,
                   raw
            FROM (SELECT line_no, raw, {CLEAN} AS clean FROM lines
                  WHERE raw IS NOT NULL
                    AND line_no IN (SELECT line_no FROM events_base WHERE event_type IS NULL))
        """, {"last": lines_total})
    if bad_values:
        con.execute("""
            INSERT INTO quarantine_raw
            SELECT b.line_no, b.problem, l.raw FROM events_base b JOIN lines l ON l.line_no = b.line_no
            WHERE b.problem IS NOT NULL
        """)
    if unparsed or bad_values:
        con.execute("DELETE FROM events_base WHERE event_type IS NULL OR problem IS NOT NULL")
    unknown = f"NOT coalesce({KNOWN}, false)"  # a missing type is unknown too, not NULL
    if con.execute(f"SELECT count(*) FROM events_base WHERE {unknown}").fetchone()[0]:
        con.execute(f"""
            UPDATE events_base SET raw = l.clean
            FROM (SELECT line_no, {CLEAN} AS clean FROM lines
                  WHERE line_no IN (SELECT line_no FROM events_base WHERE {unknown})) AS l
            WHERE events_base.line_no = l.line_no
        """)
    if unreadable:
        con.executemany("INSERT INTO quarantine_raw VALUES (?, ?, ?)",
                        [(b.line_no, b.reason, b.raw) for b in unreadable])


# -- matches in the file: each start event begins one -----------------------------------------------------------

@dataclass(frozen=True)
class Segment:
    """One match's lines: `first_line`..`last_line` of the file, including any broken match after it."""

    match_id: str
    first_line: int
    last_line: int


def _start_lines(con) -> list[StartLine]:
    """Every line that is, or tries to be, a start event, in line order."""
    parsed = con.execute("""
        SELECT line_no, raw FROM lines
        WHERE line_no IN (SELECT line_no FROM events_base WHERE event_type = 'start') ORDER BY line_no
    """).fetchall()
    broken = con.execute("SELECT line_no, reason FROM quarantine_raw WHERE regexp_matches(raw, ?)",
                         [START_PATTERN.pattern]).fetchall()
    starts = [s for s in (read_start(n, raw) for n, raw in parsed) if s is not None]
    starts += [StartLine(n, None, reason) for n, reason in broken]
    return sorted(starts, key=lambda s: s.line_no)


def _split_matches(con, path: Path, lines_total: int) -> list[Segment]:
    """Cut the file into matches at its start events. A later start that is broken (malformed, no usable
    matchID, or repeating an earlier match's id) cannot say which match its lines belong to, so they are
    quarantined, never merged into the match before it."""
    starts = _start_lines(con)
    first = starts[0] if starts else None
    if first is not None and first.match_id is not None:
        first_id = first.match_id
    else:
        first_id = check_key(fallback_match_id(path), "the match id taken from the file name")
    segments = [Segment(first_id, 1, lines_total)]
    seen = {first_id: first.line_no if first else 1}
    for start in starts[1:]:
        problem = start.problem
        if problem is None and start.match_id in seen:
            problem = f"repeats the match id {start.match_id!r} of line {seen[start.match_id]}"
        previous = segments[-1]
        if problem is None:
            segments[-1] = Segment(previous.match_id, previous.first_line, start.line_no - 1)
            segments.append(Segment(start.match_id, start.line_no, lines_total))
            seen[start.match_id] = start.line_no
            continue
        # Lines up to the next start are quarantined; the broken start is checked against the next one.
        next_start = next((s.line_no for s in starts if s.line_no > start.line_no), lines_total + 1)
        _quarantine_range(con, start.line_no, next_start - 1, problem)
    return segments


def _quarantine_range(con, first: int, last: int, problem: str) -> None:
    params = {"first": first, "last": last, "start": f"broken start event: {problem}",
              "after": f"after the broken start event at line {first}"}
    con.execute("""
        UPDATE quarantine_raw SET reason = 'broken start event: ' || reason
        WHERE line_no = $first AND NOT starts_with(reason, 'broken start event')
    """, {"first": first})
    con.execute("""
        INSERT INTO quarantine_raw
        SELECT b.line_no, CASE WHEN b.line_no = $first THEN $start ELSE $after END, l.raw
        FROM events_base b JOIN lines l ON l.line_no = b.line_no
        WHERE b.line_no BETWEEN $first AND $last
    """, params)
    con.execute("DELETE FROM events_base WHERE line_no BETWEEN $first AND $last", {"first": first, "last": last})


def _build_events(con, segment: Segment) -> tuple[object, object]:
    """Define `events` (the match's parsed lines plus its clock); return (start, end)."""
    bounds = {"first": segment.first_line, "last": segment.last_line}
    start, end = con.execute("""
        SELECT min(time) FILTER (WHERE event_type IN ('itemmsg', 'CombatMsg', 'RewardMsg')), max(time)
        FROM events_base WHERE line_no BETWEEN $first AND $last
    """, bounds).fetchone()
    origin = f"TIMESTAMP '{start.isoformat(sep=' ')}'" if start is not None else "CAST(NULL AS TIMESTAMP)"
    # A view, not a table: the clock is cheap arithmetic, and a second copy of every event is not.
    con.execute(f"""
        CREATE OR REPLACE VIEW events AS
        SELECT {warehouse.sql_string(segment.match_id)} AS match_id, line_no, event_type, type, time,
               TRY_CAST(date_diff('second', {origin}, time) AS INTEGER) AS match_second,
               TRY_CAST(floor(date_diff('second', {origin}, time) / 60) AS INTEGER) AS minute,
               source, target, item_id, item_name, value1, value2, location_x, location_y, text, raw
        FROM events_base WHERE line_no BETWEEN {segment.first_line} AND {segment.last_line}
    """)
    return start, end


def _derive_tables(con, segment: Segment, start, end) -> None:
    match_id = segment.match_id
    con.execute("""
        CREATE OR REPLACE TABLE players AS
        WITH roles AS (
            SELECT source AS player, TRY_CAST(value1 AS INTEGER) AS team, regexp_replace(item_name, '^E', '') AS role,
                   row_number() OVER (PARTITION BY source ORDER BY line_no DESC) AS newest
            FROM events WHERE event_type = 'playermsg' AND type = 'RoleAssigned'),
        picks AS (
            SELECT source AS player, item_name AS god,
                   row_number() OVER (PARTITION BY source ORDER BY time DESC, line_no DESC) AS newest
            FROM events WHERE event_type = 'playermsg' AND type = 'GodPicked')
        SELECT $mid AS match_id, r.player, r.team, r.role, p.god
        FROM roles r LEFT JOIN picks p ON p.player = r.player AND p.newest = 1
        WHERE r.newest = 1 ORDER BY r.team, r.player
    """, {"mid": match_id})
    teams = dict(con.execute("SELECT player, team FROM players").fetchall())
    names = [r[0] for r in con.execute("""
        SELECT DISTINCT name FROM (SELECT source AS name FROM events UNION ALL SELECT target FROM events)
        WHERE name IS NOT NULL ORDER BY name
    """).fetchall()]
    rows = []
    for name in names:
        kind = entity_kind(name, teams)
        rows.append((match_id, name, kind, entity_team(name, kind, teams)))
    con.execute("CREATE OR REPLACE TABLE entities (match_id VARCHAR, name VARCHAR, kind VARCHAR, team INTEGER)")
    if rows:
        con.executemany("INSERT INTO entities VALUES (?, ?, ?, ?)", rows)
    con.execute("""
        CREATE OR REPLACE TABLE damage AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source, s.kind AS source_kind,
               s.team AS source_team, e.target, t.kind AS target_kind, t.team AS target_team,
               e.item_name AS ability, e.value1 AS amount, e.value2 AS mitigated, e.type = 'CritDamage' AS is_crit,
               e.location_x, e.location_y
        FROM events e LEFT JOIN entities s ON s.name = e.source LEFT JOIN entities t ON t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type IN ('Damage', 'CritDamage') ORDER BY e.line_no
    """)
    con.execute("""
        CREATE OR REPLACE TABLE healing AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source, s.team AS source_team, e.target,
               t.kind AS target_kind, e.item_name AS ability, e.value1 AS amount
        FROM events e LEFT JOIN entities s ON s.name = e.source LEFT JOIN entities t ON t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type = 'Healing' ORDER BY e.line_no
    """)
    con.execute("""
        CREATE OR REPLACE TABLE crowd_control AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source, s.team AS source_team, e.target,
               t.kind AS target_kind, e.item_name AS ability
        FROM events e LEFT JOIN entities s ON s.name = e.source LEFT JOIN entities t ON t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type = 'CrowdControl' ORDER BY e.line_no
    """)
    # Assists per METRICS.md: teammates of the killer (not the killer) who damaged the victim in the
    # ten match seconds up to and including the killing blow.
    con.execute("""
        CREATE OR REPLACE TABLE kills AS
        WITH blows AS (
            SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source AS killer, s.kind AS killer_kind,
                   s.team AS killer_team, e.target AS victim, t.kind AS victim_kind, t.team AS victim_team,
                   e.item_name AS ability, coalesce(s.kind = 'player' AND t.kind = 'player', false) AS is_player_kill,
                   e.location_x, e.location_y
            FROM events e LEFT JOIN entities s ON s.name = e.source LEFT JOIN entities t ON t.name = e.target
            WHERE e.event_type = 'CombatMsg' AND e.type = 'KillingBlow'),
        helpers AS (
            SELECT b.line_no, list_sort(list_distinct(list(d.source))) AS assists
            FROM blows b JOIN damage d
              ON b.is_player_kill AND d.target = b.victim AND d.source_kind = 'player'
             AND d.source_team = b.killer_team AND d.source <> b.killer
             AND d.match_second BETWEEN b.match_second - 10 AND b.match_second
            GROUP BY b.line_no)
        SELECT b.match_id, b.line_no, b.match_second, b.minute, b.killer, b.killer_kind, b.killer_team, b.victim,
               b.victim_kind, b.victim_team, b.ability, b.is_player_kill,
               CASE WHEN b.is_player_kill THEN coalesce(h.assists, CAST([] AS VARCHAR[])) END AS assists,
               b.location_x, b.location_y
        FROM blows b LEFT JOIN helpers h ON h.line_no = b.line_no ORDER BY b.line_no
    """)
    con.execute("""
        CREATE OR REPLACE TABLE rewards AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute,
               CASE e.type WHEN 'Currency' THEN 'gold' ELSE 'experience' END AS reward,
               e.source AS giver, g.kind AS giver_kind, e.target AS recipient, r.kind AS recipient_kind,
               r.team AS recipient_team, e.value1 AS amount
        FROM events e LEFT JOIN entities g ON g.name = e.source LEFT JOIN entities r ON r.name = e.target
        WHERE e.event_type = 'RewardMsg' AND e.type IN ('Currency', 'Experience') ORDER BY e.line_no
    """)
    con.execute("""
        CREATE OR REPLACE TABLE purchases AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source AS player, p.team,
               row_number() OVER (PARTITION BY e.source ORDER BY e.time, e.line_no) AS seq,
               e.item_id, e.item_name AS item
        FROM events e LEFT JOIN players p ON p.player = e.source
        WHERE e.event_type = 'itemmsg' AND e.type = 'ItemPurchase' ORDER BY e.line_no
    """)
    con.execute("""
        CREATE OR REPLACE TABLE objectives AS
        SELECT match_id, line_no, match_second, minute, victim AS target, victim_kind AS target_kind,
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
        FROM kills WHERE victim_kind IN ('structure', 'boss') ORDER BY line_no
    """)
    duration = int((end - start).total_seconds()) if start is not None and end is not None else 0
    con.execute("""
        CREATE OR REPLACE TABLE player_stats AS
        WITH dealt AS (
            SELECT source AS player, sum(amount) AS damage_dealt,
                   sum(amount) FILTER (WHERE target_kind = 'player') AS damage_to_players,
                   sum(amount) FILTER (WHERE target_kind = 'structure') AS damage_to_structures,
                   sum(amount) FILTER (WHERE target_kind = 'minion') AS damage_to_minions,
                   sum(amount) FILTER (WHERE target_kind = 'jungle') AS damage_to_jungle,
                   sum(amount) FILTER (WHERE target_kind = 'boss') AS damage_to_bosses,
                   count(*) FILTER (WHERE is_crit) AS crits, max(amount) AS biggest_hit
            FROM damage GROUP BY source),
        taken AS (SELECT target AS player, sum(amount) AS damage_taken, sum(mitigated) AS damage_mitigated
                  FROM damage GROUP BY target),
        healed AS (SELECT source AS player, sum(amount) AS healing_done FROM healing GROUP BY source),
        received AS (SELECT target AS player, sum(amount) AS healing_received FROM healing GROUP BY target),
        kill_counts AS (SELECT killer AS player, count(*) AS kills FROM kills WHERE is_player_kill GROUP BY killer),
        death_counts AS (SELECT victim AS player, count(*) AS deaths FROM kills GROUP BY victim),
        assist_counts AS (SELECT player, count(*) AS assists
                          FROM (SELECT unnest(assists) AS player FROM kills WHERE is_player_kill) GROUP BY player),
        earned AS (SELECT recipient AS player, sum(amount) FILTER (WHERE reward = 'gold') AS gold,
                          sum(amount) FILTER (WHERE reward = 'experience') AS experience
                   FROM rewards GROUP BY recipient),
        cc AS (SELECT source AS player, count(*) AS cc_applied FROM crowd_control GROUP BY source),
        bought AS (SELECT player, count(*) AS items_purchased FROM purchases GROUP BY player)
        SELECT p.match_id, p.player, p.team, p.role, p.god,
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
               coalesce(gold, 0) / ($duration / 60) AS gpm, coalesce(damage_dealt, 0) / ($duration / 60) AS dpm,
               coalesce(cc_applied, 0) AS cc_applied, coalesce(items_purchased, 0) AS items_purchased
        FROM players p
        LEFT JOIN dealt USING (player) LEFT JOIN taken USING (player) LEFT JOIN healed USING (player)
        LEFT JOIN received USING (player) LEFT JOIN kill_counts USING (player)
        LEFT JOIN death_counts USING (player) LEFT JOIN assist_counts USING (player)
        LEFT JOIN earned USING (player) LEFT JOIN cc USING (player) LEFT JOIN bought USING (player)
        ORDER BY p.team, p.player
    """, {"duration": float(max(duration, 1))})
    con.execute("""
        CREATE OR REPLACE TABLE timeline AS
        WITH minutes AS (SELECT CAST(range AS INTEGER) AS minute FROM range(0, $last_minute + 1)),
        grid AS (SELECT p.match_id, m.minute, p.player, p.team FROM players p CROSS JOIN minutes m),
        earned AS (SELECT minute, recipient AS player, sum(amount) FILTER (WHERE reward = 'gold') AS gold,
                          sum(amount) FILTER (WHERE reward = 'experience') AS experience
                   FROM rewards WHERE minute >= 0 GROUP BY ALL),
        dealt AS (SELECT minute, source AS player, sum(amount) AS damage FROM damage WHERE minute >= 0 GROUP BY ALL),
        per_minute AS (
            SELECT g.match_id, g.minute, g.player, g.team, coalesce(e.gold, 0) AS gold,
                   coalesce(e.experience, 0) AS experience, coalesce(d.damage, 0) AS damage
            FROM grid g LEFT JOIN earned e USING (minute, player) LEFT JOIN dealt d USING (minute, player))
        SELECT *, sum(gold) OVER w AS cum_gold, sum(experience) OVER w AS cum_experience,
               sum(damage) OVER w AS cum_damage
        FROM per_minute
        WINDOW w AS (PARTITION BY player ORDER BY minute ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
        ORDER BY minute, team, player
    """, {"last_minute": duration // 60})
    con.execute("""
        CREATE OR REPLACE TABLE gold_diff AS
        SELECT match_id, minute, sum(cum_gold) FILTER (WHERE team = 1) AS team1_gold,
               sum(cum_gold) FILTER (WHERE team = 2) AS team2_gold,
               coalesce(sum(cum_gold) FILTER (WHERE team = 1), 0)
                 - coalesce(sum(cum_gold) FILTER (WHERE team = 2), 0) AS gold_diff
        FROM timeline GROUP BY match_id, minute ORDER BY minute
    """)
    con.execute("""
        CREATE OR REPLACE TABLE quarantine AS SELECT $mid AS match_id, * FROM quarantine_raw
        WHERE line_no BETWEEN $first AND $last ORDER BY line_no
    """, {"mid": match_id, "first": segment.first_line, "last": segment.last_line})


def _build_matches(con, segment: Segment, start, end, path: Path, sha: str, counts: tuple[int, int, int]) -> None:
    duration = int((end - start).total_seconds()) if start is not None and end is not None else None
    winner = con.execute("SELECT team FROM objectives WHERE objective = 'titan' ORDER BY line_no LIMIT 1").fetchone()
    con.execute(
        "CREATE OR REPLACE TABLE matches AS SELECT ? AS match_id, CAST(? AS TIMESTAMP) AS started_at, "
        "CAST(? AS TIMESTAMP) AS ended_at, CAST(? AS INTEGER) AS duration_s, CAST(? AS INTEGER) AS winner_team, "
        "? AS source_file, ? AS source_sha256, CAST(? AS BIGINT) AS lines_total, "
        "CAST(? AS BIGINT) AS lines_parsed, CAST(? AS BIGINT) AS lines_quarantined",
        [segment.match_id, start, end, duration, winner[0] if winner else None, path.name, sha, *counts],
    )


def _stage_snapshot(con, segment: Segment, path: Path, survey: Survey, folder: Path, others: list[str]) -> dict:
    """Derive the match's tables and write them, with their manifest, as a complete snapshot in `folder`."""
    start, end = _build_events(con, segment)
    if start is not None and end is not None and (end - start).total_seconds() > MAX_MATCH_SECONDS:
        raise IngestError(
            f"{path}: match {segment.match_id!r} (lines {segment.first_line:,} to {segment.last_line:,}) spans "
            f"{(end - start).total_seconds() / 3600:,.1f} hours from {start} to {end}: these times are not one "
            "match's clock")
    _derive_tables(con, segment, start, end)
    bad = con.execute("SELECT line_no, reason FROM quarantine ORDER BY line_no").fetchall()
    lines_total = segment.last_line - segment.first_line + 1
    _build_matches(con, segment, start, end, path, survey.sha256, (lines_total, lines_total - len(bad), len(bad)))
    folder.mkdir(parents=True)
    rows = {}
    for table in TABLES:
        columns = ", ".join(f"CAST({name} AS {kind}) AS {name}" for name, kind in WAREHOUSE_SCHEMA[table].items())
        target = warehouse.table_file(folder, table)
        con.execute(f"COPY (SELECT {columns} FROM {table}) TO {warehouse.sql_string(str(target))} "
                    "(FORMAT parquet, COMPRESSION snappy)")
        rows[table] = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        pause_point(f"staged-table:{table}")
    data = {
        "format": warehouse.MANIFEST_FORMAT,
        "match_id": segment.match_id,
        "snapshot": folder.name,
        "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "source_file": path.name,
        "source_path": str(path.resolve()),
        "source_sha256": survey.sha256,
        "matches_in_file": others,
        "lines": {"first": segment.first_line, "last": segment.last_line, "total": lines_total,
                  "parsed": lines_total - len(bad), "quarantined": len(bad)},
        "quarantine_reasons": dict(Counter(reason_kind(reason) for _, reason in bad)),
        "first_bad_lines": [[n, reason] for n, reason in bad[:10]],
        "event_counts": dict(con.execute(
            "SELECT event_type, count(*) FROM events GROUP BY 1 ORDER BY 1").fetchall()),
        "tables": rows,
    }
    warehouse.write_manifest(folder, data)
    return data


def _result(data: dict, status: str, path: Path, snapshot: Path) -> IngestResult:
    lines = data["lines"]
    return IngestResult(
        match_id=data["match_id"], status=status, source_file=str(path), source_sha256=data["source_sha256"],
        lines_total=lines["total"], lines_parsed=lines["parsed"], lines_quarantined=lines["quarantined"],
        event_counts=dict(data["event_counts"]), table_rows=dict(data["tables"]),
        first_bad_lines=tuple((n, r) for n, r in data["first_bad_lines"]),
        quarantine_reasons=dict(data["quarantine_reasons"]), snapshot_dir=str(snapshot),
        first_line=lines["first"], last_line=lines["last"],
    )


def _chain(results: list[IngestResult]) -> IngestResult:
    first, *rest = results
    return IngestResult(**{**first.__dict__, "more": tuple(rest)})


def _commit(root: Path, staged: list[tuple[str, Path, str | None]], sha256: str) -> None:
    """Publish each staged snapshot (match id, staged folder, digest it replaces) by one pointer replacement,
    then sweep what the match no longer needs."""
    for match_id, snapshot, old_sha in staged:
        with warehouse.match_writer_lock(root, match_id) as folder:
            warehouse.mark_garbage(root, match_id)
            pause_point("garbage-marked")
            warehouse.place_snapshot(folder, snapshot)
            pause_point("snapshot-placed")
            warehouse.publish(folder, snapshot.name)
            pause_point("committed")
            if warehouse.sweep_match(root, match_id, folder):
                warehouse.garbage_marker(root, match_id).unlink(missing_ok=True)
            warehouse.forget_digest(root, old_sha, keep=sha256)
            pause_point("swept")


def ingest_log(
    path: Path,
    warehouse_root: Path,
    *,
    max_bad_share: float = 0.01,
    on_progress: Callable[[int], None] | None = None,
    on_stage: Callable[[str], None] | None = None,
    memory_limit_mb: int = 512,
) -> IngestResult:
    """Read `path` into the warehouse. Identical content already ingested is left alone ("unchanged");
    new content under an existing match id replaces that match's snapshot ("replaced").

    `on_progress(bytes)` reports the first pass over the file; `on_stage(name)` names each later step. Every
    failure is an `IngestError` whose one-line message names the file; nothing is committed then.
    """
    path = Path(path)
    check_log_file(path)
    try:
        return _ingest(path, Path(warehouse_root), max_bad_share, on_progress, on_stage or (lambda _name: None),
                       memory_limit_mb)
    except READ_ERRORS as exc:
        raise as_ingest_error(path, exc) from exc


# What reading or writing a log can raise that is about the file or the disk, not about our code.
READ_ERRORS = (IngestError, KeyRefused, EOFError, zlib.error, OSError, duckdb.Error)


def as_ingest_error(path: Path, exc: BaseException) -> IngestError:
    """The one-line `IngestError` naming the file for one of `READ_ERRORS`."""
    if isinstance(exc, IngestError):
        return exc
    if isinstance(exc, (EOFError, zlib.error, gzip.BadGzipFile)):
        return IngestError(f"{path}: the gzip archive is truncated or corrupt ({_one_line(exc)})")
    return IngestError(f"{path}: {_one_line(exc)[:300]}")


def _ingest(path: Path, root: Path, max_bad_share: float, on_progress, stage, memory_limit_mb: int) -> IngestResult:
    with warehouse.scratch_space(root) as scratch:
        pause_point("scratch-created")
        warehouse.sweep_garbage(root)  # what a crashed or crowded earlier ingest left behind
        con = duckdb.connect()
        try:
            con.execute(f"SET memory_limit = '{memory_limit_mb}MB'")
            con.execute(f"SET temp_directory = {warehouse.sql_string(str(scratch / 'spill'))}")
            # The survey (digest, line count) and DuckDB's read of the lines overlap on the two cores.
            with ThreadPoolExecutor(max_workers=1) as pool:
                surveying = pool.submit(survey_log, path, on_progress=on_progress)
                plain_rows = _read_plain_lines(con, path)
                survey = surveying.result()
            if survey.lines == 0:
                raise EmptyLogError(f"{path} is empty: a combat log holds one JSON event per line")
            unchanged = warehouse.unchanged_matches(root, survey.sha256)
            if unchanged is not None:
                return _chain([_result(m, "unchanged", path, warehouse.committed_snapshot(root, m["match_id"]))
                               for m in unchanged])
            pause_point("surveyed")
            stage("parsing events")
            unreadable = _load_lines(con, path, survey, plain_rows)
            _parse_lines(con, survey.lines, unreadable)
            segments = _split_matches(con, path, survey.lines)
            pause_point("parsed")
            _check_bad_share(con, path, survey.lines, max_bad_share)
            stage("deriving tables")
            return _stage_and_commit(con, root, scratch, path, survey, segments, stage)
        finally:
            con.close()


def _check_bad_share(con, path: Path, lines_total: int, max_bad_share: float) -> None:
    bad = con.execute("SELECT line_no, reason FROM quarantine_raw ORDER BY line_no").fetchall()
    if len(bad) == lines_total or len(bad) / lines_total > max_bad_share:
        first = "; ".join(f"line {n}: {reason}" for n, reason in bad[:5])
        raise MalformedLogError(
            f"{path}: {len(bad)} of {lines_total} lines are malformed "
            f"({len(bad) / lines_total:.1%}, limit {max_bad_share:.1%}); first: {first}. "
            "Nothing was loaded. Is this a SMITE 2 combat log?"
        )


def _stage_and_commit(con, root: Path, scratch: Path, path: Path, survey: Survey, segments: list[Segment],
                      stage) -> IngestResult:
    ids = [s.match_id for s in segments]
    staged, results, listed = [], [], []
    for segment in segments:
        current = warehouse.committed_snapshot(root, segment.match_id)
        old = warehouse.committed_manifest(root, segment.match_id)
        if old is not None and old.get("source_sha256") == survey.sha256 and \
                (old["lines"]["first"], old["lines"]["last"]) == (segment.first_line, segment.last_line):
            results.append(_result(old, "unchanged", path, current))  # committed from this very file
            listed.append((segment.match_id, current.name))
            continue
        name = warehouse.new_snapshot_name(survey.sha256)
        data = _stage_snapshot(con, segment, path, survey, scratch / "staged" / name, ids)
        status = "ingested" if old is None else "replaced"
        results.append(_result(data, status, path, warehouse.match_dir(root, segment.match_id) / "snapshots" / name))
        staged.append((segment.match_id, scratch / "staged" / name, old.get("source_sha256") if old else None))
        listed.append((segment.match_id, name))
    pause_point("staged")
    stage("committing")
    # The digest index names every snapshot before any pointer does: "unchanged" verifies it against them.
    warehouse.write_digest_entry(root, survey.sha256, listed)
    pause_point("digest-indexed")
    _commit(root, staged, survey.sha256)
    return _chain(results)
