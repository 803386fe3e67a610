"""`make demo`: ingest the bundled sample match and answer three questions, all as real Dagster runs.

Runs are recorded in $DAGSTER_HOME, so `make dev` shows their materializations, checks and lineage. The
terminal gets a short progress display and a closing summary; Dagster's full log (every event, and Python
warnings) goes to <data home>/logs/demo.log, or to the terminal too with --verbose (`make demo VERBOSE=1`).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from assets.launch import launch_question
from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.inbox.requests import QuestionRequest, match_key, peek_match_id, register_match_source
from combat_analysis.settings import Paths
from definitions import defs
from resources.run_log import quiet_run_config, send_warnings_to

SAMPLE = Path(__file__).resolve().parents[1] / "combat_analysis" / "sample" / "sample_match.log.gz"
QUESTIONS = (
    "Who dealt the most damage in the match?",
    "Which team won the match?",
    "What items did the team 1 support build?",
)
console = Console(soft_wrap=True)  # report paths must stay whole for copy and paste
ANSWER_CHARS = 200  # a long answer (a 25-item build) would push the summary off one screen


@dataclass(frozen=True)
class Answer:
    question: str
    direct_answer: str
    report: str


def run_job(job_name: str, asset: str, instance: dg.DagsterInstance, partition_key: str,
            run_config: dict) -> dict:
    """Run a job in process and return the metadata it recorded for `asset`."""
    result = defs.resolve_job_def(job_name).execute_in_process(
        instance=instance, partition_key=partition_key, run_config=run_config, raise_on_error=True)
    (materialization,) = result.asset_materializations_for_node(asset)
    return {name: value.value for name, value in materialization.metadata.items()}


def shown(path: object) -> str:
    """A path as short as it can be and still be opened from here: relative when under this directory."""
    absolute = Path(str(path)).resolve()
    return str(absolute.relative_to(Path.cwd())) if absolute.is_relative_to(Path.cwd()) else str(absolute)


def brief(text: str, limit: int = ANSWER_CHARS) -> str:
    """The answer, cut at a word boundary when it is long (the report has it whole)."""
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " … (cut here; the report has it all)"


def summary(instance: dg.DagsterInstance, ingested: dict, report: dict, answers: list[Answer],
            log: Path) -> None:
    duration = int(report["duration_s"])
    console.rule("[bold]combat-analysis demo")
    # Text from the log (ids, names, answers) is escaped, so it is never read as rich markup.
    console.print(f"[bold]{escape(str(report['match_id']))}[/bold]: {ingested['lines']:,} lines, "
                  f"{duration // 60}:{duration % 60:02d}, {escape(str(report['winner']))} won, "
                  f"MVP {escape(str(report['mvp']))}")
    console.print(f"  report: {escape(shown(report['report_html']))}")
    for answer in answers:
        console.print(f"\n[bold]{escape(answer.question)}[/bold]\n  {escape(brief(answer.direct_answer))}\n"
                      f"  [dim]report: {escape(shown(answer.report))}[/dim]")
    console.print(f"\nDagster's full log: {escape(shown(log))}; "
                  f"runs recorded in {escape(shown(instance.root_directory))}")
    console.print("Next: [bold]make dev[/bold] opens the Dagster UI on these runs.")


def run_demo(paths: Paths, instance: dg.DagsterInstance, sample: Path, verbose: bool,
             run_config: dict) -> tuple[dict, dict, list[Answer]]:
    match_id = peek_match_id(sample)
    key = match_key(match_id)
    answers: list[Answer] = []
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    # Transient: the summary replaces it. Off when the output is not a terminal, or the log is shown instead.
    with Progress(*columns, console=console, transient=True,
                  disable=verbose or not console.is_terminal) as progress:
        step = progress.add_task("ingesting the sample match", total=2 + len(QUESTIONS))
        register_match_source(paths, key, sample)
        instance.add_dynamic_partitions("matches", [key])
        ingested = run_job("ingest_match_job", "match_warehouse", instance, key, run_config)
        progress.update(step, advance=1, description="building the match report")
        report = run_job("match_report_job", "match_report", instance, key, run_config)
        for number, question in enumerate(QUESTIONS, start=1):
            progress.update(step, advance=1, description=f"question {number} of {len(QUESTIONS)}: {question}")
            stored = launch_question(QuestionRequest(question=question, match_id=match_id, user_id="demo"),
                                     paths, instance, run_config)
            package = AgentDataPackage.from_json(stored.read_text(encoding="utf-8"))
            answers.append(Answer(question, package.response.direct_answer, package.final_output.html_path))
    return ingested, report, answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print Dagster's full log on the terminal too")
    args = parser.parse_args(argv)

    paths = Paths.from_env()
    log = paths.home / "logs" / "demo.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("", encoding="utf-8")  # this demo's log only
    if not args.verbose:
        send_warnings_to(log)
    run_config = quiet_run_config(log, verbose=args.verbose)

    instance = dg.DagsterInstance.get()
    demo_dir = paths.home / "demo"
    demo_dir.mkdir(parents=True, exist_ok=True)
    sample = demo_dir / SAMPLE.name
    shutil.copyfile(SAMPLE, sample)
    try:
        ingested, report, answers = run_demo(paths, instance, sample, args.verbose, run_config)
    except Exception as exc:  # noqa: BLE001 - one clear line here; the traceback goes to the log
        with log.open("a", encoding="utf-8") as out:
            traceback.print_exc(file=out)
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        console.print(f"[red]demo failed:[/red] {escape(first_line)}\nDagster's full log: {escape(str(log))}")
        return 1
    summary(instance, ingested, report, answers, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
