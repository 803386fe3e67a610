"""The combat-analysis code location: its single entry point, named by workspace.yaml.

Installed as a top-level module (`py-modules` in pyproject.toml), so `import definitions` works from any
directory, and `[tool.dagster]` / `[tool.dg]` point `dagster dev` and `dg dev` here.
"""

import dagster as dg

from assets.ingest import match_warehouse, raw_match_log
from assets.jobs import (
    answer_question_job,
    daily_digest_job,
    executor_from_env,
    housekeeping_job,
    ingest_match_job,
    match_report_job,
    remove_match_job,
    restore_match_job,
)
from assets.questions import question_assets
from assets.record import record_matches_job
from assets.reports import daily_digest, match_report
from assets.schedules import daily_digest_schedule, housekeeping_schedule
from assets.season import season_assets, season_automation_sensor
from assets.sensors import (
    incoming_logs_sensor,
    question_files_sensor,
    report_automation_sensor,
    warehouse_sync_sensor,
)
from resources import CombatHome, PackageIOManager, PlannerResource
from resources.run_log import file_logger

defs = dg.Definitions(
    assets=[raw_match_log, match_warehouse, *question_assets, match_report, daily_digest, *season_assets],
    jobs=[ingest_match_job, answer_question_job, match_report_job, daily_digest_job, housekeeping_job,
          remove_match_job, restore_match_job, record_matches_job],
    sensors=[incoming_logs_sensor, question_files_sensor, report_automation_sensor, season_automation_sensor,
             warehouse_sync_sensor],
    schedules=[daily_digest_schedule, housekeeping_schedule],
    resources={"home": CombatHome.from_env(), "planner": PlannerResource.from_env(),
               "package_io_manager": PackageIOManager()},
    executor=executor_from_env(),
    # The console logger stays the default; a run whose config names `log_file` also writes its full log there.
    loggers={"console": dg.colored_console_logger, "log_file": file_logger},
)
