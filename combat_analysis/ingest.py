"""Ingest one SMITE 2 combat log into the warehouse: parse, derive every METRICS.md table, write partitions.

Python surveys the file (digest, line count) and frames awkward files into numbered lines (see `logfile`);
DuckDB parses the JSON, types the columns and derives the tables under a memory limit, spilling to a scratch
directory, so memory stays bounded for any file size.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from combat_analysis import warehouse
from combat_analysis.entities import entity_kind, entity_team
from combat_analysis.logfile import BadLine, Survey, read_line_batches, survey_log
from combat_analysis.schema import TABLES, WAREHOUSE_SCHEMA

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


class IngestError(RuntimeError):
    """The log cannot be ingested as it is; the message says why and where."""


class EmptyLogError(IngestError):
    pass


class MalformedLogError(IngestError):
    pass


@dataclass(frozen=True)
class IngestResult:
    match_id: str
    status: str  # ingested, unchanged (identical file already in), replaced (same match id, new content)
    source_file: str
    source_sha256: str
    lines_total: int
    lines_parsed: int
    lines_quarantined: int
    event_counts: dict[str, int] = field(default_factory=dict)
    table_rows: dict[str, int] = field(default_factory=dict)
    first_bad_lines: tuple[tuple[int, str], ...] = ()
    partition_dirs: dict[str, str] = field(default_factory=dict)


def _csv_source(path: Path) -> str:
    # One VARCHAR column per line: the unit separator never occurs in valid JSON, and no quoting.
    compression = "gzip" if path.suffix == ".gz" else "none"
    return (f"read_csv({warehouse.sql_string(str(path))}, columns={{'raw': 'VARCHAR'}}, header=false, delim=chr(31), "
            f"quote='', escape='', auto_detect=false, compression='{compression}')")


def _read_plain_lines(con, path: Path) -> int | None:
    """Let DuckDB's CSV reader take the file directly, one VARCHAR row per line. Returns the row count, or
    None when the reader refuses the file (invalid UTF-8, stray separators)."""
    try:
        con.execute(f"CREATE TABLE csv_lines AS SELECT raw FROM {_csv_source(path)}")
    except duckdb.Error:
        con.execute("DROP TABLE IF EXISTS csv_lines")
        return None
    return con.execute("SELECT count(*) FROM csv_lines").fetchone()[0]


def _load_lines(con, path: Path, survey: Survey, plain_rows: int | None) -> list[BadLine]:
    """Fill `lines(line_no, raw)`.

    The CSV reader's rows are the lines when it read back exactly the surveyed number of lines; it skips
    blank lines, so any awkward file falls back to framing in Python, which numbers every line itself.
    """
    if plain_rows == survey.lines:
        # CTAS keeps the reader's order, so rowid is the line number minus one. The reader drops the
        # byte-order mark itself; a blank line reads back as NULL, which in `lines` would mean
        # undecodable, so it becomes the empty string.
        con.execute("CREATE VIEW lines AS SELECT rowid + 1 AS line_no, coalesce(raw, '') AS raw FROM csv_lines")
        return []
    con.execute("DROP TABLE IF EXISTS csv_lines")
    con.execute("CREATE TABLE lines (line_no BIGINT, raw VARCHAR)")
    undecodable: list[BadLine] = []
    for batch in read_line_batches(path):
        undecodable.extend(batch.bad)
        frame = pd.DataFrame({
            "line_no": np.arange(batch.first_line_no, batch.first_line_no + len(batch.texts), dtype=np.int64),
            "raw": batch.texts,
        })
        con.register("line_batch", frame)
        con.execute("INSERT INTO lines SELECT line_no, raw FROM line_batch")
        con.unregister("line_batch")
    return undecodable


CLEAN = "rtrim(raw, ' ,' || chr(13) || chr(9))"  # a line without its CR and trailing comma
KNOWN = " OR ".join(
    f"(event_type = '{e}' AND " + ("type IS NULL" if t is None else f"type = '{t}'") + ")" for e, t in KNOWN_TYPES
)


def _create_events_base(con, parse_time: str) -> None:
    # Every line becomes a row, unparsable ones with a NULL event_type: a filter here would make DuckDB
    # evaluate the JSON parse twice, which costs more than deleting the rare bad rows afterwards.
    struct = "{" + ", ".join(f'"{k}": "VARCHAR"' for k in KEYS) + "}"
    con.execute(f"""
        CREATE TABLE events_base AS
        SELECT line_no, s.eventType AS event_type, s.type AS type,
               CASE WHEN s.time IS NOT NULL THEN {parse_time}(s.time, '{TIME_FORMAT}') END AS time,
               s.sourceowner AS source, s.targetowner AS target,
               TRY_CAST(s.itemid AS BIGINT) AS item_id, s.itemname AS item_name,
               TRY_CAST(s.value1 AS DOUBLE) AS value1, TRY_CAST(s.value2 AS DOUBLE) AS value2,
               TRY_CAST(s.locationx AS DOUBLE) AS location_x, TRY_CAST(s.locationy AS DOUBLE) AS location_y,
               s.text AS text, s.matchID AS match_id_field, CAST(NULL AS VARCHAR) AS raw
        FROM (SELECT line_no, try(from_json({CLEAN}, '{struct}')) AS s FROM lines)
    """)  # `lines` is in line order and CTAS keeps it


def _parse_lines(con, lines_total: int, undecodable: list[BadLine]) -> None:
    """Parse every line once into `events_base` (typed columns, no match clock yet); lines that do not
    parse go to `quarantine_raw` with a reason each, and unknown event types keep their raw line."""
    try:
        _create_events_base(con, "strptime")
    except (duckdb.ConversionException, duckdb.InvalidInputException):
        # strptime is much faster than try_strptime; only a log with a malformed time pays for the latter.
        con.execute("DROP TABLE IF EXISTS events_base")
        _create_events_base(con, "try_strptime")
    con.execute("CREATE TABLE quarantine_raw (line_no BIGINT, reason VARCHAR, raw VARCHAR)")
    unparsed = con.execute("SELECT count(*) FROM events_base WHERE event_type IS NULL").fetchone()[0]
    if unparsed > len(undecodable):  # undecodable lines are NULL here too, and already have their reason
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
    if unparsed:
        con.execute("DELETE FROM events_base WHERE event_type IS NULL")
    unknown = f"NOT coalesce({KNOWN}, false)"  # a missing type is unknown too, not NULL
    if con.execute(f"SELECT count(*) FROM events_base WHERE {unknown}").fetchone()[0]:
        con.execute(f"""
            UPDATE events_base SET raw = l.clean
            FROM (SELECT line_no, {CLEAN} AS clean FROM lines
                  WHERE line_no IN (SELECT line_no FROM events_base WHERE {unknown})) AS l
            WHERE events_base.line_no = l.line_no
        """)
    if undecodable:
        con.executemany("INSERT INTO quarantine_raw VALUES (?, ?, ?)",
                        [(b.line_no, b.reason, b.raw) for b in undecodable])


def _build_events(con, match_id_fallback: str) -> tuple[str, object, object]:
    """Define `events` (the parsed lines plus the match clock); return (match id, start, end)."""
    found = con.execute(
        "SELECT match_id_field FROM events_base WHERE event_type = 'start' AND match_id_field IS NOT NULL "
        "ORDER BY line_no LIMIT 1"
    ).fetchone()
    match_id = found[0] if found else match_id_fallback
    start, end = con.execute("""
        SELECT min(time) FILTER (WHERE event_type IN ('itemmsg', 'CombatMsg', 'RewardMsg')), max(time)
        FROM events_base
    """).fetchone()
    origin = f"TIMESTAMP '{start.isoformat(sep=' ')}'" if start is not None else "CAST(NULL AS TIMESTAMP)"
    # A view, not a table: the clock is cheap arithmetic, and a second copy of every event is not.
    con.execute(f"""
        CREATE VIEW events AS
        SELECT {warehouse.sql_string(match_id)} AS match_id, line_no, event_type, type, time,
               CAST(date_diff('second', {origin}, time) AS INTEGER) AS match_second,
               CAST(floor(date_diff('second', {origin}, time) / 60) AS INTEGER) AS minute,
               source, target, item_id, item_name, value1, value2, location_x, location_y, text, raw
        FROM events_base
    """)
    return match_id, start, end


def _derive_tables(con, match_id: str, start, end) -> None:
    con.execute("""
        CREATE TABLE players AS
        WITH roles AS (
            SELECT source AS player, CAST(value1 AS INTEGER) AS team, regexp_replace(item_name, '^E', '') AS role,
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
    con.execute("CREATE TABLE entities (match_id VARCHAR, name VARCHAR, kind VARCHAR, team INTEGER)")
    if rows:
        con.executemany("INSERT INTO entities VALUES (?, ?, ?, ?)", rows)
    con.execute("""
        CREATE TABLE damage AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source, s.kind AS source_kind,
               s.team AS source_team, e.target, t.kind AS target_kind, t.team AS target_team,
               e.item_name AS ability, e.value1 AS amount, e.value2 AS mitigated, e.type = 'CritDamage' AS is_crit,
               e.location_x, e.location_y
        FROM events e LEFT JOIN entities s ON s.name = e.source LEFT JOIN entities t ON t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type IN ('Damage', 'CritDamage') ORDER BY e.line_no
    """)
    con.execute("""
        CREATE TABLE healing AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source, s.team AS source_team, e.target,
               t.kind AS target_kind, e.item_name AS ability, e.value1 AS amount
        FROM events e LEFT JOIN entities s ON s.name = e.source LEFT JOIN entities t ON t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type = 'Healing' ORDER BY e.line_no
    """)
    con.execute("""
        CREATE TABLE crowd_control AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source, s.team AS source_team, e.target,
               t.kind AS target_kind, e.item_name AS ability
        FROM events e LEFT JOIN entities s ON s.name = e.source LEFT JOIN entities t ON t.name = e.target
        WHERE e.event_type = 'CombatMsg' AND e.type = 'CrowdControl' ORDER BY e.line_no
    """)
    # Assists per METRICS.md: teammates of the killer (not the killer) who damaged the victim in the
    # ten match seconds up to and including the killing blow.
    con.execute("""
        CREATE TABLE kills AS
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
        CREATE TABLE rewards AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute,
               CASE e.type WHEN 'Currency' THEN 'gold' ELSE 'experience' END AS reward,
               e.source AS giver, g.kind AS giver_kind, e.target AS recipient, r.kind AS recipient_kind,
               r.team AS recipient_team, e.value1 AS amount
        FROM events e LEFT JOIN entities g ON g.name = e.source LEFT JOIN entities r ON r.name = e.target
        WHERE e.event_type = 'RewardMsg' AND e.type IN ('Currency', 'Experience') ORDER BY e.line_no
    """)
    con.execute("""
        CREATE TABLE purchases AS
        SELECT e.match_id, e.line_no, e.match_second, e.minute, e.source AS player, p.team,
               row_number() OVER (PARTITION BY e.source ORDER BY e.time, e.line_no) AS seq,
               e.item_id, e.item_name AS item
        FROM events e LEFT JOIN players p ON p.player = e.source
        WHERE e.event_type = 'itemmsg' AND e.type = 'ItemPurchase' ORDER BY e.line_no
    """)
    con.execute("""
        CREATE TABLE objectives AS
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
        CREATE TABLE player_stats AS
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
        CREATE TABLE timeline AS
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
        CREATE TABLE gold_diff AS
        SELECT match_id, minute, sum(cum_gold) FILTER (WHERE team = 1) AS team1_gold,
               sum(cum_gold) FILTER (WHERE team = 2) AS team2_gold,
               coalesce(sum(cum_gold) FILTER (WHERE team = 1), 0)
                 - coalesce(sum(cum_gold) FILTER (WHERE team = 2), 0) AS gold_diff
        FROM timeline GROUP BY match_id, minute ORDER BY minute
    """)
    con.execute("CREATE TABLE quarantine AS SELECT $mid AS match_id, * FROM quarantine_raw ORDER BY line_no",
                {"mid": match_id})


def _build_matches(con, match_id, start, end, path: Path, sha: str, counts: tuple[int, int, int]) -> None:
    duration = int((end - start).total_seconds()) if start is not None and end is not None else None
    winner = con.execute("SELECT team FROM objectives WHERE objective = 'titan' ORDER BY line_no LIMIT 1").fetchone()
    con.execute(
        "CREATE TABLE matches AS SELECT ? AS match_id, CAST(? AS TIMESTAMP) AS started_at, "
        "CAST(? AS TIMESTAMP) AS ended_at, CAST(? AS INTEGER) AS duration_s, CAST(? AS INTEGER) AS winner_team, "
        "? AS source_file, ? AS source_sha256, CAST(? AS BIGINT) AS lines_total, "
        "CAST(? AS BIGINT) AS lines_parsed, CAST(? AS BIGINT) AS lines_quarantined",
        [match_id, start, end, duration, winner[0] if winner else None, path.name, sha, *counts],
    )


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
    new content under an existing match id replaces that match's partitions ("replaced").

    `on_progress(bytes)` reports the first pass over the file; `on_stage(name)` names each later step.
    """
    stage = on_stage or (lambda _name: None)
    path = Path(path)
    root = Path(warehouse_root)
    if not path.exists():
        raise IngestError(f"no such log file: {path}")
    scratch = Path(tempfile.mkdtemp(prefix="ingest-"))
    try:
        con = duckdb.connect()
        con.execute(f"SET memory_limit = '{memory_limit_mb}MB'")
        con.execute(f"SET temp_directory = {warehouse.sql_string(str(scratch / 'spill'))}")
        # The survey (digest, line count) and DuckDB's read of the lines overlap on the two cores.
        with ThreadPoolExecutor(max_workers=1) as pool:
            surveying = pool.submit(survey_log, path, on_progress=on_progress)
            plain_rows = _read_plain_lines(con, path)
            survey = surveying.result()
        if survey.lines == 0:
            raise EmptyLogError(f"{path} is empty: a combat log holds one JSON event per line")
        already = warehouse.match_with_sha256(root, survey.sha256)
        if already is not None:
            return _result_from_warehouse(root, already, path, survey.sha256)
        stage("parsing events")
        undecodable = _load_lines(con, path, survey, plain_rows)
        lines_total = survey.lines
        _parse_lines(con, lines_total, undecodable)
        bad = con.execute("SELECT line_no, reason FROM quarantine_raw ORDER BY line_no").fetchall()
        lines_parsed = lines_total - len(bad)
        if lines_parsed == 0 or len(bad) / lines_total > max_bad_share:
            first = "; ".join(f"line {n}: {reason}" for n, reason in bad[:5])
            raise MalformedLogError(
                f"{path}: {len(bad)} of {lines_total} lines are malformed "
                f"({len(bad) / lines_total:.1%}, limit {max_bad_share:.1%}); first: {first}. "
                "Nothing was loaded. Is this a SMITE 2 combat log?"
            )
        match_id, start, end = _build_events(con, path.name.split(".")[0])
        stage("deriving tables")
        _derive_tables(con, match_id, start, end)
        _build_matches(con, match_id, start, end, path, survey.sha256, (lines_total, lines_parsed, len(bad)))
        counts = dict(con.execute("SELECT event_type, count(*) FROM events GROUP BY 1 ORDER BY 1").fetchall())
        stage("writing partitions")
        rows, dirs, replaced = {}, {}, False
        staging = scratch / "parquet"
        staging.mkdir()
        for table in TABLES:
            columns = ", ".join(WAREHOUSE_SCHEMA[table])
            staged = staging / f"{table}.parquet"
            con.execute(f"COPY (SELECT {columns} FROM {table}) TO '{staged}' (FORMAT parquet, COMPRESSION snappy)")
            rows[table] = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            replaced |= warehouse.replace_partition(root, table, match_id, staged)
            dirs[table] = str(warehouse.partition_dir(root, table, match_id))
        con.close()
        return IngestResult(
            match_id=match_id, status="replaced" if replaced else "ingested", source_file=str(path),
            source_sha256=survey.sha256, lines_total=lines_total, lines_parsed=lines_parsed, lines_quarantined=len(bad),
            event_counts=counts, table_rows=rows, first_bad_lines=tuple(bad[:10]), partition_dirs=dirs,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _result_from_warehouse(root: Path, match_id: str, path: Path, sha: str) -> IngestResult:
    con = warehouse.open_warehouse(root, match_id)
    lines_total, lines_parsed, lines_quarantined = con.execute(
        "SELECT lines_total, lines_parsed, lines_quarantined FROM matches").fetchone()
    counts = dict(con.execute("SELECT event_type, count(*) FROM events GROUP BY 1 ORDER BY 1").fetchall())
    rows = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    bad = con.execute("SELECT line_no, reason FROM quarantine ORDER BY line_no LIMIT 10").fetchall()
    return IngestResult(
        match_id=match_id, status="unchanged", source_file=str(path), source_sha256=sha,
        lines_total=lines_total, lines_parsed=lines_parsed, lines_quarantined=lines_quarantined,
        event_counts=counts, table_rows=rows, first_bad_lines=tuple(bad),
        partition_dirs={t: str(warehouse.partition_dir(root, t, match_id)) for t in TABLES},
    )
