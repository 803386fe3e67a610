"""The data home and the planner, as configurable Dagster resources."""


import os
from pathlib import Path

import dagster as dg

from combat_analysis.settings import Paths
from combat_analysis.stages import StageEnv


class CombatHome(dg.ConfigurableResource):
    """Where the warehouse, handles, artifacts, reports and drop folders live.

    Defaults to `$COMBAT_ANALYSIS_HOME` (else `./data`). Point `home` at shared storage (a mounted volume,
    an object-store FUSE mount) to move the Parquet partitions without touching asset code.
    """

    home: str = ""
    incoming_dir: str = ""  # default: <home>/incoming
    questions_dir: str = ""  # default: <home>/questions

    @property
    def paths(self) -> Paths:
        return Paths.from_env(self.home or None)

    @property
    def incoming(self) -> Path:
        return Path(self.incoming_dir) if self.incoming_dir else self.paths.incoming

    @property
    def questions(self) -> Path:
        return Path(self.questions_dir) if self.questions_dir else self.paths.questions

    def stage_env(self, match_id: str | None, planner=None, *, followups: bool = True) -> StageEnv:
        paths = self.paths
        return StageEnv.build(
            warehouse_root=paths.warehouse, match_id=match_id, artifacts_dir=paths.artifacts,
            handles_dir=paths.handles, planner=planner, followups=followups,
        )


class PlannerResource(dg.ConfigurableResource):
    """The query planner. Offline and deterministic by default; set `llm_base_url` to use an
    OpenAI-compatible chat-completions endpoint (the key is read from the `api_key_env` variable)."""

    llm_base_url: str = ""
    llm_model: str = "gpt-4o-mini"
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 20.0

    def planner(self):
        base_url = self.llm_base_url or os.environ.get("COMBAT_ANALYSIS_LLM_BASE_URL", "")
        if not base_url:
            return None  # the stages fall back to the offline planner
        from combat_analysis.planner.llm import LlmPlanner

        return LlmPlanner(base_url=base_url, model=self.llm_model, api_key_env=self.api_key_env,
                          timeout=self.timeout_s)
