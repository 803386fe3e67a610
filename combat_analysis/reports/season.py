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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from combat_analysis.formatting import clock, count, number, rate
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


FORM_MIN_GAMES = 3  # a form chart needs this many matches: one or two dots are no form


@dataclass(frozen=True)
class _Part:
    """One section of the report and the charts it drew (name: file)."""

    section: Section
    charts: Mapping[str, Path] = field(default_factory=dict)
    players: tuple[str, ...] = ()  # the players whose form it charts


def _waiting(empty: Sequence[Leaderboard], players: Sequence[PlayerProfile]) -> Block:
    """Empty boards of averages or rates (one minimum of matches): nobody qualifies yet, and who would after how
    many more matches."""
    least = empty[0].min_matches
    closest = sorted(players, key=lambda p: (-p.record.games, p.player))[:3]
    after = "; ".join(f"{p.player} after {count(least - p.record.games, 'more match')}"
                      for p in closest if p.record.games < least)
    names = [season.metric_label(b.metric) if b.statistic == "record" else f"average {season.metric_label(b.metric)}"
             for b in empty]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return para(f"Nobody qualifies yet for {listed}, which count players with at least {count(least, 'match')}: "
                f"no player has played {least} yet." + (f" Closest: {after}." if after else ""))


def _headline(board: Leaderboard, chart_dir: Path, charts) -> tuple[str, Figure]:
    board_table = _board_table(board)
    name = f"leaderboard_{board.metric}_{board.statistic}"
    path = charts.leaderboard_table(chart_dir / f"{name}.png", board_table.columns,
                                    [[str(c) for c in row] for row in board_table.rows], title=board_title(board))
    alt = board_title(board) + ": " + "; ".join(f"{r.rank}. {r.player} {board_value(board, r.value)}"
                                                for r in board.rows)
    return name, Figure(path, alt, board_title(board))


def _top_three(board: Leaderboard) -> tuple[str, ...]:
    if not board.rows and board.min_matches > 1:
        return (board_title(board), "nobody qualifies yet", "", "")
    cells = [f"{r.player} ({board_value(board, r.value)})" for r in board.rows[:3]]
    return (board_title(board), *cells, *[""] * (3 - len(cells)))


def _leaderboards(boards: BoardsTable, players: Sequence[PlayerProfile], chart_dir: Path, charts) -> _Part:
    """The two headline boards in full as table images; every board's top three in one table; and for each
    empty board of averages, who would qualify after how many more matches."""
    made: dict[str, Path] = {}
    blocks: list[Block] = []
    headlines = [boards.boards[i] for i in HEADLINE_BOARDS if i < len(boards.boards)]
    for board in (b for b in headlines if b.rows):
        name, figure = _headline(board, chart_dir, charts)
        made[name] = figure.path
        blocks.append(figure)
    blocks.append(table(("board", "1st", "2nd", "3rd"), (_top_three(b) for b in boards.boards)))
    empty = [b for b in boards.boards if not b.rows and b.min_matches > 1]
    blocks.extend(_waiting([b for b in empty if b.min_matches == least], players)
                  for least in sorted({b.min_matches for b in empty}))
    return _Part(Section("Leaderboards", tuple(blocks)), made)


