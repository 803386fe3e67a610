"""Vocabularies for the planner tests (the sample match's names, from its truth file; names real logs have) and
running compiled queries on a plain DuckDB connection."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from combat_analysis.contracts.plan import QueryPlan, SqlQuery
from combat_analysis.planner import PlayerInfo, Vocabulary, compile_plan
from tests.support.paths import TRUTH_FILE

GOLDEN_FILE = Path(__file__).with_name("golden_questions.yaml")


def truth() -> dict:
    return json.loads(TRUTH_FILE.read_text(encoding="utf-8"))


def sample_vocabulary() -> Vocabulary:
    """The sample match's names, built from the independent truth file (no warehouse needed)."""
    t = truth()
    players = tuple(PlayerInfo(player=name, team=int(p["team"]), role=p["role"], god=p["god"])
                    for name, p in sorted(t["players"].items(), key=lambda kv: (kv[1]["team"], kv[0])))
    abilities = sorted({a for p in t["players"].values() for a in p["abilities"]})
    items = sorted({i for p in t["players"].values() for i in p["items"]})
    npcs = ("Alpha Chimera", "Archer", "Brute", "Champion Swordsman", "Chaos Tower", "Chimera", "Cyclops",
            "Fire Giant", "Gold Fury", "Order Phoenix", "Order Titan", "Order Tower", "Roaming Harpy", "Satyr",
            "Swordsman")
    return Vocabulary(players=players, abilities=tuple(abilities), items=tuple(items), npcs=npcs,
                      duration_s=int(t["duration_seconds"]), winner_team=t["winner"])


def tricky_vocabulary() -> Vocabulary:
    """Names that real logs have: accents, digits, typos-in-waiting, SQL and quotes in a name."""
    players = (
        PlayerInfo("MateoUwU", 1, "Carry", "Neith"), PlayerInfo("León0722", 1, "Support", "Ymir"),
        PlayerInfo("psychotic8ball", 1, "Jungle", "Loki"), PlayerInfo("ÁngelDeth", 1, "Middle", "Zeus"),
        PlayerInfo("zoe.rush", 1, "Solo", "Athena"), PlayerInfo("mid_or_feed", 2, "Carry", "Rama"),
        PlayerInfo("Kraken_Mid", 2, "Jungle", "Thor"), PlayerInfo("Robert'); DROP TABLE players;--", 2, "Support", "Sobek"),
        PlayerInfo("O'Brien", 2, "Middle", "Anubis"), PlayerInfo("LunaSol", 2, "Solo", "Guan Yu"),
    )
    return Vocabulary(players=players, abilities=("Loki Basic Attack", "Chain Lightning", "Bragi's Harp"),
                      items=("Bragi's Harp", "Blink Rune"), duration_s=1800, winner_team=1)


def run_queries(con: duckdb.DuckDBPyConnection, queries: list[SqlQuery]) -> dict[str, tuple[list[str], list[tuple]]]:
    """Run compiled queries in order, binding each dependent query's parameters from its parent's first row."""
    results: dict[str, tuple[list[str], list[tuple]]] = {}
    for q in queries:
        params = {}
        for name, ref in q.parameters.items():
            parent, column = ref.split(".", 1)
            columns, rows = results[parent]
            params[name] = rows[0][columns.index(column)] if rows else None
        cursor = con.execute(q.sql, params) if params else con.execute(q.sql)
        results[q.query_id] = ([d[0] for d in cursor.description], cursor.fetchall())
    return results


def primary_rows(con, plan: QueryPlan, vocab: Vocabulary) -> tuple[list[str], list[tuple]]:
    queries = compile_plan(plan, vocab)
    results = run_queries(con, queries)
    primary = next(q for q in queries if q.primary)
    return results[primary.query_id]
