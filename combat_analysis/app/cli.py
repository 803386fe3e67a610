"""`combat-analysis`: ingest logs, ask questions, simulate matches, from the command line.

Progress and diagnostics go to stderr; stdout carries only the answer (or, with --json, the package), so
the output can be piped. `app.main` is the console script: it parses with `build_parser` and runs the
command's function, but `serve`, which it hands to `app.server` with this module's `served_ask`. Each command
imports what it needs when it runs, so `--help` or `matches` never pays for the answer path.
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import nullcontext
from datetime import timedelta
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from combat_analysis import __version__
from combat_analysis.app.exits import EPILOG, Exit
from combat_analysis.app.record import record_ask_log, record_ingest
from combat_analysis.charts.jobs import DRAW_HERE, ChartDrawer, ChartWorker
from combat_analysis.formatting import clock, count
from combat_analysis.settings import DEFAULT_VERSION_RETENTION_DAYS, Paths

err = Console(stderr=True, soft_wrap=True)  # paths in messages must stay whole for copy and paste


def _ingest_with_progress(path: Path, paths: Paths, max_bad_share: float, quiet: bool = False, progress=None,
                          replace: bool = False):
    """Ingest one file, showing its bytes read and steps on `progress` (a rich Progress), or on a bar of its own."""
    from combat_analysis.ingest.run import ingest_log  # lazy: the ingest (DuckDB) only when a log is read

    if progress is None:
        columns = [TextColumn("[bold]{task.description}"), BarColumn(), DownloadColumn(), TimeRemainingColumn()]
        with Progress(*columns, console=err, transient=True, disable=quiet or not err.is_terminal) as own:
            return _ingest_with_progress(path, paths, max_bad_share, progress=own, replace=replace)
    size = path.stat().st_size if path.is_file() and path.suffix != ".gz" else None
    task = progress.add_task(f"{path.name}: reading", total=size)
    try:
        return ingest_log(path, paths.lake, max_bad_share=max_bad_share, replace=replace,
                          on_progress=lambda n: progress.advance(task, n),
                          on_stage=lambda name: progress.update(task, description=f"{path.name}: {name}"))
    finally:
        progress.remove_task(task)


def expand_log_arguments(names: list[str]) -> tuple[list[Path], list[str], list[str]]:
    """The log files named by files, folders (their combat logs) and glob patterns, each once, in order; a
    one-line problem for each argument that names none; and a line for each file of a folder or pattern
    skipped as no combat log (a truth file, notes: neither a failure nor a match)."""
    from combat_analysis.inbox.requests import folder_logs, sort_logs  # lazy: pydantic, only for an ingest

    files: list[Path] = []
    problems: list[str] = []
    skipped: list[str] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            sorted_out = folder_logs(path)
            found = sorted_out.logs
            skipped += [f"skipped {p}: {reason}" for p, reason in sorted_out.skipped]
            if not found:
                problems.append(f"{path} is a folder holding no combat log")
        elif not path.exists() and glob.has_magic(name):
            matched = [Path(p) for p in sorted(glob.glob(name, recursive=True)) if Path(p).is_file()]
            sorted_out = sort_logs(matched)
            found = sorted_out.logs
            skipped += [f"skipped {p}: {reason}" for p, reason in sorted_out.skipped]
            if not matched:
                problems.append(f"no file matches {name}")
        else:
            found = [path]  # named on its own: a missing file or one that is no log is reported by the ingest
        files.extend(found)
    unique = list(dict.fromkeys(files))
    return unique, problems, skipped


def _quarantine_summary(result) -> str:
    if not result.lines_quarantined:
        return "0"
    kinds = ", ".join(f"{n:,} {kind}" for kind, n in sorted(result.quarantine_reasons.items(), key=lambda kv: -kv[1]))
    return f"{result.lines_quarantined:,} ({kinds})"


def cmd_ingest(args) -> int:
    """Every named log in one ingest run (one process, one DuckDB connection, small files in batches), with one
    progress bar over the files: how many are done, matches per minute and the time left."""
    from combat_analysis.ingest.run import (  # lazy: the ingest (DuckDB) only for `ingest`
        DowngradeRefused,
        IngestError,
        ingest_logs,
    )

    paths = Paths.from_env(args.home)
    files, problems, skipped = expand_log_arguments(args.files)
    for line in skipped:
        err.print(line, highlight=False)
    for problem in problems:
        err.print(f"[red]error:[/red] {problem}")
    rows, failures = [], len(problems)
    codes = [Exit.BAD_INPUT] * len(problems)
    columns = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
               TimeElapsedColumn(), TimeRemainingColumn()]
    started = time.monotonic()
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task(f"ingesting {count(len(files), 'log file')}", total=len(files), rate="")

        def done(outcome) -> None:
            nonlocal failures
            exc = outcome.error
            if isinstance(exc, IngestError):
                failures += 1
                codes.append(Exit.REFUSED if isinstance(exc, DowngradeRefused) else Exit.BAD_INPUT)
                progress.console.print(f"[red]{'refused' if isinstance(exc, DowngradeRefused) else 'error'}:[/red] "
                                       f"{exc}", highlight=False)
            elif exc is not None:  # an unforeseen failure is still one line; --debug shows where it came from
                failures += 1
                codes.append(Exit.INTERNAL)
                progress.console.print(f"[red]error:[/red] {outcome.path}: {type(exc).__name__}: "
                                       f"{' '.join(str(exc).split())}")
                if args.debug:
                    from rich.traceback import Traceback  # lazy: only for --debug

                    progress.console.print(Traceback.from_exception(type(exc), exc, exc.__traceback__))
            else:
                for match in outcome.result.matches:
                    rows.append((str(outcome.path), match))
                    if args.replace and match.status == "replaced":
                        progress.console.print(
                            f"--replace: match {match.match_id} replaced by {outcome.path}, whatever it holds; "
                            f"`combat-analysis restore {match.match_id}` brings the earlier version back until "
                            "housekeeping", highlight=False)
                    for line_no, reason in match.first_bad_lines[:3]:
                        progress.console.print(f"  [yellow]quarantined[/yellow] {outcome.path}:{line_no}: {reason}")
            minutes = (time.monotonic() - started) / 60
            progress.update(task, advance=1, rate=f"{len(rows) / minutes:,.0f} matches/min" if rows else "")

        if files:
            ingest_logs(files, paths.lake, max_bad_share=args.max_bad_share, replace=args.replace, on_done=done)
    _print_ingest_summary(rows, len(files), failures)
    err.print(f"warehouse: {paths.lake.describe()}")
    record_ingest(paths, [match for _, match in rows], reports=not args.no_reports)  # Dagster told of them, else their match reports written
    return max(codes, default=Exit.OK)


def _print_ingest_summary(rows: list, files: int, failures: int) -> None:
    if 0 < len(rows) <= 50:
        table = Table(title="Ingest", show_lines=False)
        for column in ("file", "match", "status", "lines", "quarantined"):
            table.add_column(column, overflow="fold")  # ids and paths are never cut short
        for name, r in rows:
            table.add_row(name, r.match_id, r.status, f"{r.lines_total:,}", _quarantine_summary(r))
        err.print(table)
    statuses: dict[str, int] = {}
    for _, r in rows:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    counts = ", ".join(f"{n:,} {status}" for status, n in sorted(statuses.items()))
    quarantined = sum(r.lines_quarantined for _, r in rows)
    err.print(f"{count(files, 'file')}, {count(len(rows), 'match')}: {counts or 'none'}; "
              f"{count(quarantined, 'line')} quarantined; {failures:,} failed")


def _resolve_match(args, paths: Paths, question: str):
    """The match the question reads (`pipeline.choose_match`): --log or --match, else the question's scope
    words, else the latest match."""
    from combat_analysis.answer.pipeline import choose_match  # lazy: after the chart worker started (cmd_ask)

    named = None
    if args.log:
        ingested = _ingest_with_progress(Path(args.log), paths, args.max_bad_share, quiet=True,
                                         replace=args.replace)
        record_ask_log(paths, ingested)  # a new or changed match is recorded in $DAGSTER_HOME's instance
        named = ingested.match_id
    elif args.match:
        named = args.match
    return choose_match(question, paths.lake, named, snapshot=args.as_of)


def _with_llm_defaults(args):
    """Fill the language-model options from the variables the Dagster resource reads, so both paths agree."""
    from combat_analysis.planner.llm import (  # lazy: the planner, for `ask`
        DEFAULT_KEY_ENV,
        ENV_BASE_URL,
        ENV_MODEL,
    )

    return argparse.Namespace(**{
        **vars(args),
        "llm_base_url": args.llm_base_url or os.environ.get(ENV_BASE_URL) or None,
        "llm_model": args.llm_model or os.environ.get(ENV_MODEL) or "gpt-4o-mini",
        "llm_api_key_env": args.llm_api_key_env or DEFAULT_KEY_ENV,
    })


def _planner_from_args(args):
    if not args.llm_base_url:
        return None
    from combat_analysis.planner.llm import LlmPlanner  # lazy: the planner, for `ask` with a model only

    return LlmPlanner(base_url=args.llm_base_url, model=args.llm_model, api_key_env=args.llm_api_key_env)


def _dagster_environment(args, paths: Paths) -> dict[str, str]:
    """The environment of the `ask --dagster` subprocess: the data home, and the language-model settings as
    the variables the Dagster resource reads, so it plans exactly as `ask` does (same endpoint, model and
    key; the key always handed over as COMBAT_ANALYSIS_LLM_API_KEY)."""
    from combat_analysis.planner.llm import (  # lazy: the planner, for `ask`
        DEFAULT_KEY_ENV,
        ENV_BASE_URL,
        ENV_MODEL,
    )

    env = {**os.environ, "COMBAT_ANALYSIS_HOME": str(paths.home)}
    for name in (ENV_BASE_URL, ENV_MODEL, DEFAULT_KEY_ENV):
        env.pop(name, None)
    if args.llm_base_url:
        env.update({ENV_BASE_URL: args.llm_base_url, ENV_MODEL: args.llm_model})
        if os.environ.get(args.llm_api_key_env):
            env[DEFAULT_KEY_ENV] = os.environ[args.llm_api_key_env]
    return env


CHART_WORKER_ENV = "COMBAT_ANALYSIS_CHART_WORKER"  # "0": draw charts in the answering process


def cmd_ask(args) -> int:
    from combat_analysis.contracts.question import QuestionTooLong, check_question  # lazy: tiny, for `ask`

    try:  # before anything starts: a question past the limit runs no stage
        check_question(" ".join(args.question))
    except QuestionTooLong as exc:
        err.print(f"[red]error:[/red] {exc}")
        return Exit.BAD_INPUT
    if args.answer_only and (args.dagster or args.dagster_url):
        err.print("[red]error:[/red] --answer-only answers here; a Dagster run always writes its charts and report")
        return Exit.BAD_INPUT
    if args.dagster_url:  # asked of a running Dagster webserver: no answer path here
        from combat_analysis.app import remote  # lazy: only a remote ask pays for urllib

        return remote.main(args)
    # Started before the pipeline is imported: the worker imports matplotlib on the other core meanwhile.
    here = args.dagster or args.answer_only or os.environ.get(CHART_WORKER_ENV, "1") == "0"
    with nullcontext(DRAW_HERE) if here else ChartWorker() as charts:
        return _ask(args, charts)


def _ask(args, charts) -> int:
    # lazy: the answer path, imported once the chart worker started (it imports matplotlib on the other core)
    from combat_analysis.answer.pipeline import answer_question
    from combat_analysis.warehouse.store import WarehouseError  # lazy: DuckDB, with the answer path above

    paths = Paths.from_env(args.home)
    question = " ".join(args.question)
    args = _with_llm_defaults(args)
    expected: tuple[type[Exception], ...] = (WarehouseError,)
    refused: tuple[type[Exception], ...] = ()
    if args.log:  # only an ingest raises IngestError, and importing the ingest costs a question with --match
        from combat_analysis.ingest.run import DowngradeRefused, IngestError  # lazy: see above

        expected += (IngestError,)
        refused += (DowngradeRefused,)
    try:
        choice = _resolve_match(args, paths, question)
        if args.dagster:
            return _ask_through_dagster(question, choice, paths, args)
        package = answer_question(
            question, warehouse_root=paths.lake, match_id=choice.match_id, scope_how=choice.how,
            scope=choice.scope, snapshot=choice.snapshot, artifacts_dir=paths.artifacts,
            handles_dir=paths.handles, previous_queries=tuple(args.previous or ()),
            planner=_planner_from_args(args), followups=not args.no_followups, charts=charts,
            answer_only=args.answer_only,
            on_words=None if args.json else lambda words: _print_answer(words.direct, words.insights),
        )
    except expected as exc:
        is_refused = isinstance(exc, refused)
        err.print(f"[red]{'refused' if is_refused else 'error'}:[/red] {exc}", highlight=False)
        return Exit.REFUSED if is_refused else Exit.BAD_INPUT
    _print_package(package, args.json, words_printed=not args.json)
    return Exit.REFUSED if package.is_refusal else Exit.OK


def _print_answer(direct: str, insights) -> None:
    """The direct answer and its insights, flushed at once: `ask` prints them as soon as the analyst is done,
    before the charts, the follow-ups and the report (a reader waits for the answer, not for the report around
    it; a pipe would hold them in its buffer)."""
    print(direct)
    for insight in insights:
        print(f"  - {insight}")
    sys.stdout.flush()


def _print_package(package, as_json: bool, words_printed: bool = False) -> None:
    """The package as JSON, or its answer (unless printed already, as soon as it was worded) and the report's
    path, once the report is written."""
    if as_json:
        sys.stdout.write(package.to_json() + "\n")
        return
    if not words_printed:
        _print_answer(package.response.direct_answer, package.response.key_insights)
    if package.final_output and package.final_output.html_path:
        print(f"report: {package.final_output.html_path}")  # stdout: `> answer.txt` keeps it with the answer


def _ask_through_dagster(question: str, choice, paths: Paths, args) -> int:
    """Run the question as a real Dagster run in a subprocess, so the core never imports dagster.

    The run is recorded in $DAGSTER_HOME, else in the checkout's `.dagster_home` (the instance `make dev`
    shows); the subprocess says which on stderr, and keeps the full Dagster log in <home>/logs/ask.log."""
    from combat_analysis.contracts.package import AgentDataPackage  # lazy: pydantic, only with --dagster

    command = [sys.executable, "-m", "assets.launch", question]
    if choice.how in ("named", "only"):  # else the run chooses, as `ask` did: across matches or the latest
        command[3:3] = ["--match", choice.match_id]
    for previous in args.previous or ():
        command += ["--previous", previous]
    if args.no_followups:
        command.append("--no-followups")
    if args.verbose:
        command.append("--verbose")
    run = subprocess.run(command, capture_output=True, text=True, env=_dagster_environment(args, paths))
    if run.returncode != 0:
        err.print(run.stderr[-4000:], markup=False, highlight=False)
        return run.returncode
    sys.stderr.write(run.stderr)  # where the run was recorded (and, with --verbose, its log)
    stored = Path(run.stdout.strip().splitlines()[-1])
    package = AgentDataPackage.from_json(stored.read_text(encoding="utf-8"))
    _print_package(package, args.json)
    return Exit.REFUSED if package.is_refusal else Exit.OK


def served_ask(argv: list[str]) -> Callable[[ChartDrawer], int] | None:
    """`ask` as the answer server (`app.server`) runs it: the parsed command, to run with the server's chart
    drawer; None for anything the server must not answer here (another command, `--dagster`, a usage error),
    which the client then answers in its own process."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:
        return None  # the client's own CLI prints the usage error
    if args.func is not cmd_ask or args.dagster or args.dagster_url:
        return None
    return lambda charts: _ask(args, charts)


