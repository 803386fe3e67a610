"""What the composers of both sequences share: the response a person reads, the report files, the fidelity guard,
and the anticipated follow-ups answered through the pipeline's own runner.

A composer words the direct answer and the insights (`answer.match.composer`, `answer.season.composer`);
`respond` makes them the package's response, writes report.md and report.html under
artifacts_dir/<query_id>/ (and the whole table as CSV when the report shows only its first rows), and checks
that every number in them traces to the data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from combat_analysis.answer import report
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.fidelity import check_package
from combat_analysis.contracts.package import (
    AgentDataPackage,
    ErrorEntry,
    FollowupAnswer,
    ResponseSection,
    SupportingTable,
)

STAGE = "composer"
MAX_INSIGHTS = 6
TABLE_ROWS = 10


@dataclass(frozen=True)
class Words:
    """What a person reads first, worded from the analysed package alone (no chart, report or follow-up goes
    into it): the direct answer, the key insights and the supporting table. A composer's `words` makes them
    once the analyst is done, so the command line can print them before the charts and the report are made
    (`pipeline.run_stages(on_words=...)`); the composer words the same package the same way.
    `offers_followups`: an answer with data, whose anticipated follow-ups are answered."""

    direct: str
    insights: tuple[str, ...] = ()
    table: SupportingTable | None = None
    offers_followups: bool = False


def supporting_table(pkg: AgentDataPackage, rows: list[dict[str, Any]], columns: Sequence[str]) -> SupportingTable | None:
    """The primary result's first rows, as the report's table."""
    result = pkg.primary_result
    if result is None or not rows:
        return None
    shown = [c for c in columns if c not in ("match_id",)]
    return SupportingTable(source=result.query_id, columns=tuple(shown),
                           rows=tuple(tuple(_cell(r.get(c)) for c in shown) for r in rows[:TABLE_ROWS]),
                           total_rows=result.result_summary.row_count)


def _cell(value: Any) -> Any:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def _context(pkg: AgentDataPackage) -> str:
    plan = pkg.plan
    parts = []
    if plan is not None:
        if plan.summary:
            parts.append(plan.summary.rstrip(".") + ".")
        parts += [a.rstrip(".") + "." for a in plan.assumptions]
    parts.append("Figures follow the project's metric definitions (METRICS.md).")
    return " ".join(parts)


def answer_followups(pkg: AgentDataPackage, env: StageEnv) -> tuple[tuple[FollowupAnswer, ...], list[ErrorEntry]]:
    """The anticipated follow-ups answered by the same stages, cheaply: through the pipeline's runner
    (`env.run_followup`) on the question's own connection (its session), planned, run and analysed like any
    question, but with no charts, no report files and no follow-ups of their own (`StageEnv.answer_only`), and
    with every row inline, since only their answer text is kept (no data handle is written for them); refused
    ones are dropped. Without a runner, none is answered."""
    questions = pkg.query_analysis.anticipated_followups if pkg.query_analysis else ()
    if env.run_followup is None or not questions:
        return (), []
    answers, errors = [], []
    previous = (*pkg.input.context.previous_queries, pkg.input.raw_query)
    with env.session() as session:
        nested_env = dataclasses.replace(session, followups=False, answer_only=True,
                                         inline_row_cap=max(session.inline_row_cap, session.limits.max_rows))
        for question in questions:
            try:
                nested = env.run_followup(question, nested_env, previous_queries=previous,
                                          user_id=pkg.metadata.user_id, session_id=pkg.metadata.session_id)
            except Exception as exc:  # noqa: BLE001 - a failed follow-up is dropped, the main answer stands
                errors.append(ErrorEntry(stage=STAGE, error_type="followup_error",
                                         description=f"{question}: {exc}", recovery_action="follow-up omitted"))
                continue
            if nested.response is None or nested.is_refusal:
                continue
            answers.append(FollowupAnswer(question=question, direct_answer=nested.response.direct_answer,
                                          key_insights=nested.response.key_insights[:2],
                                          query_id=nested.metadata.query_id))
    return tuple(answers), errors


def fidelity_errors(pkg: AgentDataPackage, env: StageEnv) -> list[ErrorEntry]:
    """The number-fidelity check as a runtime guard: an unsupported number is an unhandled error."""
    try:
        problems = check_package(pkg, env.handles)
    except Exception as exc:  # noqa: BLE001 - the guard must not take the answer down with it
        return [ErrorEntry(stage=STAGE, error_type="fidelity_check_failed", description=str(exc),
                           recovery_action="answer not verified")]
    return [ErrorEntry(stage=STAGE, error_type="unsupported_number", handled=False,
                       description=f"{p.where}: {p.number} is not in the query results ({p.context!r})",
                       recovery_action="flagged for review") for p in problems]


def respond(pkg: AgentDataPackage, env: StageEnv, started: datetime, *, direct: str, insights: tuple[str, ...],
            table: SupportingTable | None = None, followups: tuple[FollowupAnswer, ...] = (),
            errors: Sequence[ErrorEntry] = ()) -> AgentDataPackage:
    """The composer's package: the response, and (but for a follow-up) the report files and the fidelity guard."""
    errors = list(errors)
    response = ResponseSection(
        direct_answer=direct,
        key_insights=insights,
        visualizations=tuple(v for v in pkg.visualizations),
        supporting_data=table,
        additional_context=_context(pkg) if not pkg.is_refusal else "",
        followup_answers=followups,
    )
    if env.answer_only:  # a follow-up: its text goes into the main answer's report, it has no files of its own
        return pkg.next_version(stage=STAGE, started=started, new_errors=errors, response=response)
    # Render as the package this stage returns (next version), so the report names the right version.
    staged = pkg.model_copy(update={"response": response, "version": pkg.version + 1})
    out_dir = env.query_dir(pkg.metadata.query_id)
    final = report.write_report(staged, out_dir, env.handles)  # report.md, report.html, the full table as CSV
    errors += fidelity_errors(staged.model_copy(update={"final_output": final}), env)
    return pkg.next_version(stage=STAGE, started=started, new_errors=errors, response=response, final_output=final)
