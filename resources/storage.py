"""The data home and the planner, as configurable Dagster resources.

`CombatHome.from_env()` and `PlannerResource.from_env()` (what definitions.py uses) read their settings
through Dagster's `EnvVar`: the value is resolved when a run starts and the UI shows the variable's name,
never its value. The variables: COMBAT_ANALYSIS_HOME, COMBAT_ANALYSIS_CATALOG and COMBAT_ANALYSIS_DATA_PATH (where
the warehouse lake lives: docs/warehouse.md), COMBAT_ANALYSIS_QUESTION_RETENTION_DAYS,
COMBAT_ANALYSIS_LOGS_PER_RUN, COMBAT_ANALYSIS_QUESTION_WAIT_MINUTES, COMBAT_ANALYSIS_LLM_BASE_URL, COMBAT_ANALYSIS_LLM_MODEL; the language-model key
stays in COMBAT_ANALYSIS_LLM_API_KEY and is read only by the planner that sends it.
"""


import os
from pathlib import Path

import dagster as dg

from combat_analysis.answer.env import StageEnv
from combat_analysis.app.report_server import REPORTS_URL_ENV, report_link
from combat_analysis.inbox.retention import DEFAULT_RETENTION_DAYS
from combat_analysis.planner.llm import DEFAULT_KEY_ENV, ENV_BASE_URL, ENV_MODEL, LlmPlanner
from combat_analysis.settings import CATALOG_ENV, DATA_PATH_ENV, DEFAULT_VERSION_RETENTION_DAYS, Paths

HOME_ENV = "COMBAT_ANALYSIS_HOME"
RETENTION_ENV = "COMBAT_ANALYSIS_QUESTION_RETENTION_DAYS"
VERSION_RETENTION_ENV = "COMBAT_ANALYSIS_VERSION_RETENTION_DAYS"
LOGS_PER_RUN_ENV = "COMBAT_ANALYSIS_LOGS_PER_RUN"
QUESTION_WAIT_ENV = "COMBAT_ANALYSIS_QUESTION_WAIT_MINUTES"
# A question about a match not in the warehouse yet waits this long for it (its log may still be on its way).
DEFAULT_QUESTION_WAIT_MINUTES = 30
DEFAULT_LLM_MODEL = "gpt-4o-mini"
# A burst of more new logs than this becomes ingest runs of this many matches (one process, one DuckDB
# connection each); fewer get a run each.
DEFAULT_LOGS_PER_RUN = 25


def env_or_default(name: str, default: str = "") -> str:
    """`dg.EnvVar(name)` when the variable is set where the code location loads, else `default`.

    Dagster fails a run whose EnvVar is unset; these settings are optional, so an unset one means the
    default (no language model; the data home `./data`)."""
    return dg.EnvVar(name) if os.environ.get(name) else default


def env_int_or_default(name: str, default: int) -> int:
    """`dg.EnvVar.int(name)` when the variable is set where the code location loads, else `default`."""
    return dg.EnvVar.int(name) if os.environ.get(name) else default


class CombatHome(dg.ConfigurableResource):
    """Where the warehouse, handles, artifacts, reports and drop folders live, and how long answers stay.

    Defaults to `$COMBAT_ANALYSIS_HOME` (else `./data`). Point `home` at shared storage (a mounted volume,
    an object-store FUSE mount) to move the Parquet partitions without touching asset code.
    `question_retention_days` (`$COMBAT_ANALYSIS_QUESTION_RETENTION_DAYS`, default 30; 0 keeps every answer):
    the housekeeping job expires a question partition, with its packages and artifacts, once it has been
    inactive that long.
    """

    home: str = ""
    # The warehouse lake: a DuckLake catalog (sqlite:PATH or postgres:CONNINFO) and its data path (a folder or an
    # s3:// URL); empty: the embedded default under <home>/warehouse.
    catalog: str = ""
    data_path: str = ""
    incoming_dir: str = ""  # default: <home>/incoming
    questions_dir: str = ""  # default: <home>/questions
    question_retention_days: int = DEFAULT_RETENTION_DAYS
    # Days a replaced or removed match's earlier versions stay restorable before housekeeping expires them.
    version_retention_days: int = DEFAULT_VERSION_RETENTION_DAYS
    logs_per_run: int = DEFAULT_LOGS_PER_RUN  # matches per ingest run when a burst of new logs arrives
    # The report server's address (`combat-analysis serve-reports`; `make dev` starts one): report_url links there.
    reports_url: str = ""
    # How long the question sensor holds a question whose match is not in the warehouse yet, before asking it
    # anyway (the run then fails, tagged with the wait, naming the missing match).
    question_wait_minutes: int = DEFAULT_QUESTION_WAIT_MINUTES

    @classmethod
    def from_env(cls) -> "CombatHome":
        return cls(home=env_or_default(HOME_ENV), catalog=env_or_default(CATALOG_ENV),
                   data_path=env_or_default(DATA_PATH_ENV),
                   question_retention_days=env_int_or_default(RETENTION_ENV, DEFAULT_RETENTION_DAYS),
                   version_retention_days=env_int_or_default(VERSION_RETENTION_ENV, DEFAULT_VERSION_RETENTION_DAYS),
                   logs_per_run=env_int_or_default(LOGS_PER_RUN_ENV, DEFAULT_LOGS_PER_RUN),
                   reports_url=env_or_default(REPORTS_URL_ENV),
                   question_wait_minutes=env_int_or_default(QUESTION_WAIT_ENV, DEFAULT_QUESTION_WAIT_MINUTES))

    def report_url(self, file: str | os.PathLike) -> str:
        """Where a report opens in one click: the report server's address when one is configured
        (`COMBAT_ANALYSIS_REPORTS_URL`, which `make dev` sets), else the file's `file://` URI."""
        return report_link(self.paths.home, Path(file), self.reports_url)

    @property
    def paths(self) -> Paths:
        home = Paths.from_env(self.home or None).home
        return Paths(home, self.catalog, self.data_path)

    @property
    def incoming(self) -> Path:
        return Path(self.incoming_dir) if self.incoming_dir else self.paths.incoming

    @property
    def questions(self) -> Path:
        return Path(self.questions_dir) if self.questions_dir else self.paths.questions

    def stage_env(self, match_id: str | None, planner=None, *, followups: bool = True) -> StageEnv:
        paths = self.paths
        return StageEnv.build(
            warehouse_root=paths.lake, match_id=match_id, artifacts_dir=paths.artifacts,
            handles_dir=paths.handles, planner=planner, followups=followups,
        )


class PlannerResource(dg.ConfigurableResource):
    """The query planner. Offline and deterministic by default; set `llm_base_url` to use an
    OpenAI-compatible chat-completions endpoint. The key is read, when a request is sent, from the variable
    named by `api_key_env` (COMBAT_ANALYSIS_LLM_API_KEY, as on the command line), so it never enters the
    resource's config."""

    llm_base_url: str = ""
    llm_model: str = DEFAULT_LLM_MODEL
    api_key_env: str = DEFAULT_KEY_ENV
    timeout_s: float = 20.0

    @classmethod
    def from_env(cls) -> "PlannerResource":
        return cls(llm_base_url=env_or_default(ENV_BASE_URL), llm_model=env_or_default(ENV_MODEL, DEFAULT_LLM_MODEL))

    def planner(self):
        if not self.llm_base_url:
            return None  # the stages fall back to the offline planner
        return LlmPlanner(base_url=self.llm_base_url, model=self.llm_model, api_key_env=self.api_key_env,
                          timeout=self.timeout_s)
