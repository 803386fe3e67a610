"""Exit codes: the same cause gives the same code from every command (listed in `--help` and the README)."""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0  # answered, or every file landed
    REFUSED = 1  # a question the log cannot answer, or a file that would cost a good match (`--replace`)
    BAD_INPUT = 2  # a bad file, question, option or match id; nothing was changed
    INTERNAL = 3  # a fault of ours: the message says where; `--debug` shows the traceback


EPILOG = """exit codes (every command):
  0  answered, or every combat log landed
  1  refused: a question the log cannot answer, or a file holding less of a match than the stored one
  2  bad input: a file, question, option or match id that cannot be used; nothing was changed
  3  internal error: a fault of combat-analysis (--debug shows the traceback)"""
