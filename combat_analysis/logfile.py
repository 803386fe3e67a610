"""Streaming, lossless reading of a combat log file into numbered lines.

The file is read in fixed-size blocks so memory stays flat whatever the file size. Decoding and splitting
run on whole blocks (C speed); only a block that fails to decode as UTF-8 falls back to line-by-line
decoding, so one bad line costs nothing to its neighbours. JSON parsing happens later, in DuckDB.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

BLOCK_BYTES = 8 * 1024 * 1024
BOM = "\ufeff"


@dataclass(frozen=True)
class BadLine:
    line_no: int
    reason: str
    raw: str


@dataclass(frozen=True)
class LineBatch:
    """Consecutive lines: `texts[i]` is line `first_line_no + i`; undecodable lines are in `bad`
    and hold `None` in `texts` so numbering never shifts."""

    first_line_no: int
    texts: list[str | None]
    bad: list[BadLine] = field(default_factory=list)


def open_log(path: Path):
    """Open a log for binary reading; `.gz` archives are read transparently."""
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(BLOCK_BYTES), b""):
            digest.update(block)
    return digest.hexdigest()


def _decode_lines(block: bytes, first_line_no: int) -> LineBatch:
    pieces = block.split(b"\n")
    try:
        return LineBatch(first_line_no, block.decode("utf-8").split("\n"))
    except UnicodeDecodeError:
        pass
    texts: list[str | None] = []
    bad: list[BadLine] = []
    for offset, piece in enumerate(pieces):
        try:
            texts.append(piece.decode("utf-8"))
        except UnicodeDecodeError as exc:
            texts.append(None)
            raw = piece.decode("utf-8", errors="backslashreplace")
            bad.append(BadLine(first_line_no + offset, f"invalid UTF-8 at byte {exc.start}", raw))
    return LineBatch(first_line_no, texts, bad)


def _line_blocks(path: Path, block_bytes: int, on_progress) -> Iterator[bytes]:
    """The file's bytes in blocks that end on a line boundary (the final block may lack a newline)."""
    carry = b""
    with open_log(path) as f:
        while True:
            block = f.read(block_bytes)
            if on_progress is not None:
                on_progress(len(block))
            if not block:
                break
            block = carry + block
            cut = block.rfind(b"\n")
            if cut < 0:
                carry = block
                continue
            carry = block[cut + 1 :]
            yield block[: cut + 1]
    if carry:
        yield carry


def read_line_batches(
    path: Path, *, block_bytes: int = BLOCK_BYTES, on_progress: Callable[[int], None] | None = None
) -> Iterator[LineBatch]:
    """Yield the file's lines in batches, numbered from 1, without line terminators.

    A final line without a newline is still a line; an empty file yields nothing. The byte-order mark
    before the first line is removed. CR and the trailing comma are left for the parser, which strips them.
    """
    next_line_no = 1
    first = True
    for block in _line_blocks(path, block_bytes, on_progress):
        body = block[:-1] if block.endswith(b"\n") else block
        batch = _decode_lines(body, next_line_no)
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


def survey_log(
    path: Path, *, block_bytes: int = BLOCK_BYTES, on_progress: Callable[[int], None] | None = None
) -> Survey:
    lines = 0
    gz = Path(path).suffix == ".gz"
    digest = hashlib.sha256()
    # hashlib releases the GIL on large updates, so hashing runs beside the scan on a second core.
    with ThreadPoolExecutor(max_workers=1) as hasher:
        pending = None
        for block in _line_blocks(path, block_bytes, on_progress):
            if not gz:
                if pending is not None:
                    pending.result()
                pending = hasher.submit(digest.update, block)
            lines += block.count(b"\n") + (0 if block.endswith(b"\n") else 1)
        if pending is not None:
            pending.result()
    return Survey(file_sha256(path) if gz else digest.hexdigest(), lines)


def _strip_bom(batch: LineBatch) -> LineBatch:
    head = batch.texts[0] if batch.texts else None
    if head is not None and head.startswith(BOM):
        return LineBatch(batch.first_line_no, [head[1:], *batch.texts[1:]], batch.bad)
    return batch
