"""Streaming, lossless, bounded reading of a combat log file into numbered lines.

The file is read in fixed-size blocks, so memory stays flat whatever the file holds: a line longer than
`MAX_LINE_BYTES` is cut to its start as it streams by (it will be quarantined as too long), never gathered
whole. Decoding and splitting run on whole blocks (C speed); only a block that fails to decode as UTF-8 falls
back to line-by-line decoding, so one bad line costs nothing to its neighbours. JSON parsing happens later,
in DuckDB; only `start` events, which decide where a match begins and what it is called, are read here too.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from combat_analysis.keys import check_key

BLOCK_BYTES = 8 * 1024 * 1024
MAX_LINE_BYTES = 64 * 1024  # a real event is a few hundred bytes
KEPT_OF_LONG_LINE = 1000  # characters of a too-long line kept in quarantine
BOM = "\ufeff"
START_PATTERN = re.compile(r'"eventType"\s*:\s*"start"')


@dataclass(frozen=True)
class BadLine:
    line_no: int
    reason: str
    raw: str


@dataclass(frozen=True)
class LineBatch:
    """Consecutive lines: `texts[i]` is line `first_line_no + i`; lines that cannot be kept (undecodable, too
    long) are in `bad` and hold `None` in `texts`, so numbering never shifts."""

    first_line_no: int
    texts: list[str | None]
    bad: list[BadLine] = field(default_factory=list)


class CutGzip:
    """A `.gz` log read as far as it goes. An archive that ends before its end marker (an upload or a copy cut
    short) reads as the lines it holds, as a cut plain log does; its last line, if cut mid-event, is quarantined
    as truncated. `cut` says whether it ended early. A corrupt archive (bad data, a failed checksum) still
    raises: what it holds cannot be trusted."""

    def __init__(self, path: Path):
        self._file = gzip.open(path, "rb")
        self.cut = False
        self._read_any = False

    def read(self, size: int = -1) -> bytes:
        """Up to `size` bytes (all, if negative), gathered one decompressed piece at a time, so the pieces before
        an early end are kept (`GzipFile.read` would drop them with the error)."""
        pieces: list[bytes] = []
        wanted = size if size >= 0 else float("inf")
        got = 0
        while not self.cut and got < wanted:
            try:
                piece = self._file.read1(int(min(wanted - got, BLOCK_BYTES)))
            except EOFError:  # the archive ends early; one that ends before any line is no log
                if not (self._read_any or pieces):
                    raise
                self.cut = True
                break
            if not piece:
                break
            pieces.append(piece)
            got += len(piece)
        self._read_any = self._read_any or bool(pieces)
        return b"".join(pieces)

    def __enter__(self) -> CutGzip:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._file.close()


def open_log(path: Path):
    """Open a log for binary reading; `.gz` archives are read transparently (`CutGzip`)."""
    return CutGzip(path) if Path(path).suffix == ".gz" else open(path, "rb")


def too_long_reason(length: int, max_line_bytes: int = MAX_LINE_BYTES) -> str:
    return (f"too long: {length:,} bytes (limit {max_line_bytes:,}); "
            f"the first {KEPT_OF_LONG_LINE:,} characters are kept")


def _byte_lines(path: Path, block_bytes: int, max_line_bytes: int,
                on_progress: Callable[[int], None] | None) -> Iterator[tuple[list[bytes], dict[int, int]]]:
    """The file's lines, without their line feed, in batches of one block.

    A line longer than `max_line_bytes` is cut to its first `max_line_bytes` bytes while it streams by; its
    full length is in the batch's dict under its index. A final line without a line feed is still a line.
    """
    head = b""  # the kept start of the line the previous block left unfinished
    head_len = 0  # that line's full length so far
    with open_log(path) as f:
        while True:
            block = f.read(block_bytes)
            if on_progress is not None:
                on_progress(len(block))
            if not block:
                break
            pieces = block.split(b"\n")
            if len(pieces) == 1:  # the unfinished line goes on
                if len(head) <= max_line_bytes:
                    head += block[: max_line_bytes + 1 - len(head)]
                head_len += len(block)
                continue
            lines, tail = pieces[:-1], pieces[-1]
            long: dict[int, int] = {}
            if head_len:
                full = head_len + len(lines[0])
                lines[0] = (head + lines[0][: max_line_bytes + 1])[: max_line_bytes + 1]
                if full > max_line_bytes:
                    long[0] = full
            if max(map(len, lines)) > max_line_bytes:
                for i, piece in enumerate(lines):
                    if len(piece) > max_line_bytes and i not in long:
                        long[i] = len(piece)
            for i in long:
                lines[i] = lines[i][:max_line_bytes]
            yield lines, long
            head, head_len = tail[: max_line_bytes + 1], len(tail)
    if head_len:
        yield [head[:max_line_bytes]], ({0: head_len} if head_len > max_line_bytes else {})


def _decode_lines(lines: list[bytes], long: dict[int, int], first_line_no: int, max_line_bytes: int) -> LineBatch:
    if not long:
        try:
            every: list[str | None] = list(b"\n".join(lines).decode("utf-8").split("\n"))
            return LineBatch(first_line_no, every)
        except UnicodeDecodeError:
            pass
    texts: list[str | None] = []
    bad: list[BadLine] = []
    for offset, piece in enumerate(lines):
        if offset in long:
            texts.append(None)
            kept = piece.decode("utf-8", errors="replace")[:KEPT_OF_LONG_LINE]
            bad.append(BadLine(first_line_no + offset, too_long_reason(long[offset], max_line_bytes), kept))
            continue
        try:
            texts.append(piece.decode("utf-8"))
        except UnicodeDecodeError as exc:
            texts.append(None)
            raw = piece.decode("utf-8", errors="backslashreplace")
            bad.append(BadLine(first_line_no + offset, f"invalid UTF-8 at byte {exc.start}", raw))
    return LineBatch(first_line_no, texts, bad)


def read_line_batches(
    path: Path, *, block_bytes: int = BLOCK_BYTES, max_line_bytes: int = MAX_LINE_BYTES,
    on_progress: Callable[[int], None] | None = None,
) -> Iterator[LineBatch]:
    """Yield the file's lines in batches, numbered from 1, without line terminators.

    A final line without a newline is still a line; an empty file yields nothing. The byte-order mark
    before the first line is removed. CR and the trailing comma are left for the parser, which strips them.
    """
    next_line_no = 1
    first = True
    for lines, long in _byte_lines(Path(path), block_bytes, max_line_bytes, on_progress):
        batch = _decode_lines(lines, long, next_line_no, max_line_bytes)
        if first:
            batch = _strip_bom(batch)
            first = False
        next_line_no += len(batch.texts)
        yield batch


@dataclass(frozen=True)
class Survey:
    """One cheap pass over a log: its digest and its line count, which the fast path must reproduce."""

    sha256: str
    lines: int
    cut: bool = False  # a .gz archive that ends before its end marker: its lines are those it holds


def survey_log(
    path: Path, *, block_bytes: int = BLOCK_BYTES, on_progress: Callable[[int], None] | None = None
) -> Survey:
    """Digest and line count in one streaming pass: line feeds are counted, lines are never assembled. The
    digest is of the content, the decompressed bytes of a `.gz` log: the same log plain or compressed is the
    same log."""
    path = Path(path)
    digest = hashlib.sha256()
    newlines, size, last = 0, 0, b""
    # hashlib releases the GIL on large updates, so hashing runs beside the count on a second core.
    with ThreadPoolExecutor(max_workers=1) as hasher, open_log(path) as f:
        pending = None
        while True:
            block = f.read(block_bytes)
            if on_progress is not None:
                on_progress(len(block))
            if not block:
                break
            if pending is not None:
                pending.result()
            pending = hasher.submit(digest.update, block)
            newlines += block.count(b"\n")
            size += len(block)
            last = block[-1:]
        if pending is not None:
            pending.result()
    lines = newlines + (1 if size and last != b"\n" else 0)
    return Survey(digest.hexdigest(), lines, cut=bool(getattr(f, "cut", False)))


def _strip_bom(batch: LineBatch) -> LineBatch:
    head = batch.texts[0] if batch.texts else None
    if head is not None and head.startswith(BOM):
        return LineBatch(batch.first_line_no, [head[1:], *batch.texts[1:]], batch.bad)
    return batch


# -- start events: where a match begins and what it is called ------------------------------------------------------

@dataclass(frozen=True)
class StartLine:
    """A line that is, or tries to be, a `start` event: the match id it names, or why it names none."""

    line_no: int
    match_id: str | None
    problem: str | None = None


def clean_line(text: str) -> str:
    """A line as JSON: without its byte-order mark, CR, surrounding blanks and trailing comma."""
    return text.lstrip(BOM).strip().rstrip(",").rstrip()


def read_start(line_no: int, text: str | None) -> StartLine | None:
    """The start event on this line, or None if the line is no start event.

    The id is the `matchID` as the log wrote it, always as text (`5147276662` is `"5147276662"`). A start
    without a usable matchID, or one that is not valid JSON, is a broken start (`problem` says why). An id
    that cannot be kept (too long, control characters, NUL) raises `KeyRefused`.
    """
    if text is None:
        return None
    looks_like_start = START_PATTERN.search(text) is not None
    if not looks_like_start and "start" not in text:
        return None
    try:
        event = json.loads(clean_line(text))
    except ValueError:
        return StartLine(line_no, None, "malformed JSON") if looks_like_start else None
    if not isinstance(event, dict) or event.get("eventType") != "start":
        return None
    raw = event.get("matchID")
    if isinstance(raw, bool) or not isinstance(raw, (str, int)) or raw == "":
        return StartLine(line_no, None, "no usable matchID")
    return StartLine(line_no, check_key(str(raw), f"the match id on line {line_no}"))


def first_start(path: Path) -> StartLine | None:
    """The first start event of a log (read as the ingest reads it), or None if it has none."""
    for batch in read_line_batches(Path(path)):
        bad = {b.line_no: b for b in batch.bad}
        for offset, text in enumerate(batch.texts):
            line_no = batch.first_line_no + offset
            if text is None:  # a too-long or undecodable start is a broken start too
                if line_no in bad and START_PATTERN.search(bad[line_no].raw):
                    return StartLine(line_no, None, bad[line_no].reason)
                continue
            start = read_start(line_no, text)
            if start is not None:
                return start
    return None


SNIFF_BYTES = 64 * 1024
SNIFF_LINES = 5


def not_a_combat_log(path: Path) -> str | None:
    """Why `path` is not a combat log (empty, not JSON lines, no `eventType` in its first lines), or None
    when it looks like one. Reads the first 64 KiB only; a file that cannot be read is left to the ingest,
    whose error names the problem."""
    try:
        with open_log(Path(path)) as f:
            head = f.read(SNIFF_BYTES)
    except (OSError, EOFError, ValueError, zlib.error):  # a corrupt archive: the ingest's error names it
        return None
    texts = [t for t in (clean_line(line) for line in head.decode("utf-8", "replace").splitlines()) if t]
    if not texts:
        return "empty"
    for text in texts[:SNIFF_LINES]:
        try:
            event = json.loads(text)
        except ValueError:
            continue
        if isinstance(event, dict) and "eventType" in event:
            return None
    return "not a combat log (no JSON event with an eventType in its first lines)"


def fallback_match_id(path: Path) -> str:
    """The id of a match whose log names none: the file name up to its first dot."""
    return Path(path).name.split(".")[0]
