"""Stage 1, query analyst: the question becomes a validated QueryPlan and its SQL. The first stage of both
sequences: the plan it makes chooses the rest (`pipeline.sequence_for`).

About one match, the env's planner plans the question over that match's names and the plan compiles to SQL;
the latest-match default is stated in the plan. Across matches (no match, a warehouse of several), the scope
words choose the matches (read once, by `pipeline.choose_match`, and carried on the env) and the question
becomes a season figure of docs/season.md (`planner.plans.crossmatch`), whose SQL is fixed in
`season.figures` and recorded by the season data engineer.

A question the combat log cannot answer is not an exception: the plan is a refusal, recorded as an
`unanswerable` error entry, and later stages turn it into a refusal answer.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from combat_analysis.answer.env import StageEnv
from combat_analysis.contracts.package import AgentDataPackage, ErrorEntry, QueryAnalysis, SqlQueryInfo
from combat_analysis.contracts.plan import Intent, OneMatch, QueryPlan, Refusal
from combat_analysis.contracts.selection import AllMatches, DateRange
from combat_analysis.planner import Vocabulary, compile_plan, plan_question
from combat_analysis.planner.read.scope import ScopeReading, matches_in, read_scope
from combat_analysis.planner.vocabulary import SeasonVocabulary
from combat_analysis.warehouse.gate import UnsafeSqlError, views_read
from combat_analysis.warehouse.store import match_ids

STAGE = "query_analyst"
_VOCABULARIES_LOCK = threading.Lock()


def query_analyst(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    started = datetime.now(timezone.utc)
    question = pkg.input.raw_query
    errors: list[ErrorEntry] = []
    queries: list[Any] = []
    con = env.connect()
    snapshot = con.snapshot  # the lake snapshot every stage of this answer reads, recorded in the package
    try:
        matches = warehouse_matches(con) if env.match_id is None else []
        across = env.match_id is None and len(matches) > 1
        vocab: Vocabulary = vocabulary(con, SeasonVocabulary if across else Vocabulary)
        try:
            if across:  # a question across matches: its scope words and the season figures (docs/season.md)
                plan = plan_for_matches(question, vocab, matches, env.scope, pkg.input.context.previous_queries)
            else:
                plan = env.planner(_without_scope_words(_without_match_words(question, env.match_id), env.scope), vocab,
                                   pkg.input.context.previous_queries)
        except Exception as exc:  # noqa: BLE001 - an LLM planner may fail; fall back to the offline one
            errors.append(ErrorEntry(stage=STAGE, error_type="planner_error", description=str(exc),
                                     recovery_action="fell back to the offline planner"))
            plan = plan_question(question, vocab, pkg.input.context.previous_queries)
        if env.match_id is not None and not across and plan.scope is None:
            held = len(match_ids(env.warehouse_root)) if env.scope_how in ("latest", "numbered") else 1
            plan = latest_match_scope(plan, vocab.started_at, env.match_id, env.scope_how, held, env.scope)
        # across matches the data engineer runs the season figure; its SQL is recorded with the result
        if not across and plan.intent != Intent.REFUSE:
            try:
                queries = list(compile_plan(plan, vocab))
            except UnsafeSqlError as exc:
                errors.append(ErrorEntry(stage=STAGE, error_type="unsafe_sql", description=str(exc),
                                         recovery_action="answered with a refusal"))
                plan = _refused(plan, "the generated SQL did not pass validation, so it was not run")
            except Exception as exc:  # noqa: BLE001 - a plan the compiler cannot handle is unanswerable
                errors.append(ErrorEntry(stage=STAGE, error_type="compile_error", description=str(exc),
                                         recovery_action="answered with a refusal"))
                plan = _refused(plan, "the question could not be turned into a query over the match data")
        followups = () if plan.intent == Intent.REFUSE or env.answer_only or across else anticipated_followups(
            plan, queries, con, vocab)
    finally:
        con.close()

    if plan.intent == Intent.REFUSE:
        reason = plan.refusal.reason if plan.refusal else "the combat log does not record that"
        errors.append(ErrorEntry(stage=STAGE, error_type="unanswerable", description=reason, handled=True,
                                 recovery_action="refusal answer with suggestions"))

    analysis = QueryAnalysis(
        query_type=plan.intent.value,
        intent=plan.summary or plan.intent.value,
        required_data_points=tuple(dict.fromkeys((*plan.metrics, *plan.group_by))),
        required_tables=required_tables(q.sql for q in queries),
        sql_queries=tuple(
            SqlQueryInfo(query_id=q.query_id, purpose=q.purpose, sql=q.sql, dependencies=tuple(q.dependencies),
                         parameters=dict(q.parameters), primary=q.primary)
            for q in queries
        ) or _season_query(plan),
        anticipated_followups=followups,
        plan=plan,
    )
    context = pkg.input.context.model_copy(update={"focus_entities": tuple(plan.focus)})
    return pkg.next_version(
        stage=STAGE,
        started=started,
        new_errors=errors,
        warehouse_snapshot=snapshot,
        query_analysis=analysis,
        input=pkg.input.model_copy(update={"context": context}),
    )


_VOCABULARIES: OrderedDict[tuple, Any] = OrderedDict()  # data read -> its vocabulary, most recent last
_KEEP_VOCABULARIES = 8


def vocabulary(con, kind: type[Vocabulary] = Vocabulary) -> Any:
    """The planner's vocabulary of the data `con` reads (`kind`: one match's, or `SeasonVocabulary` across
    matches), read once per lake snapshot and match: a snapshot never changes (an ingest commits a new one), so
    follow-ups and later questions about the same data reuse it."""
    data_key = getattr(con, "data_key", ())
    key = (kind, *data_key) if data_key else ()
    with _VOCABULARIES_LOCK:
        if key and key in _VOCABULARIES:
            _VOCABULARIES.move_to_end(key)
            return _VOCABULARIES[key]
    found = kind.from_connection(con)
    if key:
        with _VOCABULARIES_LOCK:
            _VOCABULARIES[key] = found
            while len(_VOCABULARIES) > _KEEP_VOCABULARIES:
                _VOCABULARIES.popitem(last=False)
    return found


def warehouse_matches(con) -> list[tuple[str, datetime | None]]:
    """The connection's matches in start order (docs/season.md): (match id, start)."""
    return [(r[0], r[1]) for r in con.execute(
        "SELECT match_id, started_at FROM matches ORDER BY started_at, match_id").fetchall()]


