"""The full match report: result, scoreboard, leaders, gold curve, objectives, team fights, MVP, player cards.

Headline answers come from a standard battery of questions run through the same five-stage pipeline as any
analyst's question, so the report and an ad-hoc answer can never disagree. Only their words are quoted, so they
are answered without charts or report files of their own (drawing those was half a report's time). The
scoreboard and the per-player cards read the warehouse views directly. The report is one `render.Document`,
written as markdown and as a self-contained HTML page by the shared templates; every name from the log is
escaped in both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from combat_analysis.answer import mvp as mvp_rule
from combat_analysis.answer.patterns import team_fights
from combat_analysis.answer.pipeline import answer_question
from combat_analysis.formatting import clock, number
from combat_analysis.render.document import (
    Block,
    Document,
    Figure,
    Heading,
    Item,
    Section,
    bullets,
    code,
    grouped_table,
    para,
    spans,
    strong,
    table,
    to_html,
    to_markdown,
)
from combat_analysis.settings import Lake
from combat_analysis.warehouse.store import open_warehouse

BATTERY = (
    "Which team won the match?",
    "Who dealt the most damage in the match?",
    "Who healed the most?",
    "Who got first blood?",
    "Which player had the best KDA?",
)

# MVP: the catalog's `mvp_score` rule, shared with the planner's "who was the MVP" (answer.mvp).
MVP_FORMULA = mvp_rule.formula_text()


@dataclass(frozen=True)
class MatchReport:
    match_id: str
    markdown_path: Path
    html_path: Path
    markdown: str
    charts: dict[str, Path]
    mvp: str
    mvp_score: float
    answers: tuple[tuple[str, str], ...] = ()
    winner_team: int | None = None
    duration_s: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    chart_info: dict[str, Chart] = field(default_factory=dict)  # each chart's path, title and alt text


def _rows(con, sql: str, params: list | None = None) -> list[dict[str, Any]]:
    cursor = con.execute(sql, params or [])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def mvp_scores(scoreboard: list[dict[str, Any]], objectives_by_player: dict[str, int]) -> list[tuple[str, float]]:
    """Players by MVP score (see MVP_FORMULA), best first; ties broken by name for a stable answer."""
    return mvp_rule.mvp_ranking(mvp_rule.scoreboard_stats(scoreboard, objectives_by_player))


def _answer_battery(warehouse_root: Lake | Path, match_id: str, out_dir: Path, handles_dir: Path,
                    planner) -> list[tuple[str, str]]:
    answers = []
    for question in BATTERY:
        pkg = answer_question(question, warehouse_root=warehouse_root, match_id=match_id,
                              artifacts_dir=out_dir / "battery", handles_dir=handles_dir, planner=planner,
                              followups=False, answer_only=True)
        answers.append((question, pkg.response.direct_answer if pkg.response else "no answer"))
    return answers


@dataclass(frozen=True)
class Chart:
    path: Path
    title: str
    alt: str  # the chart's data in words


def _charts(con, out: Path, scoreboard, objectives) -> dict[str, Chart]:
    # lazy: matplotlib only once a report is drawn, never on loading the definitions
    from combat_analysis.charts import draw as charts

    made: dict[str, Chart] = {}
    ranked = sorted(scoreboard, key=lambda p: -p["damage_dealt"])
    title = "Damage dealt by player"
    made["damage"] = Chart(charts.bar_h(
        out / "damage_by_player.png", [p["player"] for p in ranked], [p["damage_dealt"] for p in ranked],
        title=title, xlabel="damage dealt", colors=[charts.team_color(p["team"]) for p in ranked]), title,
        f"Horizontal bar chart of damage dealt by player, largest first, {len(ranked)} bars: "
        + ", ".join(f"{p['player']} {number(p['damage_dealt'])}" for p in ranked[:3]) + ".")
    gold = _rows(con, "SELECT minute, gold_diff FROM gold_diff ORDER BY minute")
    markers = [(o["match_second"] / 60, o["target"], charts.team_color(o["team"])) for o in objectives
               if o["objective"] in ("titan", "phoenix", "fire giant")]
    if gold:
        title = "Team gold difference (team 1 − team 2)"
        made["gold_diff"] = Chart(charts.gold_diff_chart(
            out / "gold_difference.png", [g["minute"] for g in gold], [g["gold_diff"] for g in gold],
            title=title, markers=markers), title,
            f"Line chart of team 1's gold minus team 2's over minutes {gold[0]['minute']} to {gold[-1]['minute']}, "
            f"with {len(markers)} Phoenix, Fire Giant and Titan kills marked; at minute {gold[-1]['minute']} it "
            f"stands at {number(gold[-1]['gold_diff'])}.")
    kills = [(k["match_second"], k["killer_team"]) for k in
             _rows(con, "SELECT match_second, killer_team FROM kills WHERE is_player_kill ORDER BY line_no")]
    title = "Kills and objectives"
    made["timeline"] = Chart(charts.event_timeline(
        out / "kills_and_objectives.png", kills,
        [(o["match_second"], o["target"], o["team"] or 0) for o in objectives], title=title), title,
        f"Timeline of {len(kills)} player kills by the killer's team and {len(objectives)} objectives over the match.")
    return made


SCOREBOARD = ("player", "role", "god", "K", "D", "A", "KDA", "damage", "to gods", "healing", "mitigated", "gold",
              "XP")


def _scoreboard(scoreboard: list[dict[str, Any]], winner: int | None) -> Block:
    """The players grouped by team (a caption per team instead of a team column), so the scoreboard fits a
    laptop screen with its columns aligned."""
    teams = sorted({p["team"] for p in scoreboard}, key=lambda t: (t is None, str(t)))

    def caption(team) -> str:
        if team is None:
            return "No team recorded"
        return f"Team {team}" + (" (won)" if winner is not None and team == winner else "")

    return grouped_table(SCOREBOARD, ((caption(team), (
        (p["player"], p["role"], p["god"], p["kills"], p["deaths"], p["assists"], f"{p['kda']:.2f}",
         number(p["damage_dealt"]), number(p["damage_to_players"]), number(p["healing_done"]),
         number(p["damage_mitigated"]), number(p["gold"]), number(p["experience"]))
        for p in scoreboard if p["team"] == team)) for team in teams))


def _player_cards(scoreboard, ranking, best_of, build_of) -> list[Block]:
    score = dict(ranking)
    blocks: list[Block] = []
    for p in scoreboard:
        blocks += [
            Heading(f"{p['player']} ({p['god']}, {p['role']}, team {p['team']})"),
            para(f"{p['kills']}/{p['deaths']}/{p['assists']}, {number(p['damage_dealt'])} damage, "
                 f"{number(p['gold'])} gold, MVP score {number(score[p['player']], 2)}."),
            para("Best abilities: " + (", ".join(best_of.get(p["player"], [])) or "none") + "."),
            para("Build order: " + (" → ".join(build_of.get(p["player"], [])) or "no purchases") + "."),
        ]
    return blocks


def build_match_report(warehouse_root: Lake | Path, match_id: str, out_dir: Path, *, handles_dir: Path | None = None,
                       planner=None, battery: bool = True) -> MatchReport:
    """Write `<out_dir>/report.md` and a self-contained `<out_dir>/report.html` for one match."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    con = open_warehouse(warehouse_root, match_id)
    match = _rows(con, "SELECT * FROM matches")[0]
    scoreboard = _rows(con, "SELECT * FROM player_stats ORDER BY team, kda DESC, player")
    objectives = _rows(con, "SELECT * FROM objectives ORDER BY line_no")
    taken = {r["killer"]: r["n"] for r in _rows(
        con, "SELECT killer, count(*) AS n FROM objectives WHERE killer_kind = 'player' GROUP BY killer")}
    ranking = mvp_scores(scoreboard, taken)
    mvp, mvp_score = ranking[0] if ranking else ("nobody", 0.0)
    fights = team_fights(con)
    made = _charts(con, out, scoreboard, objectives)
    answers = _answer_battery(warehouse_root, match_id, out, Path(handles_dir or out / "handles"),
                              planner) if battery else []
    abilities = _rows(con, """
        SELECT source AS player, ability, sum(amount) AS damage,
               row_number() OVER (PARTITION BY source ORDER BY sum(amount) DESC, ability) AS rank
        FROM damage WHERE source_kind = 'player' GROUP BY source, ability QUALIFY rank <= 3""")
    builds = _rows(con, "SELECT player, list(item ORDER BY seq) AS items FROM purchases GROUP BY player")
    build_of = {b["player"]: b["items"] for b in builds}
    best_of: dict[str, list[str]] = {}
    for a in sorted(abilities, key=lambda a: (a["player"], a["rank"])):
        best_of.setdefault(a["player"], []).append(f"{a['ability']} ({number(a['damage'])})")

    winner = match["winner_team"]
    duration = match["duration_s"] or 0
    length = clock(duration)
    result = ((strong(f"Team {winner} won"), f" after {length}") if winner else
              (strong("Winner unknown"), f": no Titan fell in this log, which runs {length}"))
    lead = (
        para(*result, f" (started {match['started_at']}, source ", code(match["source_file"]), ")."),
        para(strong(f"MVP: {mvp}"), f" (score {number(mvp_score, 2)}; formula: {MVP_FORMULA})."),
    )
    sections = []
    if answers:
        sections.append(Section("Headlines", (bullets(Item(spans([a]), lead=q) for q, a in answers),)))
    sections.append(Section("Scoreboard", (_scoreboard(scoreboard, winner),)))
    sections.append(Section("Charts", tuple(Figure(c.path, c.alt, c.title) for c in made.values())))
    sections.append(Section("Objectives", (table(("time", "objective", "taken by", "team"), (
        (clock(o["match_second"]), o["target"], o["killer"], o["team"] or "unknown") for o in objectives)),)
        if objectives else (para("No objective fell."),)))
    fight_blocks: list[Block] = [para("No fight with three or more deaths.")]
    if fights:
        fight_blocks = [para(fights.description), table(
            ("fight", "from", "to", "deaths", "team 1 lost", "team 2 lost", "won by"), (
                (f["fight"], clock(f["start_second"]), clock(f["end_second"]), f["deaths"],
                 f["team1_deaths"], f["team2_deaths"], f"team {f['won_by_team']}" if f["won_by_team"] else "even")
                for f in fights.rows))]
    sections.append(Section("Team fights", tuple(fight_blocks)))
    sections.append(Section("Players", tuple(_player_cards(scoreboard, ranking, best_of, build_of))))
    doc = Document(f"Match report: {match_id}", lead, tuple(sections), base=out)
    markdown = to_markdown(doc)
    md_path = out / "report.md"
    md_path.write_text(markdown, encoding="utf-8")
    html_path = out / "report.html"
    html_path.write_text(to_html(doc), encoding="utf-8")
    return MatchReport(match_id=match_id, markdown_path=md_path, html_path=html_path, markdown=markdown,
                       charts={name: c.path for name, c in made.items()}, mvp=mvp, mvp_score=mvp_score,
                       answers=tuple(answers), winner_team=winner, duration_s=duration, chart_info=made)
