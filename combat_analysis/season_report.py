"""The season report and the stored season tables: what the `season` assets write and read.

The three season tables (player profiles, god and role records, leaderboards) are JSON files of the frozen
models in `combat_analysis.season`, each written atomically. The report reads them back, adds each leader's
form across matches from the warehouse, and writes markdown and a self-contained HTML page in the match
reports' style, linking every match report that exists.
"""

from __future__ import annotations

import html
import os
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from combat_analysis import season
from combat_analysis.season import GroupStats, Leaderboard, MatchInfo, PlayerProfile

# The season's standard leaderboards: (metric, statistic, fewest matches to qualify). Averages and win rates
# need a few games before they mean anything; totals reward playing more, which is what a total is.
MIN_MATCHES_FOR_AVERAGES = 3
SEASON_BOARDS: tuple[tuple[str, season.Statistic, int], ...] = (
    ("damage_dealt", "total", 1),
    ("kills", "total", 1),
    ("assists", "total", 1),
    ("healing_done", "total", 1),
    ("gold", "total", 1),
    ("kda", "average", MIN_MATCHES_FOR_AVERAGES),
    ("damage_dealt", "average", MIN_MATCHES_FOR_AVERAGES),
    ("win_rate", "average", MIN_MATCHES_FOR_AVERAGES),
)
HEADLINE_BOARDS = (0, 5)  # total damage dealt, average KDA
FORM_METRICS = {"kda": "KDA", "damage_dealt": "damage dealt", "gold": "gold"}  # metric: axis label
FORM_PLAYERS = 3  # form charts for the top three damage dealers


