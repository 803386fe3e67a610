"""Stage 5, composer: the answer a person reads.

The direct answer comes first, with the exact figure (METRICS.md formatting) and the entity it belongs to;
then key insights, charts, a supporting table and the methodology. Anticipated follow-ups are answered by
running them through the same pipeline (without their own follow-ups). Writes report.md and report.html
under artifacts_dir/<query_id>/.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from combat_analysis.package import (
    AgentDataPackage,
    ErrorEntry,
    FollowupAnswer,
    ResponseSection,
    SupportingTable,
)
from combat_analysis.plan import Intent, QueryPlan
from combat_analysis.stages import (
    StageEnv,
    all_rows,
    fmt_entity,
    fmt_number,
    fmt_pct,
    is_number,
    metric_info,
    primary_rows,
    result_shape,
    window_phrase,
)

STAGE = "composer"
MAX_INSIGHTS = 6
TABLE_ROWS = 10
DIGIT = re.compile(r"\d")

# How a leader is described: "<who> dealt the most damage".
MOST = {
    "damage_dealt": "dealt the most damage",
    "damage_to_players": "dealt the most damage to enemy gods",
    "damage_to_structures": "dealt the most damage to structures",
    "damage_to_minions": "dealt the most damage to minions",
    "damage_to_jungle": "dealt the most damage to jungle camps",
    "damage_to_bosses": "dealt the most damage to bosses",
    "damage_taken": "took the most damage",
    "damage_mitigated": "mitigated the most damage",
    "healing_done": "healed the most",
    "healing_received": "received the most healing",
    "crits": "landed the most critical hits",
    "biggest_hit": "landed the biggest single hit",
    "kills": "got the most kills",
    "deaths": "died the most",
    "assists": "had the most assists",
    "kda": "had the best KDA",
    "gold": "earned the most gold",
    "experience": "earned the most experience",
    "gpm": "had the highest gold per minute",
    "dpm": "had the highest damage per minute",
    "cc_applied": "applied the most crowd control",
    "items_purchased": "bought the most items",
    "objectives_taken": "took the most objectives",
    "towers": "destroyed the most towers",
}
# How one figure is stated: "<who> dealt 99,127 damage".
AMOUNT = {
    "damage_dealt": "{who} dealt {v} damage",
    "damage_to_players": "{who} dealt {v} damage to enemy gods",
    "damage_taken": "{who} took {v} damage",
    "damage_mitigated": "{who} mitigated {v} damage",
    "healing_done": "{who} did {v} healing",
    "healing_received": "{who} received {v} healing",
    "kills": "{who} got {v} kills",
    "deaths": "{who} died {v} times",
    "assists": "{who} had {v} assists",
    "kda": "{who}'s KDA was {v}",
    "gold": "{who} earned {v} gold",
    "experience": "{who} earned {v} experience",
    "crits": "{who} landed {v} critical hits",
    "towers": "{who} destroyed {v} towers",
    "phoenixes": "{who} destroyed {v} phoenixes",
    "titans": "{who} destroyed {v} titans",
    "objectives_taken": "{who} took {v} objectives",
}


def _who(dim: str | None, value: Any, start: bool = True) -> str:
    """How an entity is named; `start` capitalises it for the start of a sentence."""
    if dim == "team":
        return f"{'T' if start else 't'}eam {value}"
    if dim == "role":
        return f"{'T' if start else 't'}he {value} role"
    return fmt_entity(dim, value) if dim else str(value)


def _window(plan: QueryPlan) -> str:
    return window_phrase(plan)


def _filters_subject(plan: QueryPlan) -> str | None:
    """The entity a filter-only question is about: "team 2", "VoidWalker"."""
    if plan.focus:
        return ", ".join(plan.focus)
    for f in plan.filters:
        if f.op == "=" and f.values:
            return _who(f.dimension, f.values[0])
    return None


def refusal_answer(plan: QueryPlan | None, question: str) -> tuple[str, tuple[str, ...]]:
    """Refusal text and suggestions, with no number the question does not contain (the scorer's rule)."""
    asked = set(re.findall(r"\d+", question))

    def clean(text: str) -> bool:
        return all(d in asked for d in re.findall(r"\d+", text))

    reason = plan.refusal.reason if plan and plan.refusal else "the combat log does not record that"
    reason = reason.rstrip(".")
    if not clean(reason):
        reason = "the combat log does not record that"
    direct = f"I cannot answer that: {reason[:1].lower() + reason[1:]}."
    suggestions = tuple(s for s in (plan.refusal.suggestions if plan and plan.refusal else ()) if clean(s))
    if not suggestions:
        suggestions = ("Who dealt the most damage in the match?", "Which team won the match?",
                       "Who got first blood?")
    return direct, tuple(f"You could ask instead: {s}" for s in suggestions[:3])


def direct_answer(plan: QueryPlan, rows: list[dict[str, Any]], columns: list[str], roster) -> str:
    shape = result_shape(rows, columns, plan)
    intent = plan.intent
    window = _window(plan)
    if intent == Intent.BUILD_ORDER:
        return _build_answer(plan, rows, roster)
    if intent == Intent.EVENT_LIST or "winner_team" in columns:
        return _event_answer(plan, rows, columns)
    if not shape.metrics:
        return f"{len(rows)} rows match the question."
    metric = shape.metrics[0]
    info = metric_info(metric)
    dim = shape.dimensions[0] if shape.dimensions else None

    def v(row, m=metric):
        return fmt_number(row.get(m), metric_info(m).decimals)

    if intent == Intent.TIMELINE:
        return _timeline_answer(plan, rows, shape, metric)
    if intent == Intent.COMPARISON and len(rows) >= 2:
        many = len(shape.metrics) > 1
        parts = "; ".join(f"{_who(dim, r.get(dim), i == 0 and many)}: " + ", ".join(
            f"{v(r, m)}" + (f" {metric_info(m).label}" if many else "") for m in shape.metrics)
            for i, r in enumerate(rows))
        text = f"{parts}." if many else f"{info.label.capitalize()}{window} — {parts}."
        valued = [r for r in rows if is_number(r.get(metric))]
        if len(valued) >= 2:
            hi = max(valued, key=lambda r: r[metric])
            lo = min(valued, key=lambda r: r[metric])
            diff = float(hi[metric]) - float(lo[metric])
            on = f" on {info.label}" if many else ""
            if diff > 0:
                text += f" {_who(dim, hi.get(dim))} is ahead{on} by {fmt_number(diff, info.decimals)}"
                text += f" ({fmt_pct(diff / float(lo[metric]) * 100)})." if lo[metric] else "."
            else:
                text += f" They are level{on}."
        return text
    if intent == Intent.LOOKUP or len(rows) == 1:
        row = rows[0]
        if metric == "gold_diff" and "minute" in row and is_number(row.get(metric)):
            diff = float(row[metric])
            if diff == 0:
                return f"At minute {row['minute']} the teams were level on gold."
            return (f"At minute {row['minute']}, team {1 if diff > 0 else 2} led on gold by {fmt_number(abs(diff))} "
                    f"(team 1 minus team 2: {v(row)}).")
        if dim == "minute":
            return f"At minute {row['minute']}, {info.label}{window}: {v(row)}."
        who = _who(dim, row.get(dim)) if dim else _filters_subject(plan)
        if who and metric in AMOUNT:
            return AMOUNT[metric].format(who=who, v=v(row)) + f"{window}."
        if who:
            return f"{who}'s {info.label}{window}: {v(row)}."
        return f"{info.label.capitalize()} in the match{window}: {v(row)}."
    # ranking and breakdown
    top = rows[0]
    focus = f" for {', '.join(plan.focus)}" if plan.focus and dim not in ("player",) else ""
    if intent == Intent.BREAKDOWN or dim in ("ability", "item", "target_kind", "objective"):
        kind = dim.replace("_", " ") if dim else "entry"
        best = "bottom" if plan.order == "asc" else "top"
        text = f"The {best} {kind} by {info.label}{focus}{window} is {_who(dim, top.get(dim), False)}: {v(top)}"
    elif plan.order == "asc":
        text = f"{_who(dim, top.get(dim))} had the lowest {info.label}{window}: {v(top)}"
    else:
        text = f"{_who(dim, top.get(dim))} {MOST.get(metric, f'had the highest {info.label}')}{window}: {v(top)}"
    values = [float(r[metric]) for r in rows if is_number(r.get(metric))]
    if len(rows) >= 2:
        second = rows[1]
        if dim == "team" and len(rows) == 2:
            text += f" ({_who(dim, second.get(dim), False)}: {v(second)})"
        else:
            relation = "next lowest" if plan.order == "asc" else "ahead of"
            text += f" ({relation} {_who(dim, second.get(dim), False)} with {v(second)})" if second.get(
                metric) != top.get(metric) else f" (tied with {_who(dim, second.get(dim), False)})"
    if intent == Intent.BREAKDOWN and info.additive and len(values) >= 2 and all(x >= 0 for x in values) \
            and sum(values) > 0 and len(rows) < plan.limit:
        text += f", {fmt_pct(values[0] / sum(values) * 100)} of the total"
    return text + "."


def _timeline_answer(plan: QueryPlan, rows, shape, metric) -> str:
    info = metric_info(metric)
    if metric == "gold_diff":
        last = rows[-1]
        diff = float(last[metric])
        if diff == 0:
            return f"The teams are level on gold at minute {last['minute']}."
        lead = 1 if diff > 0 else 2
        best = max(rows, key=lambda r: r[metric]) if lead == 1 else min(rows, key=lambda r: r[metric])
        text = f"Team {lead} leads on gold: {fmt_number(abs(diff))} ahead at minute {last['minute']}"
        if best["minute"] == last["minute"]:
            return text + ", its biggest lead of the period."
        return text + (f" (its biggest lead, {fmt_number(abs(float(best[metric])))}, came at minute "
                       f"{best['minute']}).")
    series = next((d for d in shape.dimensions if d != "minute"), None)
    per_minute: dict[int, float] = {}
    for r in rows:
        if is_number(r.get(metric)):
            per_minute[r["minute"]] = per_minute.get(r["minute"], 0.0) + float(r[metric])
    if not per_minute:
        return "No values were recorded in that period."
    peak = max(per_minute, key=lambda m: per_minute[m])
    focus = f" for {', '.join(plan.focus)}" if plan.focus else ""
    several = series and len({r.get(series) for r in rows}) > 1
    over = f" (all {series}s summed)" if several else ""
    return (f"{info.label.capitalize()} per minute{focus}{_window(plan)} peaked at minute {peak} with "
            f"{fmt_number(per_minute[peak], info.decimals)}{over}.")


def _event_answer(plan: QueryPlan, rows, columns) -> str:
    if "winner_team" in columns:
        winner = rows[0].get("winner_team") if rows else None
        if winner is None:
            return ("The winner cannot be determined: the log does not record a Titan kill, so no team is "
                    "known to have won.")
        return f"Team {winner} won the match: team {winner} destroyed the enemy Titan."
    if not rows:
        return "No matching events were found in this match."
    first = rows[0]
    if {"killer", "victim", "match_second"} <= set(columns) and "objective" not in columns:
        if "first_blood" in plan.metrics:
            assists = first.get("assists") or []
            helped = f", assisted by {', '.join(assists)}" if assists else ""
            return (f"{first['killer']} got first blood, killing {first['victim']} at match second "
                    f"{first['match_second']} (minute {first['match_second'] // 60}){helped}.")
        listed = "; ".join(f"{r['killer']} on {r['victim']} at second {r['match_second']}" for r in rows[:5])
        return f"{len(rows)} kills: {listed}" + (" ..." if len(rows) > 5 else ".")
    if "objective" in columns:
        subject = _filters_subject(plan)
        listed = "; ".join(
            f"{r.get('target') or r['objective']} by {r.get('killer')}"
            + (f" (team {r['team']})" if r.get("team") is not None else "")
            + (f" at second {r['match_second']}" if r.get("match_second") is not None else "")
            for r in rows[:8])
        lead = f"{subject} took {len(rows)} objectives" if subject else f"{len(rows)} objectives were taken"
        return f"{lead}: {listed}" + (" ..." if len(rows) > 8 else ".")
    return f"{len(rows)} events match the question."


def _build_answer(plan: QueryPlan, rows, roster) -> str:
    if not rows:
        return "No purchases were recorded for that player."
    player = rows[0].get("player")
    info = next((r for r in roster if r["player"] == player), None)
    about = f" (team {info['team']} {info['role']}, {info['god']})" if info else ""
    items = [str(r.get("item")) for r in rows]
    return f"{player}{about} built {len(items)} items in this order: {', '.join(items)}."


def _insights(pkg: AgentDataPackage, direct: str) -> tuple[str, ...]:
    if pkg.analysis is None:
        return ()
    rank = {"high": 0, "medium": 1, "low": 2}
    findings = sorted((*pkg.analysis.key_findings, *pkg.analysis.comparisons), key=lambda f: rank[f.significance])
    chosen = [f.description for f in findings if f.kind not in ("leader", "value", "winner", "first_blood", "assists", "comparison")]
    chosen += [p.description for p in pkg.analysis.patterns]
    return tuple(dict.fromkeys(c for c in chosen if c != direct))[:MAX_INSIGHTS]


def _supporting_table(pkg: AgentDataPackage, rows, columns) -> SupportingTable | None:
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
    from combat_analysis.pipeline import run_stages

    answers, errors = [], []
    questions = pkg.query_analysis.anticipated_followups if pkg.query_analysis else ()
    previous = (*pkg.input.context.previous_queries, pkg.input.raw_query)
    nested_env = StageEnv(warehouse_root=env.warehouse_root, match_id=env.match_id, artifacts_dir=env.artifacts_dir,
                          handles=env.handles, inline_row_cap=env.inline_row_cap, planner=env.planner,
                          followups=False, user_id=env.user_id, session_id=env.session_id)
    for question in questions:
        try:
            nested = run_stages(question, nested_env, previous_queries=previous, user_id=pkg.metadata.user_id,
                                session_id=pkg.metadata.session_id)
        except Exception as exc:  # noqa: BLE001 - a failed follow-up is dropped, the main answer stands
            errors.append(ErrorEntry(stage=STAGE, error_type="followup_error", description=f"{question}: {exc}",
                                     recovery_action="follow-up omitted"))
            continue
        if nested.response is None or nested.is_refusal:
            continue
        answers.append(FollowupAnswer(question=question, direct_answer=nested.response.direct_answer,
                                      key_insights=nested.response.key_insights[:2],
                                      query_id=nested.metadata.query_id))
    return tuple(answers), errors


def fidelity_errors(pkg: AgentDataPackage, env: StageEnv) -> list[ErrorEntry]:
    """The number-fidelity check as a runtime guard: an unsupported number is an unhandled error."""
    from combat_analysis.fidelity import check_package

    try:
        problems = check_package(pkg, env.handles)
    except Exception as exc:  # noqa: BLE001 - the guard must not take the answer down with it
        return [ErrorEntry(stage=STAGE, error_type="fidelity_check_failed", description=str(exc),
                           recovery_action="answer not verified")]
    return [ErrorEntry(stage=STAGE, error_type="unsupported_number", handled=False,
                       description=f"{p.where}: {p.number} is not in the query results ({p.context!r})",
                       recovery_action="flagged for review") for p in problems]


def composer(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    from combat_analysis import report

    started = datetime.now(timezone.utc)
    plan = pkg.plan
    errors: list[ErrorEntry] = []
    result, rows = primary_rows(pkg, env)
    columns = list(result.column_types) if result else []
    followups: tuple[FollowupAnswer, ...] = ()
    table = None
    if plan is None or plan.intent == Intent.REFUSE:
        direct, insights = refusal_answer(plan, pkg.input.raw_query)
    elif result is None or result.status != "ok":
        direct = ("I cannot answer that right now: the query over the match data did not run. "
                  "See the errors section for details.")
        insights = ()
    elif not rows:
        who = _filters_subject(plan)
        direct = f"No matching data was found{' for ' + who if who else ''}{_window(plan)}."
        insights = ()
    else:
        roster = all_rows(pkg, env, "roster")
        if result.bound_parameters and not plan.focus:
            # A dependent question ("the top damage dealer's abilities") names who it resolved to.
            plan = plan.model_copy(update={"focus": tuple(str(v) for v in result.bound_parameters.values())})
        direct = direct_answer(plan, rows, columns, roster)
        insights = _insights(pkg, direct)
        table = _supporting_table(pkg, rows, columns)
        if env.followups:
            followups, errors = answer_followups(pkg, env)
    response = ResponseSection(
        direct_answer=direct,
        key_insights=insights,
        visualizations=tuple(v for v in pkg.visualizations),
        supporting_data=table,
        additional_context=_context(pkg) if not pkg.is_refusal else "",
        followup_answers=followups,
    )
    # Render as the package this stage returns (next version), so the report names the right version.
    staged = pkg.model_copy(update={"response": response, "version": pkg.version + 1})
    out_dir = env.query_dir(pkg.metadata.query_id)
    final = report.write_report(staged, out_dir, env.handles)  # report.md, report.html, the full table as CSV
    errors += fidelity_errors(staged.model_copy(update={"final_output": final}), env)
    return pkg.next_version(stage=STAGE, started=started, new_errors=errors, response=response, final_output=final)