def _players(players: Sequence[PlayerProfile], links: Mapping[str, Path], out_dir: Path) -> _Part:
    by_games = sorted(players, key=lambda p: (-p.record.games, p.player))
    return _Part(Section("Players", (
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


def _form_chart(con, player: str, matches: Sequence[MatchInfo], path: Path, charts) -> Figure | None:
    trend = season.player_trend(con, player, tuple(FORM_METRICS), season.MatchList(
        match_ids=tuple(m.match_id for m in matches)))
    if not trend.points:
        return None
    drawn = charts.form_chart(
        path, [f"{p.started_at:%m-%d}" if p.started_at else p.match_id for p in trend.points],
        {label: [p.values[m] for p in trend.points] for m, label in FORM_METRICS.items()},
        [p.result for p in trend.points], title=f"{player}: form across {len(trend.points)} matches")
    return Figure(drawn, f"{player}'s KDA, damage and gold per match, in start order, each point marked win, "
                         "loss or unknown")


def _form(con, boards: BoardsTable, matches: Sequence[MatchInfo], players: Sequence[PlayerProfile],
          chart_dir: Path, charts) -> _Part:
    """The top damage dealers' form, for those with at least FORM_MIN_GAMES matches; the others are named."""
    games = {p.player: p.record.games for p in players}
    leaders = [r.player for r in boards.boards[0].rows[:FORM_PLAYERS]] if boards.boards and matches else []
    made: dict[str, Path] = {}
    blocks: list[Block] = []
    charted: list[str] = []
    for i, player in enumerate((p for p in leaders if games.get(p, 0) >= FORM_MIN_GAMES), 1):
        figure = _form_chart(con, player, matches, chart_dir / f"form_{i}.png", charts)
        if figure is not None:
            made[f"form_{i}"] = figure.path
            blocks.append(figure)
            charted.append(player)
    short = [p for p in leaders if games.get(p, 0) < FORM_MIN_GAMES]
    if short:
        blocks.append(para(f"A form chart needs {count(FORM_MIN_GAMES, 'match')}: " + "; ".join(
            f"{p} has {count(games.get(p, 0), 'match')} so far" for p in short) + "."))
    return _Part(Section("Form of the top damage dealers", tuple(blocks) or (para("No player yet."),)), made,
                 tuple(charted))


def _few_games_note(gods: Sequence[GroupStats]) -> tuple[Block, ...]:
    few = sum(g.record.games < MIN_MATCHES_FOR_AVERAGES for g in gods)
    least = count(MIN_MATCHES_FOR_AVERAGES, 'game')
    if not few:
        return ()
    if few == len(gods):
        return (para(f"No god has {least} yet: every win rate here rests on one or two games, which says little."),)
    return (para(f"Gods with fewer than {least} come after the others, whatever their win rate: a win rate over "
                 "one or two games says little."),)


def _gods(groups: GroupsTable, chart_dir: Path, charts) -> _Part:
    """Gods by win rate, those with at least MIN_MATCHES_FOR_AVERAGES games first: one win in one game is no
    lead."""
    blocks: list[Block] = []
    made: dict[str, Path] = {}
    if groups.gods:
        best_first = sorted(groups.gods, key=lambda g: (g.record.games < MIN_MATCHES_FOR_AVERAGES,
                                                        g.record.win_rate is None, -(g.record.win_rate or 0),
                                                        -g.record.games, g.name))
        made["god_win_rates"] = charts.win_rate_bars(
            chart_dir / "god_win_rates.png", [g.name for g in best_first], [g.record.win_rate for g in best_first],
            [g.record.games for g in best_first], title="Win rate by god")
        blocks.append(Figure(made["god_win_rates"], "Win rate by god, with games played: " + "; ".join(
            f"{g.name} {rate(g.record.win_rate)} of {g.record.games}" for g in best_first[:5]), "Win rate by god"))
        blocks.extend(_few_games_note(groups.gods))
    return _Part(Section("Gods", (*blocks, _group_table(groups.gods, "god"))), made)


def _matches(matches: Sequence[MatchInfo], links: Mapping[str, Path], out_dir: Path) -> _Part:
    return _Part(Section("Matches", (table(("started", "match", "duration", "winner", "report"), (
        (_when(m), m.match_id, clock(m.duration_s),
         f"team {m.winner_team}" if m.winner_team else "unknown",
         _link("match report", links[m.match_id], out_dir) if m.match_id in links else "not built yet")
        for m in reversed(matches))),)))


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
    form = _form(con, boards, matches, players, chart_dir, season_charts)
    parts = (_Part(Section("Summary", (para(_summary(matches, players, len(groups.gods))),))),
             _leaderboards(boards, players, chart_dir, season_charts), _players(players, links, out_dir), form,
             _gods(groups, chart_dir, season_charts), _Part(Section("Roles", (_group_table(groups.roles, "role"),))),
             _matches(matches, links, out_dir))
    sections = tuple(p.section for p in parts)
    doc = Document(title, sections=sections, base=out_dir)
    markdown = to_markdown(doc)
    md_path = write_atomic(out_dir / "report.md", markdown)
    html_path = write_atomic(out_dir / "report.html", to_html(doc))
    return SeasonReport(markdown_path=md_path, html_path=html_path, markdown=markdown,
                        charts={k: v for p in parts for k, v in p.charts.items()},
                        matches=len(matches), linked_reports=sum(m.match_id in links for m in matches),
                        form_players=form.players,
                        figures=tuple(b for s in sections for b in s.blocks if isinstance(b, Figure)))
