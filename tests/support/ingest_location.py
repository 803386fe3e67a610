"""A code location with only the ingest part of `definitions.py`: the same assets, job, incoming-logs sensor,
resources and executor, without the report and season automation, so a test's daemon runs nothing else."""

import dagster as dg

from assets.ingest import match_warehouse, raw_match_log
from assets.jobs import executor_from_env, ingest_match_job
from assets.sensors import incoming_logs_sensor
from resources import CombatHome

defs = dg.Definitions(
    assets=[raw_match_log, match_warehouse],
    jobs=[ingest_match_job],
    sensors=[incoming_logs_sensor],
    resources={"home": CombatHome.from_env()},
    executor=executor_from_env(),
)