def cmd_simulate(args) -> int:
    from combat_analysis.ingest.simulate import write_match  # lazy: each command imports what it runs

    lines = write_match(Path(args.out), args.seed, scale=args.scale)
    err.print(f"wrote {lines:,} lines to {args.out}")
    return 0


def cmd_handles(args) -> int:
    from combat_analysis.warehouse.handles import HandleStore  # lazy: each command imports what it runs

    store = HandleStore(Paths.from_env(args.home).handles)
    removed = store.cleanup_expired()
    err.print(f"removed {len(removed)} expired handle(s)")
    for handle_id in removed:
        print(handle_id)
    return 0


def cmd_matches(args) -> int:
    if args.history:
        return _print_history(args)
    from combat_analysis.warehouse.store import match_ids, open_warehouse  # lazy: DuckDB, for `matches` only

    paths = Paths.from_env(args.home)
    table = Table(title=f"Matches in {paths.lake.describe()}")
    for column in ("match", "started", "duration", "winner", "lines", "quarantined", "source"):
        table.add_column(column, overflow="fold")  # an id is shown whole, as written
    if match_ids(paths.lake):
        con = open_warehouse(paths.lake)
        for row in con.execute("""SELECT match_id, started_at, duration_s, winner_team, lines_total,
                                  lines_quarantined, source_file FROM matches ORDER BY started_at""").fetchall():
            table.add_row(*_match_cells(row))
    _console().print(table)
    return 0


