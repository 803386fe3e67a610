"""Logs unlike the sample, as a new user brings them (issue 9): any match id, bad values, several matches in one
file, huge lines. Each case either lands exactly (checked against truth.py) or is refused in one clear line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from combat_analysis.ingest.logfile import MAX_LINE_BYTES
from combat_analysis.ingest.run import IngestError, MalformedLogError, ingest_log
from combat_analysis.ingest.simulate import simulated_match_id, write_match
from combat_analysis.warehouse.store import match_ids, open_warehouse
from tests.support.truth_checks import assert_match_figures, assert_player_figures, truth_of


def simulated(tmp_path: Path, seed: int, name: str | None = None, minutes: int = 4) -> tuple[Path, list[bytes]]:
    log = tmp_path / (name or f"sim{seed}.log")
    write_match(log, seed, minutes=minutes)
    return log, log.read_bytes().removeprefix(b"\xef\xbb\xbf").rstrip(b"\r\n").split(b"\r\n")


def write_lines(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(lines) + b"\r\n")
    return path


def with_start(lines: list[bytes], start: str) -> list[bytes]:
    return [start.encode("utf-8") + b",", *lines[1:]]


def test_ids_that_look_alike_or_like_paths_stay_apart_and_as_written(tmp_path):
    _, lines = simulated(tmp_path, 3)
    root = tmp_path / "wh"
    ids = ["a/b", "a_b", "A/B", "../../evil", "5147276662", "match_id=7", "Ünïcode 試合"]
    for i, match_id in enumerate(ids):
        log = write_lines(tmp_path / f"m{i}.log", with_start(lines, f'{{"eventType": "start", "matchID": "{match_id}"}}'))
        assert ingest_log(log, root).status == "ingested"  # never "replaced": no id overwrites another
    assert sorted(match_ids(root)) == sorted(ids)
    for i, match_id in enumerate(ids):
        con = open_warehouse(root, match_id)
        assert con.execute("SELECT match_id, source_file FROM matches").fetchone() == (match_id, f"m{i}.log")
    assert not (tmp_path / "evil").exists() and not (root.parent / "evil").exists()


def test_a_numeric_match_id_is_text_everywhere(tmp_path):
    _, lines = simulated(tmp_path, 5)
    log = write_lines(tmp_path / "n.log", with_start(lines, '{"eventType": "start", "matchID": 5147276662}'))
    result = ingest_log(log, tmp_path / "wh")
    assert result.match_id == "5147276662"
    con = open_warehouse(tmp_path / "wh")
    assert con.execute("SELECT DISTINCT typeof(match_id), match_id FROM events").fetchall() == [
        ("VARCHAR", "5147276662")]
    assert match_ids(tmp_path / "wh") == ["5147276662"]


@pytest.mark.parametrize(("match_id", "reason"), [
    ('"' + "7" * 300 + '"', "300 characters long; at most 200 can be kept"),
    (r'"a\u0000b"', "contains a NUL character"),
    (r'"line\nbreak"', "control or unassigned character U+000A"),
])
def test_ids_that_cannot_be_kept_are_refused_in_one_line_naming_the_file(tmp_path, match_id, reason):
    _, lines = simulated(tmp_path, 6)
    log = write_lines(tmp_path / "refused.log", with_start(lines, f'{{"eventType": "start", "matchID": {match_id}}}'))
    with pytest.raises(IngestError) as caught:
        ingest_log(log, tmp_path / "wh")
    message = str(caught.value)
    assert message.startswith(f"{log}: the match id on line 1 ") and reason in message and "\n" not in message
    assert match_ids(tmp_path / "wh") == []


def spoil(line: bytes, field: str, value: str) -> bytes:
    return re.sub(rf'"{field}": "[^"]*"'.encode(), f'"{field}": "{value}"'.encode(), line, count=1)


def test_values_that_are_not_finite_numbers_in_range_are_quarantined_with_their_reason(tmp_path):
    log, lines = simulated(tmp_path, 7, minutes=8)
    damage = [i for i, line in enumerate(lines) if b'"type": "Damage"' in line and b"Basic Attack" in line]
    healing = [i for i, line in enumerate(lines) if b'"type": "Healing"' in line]
    spoiled = {
        damage[0]: ("value1", "NaN", "invalid value: value1 is not a finite number (NaN)"),
        damage[1]: ("value1", "1e400", "invalid value: value1 is not a finite number (1e400)"),
        damage[2]: ("value1", "-inf", "invalid value: value1 is not a finite number (-inf)"),
        damage[3]: ("value1", "lots", "invalid value: value1 is not a finite number (lots)"),
        damage[4]: ("value1", "1e17", "invalid value: value1 is out of range (1e17)"),
        damage[5]: ("value1", "-57", "invalid value: negative damage (-57)"),
        damage[6]: ("value2", "-3", "invalid value: negative mitigated damage (-3)"),
        damage[7]: ("locationx", "nan", "invalid value: locationx is not a finite number (nan)"),
        damage[8]: ("itemid", "x7", "invalid value: itemid is not an integer (x7)"),
        healing[0]: ("value1", "-40", "invalid value: negative healing (-40)"),
    }
    for index, (field, value, _) in spoiled.items():
        lines[index] = spoil(lines[index], field, value)
    bad_log = write_lines(tmp_path / "spoiled.log", lines)
    result = ingest_log(bad_log, tmp_path / "wh")
    assert result.quarantine_reasons == {"invalid value": len(spoiled)}
    con = open_warehouse(tmp_path / "wh", result.match_id)
    assert con.execute("SELECT line_no, reason FROM quarantine ORDER BY line_no").fetchall() == [
        (index + 1, reason) for index, (_, _, reason) in sorted(spoiled.items())]
    # the totals are exactly those of the log without the spoiled lines: nothing else moved
    clean = write_lines(tmp_path / "clean.log", [line for i, line in enumerate(lines) if i not in spoiled])
    assert_player_figures(con, truth_of(clean))


def test_the_one_percent_rule_counts_bad_values(tmp_path):
    _, lines = simulated(tmp_path, 8)
    damage = [i for i, line in enumerate(lines) if b'"type": "Damage"' in line]
    for index in damage[: len(lines) // 50]:  # 2% of the lines
        lines[index] = spoil(lines[index], "value1", "NaN")
    with pytest.raises(MalformedLogError, match=r"lines are malformed .*invalid value: value1 is not a finite"):
        ingest_log(write_lines(tmp_path / "nan.log", lines), tmp_path / "wh")
    assert match_ids(tmp_path / "wh") == []


def two_matches(tmp_path: Path, second_start: bytes | None = None) -> tuple[Path, Path, Path, int]:
    first, first_lines = simulated(tmp_path, 11, "first.log")
    second, second_lines = simulated(tmp_path, 12, "second.log", minutes=5)
    if second_start is not None:
        second_lines = [second_start, *second_lines[1:]]
    both = write_lines(tmp_path / "both.log", [*first_lines[:-1], first_lines[-1] + b",", *second_lines])
    return both, first, second, len(first_lines)


def test_a_second_start_begins_a_second_match_with_its_own_id_and_clock(tmp_path):
    both, first, second, first_lines = two_matches(tmp_path)
    result = ingest_log(both, tmp_path / "wh")
    assert [(m.match_id, m.status, m.first_line, m.lines_quarantined) for m in result.matches] == [
        (str(simulated_match_id(11)), "ingested", 1, 0), (str(simulated_match_id(12)), "ingested", first_lines + 1, 0)]
    assert result.matches[1].last_line == sum(1 for _ in both.open("rb"))
    for match, single in zip(result.matches, (first, second), strict=True):
        con = open_warehouse(tmp_path / "wh", match.match_id)
        truth = truth_of(single)
        assert_match_figures(con, truth)  # its own clock: start, duration, minutes, kills' seconds
        assert_player_figures(con, truth)
    # the same file again changes nothing, for either match
    again = ingest_log(both, tmp_path / "wh")
    assert [m.status for m in again.matches] == ["unchanged", "unchanged"]


@pytest.mark.parametrize(("start", "reason"), [
    (b'{"eventType": "start", "matchID": "12', "broken start event: malformed JSON"),
    (b'{"eventType": "start", "logMode": "JSON"},', "broken start event: no usable matchID"),
    (None, "broken start event: repeats the match id"),
])
def test_a_broken_second_start_quarantines_what_follows_never_merging_it(tmp_path, start, reason):
    if start is None:  # the same id as the first match
        start = f'{{"eventType": "start", "matchID": "{simulated_match_id(11)}"}},'.encode()
    both, first, _, first_lines = two_matches(tmp_path, start)
    with pytest.raises(MalformedLogError, match=f"line {first_lines + 1}: {re.escape(reason)}"):
        ingest_log(both, tmp_path / "wh")  # half the file is quarantined: over the 1% rule
    result = ingest_log(both, tmp_path / "wh", max_bad_share=0.9)
    assert [m.match_id for m in result.matches] == [str(simulated_match_id(11))]
    con = open_warehouse(tmp_path / "wh", result.match_id)
    assert_match_figures(con, truth_of(first))  # not one event of the second match merged in
    assert_player_figures(con, truth_of(first))
    reasons = con.execute("SELECT min(line_no), reason, count(*) FROM quarantine GROUP BY reason ORDER BY 1").fetchall()
    assert reasons[0][:2] == (first_lines + 1, reasons[0][1]) and reasons[0][1].startswith(reason)
    assert reasons[1][1] == f"after the broken start event at line {first_lines + 1}"
    assert result.lines_total == result.lines_parsed + result.lines_quarantined == result.last_line


def test_a_huge_line_is_quarantined_as_too_long_and_numbering_holds(tmp_path):
    log, lines = simulated(tmp_path, 13)
    huge = b'{"eventType": "CombatMsg", "text": "' + b"x" * (8 * 1024 * 1024) + b'"},'
    lines.insert(500, huge)
    result = ingest_log(write_lines(tmp_path / "huge.log", lines), tmp_path / "wh")
    assert (result.lines_total, result.lines_quarantined) == (len(lines), 1)
    con = open_warehouse(tmp_path / "wh", result.match_id)
    [(line_no, reason, raw)] = con.execute("SELECT line_no, reason, raw FROM quarantine").fetchall()
    # its length counts every byte before the line feed, the CR of CRLF included
    assert line_no == 501 and reason.startswith(f"too long: {len(huge) + 1:,} bytes (limit {MAX_LINE_BYTES:,})")
    assert raw == huge[:1000].decode()
    assert_player_figures(con, truth_of(log))  # every other line exactly as in the original log
