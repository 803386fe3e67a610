"""Run one question as a real Dagster run of `answer_question_job`, for `combat-analysis ask --dagster`.

    python -m assets.launch --match ID [--previous Q ...] "question"

Prints the path of the final stored package. Runs are recorded in $DAGSTER_HOME when it is set (so the UI
shows them), else in a throwaway instance.
"""

import argparse
import os
import sys
from pathlib import Path

import dagster as dg

from combat_analysis.requests import QuestionRequest, save_question
from combat_analysis.settings import Paths
from resources.io_managers import latest_package_file


def launch_question(request: QuestionRequest, paths: Paths, instance: dg.DagsterInstance) -> Path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from definitions import defs

    key = save_question(paths, request)
    instance.add_dynamic_partitions("questions", [key])
    defs.resolve_job_def("answer_question_job").execute_in_process(
        instance=instance, partition_key=key, raise_on_error=True)
    return latest_package_file(paths.packages, "answer_report", key)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("question")
    parser.add_argument("--match", required=True)
    parser.add_argument("--previous", action="append", default=[])
    args = parser.parse_args(argv)
    request = QuestionRequest(question=args.question, match_id=args.match, previous_queries=tuple(args.previous))
    instance = dg.DagsterInstance.get() if os.environ.get("DAGSTER_HOME") else dg.DagsterInstance.ephemeral()
    print(launch_question(request, Paths.from_env(), instance))
    return 0


if __name__ == "__main__":
    sys.exit(main())
