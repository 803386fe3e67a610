"""A Dagster logger that appends a run's full log to a file, so a terminal can stay quiet.

Registered on the code location next to the default console logger. Runs use only the console logger unless
their run config names `log_file`; `make demo` and `combat-analysis ask --dagster` do, with the console at
WARNING (see `quiet_run_config`).
"""

from __future__ import annotations

import logging
from pathlib import Path

import dagster as dg

FORMAT = "%(asctime)s %(levelname)s %(message)s"


@dg.logger(
    config_schema={
        "path": dg.Field(str, description="The file the run's log is appended to (its folder is created)."),
        "log_level": dg.Field(str, is_required=False, default_value="DEBUG", description="The file's threshold."),
    },
    description="Appends the run's full Dagster log (every event, DEBUG and up) to a file.",
)
def file_logger(init_context: dg.InitLoggerContext) -> logging.Logger:
    path = Path(init_context.logger_config["path"])
    path.parent.mkdir(parents=True, exist_ok=True)
    # A logger of its own (not from logging.getLogger), so nothing propagates to the root logger's handlers.
    logger = logging.Logger(f"combat_analysis.run_log.{init_context.run_id}",
                            level=init_context.logger_config["log_level"].upper())
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    logger.addHandler(handler)
    return logger


def quiet_run_config(log_path: Path, verbose: bool = False) -> dict:
    """Run config for the loggers: the full log to `log_path`; the terminal gets only warnings and errors,
    or everything with `verbose`."""
    return {"loggers": {
        "console": {"config": {"log_level": "DEBUG" if verbose else "WARNING"}},
        "log_file": {"config": {"path": str(log_path)}},
    }}


def send_warnings_to(log_path: Path) -> None:
    """Python warnings raised while running (Dagster's BetaWarning for `data_version`, for one) go to the log
    file instead of the terminal."""
    logging.captureWarnings(True)
    warnings_logger = logging.getLogger("py.warnings")
    handler = logging.FileHandler(log_path, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    warnings_logger.addHandler(handler)
    warnings_logger.propagate = False
