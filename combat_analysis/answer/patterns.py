"""Match patterns computed from the warehouse: first blood, kill streaks, team fights, the objective
timeline, stomp or comeback from the gold difference curve, and death recaps.

Each function takes a match-scoped warehouse connection and returns a `Pattern`: its typed facts
(`answer.facts`), their sentence, and the rows they rest on. The analyst stores those rows in the package
(`data.transformed_data`), so every number a pattern states can be traced, and keeps the pattern only when its
facts bear on the question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from combat_analysis.answer import facts as F
from combat_analysis.contracts.package import Significance
from combat_analysis.warehouse.handles import json_row

TEAM_FIGHT_GAP_S = 15  # deaths closer than this belong to the same fight
TEAM_FIGHT_MIN_DEATHS = 3
DEATH_RECAP_WINDOW_S = 10
STREAK_MIN_KILLS = 3
GOLD_COMEBACK_MIN = 1000  # the winner trailed by at least this much gold (and a tenth of its final margin)


@dataclass(frozen=True)
class Pattern:
    id: str
    kind: str
    facts: tuple[F.Fact, ...]
    significance: Significance
    rows: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    columns: tuple[str, ...] = ()

    @property
    def description(self) -> str:
        return F.say_all(self.facts)


def _rows(con, sql: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    cursor = con.execute(sql, params or None)
    names = [d[0] for d in cursor.description]
    return [json_row(dict(zip(names, row, strict=True))) for row in cursor.fetchall()]


def player_kills(con) -> list[dict[str, Any]]:
    """Kills of a player by a player, in order: the kills METRICS.md counts, drawn as each team's kills."""
    return _rows(con, """
        SELECT match_second, killer, killer_team, victim, victim_team, assists, location_x, location_y
        FROM kills WHERE is_player_kill ORDER BY match_second, line_no""")


def deaths_to_the_map(con) -> list[dict[str, Any]]:
    """Deaths of players to non-players (towers, phoenixes, minions, jungle camps, bosses), in order."""
    return _rows(con, """
        SELECT match_second, killer, killer_kind, victim, victim_team FROM kills
        WHERE victim_kind = 'player' AND NOT is_player_kill ORDER BY match_second, line_no""")


def player_deaths(con) -> list[dict[str, Any]]:
    """Every death of a player, from any source, in order."""
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
    fact = F.FirstBlood(killer=fb["killer"], killer_team=fb["killer_team"], victim=fb["victim"],
                        second=fb["match_second"])
    return Pattern(id="first_blood", kind="first_blood", facts=(fact,), significance="medium", rows=tuple(rows),
                   columns=tuple(rows[0]))


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
    fact = F.Streak(player=player, kills=kills, start=start, end=end)
    return Pattern(id="kill_streaks", kind="kill_streak", facts=(fact,), significance="medium", rows=tuple(rows),
                   columns=("player", "streak", "start_second", "end_second"))


