"""Figures across matches, exact against the oracle: `../shared/tools/truth.py` run on each of 24 simulated
matches and aggregated here in plain Python, following docs/season.md."""

from __future__ import annotations

import itertools
import statistics
from datetime import date, datetime

import pytest

from combat_analysis.contracts.selection import ALL_MATCHES, SELECTION, DateRange, LastMatches, MatchList
from combat_analysis.season import figures as season
from combat_analysis.season.figures import ADDITIVE_METRICS, SeasonError
from tests.support.season import (
    ORACLE_METRICS,
    ROSTER,
    SEEDS,
    assert_same,
    expected_h2h,
    expected_record,
    games,
    per_match_figure,
    same,
    start_order,
)

# --- the season and its oracle ----------------------------------------------------------------------------


# --- the fixture is a season worth testing -------------------------------------------------------------------


def test_the_season_has_repeat_players_ties_and_unknown_winners(season_matches):
    assert len(season_matches) == len(SEEDS) >= 20
    appearances = {p: sum(p in m.truth["players"] for m in season_matches) for p in ROSTER}
    assert min(appearances.values()) >= 10, appearances
    winners = [m.truth["winner"] for m in season_matches]
    assert winners.count(1) >= 3 and winners.count(2) >= 3 and winners.count(None) >= 3
    starts = [m.truth["match_start"] for m in season_matches]
    assert len(set(starts)) < len(starts)  # two matches start at the same second
    assert len({m.truth["duration_seconds"] // 60 for m in season_matches}) >= 4
    assert any(m.match_id.isdigit() for m in season_matches) and any(" " in m.match_id for m in season_matches)


# --- selections ------------------------------------------------------------------------------------------------


def test_all_matches_in_start_order_with_results(con, season_matches):
    got = season.selected_matches(con)
    assert [(m.match_id, m.started_at, m.duration_s, m.winner_team) for m in got] == [
        (m.match_id, datetime.fromisoformat(m.truth["match_start"]), m.truth["duration_seconds"], m.truth["winner"])
        for m in start_order(season_matches)]


def last_n(matches, player: str, n: int) -> list:
    mine = [m for m in start_order(matches) if player in m.truth["players"]]
    return mine[-n:]


@pytest.mark.parametrize("player", ["VoidWalker", "voidwalker", "张伟", "O'Brien"])
@pytest.mark.parametrize("n", [1, 5, 10, 500])
def test_last_n_matches_of_a_player(con, season_matches, player, n):
    got = season.selected_matches(con, LastMatches(player=player, count=n))
    assert [m.match_id for m in got] == [m.match_id for m in last_n(season_matches, player, n)]


def test_date_ranges_are_half_open_and_days_inclusive(con, season_matches):
    ordered = start_order(season_matches)
    first, last = (datetime.fromisoformat(ordered[i].truth["match_start"]) for i in (3, 12))
    got = season.selected_matches(con, DateRange(since=first, until=last))
    assert [m.match_id for m in got] == [m.match_id for m in ordered[3:12]]
    days = season.selected_matches(con, DateRange.days(first.date(), last.date()))
    assert [m.match_id for m in days] == [
        m.match_id for m in ordered if first.date() <= datetime.fromisoformat(m.truth["match_start"]).date()
        <= last.date()]
    open_end = season.selected_matches(con, DateRange(since=last))
    assert [m.match_id for m in open_end] == [m.match_id for m in ordered[12:]]
    assert season.selected_matches(con, DateRange(until=datetime(2000, 1, 1))) == ()


def test_a_named_list_keeps_start_order_and_refuses_unknown_ids(con, season_matches):
    chosen = [season_matches[7].match_id, season_matches[0].match_id, season_matches[1].match_id]
    got = season.selected_matches(con, MatchList(match_ids=tuple(chosen)))
    assert [m.match_id for m in got] == [m.match_id for m in start_order(season_matches) if m.match_id in chosen]
    with pytest.raises(SeasonError, match=r"not in the warehouse: match 999"):
        season.selected_matches(con, MatchList(match_ids=(chosen[0], "999")))


def test_selections_parse_from_json_for_the_planner():
    assert SELECTION.validate_python({"kind": "all"}) == ALL_MATCHES
    assert SELECTION.validate_json('{"kind": "last", "player": "x", "count": 10}') == LastMatches(player="x", count=10)
    assert SELECTION.validate_python({"kind": "matches", "match_ids": ["5147276662"]}).match_ids == ("5147276662",)
    days = DateRange.days(date(2025, 3, 1), date(2025, 3, 7))
    assert (days.since, days.until) == (datetime(2025, 3, 1), datetime(2025, 3, 8))
    for bad in ({"kind": "last", "player": "x", "count": 0}, {"kind": "dates"},
                {"kind": "dates", "since": "2025-03-08", "until": "2025-03-01"}, {"kind": "matches", "match_ids": []},
                {"kind": "season"}, {"kind": "all", "extra": 1}):
        with pytest.raises(ValueError):
            SELECTION.validate_python(bad)
    with pytest.raises(ValueError):  # frozen: a bound selection cannot be changed afterwards
        LastMatches(player="x", count=3).count = 4


# --- player profiles -------------------------------------------------------------------------------------------


def expected_profile(rows: list[dict], best_by: str) -> dict:
    lower = best_by in season.LOWER_IS_BETTER
    order = sorted(rows, key=lambda r: ((r[best_by] if lower else -r[best_by]), r["started_at"], r["match_id"]))
    worst = sorted(rows, key=lambda r: ((-r[best_by] if lower else r[best_by]), r["started_at"], r["match_id"]))
    totals = {k: sum(r[k] for r in rows) for k in ADDITIVE_METRICS if k in ORACLE_METRICS}
    return {
        "record": expected_record(rows),
        "totals": totals,
        "averages": {k: statistics.fmean(r[k] for r in rows) for k in ORACLE_METRICS},
        "npc_damage": sum(r["npc_damage"] for r in rows),
        "overall_kda": (totals["kills"] + totals["assists"]) / max(totals["deaths"], 1),
        "best": (order[0]["match_id"], order[0][best_by]),
        "worst": (worst[0]["match_id"], worst[0][best_by]),
    }


def check_profiles(con, matches, selection, best_by: str) -> int:
    rows = games(matches)
    got = season.player_profiles(con, selection, best_by=best_by)
    assert [p.player for p in got] == sorted({r["player"] for r in rows})
    for profile in got:
        want = expected_profile([r for r in rows if r["player"] == profile.player], best_by)
        assert_same(profile.record.model_dump(), want["record"], profile.player)
        assert_same(profile.totals, want["totals"], profile.player)
        assert_same(profile.averages, want["averages"], profile.player)
        assert profile.totals["damage_to_minions"] + profile.totals["damage_to_jungle"] == want["npc_damage"]
        assert same(profile.overall_kda, want["overall_kda"])
        assert (profile.best_match.match_id, profile.best_match.value) == want["best"], profile.player
        assert (profile.worst_match.match_id, profile.worst_match.value) == want["worst"], profile.player
        assert profile.best_by == best_by
    return len(got)


@pytest.mark.parametrize("best_by", ["damage_dealt", "deaths", "kda", "gold", "biggest_hit"])
def test_every_profile_over_all_matches(con, season_matches, best_by):
    assert check_profiles(con, season_matches, ALL_MATCHES, best_by) == len(ROSTER)


def test_profiles_over_selections(con, season_matches):
    ordered = start_order(season_matches)
    since = datetime.fromisoformat(ordered[5].truth["match_start"])
    until = datetime.fromisoformat(ordered[17].truth["match_start"])
    check_profiles(con, ordered[5:17], DateRange(since=since, until=until), "damage_dealt")
    named = [ordered[i] for i in (0, 1, 9, 23)]
    check_profiles(con, named, MatchList(match_ids=tuple(m.match_id for m in named)), "kills")
    mine = last_n(season_matches, "José Ñúñez", 6)
    check_profiles(con, mine, LastMatches(player="José Ñúñez", count=6), "kda")


def test_a_single_profile_and_names_are_exact(con, season_matches):
    rows = [r for r in games(season_matches) if r["player"] == "voidwalker"]
    profile = season.player_profile(con, "voidwalker")
    assert profile.record.games == len(rows) == sum("voidwalker" in m.truth["players"] for m in season_matches)
    assert profile.totals["kills"] == sum(r["kills"] for r in rows)
    assert isinstance(profile.totals["kills"], int)
    # a name differing only in case is another player
    other = season.player_profile(con, "VoidWalker")
    assert other.record.games == sum("VoidWalker" in m.truth["players"] for m in season_matches)
    assert other.totals["damage_dealt"] == sum(r["damage_dealt"] for r in games(season_matches)
                                               if r["player"] == "VoidWalker")
    with pytest.raises(SeasonError, match=r"no player named 'VOIDWALKER'.*did you mean"):
        season.player_profile(con, "VOIDWALKER")


# --- gods and roles --------------------------------------------------------------------------------------------


def expected_groups(rows: list[dict], key: str) -> list[tuple]:
    out = []
    for name in {r[key] for r in rows}:
        mine = [r for r in rows if r[key] == name]
        out.append((name, len({r["player"] for r in mine}), expected_record(mine),
                    statistics.fmean(r["kda"] for r in mine), statistics.fmean(r["damage_dealt"] for r in mine),
                    statistics.fmean(r["gold"] for r in mine)))
    return sorted(out, key=lambda g: (-g[2]["games"], g[0]))


def assert_groups(got, want) -> None:
    assert [g.name for g in got] == [w[0] for w in want]
    for g, (name, players, record, kda, damage, gold) in zip(got, want, strict=True):
        assert g.players == players, name
        assert_same(g.record.model_dump(), record, name)
        assert_same({"kda": g.average_kda, "damage": g.average_damage, "gold": g.average_gold},
                    {"kda": kda, "damage": damage, "gold": gold}, name)


def test_god_stats(con, season_matches):
    rows = games(season_matches)
    assert_groups(season.god_stats(con), expected_groups(rows, "god"))
    for role in ("Solo", "middle", "JUNGLE"):
        assert_groups(season.god_stats(con, role=role),
                      expected_groups([r for r in rows if r["role"].lower() == role.lower()], "god"))
    assert_groups(season.god_stats(con, player="Zoë"), expected_groups([r for r in rows if r["player"] == "Zoë"], "god"))
    assert season.god_stats(con, role="Goalkeeper") == ()


def test_role_stats(con, season_matches):
    rows = games(season_matches)
    got = season.role_stats(con)
    assert_groups(got, expected_groups(rows, "role"))
    # one player per role per team: every role plays every match, and wins exactly as often as it loses
    assert {g.record.games for g in got} == {2 * len(season_matches)}
    assert all(g.record.wins == g.record.losses for g in got)
    assert_groups(season.role_stats(con, player="x"), expected_groups([r for r in rows if r["player"] == "x"], "role"))
    ordered = start_order(season_matches)[:8]
    assert_groups(season.role_stats(con, MatchList(match_ids=tuple(m.match_id for m in ordered))),
                  expected_groups(games(ordered), "role"))


# --- head-to-head ----------------------------------------------------------------------------------------------


def test_head_to_head_for_every_pair(con, season_matches):
    interesting = 0
    for a, b in itertools.permutations(ROSTER, 2):
        got = season.head_to_head(con, a, b).model_dump()
        want = expected_h2h(season_matches, a, b)
        assert_same(got, {"player_a": a, "player_b": b, **want}, f"{a} vs {b}")
        interesting += want["as_teammates"] > 0 and want["as_opponents"] > 0 and want["kills_a_on_b"] > 0
    assert interesting >= 20  # the fixture exercises every branch, not only zeros


def test_head_to_head_within_a_selection(con, season_matches):
    ordered = start_order(season_matches)
    since = datetime.fromisoformat(ordered[10].truth["match_start"])
    got = season.head_to_head(con, "Night Owl", "a.b", DateRange(since=since))
    assert got.model_dump() == {"player_a": "Night Owl", "player_b": "a.b",
                                **expected_h2h(ordered[10:], "Night Owl", "a.b")}
    with pytest.raises(SeasonError, match="two different players"):
        season.head_to_head(con, "x", "x")
    with pytest.raises(SeasonError, match="no player named 'X'"):
        season.head_to_head(con, "x", "X")


# --- trends ----------------------------------------------------------------------------------------------------


def test_every_players_trend_over_every_metric(con, season_matches):
    rows = sorted(games(season_matches), key=lambda r: (r["started_at"], r["match_id"]))
    for player in ROSTER:
        got = season.player_trend(con, player, ORACLE_METRICS)
        mine = [r for r in rows if r["player"] == player]
        assert [(p.match_id, p.started_at, p.team, p.role, p.god, p.result) for p in got.points] == [
            (r["match_id"], r["started_at"], r["team"], r["role"], r["god"], r["result"]) for r in mine]
        for point, row in zip(got.points, mine, strict=True):
            assert_same(point.values, {k: row[k] for k in ORACLE_METRICS}, f"{player} {point.match_id}")


def test_trend_over_the_last_ten_games(con, season_matches):
    got = season.player_trend(con, "Kraken_Mid", ["kda"], LastMatches(player="Kraken_Mid", count=10))
    mine = last_n(season_matches, "Kraken_Mid", 10)
    assert [p.match_id for p in got.points] == [m.match_id for m in mine]
    assert [p.values["kda"] for p in got.points] == pytest.approx(
        [per_match_figure(m.truth["players"]["Kraken_Mid"], "kda", m.truth["duration_seconds"]) for m in mine],
        rel=1e-12)


# --- leaderboards ----------------------------------------------------------------------------------------------


def expected_board(rows, metric, statistic, order="desc", min_matches=1, limit=10) -> list[tuple]:
    by_player: dict[str, list[dict]] = {}
    for r in rows:
        by_player.setdefault(r["player"], []).append(r)
    values = {}
    for p, mine in by_player.items():
        if len(mine) < min_matches:
            continue
        if metric == "matches":
            values[p] = len(mine)
        elif metric in ("wins", "win_rate"):
            record = expected_record(mine)
            values[p] = record[metric]
        elif statistic == "total":
            values[p] = sum(r[metric] for r in mine)
        else:
            values[p] = statistics.fmean(r[metric] for r in mine)
    values = {p: v for p, v in values.items() if v is not None}
    sign = -1 if order == "desc" else 1
    ranked = sorted(values.items(), key=lambda kv: (sign * kv[1], kv[0]))
    return [(1 + sum(sign * w < sign * v for w in values.values()), p, len(by_player[p]), v)
            for p, v in ranked[:limit]]


@pytest.mark.parametrize(("metric", "statistic", "order", "min_matches", "limit"), [
    ("damage_dealt", "total", "desc", 1, 10),
    ("kills", "total", "desc", 1, 14),  # small integers: ties share a rank
    ("deaths", "total", "asc", 16, 5),
    ("kda", "average", "desc", 1, 14),
    ("gpm", "average", "desc", 15, 3),
    ("matches", "total", "desc", 1, 14),
    ("wins", "total", "desc", 1, 14),
    ("win_rate", "average", "desc", 1, 14),
    ("win_rate", "total", "asc", 17, 14),
])
def test_leaderboards(con, season_matches, metric, statistic, order, min_matches, limit):
    got = season.leaderboard(con, metric, statistic=statistic, order=order, min_matches=min_matches, limit=limit)
    want = expected_board(games(season_matches), metric, statistic, order, min_matches, limit)
    assert [(r.rank, r.player, r.matches) for r in got.rows] == [w[:3] for w in want]
    assert all(same(r.value, w[3]) for r, w in zip(got.rows, want, strict=True))
    assert got.statistic == ("record" if metric in season.RECORD_METRICS else statistic)


def test_leaderboard_over_a_date_range(con, season_matches):
    ordered = start_order(season_matches)
    selection = DateRange.days(datetime.fromisoformat(ordered[0].truth["match_start"]).date(),
                               datetime.fromisoformat(ordered[11].truth["match_start"]).date())
    got = season.leaderboard(con, "healing_done", selection, limit=3)
    want = expected_board(games(ordered[:12]), "healing_done", "total", limit=3)
    assert [(r.rank, r.player, r.matches, r.value) for r in got.rows] == want


# --- refusals: one line each, never a silent guess -------------------------------------------------------------


@pytest.mark.parametrize(("call", "message"), [
    (lambda con: season.leaderboard(con, "kda"), "kda has no total"),
    (lambda con: season.leaderboard(con, "damage_dealt; DROP TABLE matches"), "unknown metric"),
    (lambda con: season.leaderboard(con, "kills", statistic="median"), "unknown statistic"),
    (lambda con: season.leaderboard(con, "kills", limit=0), "limit"),
    (lambda con: season.player_trend(con, "x", ["rank"]), "unknown metric 'rank'"),
    (lambda con: season.player_trend(con, "x", []), "at least one metric"),
    (lambda con: season.player_profile(con, "x", best_by="mmr"), "unknown metric 'mmr'"),
    (lambda con: season.player_profile(con, "' OR 1=1 --"), "no player named"),
    (lambda con: season.selected_matches(con, LastMatches(player="Nobody", count=3)), "no player named 'Nobody'"),
    (lambda con: season.god_stats(con, player="Robert'); DROP TABLE players;--"), "no player named"),
])
def test_refusals(con, call, message):
    with pytest.raises(SeasonError, match=message) as caught:
        call(con)
    assert "\n" not in str(caught.value)


def test_player_missing_from_the_selection(con, season_matches):
    ordered = start_order(season_matches)
    absent = next(p for p in ROSTER if p not in ordered[0].truth["players"])
    with pytest.raises(SeasonError, match="in matches "):
        season.player_profile(con, absent, MatchList(match_ids=(ordered[0].match_id,)))


def test_an_empty_warehouse_has_an_empty_season(tmp_path):
    from combat_analysis.warehouse.store import open_warehouse

    con = open_warehouse(tmp_path)
    assert season.selected_matches(con) == ()
    assert season.player_profiles(con) == ()
    assert season.god_stats(con) == season.role_stats(con) == ()
    assert season.leaderboard(con, "kills").rows == ()


def test_describe_names_the_selection():
    assert season.describe(ALL_MATCHES) == "all matches"
    assert season.describe(LastMatches(player="Zoë", count=10)) == "Zoë's last 10 matches"
    assert season.describe(LastMatches(player="Zoë", count=1)) == "Zoë's last 1 match"
    assert season.describe(DateRange.days(date(2025, 3, 1), date(2025, 3, 7))) == \
        "matches started from 2025-03-01 00:00 before 2025-03-08 00:00"
    assert season.describe(MatchList(match_ids=("a", "b"))) == "matches a, b"
