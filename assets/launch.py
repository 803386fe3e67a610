"""Run one question as a real Dagster run of `answer_question_job`, for `combat-analysis ask --dagster`.

    python -m assets.launch [--match ID] [--previous Q ...] [--no-followups] "question"

Without --match the run chooses as `ask` does (`pipeline.choose_match`): across matches when the question's
scope words say so, else the latest match.

Prints the path of the final stored package on stdout, and on stderr which Dagster instance recorded the run:
$DAGSTER_HOME when it is set; else, in a source checkout, the project's `.dagster_home` (the instance
`make dev` and `make demo` use, so the UI shows the run); else a throwaway instance. Dagster's full log is
appended to <data home>/logs/ask.log; `--verbose` prints it too.
"""

import argparse
import os
import shutil
import sys
from pathlib import Path

import dagster as dg

from combat_analysis.inbox.requests import QuestionRequest, save_question
from combat_analysis.settings import Paths
from resources.io_managers import latest_package_file
from resources.run_log import quiet_run_config, send_warnings_to

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def launch_question(request: QuestionRequest, paths: Paths, instance: dg.DagsterInstance,
                    run_config: dict | None = None) -> Path:
    from definitions import defs  # lazy: the whole code location, loaded when a run is launched

    key = save_question(paths, request)
    instance.add_dynamic_partitions("questions", [key])
    defs.resolve_job_def("answer_question_job").execute_in_process(
        instance=instance, partition_key=key, raise_on_error=True, run_config=run_config)
    return latest_package_file(paths.packages, "answer_report", key)


def project_dagster_home(root: Path = PROJECT_ROOT) -> Path | None:
    """The checkout's `.dagster_home`, set up as `make` does, or None outside a source checkout."""
    local_config = root / "deploy" / "dagster.local.yaml"
    if not (root / "workspace.yaml").exists() or not local_config.exists():
        return None
    home = root / ".dagster_home"
    home.mkdir(exist_ok=True)
    if not (home / "dagster.yaml").exists():
        shutil.copyfile(local_config, home / "dagster.yaml")
    return home


def open_instance(environ=os.environ, root: Path = PROJECT_ROOT) -> tuple[dg.DagsterInstance, str]:
    """The instance to record runs in, and a sentence saying where that is."""
    if environ.get("DAGSTER_HOME"):
        home = Path(environ["DAGSTER_HOME"])
        return dg.DagsterInstance.from_config(str(home)), f"Dagster run recorded in {home} ($DAGSTER_HOME)"
    project_home = project_dagster_home(root)
    if project_home is not None:
        return (dg.DagsterInstance.from_config(str(project_home)),
                f"Dagster run recorded in {project_home} (the project's instance: `make dev` shows it)")
    return (dg.DagsterInstance.ephemeral(),
            "Dagster run recorded in a throwaway instance: set DAGSTER_HOME to keep it and see it in the UI")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("question")
    parser.add_argument("--match", default=None)
    parser.add_argument("--previous", action="append", default=[])
    parser.add_argument("--no-followups", action="store_true", help="skip answering the anticipated follow-ups")
    parser.add_argument("--verbose", action="store_true", help="print Dagster's full log on stderr too")
    args = parser.parse_args(argv)
    request = QuestionRequest(question=args.question, match_id=args.match, previous_queries=tuple(args.previous),
                              followups=not args.no_followups)
    paths = Paths.from_env()
    log = paths.home / "logs" / "ask.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    if not args.verbose:
        send_warnings_to(log)
    instance, where = open_instance()
    with instance:
        stored = launch_question(request, paths, instance, quiet_run_config(log, verbose=args.verbose))
    print(f"{where}; full log: {log}", file=sys.stderr)
    print(stored)
    return 0


if __name__ == "__main__":
    sys.exit(main())
