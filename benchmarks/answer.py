"""One answer as fast as a person reads it: `combat-analysis ask` from the command line and through Dagster, each
against a floor timed in the same run (issue 24).

usage: python benchmarks/answer.py [--rounds 3] [--cli-questions 6] [--cli-rounds 2] [--dagster-rounds 3]
                                   [--file-rounds 4] [--folder 10] [--no-dagster] [--no-write]

The sample match is ingested into a temporary home. Every question of the dev set
(`../shared/eval/dev_questions.jsonl`) is answered in this process with `answer_question` (charts, reports and
follow-ups as by default, after one warm-up question); a spread of them is also asked from the command line,
each in its own process (`combat-analysis ask --match ID QUESTION`, charts included; with Python's bytecode
cache, as installed, after one warm-up run), cold and with `combat-analysis serve` running. Each command line
is timed twice over: to its first line on stdout (the direct answer, printed before the charts and the report)
and to its exit (the report written). In the same run, the very SQL each answer ran (its validated statements
and bound parameters, read from the package) runs in bare DuckDB over the same Parquet files (the lake's data
files, read with `read_parquet`, no DuckLake): in this process on a plain connection with the same views, and
in a fresh `python -c 'import duckdb ...'` process per question: the floor, printed beside its parts (Python's
start and `import duckdb`, each timed in a process of its own).

Through Dagster: `ask --dagster` (its wall time, and the run's own: from the run's creation to the
`answer_report` materialization, read from the instance), and a question file dropped into a data home that a
real `dagster dev` (webserver and daemon, the default executor setting) watches, to its stored answer. And the
folder ingest against DuckDB's scan of the same files (`benchmarks/season.py`'s row, at `--folder` logs).

Also printed: where the time goes (each stage's share, from the packages' processing history, and the
command line's imports from `python -X importtime`). Writes its section of benchmarks/RESULTS.md (between its
own markers; the rest of the file is kept). A measurement, not a test: it never fails on a figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SHARED = ROOT.parent / "shared"
SAMPLE_LOG = SHARED / "data" / "sample_match.log"
DEV_QUESTIONS = SHARED / "eval" / "dev_questions.jsonl"
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
BEGIN, END = "<!-- benchmarks/answer.py: begin -->", "<!-- benchmarks/answer.py: end -->"
IN_PROCESS_TARGET_S = 0.3
# issue 24's targets: ratios to the floor (a bare process running the same SQL), and seconds
COLD_RATIO, SERVED_RATIO, REPORT_AFTER_S, DAGSTER_RUN_S, FILE_S, FOLDER_RATIO = 4.0, 2.0, 1.0, 2.5, 5.0, 2.0

# A bare DuckDB process: import duckdb, the same views over the same files, the same statements, every row.
BARE = """
import json, sys, duckdb
spec = json.loads(sys.stdin.read())
con = duckdb.connect()
for table, sql in spec["views"].items():
    con.execute(f"CREATE VIEW {table} AS {sql}")
for sql, params in spec["statements"]:
    con.execute(sql, params or None).fetchall()
