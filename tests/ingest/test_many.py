"""Many logs in one ingest run (`ingest_logs`, `combat-analysis ingest FOLDER`): small files share DuckDB batches,
yet every match lands exactly as truth.py computes it, every file succeeds or fails alone with its own one-line
error, files that share a match land as if ingested one after another, the "unchanged" check reads only the
file's own matches, and a folder ingest killed mid-way leaves whole matches only."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from combat_analysis.ingest.run import IngestError, MalformedLogError, ingest_log, ingest_logs
from combat_analysis.ingest.simulate import simulated_match_id, write_match
from combat_analysis.warehouse.store import (
    committed_manifest,
    match_ids,
    open_warehouse,
    reader,
    remove_match,
)
from combat_analysis.warehouse.store import current_snapshot as lake_snapshot
from tests.support.crash import assert_nothing_left_behind, kill_ingest_at
from tests.support.crash import state as reader_state
from tests.support.truth_checks import assert_match_figures, assert_player_figures, truth_of

SMALL_BATCHES = 3 * 1024 * 1024  # a few four-minute logs per batch, so one run makes several batches


def truths(log: Path, work: Path) -> dict[str, dict]:
    """truth.py's figures of each match in a log (a two-match file is split at its second start first)."""
    data = gzip.decompress(log.read_bytes()) if log.suffix == ".gz" else log.read_bytes()
    lines = data.split(b"\n")
    starts = [i for i, line in enumerate(lines) if b'"eventType": "start"' in line]
    found = {}
    for n, begin in enumerate(starts):
        part = work / f"{log.stem}.part{n}.log"
        part.write_bytes(b"\n".join(lines[begin:starts[n + 1] if n + 1 < len(starts) else None]).rstrip(b",\r\n") + b"\n")
        truth = truth_of(part)
        found[str(truth["match_id"])] = truth
    return found


def test_many_logs_in_one_run_each_equal_truth(season_logs, tmp_path):
    done = []
    outcomes = ingest_logs(season_logs, tmp_path / "wh", batch_bytes=SMALL_BATCHES, on_done=done.append)
    assert [o.path for o in outcomes] == season_logs and sorted(map(str, (o.path for o in done))) == sorted(
        map(str, season_logs))
    assert all(o.error is None for o in outcomes), [o.error for o in outcomes]
    expected = {}
    for log in season_logs:
        expected.update(truths(log, tmp_path))
    assert len(expected) == 10
    assert sorted(match_ids(tmp_path / "wh")) == sorted(expected)
    assert [m.status for o in outcomes for m in o.result.matches] == ["ingested"] * 10
    for match_id, truth in expected.items():
        con = open_warehouse(tmp_path / "wh", match_id)
        assert_match_figures(con, truth)
        assert_player_figures(con, truth)
        # what the match's source record says it holds is what it holds (each batch's own counts, even while the
        # connection already derives the next batch)
        rows = committed_manifest(tmp_path / "wh", match_id)["tables"]
        for table in ("damage", "kills", "player_stats", "events"):
            assert rows[table] == con.execute(f"SELECT count(*) FROM {table}").fetchone()[0], (match_id, table)
    # the same run again: every file unchanged, nothing committed
    with reader(tmp_path / "wh") as lake:
        before = lake_snapshot(lake)
    again = ingest_logs(season_logs, tmp_path / "wh", batch_bytes=SMALL_BATCHES)
    assert [m.status for o in again for m in o.result.matches] == ["unchanged"] * 10
    with reader(tmp_path / "wh") as lake:
        assert lake_snapshot(lake) == before


