"""Ingest throughput and peak memory on a simulated match of a million lines or more.

    .venv/bin/python benchmarks/ingest.py [--scale 75] [--repeat 3]

The baseline is DuckDB's own raw scan of the same file, run in the same invocation on the same machine, so
the ratio means something anywhere. DuckDB's `read_json` rejects the real format (every line but the last
ends in a comma: with `ignore_errors` it returns NULL rows), so the cheapest full read DuckDB can do is
`read_csv` of the lines plus `json_extract_string` of every key, materialised in memory. Each measurement runs in
a fresh child process so that its peak RSS is its own.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path


def _raw_scan(path: str, queue) -> None:
    import duckdb

    from combat_analysis.ingest.derive import KEYS

    start = time.perf_counter()
    con = duckdb.connect()
    keys = ", ".join(f"'$.{k}'" for k in KEYS)
    con.execute(
        f"CREATE TABLE raw AS SELECT json_extract_string(rtrim(line, ','), [{keys}]) AS fields "
        "FROM read_csv(?, columns={'line': 'VARCHAR'}, header=false, delim=chr(31), quote='', escape='', "
        "auto_detect=false)", [path])
    rows = con.execute("SELECT count(*) FROM raw WHERE fields[1] IS NOT NULL").fetchone()[0]
    queue.put((time.perf_counter() - start, rows, _peak_rss_kb()))


def _peak_rss_kb() -> int:
    # VmHWM belongs to this process image; ru_maxrss would carry the parent's peak across exec.
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _ingest(path: str, root: str, queue) -> None:
    from combat_analysis.ingest.run import ingest_log

    start = time.perf_counter()
    result = ingest_log(Path(path), Path(root))
    queue.put((time.perf_counter() - start, result.lines_parsed, _peak_rss_kb()))


def _measure(target, *args) -> tuple[float, int, int]:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=target, args=(*args, queue))
    proc.start()
    out = queue.get()
    proc.join()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=75.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from combat_analysis.ingest.simulate import write_match

    work = Path(tempfile.mkdtemp(prefix="bench-ingest-"))
    try:
        log = work / "big.log"
        t0 = time.perf_counter()
        lines = write_match(log, args.seed, scale=args.scale)
        size_mb = log.stat().st_size / 1e6
        print(f"simulated {lines:,} lines ({size_mb:,.0f} MB) in {time.perf_counter() - t0:.1f}s")
        scans, ingests = [], []
        for i in range(args.repeat):
            scans.append(_measure(_raw_scan, str(log)))
            ingests.append(_measure(_ingest, str(log), str(work / f"wh{i}")))
        scan_s = statistics.median(s[0] for s in scans)
        ingest_s = statistics.median(s[0] for s in ingests)
        events = ingests[0][1]
        print(f"duckdb raw scan (lines+json):{scan_s:6.2f}s  {scans[0][1] / scan_s:12,.0f} rows/s  "
              f"peak {max(s[2] for s in scans) / 1024:,.0f} MB")
        print(f"combat-analysis ingest:       {ingest_s:6.2f}s  {events / ingest_s:12,.0f} events/s  "
              f"peak {max(s[2] for s in ingests) / 1024:,.0f} MB")
        print(f"ratio ingest / raw scan: {ingest_s / scan_s:.2f}x  (target <= 3x; peak memory target < 1024 MB)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
