"""Stage 5 of one match, composer: the answer a person reads.

The direct answer comes first, with the exact figure (METRICS.md formatting) and the entity it belongs to;
then key insights, charts, a supporting table and the methodology. Anticipated follow-ups are answered by
the pipeline's runner (without their own follow-ups), and the report is written (`answer.compose`). An answer
given by the latest-match default says which match it read and offers the question across all matches.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from combat_analysis import formatting as fmt
from combat_analysis.answer.compose import MAX_INSIGHTS, Words, answer_followups, respond, supporting_table
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.match import wording
from combat_analysis.answer.results import all_rows, primary_rows, window_phrase
from combat_analysis.catalog import metric
from combat_analysis.contracts.package import AgentDataPackage, ErrorEntry, FollowupAnswer
from combat_analysis.contracts.plan import Filter, Intent, OneMatch, QueryPlan

SHARE_KINDS = ("share_of_total", "share_of_team")  # a narrowed figure's share of its whole first
# Findings that restate the direct answer, never repeated as insights
RESTATING = ("leader", "value", "winner", "first_blood", "assists", "comparison")


def _mid_sentence(text: str) -> str:
    """A sentence continued after a colon: its first word lowered, but "I" and a word in capitals kept."""
    first = text.split(" ", 1)[0]
    if first in ("I", "I'm", "I've") or first.startswith("I'") or first[1:2].isupper():
        return text
    return text[:1].lower() + text[1:]


def refusal_answer(plan: QueryPlan | None, question: str) -> tuple[str, tuple[str, ...]]:
    """Refusal text and suggestions, with no number the question does not contain (the scorer's rule).
    A clarifying question ("which player do you mean") names the players it could be."""
    asked = set(re.findall(r"\d+", question))

    def clean(text: str) -> bool:
        return all(d in asked for d in re.findall(r"\d+", text))

    if plan is not None and plan.refusal is not None and plan.refusal.options:
        options = fmt.join_and(list(plan.refusal.options), "or")
        reason = plan.refusal.reason.rstrip(".")
        return (f"Which player do you mean: {options}? I cannot answer until I know: "
                f"{_mid_sentence(reason)}.", ())
    reason = plan.refusal.reason if plan and plan.refusal else "the combat log does not record that"
    reason = reason.rstrip(".")
    if not clean(reason):
        reason = "the combat log does not record that"
    direct = f"I cannot answer that: {_mid_sentence(reason)}."
    suggestions = tuple(s for s in (plan.refusal.suggestions if plan and plan.refusal else ()) if clean(s))
    if not suggestions:
        suggestions = ("Who dealt the most damage in the match?", "Which team won the match?",
                       "Who got first blood?")
    return direct, tuple(f"You could ask instead: {s}" for s in suggestions[:3])


def _step_rows(pkg: AgentDataPackage, env: StageEnv, query_id: str) -> tuple[list[dict[str, Any]], list[str]]:
    result = pkg.result(query_id)
    if result is None or result.status != "ok":
        return [], []
    return all_rows(pkg, env, query_id), list(result.column_types)


def _chains(pkg: AgentDataPackage, plan: QueryPlan) -> list[list[tuple[str, QueryPlan]]]:
    """The plan's steps grouped by part, each with its query id (q1, q2... in `plan.steps()` order); the
    main question's last step is always the primary query, whatever its id."""
    chains: dict[int, list[tuple[str, QueryPlan]]] = {}
    for i, (part, step) in enumerate(plan.steps(), start=1):
        chains.setdefault(part, []).append((f"q{i}", step))
    primary = pkg.primary_result
    if primary is not None:
        chains[0][-1] = (primary.query_id, chains[0][-1][1])
    return [chains[k] for k in sorted(chains)]


def compose_answer(pkg: AgentDataPackage, env: StageEnv, plan: QueryPlan, roster, found) -> str:
    """Every part of the question answered in turn; a dependent step also says who it resolved to."""
    sentences = []
    for index, chain in enumerate(_chains(pkg, plan)):
        *leaders, (last_id, last) = chain
        rows, columns = _step_rows(pkg, env, last_id)
        result = pkg.result(last_id)
        if result is not None and result.bound_parameters and not [f for f in last.focus if not f.startswith("$")]:
            last = last.model_copy(update={"focus": tuple(str(v) for v in result.bound_parameters.values())})
        for leader_id, leader in leaders:
            sentences.append(_leader_said(pkg, env, leader_id, leader, roster, found))
        if not rows and last.intent not in (Intent.EVENT_LIST,):
            who = wording.subject(last)
            sentences.append(f"No matching data was found{' for ' + who if who else ''}{window_phrase(last)}.")
            continue
        said = wording.direct_answer(last, rows, columns, roster, found)
        asked = plan if index == 0 else plan.parts[index - 1] if index <= len(plan.parts) else None
        if asked is not None and asked.check is not None:  # a part asks its own check ("..., and was X mid")
            said = _with_check(pkg, env, chain, roster, asked, said)
        sentences.append(said)
    if plan.shape == "share" and pkg.analysis is not None:
        sentences += [f.description for f in pkg.analysis.key_findings if f.kind in SHARE_KINDS][:1]
    caveats = [c.rstrip(".") + "." for c in plan.caveats]
    return " ".join(s for s in (*sentences, *caveats) if s)


def _leader_said(pkg: AgentDataPackage, env: StageEnv, query_id: str, leader: QueryPlan, roster, found) -> str:
    """Who a dependent step was about: the ranking's leader, or the event itself (first blood, then a clause about
    its killer); "" when the step found no row."""
    rows, columns = _step_rows(pkg, env, query_id)
    if not rows:
        return ""
    if leader.intent == Intent.EVENT_LIST:
        return wording.direct_answer(leader, rows, columns, roster, found)
    return wording.leader_sentence(leader, rows)


def _with_check(pkg: AgentDataPackage, env: StageEnv, chain: list[tuple[str, QueryPlan]], roster, plan: QueryPlan,
                said: str) -> str:
    """The answer with its check: after it when the check was asked after the question ("..., was that chaos"); first
    when the check is the question (`compare` beside it: "did A get the most kills", "did chaos win"), a superlative
    said with the subject's own figure and who held it."""
    if plan.compare is None:
        return f"{said} {_checked(pkg, env, chain, roster, plan.check)}" if plan.check is not None else said
    query_id, step = chain[-1]
    held = wording.held_said(step, _step_rows(pkg, env, query_id)[0])
    if held is not None or plan.check is None:
        return held or said
    # an event's subject ("did chaos win"): whose it was, then the event; none to check (no Titan fell) is the answer
    checked = next((c for query_id, step in reversed(chain) if (c := wording.check_said(
        step, _step_rows(pkg, env, query_id)[0], roster, plan.check)) is not None), None)
    return f"{checked} {said}" if checked else said


def _checked(pkg: AgentDataPackage, env: StageEnv, chain: list[tuple[str, QueryPlan]], roster, check: Filter) -> str:
    """The yes or no asked after the question about its answer's subject: the answering step's subject, else the
    leader a dependent step was about; said as unanswered when neither names one subject."""
    for query_id, step in reversed(chain):
        rows, _ = _step_rows(pkg, env, query_id)
        said = wording.check_said(step, rows, roster, check)
        if said is not None:
            return said
    asked = f"team {check.values[0]}" if check.dimension == "team" else check.values[0]
    return (f"Whether it was {asked} cannot be said: the answer names no one player, side, role or god "
            "it could be about.")


def _starts_with_name(text: str) -> bool:
    """Whether an answer starts with a name ("MateoUwU dealt ..."), whose capital stays after the latest-match
    prefix, rather than an opening word such as "The", which is lowered."""
    first = text.split(" ", 1)[0]
    return first not in ("The", "There", "No", "Team", "It", "In", "Yes", "A", "An", "Both", "Each", "Over", "Across",
                         "Players")


def _insights(pkg: AgentDataPackage, direct: str) -> tuple[str, ...]:
    if pkg.analysis is None:
        return ()
    rank = {"high": 0, "medium": 1, "low": 2}
    findings = sorted((*pkg.analysis.key_findings, *pkg.analysis.comparisons), key=lambda f: rank[f.significance])
    chosen = [f.description for f in findings if f.kind not in RESTATING]
    asked = {f"pattern_{name}" for m in (pkg.plan.metrics if pkg.plan else ()) if (name := metric(m).pattern)}
    # a pattern question is answered by its pattern: the insight would repeat it
    chosen += [p.description for p in pkg.analysis.patterns
               if not {ref.query_id for ref in p.supporting_data} & asked]
    return tuple(dict.fromkeys(c for c in chosen if c not in direct))[:MAX_INSIGHTS]  # none repeats the answer


def _patterns(pkg: AgentDataPackage, env: StageEnv, plan: QueryPlan) -> dict[str, list[dict[str, Any]]]:
    """The analyst's pattern tables a pattern question is answered from, keyed by metric id."""
    out = {}
    for metric_id in {m for _, step in plan.steps() for m in step.metrics}:
        name = metric(metric_id).pattern
        if name:
            out[metric_id] = all_rows(pkg, env, f"pattern_{name}")
    return out


def latest_prefix(plan: QueryPlan | None) -> str:
    """'In the latest match, 6963307283 (2025-03-05): ' for an answer given by the latest-match default."""
    scope = plan.scope if plan is not None else None
    if isinstance(scope, OneMatch) and scope.how == "dated":  # the match a day named: "On 2025-03-05, match ...: "
        return f"On {scope.started_at}, in match {scope.match_id}: "
    if isinstance(scope, OneMatch) and scope.how == "numbered":  # "game 4": its place, id and day
        when = f" ({scope.started_at})" if scope.started_at else ""
        return f"In game {scope.number} of {scope.matches_in_warehouse} (start order), match {scope.match_id}{when}: "
    if isinstance(scope, OneMatch) and scope.how == "own":  # "in his last game": whose latest match
        when = f" ({scope.started_at})" if scope.started_at else ""
        return f"In {scope.player}'s latest match, {scope.match_id}{when}: "
    if not isinstance(scope, OneMatch) or scope.how != "latest":
        return ""
    when = f" ({scope.started_at})" if scope.started_at else ""
    return f"In the latest match, {scope.match_id}{when}: "


def across_version(question: str) -> str:
    """The cross-match version of a question answered about the latest match, offered as a follow-up."""
    return question.rstrip(" ?.!") + " across all matches?"


def words(pkg: AgentDataPackage, env: StageEnv) -> Words:
    """The direct answer, the insights and the table, from the analysed package (before charts and report)."""
    plan = pkg.plan
    result, rows = primary_rows(pkg, env)
    columns = list(result.column_types) if result else []
    table = None
    answered = False
    if plan is None or plan.intent == Intent.REFUSE:
        direct, insights = refusal_answer(plan, pkg.input.raw_query)
    elif result is None or result.status != "ok":
        direct = ("I cannot answer that right now: the query over the match data did not run. "
                  "See the errors section for details.")
        insights = ()
    elif not rows and not plan.parts and plan.then is None and plan.intent != Intent.EVENT_LIST:
        who = wording.subject(plan)
        if plan.condition is not None and plan.group_by:  # "players with more than 50 kills": there are none
            direct = (f"No {plan.group_by[0]} had {wording.condition_said(plan)}{wording.qualifier_phrase(plan)}"
                      f"{window_phrase(plan)}.")
        elif plan.intent == Intent.BUILD_ORDER:
            direct = wording.no_purchases(plan)
        else:
            direct = f"No matching data was found{' for ' + who if who else ''}{window_phrase(plan)}."
        insights = ()
    else:
        roster = all_rows(pkg, env, "roster")
        direct = wording.whether_any(plan, rows) + compose_answer(pkg, env, plan, roster, _patterns(pkg, env, plan))
        insights = _insights(pkg, direct)
        table = supporting_table(pkg, rows, columns)
        answered = True
    prefix = latest_prefix(plan)
    if prefix and not pkg.is_refusal:  # the latest-match default says which match, and offers all of them
        keep_capital = direct[:2].isupper() or _starts_with_name(direct)
        direct = prefix + (direct if keep_capital else direct[:1].lower() + direct[1:])
        if env.scope is None or not env.scope.words:  # "in the last game" asked for that match: offer no other
            insights = (*insights[: MAX_INSIGHTS - 1],
                        f"For every match in the warehouse, ask: \"{across_version(pkg.input.raw_query)}\"")
    return Words(direct, tuple(insights), table, offers_followups=answered)


def composer(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    started = datetime.now(timezone.utc)
    said = words(pkg, env)
    followups: tuple[FollowupAnswer, ...] = ()
    errors: list[ErrorEntry] = []
    if said.offers_followups and env.followups:
        followups, errors = answer_followups(pkg, env)
    return respond(pkg, env, started, direct=said.direct, insights=said.insights, table=said.table,
                   followups=followups, errors=errors)
