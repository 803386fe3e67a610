"""Ingest SMITE 2 combat logs into the warehouse: parse, check, derive every METRICS.md table, commit.

`ingest_logs` takes any number of files in one process and one DuckDB connection, as a pipeline:

- a survey thread reads each file once ahead of the rest (SHA-256 and line count), so the "unchanged" check
  (one digest-index lookup, whatever the warehouse holds) is settled before DuckDB touches the file;
- the main thread gives DuckDB the files in batches (small files together, up to `BATCH_BYTES` of logs; a
  large file alone): one CSV read, one JSON parse and one statement per derived table for the whole batch
  (`derive`);
- two writer threads commit each file's matches into the warehouse lake, one transaction per file: every
  table's rows of each of its matches replaced together (`warehouse.commit`), while DuckDB already works on
  the next batch.

Each file succeeds or fails alone, with a one-line `IngestError` naming it; a batch that fails as a whole is
retried file by file, so one bad file never costs the others. DuckDB works under a memory limit and spills to
a temporary folder, so memory stays bounded for any file size. `ingest_log` is the same for one file.

A file may hold several matches: each `start` event begins one, with its own id and clock. A log is known by
its content (`Survey.sha256`, over the decompressed bytes), so the same log plain or compressed is unchanged.
"""

from __future__ import annotations

import gzip
import queue
import tempfile
import zlib
from collections import Counter, deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from combat_analysis.formatting import clock, count
from combat_analysis.ingest import derive
from combat_analysis.ingest.derive import (  # noqa: F401  (KEYS: benchmarks)
    KEYS,
    BatchLog,
    Segment,
    StagedSegment,
)
from combat_analysis.ingest.logfile import Survey, survey_log
from combat_analysis.keys import KeyRefused
from combat_analysis.warehouse import store as warehouse

# A real match lasts under an hour; a clock spanning a day means the times are not one match's.
MAX_MATCH_SECONDS = 24 * 3600
# Reasons start with their kind, so the summary can count them (`reason_kind`).
REASON_KINDS = ("invalid value", "too long", "invalid UTF-8", "broken start event", "after the broken start event",
                "truncated line")
# Logs that DuckDB reads in one batch: enough rows for both cores and few statements per match, while the
# batch's tables stay well inside the memory limit. A larger file is a batch by itself.
BATCH_BYTES = 48 * 1024 * 1024
GZIP_RATIO = 8  # a .gz log's size unpacked, roughly, for batching
SURVEY_AHEAD_BYTES = 2 * BATCH_BYTES  # how far the survey thread reads ahead of DuckDB
COPY_THREADS = 2  # matches written at once (this machine has two cores)
# DuckDB's memory limit covers its buffers only. Python, DuckDB's readers and its allocator's per-thread caches
# take about this much more, so the process stays within the budget given to `ingest_logs`.
UNTRACKED_MB = 288
SLOTS = 2  # batches in DuckDB at once: one parsed while the other is written out


class IngestError(RuntimeError):
    """The log cannot be ingested as it is; the message (one line) names the file and the problem."""


class EmptyLogError(IngestError):
    pass


class MalformedLogError(IngestError):
    pass


class NotAMatchError(IngestError):
    """The file parses but is not a SMITE 2 match: no players, or not exactly two teams."""


class DowngradeRefused(IngestError):
    """The file holds less of a match than the warehouse already has (`replace=True` takes it anyway)."""


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
    snapshot: int | None = None  # the warehouse snapshot that committed this version of the match
    first_line: int = 1
    last_line: int = 0
    more: tuple[IngestResult, ...] = ()

    @property
    def matches(self) -> tuple[IngestResult, ...]:
        return (self, *self.more)


@dataclass(frozen=True)
class LogOutcome:
    """What became of one file of `ingest_logs`: its result, or the error (an `IngestError` naming the file,
    or an unforeseen exception) that kept it out. Nothing of a failed file is committed."""

    path: Path
    result: IngestResult | None = None
    error: BaseException | None = None


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


# What reading or writing a log can raise that is about the file or the disk, not about our code.
READ_ERRORS = (IngestError, KeyRefused, EOFError, zlib.error, OSError, duckdb.Error)


