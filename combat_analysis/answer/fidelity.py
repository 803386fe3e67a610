"""Number fidelity: every number the product states must come from the data.

A number in the findings, the response or the report is supported when it equals (after the rounding it
was written with) a cell of a query result or derived table, or follows from one table's column by plain
arithmetic: a sum, mean, median, minimum or maximum, a difference or percentage between two values, a share
of the total, a top-three share, a count of rows or of a value, a rank, a match second's minute, or the
averages of the first and second half of a series. Numbers in the question, the plan (window bounds, row
limit) and the method constants (team-fight gap, recap window) are supported too. SQL, inline code and
answers to follow-up questions (checked in their own runs) are not re-checked here.
"""

from __future__ import annotations

import bisect
import re
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard

from combat_analysis.answer import patterns
from combat_analysis.answer.report import ERRORS_HEADING, FOLLOWUP_HEADING
from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.formatting import MATCH_SECOND_COLUMNS
from combat_analysis.warehouse.handles import HandleStore, rows_of

NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")  # a wall-clock time cell: its parts may be quoted
CLOCK = re.compile(r"(?<![\w.:])(\d{1,3}):([0-5]\d)(?!\w|:\d)")  # a time on the match clock, m:ss (a colon may follow)
METHOD_CONSTANTS = (patterns.TEAM_FIGHT_GAP_S, patterns.TEAM_FIGHT_MIN_DEATHS, patterns.DEATH_RECAP_WINDOW_S,
                    patterns.STREAK_MIN_KILLS, 100)
PAIRWISE_MAX_ROWS = 120  # differences and ratios between every pair of values, for tables up to this size


@dataclass(frozen=True)
class Unsupported:
    where: str  # direct_answer, key_insights[2], finding f3, report...
    number: str  # as written
    context: str  # the surrounding text


def numbers_in(text: str) -> list[tuple[str, float, int]]:
    """(as written, value, decimals written) for every number in the text."""
    found = []
    for m in NUMBER.finditer(text):
        raw = m.group(0)
        cleaned = raw.replace(",", "")
        try:
            value = float(cleaned)
        except ValueError:
            continue
        decimals = len(cleaned.split(".")[1]) if "." in cleaned else 0
        found.append((raw, value, decimals))
    return found


