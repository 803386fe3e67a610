"""Where the project and the shared data are: the repository, `../shared` beside it, and the sample match."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository
SHARED = ROOT.parent / "shared"
SAMPLE_LOG = SHARED / "data" / "sample_match.log"
TRUTH_FILE = SHARED / "data" / "sample_match.truth.json"
FIXTURE_LINES = SHARED / "data" / "real_fixture_lines.log"
DEV_QUESTIONS = SHARED / "eval" / "dev_questions.jsonl"
SCORE_TOOL = SHARED / "tools" / "score.py"
SAMPLE_MATCH_ID = "00000001-sample"