def as_ingest_error(path: Path, exc: BaseException) -> IngestError:
    """The one-line `IngestError` naming the file for one of `READ_ERRORS`."""
    if isinstance(exc, IngestError):
        return exc
    if isinstance(exc, (EOFError, zlib.error, gzip.BadGzipFile)):
        error = IngestError(f"{path}: the gzip archive is corrupt or holds no line ({_one_line(exc)})")
    else:
        error = IngestError(f"{path}: {_one_line(exc)[:300]}")
    error.__cause__ = exc
    return error


def ingest_log(
    path: Path,
    warehouse_root: warehouse.Where,
    *,
    max_bad_share: float = 0.01,
    on_progress: Callable[[int], None] | None = None,
    on_stage: Callable[[str], None] | None = None,
    memory_limit_mb: int = 512,
    replace: bool = False,
) -> IngestResult:
    """Read `path` into the warehouse. Identical content already ingested is left alone ("unchanged");
    new content under an existing match id replaces that match's snapshot ("replaced"), unless it holds less of
    the match (`DowngradeRefused`; `replace=True` takes it anyway). A file that is not a SMITE 2 match (no
    players, or not two teams) is refused (`NotAMatchError`).

    `on_progress(bytes)` reports the first pass over the file; `on_stage(name)` names each later step. Every
    failure is an `IngestError` whose one-line message names the file; nothing is committed then.
    """
    path = Path(path)
    check_log_file(path)
    [outcome] = ingest_logs([path], warehouse_root, max_bad_share=max_bad_share, on_progress=on_progress,
                            on_stage=on_stage, memory_limit_mb=memory_limit_mb, replace=replace)
    if outcome.error is not None:
        raise outcome.error
    if outcome.result is None:  # an outcome holds a result or an error
        raise IngestError(f"{path}: the ingest reported neither a result nor an error")
    return outcome.result


def ingest_logs(
    paths: Iterable[Path],
    warehouse_root: warehouse.Where,
    *,
    max_bad_share: float = 0.01,
    on_progress: Callable[[int], None] | None = None,
    on_stage: Callable[[str], None] | None = None,
    on_done: Callable[[LogOutcome], None] | None = None,
    memory_limit_mb: int = 512,
    batch_bytes: int = BATCH_BYTES,
    merge: bool = True,
    replace: bool = False,
) -> list[LogOutcome]:
    """Read every file into the warehouse, in one process and one DuckDB connection; one outcome per file, in
    the order given. Each file is ingested as `ingest_log` would (the same checks, statuses and errors), and
    fails alone. `on_progress(bytes)` reports the survey's reading, `on_stage(name)` each batch's step, and
    `on_done(outcome)` each file as soon as it is settled (committed, unchanged or failed). `memory_limit_mb` is
    the budget of the whole process: DuckDB gets it less `UNTRACKED_MB` and spills the rest to a temporary
    folder. When matches landed (and `merge`), the files of the tables read across matches are merged at the end
    once there are enough of them (`warehouse.compact`). `warehouse_root` is the warehouse folder or a `warehouse.Lake`."""
    paths = [Path(p) for p in paths]
    run = _Run(warehouse.as_lake(warehouse_root), max_bad_share, on_progress, on_stage or (lambda _name: None), on_done,
               batch_bytes, replace)
    items = []
    for index, path in enumerate(paths):
        try:
            check_log_file(path)
            items.append(_Item(index, path, _batch_size(path)))
        except IngestError as exc:
            run.finish(_Item(index, path, 0), error=exc)
    with tempfile.TemporaryDirectory(prefix="combat-analysis-ingest-") as scratch:
        if items:
            run.go(items, Path(scratch), memory_limit_mb)
        if merge and any(o.result is not None and any(m.status != "unchanged" for m in o.result.matches)
                         for o in run.outcomes.values()):
            run.stage("merging small files")
            # Merging only speeds up reads across matches: what is committed stands if it cannot run now (another
            # writer, too little memory), and the next ingest or housekeeping tries again. It keeps the ingest's
            # memory budget, spilling beyond it.
            try:
                # one thread: reading a thousand small files at once ran out of the budget (tests would not show it)
                warehouse.compact(run.root, config={"memory_limit": f"{duckdb_memory_mb(memory_limit_mb)}MB",
                                                    "temp_directory": str(Path(scratch) / "merge"), "threads": 1})
            except (*READ_ERRORS, warehouse.WarehouseError) as exc:
                run.stage(f"merging small files skipped ({str(exc).splitlines()[0][:120]}); the matches are committed")
    return [run.outcomes[i] for i in range(len(paths))]


