"""Stage 5 across matches, composer: the season figure's sentence (`season.answers.answer_text`), the plan's
caveats, and its assumptions as the insights; a figure that could not be computed says why.
"""

from __future__ import annotations

from datetime import datetime, timezone

from combat_analysis.answer.compose import MAX_INSIGHTS, Words, respond, supporting_table
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.results import primary_rows
from combat_analysis.answer.season.data_engineer import matches_read
from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.season.wording import answer_text


def words(pkg: AgentDataPackage, env: StageEnv) -> Words:
    """The season figure's sentence, its caveats and assumptions, and its table, from the analysed package."""
    plan = pkg.plan
    assert plan is not None and plan.season is not None
    result, rows = primary_rows(pkg, env)
    if result is None or result.status != "ok":
        return Words(refusal_for_error(pkg))
    direct = " ".join((answer_text(plan, rows, matches_read(pkg)), *(c.rstrip(".") + "." for c in plan.caveats)))
    said = tuple(a[:1].upper() + a[1:].rstrip(".") + "." for a in plan.assumptions)
    return Words(direct, (*report_links(rows), *said)[:MAX_INSIGHTS], supporting_table(pkg, rows, list(result.column_types)))


def composer(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    started = datetime.now(timezone.utc)
    said = words(pkg, env)
    return respond(pkg, env, started, direct=said.direct, insights=said.insights, table=said.table)


def report_links(rows: list[dict]) -> tuple[str, ...]:
    """The reports of the matches an answer names (matches ranked): the first three, or that one is not built."""
    named = [r for r in rows if "report" in r][:3]
    if not named:
        return ()
    said = "; ".join(f"{r['match_id']}: {r['report']}" if r["report"] else f"{r['match_id']}: not built yet"
                     for r in named)
    return (f"Match reports: {said}.",)


def refusal_for_error(pkg: AgentDataPackage) -> str:
    """The one-line reason a cross-match figure could not be computed (an unknown name, say)."""
    reason = next((e.description for e in reversed(pkg.errors) if e.error_type == "season_error"), "")
    return (f"I cannot answer that across matches: {reason[:1].lower() + reason[1:]}." if reason else
            "I cannot answer that right now: the figures across matches could not be computed.")
