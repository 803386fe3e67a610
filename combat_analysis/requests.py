"""Requests that arrive as files: match logs in the incoming folder and question files in the questions folder.

Each request gets a stable key (a Dagster partition key, a directory name): the same request always gets the
same key, and a new question never reuses an earlier one's, so no answer is ever overwritten.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from combat_analysis.keys import check_key, path_for_key
from combat_analysis.settings import Paths
from combat_analysis.warehouse import partition_name

LOG_SUFFIXES = (".log", ".log.gz", ".txt", ".json", ".jsonl")


class RequestError(ValueError):
    """A request file that cannot be read; the message names the file and the problem."""


class QuestionRequest(BaseModel):
    """A question about one match. The file format of `data/questions/*.json` (see its README)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    question: str = Field(min_length=1, max_length=500)
    match_id: str | None = None
    previous_queries: tuple[Annotated[str, Field(max_length=500)], ...] = Field(default=(), max_length=20)
    user_id: str = Field(default="analyst", max_length=100)
    session_id: str = Field(default="", max_length=100)

    @field_validator("match_id")
    @classmethod
    def _match_id_is_a_key(cls, value: str | None) -> str | None:
        # A match id ends up in paths of the warehouse and the reports: it must be a key keys.py can map.
        return None if value is None else check_key(value, "match_id")

    def key(self) -> str:
        """`<words of the question>-<hash>`: readable in the UI, unique per request."""
        digest = hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:10]
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


def peek_match_id(path: Path, max_lines: int = 50) -> str:
    """The match id the ingest will use: the start event's matchID, else the file name's stem."""
    from combat_analysis.logfile import open_log

    with open_log(Path(path)) as f:
        for _ in range(max_lines):
            line = f.readline()
            if not line:
                break
            text = line.decode("utf-8", errors="replace").lstrip("\ufeff").strip().rstrip(",")
            try:
                event = json.loads(text)
            except json.JSONDecodeError:
                continue
            if isinstance(event, dict) and event.get("eventType") == "start" and event.get("matchID"):
                return str(event["matchID"])
    return Path(path).name.split(".")[0]


def match_key(match_id: str) -> str:
    """A partition key for a match id (Dagster keys and directory names share the same safe alphabet)."""
    return partition_name(match_id).removeprefix("match_id=")


def register_match_source(paths: Paths, key: str, log: Path) -> None:
    record = {"path": str(Path(log).resolve())}
    registry_file(paths, "matches", key, "match key").write_text(json.dumps(record), encoding="utf-8")


def match_source(paths: Paths, key: str) -> Path:
    path = registry_file(paths, "matches", key, "match key")
    if not path.exists():
        raise RequestError(
            f"no log file is registered for match {key!r}; drop it into {paths.incoming} or pass its path in run config"
        )
    return Path(json.loads(path.read_text(encoding="utf-8"))["path"])


def incoming_logs(folder: Path) -> list[Path]:
    folder = Path(folder)
    if not folder.exists():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(LOG_SUFFIXES))