def duckdb_memory_mb(budget_mb: int) -> int:
    """DuckDB's own memory limit for an ingest whose whole process has `budget_mb`; it spills beyond it."""
    return max(128, budget_mb - UNTRACKED_MB)


def _schema(slot: int) -> str:
    return f"batch{slot}"


def _batch_size(path: Path) -> int:
    size = path.stat().st_size
    return size * GZIP_RATIO if path.suffix == ".gz" else size


@dataclass(frozen=True)
class _Item:
    index: int
    path: Path
    size: int


@dataclass
class _Entry:
    """One match of a file in a batch: committed already from this very file (`unchanged`, its manifest), or
    to write as match `seg` of the batch (`old`: the manifest of the version it replaces, if any)."""

    segment: Segment
    unchanged: dict | None = None
    seg: int | None = None
    old: dict | None = None

    @property
    def status(self) -> str:
        return "unchanged" if self.unchanged is not None else "ingested" if self.old is None else "replaced"


@dataclass
class _Plan:
    """One file of a batch on its way to a writer thread."""

    item: _Item
    log: BatchLog
    entries: list[_Entry]
    # Its batch's summaries, kept with the plan: the connection moves on to the next batch (and its summaries)
    # while a writer thread still writes this one.
    summaries: dict[int, derive.SegmentSummary] = field(default_factory=dict)


