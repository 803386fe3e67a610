"""One answer in under a second: `combat-analysis ask --match` and `answer_question` against the same SQL in bare DuckDB.

usage: python benchmarks/answer.py [--rounds 3] [--cli-questions 10] [--cli-rounds 2] [--no-write]

The sample match is ingested into a temporary home. Every question of the dev set
(`../shared/eval/dev_questions.jsonl`) is answered in this process with `answer_question` (charts, reports and
follow-ups as by default, after one warm-up question); a spread of them is also asked from the command line,
each in its own process (`combat-analysis ask --match ID QUESTION`, charts included; with Python's bytecode
cache, as installed, after one warm-up run). In the same run, the very SQL each answer ran (its validated
statements and bound parameters, read from the package) runs in bare DuckDB over the same Parquet files (the
lake's data files, read with `read_parquet`, no DuckLake): in this process on a plain connection with the same
views, and in a fresh `python -c 'import duckdb ...'` process per question, against which the command line is
compared.

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
CLI_TARGET_S, IN_PROCESS_TARGET_S = 1.0, 0.3

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
        timed_process([*cli, chosen[0]])  # warm-up: writes the package's bytecode cache, as any first run does
        cli_s, cli_here_s, bare_process_s = [], [], []
        for _ in range(args.cli_rounds):
            for question in chosen:
                cli_s.append(timed_process([*cli, question]))
                cli_here_s.append(timed_process([*cli, question], env={"COMBAT_ANALYSIS_CHART_WORKER": "0"}))
                spec = json.dumps({"views": view_sqls, "statements": work[question]}, default=str)
                bare_process_s.append(timed_process([sys.executable, "-c", BARE], stdin=spec))
        imports_s, biggest = import_profile(cli[1:], chosen[0])
        served_s = []
        from combat_analysis.app.server import Serving

        with Serving(home, PROCESS_ENV):  # the same questions handed to `combat-analysis serve`
            timed_process([*cli, chosen[0]])
            for _ in range(args.cli_rounds):
                for question in chosen:
                    served_s.append(timed_process([*cli, question]))

    out.update({
        "answer_p50_s": statistics.median(answer_s), "answer_p90_s": percentile(answer_s, 0.9),
        "answer_n": len(answer_s),
        "bare_p50_s": statistics.median(bare_s), "bare_sql_p50_s": statistics.median(bare_sql_s),
        "cli_p50_s": statistics.median(cli_s), "cli_p90_s": percentile(cli_s, 0.9), "cli_n": len(cli_s),
        "cli_questions": len(chosen), "cli_here_p50_s": statistics.median(cli_here_s),
        "cli_served_p50_s": statistics.median(served_s),
        "bare_process_p50_s": statistics.median(bare_process_s),
        "stage_ms": {stage: statistics.median(v) for stage, v in stage_ms.items()},
        "stage_total_ms": {stage: sum(v) for stage, v in stage_ms.items()},
        "followups_mean": statistics.mean(followups),
        "imports_s": imports_s, "biggest_imports": biggest,
        "load_after": os.getloadavg(),
        "finished": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    })
    return out


def report(r: dict) -> list[str]:
    total = sum(r["stage_total_ms"].values()) or 1.0
    stages = ", ".join(f"{stage} {ms:.0f} ms ({r['stage_total_ms'][stage] / total:.0%})"
                       for stage, ms in r["stage_ms"].items())
    imports = ", ".join(f"{name} {s:.2f} s" for name, s in r["biggest_imports"])
    load = " / ".join(f"{x:.2f}" for x in r["load_before"]), " / ".join(f"{x:.2f}" for x in r["load_after"])
    return [
        f"| `combat-analysis ask --match ID QUESTION` (charts, report, follow-ups), p50 over {r['cli_n']} runs of "
        f"{r['cli_questions']} dev questions | at most {CLI_TARGET_S:.1f} s | {r['cli_p50_s']:.3f} s (p90 "
        f"{r['cli_p90_s']:.3f} s); the same SQL in a bare DuckDB process {r['bare_process_p50_s']:.3f} s: "
        f"**{r['cli_p50_s'] / r['bare_process_p50_s']:.1f}x** | {verdict(r['cli_p50_s'] <= CLI_TARGET_S)} |",
        f"| in-process `answer_question` (charts, report, follow-ups), p50 over {r['answer_n']} answers of the "
        f"{r['questions']} dev questions | at most {IN_PROCESS_TARGET_S:.1f} s | {r['answer_p50_s']:.3f} s (p90 "
        f"{r['answer_p90_s']:.3f} s); the same SQL on a bare connection with the same views "
        f"{r['bare_p50_s'] * 1000:.1f} ms ({r['bare_sql_p50_s'] * 1000:.1f} ms of it the statements): "
        f"**{r['answer_p50_s'] / r['bare_p50_s']:.1f}x** | {verdict(r['answer_p50_s'] <= IN_PROCESS_TARGET_S)} |",
        "",
        f"- Where an in-process answer's time goes (median per stage; share of all stage time): {stages}. "
        f"Follow-ups answered per question: {r['followups_mean']:.2f} on average (inside the composer).",
        f"- The command line's imports: {r['imports_s']:.2f} s in all (`python -X importtime`, one question); "
        f"libraries where first imported, with what they import: {imports or 'none of note'}. Matplotlib is "
        f"not among them: the chart worker process (`combat_analysis/charts/jobs.py`) imports it on the other "
        f"core meanwhile. With the charts drawn in the answering process instead "
        f"(`COMBAT_ANALYSIS_CHART_WORKER=0`), the same questions take {r['cli_here_p50_s']:.3f} s p50.",
        f"- With `combat-analysis serve` running, the same command lines are answered by the resident process "
        f"(`combat_analysis/app/server.py`): {r['cli_served_p50_s']:.3f} s p50, "
        f"{r['cli_served_p50_s'] / r['bare_process_p50_s']:.1f}x the bare DuckDB process.",
        f"- The first answer in a fresh process (lazy imports, first chart): {r['first_answer_s']:.3f} s.",
        f"- {r['cpus']} CPUs; load average (1 / 5 / 15 min) {load[0]} before and {load[1]} after, on a machine "
        f"shared with other sessions' work, so absolute times are pessimistic; each ratio is against a baseline "
        f"timed in the same run.",
    ]


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def write_section(lines: list[str], r: dict, args) -> None:
    import duckdb

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    command = (f"python benchmarks/answer.py --rounds {args.rounds} --cli-questions {args.cli_questions} "
               f"--cli-rounds {args.cli_rounds}")
    section = "\n".join([
        BEGIN,
        "## One answer in under a second",
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
    parser.add_argument("--cli-questions", type=int, default=10, help="dev questions asked from the command line")
    parser.add_argument("--cli-rounds", type=int, default=2)
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
