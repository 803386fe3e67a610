"""Planning speed over the golden questions: median and p95 of plan_question and of compile_plan.

usage: python benchmarks/plan.py [--rounds 5]

The sample match is ingested into a temporary warehouse so the vocabulary is the real one. plan_question
compiles its plan once to check it; compile_plan keeps the last plans it compiled, so the query analyst does
not compile the same plan twice. Both caches are emptied before every measurement, so each figure is a cold
plan or a cold compile. This is a measurement, not a test: it prints figures and never fails on them.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import yaml

from combat_analysis.ingest.run import ingest_log
from combat_analysis.planner import Vocabulary, compile_plan, plan_question
from combat_analysis.planner.compile import forget_compiled
from combat_analysis.warehouse.store import open_warehouse

ROOT = Path(__file__).resolve().parents[1]

SAMPLE_LOG = ROOT.parent / "shared" / "data" / "sample_match.log"
GOLDEN = ROOT / "tests" / "support" / "golden_questions.yaml"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rows = [r for r in yaml.safe_load(GOLDEN.read_text(encoding="utf-8")) if r.get("vocab", "sample") == "sample"]
    with tempfile.TemporaryDirectory() as tmp:
        result = ingest_log(SAMPLE_LOG, Path(tmp))
        con = open_warehouse(Path(tmp), result.match_id)
        vocab = Vocabulary.from_connection(con)
        con.close()
    plan_question("warm up", vocab)
    plan_ms, compile_ms = [], []
    for _ in range(args.rounds):
        for row in rows:
            forget_compiled()
            start = time.perf_counter()
            plan = plan_question(row["q"], vocab, row.get("previous", ()))
            middle = time.perf_counter()
            forget_compiled()
            again = time.perf_counter()
            compile_plan(plan, vocab)
            end = time.perf_counter()
            plan_ms.append((middle - start) * 1000)
            compile_ms.append((end - again) * 1000)
    print(f"{len(rows)} golden questions x {args.rounds} rounds")
    for name, values in (("plan_question", plan_ms), ("compile_plan", compile_ms)):
        print(f"{name:14s} median {statistics.median(values):6.2f} ms   p95 {percentile(values, 0.95):6.2f} ms   "
              f"max {max(values):6.2f} ms")


if __name__ == "__main__":
    main()
