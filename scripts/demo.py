"""`make demo`: ingest the bundled sample match and answer three questions, all as real Dagster runs.

Runs are recorded in $DAGSTER_HOME, so `make dev` shows their materializations, checks and lineage.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import dagster as dg
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assets.launch import launch_question  # noqa: E402
from combat_analysis.keys import path_for_key  # noqa: E402
from combat_analysis.package import AgentDataPackage  # noqa: E402
from combat_analysis.requests import (  # noqa: E402
    QuestionRequest,
    match_key,
    peek_match_id,
    register_match_source,
)
from combat_analysis.settings import Paths  # noqa: E402
from definitions import defs  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "combat_analysis" / "sample" / "sample_match.log.gz"
QUESTIONS = (
    "Who dealt the most damage in the match?",
    "Which team won the match?",
    "What items did the team 1 support build?",
)
console = Console(soft_wrap=True)  # report paths must stay whole


def run(job_name: str, instance: dg.DagsterInstance, partition_key: str) -> None:
    result = defs.resolve_job_def(job_name).execute_in_process(instance=instance, partition_key=partition_key,
                                                               raise_on_error=True)
    console.print(f"  [green]✓[/green] {job_name} [dim]{partition_key}[/dim] run {result.run_id[:8]}")


def main() -> None:
    paths = Paths.from_env()
    instance = dg.DagsterInstance.get()
    demo_dir = paths.home / "demo"
    demo_dir.mkdir(parents=True, exist_ok=True)
    log = demo_dir / SAMPLE.name
    shutil.copyfile(SAMPLE, log)
    match_id = peek_match_id(log)
    key = match_key(match_id)
    console.rule("[bold]combat-analysis demo")
    console.print(f"data home: {paths.home}\nDagster home: {instance.root_directory}")
    register_match_source(paths, key, log)
    instance.add_dynamic_partitions("matches", [key])
    run("ingest_match_job", instance, key)
    run("match_report_job", instance, key)
    for question in QUESTIONS:
        stored = launch_question(QuestionRequest(question=question, match_id=match_id, user_id="demo"),
                                 paths, instance)
        package = AgentDataPackage.from_json(stored.read_text(encoding="utf-8"))
        console.print(f"  [green]✓[/green] answer_question_job [dim]{stored.parent.name}[/dim]")
        console.print(f"\n[bold]{question}[/bold]\n  {package.response.direct_answer}\n"
                      f"  [dim]report: {package.final_output.html_path}[/dim]")
    console.print(f"\n[bold]match report:[/bold] {path_for_key(paths.reports, match_id) / 'report.html'}")
    console.print("Next: [bold]make dev[/bold] opens the Dagster UI on these runs.")


if __name__ == "__main__":
    main()
