"""The warehouse agrees with every METRICS.md figure computed independently for the sample match."""

from __future__ import annotations

import pytest

from tests.support.paths import SAMPLE_MATCH_ID

PLAYER_METRICS = {
    # truth key -> player_stats column
    "damage_dealt": "damage_dealt", "damage_to_players": "damage_to_players", "damage_taken": "damage_taken",
    "mitigated": "damage_mitigated", "healing_done": "healing_done", "healing_received": "healing_received",
    "crits": "crits", "kills": "kills", "deaths": "deaths", "assists": "assists", "gold": "gold",
    "experience": "experience", "cc_applied": "cc_applied", "kda": "kda", "gpm": "gpm", "dpm": "dpm",
    "team": "team", "role": "role", "god": "god",
}


def stats_by_player(con) -> dict[str, dict]:
    cur = con.execute("SELECT * FROM player_stats")
    names = [d[0] for d in cur.description]
    return {row[1]: dict(zip(names, row, strict=True)) for row in cur.fetchall()}


def test_match_clock_and_winner(sample_con, truth):
    match_id, started, duration, winner = sample_con.execute(
        "SELECT match_id, started_at, duration_s, winner_team FROM matches").fetchone()
    assert match_id == SAMPLE_MATCH_ID
    assert started.isoformat() == truth["match_start"] == "2025-03-02T19:18:07"
    assert duration == truth["duration_seconds"] == 1919
    assert winner == truth["winner"] == 2


def test_every_player_metric_matches_truth(sample_con, truth):
    stats = stats_by_player(sample_con)
    assert set(stats) == set(truth["players"])
    for player, expected in truth["players"].items():
        for key, column in PLAYER_METRICS.items():
            want, got = expected[key], stats[player][column]
            if isinstance(want, float) and key in ("kda", "gpm", "dpm"):
                assert got == pytest.approx(want, rel=1e-9), (player, key)
            else:
                assert got == want, (player, key, got, want)


def test_build_orders_and_abilities_match_truth(sample_con, truth):
    for player, expected in truth["players"].items():
        items = [r[0] for r in sample_con.execute(
            "SELECT item FROM purchases WHERE player = ? ORDER BY seq", [player]).fetchall()]
        assert items == expected["items"], player
        abilities = dict(sample_con.execute(
            "SELECT ability, sum(amount) FROM damage WHERE source = ? GROUP BY ability", [player]).fetchall())
        assert abilities == expected["abilities"], player


def test_team_totals(sample_con, truth):
    rows = sample_con.execute("""
        SELECT team, sum(kills), sum(deaths), sum(gold), sum(experience), sum(damage_dealt), sum(healing_done)
        FROM player_stats GROUP BY team ORDER BY team""").fetchall()
    for team, kills, deaths, gold, xp, dmg, heal in rows:
        want = truth["teams"][str(team)]
        assert (kills, deaths, gold, xp, dmg, heal) == (
            want["kills"], want["deaths"], want["gold"], want["experience"], want["damage_dealt"],
            want["healing_done"])


def test_kills_with_assists_and_first_blood(sample_con, truth):
    kills = sample_con.execute("""
        SELECT killer, victim, match_second, assists FROM kills WHERE is_player_kill ORDER BY line_no""").fetchall()
    expected = [(k["killer"], k["victim"], k["second"], sorted(k["assists"])) for k in truth["kills"]]
    assert [(k, v, s, list(a)) for k, v, s, a in kills] == expected
    assert len(kills) == 69
    first = truth["first_blood"]
    assert kills[0][:3] == (first["killer"], first["victim"], first["second"]) == ("Tsunami88", "ÁngelDeth", 232)


def test_objectives(sample_con, truth):
    rows = sample_con.execute(
        "SELECT target, killer, team, match_second FROM objectives ORDER BY line_no").fetchall()
    assert rows == [(o["target"], o["killer"], o["team"], o["second"]) for o in truth["objectives"]]


def test_biggest_hit_and_top_abilities(sample_con, truth):
    hit = sample_con.execute("""
        SELECT source, amount, target, ability FROM damage WHERE source_kind = 'player'
        ORDER BY amount DESC, line_no LIMIT 1""").fetchone()
    big = truth["biggest_hit"]
    assert hit == (big["player"], big["value"], big["target"], big["ability"])
    top = sample_con.execute("""
        SELECT ability, sum(amount) AS total FROM damage WHERE source_kind = 'player'
        GROUP BY ability ORDER BY total DESC LIMIT 10""").fetchall()
    assert [list(t) for t in top] == truth["top_abilities"]


def test_event_counts(sample_con, truth):
    counts = dict(sample_con.execute("SELECT event_type, count(*) FROM events GROUP BY 1").fetchall())
    assert counts == truth["event_counts"]


def test_timeline_and_gold_difference(sample_con, truth):
    final = sample_con.execute(
        "SELECT team1_gold, team2_gold, gold_diff FROM gold_diff ORDER BY minute DESC LIMIT 1").fetchone()
    assert final == (truth["teams"]["1"]["gold"], truth["teams"]["2"]["gold"], 22003.0 - 43647.0)
    minutes = sample_con.execute("SELECT count(DISTINCT minute), min(minute), max(minute) FROM timeline").fetchone()
    assert minutes == (32, 0, 31)
    per_player = dict(sample_con.execute(
        "SELECT player, max(cum_damage) FROM timeline GROUP BY player").fetchall())
    assert per_player == {p: v["damage_dealt"] for p, v in truth["players"].items()}