def match_scope(question: str, matches: list[tuple[str, datetime | None]]) -> ScopeReading:
    """The question's scope words, read against the matches' ids and the latest match's start."""
    latest = max((s for _, s in matches if s is not None), default=None)
    return read_scope(question, tuple(m for m, _ in matches), latest)


def plan_for_matches(question: str, vocab: Vocabulary, matches: list[tuple[str, datetime | None]],
                     scope: ScopeReading | None = None, previous: Sequence[str] = ()) -> QueryPlan:
    """The plan of a question asked across `matches` (`warehouse_matches(con)`), over the names of every match;
    its scope words say which ones: `scope` as `pipeline.choose_match` read them, else read here. No scope
    word is every match."""
    if scope is None:
        scope = match_scope(question, matches)
    if not scope.cross_match:
        scope = ScopeReading(kind="all", selection=AllMatches(), rest=scope.rest, words=scope.words)
    # lazy: the cross-match planner's patterns and season boards cost a one-match `ask` a quarter second to import
    from combat_analysis.planner.plans.crossmatch import plan_across

    plan = plan_across(question, scope, vocab, tuple(m for m, _ in matches), previous)
    if scope.number is not None:  # "game 30" of fewer: no match stands in for it
        return _refused(plan, f"the warehouse holds fewer matches than that, so no match is game number "
                              f"{scope.number} in start order and no other match stands in for it. Ask 'how many "
                              "matches are loaded' for them.")
    if isinstance(scope.selection, DateRange) and plan.intent != Intent.REFUSE and not matches_in(scope.selection,
                                                                                                  matches):
        return _refused(plan, _no_match_then(scope))
    return plan


