"""The season report and the stored season tables: what the `season` assets write and read.

The three season tables (player profiles, god and role records, leaderboards) are JSON files of the frozen
models in `combat_analysis.season`, each written atomically. The report reads them back, adds each leader's
form across matches from the warehouse, and writes markdown and a self-contained HTML page in the match
reports' style (one `render.Document`, rendered by the shared templates), linking every match report that
exists.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from combat_analysis.formatting import number, rate
from combat_analysis.render.document import (
    Block,
    Document,
    Figure,
    Section,
    Span,
    Table,
    link,
    para,
    table,
    to_html,
    to_markdown,
)
from combat_analysis.season import figures as season
from combat_analysis.season.figures import GroupStats, Leaderboard, MatchInfo, PlayerProfile

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


# --- headings ---------------------------------------------------------------------------------------------

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
        return rate(value)
    return number(value, 2 if board.statistic == "average" else 0)


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
    figures: tuple[Figure, ...] = ()  # the charts in the order the report shows them, with titles and alt texts


def _link(text: str, path: Path | None, base: Path) -> Span | str:
    """A cell linking a file beside the report (relative to `base`), or the plain text without one."""
    return link(text, os.path.relpath(path, base)) if path is not None else text


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


def _record(record: season.Record) -> str:
    return f"{record.wins}-{record.losses}-{record.unknown_results}"


def _board_table(board: Leaderboard) -> Table:
    return table(("#", "player", "matches", board_column(board)),
                 ((r.rank, r.player, r.matches, board_value(board, r.value)) for r in board.rows))


def _group_table(groups: Sequence[GroupStats], what: str) -> Table:
    return table((what, "games", "W-L-unknown", "win rate", "avg KDA", "avg damage", "avg gold", "players"), (
        (g.name, g.record.games, _record(g.record), rate(g.record.win_rate), number(g.average_kda, 2),
         number(g.average_damage), number(g.average_gold), g.players) for g in groups))


def build_season_report(con, out_dir: Path, profiles: ProfilesTable, groups: GroupsTable, boards: BoardsTable,
                        report_links: Mapping[str, Path], *, title: str = "Season report") -> SeasonReport:
    """Write `report.md` and `report.html` (and their charts) under `out_dir`. `report_links` maps a match
    id to its match report's HTML file; a match without one is listed as not built yet."""
    # lazy: matplotlib, only when the report is built (its tables are read without it)
    from combat_analysis.charts import season as season_charts

    out_dir = Path(out_dir)
    chart_dir = out_dir / "charts"
    chart_dir.mkdir(parents=True, exist_ok=True)
    matches, players = profiles.matches, profiles.profiles
    links = {m: Path(p) for m, p in report_links.items() if Path(p).exists()}
    made: dict[str, Path] = {}
    sections: list[Section] = [Section("Summary", (para(_summary(matches, players, len(groups.gods))),))]

    # The two headline boards in full as table images; every board's top three in one table.
    board_blocks: list[Block] = []
    for i in HEADLINE_BOARDS:
        board = boards.boards[i] if i < len(boards.boards) else None
        if board is None or not board.rows:
            continue
        board_table = _board_table(board)
        name = f"leaderboard_{board.metric}_{board.statistic}"
        made[name] = season_charts.leaderboard_table(chart_dir / f"{name}.png", board_table.columns,
                                                      [[str(c) for c in row] for row in board_table.rows],
                                                      title=board_title(board))
        alt = board_title(board) + ": " + "; ".join(f"{r.rank}. {r.player} {board_value(board, r.value)}"
                                                    for r in board.rows)
        board_blocks.append(Figure(made[name], alt, board_title(board)))
    board_blocks.append(table(("board", "1st", "2nd", "3rd"), (
        (board_title(b), *[f"{r.player} ({board_value(b, r.value)})" for r in b.rows[:3]],
         *[""] * (3 - len(b.rows[:3])))
        for b in boards.boards)))
    sections.append(Section("Leaderboards", tuple(board_blocks)))

    by_games = sorted(players, key=lambda p: (-p.record.games, p.player))
    sections.append(Section("Players", (
        para("Per-match averages are the mean of the player's per-match figures. Best match: the most damage "
             "dealt. W-L-unknown: wins, losses and matches without a known winner."),
        table(("player", "matches", "W-L-unknown", "win rate", "avg K / D / A", "avg KDA", "overall KDA",
               "avg damage", "avg gold", "best match"), (
            (p.player, p.record.games, _record(p.record), rate(p.record.win_rate),
             " / ".join(number(p.averages[k], 2) for k in ("kills", "deaths", "assists")),
             number(p.averages["kda"], 2), number(p.overall_kda, 2), number(p.averages["damage_dealt"]),
             number(p.averages["gold"]),
             _link(f"{p.best_match.match_id} ({number(p.best_match.value)})",
                   links.get(p.best_match.match_id), out_dir))
            for p in by_games)),
    )))

    leaders = [r.player for r in boards.boards[0].rows[:FORM_PLAYERS]] if boards.boards else []
    form_blocks: list[Block] = []
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
        form_blocks.append(Figure(made[f"form_{i}"], f"{player}'s KDA, damage and gold per match, in start order, "
                                                     "each point marked win, loss or unknown"))
    sections.append(Section("Form of the top damage dealers", tuple(form_blocks) or (para("No player yet."),)))

    god_blocks: list[Block] = []
    if groups.gods:
        best_first = sorted(groups.gods, key=lambda g: (g.record.win_rate is None, -(g.record.win_rate or 0),
                                                        -g.record.games, g.name))
        made["god_win_rates"] = season_charts.win_rate_bars(
            chart_dir / "god_win_rates.png", [g.name for g in best_first], [g.record.win_rate for g in best_first],
            [g.record.games for g in best_first], title="Win rate by god")
        god_blocks.append(Figure(made["god_win_rates"], "Win rate by god, with games played: " + "; ".join(
            f"{g.name} {rate(g.record.win_rate)} of {g.record.games}" for g in best_first[:5]), "Win rate by god"))
    sections.append(Section("Gods", (*god_blocks, _group_table(groups.gods, "god"))))
    sections.append(Section("Roles", (_group_table(groups.roles, "role"),)))
    sections.append(Section("Matches", (table(("started", "match", "duration", "winner", "report"), (
        (_when(m), m.match_id, f"{(m.duration_s or 0) // 60}:{(m.duration_s or 0) % 60:02d}",
         f"team {m.winner_team}" if m.winner_team else "unknown",
         _link("match report", links[m.match_id], out_dir) if m.match_id in links else "not built yet")
        for m in reversed(matches))),)))

    doc = Document(title, sections=tuple(sections), base=out_dir)
    markdown = to_markdown(doc)
    md_path = write_atomic(out_dir / "report.md", markdown)
    html_path = write_atomic(out_dir / "report.html", to_html(doc))
    return SeasonReport(markdown_path=md_path, html_path=html_path, markdown=markdown, charts=made,
                        matches=len(matches), linked_reports=sum(m.match_id in links for m in matches),
                        form_players=tuple(leaders),
                        figures=tuple(b for s in sections for b in s.blocks if isinstance(b, Figure)))
