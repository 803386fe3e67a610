"""The one limit on a question's text, checked at every door (the CLI, question files, Dagster, the library)
before any stage runs: a question is a sentence or a few, never a document."""

from __future__ import annotations

MAX_QUESTION_CHARS = 2_000


class QuestionTooLong(ValueError):
    """The question is longer than `MAX_QUESTION_CHARS`; nothing was planned or read."""


def check_question(text: str) -> str:
    """`text` when it is a question of a usable length, else `QuestionTooLong` naming the limit.

    >>> check_question("who dealt the most damage?")
    'who dealt the most damage?'
    >>> check_question("x" * 2001)
    Traceback (most recent call last):
    ...
    combat_analysis.contracts.question.QuestionTooLong: the question is 2,001 characters long; the limit is 2,000 (ask about one thing at a time)
    """
    if len(text) > MAX_QUESTION_CHARS:
        raise QuestionTooLong(f"the question is {len(text):,} characters long; the limit is {MAX_QUESTION_CHARS:,} "
                              "(ask about one thing at a time)")
    return text
