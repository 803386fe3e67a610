"""validate_sql: the gate in front of DuckDB. Hostile SQL is refused with a message naming the problem."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat_analysis.contracts.plan import Filter, Intent, QueryPlan
from combat_analysis.planner import compile_plan, plan_question
from combat_analysis.warehouse.gate import UnsafeSqlError, validate_sql
from tests.support.planner import sample_vocabulary, tricky_vocabulary

VOCAB = sample_vocabulary()
# every string a compiled query may hold: the match's names and the catalog's own constants
KNOWN_LITERALS = set(VOCAB.player_names) | set(VOCAB.abilities) | set(VOCAB.items) | set(VOCAB.gods) | set(VOCAB.roles) | {
    "player", "structure", "minion", "jungle", "boss", "gold", "experience", "tower", "phoenix", "titan", "gold fury",
    "fire giant", "early game", "mid game", "late game"}


@pytest.mark.parametrize("sql", [
    "SELECT player, kills FROM player_stats ORDER BY kills DESC LIMIT 10",
    "WITH t AS (SELECT team, SUM(kills) AS k FROM player_stats GROUP BY team) SELECT team, k FROM t ORDER BY k LIMIT 5",
    "SELECT a.player FROM players AS a JOIN player_stats AS s ON a.player = s.player WHERE s.team = 2 LIMIT 3",
    "SELECT player FROM players UNION SELECT killer FROM kills LIMIT 20",
    "SELECT source, SUM(amount) AS dmg FROM damage WHERE source = $player GROUP BY source LIMIT 1",
    "SELECT x.assister FROM (SELECT UNNEST(assists) AS assister FROM kills) AS x LIMIT 10",
])
def test_safe_queries_pass(sql):
    validate_sql(sql)


@pytest.mark.parametrize(("sql", "complaint"), [
    ("DROP TABLE players; --", r"DROP"),
    ("SELECT 1 LIMIT 1; DROP TABLE players", r"exactly one statement"),
    ("SELECT * FROM players LIMIT 1; SELECT * FROM kills LIMIT 1", r"exactly one statement"),
    ("DELETE FROM players", r"DELETE"),
    ("INSERT INTO players VALUES ('x', 1)", r"INSERT"),
    ("UPDATE players SET team = 1", r"UPDATE"),
    ("COPY players TO '/tmp/out.csv'", r"COPY"),
    ("ATTACH 'other.db' AS other", r"ATTACH"),
    ("PRAGMA database_list", r"PRAGMA"),
    ("INSTALL httpfs", r"INSTALL"),
    ("LOAD httpfs", r"COMMAND|LOAD"),
    ("SET memory_limit = '10GB'", r"SET"),
    ("CREATE TABLE x AS SELECT * FROM players", r"CREATE"),
    ("SELECT * FROM read_csv('/etc/passwd') LIMIT 1", r"read_csv|READ_CSV|not allowed"),
    ("SELECT * FROM read_parquet('/data/*.parquet') LIMIT 1", r"not allowed"),
    ("SELECT * FROM glob('/etc/*') LIMIT 5", r"glob|not allowed"),
    ("SELECT * FROM '/etc/passwd' LIMIT 1", r"unknown table '/etc/passwd'"),
    ("SELECT * FROM secrets LIMIT 1", r"unknown table 'secrets'.*available tables: matches, players"),
    ("SELECT * FROM other.players LIMIT 1", r"qualified relation"),
    ("SELECT password FROM players LIMIT 1", r"unknown column 'password'; available columns: .*player"),
    ("SELECT p.salary FROM players AS p LIMIT 1", r"unknown column 'p.salary'; p has: god, match_id, player, role, team"),
    ("SELECT player FROM players", r"LIMIT"),
    ("SELECT player FROM players UNION SELECT killer FROM kills", r"LIMIT"),
    ("SELECT getenv('HOME') LIMIT 1", r"not allowed"),
    ("SELECT player FROM players WHERE", r"parse|unknown|LIMIT"),
    ("", r"empty"),
    ("SELECT * FROM players, read_csv('x') LIMIT 1", r"READ_CSV\(\) is not allowed"),
    ("SELECT * FROM players WHERE player IN (SELECT content FROM read_text('/etc/passwd')) LIMIT 1", r"read_text"),
    ("SELECT * FROM \"read_csv('/etc/passwd')\" LIMIT 1", r"unknown table"),
    ("SELECT * FROM duckdb_settings() LIMIT 1", r"duckdb_settings"),
    ("SELECT current_setting('threads') LIMIT 1", r"current_setting"),
    ("SELECT * FROM information_schema.tables LIMIT 1", r"qualified relation"),
    ("SELECT * FROM query('SELECT 1') LIMIT 1", r"query\(\) is not allowed"),
    ("SELECT * FROM players UNION SELECT * FROM read_csv('x') LIMIT 1", r"not allowed"),
    ("CALL pragma_version()", r"only SELECT"),
    ("EXPLAIN SELECT * FROM players LIMIT 1", r"only SELECT"),
    ("VALUES (1)", r"only SELECT"),
])
def test_hostile_or_invalid_sql_is_rejected_with_a_clear_message(sql, complaint):
    with pytest.raises(UnsafeSqlError, match=complaint):
        validate_sql(sql)


def test_every_compiled_intent_validates():
    plans = [
        QueryPlan(question="q", intent=Intent.RANKING, metrics=("kda", "gpm", "dpm"), group_by=("role",)),
        QueryPlan(question="q", intent=Intent.TIMELINE, metrics=("gold",), group_by=("minute", "player")),
        QueryPlan(question="q", intent=Intent.BREAKDOWN, metrics=("damage_dealt", "crits"), group_by=("target_kind",)),
        QueryPlan(question="q", intent=Intent.BREAKDOWN, metrics=("items_purchased",), group_by=("item",)),
        QueryPlan(question="q", intent=Intent.EVENT_LIST, metrics=("objective_events",),
                  filters=(Filter(dimension="objective", values=("tower",)), Filter(dimension="team", values=(2,)))),
        QueryPlan(question="q", intent=Intent.EVENT_LIST, metrics=("kill_events",),
                  filters=(Filter(dimension="player", values=("Brisk",)),)),
        QueryPlan(question="q", intent=Intent.LOOKUP, metrics=("gold_diff",), group_by=("minute",),
                  filters=(Filter(dimension="minute", values=(10,)),)),
    ]
    for plan in plans:
        queries = compile_plan(plan, VOCAB)
        assert sum(q.primary for q in queries) == 1
        for q in queries:
            validate_sql(q.sql)


def test_names_full_of_sql_stay_literals():
    vocab = tricky_vocabulary()
    name = "Robert'); DROP TABLE players;--"
    plan = plan_question(f"How much damage did {name} deal?", vocab)
    assert plan.intent == Intent.LOOKUP, plan
    assert plan.filters[0].values == (name,)
    (query,) = compile_plan(plan, vocab)
    assert "'Robert''); DROP TABLE players;--'" in query.sql  # one escaped string literal
    validate_sql(query.sql)


_SQL_LITERAL = re.compile(r"'(?:[^']|'')*'")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(min_size=0, max_size=120))
def test_arbitrary_questions_never_raise_nor_leak_text_into_sql(question):
    plan = plan_question(question, VOCAB)
    assert plan.question == question
    if plan.intent == Intent.REFUSE:
        assert plan.refusal is not None and len(plan.refusal.suggestions) == 3
        assert not any(c.isdigit() for s in plan.refusal.suggestions for c in s)
        return
    for query in compile_plan(plan, VOCAB):
        validate_sql(query.sql)
        outside_literals = _SQL_LITERAL.sub("''", query.sql)
        stripped = question.strip()
        if len(stripped) >= 4 and not re.fullmatch(r"[\w.]+", stripped):
            assert stripped not in outside_literals
        for literal in _SQL_LITERAL.findall(query.sql):
            assert literal[1:-1].replace("''", "'") in KNOWN_LITERALS, literal


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["How much damage did {} deal?", "Compare {} and Brisk", "what did {} build",
                        "who killed {}", "kills for {} after minute 10"]),
       st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40))
def test_injected_fragments_in_templates_never_escape(template, fragment):
    question = template.format(fragment)
    plan = plan_question(question, VOCAB)
    for query in compile_plan(plan, VOCAB):
        validate_sql(query.sql)
        if len(fragment.strip()) >= 4 and any(not c.isalnum() and not c.isspace() for c in fragment):
            assert fragment.strip() not in _SQL_LITERAL.sub("''", query.sql)
