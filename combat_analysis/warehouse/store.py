"""The match warehouse: one immutable, versioned snapshot per match, published by one atomic pointer.

Layout under the warehouse root (docs/warehouse.md has the whole story):

    matches/<folder(match id)>/current.json               the pointer: names the committed snapshot
    matches/<folder(match id)>/snapshots/<name>/          manifest.json + one <table>.parquet per table
    matches/<folder(match id)>/lock                       the match's writer lock
    digests/<sha[:2]>/<sha256>.json                       digest index: which snapshots hold a file's content
    garbage/<folder(match id)>                            this match may hold replaced or uncommitted snapshots
    scratch/<ingest id>/, scratch/<ingest id>.lock        an ingest's spill and staging space

Every match-id-derived name goes through `combat_analysis.keys`, so ids are data and never paths. Readers
resolve the pointer and never glob table folders; a writer stages a complete snapshot, moves it beside the
pointer and replaces the pointer (temp file, fsync, `os.replace`), so a reader sees the old match or the
complete new one, never a mix.

Replaced snapshots are removed only when no reader can hold them. A reader of one match holds a shared
`flock` on its snapshot's manifest; a reader of all matches holds a shared `flock` on `readers.lock`. The
sweeper removes a replaced snapshot only while it can take both exclusively without waiting; otherwise the
snapshot stays listed in `garbage/` for the next ingest's sweep. Locks die with their process, so a crashed
reader never pins a snapshot, and `open_warehouse` ties its locks to the connection's lifetime.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import uuid
import weakref
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from combat_analysis.contracts.schema import TABLES, WAREHOUSE_SCHEMA
from combat_analysis.keys import KeyRefused, check_key, key_from_folder_name, path_for_key

POINTER = "current.json"
MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
SNAPSHOT_NAME = re.compile(r"\d{8}T\d{12}Z-[0-9a-f]{12}-[0-9a-f]{8}")
SHA256 = re.compile(r"[0-9a-f]{64}")


# Settings for a DuckDB connection that writes the warehouse (an ingest, a compaction) within a memory budget.
# DuckDB's allocator keeps freed memory in per-thread caches (128 MiB each by default) and gives it back only
# from a background thread; and its external file cache keeps the files it read in memory. A writer reads each
# file once, so neither helps it, and without this a process that once held a large batch stays that big.
LEAN_SETTINGS = ("SET allocator_background_threads = true", "SET allocator_flush_threshold = '8MiB'",
                 "SET allocator_bulk_deallocation_flush_threshold = '8MiB'", "SET enable_external_file_cache = false")


class WarehouseError(RuntimeError):
    """The warehouse cannot answer: no such match, or nothing ingested yet."""


# -- paths ----------------------------------------------------------------------------------------------------

def match_dir(root: Path, match_id: str) -> Path:
    """The folder of one match: its pointer, its snapshots and its writer lock."""
    return path_for_key(Path(root) / "matches", match_id, what="match id")


def table_file(snapshot: Path, table: str) -> Path:
    return Path(snapshot) / f"{table}.parquet"


def digest_entry_path(root: Path, sha256: str) -> Path:
    if not SHA256.fullmatch(sha256):
        raise ValueError(f"not a SHA-256 digest: {sha256!r}")
    return Path(root) / "digests" / sha256[:2] / f"{sha256}.json"


def garbage_marker(root: Path, match_id: str) -> Path:
    return path_for_key(Path(root) / "garbage", match_id, what="match id")


def new_snapshot_name(sha256: str) -> str:
    """Sortable by creation time, tagged with the content digest, unique by a random suffix."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return f"{stamp}-{sha256[:12]}-{uuid.uuid4().hex[:8]}"


# -- durable small files ----------------------------------------------------------------------------------------

def fsync_path(path: Path) -> None:
    """Flush a file's or a folder's entry to disk (a rename is durable only once its folder is synced)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace `path` with `data` all at once: temp file beside it, fsync, `os.replace`, fsync the folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.tmp-{uuid.uuid4().hex[:8]}")
    with open(temp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)
    fsync_path(path.parent)


def _read_json(path: Path) -> dict | None:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# -- reading committed state ----------------------------------------------------------------------------------------

def committed_snapshot(root: Path, match_id: str) -> Path | None:
    """The snapshot folder the match's pointer names, or None if the match was never committed."""
    return _snapshot_in(match_dir(root, match_id))


