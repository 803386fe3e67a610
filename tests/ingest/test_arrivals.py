"""What a user drops in can never cost a good match: a cut copy is refused (naming both versions) unless
`replace=True`, another game's file and a one-team fragment are refused with nothing committed, and the same
log compressed or plain is the same content. Figures checked against the sample's truth file."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from combat_analysis.ingest.logfile import not_a_combat_log
from combat_analysis.ingest.run import DowngradeRefused, NotAMatchError, ingest_log
from combat_analysis.warehouse.store import history, match_ids, open_warehouse, restore_match
from tests.support.paths import SAMPLE_LOG, SAMPLE_MATCH_ID

TRUTH = json.loads(SAMPLE_LOG.with_name("sample_match.truth.json").read_text(encoding="utf-8"))


def stored_figures(lake: Path) -> tuple[int, int, int | None]:
    """Lines, length and winner of the sample as the warehouse holds it."""
    con = open_warehouse(lake, SAMPLE_MATCH_ID)
    lines, duration, winner = con.execute("SELECT lines_total, duration_s, winner_team FROM matches").fetchone()
    return lines, duration, winner


def cut(log: Path, out: Path, share: float) -> Path:
    """The first `share` of a log's bytes: a half-finished upload."""
    data = log.read_bytes()
    out.write_bytes(data[: int(len(data) * share)])
    return out


@pytest.mark.parametrize("share", [0.1, 0.45, 0.97])
def test_a_cut_copy_never_replaces_the_complete_match(tmp_path, sample_lake, share):
    lake = sample_lake
    complete = stored_figures(lake)
    assert complete == (26_671, TRUTH["duration_seconds"], 2)
    with pytest.raises(DowngradeRefused) as refused:
        ingest_log(cut(SAMPLE_LOG, tmp_path / "cut.log", share), lake)
    said = str(refused.value)
    assert "cut.log" in said and "26,671 lines, 31:59, with an end" in said and "--replace" in said
    assert "without an end" in said  # every cut here ends before the Titan falls
    assert stored_figures(lake) == complete and [v.action for v in history(lake, SAMPLE_MATCH_ID)] == ["ingested"]


def test_replace_takes_a_cut_copy_and_the_complete_one_stays_restorable(tmp_path, sample_lake):
    lake = sample_lake
    result = ingest_log(cut(SAMPLE_LOG, tmp_path / "cut.log", 0.5), lake, replace=True)
    assert result.status == "replaced" and result.lines_total < 26_671
    assert stored_figures(lake)[2] is None  # the cut copy has no end: no winner
    restore_match(lake, SAMPLE_MATCH_ID)
    assert stored_figures(lake) == (26_671, TRUTH["duration_seconds"], 2)


def test_the_same_log_compressed_or_plain_is_unchanged(tmp_path, sample_lake):
    lake = sample_lake
    packed = tmp_path / "sample_match.log.gz"
    packed.write_bytes(gzip.compress(SAMPLE_LOG.read_bytes()))
    assert ingest_log(packed, lake).status == "unchanged"
    assert len(history(lake, SAMPLE_MATCH_ID)) == 1


def other_game(path: Path, events: int = 100) -> Path:
    lines = [json.dumps({"eventType": "start", "matchID": "VAL-778", "logMode": "JSON"})]
    lines += [json.dumps({"eventType": "RoundMsg", "type": "Spike", "time": "2025.03.02-19.13.22",
                          "value1": str(i)}) for i in range(events)]
    path.write_text(",\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def one_team(path: Path) -> Path:
    """The sample with every team-2 role assignment dropped: players on one team only."""
    kept = [line for line in SAMPLE_LOG.read_bytes().split(b"\r\n")
            if not (b'"RoleAssigned"' in line and b'"value1": "2"' in line)]
    path.write_bytes(b"\r\n".join(kept))
    return path


@pytest.mark.parametrize("make, says", [(other_game, "has no players"), (one_team, "on 1 team")])
def test_a_file_that_is_no_smite_match_is_refused_and_nothing_is_committed(tmp_path, make, says):
    lake = tmp_path / "wh"
    with pytest.raises(NotAMatchError, match=says):
        ingest_log(make(tmp_path / "odd.log"), lake)
    assert match_ids(lake) == []


def test_what_is_no_combat_log_is_told_by_its_first_lines(tmp_path):
    (tmp_path / "notes.txt").write_text("bring snacks\n")
    (tmp_path / "truth.json").write_text(json.dumps(TRUTH, indent=1))
    (tmp_path / "bom.log").write_bytes(b"\xef\xbb\xbf")
    assert not_a_combat_log(tmp_path / "notes.txt").startswith("not a combat log")
    assert not_a_combat_log(tmp_path / "truth.json").startswith("not a combat log")
    assert not_a_combat_log(tmp_path / "bom.log") == "empty"
    assert not_a_combat_log(SAMPLE_LOG) is None
    assert not_a_combat_log(other_game(tmp_path / "other.log")) is None  # JSON events: the ingest decides
