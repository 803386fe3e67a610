"""Every kind of report the product writes, built once per test session for the layout tests.

Over the sample match and a corpus match (numeric id, accented and CJK names): answers to questions that draw
every chart kind of `charts.py`, both match reports, and the season report. The season also holds two small
simulated matches played by the sample's roster, so its players have the three matches a form chart needs; with
them the season report draws every chart kind of `season_charts.py`. The text layout of each chart is recorded as matplotlib draws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.keys import path_for_key
from tests.support.layouts import ChartLayout, recorded_layouts
from tests.support.paths import SAMPLE_LOG, SHARED
from tests.support.simulated import roster, simulated_log

CORPUS_LOG = SHARED / "data" / "corpus" / "match_22.log.gz"
# Each question and the chart kinds its answer draws today (a KPI or a table draws none).
QUESTIONS = {
    "Who dealt the most damage in the match?": {"bar_h"},
    "Compare kills, deaths and assists of every player": {"grouped_bar"},
    "kills per minute for each team": {"line_chart"},
    "How did the team gold difference change over time?": {"gold_diff_chart"},
    "damage by ability for each player": {"stacked_bar", "bar_h"},
    "Where did players die?": {"heatmap", "event_timeline"},
    "How much healing did the top healer do?": set(),
}
BUILD_ORDER = "What was {player}'s build order?"  # a table of every purchase, longer than the report shows
CHART_KINDS = {"bar_h", "grouped_bar", "line_chart", "gold_diff_chart", "stacked_bar", "heatmap", "event_timeline",
               "form_chart", "win_rate_bars", "leaderboard_table"}


@dataclass(frozen=True)
class BuiltReports:
    home: Path
    match_ids: tuple[str, ...]
    pages: dict[str, Path]  # a short name -> report.html
    answers: dict[str, AgentDataPackage]  # the same names -> the answer's package
    layouts: tuple[ChartLayout, ...]


def _name(match_id: str, i: int) -> str:
    return f"{match_id}-q{i}"


def _rematches_of_the_sample(folder: Path) -> list[Path]:
    """Two small simulated matches whose ten players are the sample's: three matches each for the season's form."""
    folder.mkdir(parents=True, exist_ok=True)
    logs = []
    for seed in (3, 4):
        simulated = simulated_log(folder, seed, f"rematch-{seed}")
        names = dict(zip(roster(simulated), roster(SAMPLE_LOG), strict=True))
        logs.append(simulated_log(folder, seed, f"rematch-{seed}", names=names))
    return logs


def build_reports(home: Path) -> BuiltReports:
    from combat_analysis.answer.pipeline import answer_question
    from combat_analysis.ingest.run import ingest_log
    from combat_analysis.reports.match import build_match_report
    from combat_analysis.reports.season import GroupsTable, ProfilesTable, build_season_report, season_boards
    from combat_analysis.season import figures as season
    from combat_analysis.warehouse.store import open_warehouse

    root = home / "warehouse"
    match_ids = tuple(ingest_log(log, root).match_id for log in (SAMPLE_LOG, CORPUS_LOG))
    for log in _rematches_of_the_sample(home / "rematches"):  # season only: no answers or match reports
        ingest_log(log, root)
    pages: dict[str, Path] = {}
    answers: dict[str, AgentDataPackage] = {}
    links: dict[str, Path] = {}
    with recorded_layouts() as layouts:
        for match_id in match_ids:
            con = open_warehouse(root, match_id)
            first_player = con.execute("SELECT player FROM players ORDER BY team, player LIMIT 1").fetchone()[0]
            con.close()
            for i, question in enumerate([*QUESTIONS, BUILD_ORDER.format(player=first_player)]):
                pkg = answer_question(question, warehouse_root=root, match_id=match_id,
                                      artifacts_dir=home / "artifacts", handles_dir=home / "handles", followups=False)
                answers[_name(match_id, i)] = pkg
                pages[_name(match_id, i)] = Path(pkg.final_output.html_path)
            report = build_match_report(root, match_id, path_for_key(home / "reports", match_id),
                                        handles_dir=home / "handles")
            pages[f"{match_id}-match-report"] = links[match_id] = report.html_path
        con = open_warehouse(root)
        try:
            matches = season.selected_matches(con)
            profiles = ProfilesTable(matches=matches, profiles=season.player_profiles(con, season.ALL_MATCHES))
            groups = GroupsTable(gods=season.god_stats(con, season.ALL_MATCHES),
                                 roles=season.role_stats(con, season.ALL_MATCHES))
            pages["season-report"] = build_season_report(con, home / "season", profiles, groups, season_boards(con),
                                                         links).html_path
        finally:
            con.close()
    return BuiltReports(home, match_ids, pages, answers, tuple(layouts))


_BUILT: dict[str, BuiltReports] = {}


def reports_once(tmp_path_factory) -> BuiltReports:
    """The reports, built once per test session however many test modules ask for them."""
    if "reports" not in _BUILT:
        _BUILT["reports"] = build_reports(tmp_path_factory.mktemp("all-reports"))
    return _BUILT["reports"]