def _match_cells(row: tuple) -> list[str]:
    """One `matches` row as read: the length as a clock, the winner by side, counts with separators."""
    match_id, started, duration_s, winner, lines, quarantined, source = row
    side = {1: "team 1 (Order)", 2: "team 2 (Chaos)"}.get(winner, "unknown (no Titan fell)")
    return [match_id, str(started) if started is not None else "unknown", clock(duration_s), side,
            f"{lines:,}" if lines is not None else "unknown", f"{quarantined:,}" if quarantined is not None else "0",
            source or ""]


def _console() -> Console:
    out = Console()
    return out if out.is_terminal else Console(width=240)  # piped or captured: whole ids, not an 80-column fold


def _print_history(args) -> int:
    from combat_analysis.warehouse.store import history  # lazy: DuckDB, for `matches --history` only

    paths = Paths.from_env(args.home)
    versions = history(paths.lake, args.history)
    if not versions:
        err.print(f"[red]error:[/red] the warehouse keeps no version of match {args.history!r} "
                  "(never ingested, or expired by housekeeping)")
        return 2
    table = Table(title=f"Versions of match {args.history} (`ask --as-of SNAPSHOT` reads one)")
    for column in ("snapshot", "when (UTC)", "what", "lines", "duration", "has an end", "source"):
        table.add_column(column, overflow="fold")
    for v in versions:
        source = v.source or {}
        table.add_row(str(v.snapshot), v.at.strftime("%Y-%m-%d %H:%M:%S"), v.action,
                      f"{source['lines_total']:,}" if source else "", clock(source.get("duration_s")) if source else "",
                      ("yes" if source.get("has_end") else "no") if source else "", source.get("source_file") or "")
    _console().print(table)
    return 0