def _fight_groups(deaths: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Deaths grouped into fights: a gap of more than TEAM_FIGHT_GAP_S seconds starts a new one."""
    groups: list[list[dict[str, Any]]] = []
    for d in deaths:
        if groups and d["match_second"] - groups[-1][-1]["match_second"] <= TEAM_FIGHT_GAP_S:
            groups[-1].append(d)
        else:
            groups.append([d])
    return [g for g in groups if len(g) >= TEAM_FIGHT_MIN_DEATHS]


def _fight_row(number: int, group: list[dict[str, Any]]) -> dict[str, Any]:
    team1 = sum(1 for d in group if d["victim_team"] == 1)
    team2 = sum(1 for d in group if d["victim_team"] == 2)
    people = {d["killer"] for d in group} | {d["victim"] for d in group} | {
        a for d in group for a in (d["assists"] or [])}
    return {"fight": number, "start_second": group[0]["match_second"], "end_second": group[-1]["match_second"],
            "deaths": len(group), "team1_deaths": team1, "team2_deaths": team2, "participants": len(people),
            "won_by_team": 1 if team2 > team1 else 2 if team1 > team2 else None}


def team_fights(con) -> Pattern | None:
    """Player deaths (from any source) grouped into fights of at least TEAM_FIGHT_MIN_DEATHS deaths."""
    fights = [_fight_row(i, g) for i, g in enumerate(_fight_groups(player_deaths(con)), start=1)]
    if not fights:
        return None
    won = (sum(1 for f in fights if f["won_by_team"] == 1), sum(1 for f in fights if f["won_by_team"] == 2))
    biggest = max(fights, key=lambda f: (f["deaths"], -f["start_second"]))
    fact = F.Fights(fights=len(fights), won=won, biggest=biggest["fight"], biggest_second=biggest["start_second"],
                    biggest_deaths=biggest["deaths"], gap_s=TEAM_FIGHT_GAP_S, min_deaths=TEAM_FIGHT_MIN_DEATHS)
    return Pattern(id="team_fights", kind="team_fight", facts=(fact,),
                   significance="high" if len(fights) >= 3 else "medium", rows=tuple(fights), columns=tuple(fights[0]))


def objective_facts(rows: list[dict[str, Any]]) -> tuple[F.Fact, ...]:
    """Who took how many of the objectives (the team that took more; both when level), and the last to fall."""
    per_team = {t: sum(1 for r in rows if r["team"] == t) for t in (1, 2)}
    teams = (1, 2) if per_team[1] == per_team[2] else (max(per_team, key=lambda t: per_team[t]),)
    tallies = tuple(F.Tally(team=t, verb="took", noun="objective", count=per_team[t], of=len(rows)) for t in teams)
    last = rows[-1]
    return (*tallies, F.First(ordinal="last", noun="objective", second=last["match_second"], thing=last["target"],
                              taker=last["team"], by=last["killer"]))


def objective_timeline(con) -> Pattern | None:
    rows = _rows(con, """
        SELECT match_second, minute, objective, target, killer, team FROM objectives
        ORDER BY match_second, line_no""")
    if not rows:
        return None
    return Pattern(id="objective_timeline", kind="objectives", facts=objective_facts(rows), significance="medium",
                   rows=tuple(rows), columns=tuple(rows[0]))


def swing_fact(curve: list[dict[str, Any]], winner_team: int | None) -> F.GoldSwing:
    """The gold story told for the winner (or, with no winner known, the team that finished ahead): its final
    lead, signed (a winner may finish behind on gold), and the other team's biggest lead."""
    final = float(curve[-1]["gold_diff"])
    team = winner_team or (1 if final >= 0 else 2)
    sign = 1 if team == 1 else -1
    rival_best = min(curve, key=lambda r: sign * r["gold_diff"])  # the other team's biggest lead
    rival_lead = max(-sign * float(rival_best["gold_diff"]), 0.0)
    final_lead = sign * final
    shape: F.SwingShape = "lead_changes"
    if rival_lead <= 0:
        shape = "stomp"
    elif rival_lead >= GOLD_COMEBACK_MIN and rival_lead >= 0.1 * abs(final_lead):
        shape = "comeback"
    return F.GoldSwing(team=team, won=winner_team is not None, final_lead=final_lead, rival_lead=rival_lead,
                       rival_minute=rival_best["minute"], shape=shape)


def swing_of(row: dict[str, Any]) -> F.GoldSwing:
    """The gold swing fact of a `gold_swing` pattern row."""
    lead = float(row["final_gold_lead"]) * (1 if row["final_gold_ahead"] else -1)
    return F.GoldSwing(team=row["team"], won=bool(row["won"]), final_lead=lead, rival_lead=row["opponent_best_lead"],
                       rival_minute=row["opponent_best_minute"], shape=row["shape"])


def streak_of(row: dict[str, Any]) -> F.Streak:
    """The streak fact of a `kill_streaks` pattern row."""
    return F.Streak(player=row["player"], kills=row["streak"], start=row["start_second"], end=row["end_second"])


def gold_swing(con) -> Pattern | None:
    """Stomp or comeback, read from the team gold difference curve (team 1 minus team 2)."""
    curve = _rows(con, "SELECT minute, team1_gold, team2_gold, gold_diff FROM gold_diff ORDER BY minute")
    if not curve:
        return None
    winner = _rows(con, "SELECT winner_team FROM matches")
    fact = swing_fact(curve, winner[0]["winner_team"] if winner else None)
    rows = [{"team": fact.team, "won": fact.won, "final_gold_lead": abs(fact.final_lead),
             "final_gold_ahead": fact.final_lead >= 0, "opponent_best_lead": fact.rival_lead,
             "opponent_best_minute": fact.rival_minute, "shape": fact.shape}]
    return Pattern(id="gold_swing", kind=fact.shape, facts=(fact,), significance="high", rows=tuple(rows),
                   columns=tuple(rows[0]))


RECAP_SQL = f"""
    WITH deaths AS (
        SELECT line_no, match_second, killer, victim, location_x, location_y FROM kills
        WHERE victim_kind = 'player' AND victim = $player
    ), hits AS (
        SELECT d.line_no, h.source, sum(h.amount) AS amount
        FROM deaths d JOIN damage h ON h.target = d.victim
         AND h.match_second BETWEEN d.match_second - {DEATH_RECAP_WINDOW_S} AND d.match_second
        GROUP BY ALL
    )
    SELECT d.victim, d.match_second, d.killer, d.location_x, d.location_y, coalesce(sum(h.amount), 0) AS damage_taken,
           arg_max(h.source, h.amount) AS top_source, coalesce(max(h.amount), 0) AS top_source_damage,
           count(DISTINCT h.source) AS sources
    FROM deaths d LEFT JOIN hits h ON h.line_no = d.line_no
    GROUP BY d.victim, d.match_second, d.killer, d.location_x, d.location_y, d.line_no
    ORDER BY d.match_second, d.line_no"""


def recap_of(rows: list[dict[str, Any]], shown: int = 0) -> F.Recap:
    """The recap fact of a player's `death_recap` pattern rows (every death, in match order)."""
    deaths = tuple(F.Death(second=r["match_second"], killer=r["killer"], damage_taken=r["damage_taken"],
                           sources=r["sources"], top_source=r["top_source"], top_source_damage=r["top_source_damage"])
                   for r in rows)
    return F.Recap(player=rows[0]["victim"], deaths=deaths, window_s=DEATH_RECAP_WINDOW_S, shown=shown)


def death_recap(con, player: str, shown: int = 0) -> Pattern | None:
    """Every death of a player, from any source, with the damage it took in the DEATH_RECAP_WINDOW_S seconds
    before (match seconds [t-10, t]); the sentence tells the deadliest and lists `shown` of the others."""
    rows = _rows(con, RECAP_SQL, {"player": player})
    if not rows:
        return None
    return Pattern(id="death_recap", kind="death_recap", facts=(recap_of(rows, shown),), significance="medium",
                   rows=tuple(rows), columns=tuple(rows[0]))


def kill_positions(con) -> list[dict[str, Any]]:
    """Where players died, from any source."""
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
                   recap_shown: int = 0) -> list[Pattern]:
    found = [PATTERNS[name](con) for name in names if name in PATTERNS]
    if death_recap_player is not None:
        found.append(death_recap(con, death_recap_player, shown=recap_shown))
    return [p for p in found if p is not None]