def _no_match_then(scope: ScopeReading) -> str:
    """Why a date with no match is refused: no figure of another day stands in for it. A refusal says no number
    the question did not (the composer's rule), so the days held are offered as a question to ask."""
    said = f"'{scope.words[0]}'" if scope.words else "that date"
    when = "on the day" if scope.one_day else "in the dates"
    return (f"no match in the warehouse was played {when} {said} names, so no figure of another day stands in for "
            "it. Ask 'how many matches are loaded' for the days the matches were played.")


def latest_match_scope(plan: QueryPlan, started: datetime | None, match_id: str, how: str, matches_in_warehouse: int,
                       read: ScopeReading | None = None) -> QueryPlan:
    """A one-match plan marked with its scope; the latest match (`started` then), by default or as the scope words
    `read` said ("the last game"), says which match it read; a match named by its place ("game 4") says which it
    is, and a player's own latest match ("his last game") whose it is."""
    said = read.words if read is not None else ()
    number = read.number if read is not None else None
    player = read.player if read is not None else None
    scope = OneMatch(match_id=match_id, how=how, started_at=started.date().isoformat() if started else None,  # type: ignore[arg-type]
                     matches_in_warehouse=matches_in_warehouse, number=number if how == "numbered" else None,
                     player=player if how == "own" else None)
    update: dict[str, Any] = {"scope": scope}
    if how == "own":
        when = f" ({scope.started_at})" if scope.started_at else ""
        update["assumptions"] = (*plan.assumptions, f"'{said[0] if said else 'the last game'}' read as {player}'s "
                                                    f"latest match, {match_id}{when}")
    if how == "dated":  # "who won on tuesday": the day's one match
        update["assumptions"] = (*plan.assumptions, f"'{said[0] if said else 'the day'}' read as that day's one "
                                                    f"match, {match_id} ({scope.started_at})")
    if how == "numbered":
        update["assumptions"] = (*plan.assumptions, f"'{said[0] if said else 'the game'}' read as game {number} of "
                                                    "every match in start order, match "
                                                    f"{match_id} ({scope.started_at})")
    if how == "latest":
        when = f" ({scope.started_at})" if scope.started_at else ""
        why = f"'{said[0]}' read as" if said else "no match was named: read as"
        update["assumptions"] = (*plan.assumptions, f"{why} the latest match, {match_id}{when}, "
                                                    f"of the {matches_in_warehouse} in the warehouse")
    return plan.model_copy(update=update)


def _season_query(plan: QueryPlan) -> tuple[SqlQueryInfo, ...]:
    """A cross-match plan's one step: a `season.figures` figure. Its SQL is fixed in that module and recorded with
    the result by the data engineer, statement by statement, each validated before it ran."""
    if plan.season is None or plan.intent == Intent.REFUSE:
        return ()
    return (SqlQueryInfo(query_id="q1", purpose=f"season.{plan.season.figure}: {plan.summary}", sql="",
                         primary=True),)


def _without_match_words(question: str, match_id: str | None) -> str:
    """The question without "in match <its own id>": the id chose the match, it is not a figure to read."""
    if not match_id or match_id.lower() not in question.lower():
        return question
    pattern = r"\b(?:in|for|of|from|during)?\s*(?:the\s+)?(?:match|game)?\s*(?:id\s*)?" + re.escape(match_id)
    stripped = " ".join(re.sub(pattern, " ", question, flags=re.IGNORECASE).split())
    return stripped or question


def _without_scope_words(question: str, scope: ScopeReading | None) -> str:
    """The question without the words that chose its one match ("who won the latest game"): they are no figure."""
    if scope is None or scope.kind != "match":
        return question
    stripped = question
    for words in scope.words:
        pattern = r"\s+".join(re.escape(w) for w in words.split())
        stripped = " ".join(re.sub(r"(?<!\w)" + pattern + r"(?!\w)", " ", stripped, flags=re.IGNORECASE).split())
    return stripped or question