def cmd_remove(args) -> int:
    from combat_analysis.warehouse.store import WarehouseError, remove_match  # lazy: DuckDB, for this command

    paths = Paths.from_env(args.home)
    try:
        snapshot = remove_match(paths.lake, args.match)
    except WarehouseError as exc:
        err.print(f"[red]error:[/red] {exc}")
        return 2
    print(f"removed match {args.match} (snapshot {snapshot}); `combat-analysis restore {args.match}` brings it back "
          "until housekeeping expires its versions")
    return 0


def cmd_restore(args) -> int:
    from combat_analysis.warehouse.store import (  # lazy: DuckDB, for this command
        WarehouseError,
        restore_match,
    )

    paths = Paths.from_env(args.home)
    try:
        snapshot = restore_match(paths.lake, args.match, args.snapshot)
    except WarehouseError as exc:
        err.print(f"[red]error:[/red] {exc}")
        return 2
    print(f"restored match {args.match} (snapshot {snapshot})")
    return 0


def cmd_serve_reports(args) -> int:
    from combat_analysis.app.report_server import REPORTS_URL_ENV, make_server  # lazy: for this command

    paths = Paths.from_env(args.home)
    server = make_server(paths.home, args.host, args.port)
    url = f"http://{args.host}:{server.server_port}"
    err.print(f"serving the reports of {paths.home} on {url}; set {REPORTS_URL_ENV}={url} where Dagster runs so "
              "`report_url` links here; Ctrl-C stops", highlight=False)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return Exit.OK


