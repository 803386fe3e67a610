"""Fixtures of the planner tests: the sample match in a plain DuckDB connection and its vocabulary, the language-model
planner against the stub endpoint, and the paraphrase outcomes."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from combat_analysis.planner import Vocabulary
from combat_analysis.planner.llm import LlmPlanner
from tests.support import paraphrases
from tests.support.asking import asking
from tests.support.llm_stub import Stub
from tests.support.paths import SAMPLE_LOG, SAMPLE_MATCH_ID
from tests.support.simulated import ROLE_WORD_TAGS, rewrite_events, roster, simulated_log
from tests.support.truth_checks import CORPUS, MINION_NAME, truth_of, truth_tool


@pytest.fixture(scope="module")
def con(sample_warehouse):
    """The sample match's views, on the session's sample warehouse (the planner tests only read it)."""
    from combat_analysis.warehouse.store import open_warehouse

    connection = open_warehouse(sample_warehouse, SAMPLE_MATCH_ID)
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def vocab(con) -> Vocabulary:
    return Vocabulary.from_connection(con)


@pytest.fixture()
def planner(server, monkeypatch):
    monkeypatch.setenv("STUB_LLM_KEY", "sk-test")
    Stub.requests.clear()
    return LlmPlanner(base_url=server, model="stub-model", api_key_env="STUB_LLM_KEY", timeout=0.5)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    work = tmp_path_factory.mktemp("paraphrases")
    match = paraphrases.build_match(paraphrases.DEV_SEEDS[0], work)
    return paraphrases.answer_cases(match, paraphrases.generate(match, paraphrases.DEV_TEMPLATES), work)


# Killers that are not players, by the victim's team: a tower of the other side, a boss, the other side's titan, a
# lane minion and a jungle camp, in turn (the simulator's players only die to players)
NPC_KILLERS = {1: ("Chaos Tower", "Fire Giant", "Chaos Titan", "Swordsman", "Alpha Chimera"),
               2: ("Order Tower", "Fire Giant", "Order Titan", "Archer", "Cyclops")}


# `spoken`, `renamed` and `match` are built once per test process: a score of test files only ask them questions.
@pytest.fixture(scope="session")
def spoken(tmp_path_factory):
    """A simulated match where every sixth player death and every fortieth hit on a player came from a non-player,
    its truth from truth.py, and `ask(question)`: the direct answer and the plan, through the whole pipeline."""
    from combat_analysis.ingest.run import ingest_log

    work = tmp_path_factory.mktemp("spoken")
    log = simulated_log(work, 31, "spoken", scale=1.0)
    teams = {e["sourceowner"]: int(e["value1"]) for e in _events(log) if e.get("type") == "RoleAssigned"}
    counts = {"KillingBlow": iter(range(10**6)), "Damage": iter(range(10**6))}
    every = {"KillingBlow": 6, "Damage": 40}

    def by_npc(event: dict) -> dict:
        kind = event.get("type")
        if kind not in every or event.get("targetowner") not in teams or event.get("sourceowner") not in teams or \
                (n := next(counts[kind])) % every[kind]:
            return event
        killers = NPC_KILLERS[teams[event["targetowner"]]]
        return {**event, "sourceowner": killers[(n // every[kind]) % len(killers)]}

    rewrite_events(log, by_npc)
    match_id = ingest_log(log, work / "wh").match_id

    with asking(work / "wh", match_id, work / "art") as ask:
        yield SimpleNamespace(truth=truth_of(log), ask=ask, log=log)


def _events(log):
    return [json.loads(line.rstrip(",")) for line in log.read_text(encoding="utf-8-sig").strip().splitlines()]


@pytest.fixture(scope="session")
def renamed(tmp_path_factory):
    """A simulated match whose first two players are renamed to names of several parts, one with CJK letters and
    a latin part, with `truth` (truth.py's figures), `events` (truth.py's events, for its windows) and `ask`."""
    from combat_analysis.ingest.run import ingest_log
    from tests.support.truth_checks import truth_tool

    work = tmp_path_factory.mktemp("renamed")
    first = roster(simulated_log(work / "plain", 47, "plain", scale=0.5))
    names = {first[0]: "风_kaito", first[1]: "MoonRiver"}
    log = simulated_log(work, 47, "renamed", scale=0.5, names=names)
    match_id = ingest_log(log, work / "wh").match_id

    events = truth_tool.load(str(log))
    with asking(work / "wh", match_id, work / "art") as ask:
        yield SimpleNamespace(truth=truth_tool.figures(*events), events=events[0], ask=ask, names=names, log=log)


@pytest.fixture(scope="module")
def prefixed(tmp_path_factory):
    """A simulated match where two players' names start with the same three letters ("Kestrel9", "KesselRun"),
    with `truth` (truth.py's figures) and `ask`: the direct answer and the plan, through the whole pipeline."""
    from combat_analysis.ingest.run import ingest_log

    work = tmp_path_factory.mktemp("prefixed")
    first = roster(simulated_log(work / "plain", 53, "plain", scale=0.5))
    log = simulated_log(work, 53, "prefixed", scale=0.5, names={first[0]: "Kestrel9", first[1]: "KesselRun"})
    match_id = ingest_log(log, work / "wh").match_id

    with asking(work / "wh", match_id, work / "art", answer_only=False) as ask:
        yield SimpleNamespace(truth=truth_of(log), ask=ask, log=log)


# Killers that are not players in `match`, by the victim's team
SUBJECT_KILLERS = {1: ("Chaos Tower", "Chaos Phoenix", "Chaos Titan", "Fire Swordsman", "Swordsman", "Fire Giant"),
            2: ("Order Tower", "Order Phoenix", "Order Titan", "Fire Archer", "Archer", "Gold Fury")}

@pytest.fixture(scope="session")
def match(tmp_path_factory):
    """For test_classes_subjects.py: the simulated match (some deaths dealt by towers, phoenixes, titans, fire minions
    and bosses, some tower damage by phoenixes), its truth.py events (`events`), roster (`players`: name -> team, role, god) and `ask`."""
    from combat_analysis.ingest.run import ingest_log

    work = tmp_path_factory.mktemp("subjects")
    log = simulated_log(work, 61, "subjects", scale=0.5)
    lines = [json.loads(line.rstrip(",")) for line in log.read_text(encoding="utf-8-sig").strip().splitlines()]
    teams = {e["sourceowner"]: int(e["value1"]) for e in lines if e.get("type") == "RoleAssigned"}
    counts = {"KillingBlow": iter(range(10**6)), "Damage": iter(range(10**6))}

    def by_npc(event: dict) -> dict:
        kind = event.get("type")
        if kind == "Damage" and event.get("sourceowner", "").endswith(" Tower") and next(counts[kind]) % 3 == 0:
            return {**event, "sourceowner": event["sourceowner"].replace("Tower", "Phoenix")}
        if kind != "KillingBlow" or event.get("targetowner") not in teams or event.get("sourceowner") not in teams or \
                (n := next(counts[kind])) % 5:
            return event
        killers = SUBJECT_KILLERS[teams[event["targetowner"]]]
        return {**event, "sourceowner": killers[(n // 5) % len(killers)]}

    rewrite_events(log, by_npc)
    match_id = ingest_log(log, work / "wh").match_id
    events, malformed = truth_tool.load(str(log))

    roster = {e["sourceowner"]: (int(e["value1"]), e["itemname"].removeprefix("E")) for e in events
              if e.get("type") == "RoleAssigned"}
    gods = {e["sourceowner"]: e["itemname"] for e in events if e.get("type") == "GodPicked"}
    players = {p: SimpleNamespace(team=t, role=r, god=gods[p]) for p, (t, r) in roster.items()}
    with asking(work / "wh", match_id, work / "art") as ask:
        yield SimpleNamespace(truth=truth_tool.figures(events, malformed), events=events, ask=ask, players=players)


# METRICS.md's minions, and their Fire variants


@pytest.fixture(scope="module")
def corpus_match(tmp_path_factory):
    """For test_classes_minion_takers.py: corpus match 21 (towers and a phoenix last hit by Swordsman, Archer,
    Champion Swordsman and Brute), its truth from truth.py, `by_minions` (its objectives last hit by a minion, METRICS.md's
    minion names) and `ask`."""
    from combat_analysis.ingest.run import ingest_log

    log = next(p for p in CORPUS if p.name == "match_21.log.gz")
    work = tmp_path_factory.mktemp("corpus_match")
    match_id = ingest_log(log, work / "wh").match_id

    truth = truth_of(log)
    by_minions = [o for o in truth["objectives"] if MINION_NAME.match(o["killer"])]
    assert len({o["killer"] for o in by_minions}) >= 3, "the match has objectives last hit by several minion kinds"
    with asking(work / "wh", match_id, work / "art") as ask:
        yield SimpleNamespace(truth=truth, ask=ask, by_minions=by_minions)


@pytest.fixture(scope="module")
def sample(stage_env):
    """For test_classes_superlative_checks.py: the bundled sample match through the five stages (a Titan fell in it),
    its truth.py figures (`truth`), roster (`players`: name -> team, role, god) and `ask`."""
    truth = truth_of(SAMPLE_LOG)
    players = {p: SimpleNamespace(team=v["team"], role=v["role"], god=v["god"]) for p, v in truth["players"].items()}
    with asking(stage_env.warehouse_root, stage_env.match_id, stage_env.artifacts_dir) as ask:
        yield SimpleNamespace(truth=truth, ask=ask, players=players)


@pytest.fixture(scope="session")
def tagged(tmp_path_factory):
    """For test_classes_identity_checks.py: a simulated match whose first five players are named from role words
    and slang (`ROLE_WORD_TAGS`), its truth and `ask`."""
    from combat_analysis.ingest.run import ingest_log

    work = tmp_path_factory.mktemp("tagged")
    first = roster(simulated_log(work / "plain", 61, "plain", scale=0.5))
    log = simulated_log(work, 61, "tagged", scale=0.5, names=dict(zip(first[:len(ROLE_WORD_TAGS)], ROLE_WORD_TAGS, strict=True)))
    match_id = ingest_log(log, work / "wh").match_id
    truth = truth_of(log)
    with asking(work / "wh", match_id, work / "art") as ask:
        yield SimpleNamespace(truth=truth, ask=ask)