def _numeric(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def column_candidates(values: list[float]) -> set[float]:
    """The numbers that follow from one column by the arithmetic the analyst and composer use."""
    out: set[float] = set()
    if not values:
        return out
    n = len(values)
    total = sum(values)
    out.update(values)
    out.update(abs(v) for v in values)
    out.update((total, abs(total), statistics.fmean(values), statistics.median(values), min(values), max(values)))
    ordered = sorted(values, reverse=True)
    for k in (2, 3):
        if n >= k:
            out.add(sum(ordered[:k]))
            if total:
                out.add(sum(ordered[:k]) / total * 100)
    if total:
        out.update(v / total * 100 for v in values)
    if n >= 2:
        half = n // 2
        out.add(statistics.fmean(values[:half]))
        out.add(statistics.fmean(values[half:]))
    if n <= PAIRWISE_MAX_ROWS:
        for a in values:
            for b in values:
                diff = abs(a - b)
                out.add(diff)
                if b:
                    out.add(diff / abs(b) * 100)
    return out


def table_candidates(rows: list[dict[str, Any]]) -> set[float]:
    out: set[float] = {float(len(rows))}
    out.update(float(i) for i in range(1, len(rows) + 1))  # ranks
    if not rows:
        return out
    columns = {c for r in rows for c in r}
    for column in columns:
        cells = [r.get(column) for r in rows]
        values = [float(v) for v in cells if _numeric(v)]
        out.update(column_candidates(values))
        if column in MATCH_SECOND_COLUMNS:
            out.update(float(int(v // 60)) for v in values)
        for v in cells:
            if isinstance(v, str) and (TIMESTAMP.match(v) or column.endswith(("match_id", "_matches"))):
                # a wall-clock time's parts, and the digits of a match id ("scrim-0073") or of matches named by game
                # number, id and day ("game 8, 5294847944 on 2026-03-19"), may be quoted
                out.update(float(p) for p in re.findall(r"\d+", v))
        hashable = [v if not isinstance(v, list) else tuple(v) for v in cells]
        out.update(float(c) for c in Counter(hashable).values())
        for v in cells:
            if isinstance(v, list):
                out.add(float(len(v)))
    return out


def _said_numbers(text: str) -> set[float]:
    """The numbers a plan's own words say: each one, and a match-clock time also as its seconds, as `check_texts`
    reads it in an answer ("from X's Blink Rune purchase at 8:18 on" supports 8:18 said again)."""
    clocks = {float(int(m.group(1)) * 60 + int(m.group(2))) for m in CLOCK.finditer(text)}
    return clocks | {v for _, v, _ in numbers_in(text)}


def _plan_numbers(pkg: AgentDataPackage) -> set[float]:
    out: set[float] = {float(c) for c in METHOD_CONSTANTS}
    out.update(v for _, v, _ in numbers_in(pkg.input.raw_query))
    plan = pkg.plan
    if plan is not None:
        for _, step in plan.steps():
            out.update((float(step.limit), float(step.position)))
            for window in (step.window, *step.windows):
                if window is None:
                    continue
                for bound in (window.start_s, window.end_s, window.from_end_s):
                    if bound is not None:
                        out.update((float(bound), bound / 60))
                out.update(_said_numbers(window.label))
            for text in (*step.assumptions, *step.caveats, step.summary):
                out.update(_said_numbers(text))
            for f in step.filters:
                out.update(float(v) for v in f.values if _numeric(v))
    return out


def candidates(pkg: AgentDataPackage, store: HandleStore | None = None) -> list[float]:
    """Every supported number for this package, sorted (for bisection)."""
    out = _plan_numbers(pkg)
    if pkg.data is not None:
        for result in pkg.data.query_results:
            if result.status != "ok":
                continue
            out.add(float(result.result_summary.row_count))
            out.update(table_candidates(rows_of(result, store)))
        for table in pkg.data.transformed_data.values():
            out.add(float(table.row_count))
            out.update(table_candidates(rows_of(table, store)))
    if pkg.response is not None and pkg.response.supporting_data is not None:
        out.add(float(len(pkg.response.supporting_data.rows)))
    return sorted(out)


def supported(value: float, decimals: int, pool: list[float]) -> bool:
    """True if some candidate rounds to `value` at the precision it was written with."""
    tolerance = 0.5 * 10 ** -decimals + 1e-9
    for target in (value, -value):
        i = bisect.bisect_left(pool, target - tolerance)
        if i < len(pool) and pool[i] <= target + tolerance:
            return True
    return False


def check_texts(texts: Iterable[tuple[str, str]], pool: list[float]) -> list[Unsupported]:
    """Unsupported numbers in the texts. A match-clock time (m:ss) is one number, its seconds."""
    problems = []
    for where, text in texts:
        for m in CLOCK.finditer(text):
            seconds = int(m.group(1)) * 60 + int(m.group(2))
            if not supported(float(seconds), 0, pool):
                problems.append(Unsupported(where=where, number=m.group(0),
                                            context=text[max(0, m.start() - 40): m.end() + 40]))
        text = CLOCK.sub(" ", text)
        for raw, value, decimals in numbers_in(text):
            if not supported(value, decimals, pool):
                at = text.find(raw)
                problems.append(Unsupported(where=where, number=raw, context=text[max(0, at - 40): at + 40]))
    return problems


_CODE_BLOCK = re.compile(r"```.*?```", re.S)
_INLINE_CODE = re.compile(r"`[^`]*`")
_SUB = re.compile(r"<sub>.*?</sub>", re.S)
# A backslash escape of ASCII punctuation (CommonMark): the reader sees the character alone. Unescaped first, so
# the report's "0\_" (a question "0_" escaped) is the token "0_" as written, not the number 0.
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def report_claims(markdown: str) -> str:
    """The part of a report that states figures: no SQL, no inline code, no follow-up answers (checked in
    their own runs), no error diagnostics (they quote the database, not the data)."""
    text = _SUB.sub("", _CODE_BLOCK.sub("", markdown))
    for heading in (FOLLOWUP_HEADING, ERRORS_HEADING):
        if heading in text:
            head, _, tail = text.partition(heading)
            rest = tail.split("\n## ", 1)
            text = head + ("\n## " + rest[1] if len(rest) > 1 else "")
    return _MD_ESCAPE.sub(r"\1", _INLINE_CODE.sub("", text))


def package_texts(pkg: AgentDataPackage, include_report: bool = True) -> list[tuple[str, str]]:
    texts: list[tuple[str, str]] = []
    if pkg.analysis is not None:
        for f in (*pkg.analysis.key_findings, *pkg.analysis.comparisons, *pkg.analysis.patterns):
            texts.append((f"finding {f.id}", f.description))
    for v in pkg.visualizations.values():
        texts.append((f"alt text {v.id}", v.alt_text))
    if pkg.response is not None:
        texts.append(("direct_answer", pkg.response.direct_answer))
        texts += [(f"key_insights[{i}]", t) for i, t in enumerate(pkg.response.key_insights)]
        texts.append(("additional_context", pkg.response.additional_context))
    if include_report and pkg.final_output is not None:
        texts.append(("report", report_claims(pkg.final_output.markdown)))
    return texts


def check_package(pkg: AgentDataPackage, store: HandleStore | None = None,
                  include_report: bool = True) -> list[Unsupported]:
    """Every number in findings, response and report that the data does not support (empty = all good)."""
    return check_texts(package_texts(pkg, include_report), candidates(pkg, store))


def check_text(text: str, pkg: AgentDataPackage, store: HandleStore | None = None) -> list[Unsupported]:
    return check_texts([("text", text)], candidates(pkg, store))