class _Run:
    """One `ingest_logs` call: the survey and commit threads, the DuckDB connection, and every file's outcome."""

    def __init__(self, root: warehouse.Lake, max_bad_share: float, on_progress, stage, on_done, batch_bytes: int,
                 replace: bool = False):
        self.replace = replace
        self.root = root
        self.max_bad_share = max_bad_share
        self.on_progress = on_progress
        self.stage = stage
        self.on_done = on_done
        self.batch_bytes = batch_bytes
        self.outcomes: dict[int, LogOutcome] = {}
        self.surveys: dict[int, Future] = {}
        self.commits: deque[tuple[_Item, Future]] = deque()
        self.matches_in_flight: dict[str, Future] = {}
        self.shas_in_flight: dict[str, Future] = {}

    # -- outcomes ------------------------------------------------------------------------------------------------

    def finish(self, item: _Item, result: IngestResult | None = None, error: BaseException | None = None) -> None:
        if error is not None and isinstance(error, READ_ERRORS):
            error = as_ingest_error(item.path, error)
        outcome = LogOutcome(item.path, result, error)
        self.outcomes[item.index] = outcome
        if self.on_done is not None:
            self.on_done(outcome)

    def _collect(self, block: bool) -> None:
        """Report the files the commit thread has finished, in order (all of them when `block`)."""
        while self.commits and (block or self.commits[0][1].done()):
            item, future = self.commits.popleft()
            try:
                self.finish(item, result=future.result())
            except Exception as exc:  # noqa: BLE001 - reported as this file's outcome
                self.finish(item, error=exc)
            for flights in (self.matches_in_flight, self.shas_in_flight):
                for key in [k for k, f in flights.items() if f is future]:
                    del flights[key]

    # -- the pipeline --------------------------------------------------------------------------------------------

    def go(self, items: list[_Item], scratch: Path, memory_limit_mb: int) -> None:
        self.con = warehouse.connect(self.root)
        warehouse.ensure_tables(self.con, self.root)
        self.con.execute(f"SET memory_limit = '{duckdb_memory_mb(memory_limit_mb)}MB'")
        self.con.execute(f"SET temp_directory = {warehouse.sql_string(str(scratch / 'spill'))}")
        self.threads: int | None = None  # DuckDB's default until the first batch says
        for setting in warehouse.LEAN_SETTINGS:
            self.con.execute(setting)
        # Two schemas hold two batches: DuckDB parses one while the other's matches are written out.
        for slot in range(SLOTS):
            self.con.execute(f"CREATE SCHEMA {_schema(slot)}")
        self.slot = 0
        self.slot_copies: dict[int, list[Future]] = {slot: [] for slot in range(SLOTS)}
        self.cursors: queue.SimpleQueue = queue.SimpleQueue()
        cursors = [self.con.cursor() for _ in range(COPY_THREADS)]
        for cursor in cursors:
            self.cursors.put(cursor)
        pending = deque(items)
        carry: list[_Item] = []
        with ThreadPoolExecutor(1, "survey") as surveyor, ThreadPoolExecutor(COPY_THREADS, "write") as self.writers:
            self.surveyor = surveyor
            try:
                while pending or carry:
                    batch = self._next_batch(carry, pending)
                    self._survey_ahead(batch, pending)
                    carry = sorted(self._batch(batch), key=lambda i: i.index)
                    self._collect(block=False)
                self._collect(block=True)
            finally:
                for future in self.surveys.values():
                    future.cancel()
                wait([f for copies in self.slot_copies.values() for f in copies])
                for cursor in cursors:
                    cursor.close()
                self.con.close()

    def _next_batch(self, carry: list[_Item], pending: deque[_Item]) -> list[_Item]:
        batch, size = list(carry), sum(i.size for i in carry)
        while pending and (not batch or size + pending[0].size <= self.batch_bytes):
            item = pending.popleft()
            batch.append(item)
            size += item.size
        return batch

    def _survey_ahead(self, batch: list[_Item], pending: deque[_Item]) -> None:
        ahead = 0
        for item in [*batch, *pending]:
            if item.index not in self.surveys:
                self.surveys[item.index] = self.surveyor.submit(survey_log, item.path, on_progress=self.on_progress)
            if item not in batch:
                ahead += item.size
                if ahead >= SURVEY_AHEAD_BYTES:
                    break

    def _batch(self, items: list[_Item]) -> list[_Item]:
        """Ingest one batch; returns the files it had to put off to the next one."""
        deferred: list[_Item] = []
        # With the surveys in, settled files never reach DuckDB; else DuckDB reads while the survey finishes.
        ready = all(self.surveys[i.index].done() for i in items)
        if ready:
            items = self._settle(items, deferred)
        if not items:
            return deferred
        self._take_slot()
        self._set_threads(2 if sum(i.size for i in items) > self.batch_bytes else 1)
        # Within the batch a file is known by its position (`f`), numbered before the read.
        number = {item.index: f for f, item in enumerate(items)}
        derive.read_logs(self.con, [(number[i.index], i.path) for i in items])
        if not ready:
            items = self._settle(items, deferred)
            if not items:
                return deferred
        logs = {i.index: BatchLog(number[i.index], i.path, self.surveys[i.index].result()) for i in items}
        try:
            plans = self._derive(items, logs, deferred)
        except Exception as exc:  # noqa: BLE001 - a batch that fails as a whole is retried file by file
            if len(items) == 1:
                self.finish(items[0], error=exc)
                return deferred
            for item in items:  # those not settled or put off on the way
                if item.index not in self.outcomes and item not in deferred:
                    deferred.extend(self._batch([item]))
            return deferred
        self._stage(plans)
        return deferred

    def _settle(self, items: list[_Item], deferred: list[_Item]) -> list[_Item]:
        """Settle what the survey alone decides: unreadable, empty and unchanged files.

        Each file is judged on everything the files before it committed. So a file the warehouse may already
        hold (its content is indexed) is judged only at the head of a batch, once the commits under way are
        done; and it, or a second file with the content of one in this batch, cuts the batch: it and the
        files after it are put off to the next batch.
        """
        live: list[_Item] = []
        shas: set[str] = set()
        for position, item in enumerate(items):
            try:
                survey: Survey = self.surveys[item.index].result()
            except Exception as exc:  # noqa: BLE001 - reported as this file's outcome
                self.finish(item, error=exc)
                continue
            if survey.lines == 0:
                self.finish(item, error=EmptyLogError(
                    f"{item.path} is empty: a combat log holds one JSON event per line"))
                continue
            known = survey.sha256 in self.shas_in_flight or bool(warehouse.same_content(self.con, survey.sha256))
            if survey.sha256 in shas or (known and live):
                deferred.extend(items[position:])
                break
            if known:
                wait([future for _, future in self.commits])
                unchanged = self._unchanged(survey.sha256)
                if unchanged is not None:
                    self.finish(item, result=_chain([_result(m, "unchanged", item.path) for m in unchanged]))
                    continue
            shas.add(survey.sha256)
            live.append(item)
        return live

    def _derive(self, items: list[_Item], logs: dict[int, BatchLog], deferred: list[_Item]) -> list[_Plan]:
        """Parse and check the batch, cut each file into matches and derive every match's tables (failing or
        putting off single files on the way); returns the files to stage."""
        con = self.con
        self.stage("parsing events")
        unreadable = derive.settle_logs(con, list(logs.values()))
        derive.quarantine_lines(con, unreadable)
        starts = derive.start_lines(con)
        segments: dict[int, list[Segment]] = {}
        for item in items:
            try:
                segments[item.index] = derive.split_matches(con, logs[item.index], starts.get(logs[item.index].f, []))
            except READ_ERRORS as exc:
                self.finish(item, error=exc)
        quarantined = derive.quarantined_lines(con)
        alive = []
        for item in items:
            if item.index not in segments:
                continue
            problem: IngestError | None = self._bad_share(con, item, logs[item.index], quarantined.get(logs[item.index].f, 0))
            if problem is not None:
                self.finish(item, error=problem)
            else:
                alive.append(item)
        plans = self._plan(alive, logs, segments, deferred)
        staged = [StagedSegment(e.seg, plan.log, e.segment) for plan in plans for e in plan.entries
                  if e.seg is not None]
        if not staged:
            return plans
        self.stage("deriving tables")
        clocks = derive.create_segments(con, staged)
        kept, dropped = [], []
        for plan in plans:
            problem = next(filter(None, (self._clock_problem(plan.item.path, e.segment, *clocks[e.seg])
                                         for e in plan.entries if e.seg is not None)), None)
            if problem is None:
                kept.append(plan)
                continue
            self.finish(plan.item, error=problem)
            dropped += [e.seg for e in plan.entries if e.seg is not None]
        derive.drop_segments(con, dropped)
        derive.set_clocks(con, {seg: clock for seg, clock in clocks.items() if seg not in dropped})
        derive.build_events(con)
        derive.derive_tables(con)
        summaries = derive.summaries(con)
        for plan in kept:
            plan.summaries = summaries
        return self._refuse(kept, derive.segment_shapes(con))

    def _refuse(self, plans: list[_Plan], shapes: dict[int, derive.SegmentShape]) -> list[_Plan]:
        """Files that would cost a good match are refused whole: one that is not a SMITE 2 match, or (unless
        `replace`) one that holds less of a match than the warehouse has."""
        kept = []
        for plan in plans:
            new = [(e, shapes[e.seg]) for e in plan.entries if e.seg is not None]
            problem = next(filter(None, (not_a_match(plan.item.path, e.segment, shape) or
                                         (None if self.replace else downgrade(plan.item.path, e.segment, e.old, shape))
                                         for e, shape in new)), None)
            if problem is None:
                kept.append(plan)
            else:
                self.finish(plan.item, error=problem)
        return kept

    def _bad_share(self, con, item: _Item, log: BatchLog, bad: int) -> MalformedLogError | None:
        lines_total = log.survey.lines
        if bad != lines_total and bad / lines_total <= self.max_bad_share:
            return None
        first = "; ".join(f"line {n}: {reason}" for n, reason in derive.first_quarantined(con, log.f))
        return MalformedLogError(
            f"{item.path}: {bad} of {lines_total} lines are malformed "
            f"({bad / lines_total:.1%}, limit {self.max_bad_share:.1%}); first: {first}. "
            "Nothing was loaded. Is this a SMITE 2 combat log?"
        )

    @staticmethod
    def _clock_problem(path: Path, segment: Segment, start: datetime | None, end: datetime | None) -> IngestError | None:
        if start is None or end is None or (end - start).total_seconds() <= MAX_MATCH_SECONDS:
            return None
        return IngestError(
            f"{path}: match {segment.match_id!r} (lines {segment.first_line:,} to {segment.last_line:,}) spans "
            f"{(end - start).total_seconds() / 3600:,.1f} hours from {start} to {end}: these times are not one "
            "match's clock")

    def _plan(self, items: list[_Item], logs: dict[int, BatchLog], segments: dict[int, list[Segment]],
              deferred: list[_Item]) -> list[_Plan]:
        """Which matches to stage. A match committed from this very file (same content, same lines) is
        unchanged. A match an earlier file of the batch holds too puts this file, and those after it, off to the
        next batch; one the commit thread is publishing is waited for, so statuses are read from what is
        committed."""
        plans: list[_Plan] = []
        claimed: set[str] = set()
        seg = 0
        for position, item in enumerate(items):
            ids = [s.match_id for s in segments[item.index]]
            if claimed.intersection(ids):
                deferred.extend(items[position:])
                break
            claimed.update(ids)
            busy = [self.matches_in_flight[m] for m in ids if m in self.matches_in_flight]
            if busy:
                wait(busy)
            sha = logs[item.index].survey.sha256
            entries = []
            for segment in segments[item.index]:
                old = warehouse.manifest_of(warehouse.source_record(self.con, segment.match_id))
                if old is not None and old.get("source_sha256") == sha and \
                        (old["lines"]["first"], old["lines"]["last"]) == (segment.first_line, segment.last_line):
                    entries.append(_Entry(segment, unchanged=old))
                else:
                    entries.append(_Entry(segment, seg=seg, old=old))
                    seg += 1
            plans.append(_Plan(item, logs[item.index], entries))
        return plans

    def _set_threads(self, threads: int) -> None:
        """Small files keep both cores busy as it is (this batch is parsed while the last one is written out), and
        DuckDB's parallel operators only add work on their small tables; a large file wants them.

        `SET threads` resizes the database's one task scheduler, so it waits for the writers to be idle: changed
        while a writer's query ran, DuckDB deadlocked (seen once in the test suite)."""
        if threads == self.threads:
            return
        wait([f for copies in self.slot_copies.values() for f in copies])
        self.con.execute(f"SET threads = {threads}")
        self.threads = threads

    def _take_slot(self) -> None:
        """Move the connection to the next batch schema, once the matches of the batch it held are written."""
        self.slot = (self.slot + 1) % SLOTS
        wait(self.slot_copies[self.slot])
        self.slot_copies[self.slot] = []
        self.con.execute(f"USE {_schema(self.slot)}")
        derive.reset(self.con)

    def _stage(self, plans: list[_Plan]) -> None:
        """Hand each file to a writer thread (two files at a time, on two cursors), which commits its new
        matches in one transaction; the connection goes on with the next batch meanwhile."""
        for plan in plans:
            self.stage("committing")
            future = self.writers.submit(self._write, self.slot, plan)
            self.slot_copies[self.slot].append(future)
            self.commits.append((plan.item, future))
            self.shas_in_flight[plan.log.survey.sha256] = future
            for entry in plan.entries:
                self.matches_in_flight[entry.segment.match_id] = future

    def _write(self, slot: int, plan: _Plan) -> IngestResult:
        """On a writer thread: the file's new matches replaced in every table in one transaction (retried when
        another writer got in the way), then its result."""
        new = [(e, e.seg) for e in plan.entries if e.seg is not None]
        ids = [e.segment.match_id for e in plan.entries]
        sources = {e.segment.match_id: _source(plan.log, e, plan.summaries[seg], ids) for e, seg in new}
        snapshot = None
        if new:
            cursor = self.cursors.get()
            try:
                cursor.execute(f"USE {_schema(slot)}")
                for entry, seg in new:
                    sources[entry.segment.match_id].update(derive.match_clock(cursor, seg))

                def work(c) -> None:
                    for entry, seg in new:
                        warehouse.replace_match(c, entry.segment.match_id, derive.match_rows(seg),
                                                sources[entry.segment.match_id])

                snapshot = warehouse.commit(cursor, work, message=_message(plan, [e for e, _ in new]), info={
                    "matches": {e.segment.match_id: e.status for e, _ in new}, "source_file": plan.item.path.name,
                    "content_sha256": plan.log.survey.sha256}, lake=self.root)
            finally:
                self.cursors.put(cursor)
        return _chain([_result(e.unchanged, "unchanged", plan.item.path) if e.unchanged is not None else
                       _result(warehouse.manifest_from(sources[e.segment.match_id]), e.status, plan.item.path, snapshot)
                       for e in plan.entries])

    def _unchanged(self, sha: str) -> list[dict] | None:
        """The manifests of every match committed from this content, if all of the file's matches still are."""
        found = warehouse.same_content(self.con, sha)
        if not found or {m["match_id"] for m in found} != set(found[0]["matches_in_file"] or ()):
            return None
        manifests = [warehouse.manifest_of(warehouse.source_record(self.con, m["match_id"])) for m in found]
        return [m for m in manifests if m is not None] or None


