"""The warehouse against `../shared/tools/truth.py`, an independent calculator of METRICS.md: one set of
assertions for the sample, the corpus and simulated matches alike."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.support.paths import SHARED

sys.path.insert(0, str(SHARED / "tools"))
import truth as truth_tool  # noqa: E402

# a minion as a killer names it (METRICS.md: Swordsman, Archer, Brute and their Champion and Fire variants)
MINION_NAME = re.compile(r"^(?:Fire\s+)?(?:Champion\s+)?(?:Swordsman|Archer|Brute)$")
CORPUS = sorted((SHARED / "data" / "corpus").glob("match_*.log.gz"))

PLAYER_METRICS = {
    # truth key -> player_stats column
    "team": "team", "role": "role", "god": "god",
    "damage_dealt": "damage_dealt", "damage_to_players": "damage_to_players",
    "damage_to_structures": "damage_to_structures", "damage_to_bosses": "damage_to_bosses",
    "damage_taken": "damage_taken", "mitigated": "damage_mitigated", "healing_done": "healing_done",
    "healing_received": "healing_received", "crits": "crits", "biggest_hit": "biggest_hit", "kills": "kills",
    "deaths": "deaths", "assists": "assists", "gold": "gold", "experience": "experience",
    "cc_applied": "cc_applied", "kda": "kda", "gpm": "gpm", "dpm": "dpm",
}
RATIOS = {"kda", "gpm", "dpm"}  # truth.py rounds these to four decimals


def truth_of(log: Path) -> dict:
    return truth_tool.figures(*truth_tool.load(str(log)))


def player_at(truth: dict, team: int, role: str) -> str:
    """The player of `truth` who played `role` for `team`."""
    return next(p for p, row in truth["players"].items() if row["team"] == team and row["role"] == role)


def rows(con, sql: str, params: list | None = None) -> list[tuple]:
    return con.execute(sql, params or []).fetchall()


def assert_player_figures(con, truth: dict) -> None:
    """Every player figure of every player, exactly (ratios to truth.py's four decimals)."""
    cur = con.execute("SELECT * FROM player_stats")
    names = [d[0] for d in cur.description]
    stats = {row[1]: dict(zip(names, row, strict=True)) for row in cur.fetchall()}
    assert set(stats) == set(truth["players"])
    for player, expected in truth["players"].items():
        for key, column in PLAYER_METRICS.items():
            want, got = expected[key], stats[player][column]
            if key in RATIOS:
                assert got == pytest.approx(want, abs=5e-5), (player, key, got, want)
            else:
                assert got == want, (player, key, got, want)
        items = [r[0] for r in rows(con, "SELECT item FROM purchases WHERE player = ? ORDER BY seq", [player])]
        assert items == expected["items"], player
        abilities = dict(rows(con, "SELECT ability, sum(amount) FROM damage WHERE source = ? GROUP BY ability",
                              [player]))
        assert abilities == expected["abilities"], player


def assert_match_figures(con, truth: dict) -> None:
    """The match's clock, winner, kills with assists, objectives, biggest hit, top abilities, event counts,
    team totals and gold curve, exactly."""
    match_id, started, duration, winner = rows(
        con, "SELECT match_id, started_at, duration_s, winner_team FROM matches")[0]
    assert match_id == str(truth["match_id"]) and isinstance(match_id, str)  # an id written as a number too
    assert (started.isoformat(), duration, winner) == (truth["match_start"], truth["duration_seconds"],
                                                       truth["winner"])
    kills = rows(con, "SELECT killer, victim, match_second, assists FROM kills WHERE is_player_kill ORDER BY line_no")
    assert [(k, v, s, list(a)) for k, v, s, a in kills] == [
        (k["killer"], k["victim"], k["second"], k["assists"]) for k in truth["kills"]]
    assert rows(con, "SELECT target, killer, team, match_second FROM objectives ORDER BY line_no") == [
        (o["target"], o["killer"], o["team"], o["second"]) for o in truth["objectives"]]
    hit = rows(con, """SELECT source, amount, target, ability FROM damage WHERE source_kind = 'player'
                       ORDER BY amount DESC, line_no LIMIT 1""")[0]
    big = truth["biggest_hit"]
    assert hit == (big["player"], big["value"], big["target"], big["ability"])
    top = rows(con, """SELECT ability, sum(amount) AS total FROM damage WHERE source_kind = 'player'
                       GROUP BY ability ORDER BY total DESC, ability""")
    assert [list(t) for t in top] == truth["top_abilities"]
    counts = dict(rows(con, "SELECT event_type, count(*) FROM events GROUP BY 1"))
    assert counts == {k: v for k, v in truth["event_counts"].items() if v}
    for team, kills_, deaths, gold, xp, dealt, healed in rows(con, """
            SELECT team, sum(kills), sum(deaths), sum(gold), sum(experience), sum(damage_dealt), sum(healing_done)
            FROM player_stats GROUP BY team ORDER BY team"""):
        want = truth["teams"][str(team)]
        assert (kills_, deaths, gold, xp, dealt, healed) == (
            want["kills"], want["deaths"], want["gold"], want["experience"], want["damage_dealt"],
            want["healing_done"]), team
    diffs = [r[0] for r in rows(con, "SELECT gold_diff FROM gold_diff ORDER BY minute")]
    assert diffs == truth["team_gold_difference_by_minute"]


def npc_killing_blows(log: Path, kind: str) -> Counter:
    """Killing blows by each player on minions (METRICS.md's minion names) or on the other non-players that are no
    structure nor boss (the jungle monsters), from the raw log as truth.py reads it."""
    events, _ = truth_tool.load(str(log))
    players = {e["sourceowner"] for e in events if e.get("type") == "RoleAssigned"}

    def of_kind(target: str) -> bool:
        minion = bool(MINION_NAME.match(target))
        return truth_tool.entity_kind(target, players) == "npc" and minion == (kind == "minion")
    return Counter(e["sourceowner"] for e in events if e.get("type") == "KillingBlow" and e.get("sourceowner") in players
                   and of_kind(e.get("targetowner") or ""))