def _refused(plan: QueryPlan, reason: str) -> QueryPlan:
    return plan.model_copy(update={"intent": Intent.REFUSE, "refusal": Refusal(reason=reason)})


def required_tables(sqls) -> tuple[str, ...]:
    """The warehouse views the statements read, in the order they are first named (common table expressions are
    the statements' own, not views); each statement has passed the gate, which found them as it checked it."""
    tables: dict[str, None] = {}
    for sql in sqls:
        tables.update(dict.fromkeys(views_read(sql)))
    return tuple(tables)


# -- anticipated follow-ups ---------------------------------------------------------------------------------


def _peek_primary(queries, con) -> dict[str, Any] | None:
    """The first two rows of the primary query, when it stands alone: follow-ups name real entities."""
    primary = next((q for q in queries if q.primary and not q.parameters), None)
    if primary is None:
        return None
    try:
        cursor = con.execute(primary.sql)
        names = [d[0] for d in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchmany(2)]
    except Exception:  # noqa: BLE001 - a peek is best effort; the data engineer reports real failures
        return None
    return {"rows": rows}


def _players(vocab) -> list[str]:
    return list(getattr(vocab, "player_names", None) or ())


def anticipated_followups(plan: QueryPlan, queries, con, vocab, limit: int = 3) -> tuple[str, ...]:
    """The follow-ups a reader of this answer would ask next: about its lead (or the named player), its teams,
    the match's result, then general ones; never the question itself, each once, at most `limit`."""
    rows = (_peek_primary(queries, con) or {"rows": []})["rows"]
    winner = rows[0].get("winner_team") if rows and "winner_team" in rows[0] else None
    lead = (rows[0].get("player") or (None if "winner_team" in rows[0] else rows[0].get("killer"))) if rows else None
    runner_up = rows[1].get("player") if len(rows) > 1 else None
    player = next((f for f in plan.focus if f in _players(vocab)), None) or (lead if isinstance(lead, str) else None)
    candidates: list[str] = []
    if plan.intent in (Intent.RANKING, Intent.LOOKUP, Intent.COMPARISON) and "team" in plan.group_by:
        candidates += ["How many kills did each team get?", "Compare the gold earned by team 1 and team 2",
                       "Which team won the match?"]
    if player:
        candidates += _about_player(plan, player, runner_up)
    if winner is not None:
        candidates += [f"How many towers did team {winner} destroy?", "How many kills did each team get?",
                       "Compare the gold earned by team 1 and team 2"]
    if plan.intent == Intent.EVENT_LIST:
        candidates += ["Which team won the match?", "Who got first blood?", "How many kills did each team get?"]
    candidates += ["Who dealt the most damage in the match?", "Which player had the best KDA?",
                   "Which team won the match?"]
    asked = plan.question.strip().lower()
    return tuple(dict.fromkeys(t for t in candidates if t.lower() != asked))[:limit]


def _about_player(plan: QueryPlan, player: str, runner_up: str | None) -> list[str]:
    """Follow-ups about the answer's player: the figures beside the one asked, and their build."""
    metric_ids = set(plan.metrics)
    out: list[str] = []
    if metric_ids & {"damage_dealt", "damage_to_players", "dpm", "biggest_hit", "crits"}:
        out.append(f"Which ability did {player} deal the most damage with?")
        if runner_up and plan.intent == Intent.RANKING:
            out.append(f"Compare the damage of {player} and {runner_up}")
    if metric_ids & {"kills", "deaths", "assists", "kda"}:
        out.append(f"How much damage did {player} deal?")
    if "kda" not in metric_ids:
        out.append(f"What was {player}'s KDA?")
    out.append(f"What items did {player} build?" if plan.intent != Intent.BUILD_ORDER
               else f"How much damage did {player} deal?")
    return out
