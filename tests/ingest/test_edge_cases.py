"""Bad input gets a clear error and nothing is lost: every line is either parsed or quarantined."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from combat_analysis.ingest.run import EmptyLogError, IngestError, MalformedLogError, ingest_log
from combat_analysis.warehouse.store import history, match_ids, open_warehouse
from tests.support.paths import FIXTURE_LINES, SAMPLE_LOG, SAMPLE_MATCH_ID

SAMPLE_BYTES = SAMPLE_LOG.read_bytes()
SAMPLE_LINES = SAMPLE_BYTES.rstrip(b"\r\n").split(b"\r\n")  # CRLF line endings


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def assert_nothing_committed(root: Path) -> None:
    """A failed ingest commits no match, and leaves no data file behind."""
    assert match_ids(root) == []
    assert not list(root.rglob("*.parquet"))


def quarantine(root: Path, match_id: str) -> list[tuple]:
    con = open_warehouse(root, match_id)
    return con.execute("SELECT line_no, reason, raw FROM quarantine ORDER BY line_no").fetchall()


def line_counts(root: Path, match_id: str) -> tuple:
    con = open_warehouse(root, match_id)
    return con.execute("SELECT lines_total, lines_parsed, lines_quarantined FROM matches").fetchone()


def test_real_fixture_lines_parse_with_every_event_typed(tmp_path):
    result = ingest_log(FIXTURE_LINES, tmp_path)
    assert result.match_id == "test_match"
    assert (result.lines_total, result.lines_quarantined) == (13, 0)
    con = open_warehouse(tmp_path, "test_match")
    assert con.execute("SELECT count(*) FROM events WHERE raw IS NOT NULL").fetchone()[0] == 0
    damage = con.execute(
        "SELECT source, target, ability, amount, mitigated, is_crit, location_x FROM damage ORDER BY line_no").fetchall()
    assert damage == [
        ("TestPlayer2", "TestPlayer3", "Astral Strike", 57.0, 15.0, False, -2512.264713),
        ("TestPlayer1", "TestPlayer3", "Basic Attack", 120.0, 30.0, True, -2512.264713),
    ]
    assert con.execute("SELECT player, team, role, god FROM players ORDER BY player").fetchall() == [
        ("TestPlayer1", 1, "Jungle", "Fenrir"), ("TestPlayer2", 1, "Carry", "Rama"),
        ("TestPlayer3", 2, "Solo", "Hercules")]
    assert con.execute("SELECT reward, giver, giver_kind, recipient, amount FROM rewards ORDER BY line_no").fetchall() \
        == [("gold", "Minion", "minion", "TestPlayer1", 11.0), ("experience", "Minion", "minion", "TestPlayer1", 18.0)]
    assert con.execute("SELECT killer, victim, is_player_kill, assists, match_second FROM kills").fetchall() == [
        ("TestPlayer2", "TestPlayer3", True, ["TestPlayer1"], 120)]
    assert con.execute("SELECT player, seq, item_id, item FROM purchases").fetchall() == [
        ("TestPlayer1", 1, 1894, "Blink Rune")]
    start, duration = con.execute("SELECT started_at, duration_s FROM matches").fetchone()
    assert (start.isoformat(), duration) == ("2025-03-19T03:43:00", 120)


def test_truncated_last_line_is_quarantined(tmp_path):
    log = write(tmp_path, "cut.log", SAMPLE_BYTES.rstrip(b"\r\n")[:-40])
    result = ingest_log(log, tmp_path / "wh")
    assert (result.lines_total, result.lines_parsed, result.lines_quarantined) == (26671, 26670, 1)
    [(line_no, reason, raw)] = quarantine(tmp_path / "wh", SAMPLE_MATCH_ID)
    assert line_no == 26671
    assert reason == "truncated line: the file ends mid-event"
    assert raw == SAMPLE_LINES[-1][:-40].decode()


def test_binary_garbage_line_is_quarantined_with_its_line_number(tmp_path):
    lines = list(SAMPLE_LINES)
    lines.insert(100, b"\x00\x01\x02garbage\xff\xfe")
    result = ingest_log(write(tmp_path, "garbage.log", b"\r\n".join(lines)), tmp_path / "wh")
    assert (result.lines_total, result.lines_quarantined) == (26672, 1)
    [(line_no, reason, raw)] = quarantine(tmp_path / "wh", SAMPLE_MATCH_ID)
    assert line_no == 101
    assert reason.startswith("invalid UTF-8")
    assert "garbage" in raw
    # the events after the bad line keep their own line numbers
    con = open_warehouse(tmp_path / "wh", SAMPLE_MATCH_ID)
    assert con.execute("SELECT min(line_no), max(line_no), count(*) FROM events").fetchone() == (1, 26672, 26671)


def test_valid_utf8_junk_is_quarantined(tmp_path):
    lines = list(SAMPLE_LINES)
    lines[50] = b'{"eventType": "CombatMsg", "type": '
    lines[60] = "not json at all ✨".encode()
    lines[70] = b"[1, 2, 3]"
    ingest_log(write(tmp_path, "junk.log", b"\r\n".join(lines)), tmp_path / "wh")
    assert [(n, r) for n, r, _ in quarantine(tmp_path / "wh", SAMPLE_MATCH_ID)] == [
        (51, "malformed JSON"), (61, "malformed JSON"), (71, "not a JSON object")]


def test_empty_file_is_a_clear_error(tmp_path):
    with pytest.raises(EmptyLogError, match="is empty"):
        ingest_log(write(tmp_path, "empty.log", b""), tmp_path / "wh")
    assert_nothing_committed(tmp_path / "wh")


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(IngestError, match="no such log file"):
        ingest_log(tmp_path / "nope.log", tmp_path / "wh")


def test_too_many_bad_lines_fails_naming_the_first(tmp_path):
    lines = list(SAMPLE_LINES)
    for i in range(1, 400):  # 399 of 26,671 lines = 1.5% > 1%
        lines[i * 50] = b"\xff broken"
    with pytest.raises(MalformedLogError, match=r"399 of 26671 lines are malformed .*line 51: invalid UTF-8"):
        ingest_log(write(tmp_path, "bad.log", b"\r\n".join(lines)), tmp_path / "wh")
    assert_nothing_committed(tmp_path / "wh")
    # the limit is configurable
    result = ingest_log(tmp_path / "bad.log", tmp_path / "wh", max_bad_share=0.05)
    assert result.lines_quarantined == 399


def test_no_bom_and_lf_endings_give_identical_tables(tmp_path, sample_warehouse):
    plain = SAMPLE_BYTES.removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n")
    result = ingest_log(write(tmp_path, "plain.log", plain), tmp_path / "wh")
    assert (result.lines_total, result.lines_quarantined) == (26671, 0)
    a = open_warehouse(sample_warehouse, SAMPLE_MATCH_ID)
    b = open_warehouse(tmp_path / "wh", SAMPLE_MATCH_ID)
    for table in ("player_stats", "kills", "damage", "timeline"):
        assert a.execute(f"SELECT * FROM {table}").fetchall() == b.execute(f"SELECT * FROM {table}").fetchall()


def test_second_ingest_of_the_same_file_changes_nothing(tmp_path):
    first = ingest_log(SAMPLE_LOG, tmp_path)
    files = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*.parquet")}
    second = ingest_log(SAMPLE_LOG, tmp_path)
    assert (first.status, second.status) == ("ingested", "unchanged")
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*.parquet")} == files
    con = open_warehouse(tmp_path)
    assert con.execute("SELECT count(*) FROM events").fetchone()[0] == 26671
    assert second.event_counts == first.event_counts


def test_same_match_id_with_new_content_replaces_the_snapshot(tmp_path):
    ingest_log(SAMPLE_LOG, tmp_path / "wh")
    shorter = b"\r\n".join(SAMPLE_LINES[:20000])
    # a shorter copy is refused unless the user says to replace (tests/ingest/test_arrivals.py)
    result = ingest_log(write(tmp_path, "rewritten.log", shorter), tmp_path / "wh", replace=True)
    assert result.status == "replaced"
    con = open_warehouse(tmp_path / "wh")
    assert con.execute("SELECT count(*), count(DISTINCT match_id) FROM events").fetchone() == (20000, 1)
    assert con.execute("SELECT source_file FROM matches").fetchall() == [("rewritten.log",)]
    # the replaced version stays in the match's history (until housekeeping), the new one is current
    assert [(v.action, v.source["source_file"]) for v in history(tmp_path / "wh", SAMPLE_MATCH_ID)] == [
        ("ingested", SAMPLE_LOG.name), ("replaced", "rewritten.log")]
    assert [v.snapshot for v in history(tmp_path / "wh", SAMPLE_MATCH_ID)][-1] == result.snapshot


def test_match_id_falls_back_to_the_file_name(tmp_path):
    without_start = b"\r\n".join(SAMPLE_LINES[1:])
    result = ingest_log(write(tmp_path, "scrim-42.log", without_start), tmp_path / "wh")
    assert result.match_id == "scrim-42"


def test_unknown_event_types_are_kept_with_their_raw_fields(tmp_path):
    lines = list(SAMPLE_LINES)
    odd = b'{"eventType": "CombatMsg", "type": "Shielding", "time": "2025.03.02-19.20.00", "sourceowner": "Brisk", "value1": "40"},'
    untyped = b'{"eventType": "CombatMsg", "time": "2025.03.02-19.20.01", "sourceowner": "Brisk"},'
    lines.insert(500, odd)
    lines.insert(501, untyped)
    ingest_log(write(tmp_path, "odd.log", b"\r\n".join(lines)), tmp_path / "wh")
    con = open_warehouse(tmp_path / "wh", SAMPLE_MATCH_ID)
    rows = con.execute("SELECT line_no, type, source, value1, match_second, raw FROM events WHERE raw IS NOT NULL "
                       "ORDER BY line_no").fetchall()
    assert rows == [(501, "Shielding", "Brisk", 40.0, 113, odd.decode().rstrip(",")),
                    (502, None, "Brisk", None, 114, untyped.decode().rstrip(","))]


# each example ingests a new lake (about half a second); COMBAT_ANALYSIS_PROPERTY_EXAMPLES searches deeper
@settings(max_examples=int(os.environ.get("COMBAT_ANALYSIS_PROPERTY_EXAMPLES", "12")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    damaged=st.dictionaries(st.integers(min_value=1, max_value=199),
                            st.binary(min_size=0, max_size=40).filter(lambda b: b"\n" not in b), max_size=2),
)
@example(damaged={199: b""})  # a file that ends with a line break
@example(damaged={1: b"", 2: b"\r"})
def test_every_line_is_parsed_or_quarantined(tmp_path_factory, damaged):
    lines = list(SAMPLE_LINES[:200])
    for index, junk in damaged.items():
        lines[index] = junk
    root = tmp_path_factory.mktemp("wh")
    log = root / "prop.log"
    log.write_bytes(b"\r\n".join(lines))
    result = ingest_log(log, root / "wh", max_bad_share=0.5)
    con = open_warehouse(root / "wh", result.match_id)
    parsed = con.execute("SELECT count(*) FROM events").fetchone()[0]
    quarantined = con.execute("SELECT list(line_no ORDER BY line_no) FROM quarantine").fetchone()[0] or []
    # an empty last element only means the file ends with a line break: not a line of its own
    expected_lines = len(lines) - (lines[-1] == b"")
    assert parsed + len(quarantined) == expected_lines == result.lines_total
    assert set(quarantined) <= {i + 1 for i in damaged}


def test_blank_lines_and_lone_carriage_returns_keep_numbering(tmp_path):
    lines = list(SAMPLE_LINES)
    lines[10] = b""
    lines[20] = b"   "
    lines[30] = lines[30][:40] + b"\r" + lines[30][40:]
    result = ingest_log(write(tmp_path, "blank.log", b"\r\n".join(lines)), tmp_path / "wh")
    assert result.lines_total == 26671
    assert [(n, r) for n, r, _ in quarantine(tmp_path / "wh", SAMPLE_MATCH_ID)] == [
        (11, "blank line"), (21, "blank line"), (31, "malformed JSON")]


def test_gzip_archives_are_read_transparently(tmp_path):
    import gzip

    archive = write(tmp_path, "sample.log.gz", gzip.compress(SAMPLE_BYTES))
    result = ingest_log(archive, tmp_path / "wh")
    assert (result.match_id, result.lines_total, result.lines_quarantined) == (SAMPLE_MATCH_ID, 26671, 0)


@pytest.mark.parametrize("kept", [0.05, 0.37, 0.81, 0.999])
def test_a_cut_gzip_archive_keeps_every_line_it_holds(tmp_path, kept):
    """An archive cut short (an upload stopped midway) reads as the plain log cut at the same point would: every
    whole line is an event, the cut last line is quarantined naming the archive, nothing else is lost."""
    import gzip
    import zlib

    packed = gzip.compress(SAMPLE_BYTES)
    cut = packed[: int(len(packed) * kept)]
    held = zlib.decompressobj(wbits=31).decompress(cut)  # every byte the cut archive still holds
    assert 0 < len(held) < len(SAMPLE_BYTES)
    result = ingest_log(write(tmp_path, "cut.log.gz", cut), tmp_path / "gz")
    plain = ingest_log(write(tmp_path, "cut.log", held), tmp_path / "plain")
    whole = held.count(b"\n")
    assert result.lines_total == plain.lines_total == whole + (not held.endswith(b"\n"))
    assert result.lines_parsed == plain.lines_parsed and result.lines_parsed >= whole - 1
    events = "SELECT count(*), sum(value1) FROM events"
    assert (open_warehouse(tmp_path / "gz", SAMPLE_MATCH_ID).execute(events).fetchone()
            == open_warehouse(tmp_path / "plain", SAMPLE_MATCH_ID).execute(events).fetchone())
    if not held.endswith(b"\n"):
        assert quarantine(tmp_path / "gz", SAMPLE_MATCH_ID)[-1][:2] == (
            result.lines_total, "truncated line: the gzip archive ends mid-event, before its end marker")


def test_a_corrupt_or_headless_gzip_archive_is_refused(tmp_path):
    import gzip

    packed = bytearray(gzip.compress(SAMPLE_BYTES))
    packed[30_000:30_300] = bytes(300)  # bad data: what it would decompress to cannot be trusted
    for name, data in (("corrupt.log.gz", bytes(packed)), ("headless.log.gz", gzip.compress(SAMPLE_BYTES)[:6])):
        with pytest.raises(IngestError, match="the gzip archive is corrupt or holds no line"):
            ingest_log(write(tmp_path, name, data), tmp_path / "wh")
    assert match_ids(tmp_path / "wh") == []


def test_a_malformed_time_keeps_the_event_without_a_clock(tmp_path):
    lines = list(SAMPLE_LINES)
    lines[300] = lines[300].replace(b'"time": "2025.03.02-', b'"time": "2025.13.99-')
    ingest_log(write(tmp_path, "odd_time.log", b"\r\n".join(lines)), tmp_path / "wh")
    con = open_warehouse(tmp_path / "wh", SAMPLE_MATCH_ID)
    assert con.execute("SELECT time, match_second FROM events WHERE line_no = 301").fetchone() == (None, None)
    assert con.execute("SELECT count(*) FROM events").fetchone()[0] == 26671
