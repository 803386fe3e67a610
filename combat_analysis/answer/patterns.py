"""Match patterns computed from the warehouse: first blood, kill streaks, team fights, the objective
timeline, stomp or comeback from the gold difference curve, and death recaps.

Each function takes a match-scoped warehouse connection and returns a `Pattern`: a sentence plus the rows it
rests on. The analyst stores those rows in the package (`data.transformed_data`), so every number a pattern
states can be traced, and the fidelity check can verify it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from combat_analysis.contracts.package import Significance
from combat_analysis.formatting import clock, count, number
from combat_analysis.warehouse.handles import json_row

TEAM_FIGHT_GAP_S = 15  # deaths closer than this belong to the same fight
TEAM_FIGHT_MIN_DEATHS = 3
DEATH_RECAP_WINDOW_S = 10
STREAK_MIN_KILLS = 3


@dataclass(frozen=True)
class Pattern:
    id: str
    kind: str
    description: str
    significance: Significance
    rows: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    columns: tuple[str, ...] = ()


def _rows(con, sql: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    cursor = con.execute(sql, params or None)
    names = [d[0] for d in cursor.description]
    return [json_row(dict(zip(names, row, strict=True))) for row in cursor.fetchall()]


def player_kills(con) -> list[dict[str, Any]]:
    return _rows(con, """
        SELECT match_second, killer, killer_team, victim, victim_team, assists, location_x, location_y
        FROM kills WHERE victim_kind = 'player' ORDER BY match_second, line_no""")


def first_blood(con) -> Pattern | None:
    rows = _rows(con, """
        SELECT killer, killer_team, victim, victim_team, match_second, assists
        FROM kills WHERE is_player_kill ORDER BY match_second, line_no LIMIT 1""")
    if not rows:
        return None
    fb = rows[0]
    return Pattern(
        id="first_blood", kind="first_blood",
        description=f"First blood: {fb['killer']} (team {fb['killer_team']}) killed {fb['victim']} "
                    f"at {clock(fb['match_second'])}.",
        significance="medium", rows=tuple(rows), columns=tuple(rows[0]))


def kill_streaks(con) -> Pattern | None:
    """The longest run of player kills each player made without dying in between."""
    events = _rows(con, """
        SELECT match_second, line_no, killer, victim, is_player_kill, victim_kind FROM kills
        WHERE is_player_kill OR victim_kind = 'player' ORDER BY match_second, line_no""")
    current: dict[str, list[int]] = {}
    best: dict[str, tuple[int, int, int]] = {}  # player -> (kills, first second, last second)
    for e in events:
        if e["is_player_kill"]:
            run = current.setdefault(e["killer"], [])
            run.append(e["match_second"])
            if len(run) > best.get(e["killer"], (0, 0, 0))[0]:
                best[e["killer"]] = (len(run), run[0], run[-1])
        if e["victim_kind"] == "player":
            current.pop(e["victim"], None)
    streaks = sorted(((p, k, s, t) for p, (k, s, t) in best.items() if k >= STREAK_MIN_KILLS),
                     key=lambda streak: (-streak[1], streak[2]))
    if not streaks:
        return None
    rows = [{"player": p, "streak": k, "start_second": s, "end_second": t} for p, k, s, t in streaks]
    player, kills, start, end = streaks[0]
    return Pattern(
        id="kill_streaks", kind="kill_streak",
        description=f"Longest kill streak: {player} with {kills} kills without dying "
                    f"({clock(start)} to {clock(end)}).",
        significance="medium", rows=tuple(rows), columns=("player", "streak", "start_second", "end_second"))


def team_fights(con) -> Pattern | None:
    """Player deaths grouped into fights: a gap of more than TEAM_FIGHT_GAP_S seconds starts a new one."""
    deaths = player_kills(con)
    groups: list[list[dict[str, Any]]] = []
    for d in deaths:
        if groups and d["match_second"] - groups[-1][-1]["match_second"] <= TEAM_FIGHT_GAP_S:
            groups[-1].append(d)
        else:
            groups.append([d])
    fights: list[dict[str, Any]] = []
    for g in (g for g in groups if len(g) >= TEAM_FIGHT_MIN_DEATHS):
        team1 = sum(1 for d in g if d["victim_team"] == 1)
        team2 = sum(1 for d in g if d["victim_team"] == 2)
        people = {d["killer"] for d in g} | {d["victim"] for d in g} | {a for d in g for a in (d["assists"] or [])}
        fights.append({
            "fight": len(fights) + 1, "start_second": g[0]["match_second"], "end_second": g[-1]["match_second"],
            "deaths": len(g), "team1_deaths": team1, "team2_deaths": team2, "participants": len(people),
            "won_by_team": 1 if team2 > team1 else 2 if team1 > team2 else None,
        })
    if not fights:
        return None
    won = {t: sum(1 for f in fights if f["won_by_team"] == t) for t in (1, 2)}
    biggest = max(fights, key=lambda f: (f["deaths"], -f["start_second"]))
    leader = 1 if won[1] > won[2] else 2
    summary = (f"{len(fights)} team fights (at least {TEAM_FIGHT_MIN_DEATHS} deaths within "
               f"{TEAM_FIGHT_GAP_S} s of each other); team {leader} won {won[leader]} of them. ")
    if won[1] == won[2]:
        summary = (f"{len(fights)} team fights (at least {TEAM_FIGHT_MIN_DEATHS} deaths within "
                   f"{TEAM_FIGHT_GAP_S} s of each other), split evenly between the teams. ")
    summary += (f"The biggest, fight {biggest['fight']} at {clock(biggest['start_second'])}, "
                f"cost {biggest['deaths']} lives.")
    return Pattern(id="team_fights", kind="team_fight", description=summary,
                   significance="high" if len(fights) >= 3 else "medium",
                   rows=tuple(fights), columns=tuple(fights[0]))


def objective_timeline(con) -> Pattern | None:
    rows = _rows(con, """
        SELECT match_second, minute, objective, target, killer, team FROM objectives
        ORDER BY match_second, line_no""")
    if not rows:
        return None
    per_team = {t: sum(1 for r in rows if r["team"] == t) for t in (1, 2)}
    lead = 1 if per_team[1] > per_team[2] else 2
    text = (f"{len(rows)} objectives fell; team {lead} took {per_team[lead]} of them"
            if per_team[1] != per_team[2] else f"{len(rows)} objectives fell, split evenly between the teams")
    last = rows[-1]
    text += f". The last was the {last['target']} at {clock(last['match_second'])}, by {last['killer']}."
    return Pattern(id="objective_timeline", kind="objectives", description=text, significance="medium",
                   rows=tuple(rows), columns=tuple(rows[0]))


def gold_swing(con) -> Pattern | None:
    """Stomp or comeback, read from the team gold difference curve (team 1 minus team 2)."""
    curve = _rows(con, "SELECT minute, team1_gold, team2_gold, gold_diff FROM gold_diff ORDER BY minute")
    if not curve:
        return None
    winner = _rows(con, "SELECT winner_team FROM matches")
    winner_team = winner[0]["winner_team"] if winner else None
    final = curve[-1]["gold_diff"]
    best1 = max(curve, key=lambda r: r["gold_diff"])  # team 1's biggest lead
    best2 = min(curve, key=lambda r: r["gold_diff"])  # team 2's biggest lead
    leader = winner_team or (1 if final > 0 else 2)
    loser_best = best2 if leader == 1 else best1
    loser_lead = -loser_best["gold_diff"] if leader == 1 else loser_best["gold_diff"]
    final_lead = abs(final)
    if loser_lead > 0 and loser_lead >= 0.1 * final_lead and loser_lead >= 1000:
        kind = "comeback"
        text = (f"Comeback: team {leader} was behind by {number(loser_lead)} gold at minute {loser_best['minute']} "
                f"and finished {number(final_lead)} gold ahead.")
    elif loser_lead <= 0:
        kind = "stomp"
        text = (f"Stomp: team {leader} led on gold from start to finish, ending {number(final_lead)} gold ahead "
                f"(team {3 - leader} never led).")
    else:
        kind = "lead_changes"
        text = (f"Team {leader} finished {number(final_lead)} gold ahead; team {3 - leader}'s biggest lead was "
                f"{number(loser_lead)} gold at minute {loser_best['minute']}.")
    rows = [{"team": leader, "final_gold_lead": final_lead, "opponent_best_lead": max(loser_lead, 0),
             "opponent_best_minute": loser_best["minute"], "shape": kind}]
    return Pattern(id="gold_swing", kind=kind, description=text, significance="high", rows=tuple(rows),
                   columns=tuple(rows[0]))


def death_recap(con, player: str | None = None, limit: int = 5) -> Pattern | None:
    """Damage each death took in the DEATH_RECAP_WINDOW_S seconds before it (match seconds [t-10, t])."""
    rows = _rows(con, f"""
        WITH deaths AS (
            SELECT line_no, match_second, killer, victim FROM kills
            WHERE victim_kind = 'player' AND ($player IS NULL OR victim = $player)
        ), hits AS (
            SELECT d.line_no, d.match_second, d.killer, d.victim, h.source, sum(h.amount) AS amount
            FROM deaths d JOIN damage h ON h.target = d.victim
             AND h.match_second BETWEEN d.match_second - {DEATH_RECAP_WINDOW_S} AND d.match_second
            GROUP BY ALL
        )
        SELECT victim, match_second, killer, sum(amount) AS damage_taken,
               arg_max(source, amount) AS top_source, max(amount) AS top_source_damage,
               count(DISTINCT source) AS sources
        FROM hits GROUP BY victim, match_second, killer, line_no
        ORDER BY {"match_second" if player else "damage_taken DESC"} LIMIT {int(limit)}""",
                 {"player": player})
    if not rows:
        return None
    worst = max(rows, key=lambda r: r["damage_taken"])
    who = f"{player}'s deaths" if player else "the deadliest bursts"
    sources = count(worst["sources"], "source")
    text = (f"Death recap ({who}): {worst['victim']} took {number(worst['damage_taken'])} damage from "
            f"{sources} in the {DEATH_RECAP_WINDOW_S} s before dying at "
            f"{clock(worst['match_second'])}, most of it from {worst['top_source']} "
            f"({number(worst['top_source_damage'])}).")
    return Pattern(id="death_recap", kind="death_recap", description=text, significance="medium",
                   rows=tuple(rows), columns=tuple(rows[0]))


def kill_positions(con) -> list[dict[str, Any]]:
    return _rows(con, """
        SELECT match_second, killer_team, victim, location_x, location_y FROM kills
        WHERE victim_kind = 'player' AND location_x IS NOT NULL ORDER BY match_second""")


def map_extent(con) -> dict[str, float] | None:
    rows = _rows(con, """
        SELECT min(location_x) AS x_min, max(location_x) AS x_max, min(location_y) AS y_min,
               max(location_y) AS y_max FROM damage WHERE location_x IS NOT NULL""")
    return rows[0] if rows and rows[0]["x_min"] is not None else None


PATTERNS = {
    "first_blood": first_blood,
    "kill_streaks": kill_streaks,
    "team_fights": team_fights,
    "objective_timeline": objective_timeline,
    "gold_swing": gold_swing,
}


def match_patterns(con, names=tuple(PATTERNS), death_recap_player: str | None = None,
                   recap_limit: int = 5) -> list[Pattern]:
    found = [PATTERNS[name](con) for name in names if name in PATTERNS]
    if death_recap_player is not None or "death_recap" in names:
        found.append(death_recap(con, death_recap_player, limit=recap_limit))
    return [p for p in found if p is not None]