class _Stored(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ProfilesTable(_Stored):
    matches: tuple[MatchInfo, ...]
    profiles: tuple[PlayerProfile, ...]


class GroupsTable(_Stored):
    gods: tuple[GroupStats, ...]
    roles: tuple[GroupStats, ...]


class BoardsTable(_Stored):
    boards: tuple[Leaderboard, ...]


def season_boards(con, selection: season.MatchSelection = season.ALL_MATCHES, *, limit: int = 10) -> BoardsTable:
    return BoardsTable(boards=tuple(
        season.leaderboard(con, metric, selection, statistic=statistic, min_matches=min_matches, limit=limit)
        for metric, statistic, min_matches in SEASON_BOARDS))


Model = TypeVar("Model", bound=BaseModel)


def write_atomic(path: Path, text: str) -> Path:
    """Write beside the target and rename in, so a reader sees the old file or the new one, never half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.parent / f".{path.name}.{uuid.uuid4().hex}.tmp"
    staged.write_text(text, encoding="utf-8")
    os.replace(staged, path)
    return path


def save_table(path: Path, table: BaseModel) -> Path:
    return write_atomic(path, table.model_dump_json(indent=1))


def load_table(path: Path, model: type[Model]) -> Model:
    return model.model_validate_json(Path(path).read_text(encoding="utf-8"))


# --- formatting ---------------------------------------------------------------------------------------------

def fmt_number(value: float | int | None, decimals: int = 0) -> str:
    """Integers for sums and counts, up to two decimals for ratios (METRICS.md, "Numbers in answers")."""
    if value is None:
        return "–"
    if decimals == 0:
        return f"{round(value):,}"
    return f"{value:,.{decimals}f}"


def fmt_rate(rate: float | None) -> str:
    return "–" if rate is None else f"{100 * rate:.1f}%"


def board_column(board: Leaderboard) -> str:
    """The value column's heading: "total kills", "avg KDA", "win rate"."""
    name = season.metric_label(board.metric)
    if board.statistic == "record":
        return name
    return f"{'avg' if board.statistic == 'average' else 'total'} {name}"


def board_title(board: Leaderboard) -> str:
    name = season.metric_label(board.metric)
    if board.statistic == "record":
        title = name[:1].upper() + name[1:]
    elif board.statistic == "average":
        title = f"Average {name} per match"
    else:
        title = f"Total {name}"
    return title + (f" (at least {board.min_matches} matches)" if board.min_matches > 1 else "")


def board_value(board: Leaderboard, value: float | None) -> str:
    if board.metric == "win_rate":
        return fmt_rate(value)
    return fmt_number(value, 2 if board.statistic == "average" else 0)


# --- a tiny document model, rendered to markdown and to HTML --------------------------------------------------

Cell = str | tuple[str, str]  # text, or (text, link)


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class Image:
    path: Path
    alt: str  # what the image shows, in words (its figures too, for a reader who cannot see it)
    caption: str = ""


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple[str | Table | Image, ...]


def _md_cell(cell: Cell) -> str:
    text, link = (cell, None) if isinstance(cell, str) else cell
    text = text.replace("|", "\\|")
    return f"[{text}]({link})" if link else text


def _md(title: str, sections: Sequence[Section], base: Path) -> str:
    lines = [f"# {title}", ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for block in section.blocks:
            if isinstance(block, Table):
                lines.append("| " + " | ".join(block.columns) + " |")
                lines.append("|" + "---|" * len(block.columns))
                lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in block.rows]
            elif isinstance(block, Image):
                lines.append(f"![{block.alt}]({os.path.relpath(block.path, base)})")
            else:
                lines.append(block)
            lines.append("")
    return "\n".join(lines)


def is_figure(text: str) -> bool:
    """A formatted figure ("1,234", "2.86", "71.4%"), which tables align right."""
    return str(text).replace(",", "").replace(".", "", 1).rstrip("%").lstrip("-").isdigit()


def _html_cell(cell: Cell) -> str:
    text, link = (cell, None) if isinstance(cell, str) else cell
    inner = f'<a href="{html.escape(link, quote=True)}">{html.escape(text)}</a>' if link else html.escape(text)
    return f'<td class="num">{inner}</td>' if is_figure(text) else f"<td>{inner}</td>"


def _html(title: str, sections: Sequence[Section]) -> str:
    from combat_analysis.charts import png_data_uri
    from combat_analysis.report import html_page

    parts = [f"<header><h1>{html.escape(title)}</h1></header>"]
    for section in sections:
        body = []
        for block in section.blocks:
            if isinstance(block, Table):
                head = "".join(f"<th>{html.escape(c)}</th>" for c in block.columns)
                rows = "".join("<tr>" + "".join(_html_cell(c) for c in row) + "</tr>" for row in block.rows)
                body.append(f'<div class="table-wrap"><table><thead><tr>{head}</tr></thead>'
                            f"<tbody>{rows}</tbody></table></div>")
            elif isinstance(block, Image):
                body.append(f'<figure><img src="{png_data_uri(block.path)}" alt="{html.escape(block.alt, quote=True)}">'
                            f"<figcaption>{html.escape(block.caption or block.alt)}</figcaption></figure>")
            else:
                body.append(f"<p>{html.escape(block)}</p>")
        parts.append(f"<section><h2>{html.escape(section.title)}</h2>{''.join(body)}</section>")
    return html_page(title, "".join(parts))


# --- the report ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SeasonReport:
    markdown_path: Path
    html_path: Path
    markdown: str
    charts: dict[str, Path]
    matches: int
    linked_reports: int
    form_players: tuple[str, ...] = ()


def _link(path: Path | None, base: Path) -> str | None:
    return os.path.relpath(path, base) if path is not None else None


def _when(match: MatchInfo) -> str:
    return f"{match.started_at:%Y-%m-%d %H:%M}" if match.started_at else "unknown"


def _summary(matches: Sequence[MatchInfo], profiles: Sequence[PlayerProfile], gods: int) -> str:
    if not matches:
        return "No match has been ingested yet."
    t1 = sum(m.winner_team == 1 for m in matches)
    t2 = sum(m.winner_team == 2 for m in matches)
    unknown = len(matches) - t1 - t2
    span = f"from {_when(matches[0])} to {_when(matches[-1])}"
    return (f"{len(matches):,} matches {span}: team 1 won {t1}, team 2 won {t2}, and {unknown} ended without a "
            f"Titan kill, so the winner is unknown (such a match counts as a game, but as neither a win nor a loss). "
            f"{len(profiles):,} players and {gods:,} gods took part. Players are identified by their exact name "
            f"in the logs. Averages are the mean of per-match figures; win rates are wins over decided games.")


def _board_table(board: Leaderboard) -> Table:
    return Table(("#", "player", "matches", board_column(board)), tuple(
        (str(r.rank), r.player, str(r.matches), board_value(board, r.value)) for r in board.rows))


def _group_table(groups: Sequence[GroupStats], what: str) -> Table:
    return Table((what, "games", "wins", "losses", "unknown", "win rate", "avg KDA", "avg damage", "avg gold",
                  "players"), tuple(
        (g.name, str(g.record.games), str(g.record.wins), str(g.record.losses), str(g.record.unknown_results),
         fmt_rate(g.record.win_rate), fmt_number(g.average_kda, 2), fmt_number(g.average_damage),
         fmt_number(g.average_gold), str(g.players)) for g in groups))


def build_season_report(con, out_dir: Path, profiles: ProfilesTable, groups: GroupsTable, boards: BoardsTable,
                        report_links: Mapping[str, Path], *, title: str = "Season report") -> SeasonReport:
    """Write `report.md` and `report.html` (and their charts) under `out_dir`. `report_links` maps a match
    id to its match report's HTML file; a match without one is listed as not built yet."""
    from combat_analysis import season_charts

    out_dir = Path(out_dir)
    chart_dir = out_dir / "charts"
    chart_dir.mkdir(parents=True, exist_ok=True)
    matches, players = profiles.matches, profiles.profiles
    links = {m: p for m, p in report_links.items() if Path(p).exists()}
    made: dict[str, Path] = {}
    sections: list[Section] = []

    # The two headline boards in full as table images; every board's top three in one table.
    board_blocks: list[str | Table | Image] = []
    for i in HEADLINE_BOARDS:
        board = boards.boards[i] if i < len(boards.boards) else None
        if board is None or not board.rows:
            continue
        table = _board_table(board)
        name = f"leaderboard_{board.metric}_{board.statistic}"
        made[name] = season_charts.leaderboard_table(chart_dir / f"{name}.png", table.columns,
                                                      [[str(c) for c in row] for row in table.rows],
                                                      title=board_title(board))
        alt = board_title(board) + ": " + "; ".join(f"{r.rank}. {r.player} {board_value(board, r.value)}"
                                                    for r in board.rows)
        board_blocks.append(Image(made[name], alt, board_title(board)))
    board_blocks.append(Table(("board", "1st", "2nd", "3rd"), tuple(
        (board_title(b), *[f"{r.player} ({board_value(b, r.value)})" for r in b.rows[:3]],
         *[""] * (3 - len(b.rows[:3])))
        for b in boards.boards)))
    sections.append(Section("Leaderboards", tuple(board_blocks)))

    by_games = sorted(players, key=lambda p: (-p.record.games, p.player))
    sections.append(Section("Players", (
        "Per-match averages are the mean of the player's per-match figures. Best match: the most damage dealt.",
        Table(("player", "matches", "wins", "losses", "unknown", "win rate", "avg K / D / A", "avg KDA",
               "overall KDA", "avg damage", "avg gold", "best match"), tuple(
            (p.player, str(p.record.games), str(p.record.wins), str(p.record.losses), str(p.record.unknown_results),
             fmt_rate(p.record.win_rate),
             " / ".join(fmt_number(p.averages[k], 2) for k in ("kills", "deaths", "assists")),
             fmt_number(p.averages["kda"], 2), fmt_number(p.overall_kda, 2), fmt_number(p.averages["damage_dealt"]),
             fmt_number(p.averages["gold"]),
             (f"{p.best_match.match_id} ({fmt_number(p.best_match.value)})",
              _link(links.get(p.best_match.match_id), out_dir) or ""))
            for p in by_games)),
    )))

    leaders = [r.player for r in boards.boards[0].rows[:FORM_PLAYERS]] if boards.boards else []
    form_blocks: list[str | Table | Image] = []
    for i, player in enumerate(leaders, 1):
        trend = season.player_trend(con, player, tuple(FORM_METRICS), season.MatchList(
            match_ids=tuple(m.match_id for m in matches))) if matches else None
        if trend is None or not trend.points:
            continue
        made[f"form_{i}"] = season_charts.form_chart(
            chart_dir / f"form_{i}.png", [f"{p.started_at:%m-%d}" if p.started_at else p.match_id for p in trend.points],
            {label: [p.values[m] for p in trend.points] for m, label in FORM_METRICS.items()},
            [p.result for p in trend.points],
            title=f"{player}: form across {len(trend.points)} matches")
        form_blocks.append(Image(made[f"form_{i}"], f"{player}'s KDA, damage and gold per match"))
    sections.append(Section("Form of the top damage dealers", tuple(form_blocks) or ("No player yet.",)))

    if groups.gods:
        best_first = sorted(groups.gods, key=lambda g: (g.record.win_rate is None, -(g.record.win_rate or 0),
                                                        -g.record.games, g.name))
        made["god_win_rates"] = season_charts.win_rate_bars(
            chart_dir / "god_win_rates.png", [g.name for g in best_first], [g.record.win_rate for g in best_first],
            [g.record.games for g in best_first], title="Win rate by god")
    sections.append(Section("Gods", ((Image(made["god_win_rates"], "Win rate by god, with games played"),)
                                     if groups.gods else ()) + (_group_table(groups.gods, "god"),)))
    sections.append(Section("Roles", (_group_table(groups.roles, "role"),)))
    sections.append(Section("Matches", (Table(("started", "match", "duration", "winner", "report"), tuple(
        (_when(m), m.match_id, f"{(m.duration_s or 0) // 60}:{(m.duration_s or 0) % 60:02d}",
         f"team {m.winner_team}" if m.winner_team else "unknown",
         ("match report", _link(links[m.match_id], out_dir)) if m.match_id in links else "not built yet")
        for m in reversed(matches))),)))

    summary = Section("Summary", (_summary(matches, players, len(groups.gods)),))
    sections.insert(0, summary)
    markdown = _md(title, sections, out_dir)
    md_path = write_atomic(out_dir / "report.md", markdown)
    html_path = write_atomic(out_dir / "report.html", _html(title, sections))
    return SeasonReport(markdown_path=md_path, html_path=html_path, markdown=markdown, charts=made,
                        matches=len(matches), linked_reports=sum(m.match_id in links for m in matches),
                        form_players=tuple(leaders))
