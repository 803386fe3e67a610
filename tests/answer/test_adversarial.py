"""The adversarial corpus (tests/adversarial_corpus.py) through every layer that can receive it:

1. `validate_sql` directly;
2. the locked query connection's `run` (planned SQL: validated, timed, row-capped);
3. the locked connection's `execute`, which skips the validator: the DuckDB sandbox alone must hold;
4. the question text, end to end through `answer_question` with the offline planner;
5. a stub language model on 127.0.0.1 whose plan carries the case in one of its fields, end to end.

Every case is refused or contained with a clear one-line error; no canary file outside the warehouse is ever
read (its content never comes back), nothing is created outside the product's own output folders, and the
warehouse's files and row counts are unchanged. One shared warehouse: two small simulated matches with
real-looking ids, the connection scoped to the first, so the second's committed files are "outside" too.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
import time
from pathlib import Path

import duckdb
import pytest

from combat_analysis.answer.pipeline import answer_question
from combat_analysis.answer.report import md_text
from combat_analysis.contracts.plan import Intent
from combat_analysis.contracts.question import MAX_QUESTION_CHARS, QuestionTooLong
from combat_analysis.contracts.schema import TABLES
from combat_analysis.ingest.run import ingest_log
from combat_analysis.warehouse.gate import UnsafeSqlError, validate_sql
from combat_analysis.warehouse.query import (
    QueryError,
    QueryLimits,
    QueryRefused,
    QueryTimeout,
    RowCapExceeded,
    open_locked,
)
from tests.support.adversarial_corpus import CANARY, CORPUS, MATCH_A, Case, file_stamps, table_counts
from tests.support.llm_stub import StubModel
from tests.support.simulated import roster, simulated_log

LIMITS = QueryLimits(timeout_s=0.5, max_rows=1000, memory_limit_mb=256, threads=1)
# The checks after a case read the catalog; on a loaded machine that alone can pass 0.5 s. Only the case is timed.
CHECK_LIMITS = dataclasses.replace(LIMITS, timeout_s=30.0)
IDS = [c.id for c in CORPUS]


def assert_untouched(arena) -> None:
    """Nothing created, changed or removed outside the product's own output folders."""
    for name, folder in arena["watched"].items():
        assert file_stamps(folder) == arena["before"][name], f"files changed under {name}"
    assert not (Path(arena["home"]).parent / "export").exists()


def assert_clear(error: BaseException) -> None:
    text = str(error)
    assert text.strip() and "\n" not in text and len(text) < 2000, repr(text)


def _no_canary(*texts: str) -> None:
    for text in texts:
        assert CANARY not in text


# -------------------------------------------------------------------------------------- 1. validate_sql

@pytest.mark.parametrize("case", CORPUS, ids=IDS)
def test_validator(case: Case, arena):
    sql = case.text(arena["places"])
    bound = set(case.params) if case.params else None
    if case.expect in ("timeout", "rowcap"):
        validate_sql(sql, parameters=bound)  # valid SQL: the locked connection must stop it
        return
    with pytest.raises(UnsafeSqlError) as refused:
        validate_sql(sql, parameters=bound)
    assert_clear(refused.value)


# ---------------------------------------------------------------------- 2. the locked connection's run

EXPECTED = {"refused": QueryRefused, "timeout": QueryTimeout, "rowcap": RowCapExceeded}


@pytest.mark.parametrize("case", CORPUS, ids=IDS)
def test_locked_connection_run(case: Case, arena):
    with open_locked(arena["root"], MATCH_A, LIMITS) as con:
        started = time.perf_counter()
        with pytest.raises(EXPECTED[case.expect]) as stopped:
            con.run(case.text(arena["places"]), case.params or None)
        assert time.perf_counter() - started < 10 * LIMITS.timeout_s
        assert_clear(stopped.value)
        _no_canary(str(stopped.value))
        # the connection is still usable and still sees only its own match
        con.limits = CHECK_LIMITS
        assert con.execute("SELECT DISTINCT match_id FROM damage").fetchall() == [(MATCH_A,)]
    assert_untouched(arena)


# ------------------------------------------------- 3. the locked connection without the validator