def _snapshot_in(folder: Path) -> Path | None:
    pointer = _read_json(folder / POINTER)
    name = pointer.get("snapshot") if pointer else None
    if not isinstance(name, str) or not SNAPSHOT_NAME.fullmatch(name):
        return None
    return folder / "snapshots" / name


def _match_folders(root: Path) -> Iterator[tuple[str, Path]]:
    base = Path(root) / "matches"
    if not base.is_dir():
        return
    for entry in os.scandir(base):
        try:
            match_id = key_from_folder_name(entry.name)
        except KeyRefused:
            continue  # not a match folder (e.g. a stray file); never guessed at
        yield match_id, Path(entry.path)


def match_ids(root: Path) -> list[str]:
    """Every committed match, by the id as its log wrote it."""
    return sorted(match_id for match_id, folder in _match_folders(root) if (folder / POINTER).exists())


def committed_manifest(root: Path, match_id: str) -> dict | None:
    """The committed manifest of a match (source digest, line range and counts, row counts, creation time), or
    None if the match was never committed."""
    snapshot = committed_snapshot(root, match_id)
    return _read_json(snapshot / MANIFEST) if snapshot else None


def manifest(root: Path, match_id: str) -> dict:
    """`committed_manifest`, or `WarehouseError` naming the matches there are."""
    try:
        data = committed_manifest(root, check_key(match_id, "match id"))
    except KeyRefused as exc:
        raise WarehouseError(str(exc)) from exc
    if data is None:
        raise WarehouseError(_unknown_match(root, match_id))
    return data


def _unknown_match(root: Path, match_id: str) -> str:
    # A count, never the list: at 1,000 matches a list of ids is 12 KB of error text.
    known = len(match_ids(root))
    return (f"match {match_id!r} is not in the warehouse at {root} ({known:,} match{'es' if known != 1 else ''}; "
            "`combat-analysis matches` lists them)")


# -- reader leases ------------------------------------------------------------------------------------------------

def _lease_snapshot(root: Path, match_id: str, attempts: int = 8) -> tuple[Path, int] | None:
    """Resolve the match's pointer and hold a shared lock on that snapshot; None if never committed.

    A sweeper may remove the snapshot between our reading the pointer and locking it; then the path no longer
    leads to the locked file, and we resolve the pointer again (it names the newer snapshot by then).
    """
    for _ in range(attempts):
        snapshot = committed_snapshot(root, match_id)
        if snapshot is None:
            return None
        try:
            fd = os.open(snapshot / MANIFEST, os.O_RDONLY)
        except FileNotFoundError:
            continue
        fcntl.flock(fd, fcntl.LOCK_SH)
        try:
            still_there = os.stat(snapshot / MANIFEST).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            still_there = False
        if still_there:
            return snapshot, fd
        os.close(fd)
    raise WarehouseError(f"match {match_id!r} keeps changing under the reader; try again")


