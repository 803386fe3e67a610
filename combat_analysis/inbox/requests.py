"""Requests that arrive as files: match logs in the incoming folder and question files in the questions folder.

Each request gets a stable key (a Dagster partition key, a directory name): the same request always gets the
same key, and a new question never reuses an earlier one's, so no answer is ever overwritten.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from combat_analysis.contracts.question import MAX_QUESTION_CHARS
from combat_analysis.ingest.logfile import fallback_match_id, first_start, not_a_combat_log
from combat_analysis.keys import KeyRefused, check_key, folder_name, key_from_folder_name, path_for_key
from combat_analysis.settings import Paths


class RequestError(ValueError):
    """A request file that cannot be read; the message names the file and the problem."""


class QuestionRequest(BaseModel):
    """A question about one match. The file format of `data/questions/*.json` (see its README)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    match_id: str | None = None
    previous_queries: tuple[Annotated[str, Field(max_length=MAX_QUESTION_CHARS)], ...] = Field(default=(), max_length=20)
    user_id: str = Field(default="analyst", max_length=100)
    session_id: str = Field(default="", max_length=100)
    followups: bool = True  # answer the anticipated follow-up questions in the report
    # The warehouse lake snapshot the question reads: none at first (the latest), then the one its first answer
    # read, so answering the same partition again reproduces that answer.
    as_of: int | None = Field(default=None, ge=0)

    @field_validator("match_id")
    @classmethod
    def _match_id_is_a_key(cls, value: str | None) -> str | None:
        # A match id ends up in paths of the warehouse and the reports: it must be a key keys.py can map.
        return None if value is None else check_key(value, "match_id")

    def key(self) -> str:
        """`<words of the question>-<hash>`: readable in the UI, unique per request."""
        digest = hashlib.sha256(self.model_dump_json(exclude={"as_of"}).encode()).hexdigest()[:10]
        words = re.sub(r"[^a-z0-9]+", "-", self.question.lower()).strip("-")[:48].strip("-")
        return f"{words or 'question'}-{digest}"


def registry_file(paths: Paths, kind: str, key: str, what: str = "key") -> Path:
    """`<home>/requests/<kind>/<key, encoded>.json`. Keys are data, never paths (`combat_analysis.keys`): one
    that cannot be mapped raises `KeyRefused` before the folder is even created."""
    folder = paths.home / "requests" / kind
    path = path_for_key(folder, key, ".json", what=what)
    folder.mkdir(parents=True, exist_ok=True)
    return path


def save_question(paths: Paths, request: QuestionRequest, key: str | None = None) -> str:
    key = key or request.key()
    path = registry_file(paths, "questions", key, "question key")
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(request.model_dump_json(indent=2), encoding="utf-8")
    tmp.replace(path)
    return key


def load_question(paths: Paths, key: str) -> QuestionRequest:
    path = registry_file(paths, "questions", key, "question key")
    if not path.exists():
        raise RequestError(f"no question is registered under {key!r}; ask one with run config or a question file")
    return QuestionRequest.model_validate_json(path.read_text(encoding="utf-8"))


def read_question_file(path: Path) -> QuestionRequest:
    try:
        return QuestionRequest.model_validate_json(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValidationError, UnicodeDecodeError) as exc:
        raise RequestError(f"{path}: not a question file ({exc})") from exc


def peek_match_id(path: Path) -> str:
    """The id of the first match the ingest will read from this log: its first start event's matchID, else
    the file name up to its first dot. Reads only up to that start event, in bounded memory.

    Raises `RequestError` (one line, naming the file) for a log that cannot be read or whose id cannot be kept.
    """
    path = Path(path)
    try:
        start = first_start(path)
        if start is not None and start.match_id is not None:
            return start.match_id
        return check_key(fallback_match_id(path), "the match id taken from the file name")
    except KeyRefused as exc:
        raise RequestError(f"{path}: {exc}") from exc
    except (OSError, EOFError, zlib.error) as exc:
        raise RequestError(f"{path}: cannot be read ({' '.join(str(exc).split())})") from exc


# A Dagster partition key is the match id itself, so the UI shows the id as the log wrote it. The few ids Dagster
# refuses as keys ("..." inside; control characters never pass `check_key`), and ids starting with the escape
# mark, become the mark plus their folder name, which cannot collide with any plain id.
_KEY_MARK = "~"


def match_key(match_id: str) -> str:
    """The Dagster partition key of a match id (the id itself, whenever Dagster accepts it)."""
    match_id = check_key(match_id, "match id")
    if "..." in match_id or match_id.startswith(_KEY_MARK):
        return _KEY_MARK + folder_name(match_id)
    return match_id


def match_id_for_key(key: str) -> str:
    """The match id a partition key stands for (`match_key` reversed)."""
    return key_from_folder_name(key[len(_KEY_MARK):]) if key.startswith(_KEY_MARK) else key


def register_match_source(paths: Paths, key: str, log: Path) -> None:
    """Remember which log file a match partition is read from."""
    record = {"path": str(Path(log).resolve())}
    registry_file(paths, "matches", key, "match key").write_text(json.dumps(record), encoding="utf-8")


def match_source(paths: Paths, key: str) -> Path:
    path = registry_file(paths, "matches", key, "match key")
    if not path.exists():
        raise RequestError(
            f"no log file is registered for match {key!r}; drop it into {paths.incoming} or pass its path in run config"
        )
    return Path(json.loads(path.read_text(encoding="utf-8"))["path"])


@dataclass(frozen=True)
class FolderLogs:
    """A folder's files sorted: the combat logs, and every other file with why it is skipped."""

    logs: list[Path]
    skipped: list[tuple[Path, str]]


def folder_logs(folder: Path) -> FolderLogs:
    """The combat logs in a folder, by content: a truth file, notes or another game's log beside them is
    skipped with its reason, neither a failure nor a match. Hidden files (uploads in progress) are ignored."""
    folder = Path(folder)
    if not folder.is_dir():
        return FolderLogs([], [])
    return sort_logs(sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")))


def sort_logs(paths: list[Path]) -> FolderLogs:
    """Files sorted into combat logs and the others with why, each read once (`not_a_combat_log`)."""
    logs, skipped = [], []
    for path in paths:
        reason = not_a_combat_log(path)
        if reason is None:
            logs.append(path)
        else:
            skipped.append((path, reason))
    return FolderLogs(logs, skipped)


def incoming_logs(folder: Path) -> list[Path]:
    """The combat logs in a folder (`folder_logs`)."""
    return folder_logs(folder).logs