"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def load_questions(path: Path) -> list[str]:
    return [json.loads(line)["question"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def statements(pkg) -> list[tuple[str, dict]]:
    """The SQL an answer ran, in order, with the parameters it was bound to."""
    results = pkg.data.query_results if pkg.data else ()
    return [(r.sql, dict(r.bound_parameters)) for r in results if r.status == "ok"]


def views(root: Path, match_id: str) -> dict[str, str]:
    """The answer's tables as plain DuckDB reads them: `read_parquet` of the Parquet files the lake's catalog
    names, scoped to the match (no DuckLake, no catalog)."""
    from lake_files import hand_views

    return hand_views(root, match_id)


def bare_in_process(view_sqls: dict[str, str], work: list[tuple[str, dict]]) -> tuple[float, float]:
    """(seconds for a plain connection, its views and the statements; seconds for the statements alone)."""
    import duckdb

    start = time.perf_counter()
    con = duckdb.connect()
    for table, sql in view_sqls.items():
        con.execute(f"CREATE VIEW {table} AS {sql}")
    middle = time.perf_counter()
    for sql, params in work:
        con.execute(sql, params or None).fetchall()
    end = time.perf_counter()
    con.close()
    return end - start, end - middle


# Processes run as on a user's machine: with Python's bytecode cache (these sessions set PYTHONDONTWRITEBYTECODE,
# which makes every command line compile the whole package from source again, about a second more).
# They import this checkout's code, whichever checkout the installed command points to, and use the embedded lake
# of the temporary home, whatever catalog or data path this shell configures.
UNSET = ("PYTHONDONTWRITEBYTECODE", "COMBAT_ANALYSIS_CATALOG", "COMBAT_ANALYSIS_DATA_PATH")
PROCESS_ENV = {**{k: v for k, v in os.environ.items() if k not in UNSET},
               "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}


def timed_process(command: list[str], stdin: str | None = None, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    run = subprocess.run(command, input=stdin, capture_output=True, text=True, env={**PROCESS_ENV, **(env or {})})
    elapsed = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"{command[:3]}... failed ({run.returncode}): {run.stderr[-2000:]}")
    return elapsed


LIBRARIES = ("matplotlib", "PIL", "pandas", "numpy", "duckdb", "sqlglot", "pydantic", "rich", "jinja2", "yaml")


def import_profile(cli: list[str], question: str) -> tuple[float, list[tuple[str, float]]]:
    """The command line's imports: their total, and the big libraries' cumulative times where first imported
    (a library's own imports included, so numpy is inside pandas or matplotlib when they pull it in)."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "combat_analysis.app.main", *cli, question],
                         capture_output=True, text=True, env=PROCESS_ENV)
    total, biggest = 0.0, {}
    for line in run.stderr.splitlines():
        found = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)", line)
        if not found:
            continue
        cumulative, depth, name = int(found.group(1)) / 1e6, len(found.group(2)), found.group(3)
        if depth == 1:
            total += cumulative
        if "." not in name and name not in biggest and name in LIBRARIES:  # where it was first imported
            biggest[name] = cumulative
    return total, sorted(biggest.items(), key=lambda kv: -kv[1])[:6]


def timed_answer(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """A command line's (seconds to its first line on stdout: the direct answer; seconds to its exit), the report
    it names checked to exist at the exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**PROCESS_ENV, **(env or {})})
    first = proc.stdout.readline()
    first_s = time.perf_counter() - start
    rest = proc.stdout.read()
    stderr = proc.stderr.read()
    code = proc.wait()
    exit_s = time.perf_counter() - start
    if code not in (0, 1) or not first.strip():
        raise SystemExit(f"{command[:3]}... failed ({code}): {stderr[-2000:]}")
    report = [line.removeprefix("report: ") for line in rest.splitlines() if line.startswith("report: ")]
    if report and not Path(report[-1]).is_file():
        raise SystemExit(f"{report[-1]} does not exist when `ask` has exited")
    return first_s, exit_s


def floor_parts(rounds: int) -> dict[str, float]:
    """Python's start and `import duckdb`, each in a fresh process (p50)."""
    start = [timed_process([sys.executable, "-c", "pass"]) for _ in range(rounds)]
    duck = [timed_process([sys.executable, "-c", "import duckdb"]) for _ in range(rounds)]
    return {"python_s": statistics.median(start), "import_duckdb_s": statistics.median(duck)}


def dagster_env(dagster_home: Path) -> dict[str, str]:
    from shutil import copyfile

    dagster_home.mkdir(parents=True, exist_ok=True)
    copyfile(ROOT / "deploy" / "dagster.local.yaml", dagster_home / "dagster.yaml")
    env = {k: v for k, v in PROCESS_ENV.items() if k != "COMBAT_ANALYSIS_EXECUTOR"}  # the default setting
    return {**env, "DAGSTER_HOME": str(dagster_home), "MPLBACKEND": "Agg", "COMBAT_ANALYSIS_RESIDENT": "0"}


def ask_through_dagster(cli: list[str], questions: list[str], rounds: int, dagster_home: Path) -> dict:
    """`ask --dagster` (the command's wall time) and its run (creation to the answer_report materialization)."""
    import dagster as dg

    env = dagster_env(dagster_home)
    timed_process([*cli, "--dagster", questions[0]], env=env)  # warm-up: bytecode, the instance's storage
    wall, in_run = [], []
    for _ in range(rounds):
        for question in questions:
            wall.append(timed_process([*cli, "--dagster", question], env=env))
            with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
                record = instance.get_run_records(dg.RunsFilter(job_name="answer_question_job"), limit=1)[0]
                done = instance.fetch_materializations(dg.AssetKey("answer_report"), limit=1).records[0]
                in_run.append(done.timestamp - record.create_timestamp.timestamp())
    return {"dagster_wall_s": statistics.median(wall), "dagster_run_s": statistics.median(in_run),
            "dagster_run_max_s": max(in_run), "dagster_n": len(wall)}


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serving(port: int, server: subprocess.Popen, timeout_s: float) -> None:
    """Wait until the webserver answers GraphQL (the daemon starts beside it; the first file warms it up)."""
    import urllib.request

    deadline = time.monotonic() + timeout_s
    body = json.dumps({"query": "{ version }"}).encode()
    while True:
        if server.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("`dagster dev` did not serve the project")
        try:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/graphql", body,
                                             {"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as response:
                if json.loads(response.read()).get("data"):
                    return
        except OSError:
            pass
        time.sleep(1.0)


def answered_since(home: Path, moment: float) -> bool:
    """Whether an answer was stored (a question partition's pointer to its newest answer written) since `moment`
    (time.time()): a question asked before gets a new answer in the same partition."""
    return any(p.stat().st_mtime >= moment for p in (home / "packages" / "answer_report").glob("*/latest.json"))


def dropped_questions(home: Path, match_id: str, questions: list[str], rounds: int, work: Path) -> dict:
    """A real `dagster dev` on the home (webserver, daemon, its sensors; the default executor setting): each
    question file dropped at a random moment of the sensor's loop, timed to its stored answer."""
    import random
    import signal

    env = {**dagster_env(work / "dagster-home"), "COMBAT_ANALYSIS_HOME": str(home)}
    port = free_port()
    with open(work / "dagster_dev.log", "w") as log:
        server = subprocess.Popen([str(Path(sys.executable).with_name("dagster")), "dev", "-w",
                                   str(ROOT / "workspace.yaml"), "-h", "127.0.0.1", "-p", str(port)],
                                  cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        serving(port, server, timeout_s=600)
        folder = home / "questions"
        folder.mkdir(parents=True, exist_ok=True)
        waits = []
        for i in range(rounds + 1):  # the first one warms the code server and the daemon up, and is not counted
            time.sleep(random.uniform(0.0, 5.0))
            request = {"question": questions[i % len(questions)], "match_id": match_id}
            dropped_at = time.time()
            (folder / f"bench-{i}.json").write_text(json.dumps(request), encoding="utf-8")
            dropped = time.perf_counter()
            deadline = dropped + 600
            while not answered_since(home, dropped_at):
                if time.perf_counter() > deadline:
                    raise SystemExit(f"question file bench-{i}.json was not answered in 600 s (see {log.name})")
                time.sleep(0.05)
            if i:
                waits.append(time.perf_counter() - dropped)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    return {"file_p50_s": statistics.median(waits), "file_max_s": max(waits), "file_n": len(waits)}


def folder_ingest(count: int, work: Path) -> dict:
    """benchmarks/season.py's row: the folder ingest of `count` logs against DuckDB's scan of the same files."""
    from season import DEFAULT_CACHE, ensure_logs, measure_folder

    paths, _ = ensure_logs(DEFAULT_CACHE, count)
    return measure_folder(paths, work)


def run(args) -> dict:
    from combat_analysis.answer.pipeline import answer_question
    from combat_analysis.ingest.run import ingest_log

    questions = load_questions(Path(args.questions))
    out: dict = {"load_before": os.getloadavg(), "cpus": os.cpu_count(), "questions": len(questions)}
    with tempfile.TemporaryDirectory(prefix="answer-bench-") as tmp:
        home = Path(tmp)
        root = home / "warehouse"
        match_id = ingest_log(SAMPLE_LOG, root).match_id
        view_sqls = views(root, match_id)

        def ask(question: str):
            return answer_question(question, warehouse_root=root, match_id=match_id, artifacts_dir=home / "artifacts",
                                   handles_dir=home / "handles")

        start = time.perf_counter()
        ask("Who healed the most?")  # warm-up: the first answer of a process pays for lazy imports
        out["first_answer_s"] = time.perf_counter() - start

        answer_s: list[float] = []
        stage_ms: dict[str, list[float]] = defaultdict(list)
        work: dict[str, list[tuple[str, dict]]] = {}
        followups = []
        for _ in range(args.rounds):
            for question in questions:
                start = time.perf_counter()
                pkg = ask(question)
                answer_s.append(time.perf_counter() - start)
                for step in pkg.metadata.processing_history:
                    stage_ms[step.stage].append(step.duration_ms)
                work[question] = statements(pkg)
                followups.append(len(pkg.response.followup_answers) if pkg.response else 0)

        bare_s, bare_sql_s = [], []
        for _ in range(args.rounds):
            for question in questions:
                whole, sql_only = bare_in_process(view_sqls, work[question])
                bare_s.append(whole)
                bare_sql_s.append(sql_only)

        cli = [str(Path(sys.executable).with_name("combat-analysis")), "--home", str(home), "ask", "--match", match_id]
        step = max(1, len(questions) // args.cli_questions)
        chosen = questions[::step][: args.cli_questions]
        timed_answer([*cli, chosen[0]])  # warm-up: writes the package's bytecode cache, as any first run does
        out.update(floor_parts(args.cli_rounds * len(chosen)))
        cold, bare_process_s, served = [], [], []
        for _ in range(args.cli_rounds):
            for question in chosen:
                cold.append(timed_answer([*cli, question]))
                spec = json.dumps({"views": view_sqls, "statements": work[question]}, default=str)
                bare_process_s.append(timed_process([sys.executable, "-c", BARE], stdin=spec))
        imports_s, biggest = import_profile(cli[1:], chosen[0])
        from combat_analysis.app.server import Serving

        with Serving(home, PROCESS_ENV):  # the same questions handed to `combat-analysis serve`
            timed_answer([*cli, chosen[0]])
            for _ in range(args.cli_rounds):
                for question in chosen:
                    served.append(timed_answer([*cli, question]))
        if not args.no_dagster:
            out.update(ask_through_dagster(cli, chosen[:2], args.dagster_rounds, home / "dagster-ask"))
            out.update(dropped_questions(home, match_id, chosen, args.file_rounds, home))
        if args.folder:
            out["folder"] = folder_ingest(args.folder, home / "folder")

    out.update({
        "answer_p50_s": statistics.median(answer_s), "answer_p90_s": percentile(answer_s, 0.9),
        "answer_n": len(answer_s),
        "bare_p50_s": statistics.median(bare_s), "bare_sql_p50_s": statistics.median(bare_sql_s),
        "cold_first_s": statistics.median(f for f, _ in cold), "cold_exit_s": statistics.median(e for _, e in cold),
        "cold_after_p50_s": statistics.median(e - f for f, e in cold), "cold_after_max_s": max(e - f for f, e in cold),
        "cli_n": len(cold), "cli_questions": len(chosen),
        "served_first_s": statistics.median(f for f, _ in served),
        "served_exit_s": statistics.median(e for _, e in served),
        "bare_process_p50_s": statistics.median(bare_process_s),
        "stage_ms": {stage: statistics.median(v) for stage, v in stage_ms.items()},
        "stage_total_ms": {stage: sum(v) for stage, v in stage_ms.items()},
        "followups_mean": statistics.mean(followups),
        "imports_s": imports_s, "biggest_imports": biggest,
        "load_after": os.getloadavg(),
        "finished": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    })
    return out


def target_rows(r: dict) -> list[str]:
    """issue 24's table: each figure beside its floor, timed in this run."""
    floor = r["bare_process_p50_s"]
    floor_said = (f"floor {floor:.3f} s (Python's start {r['python_s']:.3f} s, `import duckdb` "
                  f"{r['import_duckdb_s']:.3f} s, each in a process of its own; the rest the same SQL)")
    n = f"p50 over {r['cli_n']} runs of {r['cli_questions']} dev questions"
    rows = [
        f"| CLI, cold (`ask --match ID QUESTION`): the direct answer printed | at most {COLD_RATIO:g}x the floor | "
        f"{r['cold_first_s']:.3f} s, {n}; {floor_said}: **{r['cold_first_s'] / floor:.1f}x** | "
        f"{verdict(r['cold_first_s'] <= COLD_RATIO * floor)} |",
        f"| the same: its report files, after the answer (written when `ask` exits) | at most {REPORT_AFTER_S:g} s | "
        f"{r['cold_after_p50_s']:.3f} s p50, {r['cold_after_max_s']:.3f} s at most (exit {r['cold_exit_s']:.3f} s "
        f"p50) | {verdict(r['cold_after_p50_s'] <= REPORT_AFTER_S)} |",
        f"| CLI with `combat-analysis serve` running: the direct answer printed | at most {SERVED_RATIO:g}x the "
        f"floor | {r['served_first_s']:.3f} s, {n} (exit, report written, {r['served_exit_s']:.3f} s); floor "
        f"{floor:.3f} s: **{r['served_first_s'] / floor:.1f}x** | {verdict(r['served_first_s'] <= SERVED_RATIO * floor)} |",
    ]
    if "dagster_run_s" in r:
        rows += [
            f"| `ask --dagster`: the run's launch to its materialized `answer_report` | at most {DAGSTER_RUN_S:g} s | "
            f"{r['dagster_run_s']:.3f} s p50 over {r['dagster_n']} runs ({r['dagster_run_max_s']:.3f} s at most); the "
            f"whole command, Python and Dagster's start included, {r['dagster_wall_s']:.3f} s; floor {floor:.3f} s | "
            f"{verdict(r['dagster_run_s'] <= DAGSTER_RUN_S)} |",
            f"| a question file dropped, to its stored answer (sensor interval, run queue, run worker included; real "
            f"`dagster dev`) | at most {FILE_S:g} s | {r['file_p50_s']:.3f} s p50 over {r['file_n']} files "
            f"({r['file_max_s']:.3f} s at most); floor {floor:.3f} s | {verdict(r['file_p50_s'] <= FILE_S)} |",
        ]
    if "folder" in r:
        f = r["folder"]
        scan = sum(f["scan_s"]) / 2
        rows.append(
            f"| folder ingest of {f['files']} logs against DuckDB's scan of the same files | at most "
            f"{FOLDER_RATIO:g}x | {f['ingest_s']:.1f} s against {f['scan_s'][0]:.1f} s / {f['scan_s'][1]:.1f} s "
            f"(before / after): **{f['ingest_s'] / scan:.2f}x** | {verdict(f['ingest_s'] / scan <= FOLDER_RATIO)} |")
    return rows


def report(r: dict) -> list[str]:
    total = sum(r["stage_total_ms"].values()) or 1.0
    stages = ", ".join(f"{stage} {ms:.0f} ms ({r['stage_total_ms'][stage] / total:.0%})"
                       for stage, ms in r["stage_ms"].items())
    imports = ", ".join(f"{name} {s:.2f} s" for name, s in r["biggest_imports"])
    load = " / ".join(f"{x:.2f}" for x in r["load_before"]), " / ".join(f"{x:.2f}" for x in r["load_after"])
    return [
        *target_rows(r),
        f"| in-process `answer_question` (charts, report, follow-ups), p50 over {r['answer_n']} answers of the "
        f"{r['questions']} dev questions | at most {IN_PROCESS_TARGET_S:.1f} s | {r['answer_p50_s']:.3f} s (p90 "
        f"{r['answer_p90_s']:.3f} s); the same SQL on a bare connection with the same views "
        f"{r['bare_p50_s'] * 1000:.1f} ms ({r['bare_sql_p50_s'] * 1000:.1f} ms of it the statements): "
        f"**{r['answer_p50_s'] / r['bare_p50_s']:.1f}x** | {verdict(r['answer_p50_s'] <= IN_PROCESS_TARGET_S)} |",
        "",
        f"- Where an in-process answer's time goes (median per stage; share of all stage time): {stages}. "
        f"Follow-ups answered per question: {r['followups_mean']:.2f} on average (inside the composer, after the "
        "command line has printed the answer).",
        f"- The command line's imports: {r['imports_s']:.2f} s in all (`python -X importtime`, one question); "
        f"libraries where first imported, with what they import: {imports or 'none of note'}. Matplotlib is "
        f"not among them: the chart worker process (`combat_analysis/charts/jobs.py`) imports it on the other "
        f"core meanwhile.",
        f"- The first answer in a fresh process (lazy imports, first chart): {r['first_answer_s']:.3f} s.",
        f"- {r['cpus']} CPUs; load average (1 / 5 / 15 min) {load[0]} before and {load[1]} after, on a machine "
        f"shared with other sessions' work, so absolute times are pessimistic; each ratio is against a floor "
        f"timed in the same run.",
    ]


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def write_section(lines: list[str], r: dict, args) -> None:
    import duckdb

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    command = (f"python benchmarks/answer.py --rounds {args.rounds} --cli-questions {args.cli_questions} "
               f"--cli-rounds {args.cli_rounds} --dagster-rounds {args.dagster_rounds} --file-rounds "
               f"{args.file_rounds} --folder {args.folder}" + (" --no-dagster" if args.no_dagster else ""))
    section = "\n".join([
        BEGIN,
        "## One answer as fast as a person reads it",
        "",
        f"Written by `{command}` (`make bench` runs it) on {r['finished']}, commit `{commit}`, DuckDB "
        f"{duckdb.__version__}, on the sample match.",
        "",
        "| What | Target | Measured | |",
        "|---|---|---|---|",
        *lines,
        END,
    ])
    old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + section + rest.split(END, 1)[1]
    else:
        new = (old.rstrip("\n") + "\n\n" if old.strip() else "") + section + "\n"
    RESULTS.write_text(new, encoding="utf-8")
    print(f"wrote its section of {RESULTS}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="in-process rounds over the dev questions")
    parser.add_argument("--cli-questions", type=int, default=6, help="dev questions asked from the command line")
    parser.add_argument("--cli-rounds", type=int, default=2)
    parser.add_argument("--dagster-rounds", type=int, default=3, help="rounds of two questions asked with --dagster")
    parser.add_argument("--file-rounds", type=int, default=4, help="question files dropped for `dagster dev`")
    parser.add_argument("--folder", type=int, default=10, help="logs in the folder ingest against DuckDB's scan")
    parser.add_argument("--no-dagster", action="store_true", help="leave out the two rows through Dagster")
    parser.add_argument("--questions", default=str(DEV_QUESTIONS))
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = parser.parse_args()
    r = run(args)
    lines = report(r)
    print("\n".join(lines))
    if not args.no_write:
        write_section(lines, r, args)


if __name__ == "__main__":
    main()
