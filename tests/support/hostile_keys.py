"""Hostile partition keys, for the tests that send them through Dagster (tests/assets/): keys that map to a folder
name (paths, dots, emoji) and keys that cannot be kept at all."""

from __future__ import annotations

import uuid
from pathlib import Path

TAG = uuid.uuid4().hex[:12]
MAPPABLE = [f"../../../evil_{TAG}", f"/tmp/evil_{TAG}_abs", "..", ".", f"a/../../{TAG}", f"..\\..\\evil_{TAG}",
            f"😈/../{TAG}", "CON", f"~/{TAG}"]
# too long, NUL, control characters; and "" which Dagster itself runs as no partition at all
UNMAPPABLE = ["x" * 300, "nul\x00key", "bell\x07", f"evil\nline_{TAG}", ""]
MATCH_KEYS = [f"../../../evil_{TAG}_m", f"/tmp/evil_{TAG}_m", "..", f"😈/../{TAG}", "Ünï 'cödé' #1"]
REPORTED = MATCH_KEYS[:2]  # a match report takes seconds; the two escapes that matter most get one
QUESTION_MATCH_ID = "4417029581"  # the match the hostile question keys ask about


def file_names(folder: Path, skip: Path) -> set[str]:
    """Every path under `folder` but those under `skip`."""
    return {str(p) for p in folder.rglob("*") if skip not in p.parents and p != skip}
