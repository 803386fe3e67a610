"""How long answers to questions are kept, and what expiring one removes from the data home.

Every question is its own partition, with its stored packages, its artifacts (charts, reports, the CSV of a
long table, and the artifacts of its follow-up answers) and its registered request. A question whose last
activity (its latest materialization or run, or the request itself) is older than the retention setting is
expired as a whole; one with a run still queued or in progress is never touched, and one with no recorded
activity at all is kept, since its age cannot be known. The Dagster side (which partitions exist, their runs
and materializations) lives in `assets/jobs.py`; this module decides and removes files.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from combat_analysis.inbox.requests import registry_file
from combat_analysis.keys import KeyRefused, path_for_key
from combat_analysis.settings import Paths

DEFAULT_RETENTION_DAYS = 30


@dataclass(frozen=True)
class Expiry:
    """The question keys, sorted into what happens to them."""

    expired: tuple[str, ...]
    kept: tuple[str, ...]  # active within the retention period
    busy: tuple[str, ...]  # a run is queued or in progress
    unknown: tuple[str, ...]  # no recorded activity: age unknown, kept


def cutoff(now: datetime, retention_days: int) -> datetime:
    return now.astimezone(timezone.utc) - timedelta(days=retention_days)


def sort_questions(keys: Iterable[str], last_activity: Mapping[str, datetime], busy: Iterable[str],
                   before: datetime) -> Expiry:
    """Expired: last active before `before`, and no run under way."""
    busy_set = set(busy)
    expired, kept, waiting, unknown = [], [], [], []
    for key in sorted(set(keys)):
        seen = last_activity.get(key)
        if key in busy_set:
            waiting.append(key)
        elif seen is None:
            unknown.append(key)
        elif seen < before:
            expired.append(key)
        else:
            kept.append(key)
    return Expiry(tuple(expired), tuple(kept), tuple(waiting), tuple(unknown))


def request_file(paths: Paths, key: str) -> Path:
    return registry_file(paths, "questions", key, "question key")


def request_activity(paths: Paths, key: str) -> datetime | None:
    """When the question was registered (its request file's modification time), if it still is."""
    try:
        stat = request_file(paths, key).stat()
    except (OSError, KeyRefused):
        return None
    return datetime.fromtimestamp(stat.st_mtime, tz=timezone.utc)


def remove_question_files(paths: Paths, key: str, followup_ids: Iterable[str] = ()) -> list[Path]:
    """Delete the question's artifacts, its follow-ups' artifacts and its request file; returns what was
    removed. Every path comes from `keys.path_for_key`, so a key never names anything outside the home."""
    removed = []
    for query_id in dict.fromkeys([key, *followup_ids]):
        try:
            folder = path_for_key(paths.artifacts, query_id, what="query id")
        except KeyRefused:
            continue
        if folder.is_dir():
            shutil.rmtree(folder)
            removed.append(folder)
    request = request_file(paths, key)
    if request.exists():
        request.unlink()
        removed.append(request)
    return removed