def cmd_housekeeping(args) -> int:
    from combat_analysis.warehouse.store import tidy  # lazy: DuckDB, for this command

    paths = Paths.from_env(args.home)
    done = tidy(paths.lake, timedelta(days=args.keep_days))
    merged, expired = done.merged, done.expired
    print(f"merged the files of {count(len(merged), 'table')}; expired {count(expired.snapshots, 'snapshot')} older "
          f"than {count(args.keep_days, 'day')}; deleted {count(expired.files_deleted, 'file')}"
          + (f", {count(expired.files_waiting, 'file')} wait for readers that may still read them"
             if expired.files_waiting else ""))
    return 0


def cmd_migrate(args) -> int:
    from combat_analysis.warehouse.migrate import migrate  # lazy: DuckDB, for `migrate` only

    paths = Paths.from_env(args.home)
    old = Path(args.source) if args.source else paths.warehouse
    if not (old / "matches").is_dir():
        err.print(f"[red]error:[/red] {old} holds no earlier warehouse (no matches/ folder of snapshots)")
        return 2
    done = migrate(old, paths.lake, on_match=lambda match_id, what: err.print(f"{what} {match_id}"))
    for problem in done.problems:
        err.print(f"[red]error:[/red] {problem}")
    print(f"{count(len(done.moved), 'match')} moved into {paths.lake.describe()}, {len(done.skipped):,} already there, "
          f"{count(len(done.problems), 'problem')}")
    return 2 if done.problems else 0


