"""Fixtures of the answer tests: answers on the sample match, a season of 24 matches, the arena the adversarial
corpus is sent into, a simulated match with hard names, and the simulated matches the facts are checked on."""

from __future__ import annotations

import json
import os
from contextlib import ExitStack

import duckdb
import pytest

from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.pipeline import answer_question
from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import write_match
from combat_analysis.planner.llm import LlmPlanner
from tests.support.adversarial_corpus import CANARY, MATCH_A, MATCH_B, file_stamps, table_counts
from tests.support.llm_stub import stub_model
from tests.support.paths import DEV_QUESTIONS
from tests.support.season import roster_season_once, season_home_once, truth_tool
from tests.support.simulated import roster, simulated_log
from tests.support.stages import MATCH_ID, ask_sample
from tests.support.warehouses import data_files


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    top = tmp_path_factory.mktemp("arena")
    logs, wh, secret, out, cwd, home = (top / n for n in ("logs", "wh", "secret", "out", "cwd", "home"))
    for folder in (logs, secret, out, cwd, home):
        folder.mkdir()
    for seed, match_id in ((21, MATCH_A), (22, MATCH_B)):
        assert ingest_log(simulated_log(logs, seed, match_id, scale=0.12), wh).match_id == match_id
    (secret / "creds.csv").write_text(f"secret,n\n{CANARY},1\n", encoding="utf-8")
    (secret / "creds.json").write_text(json.dumps({"secret": CANARY}) + "\n", encoding="utf-8")
    (secret / "creds.txt").write_text(CANARY + "\n", encoding="utf-8")
    writer = duckdb.connect(str(secret / "creds.duckdb"))
    writer.execute(f"CREATE TABLE t AS SELECT '{CANARY}' AS secret")
    writer.execute(f"COPY t TO '{secret / 'creds.parquet'}' (FORMAT parquet)")
    writer.close()
    places = {"secret_csv": str(secret / "creds.csv"), "secret_json": str(secret / "creds.json"),
              "secret_txt": str(secret / "creds.txt"), "secret_parquet": str(secret / "creds.parquet"),
              "secret_db": str(secret / "creds.duckdb"), "out": str(out), "root": str(wh),
              "other_parquet": str(data_files(wh, "damage", MATCH_B)[0])}
    counts = table_counts(wh)  # first: reading every match may create the warehouse's readers' lock file
    watched = {"wh": wh, "secret": secret, "out": out, "cwd": cwd, "logs": logs}
    before = {name: file_stamps(folder) for name, folder in watched.items()}
    previous = os.getcwd()
    os.chdir(cwd)  # a relative path in hostile SQL would land here, where it would be seen
    try:
        yield {"root": wh, "home": home, "places": places, "watched": watched, "before": before, "counts": counts}
    finally:
        os.chdir(previous)


@pytest.fixture(scope="module")
def model():
    with stub_model() as url:
        yield LlmPlanner(base_url=url, model="stub", api_key_env="NO_SUCH_KEY_VARIABLE", timeout=5)


@pytest.fixture(scope="session")
def home(tmp_path_factory, season_matches):
    """A data home whose warehouse holds the 24-match season (tests/support/season.py)."""
    return season_home_once(tmp_path_factory, "season", season_matches)


@pytest.fixture(scope="session")
def roster_matches(tmp_path_factory):
    """The second season: one roster kept across nine matches (tests/support/season.py)."""
    return roster_season_once(tmp_path_factory)


@pytest.fixture(scope="session")
def roster_home(tmp_path_factory, roster_matches):
    """A data home whose warehouse holds the nine-match season of one roster."""
    return season_home_once(tmp_path_factory, "roster", roster_matches)


@pytest.fixture(scope="session", params=["season", "roster"])
def seasons(request, home, season_matches, roster_home, roster_matches):
    """Each season in turn: (its data home, its matches with their truth)."""
    return (home, season_matches) if request.param == "season" else (roster_home, roster_matches)


@pytest.fixture(scope="module")
def damage(stage_env):
    return ask_sample(stage_env, "Who dealt the most damage in the match?")


@pytest.fixture(scope="module")
def dev_packages(stage_env):
    rows = [json.loads(line) for line in DEV_QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(row, ask_sample(stage_env, row["question"])) for row in rows]


@pytest.fixture(scope="module")
def two_matches(tmp_path_factory):
    folder = tmp_path_factory.mktemp("two")
    for seed in (3, 4):
        write_match(folder / f"m{seed}.log", seed, scale=0.1)
        ingest_log(folder / f"m{seed}.log", folder / "warehouse")
    return folder


NAMES = ("Zoë Ñúñez", "O'Brien", "张伟", "mid_or_feed", "x", "Night Owl", "a.b", "🐉Drako", "LunaSol 2", "Kraken|Mid")


@pytest.fixture(scope="module")
def winner(stage_env):
    return answer_question("Which team won the match?", warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                           artifacts_dir=stage_env.artifacts_dir, followups=False)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    """A simulated match with varied names (accents, CJK, emoji, a pipe) and its independent truth."""
    folder = tmp_path_factory.mktemp("report-sim")
    players = roster(simulated_log(folder, 41, "plain"))
    log = simulated_log(folder, 41, "Report 41/b", scale=0.3, names=dict(zip(players, NAMES, strict=True)))
    root = folder / "wh"
    match_id = ingest_log(log, root).match_id
    return root, match_id, truth_tool.figures(*truth_tool.load(log)), folder / "artifacts"


# (seed, scale): two matches a Titan kill decides, two without a winner, each with deaths to towers, phoenixes,
# minions, jungle camps and bosses (the simulator's hazards)
FACT_MATCHES = ((1, 1.0), (4, 1.0), (5, 0.7), (6, 0.7))


class SimulatedMatches(tuple):
    """The facts' matches; shown by their seeds, as a failing example prints its arguments."""

    def __repr__(self) -> str:
        return f"<simulated matches, seeds {[m['seed'] for m in self]}>"


@pytest.fixture(scope="session")
def fact_matches(tmp_path_factory):
    """The simulated matches of the facts' property test, in one warehouse: for each, its env (charts and
    report files on; a session held open for the tests' questions) and its truth from ../shared/tools/truth.py, with
    the events it was computed from."""
    folder = tmp_path_factory.mktemp("facts")
    matches = []
    for seed, scale in FACT_MATCHES:
        log = folder / f"match-{seed}.log"
        write_match(log, seed, scale=scale)
        match_id = ingest_log(log, folder / "warehouse").match_id
        events, malformed = truth_tool.load(str(log))
        env = StageEnv.build(warehouse_root=folder / "warehouse", match_id=match_id,
                             artifacts_dir=folder / "artifacts", followups=False)
        matches.append({"seed": seed, "env": env, "truth": truth_tool.figures(events, malformed), "events": events})
    with ExitStack() as sessions:  # each match's questions on one connection held open (tests/support/asking.py)
        for match in matches:
            match["env"] = sessions.enter_context(match["env"].session())
        yield SimulatedMatches(matches)