def test_one_bad_file_in_a_batch_fails_alone_naming_itself(season_logs, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    lines = season_logs[0].read_bytes().split(b"\n")
    (bad / "junk.log").write_bytes(b"\n".join(lines[:50] + [b"not json"] * 20 + lines[50:200]))
    (bad / "refused.log").write_bytes(b'{"eventType": "start", "matchID": "a\\u0000b"},\n' + b"\n".join(lines[1:]))
    (bad / "empty.log").write_bytes(b"")
    corrupt = bytearray(gzip.compress(season_logs[1].read_bytes()))
    corrupt[15_000:15_400] = bytes(400)
    (bad / "corrupt.log.gz").write_bytes(bytes(corrupt))
    days = [line.replace(b'"time": "2025.', b'"time": "2026.') if i > len(lines) // 2 else line
            for i, line in enumerate(lines)]
    (bad / "days.log").write_bytes(b"\n".join(days))
    # one line that is not UTF-8: the CSV reader refuses the file, which is then framed line by line
    (bad / "undecodable.log").write_bytes(season_logs[2].read_bytes().replace(b" damage.", b" damag\xff\xfe", 1))
    mixed = [season_logs[3], bad / "junk.log", bad / "refused.log", season_logs[4], bad / "empty.log",
             bad / "corrupt.log.gz", bad / "days.log", bad / "missing.log", bad / "undecodable.log", season_logs[5]]
    outcomes = ingest_logs(mixed, tmp_path / "wh")
    errors = {o.path.name: str(o.error) for o in outcomes if o.error is not None}
    assert all(isinstance(o.error, IngestError) for o in outcomes if o.error is not None)
    assert isinstance(outcomes[1].error, MalformedLogError)
    says = {"junk.log": "20 of 220 lines are malformed", "refused.log": "the match id on line 1 contains a NUL",
            "empty.log": "is empty", "corrupt.log.gz": "the gzip archive is corrupt",
            "days.log": "hours from", "missing.log": "no such log file"}
    assert set(errors) == set(says)
    for name, text in says.items():
        assert str(bad / name) in errors[name] and text in errors[name] and "\n" not in errors[name], errors[name]
    good = [o for o in outcomes if o.error is None]
    assert [o.path.name for o in good] == [season_logs[3].name, season_logs[4].name, "undecodable.log",
                                           season_logs[5].name]
    assert good[2].result.lines_quarantined == 1 and "invalid UTF-8" in good[2].result.first_bad_lines[0][1]
    assert sorted(match_ids(tmp_path / "wh")) == sorted(o.result.match_id for o in good)
    for outcome in good[:2] + good[3:]:
        con = open_warehouse(tmp_path / "wh", outcome.result.match_id)
        assert_player_figures(con, truth_of(outcome.path))


def committed_state(root: Path) -> dict[str, tuple]:
    found = {}
    for match_id in match_ids(root):
        con = open_warehouse(root, match_id)
        found[match_id] = con.execute("SELECT source_file, source_sha256, lines_total FROM matches").fetchone()
    return found


def test_files_sharing_a_match_land_as_if_ingested_one_after_another(season_logs, tmp_path):
    work = season_logs[-1].parent
    x, y, two = work / "x.log", work / "y.log", season_logs[-1]
    x_again = tmp_path / "x-longer.log"
    write_match(x_again, 309, minutes=6)  # same match id as x, new content
    order = [x, y, two, x_again, x, season_logs[0], y]
    # replace=True: x after x_again holds less of the match, which is refused by default (test_arrivals.py)
    one_by_one = [[(m.match_id, m.status) for m in ingest_log(p, tmp_path / "seq", replace=True).matches]
                  for p in order]
    together = ingest_logs(order, tmp_path / "batch", replace=True)
    assert [[(m.match_id, m.status) for m in o.result.matches] for o in together] == one_by_one
    assert one_by_one[2] == [(str(simulated_match_id(309)), "replaced"), (str(simulated_match_id(310)), "replaced")]
    assert committed_state(tmp_path / "batch") == committed_state(tmp_path / "seq")


def test_a_file_whose_first_match_is_in_stages_only_the_other(season_logs, tmp_path):
    work = season_logs[-1].parent
    two, y = season_logs[-1], work / "y.log"
    root = tmp_path / "wh"
    ingest_log(two, root)
    assert ingest_log(y, root).status == "replaced"  # y's match now comes from y.log
    [outcome] = ingest_logs([two], root)
    assert [m.status for m in outcome.result.matches] == ["unchanged", "replaced"]
    for match_id, truth in truths(two, tmp_path).items():  # the second match holds its own lines only
        con = open_warehouse(root, match_id)
        assert_match_figures(con, truth)
        assert_player_figures(con, truth)


def test_unchanged_is_one_lookup_of_the_files_own_content(season_logs, tmp_path):
    """Whatever else the lake holds or lost, a file is unchanged when its own content is committed, under any
    name and compressed or not."""
    root = tmp_path / "wh"
    ingest_logs(season_logs[:4], root)
    mine = ingest_log(season_logs[0], root).match_id
    for match_id in match_ids(root):
        if match_id != mine:
            remove_match(root, match_id)
    renamed = tmp_path / "renamed.log.gz"
    renamed.write_bytes(gzip.compress(season_logs[0].read_bytes()))
    [outcome] = ingest_logs([renamed], root)
    assert [(m.match_id, m.status) for m in outcome.result.matches] == [(mine, "unchanged")]


def test_a_folder_ingest_killed_after_its_first_commit_leaves_whole_matches(season_logs, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for log in season_logs[:3]:
        shutil.copy(log, folder / log.name)
    kill_ingest_at(tmp_path / "home", folder, "committed")
    root = tmp_path / "home" / "warehouse"
    seen = reader_state(root)
    # two writer threads commit files as they finish, so the first commit may be any file's: one whole match
    ids = {ingest_log(log, tmp_path / "alone").match_id: log.name for log in sorted(folder.iterdir())}
    [landed] = list(seen)
    assert landed in ids
    outcomes = ingest_logs(sorted(folder.iterdir()), root)
    assert [o.result.status for o in outcomes] == [
        "unchanged" if o.path.name == ids[landed] else "ingested" for o in outcomes]
    assert_nothing_left_behind(root)
    for outcome in outcomes:
        assert_player_figures(open_warehouse(root, outcome.result.match_id), truth_of(outcome.path))