def default_version_days() -> float:
    return float(os.environ.get("COMBAT_ANALYSIS_VERSION_RETENTION_DAYS") or DEFAULT_VERSION_RETENTION_DAYS)


HOME_HELP = "data home (default: $COMBAT_ANALYSIS_HOME, else ./data); accepted before or after the command"


def run(args) -> int:
    """A parsed command, with the one exit-code policy: an unforeseen exception is an internal error (3), said in
    one line (a traceback with --debug); Ctrl-C is 130, as shells expect."""
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    except BrokenPipeError:  # the reader went away (`ask ... | head -1`, after the answer came first): no error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor at the interpreter's last flush
        return Exit.OK
    except Exception as exc:  # noqa: BLE001  the last resort: every other failure is handled where it happens
        err.print(f"[red]internal error:[/red] {type(exc).__name__}: {' '.join(str(exc).split())[:500]}",
                  highlight=False)
        if getattr(args, "debug", False):
            from rich.traceback import Traceback  # lazy: only for --debug

            err.print(Traceback.from_exception(type(exc), exc, exc.__traceback__))
        else:
            err.print("this is a fault of combat-analysis: run again with --debug for the traceback")
        return Exit.INTERNAL


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="combat-analysis", description=__doc__.splitlines()[0], epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--home", help=HOME_HELP)
    parser.add_argument("--debug", action="store_true", help="show a traceback for an internal error (exit 3)")
    # The same option after the command. SUPPRESS: when it is not given there, the value given before the
    # command (or None) stands instead of being reset by the subcommand's default.
    home_after = argparse.ArgumentParser(add_help=False)
    home_after.add_argument("--home", default=argparse.SUPPRESS, help=HOME_HELP)
    home_after.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                            help="show a traceback for an internal error (exit 3)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                help="what to do (`combat-analysis COMMAND --help` lists its options)")

    ingest = sub.add_parser("ingest", parents=[home_after], help="read combat logs into the warehouse")
    ingest.add_argument("files", nargs="+", metavar="FILE|FOLDER|GLOB",
                        help="log files, folders of logs, or glob patterns such as 'logs/**/*.log.gz'")
    ingest.add_argument("--max-bad-share", type=float, default=0.01,
                        help="fail when more than this share of lines is malformed (default 0.01)")
    ingest.add_argument("--no-reports", action="store_true",
                        help="without a Dagster instance ($DAGSTER_HOME), do not write each new match's report "
                             "(a season of logs ingests in minutes; `COMBAT_ANALYSIS_INGEST_REPORTS=0` does the same)")
    ingest.add_argument("--replace", action="store_true",
                        help="take a file even when it holds less of a match than the stored version (a cut upload "
                             "is refused by default; the stored version stays restorable until housekeeping)")
    ingest.set_defaults(func=cmd_ingest)

    ask = sub.add_parser("ask", parents=[home_after], help="answer a question about a match")
    ask.add_argument("question", nargs="+", help="the question, in plain words (quotes optional)")
    where = ask.add_mutually_exclusive_group()
    where.add_argument("--log", metavar="FILE", help="ingest this log first (an identical earlier ingest is reused)")
    where.add_argument("--match", metavar="ID", help="a match id already in the warehouse")
    ask.add_argument("--json", action="store_true", help="print the final Agent Data Package as JSON")
    ask.add_argument("--previous", action="append", metavar="QUESTION",
                     help="an earlier question in this session, oldest first (repeatable)")
    ask.add_argument("--no-followups", action="store_true", help="skip answering the anticipated follow-ups")
    ask.add_argument("--answer-only", action="store_true",
                     help="the answer and its insights alone: no charts, report files or follow-ups (the quickest, "
                          "for scripts)")
    ask.add_argument("--dagster", action="store_true",
                     help="run the question as a Dagster job, recorded in $DAGSTER_HOME or else the project's "
                          ".dagster_home (the instance `make dev` shows)")
    ask.add_argument("--dagster-url", metavar="URL",
                     help="ask the Dagster webserver at URL (e.g. http://localhost:3000) instead: one run of "
                          "answer_question_job in a new question partition, progress on stderr, the answer on stdout")
    ask.add_argument("--timeout", type=float, default=900.0, metavar="SECONDS",
                     help="with --dagster-url: give up waiting after this long (default %(default)g; the run goes on)")
    ask.add_argument("--verbose", action="store_true",
                     help="with --dagster: print Dagster's full log too (it always goes to <home>/logs/ask.log)")
    ask.add_argument("--max-bad-share", type=float, default=0.01,
                     help="with --log: fail when more than this share of lines is malformed (default 0.01)")
    ask.add_argument("--replace", action="store_true",
                     help="with --log: take the file even when it holds less of its match than the stored version")
    ask.add_argument("--as-of", type=int, metavar="SNAPSHOT",
                     help="read the warehouse as it was at this snapshot (an answer's metadata.warehouse_snapshot; "
                          "`combat-analysis matches --history MATCH` lists a match's), to reproduce an answer")
    # Defaults are resolved in cmd_ask from the planner's own names (importing it here would slow every command).
    ask.add_argument("--llm-base-url", metavar="URL",
                     help="OpenAI-compatible endpoint for the optional language-model planner (default: "
                          "$COMBAT_ANALYSIS_LLM_BASE_URL; unset: the offline planner)")
    ask.add_argument("--llm-model", metavar="MODEL",
                     help="model name sent to that endpoint (default: $COMBAT_ANALYSIS_LLM_MODEL, else gpt-4o-mini)")
    ask.add_argument("--llm-api-key-env", metavar="VAR",
                     help="environment variable holding the endpoint's key (default: COMBAT_ANALYSIS_LLM_API_KEY, "
                          "which the Dagster resource reads too)")
    ask.set_defaults(func=cmd_ask)

    serve = sub.add_parser("serve", parents=[home_after],
                           help="keep an answer process warm, so `ask` in this data home answers in a fraction of the time")
    serve.add_argument("--idle-minutes", type=float, default=60.0,
                       help="stop after this long without a question (default %(default)s)")
    serve.set_defaults(func=None)  # app.main hands it to app.server

    simulate = sub.add_parser("simulate", parents=[home_after], help="write a realistic simulated match log")
    simulate.add_argument("--seed", type=int, default=7,
                          help="random seed: the same seed and scale give the same file (default %(default)s)")
    simulate.add_argument("--out", required=True, metavar="FILE", help="where to write the log")
    simulate.add_argument("--scale", type=float, default=1.0,
                          help="fight density multiplier: 1 gives about 27,000 lines, 75 about a million "
                               "(13,000 to 15,000 lines per unit; default %(default)s)")
    simulate.set_defaults(func=cmd_simulate)

    handles = sub.add_parser("cleanup-handles", parents=[home_after], help="delete expired data handles")
    handles.set_defaults(func=cmd_handles)

    matches = sub.add_parser("matches", parents=[home_after], help="list the matches in the warehouse")
    matches.add_argument("--history", metavar="MATCH", help="list every version of this match the warehouse keeps")
    matches.set_defaults(func=cmd_matches)

    remove = sub.add_parser("remove", parents=[home_after],
                            help="take a match out of every answer, season figure and report (restore undoes it)")
    remove.add_argument("match", metavar="MATCH", help="the match id (`combat-analysis matches` lists them)")
    remove.set_defaults(func=cmd_remove)

    restore = sub.add_parser("restore", parents=[home_after],
                             help="bring back an earlier version of a match (by default the one before the last change)")
    restore.add_argument("match", metavar="MATCH", help="the match id (`matches --history MATCH` lists its versions)")
    restore.add_argument("--snapshot", type=int, help="the version to bring back (`matches --history MATCH`)")
    restore.set_defaults(func=cmd_restore)

    reports = sub.add_parser("serve-reports", parents=[home_after],
                             help="serve the data home's reports over http, so Dagster's report_url opens in one "
                                  "click (`make dev` starts it)")
    reports.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    reports.add_argument("--port", type=int, default=3001, help="port (default %(default)s)")
    reports.set_defaults(func=cmd_serve_reports)

    housekeeping = sub.add_parser("housekeeping", parents=[home_after],
                                  help="merge the warehouse's small files and expire old match versions "
                                       "(what the nightly housekeeping_job does to the warehouse)")
    housekeeping.add_argument("--keep-days", type=float, default=default_version_days(),
                              help="keep earlier versions this many days (default: "
                                   "$COMBAT_ANALYSIS_VERSION_RETENTION_DAYS, else %(default)s)")
    housekeeping.set_defaults(func=cmd_housekeeping)

    migrate = sub.add_parser("migrate", parents=[home_after],
                             help="move an earlier home's match snapshots into the warehouse lake (safe to run twice)")
    migrate.add_argument("--from", dest="source", metavar="FOLDER",
                         help="the earlier warehouse folder (default: <home>/warehouse)")
    migrate.set_defaults(func=cmd_migrate)
    return parser