def _readers_lock(root: Path) -> list[int]:
    """A shared lock held by readers of every match; none on a warehouse nobody can write (nor sweep)."""
    try:
        fd = os.open(Path(root) / "readers.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return []  # no warehouse yet, or a read-only one
    fcntl.flock(fd, fcntl.LOCK_SH)
    return [fd]


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def table_sources(root: Path, match_id: str | None = None, *, hold_for: object | None = None) -> dict[str, list[Path]]:
    """For each table in `schema.TABLES`, the committed Parquet files a view over one match (its snapshot's
    files only) or over every match must read. Over every match, a table of the season layer reads the
    layer's valid chunks and then the snapshots of the matches no valid chunk holds (in match-id order);
    `events` reads every snapshot. Nothing else is ever read: no glob, no hive partitions.

    The files stay on disk while the caller reads them only if it holds them: pass the object that reads them
    (e.g. the DuckDB connection whose views name the files) as `hold_for`, and the snapshots are held until
    that object is garbage-collected. Raises `WarehouseError` for a match that is not in the warehouse.
    """
    root = Path(root)
    fds: list[int] = []
    try:
        if match_id is not None:
            try:
                match_id = check_key(match_id, "match id")
            except KeyRefused as exc:
                raise WarehouseError(str(exc)) from exc
            leased = _lease_snapshot(root, match_id)
            if leased is None:
                raise WarehouseError(_unknown_match(root, match_id))
            fds.append(leased[1])
            sources = {table: [table_file(leased[0], table)] for table in TABLES}
        else:
            fds.extend(_readers_lock(root))
            sources = _all_match_sources(root, _committed(root))
    except BaseException:
        _close_all(fds)
        raise
    if hold_for is not None:
        weakref.finalize(hold_for, _close_all, fds)
    else:
        _close_all(fds)
    return sources


def sql_string(text: str) -> str:
    """A SQL string literal, for the few statements DuckDB cannot parameterise (paths in FROM, SET)."""
    return "'" + text.replace("'", "''") + "'"


def _empty_select(table: str) -> str:
    columns = ", ".join(f"CAST(NULL AS {kind}) AS {name}" for name, kind in WAREHOUSE_SCHEMA[table].items())
    return f"SELECT {columns} WHERE false"


def view_sql(table: str, files: list[Path]) -> str:
    """The SELECT behind one warehouse view: exactly these Parquet files, never a folder name read as data."""
    if not files:
        return _empty_select(table)
    listed = ", ".join(sql_string(str(f)) for f in files)
    return f"SELECT * FROM read_parquet([{listed}], hive_partitioning = false)"


def open_warehouse(root: Path, match_id: str | None = None, *, read_only_memory_mb: int = 1024):
    """A DuckDB connection with one view per warehouse table.

    With `match_id`, every view holds that match only, so a question about one match needs no filter. Without
    it, the views hold every committed match. The snapshots read are held for the connection's lifetime, so an
    ingest that replaces a match meanwhile never pulls files from under it.
    """
    con = duckdb.connect()
    sources = table_sources(root, match_id, hold_for=con)
    con.execute(f"SET memory_limit = '{read_only_memory_mb}MB'")
    for table in TABLES:
        con.execute(f"CREATE VIEW {table} AS {view_sql(table, sources[table])}")
    return con


# -- the season layer: compacted, derived copies for reads across matches ------------------------------------------
#
#   layer/current.json                 the pointer: {"chunks": [<name>, ...]}
#   layer/chunks/<name>/               manifest.json (the matches it holds: id -> snapshot) and <table>.parquet
#   layer/lock                         one compactor at a time
#
# A chunk holds complete groups of `CHUNK_MATCHES` committed matches, one zstd Parquet file per table, so a
# question across a thousand matches opens tens of files per table instead of a thousand. Snapshots stay the
# source of truth: a chunk counts only while every match in it is still committed as the very snapshot it was
# built from (a replaced match sends its whole chunk back to the snapshots until it is rebuilt), and chunks are
# rebuilt, never edited, and published by replacing the pointer. `events` (one row per log line, the bulk of
# a snapshot, read by no figure across matches) stays out of the layer, so the layer adds a tenth to the
# warehouse instead of doubling it.

LAYER_DIR = "layer"
LAYER_TABLES: tuple[str, ...] = tuple(t for t in TABLES if t != "events")
CHUNK_MATCHES = 100
CHUNK_NAME = re.compile(r"\d{8}T\d{12}Z-[0-9a-f]{8}")
LAYER_PARQUET = "FORMAT parquet, COMPRESSION zstd"


def _committed(root: Path) -> dict[str, Path]:
    """Every committed match's snapshot folder, by match id."""
    found = {}
    # the folders as listed, not each id mapped back to its folder: at a thousand matches that mapping was a
    # third of the time of reading every pointer
    for match_id, folder in sorted(_match_folders(root)):
        snapshot = _snapshot_in(folder)
        if snapshot is not None:
            found[match_id] = snapshot
    return found


def layer_chunks(root: Path, committed: dict[str, Path] | None = None) -> list[tuple[Path, list[str]]]:
    """The layer's chunks that are valid against what is committed now: (folder, the match ids it holds)."""
    base = Path(root) / LAYER_DIR
    pointer = _read_json(base / POINTER)
    names = pointer.get("chunks") if pointer else None
    if not isinstance(names, list):
        return []
    committed = _committed(root) if committed is None else committed
    valid = []
    for name in names:
        if not isinstance(name, str) or not CHUNK_NAME.fullmatch(name):
            continue
        data = _read_json(base / "chunks" / name / MANIFEST)
        held = data.get("matches") if data else None
        if isinstance(held, dict) and held and all(
                m in committed and committed[m].name == snapshot for m, snapshot in held.items()):
            valid.append((base / "chunks" / name, sorted(held)))
    return valid


def _all_match_sources(root: Path, committed: dict[str, Path]) -> dict[str, list[Path]]:
    chunks = layer_chunks(root, committed)
    covered = {m for _, held in chunks for m in held}
    loose = [committed[m] for m in sorted(committed) if m not in covered]
    every = [committed[m] for m in sorted(committed)]
    return {table: ([table_file(c, table) for c, _ in chunks] + [table_file(s, table) for s in loose])
            if table in LAYER_TABLES else [table_file(s, table) for s in every] for table in TABLES}


def compact(root: Path, chunk_matches: int = CHUNK_MATCHES, *, memory_limit_mb: int = 128) -> int:
    """Bring the season layer up to date: keep the valid chunks, and write a new chunk for each complete
    group of `chunk_matches` matches no valid chunk holds (in match-id order); then publish the layer by one
    pointer replacement and sweep the chunks it no longer names. Returns how many chunks were written.

    One compactor at a time (another one running means this call does nothing); the snapshots it reads are
    held like any reader's, so no sweep removes them meanwhile.
    """
    root = Path(root)
    base = root / LAYER_DIR
    committed = _committed(root)
    if len(committed) < chunk_matches and not (base / POINTER).exists():
        return 0  # no chunk to write, none to drop: leave the warehouse as it is
    (base / "chunks").mkdir(parents=True, exist_ok=True)
    lock = os.open(base / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0
        readers = _readers_lock(root)
        try:
            written = _compact(root, base, chunk_matches, memory_limit_mb)
        finally:
            _close_all(readers)
        sweep_layer(root)
        return written
    finally:
        os.close(lock)


def _compact(root: Path, base: Path, chunk_matches: int, memory_limit_mb: int) -> int:
    committed = _committed(root)
    valid = layer_chunks(root, committed)
    covered = {m for _, held in valid for m in held}
    loose = sorted(m for m in committed if m not in covered)
    groups = [loose[i:i + chunk_matches] for i in range(0, len(loose) - chunk_matches + 1, chunk_matches)]
    pointer = _read_json(base / POINTER) or {}
    kept = [folder.name for folder, _ in valid]
    if not groups and kept == pointer.get("chunks"):
        return 0
    names = []
    if groups:
        con = duckdb.connect()
        try:
            con.execute(f"SET memory_limit = '{memory_limit_mb}MB'")
            con.execute("SET threads = 1")  # each COPY streams small files into one: one thread is as fast
            for setting in LEAN_SETTINGS:
                con.execute(setting)
            for group in groups:
                names.append(_write_chunk(con, base, {m: committed[m] for m in group}))
        finally:
            con.close()
    write_atomic(base / POINTER, json.dumps({"chunks": kept + names}).encode("utf-8"))
    return len(names)


def _write_chunk(con, base: Path, group: dict[str, Path]) -> str:
    """One chunk: every layer table of the group's snapshots, in match-id order, then its manifest, all
    fsynced before any pointer can name it."""
    name = f"{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%S%fZ')}-{uuid.uuid4().hex[:8]}"
    folder = base / "chunks" / name
    folder.mkdir()
    rows = {}
    for table in LAYER_TABLES:
        listed = ", ".join(sql_string(str(table_file(s, table))) for s in group.values())
        target = table_file(folder, table)
        con.execute(f"COPY (SELECT * FROM read_parquet([{listed}], hive_partitioning = false)) "
                    f"TO {sql_string(str(target))} ({LAYER_PARQUET})")
        rows[table] = con.execute(f"SELECT count(*) FROM read_parquet({sql_string(str(target))})").fetchone()[0]
        fsync_path(target)
    data = {"format": MANIFEST_FORMAT, "chunk": name, "created_at": datetime.now(timezone.utc).isoformat(
        timespec="seconds"), "matches": {m: s.name for m, s in group.items()}, "tables": rows}
    write_atomic(folder / MANIFEST, json.dumps(data, ensure_ascii=False).encode("utf-8"))
    return name


def sweep_layer(root: Path) -> bool:
    """Remove the chunks the layer's pointer does not name (replaced, or left by a compactor that died), only
    while no reader of every match holds the layer; True when nothing is left to remove. Call it holding the
    compactor's lock."""
    for temp in (Path(root) / LAYER_DIR).glob(f".{POINTER}.tmp-*"):  # a pointer a killed compactor left
        temp.unlink(missing_ok=True)
    base = Path(root) / LAYER_DIR / "chunks"
    pointer = _read_json(Path(root) / LAYER_DIR / POINTER) or {}
    named = set(pointer.get("chunks") or ())
    stale = [c for c in base.iterdir() if c.name not in named] if base.is_dir() else []
    if not stale:
        return True
    try:
        readers = os.open(Path(root) / "readers.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(readers, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a reader of every match may hold them; the next compaction sweeps them
        for chunk in stale:
            trash = chunk.with_name(f".trash-{uuid.uuid4().hex[:8]}") if not chunk.name.startswith(".trash-") else chunk
            with contextlib.suppress(FileNotFoundError):
                os.replace(chunk, trash)
            shutil.rmtree(trash, ignore_errors=True)
        return True
    finally:
        os.close(readers)


# -- writing: scratch space, commit, sweep ------------------------------------------------------------------------

@contextlib.contextmanager
def scratch_space(root: Path) -> Iterator[Path]:
    """A private scratch folder under the warehouse, locked for this ingest's lifetime. Scratch left by an
    ingest that died (its lock is free) is swept first; the folder is removed on the way out."""
    base = Path(root) / "scratch"
    base.mkdir(parents=True, exist_ok=True)
    sweep_scratch(base)
    ident = uuid.uuid4().hex
    lock = base / f"{ident}.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    folder = base / ident
    try:
        folder.mkdir()
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        with contextlib.suppress(FileNotFoundError):
            lock.unlink()
        os.close(fd)


def sweep_scratch(base: Path) -> int:
    """Remove the scratch of every ingest that is no longer running; returns how many were removed."""
    removed = 0
    if not base.is_dir():
        return 0
    for lock in base.glob("*.lock"):
        try:
            fd = os.open(lock, os.O_RDWR)
        except FileNotFoundError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue  # a live ingest
        try:
            shutil.rmtree(base / lock.stem, ignore_errors=True)
            with contextlib.suppress(FileNotFoundError):
                lock.unlink()
            removed += 1
        finally:
            os.close(fd)
    return removed


@contextlib.contextmanager
def match_writer_lock(root: Path, match_id: str) -> Iterator[Path]:
    """Serialise writers of one match (a second ingest of the same match waits); yields the match folder."""
    folder = match_dir(root, match_id)
    (folder / "snapshots").mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield folder
    finally:
        os.close(fd)


def write_manifest(snapshot: Path, data: dict) -> None:
    """The manifest, then every file of the snapshot, flushed to disk: a snapshot is complete before it moves."""
    for table in TABLES:
        fsync_path(table_file(snapshot, table))
    write_atomic(Path(snapshot) / MANIFEST, json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8"))


def unchanged_matches(root: Path, sha256: str) -> list[dict] | None:
    """The committed manifests of a file with this exact content, if every match it holds is committed as it.

    O(1) in the number of matches: the digest index names the snapshots, and each is verified against the
    match's pointer and committed manifest (an index entry is written before the pointer, so it may name a
    snapshot that was never committed, or one replaced since; then the file is not unchanged).
    """
    entry = _read_json(digest_entry_path(root, sha256))
    listed = entry.get("snapshots") if entry else None
    if not isinstance(listed, list) or not listed:
        return None
    manifests = []
    for item in listed:
        try:
            match_id, name = check_key(item["match_id"], "match id"), item["snapshot"]
        except (KeyError, TypeError, KeyRefused):
            return None
        snapshot = committed_snapshot(root, match_id)
        if snapshot is None or snapshot.name != name:
            return None
        data = _read_json(snapshot / MANIFEST)
        if data is None or data.get("source_sha256") != sha256 or data.get("match_id") != match_id:
            return None
        manifests.append(data)
    return manifests


def write_digest_entry(root: Path, sha256: str, snapshots: list[tuple[str, str]]) -> None:
    data = {"source_sha256": sha256, "snapshots": [{"match_id": m, "snapshot": s} for m, s in snapshots]}
    write_atomic(digest_entry_path(root, sha256), json.dumps(data, ensure_ascii=False).encode("utf-8"))


def mark_garbage(root: Path, match_id: str) -> None:
    """Note that the match may hold snapshots to remove, before anything lands in its folder; a crash at any
    later point is then found and cleaned by the next sweep."""
    marker = garbage_marker(root, match_id)
    marker.parent.mkdir(parents=True, exist_ok=True)
    if not marker.exists():
        write_atomic(marker, match_id.encode("utf-8"))


def place_snapshot(folder: Path, staged: Path) -> Path:
    """Move a complete staged snapshot beside the pointer (not yet visible: the pointer does not name it)."""
    target = folder / "snapshots" / staged.name
    os.replace(staged, target)
    fsync_path(target.parent)
    return target


def publish(folder: Path, snapshot_name: str) -> None:
    """The commit: one atomic replacement of the match's pointer."""
    write_atomic(folder / POINTER, json.dumps({"snapshot": snapshot_name}).encode("utf-8"))


def sweep_match(root: Path, match_id: str, folder: Path) -> bool:
    """Remove what the match no longer needs: replaced or uncommitted snapshots no reader holds, temp pointers,
    half-removed snapshots. Call with the match's writer lock held. True when nothing is left to remove."""
    current = committed_snapshot(root, match_id)
    clean = True
    for entry in list((folder / "snapshots").iterdir()) if (folder / "snapshots").is_dir() else []:
        if current is not None and entry.name == current.name:
            continue
        if entry.name.startswith(".trash-"):
            shutil.rmtree(entry, ignore_errors=True)
            continue
        clean &= _remove_unheld_snapshot(root, entry)
    for temp in folder.glob(f".{POINTER}.tmp-*"):
        temp.unlink(missing_ok=True)
    return clean


def _remove_unheld_snapshot(root: Path, snapshot: Path) -> bool:
    try:
        all_readers = os.open(Path(root) / "readers.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(all_readers, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a reader of every match may hold it
        try:
            fd = os.open(snapshot / MANIFEST, os.O_RDONLY)
        except FileNotFoundError:
            fd = None  # never held: a snapshot without a manifest was never published
        try:
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    return False  # a reader of this match holds it
            # Renamed away first, so no reader can open it any more, then removed at leisure.
            trash = snapshot.with_name(f".trash-{uuid.uuid4().hex[:8]}")
            os.replace(snapshot, trash)
            shutil.rmtree(trash, ignore_errors=True)
            return True
        finally:
            if fd is not None:
                os.close(fd)
    finally:
        os.close(all_readers)


def forget_digest(root: Path, sha256: str | None, keep: str) -> None:
    """Drop the index entry of content a match no longer holds (it could only ever fail verification)."""
    if sha256 and sha256 != keep and SHA256.fullmatch(sha256):
        digest_entry_path(root, sha256).unlink(missing_ok=True)


def sweep_garbage(root: Path) -> int:
    """Clean every match listed in `garbage/` whose writer is idle; returns how many matches are now clean."""
    base = Path(root) / "garbage"
    cleaned = 0
    if not base.is_dir():
        return 0
    for marker in list(base.iterdir()):
        try:
            match_id = key_from_folder_name(marker.name)
        except KeyRefused:
            if marker.name.startswith("."):  # a temp marker left by a crash
                marker.unlink(missing_ok=True)
            continue
        folder = match_dir(root, match_id)
        fd = os.open(folder / "lock", os.O_RDWR | os.O_CREAT, 0o644) if folder.is_dir() else None
        if fd is None:
            marker.unlink(missing_ok=True)
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # its writer is at work; the writer sweeps it
            if sweep_match(root, match_id, folder):
                marker.unlink(missing_ok=True)
                cleaned += 1
        finally:
            os.close(fd)
    return cleaned
