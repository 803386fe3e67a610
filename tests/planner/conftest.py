"""Fixtures of the planner tests: the sample match in a plain DuckDB connection and its vocabulary, the language-model
planner against the stub endpoint, and the paraphrase outcomes."""

from __future__ import annotations

import pytest

from combat_analysis.planner import Vocabulary
from combat_analysis.planner.llm import LlmPlanner
from tests.support import paraphrases
from tests.support.llm_stub import Stub
from tests.support.paths import SAMPLE_LOG


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    from combat_analysis.ingest.run import ingest_log
    from combat_analysis.warehouse.store import open_warehouse

    root = tmp_path_factory.mktemp("planner_warehouse")
    result = ingest_log(SAMPLE_LOG, root)
    connection = open_warehouse(root, result.match_id)
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
