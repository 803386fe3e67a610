"""`combat-analysis migrate`: an existing home's snapshots, from the store before the lake, into the lake.

The earlier store kept one folder per match under `<warehouse>/matches/`: a pointer file (`current.json`)
naming the committed snapshot, and in it one Parquet file per table and a `manifest.json`. Each committed
snapshot becomes one commit in the lake, with every row and the manifest's facts; nothing is parsed again,
so every figure stays as it was. A match the lake already holds from the same content is skipped, so running
it twice changes nothing. The old folders are left alone (delete them once the lake answers as before).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from combat_analysis.contracts.schema import TABLES, WAREHOUSE_SCHEMA
from combat_analysis.keys import KeyRefused, key_from_folder_name
from combat_analysis.warehouse import store as warehouse

POINTER = "current.json"
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class OldSnapshot:
    """One committed snapshot of the earlier store."""

    match_id: str
    folder: Path
    manifest: dict


@dataclass(frozen=True)
class Migrated:
    moved: tuple[str, ...]
    skipped: tuple[str, ...]  # already in the lake from the same content
    problems: tuple[str, ...]  # one line each: a snapshot that could not be read


def old_snapshots(old_root: Path) -> Iterator[OldSnapshot | str]:
    """Each committed snapshot under an earlier warehouse folder, or a one-line problem for one that is not."""
    base = Path(old_root) / "matches"
    if not base.is_dir():
        return
    for entry in sorted(base.iterdir()):
        try:
            match_id = key_from_folder_name(entry.name)
        except KeyRefused:
            continue  # not a match folder
        try:
            name = json.loads((entry / POINTER).read_text(encoding="utf-8"))["snapshot"]
            folder = entry / "snapshots" / str(name)
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            yield f"{entry}: no committed snapshot to migrate ({type(exc).__name__}: {exc})"
            continue
        missing = [t for t in TABLES if not (folder / f"{t}.parquet").is_file()]
        if missing:
            yield f"{folder}: missing {', '.join(missing)}"
            continue
        yield OldSnapshot(match_id, folder, manifest)


def _source(snapshot: OldSnapshot) -> dict:
    data, lines = snapshot.manifest, snapshot.manifest.get("lines", {})
    created = data.get("created_at")
    return {
        "match_id": snapshot.match_id, "content_sha256": data.get("source_sha256"),
        "source_file": data.get("source_file"), "source_path": data.get("source_path"),
        "matches_in_file": list(data.get("matches_in_file") or [snapshot.match_id]),
        "first_line": lines.get("first"), "last_line": lines.get("last"), "lines_total": lines.get("total"),
        "lines_parsed": lines.get("parsed"), "lines_quarantined": lines.get("quarantined"),
        "quarantine_reasons": data.get("quarantine_reasons") or {}, "first_bad_lines": data.get("first_bad_lines") or [],
        "event_counts": data.get("event_counts") or {}, "table_rows": data.get("tables") or {},
        "ingested_at": (datetime.fromisoformat(created).astimezone(timezone.utc).replace(tzinfo=None) if created
                        else datetime.now(timezone.utc).replace(tzinfo=None)),
    }


def _rows(folder: Path) -> dict[str, str]:
    out = {}
    for table in TABLES:
        columns = ", ".join(f"CAST({c} AS {t}) AS {c}" for c, t in WAREHOUSE_SCHEMA[table].items())
        path = warehouse.sql_string(str(folder / f"{table}.parquet"))
        out[table] = f"SELECT {columns} FROM read_parquet({path}, hive_partitioning = false)"
    return out


def migrate(old_root: Path, lake: warehouse.Where, on_match: Callable[[str, str], None] | None = None) -> Migrated:
    """Every committed snapshot under `old_root` into the lake, one commit per match (`on_match(id, what)`
    reports each: moved or skipped)."""
    moved, skipped, problems = [], [], []
    lake = warehouse.as_lake(lake)
    with warehouse.writer(lake) as con:
        for found in old_snapshots(old_root):
            if isinstance(found, str):
                problems.append(found)
                continue
            source = _source(found)
            current = warehouse.source_record(con, found.match_id)
            if current is not None and current["content_sha256"] == source["content_sha256"]:
                skipped.append(found.match_id)
                if on_match:
                    on_match(found.match_id, "skipped")
                continue
            clock = con.execute(f"SELECT duration_s, winner_team IS NOT NULL FROM read_parquet("
                                f"{warehouse.sql_string(str(found.folder / 'matches.parquet'))})").fetchone()
            source.update(duration_s=clock[0] if clock else None, has_end=bool(clock[1]) if clock else False)
            rows = _rows(found.folder)
            warehouse.commit(con, functools.partial(warehouse.replace_match, match_id=found.match_id, rows=rows,
                                                    source=source),
                             message=f"migrated match {found.match_id} from {found.folder}",
                             info={"matches": {found.match_id: "migrated"}}, lake=lake)
            moved.append(found.match_id)
            if on_match:
                on_match(found.match_id, "moved")
    return Migrated(tuple(moved), tuple(skipped), tuple(problems))