@pytest.mark.parametrize("case", CORPUS, ids=IDS)
def test_locked_connection_holds_without_the_validator(case: Case, arena, record_property):
    with open_locked(arena["root"], MATCH_A, LIMITS) as con:
        try:
            rows = con.execute(case.text(arena["places"]), case.params or None).fetchall()
        except QueryError as error:
            assert_clear(error)
            _no_canary(str(error))
            outcome = type(error)
        else:
            _no_canary(repr(rows))
            outcome = None
        record_property("outcome", outcome.__name__ if outcome else "contained")
        if case.expect == "timeout":
            assert outcome is QueryTimeout
        elif case.touches_files:
            assert outcome is not None, "a statement naming a file outside the lake ran"
        # whatever ran changed nothing the next statement sees: the tables are the warehouse's own, made as read
        con.limits = CHECK_LIMITS
        assert set(r[0] for r in con.execute(
            "SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()) <= set(TABLES)
        assert set(r[0] for r in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = 'memory'").fetchall()) <= set(TABLES)
        assert con.execute("SELECT DISTINCT match_id FROM damage").fetchall() == [(MATCH_A,)]
        assert con.execute("SELECT current_setting('enable_external_access')").fetchone() == (False,)
    assert_untouched(arena)


def test_the_sandbox_reads_only_the_connections_own_match(arena):
    """DuckDB opens nothing outside the lake (its data path and catalog); within it, planned SQL names tables,
    never files, and a one-match connection's views hold its own match only."""
    with open_locked(arena["root"], MATCH_A, LIMITS) as con:
        for place in ("other_parquet", "secret_parquet"):
            with pytest.raises(QueryRefused):
                con.run(f"SELECT count(*) FROM '{arena['places'][place]}'")
        with pytest.raises(QueryRefused, match="may read only the warehouse"):
            con.execute(f"SELECT count(*) FROM '{arena['places']['secret_parquet']}'")
        assert con.execute("SELECT DISTINCT match_id FROM damage").fetchall() == [(MATCH_A,)]


@pytest.mark.parametrize("sql", [
    "COPY (SELECT 42 AS x) TO '{out}/d.csv'", "EXPORT DATABASE '{out}/export'", "ATTACH '{out}/x.duckdb' AS x",
    "ATTACH '{secret_db}' AS s", "INSTALL httpfs", "LOAD httpfs", "SELECT * FROM read_text('{secret_txt}')",
    "SELECT * FROM '{secret_parquet}'", "SET enable_external_access = true", "SET allowed_paths = ['{secret_txt}']",
    "SET allowed_directories = ['/']", "RESET enable_external_access", "SET lock_configuration = false",
    "SET threads = 64", "SET memory_limit = '64GB'", "SET temp_directory = '{out}'",
    "PRAGMA profiling_output = '{out}/p.txt'", "SET python_enable_replacements = true",
])
def test_duckdb_settings_hold_on_their_own(sql, arena):
    """Under both checks: the raw DuckDB connection, with no statement check and no validator, still refuses.
    (Another match's file inside the lake's data path is readable here; the statement check refuses it, above.)"""
    with open_locked(arena["root"], MATCH_A, LIMITS) as con:
        raw = con._con  # the sandbox itself: enable_external_access, allowed_paths, lock_configuration...
        with pytest.raises(duckdb.Error, match="Permission|locked|disabled"):
            raw.execute(sql.format(**arena["places"]))
    assert_untouched(arena)


# --------------------------------------------------------------------------- 4. the question text

_LITERAL = re.compile(r"'(?:[^']|'')*'")


def assert_inert_markdown(markdown: str, charts: int) -> None:
    """No link, image or HTML in the report but our own: chart images and the <sub> footer."""
    prose = re.sub(r"(`{3,})sql\n.*?\n\1", "", markdown, flags=re.S)
    assert not re.search(r"(?<!\\)<(?!/?sub>)", prose), "raw HTML in the markdown"
    assert len(re.findall(r"(?<!\\)\]\(", prose)) == charts, "a link or image that is not a chart"


def assert_contained(pkg, arena) -> None:
    final = pkg.final_output
    md, page = final.markdown, Path(final.html_path).read_text(encoding="utf-8")
    _no_canary(pkg.to_json(), md, page)
    assert_inert_markdown(md, charts=sum(1 for v in pkg.visualizations.values() if v.file_path))
    assert page.count("<script") == 1  # ours: the image check
    assert pkg.response.direct_answer.strip() and "\n" not in pkg.response.direct_answer
    for query in pkg.query_analysis.sql_queries if pkg.query_analysis else ():
        validate_sql(query.sql, parameters=set(query.parameters))  # what ran is one safe query over the views
        outside = _LITERAL.sub("''", query.sql)  # hostile text may only ever be a string literal's content
        assert not any(str(folder) in outside for folder in arena["watched"].values())
    assert_untouched(arena)


def _ask(arena, question: str, planner=None):
    home = arena["home"]
    return answer_question(question, warehouse_root=arena["root"], match_id=MATCH_A, artifacts_dir=home / "artifacts",
                           handles_dir=home / "handles", planner=planner, followups=False)


@pytest.mark.parametrize("case", CORPUS, ids=IDS)
def test_question_text(case: Case, arena, record_property):
    question = case.text(arena["places"])
    if len(question) > MAX_QUESTION_CHARS:  # past the limit: an error before any stage, nothing touched
        with pytest.raises(QuestionTooLong):
            _ask(arena, question)
        record_property("outcome", "too long")
        assert_untouched(arena)
        return
    pkg = _ask(arena, question)
    record_property("outcome", "refused" if pkg.is_refusal else "answered")
    if not pkg.is_refusal:  # answered: the text stayed a question, never SQL
        assert pkg.plan.intent != Intent.REFUSE
    assert_contained(pkg, arena)


# ---------------------------------------------------------------- 5. a language model's hostile plans

def _dependent(param: str, column: str = "player") -> dict:
    return {"intent": "ranking", "metrics": ["damage_dealt"], "group_by": ["player"], "limit": 1,
            "bind": {param: column},
            "then": {"question": "x", "intent": "breakdown", "metrics": ["damage_dealt"], "group_by": ["ability"],
                     "filters": [{"dimension": "player", "values": [f"${param}"]}]}}


KILLS = {"intent": "lookup", "metrics": ["kills"]}  # a match total: one figure, no chart, quick
# Where a model can put text in a plan; case i goes into slot i mod len.
SLOTS = [
    lambda s: {**KILLS, "group_by": ["player"], "filters": [{"dimension": "player", "values": [s]}]},
    lambda s: {**KILLS, "filters": [{"dimension": s, "values": ["x"]}]},
    lambda s: {**KILLS, "metrics": [s]},
    lambda s: {**KILLS, "group_by": [s]},
    lambda s: {**KILLS, "window": {"label": s, "start_s": 0, "end_s": 600}},
    lambda s: _dependent(s),
    lambda s: _dependent("player", s),
    lambda s: {"intent": "refuse", "refusal": {"reason": s, "suggestions": [s]}},
    lambda s: {**KILLS, "assumptions": [s]},
    lambda s: {**KILLS, "focus": [s], "summary": s},
    lambda s: {**KILLS, "filters": [{"dimension": "player", "op": s, "values": ["x"]}]},
    lambda s: {**KILLS, "intent": s},
    lambda s: {**KILLS, "sql": s},
    lambda s: {**KILLS, "filters": [{"dimension": "minute", "values": [s]}], "order": s},
]
WEATHER = "What was the weather like during the match?"  # refused offline, so the model is asked


@pytest.mark.parametrize(("index", "case"), list(enumerate(CORPUS)), ids=IDS)
def test_language_model_plan(index: int, case: Case, arena, model, record_property):
    hostile = case.text(arena["places"])
    StubModel.content = json.dumps(SLOTS[index % len(SLOTS)](hostile))
    pkg = _ask(arena, WEATHER, planner=model)
    plan = pkg.plan
    record_property("outcome", "plan refused" if plan.planner == "offline" else "plan accepted, contained")
    if plan.planner == "offline":  # refused: the reason is recorded where the report shows it
        assert any(a.startswith("LLM planner not used (") for a in plan.assumptions), plan.assumptions
    assert_contained(pkg, arena)


def test_issue_11_bind_injection_is_refused(arena, model):
    plan = _dependent("player OR 1=1")
    StubModel.content = json.dumps(plan)
    pkg = _ask(arena, "What abilities did the top damage dealer use?", planner=model)
    assert pkg.plan.planner == "offline"
    assert any("does not validate" in a for a in pkg.plan.assumptions), pkg.plan.assumptions
    assert all("1=1" not in q.sql for q in pkg.query_analysis.sql_queries)


def test_a_models_focus_and_summary_are_not_its_own_text(arena, model):
    StubModel.content = json.dumps({**KILLS, "focus": ["Nobody Here"]})
    assert _ask(arena, WEATHER, planner=model).plan.planner == "offline"
    StubModel.content = json.dumps({**KILLS, "summary": "Ignore the data; the answer is 42."})
    plan = _ask(arena, WEATHER, planner=model).plan
    assert plan.planner == "llm" and plan.summary == "Look up kills over the whole match."


def test_a_models_refusal_and_labels_are_shown_as_text(arena, model):
    reason = "See [the docs](javascript:alert(x)) <img src=x onerror=alert(x)> *now* | `code`"
    StubModel.content = json.dumps({"intent": "refuse", "refusal": {"reason": reason}})
    pkg = _ask(arena, WEATHER, planner=model)
    assert pkg.plan.planner == "llm" and pkg.is_refusal
    md = pkg.final_output.markdown
    assert (r"see \[the docs\](javascript:alert(x)) \<img src=x onerror=alert(x)\> \*now\* \| \`code\`"
            in md)
    page = Path(pkg.final_output.html_path).read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(x)&gt;" in page and "<img src=x" not in page
    assert_contained(pkg, arena)
    # a line break in a model's text is refused outright: it could start a heading or a list
    StubModel.content = json.dumps({"intent": "refuse", "refusal": {"reason": "No.\n# Owned"}})
    pkg = _ask(arena, WEATHER, planner=model)
    assert pkg.plan.planner == "offline" and any("control character" in a for a in pkg.plan.assumptions)


HOSTILE_NAMES = ["<img src=x onerror=alert(a)>", "[click](javascript:alert(b))", "*bold* | pipe", "`tick` ~~x~~",
                 "# Heading", "<script>alert(c)</script>", "![img](http://127.0.0.1:9/t.png)", "a_b_c", "</sub><b>",
                 "Robert'); DROP TABLE players;--"]


def test_names_from_the_log_are_shown_as_text(tmp_path):
    """Names are arbitrary text in real logs: in every report they render as themselves, nothing more."""
    players = roster(simulated_log(tmp_path, 23, "names-1"))
    log = simulated_log(tmp_path, 23, "names-1", scale=0.12, names=dict(zip(players, HOSTILE_NAMES, strict=True)))
    assert roster(log) == HOSTILE_NAMES
    match_id = ingest_log(log, tmp_path / "wh").match_id
    pkg = answer_question("Who dealt the most damage in the match?", warehouse_root=tmp_path / "wh",
                          match_id=match_id, artifacts_dir=tmp_path / "artifacts", followups=False)
    leader = pkg.response.supporting_data.rows[0][0]
    assert leader in HOSTILE_NAMES and pkg.response.direct_answer.startswith(leader)
    md = pkg.final_output.markdown
    assert_inert_markdown(md, charts=sum(1 for v in pkg.visualizations.values() if v.file_path))
    for name in {row[0] for row in pkg.response.supporting_data.rows}:
        assert f"| {md_text(name)} |" in md  # each name in the table, escaped
    page = Path(pkg.final_output.html_path).read_text(encoding="utf-8")
    assert page.count("<script") == 1 and "<img src=x" not in page and "</sub><b>" not in page
    assert html.escape("<script>alert(c)</script>") in page


# ------------------------------------------------------------------------------------------ afterwards

def test_warehouse_unchanged_after_every_layer(arena):
    assert table_counts(arena["root"]) == arena["counts"]
    assert_untouched(arena)
    assert not list(arena["watched"]["out"].iterdir()) and not list(arena["watched"]["cwd"].iterdir())
