"""Fixtures of the ingest tests: a folder of simulated logs, two matches in one file among them."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import NAMES, write_match
from tests.support.paths import SAMPLE_LOG


def concatenated(first: Path, second: Path, out: Path) -> Path:
    """One file holding two matches, in the real framing."""
    out.write_bytes(first.read_bytes().rstrip(b"\r\n") + b",\r\n" + second.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    return out


@pytest.fixture(scope="module")
def season_logs(tmp_path_factory) -> list[Path]:
    """Varied logs: id styles, rosters, lengths, densities, framing, a .gz archive and a two-match file."""
    work = tmp_path_factory.mktemp("many")
    logs = []
    for i, (seed, style) in enumerate([(301, "numeric"), (302, "odd"), (303, "text"), (304, "json-number"),
                                       (305, "odd"), (306, "numeric"), (307, "text")]):
        names = None if i % 2 else [f"{NAMES[(seed + k) % len(NAMES)]}{k}" for k in range(10)]
        log = work / f"m{seed}.log"
        write_match(log, seed, minutes=3 + i, scale=0.5 + (i % 3) * 0.5, id_style=style, names=names,
                    bom=i % 3 != 0, crlf=i % 2 == 0)
        logs.append(log)
    packed = work / "m308.log.gz"
    write_match(work / "m308.log", 308, minutes=5)
    packed.write_bytes(gzip.compress((work / "m308.log").read_bytes()))
    (work / "m308.log").unlink()
    logs.append(packed)
    write_match(work / "x.log", 309, minutes=4)
    write_match(work / "y.log", 310, minutes=4)
    logs.append(concatenated(work / "x.log", work / "y.log", work / "two.log"))
    return logs


@pytest.fixture()
def sample_lake(tmp_path) -> Path:
    """A warehouse holding the sample match, ingested whole."""
    lake = tmp_path / "wh"
    assert ingest_log(SAMPLE_LOG, lake).status == "ingested"
    return lake
