"""The full match report: result, scoreboard, leaders, gold curve, objectives, team fights, MVP, player cards.

Headline answers come from a standard battery of questions run through the same five-stage pipeline as any
analyst's question, so the report and an ad-hoc answer can never disagree. The scoreboard and the per-player
cards read the warehouse views directly.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from combat_analysis import charts
from combat_analysis import mvp as mvp_rule
from combat_analysis.patterns import team_fights
from combat_analysis.warehouse import open_warehouse

BATTERY = (
    "Which team won the match?",
    "Who dealt the most damage in the match?",
    "Who healed the most?",
    "Who got first blood?",
    "Which player had the best KDA?",
)

# MVP: the catalog's `mvp_score` rule, shared with the planner's "who was the MVP" (combat_analysis.mvp).
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


def _rows(con, sql: str, params: list | None = None) -> list[dict[str, Any]]:
    cursor = con.execute(sql, params or [])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def mvp_scores(scoreboard: list[dict[str, Any]], objectives_by_player: dict[str, int]) -> list[tuple[str, float]]:
    """Players by MVP score (see MVP_FORMULA), best first; ties broken by name for a stable answer."""
    return mvp_rule.mvp_ranking(mvp_rule.scoreboard_stats(scoreboard, objectives_by_player))


def _fmt(value: float) -> str:
    return f"{round(value):,}"


def _minute_second(second: int) -> str:
    return f"{second // 60}:{second % 60:02d}"


def _answer_battery(warehouse_root: Path, match_id: str, out_dir: Path, handles_dir: Path,
                    planner) -> list[tuple[str, str]]:
    from combat_analysis.pipeline import answer_question

    answers = []
    for question in BATTERY:
        pkg = answer_question(question, warehouse_root=warehouse_root, match_id=match_id,
                              artifacts_dir=out_dir / "battery", handles_dir=handles_dir, planner=planner,
                              followups=False)
        answers.append((question, pkg.response.direct_answer if pkg.response else "no answer"))
    return answers


def _charts(con, out: Path, scoreboard, objectives) -> dict[str, Path]:
    made: dict[str, Path] = {}
    ranked = sorted(scoreboard, key=lambda p: -p["damage_dealt"])
    made["damage"] = charts.bar_h(
        out / "damage_by_player.png", [p["player"] for p in ranked], [p["damage_dealt"] for p in ranked],
        title="Damage dealt by player", xlabel="damage", colors=[charts.team_color(p["team"]) for p in ranked])
    gold = _rows(con, "SELECT minute, gold_diff FROM gold_diff ORDER BY minute")
    markers = [(o["match_second"] / 60, o["target"], charts.team_color(o["team"])) for o in objectives
               if o["objective"] in ("titan", "phoenix", "fire giant")]
    if gold:
        made["gold_diff"] = charts.gold_diff_chart(
            out / "gold_difference.png", [g["minute"] for g in gold], [g["gold_diff"] for g in gold],
            title="Team gold difference (team 1 − team 2)", markers=markers)
    kills = [(k["match_second"], k["killer_team"]) for k in
             _rows(con, "SELECT match_second, killer_team FROM kills WHERE is_player_kill ORDER BY line_no")]
    made["timeline"] = charts.event_timeline(
        out / "kills_and_objectives.png", kills,
        [(o["match_second"], o["target"], o["team"] or 0) for o in objectives],
        title="Kills and objectives")
    return made


def build_match_report(warehouse_root: Path, match_id: str, out_dir: Path, *, handles_dir: Path | None = None,
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
    chart_paths = _charts(con, out, scoreboard, objectives)
    answers = _answer_battery(Path(warehouse_root), match_id, out, Path(handles_dir or out / "handles"),
                              planner) if battery else []
    abilities = _rows(con, """
        SELECT source AS player, ability, sum(amount) AS damage,
               row_number() OVER (PARTITION BY source ORDER BY sum(amount) DESC, ability) AS rank
        FROM damage WHERE source_kind = 'player' GROUP BY source, ability QUALIFY rank <= 3""")
    builds = _rows(con, "SELECT player, list(item ORDER BY seq) AS items FROM purchases GROUP BY player")
    build_of = {b["player"]: b["items"] for b in builds}
    best_of: dict[str, list[str]] = {}
    for a in sorted(abilities, key=lambda a: (a["player"], a["rank"])):
        best_of.setdefault(a["player"], []).append(f"{a['ability']} ({_fmt(a['damage'])})")

    winner = match["winner_team"]
    duration = match["duration_s"] or 0
    lines = [f"# Match report: {match_id}", ""]
    result = f"**Team {winner} won**" if winner else "**Winner unknown**: no Titan fell in this log"
    lines += [f"{result} after {duration // 60} min {duration % 60:02d} s "
              f"(started {match['started_at']}, source `{match['source_file']}`).", ""]
    lines += [f"**MVP: {mvp}** (score {mvp_score:,.2f}; formula: {MVP_FORMULA}).", ""]
    if answers:
        lines += ["## Headlines", ""] + [f"- **{q}** {a}" for q, a in answers] + [""]
    lines += ["## Scoreboard", "",
              "| team | player | role | god | K | D | A | KDA | damage | to gods | healing | mitigated | gold | XP |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in scoreboard:
        lines.append(f"| {p['team']} | {p['player']} | {p['role']} | {p['god']} | {p['kills']} | {p['deaths']} | "
                     f"{p['assists']} | {p['kda']:.2f} | {_fmt(p['damage_dealt'])} | {_fmt(p['damage_to_players'])} | "
                     f"{_fmt(p['healing_done'])} | {_fmt(p['damage_mitigated'])} | {_fmt(p['gold'])} | "
                     f"{_fmt(p['experience'])} |")
    lines += ["", "## Charts", ""] + [f"![{name}]({path.name})" for name, path in chart_paths.items()] + [""]
    lines += ["## Objectives", "", "| time | objective | taken by | team |", "|---|---|---|---|"]
    lines += [f"| {_minute_second(o['match_second'])} | {o['target']} | {o['killer']} | {o['team'] or 'unknown'} |"
              for o in objectives] or ["| | none | | |"]
    lines += ["", "## Team fights", ""]
    if fights:
        lines += [fights.description, "", "| fight | from | to | deaths | team 1 lost | team 2 lost | won by |",
                  "|---|---|---|---|---|---|---|"]
        lines += [f"| {f['fight']} | {_minute_second(f['start_second'])} | {_minute_second(f['end_second'])} | "
                  f"{f['deaths']} | {f['team1_deaths']} | {f['team2_deaths']} | "
                  f"{'team ' + str(f['won_by_team']) if f['won_by_team'] else 'even'} |" for f in fights.rows]
    else:
        lines.append("No fight with three or more deaths.")
    lines += ["", "## Players", ""]
    for p in scoreboard:
        lines += [f"### {p['player']} ({p['god']}, {p['role']}, team {p['team']})", "",
                  f"{p['kills']}/{p['deaths']}/{p['assists']}, {_fmt(p['damage_dealt'])} damage, "
                  f"{_fmt(p['gold'])} gold, MVP score {dict(ranking)[p['player']]:,.2f}.", "",
                  "Best abilities: " + (", ".join(best_of.get(p["player"], [])) or "none") + ".", "",
                  "Build order: " + (" → ".join(build_of.get(p["player"], [])) or "no purchases") + ".", ""]
    markdown = "\n".join(lines)
    md_path = out / "report.md"
    md_path.write_text(markdown, encoding="utf-8")
    html_path = out / "report.html"
    html_path.write_text(_html(match_id, markdown, chart_paths), encoding="utf-8")
    return MatchReport(match_id=match_id, markdown_path=md_path, html_path=html_path, markdown=markdown,
                       charts=chart_paths, mvp=mvp, mvp_score=mvp_score, answers=tuple(answers),
                       winner_team=winner, duration_s=duration)


def _inline(text: str) -> str:
    out = html.escape(text)
    parts = out.split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts)).replace("`", "")


def _table_html(rows: list[list[str]]) -> str:
    head, *body = rows

    def cell(text: str) -> str:
        numeric = text.replace(",", "").replace(".", "", 1).lstrip("-").isdigit()
        return f'<td class="num">{_inline(text)}</td>' if numeric else f"<td>{_inline(text)}</td>"

    return ('<div class="table-wrap"><table><thead><tr>' + "".join(f"<th>{_inline(c)}</th>" for c in head)
            + "</tr></thead><tbody>" + "".join("<tr>" + "".join(cell(c) for c in r) + "</tr>" for r in body)
            + "</tbody></table></div>")


def _html(match_id: str, markdown: str, chart_paths: dict[str, Path]) -> str:
    """The report's markdown subset (headings, lists, tables, images) as a self-contained page, one card
    per `##` section, in the same style as the answer reports."""
    from combat_analysis.report import html_page

    uris = {path.name: (name, charts.png_data_uri(path)) for name, path in chart_paths.items()}
    out: list[str] = []
    table: list[list[str]] = []
    items: list[str] = []
    open_section = False

    def flush() -> None:
        if table:
            out.append(_table_html(table))
            table.clear()
        if items:
            out.append("<ul>" + "".join(items) + "</ul>")
            items.clear()

    for line in markdown.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= {"-"} for c in cells):
                table.append(cells)
            continue
        if line.startswith("- "):
            items.append(f"<li>{_inline(line[2:])}</li>")
            continue
        flush()
        if line.startswith("## "):
            out.append(("</section>" if open_section else "") + f"<section><h2>{_inline(line[3:])}</h2>")
            open_section = True
        elif line.startswith("# "):
            out.append(f"<header><h1>{_inline(line[2:])}</h1></header>")
        elif line.startswith("### "):
            out.append(f"<h3>{_inline(line[4:])}</h3>")
        elif line.startswith("![") and "](" in line:
            src = line.split("](", 1)[1].rstrip(")")
            name, uri = uris.get(src, (src, ""))
            out.append(f'<figure><img src="{uri}" alt="{html.escape(name)} chart"></figure>')
        elif line.strip():
            out.append(f"<p>{_inline(line)}</p>")
    flush()
    if open_section:
        out.append("</section>")
    return html_page(f"Match report {match_id}", "".join(out))