def not_a_match(path: Path, segment: Segment, shape: derive.SegmentShape) -> NotAMatchError | None:
    """A match needs players on exactly two teams; anything else is another game's log or a fragment."""
    if shape.players and shape.teams == 2:
        return None
    found = f"{count(shape.players, 'player')} on {count(shape.teams, 'team')}" if shape.players else "no players"
    return NotAMatchError(f"{path}: not a SMITE 2 match ({segment.match_id!r} has {found}; a match has players on "
                          "exactly two teams). Nothing was loaded.")


def downgrade(path: Path, segment: Segment, old: dict | None, shape: derive.SegmentShape) -> DowngradeRefused | None:
    """A copy that holds less of a stored match (fewer lines, a shorter clock, or no end where the stored one
    has one) is a cut upload or a prefix, never a correction."""
    if old is None:
        return None
    lines = segment.last_line - segment.first_line + 1
    less = [what for what, fewer in (
        ("fewer lines", lines < old["lines"]["total"]),
        ("a shorter match", (shape.duration_s or 0) < (old.get("duration_s") or 0)),
        ("no end (no Titan fell)", old.get("has_end") and not shape.has_end)) if fewer]
    if not less:
        return None
    return DowngradeRefused(
        f"{path}: it holds less of match {segment.match_id!r} than the warehouse ({', '.join(less)}): "
        f"this file {_extent(lines, shape.duration_s, shape.has_end)}; stored "
        f"{_extent(old['lines']['total'], old.get('duration_s'), bool(old.get('has_end')))} from "
        f"{old.get('source_file')}. A cut or partial upload? `--replace` takes it anyway.")


def _extent(lines: int, duration_s: int | None, has_end: bool) -> str:
    return f"{count(lines, 'line')}, {clock(duration_s)}, {'with' if has_end else 'without'} an end"


def _message(plan: _Plan, new: list[_Entry]) -> str:
    """The commit message: what happened to which match, from which file."""
    said = "; ".join(f"{e.status} match {e.segment.match_id}" for e in new)
    return f"{said} from {plan.item.path.name}"


def _source(log: BatchLog, entry: _Entry, summary: derive.SegmentSummary, ids: list[str]) -> dict:
    """What the warehouse keeps of a match's source (`warehouse.SOURCES_SCHEMA`), its clock still to add."""
    segment, bad = entry.segment, summary.bad
    lines_total = segment.last_line - segment.first_line + 1
    return {
        "match_id": segment.match_id, "content_sha256": log.survey.sha256, "source_file": log.path.name,
        "source_path": str(log.path.resolve()), "matches_in_file": ids,
        "first_line": segment.first_line, "last_line": segment.last_line, "lines_total": lines_total,
        "lines_parsed": lines_total - len(bad), "lines_quarantined": len(bad),
        "quarantine_reasons": dict(Counter(reason_kind(reason) for _, reason in bad)),
        "first_bad_lines": [[n, reason] for n, reason in bad[:10]],
        "event_counts": summary.event_counts, "table_rows": summary.table_rows,
        "ingested_at": datetime.now(timezone.utc).replace(tzinfo=None),
    }


def _result(data: dict, status: str, path: Path, snapshot: int | None = None) -> IngestResult:
    lines = data["lines"]
    return IngestResult(
        match_id=data["match_id"], status=status, source_file=str(path), source_sha256=data["source_sha256"],
        lines_total=lines["total"], lines_parsed=lines["parsed"], lines_quarantined=lines["quarantined"],
        event_counts=dict(data["event_counts"]), table_rows=dict(data["tables"]),
        first_bad_lines=tuple((n, r) for n, r in data["first_bad_lines"]),
        quarantine_reasons=dict(data["quarantine_reasons"]), snapshot=snapshot,
        first_line=lines["first"], last_line=lines["last"],
    )


def _chain(results: list[IngestResult]) -> IngestResult:
    first, *rest = results
    return IngestResult(**{**first.__dict__, "more": tuple(rest)})
