"""Question in, Agent Data Package out: the query analyst, then the stage sequence its plan chose.

One pipeline, two sequences of the four later stages: one match (`answer.match`: the plan's SQL, findings,
charts by result shape, the answer's sentences) and across matches (`answer.season`: a season figure, its
sentence, a season chart). The plan chooses once, after the query analyst (`sequence_for`): a season figure
takes the season sequence, anything else (a refusal too) the match sequence. No stage knows the other sequence
exists; the composer answers follow-ups through the runner the pipeline hands it on the env
(`StageEnv.run_followup`).

The Dagster assets run the stages one by one with the same `StageEnv` (`run_stage`); `answer_question` is the
in-process path for the CLI, the reports and the tests.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from combat_analysis.answer.compose import Words
from combat_analysis.answer.env import DEFAULT_INLINE_ROWS, Planner, StageEnv
from combat_analysis.answer.match import analyst as match_analyst
from combat_analysis.answer.match import composer as match_composer
from combat_analysis.answer.match import data_engineer as match_data_engineer
from combat_analysis.answer.match import visualization as match_visualization
from combat_analysis.answer.query_analyst import match_scope, query_analyst, warehouse_matches
from combat_analysis.charts.jobs import DRAW_HERE, ChartDrawer
from combat_analysis.contracts.package import AgentDataPackage, new_package
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.contracts.selection import DateRange
from combat_analysis.planner.read.names import find_mentions
from combat_analysis.planner.read.scope import (
    ScopeReading,
    asks_an_average,
    matches_in,
    one_match_of_a_day,
    read_scope,
)
from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary
from combat_analysis.settings import Lake
from combat_analysis.warehouse.query import LockedConnection, open_locked
from combat_analysis.warehouse.store import NO_MATCH_YET, WarehouseError

Stage = Callable[[AgentDataPackage, StageEnv], AgentDataPackage]
Wording = Callable[[AgentDataPackage, StageEnv], Words]
StageName = Literal["query_analyst", "data_engineer", "analyst", "visualization", "composer"]


@dataclass(frozen=True)
class StageSequence:
    """The four stages after the query analyst, for one kind of question, and the composer's wording of the
    analysed package (`words`: what the composer will say, without charts, report or follow-ups)."""

    name: str
    data_engineer: Stage
    analyst: Stage
    visualization: Stage
    composer: Stage
    words: Wording

    def stages(self) -> tuple[tuple[StageName, Stage], ...]:
        """The five stages in order, the query analyst first."""
        return (("query_analyst", query_analyst), ("data_engineer", self.data_engineer), ("analyst", self.analyst),
                ("visualization", self.visualization), ("composer", self.composer))


MATCH = StageSequence("match", match_data_engineer.data_engineer, match_analyst.analyst,
                      match_visualization.visualization, match_composer.composer, match_composer.words)


@functools.cache
def season_sequence() -> StageSequence:
    """The stages across matches, imported on the first cross-match question."""
    # lazy: the season figures cost a one-match `ask` a sixth of a second to import
    from combat_analysis.answer.season import analyst, composer, data_engineer, visualization

    return StageSequence("season", data_engineer.data_engineer, analyst.analyst, visualization.visualization,
                         composer.composer, composer.words)


def sequence_for(plan: QueryPlan | None) -> StageSequence:
    """The sequence a plan takes: a season figure across matches, else one match (a refusal too)."""
    if plan is not None and plan.season is not None and plan.intent != Intent.REFUSE:
        return season_sequence()
    return MATCH


@dataclass(frozen=True)
class MatchChoice:
    """Which match a question reads: `match_id` None means across matches (the plan's scope says which);
    `how` is "named", "only" (the warehouse holds one) or "latest" (the default on a warehouse of several).
    `scope` is the question's scope words as read here, carried to the query analyst so they are read once
    (None when no scope was read: a named match, or a warehouse of one)."""

    match_id: str | None
    how: str
    scope: ScopeReading | None = None
    snapshot: int | None = None  # the lake snapshot the choice read: the answer reads the same


def choose_match(question: str, warehouse_root: Lake | Path | str, named: str | None = None, *,
                 snapshot: int | None = None) -> MatchChoice:
    """A named match wins (--match, --log). Else, on a warehouse of several matches, the question's scope words
    decide: a match id in the question, a set of matches or all of them ("across all matches", "this week",
    "over his last 10 games"), or, with no scope word, the latest match in start order (docs/season.md). All of
    it read at one lake snapshot (`snapshot`, else the latest), which the choice carries to the answer."""
    if named:
        return MatchChoice(named, "named", snapshot=snapshot)
    with open_locked(warehouse_root, tables=("matches", "players"), snapshot=snapshot) as con:
        return choose_on(question, con, asked_snapshot=snapshot)


def choose_on(question: str, con: LockedConnection, *, asked_snapshot: int | None = None) -> MatchChoice:
    """`choose_match` on a locked connection already open across every match (its `matches` and `players`
    views), at the snapshot it pinned: a caller holding one (a session of many questions) need not open the lake
    again to choose. `asked_snapshot`: the snapshot the caller asked for, only to say which one held nothing."""
    matches = warehouse_matches(con)
    if not matches:
        raise WarehouseError(NO_MATCH_YET if asked_snapshot is None else
                             f"the warehouse held no match at snapshot {asked_snapshot}")
    if len(matches) == 1:
        return MatchChoice(matches[0][0], "only", snapshot=con.snapshot)
    scope = match_scope(question, matches)
    if scope.kind == "none" and asks_an_average(question):
        scope = _with_players(question, con, matches)
    scope = _absent_from_latest(question, _own_last_game(question, _day_as_match(scope, matches), con), con, matches)
    if scope.kind == "match" and scope.match_id:  # named by its id, as "the latest game", or by its day
        how = "own" if scope.player else "named" if scope.match_id in scope.words else "dated" if scope.one_day \
            else "numbered" if scope.number is not None else "latest"
        return MatchChoice(scope.match_id, how, scope, con.snapshot)
    if scope.cross_match:
        return MatchChoice(None, "across", scope, con.snapshot)
    return MatchChoice(matches[-1][0], "latest", scope, con.snapshot)


def _day_as_match(scope: ScopeReading, matches: list) -> ScopeReading:
    """A one-match question about a day that has exactly one match ("who won on tuesday"): that match, as if named
    (docs/season.md, "A match as a selector"). A day of several matches, or none, stays a set of matches."""
    if not (isinstance(scope.selection, DateRange) and one_match_of_a_day(scope)):
        return scope
    found = matches_in(scope.selection, matches)
    return dataclasses.replace(scope, kind="match", match_id=found[0]) if len(found) == 1 else scope


_OWN = re.compile(r"\b(?:his|her|their|my)\s")


def _own_last_game(question: str, scope: ScopeReading, con: LockedConnection) -> ScopeReading:
    """A player's own last game ("X's items in her latest match") is one match: the latest the named player
    played, as if named, so every one-match figure answers it. Two players named, or none, keep the reading of
    their last games across matches."""
    if scope.last != 1 or scope.previous or not any(_OWN.search(w) for w in scope.words):
        return scope
    player = _one_player_named(question, con)
    latest = _latest_played(con, player) if player else None
    return dataclasses.replace(scope, kind="match", match_id=latest, last=None, player=player) if latest else scope


def _one_player_named(question: str, con: LockedConnection) -> str | None:
    """The one player of any match the question names, or None (none, or several)."""
    players = tuple(r[0] for r in con.execute("SELECT DISTINCT player FROM players").fetchall())
    named = {m.name for m in find_mentions(question, Vocabulary(players=tuple(PlayerInfo(player=p) for p in players)))
             if m.kind == "player"}
    return named.pop() if len(named) == 1 else None


def _latest_played(con: LockedConnection, player: str) -> str | None:
    """The latest match, in start order, the player played."""
    row = con.execute("SELECT m.match_id FROM players p JOIN matches m USING (match_id) WHERE p.player = $player "
                      "ORDER BY m.started_at DESC NULLS LAST, m.match_id DESC LIMIT 1", {"player": player}).fetchone()
    return row[0] if row else None


def _absent_from_latest(question: str, scope: ScopeReading, con: LockedConnection, matches: list) -> ScopeReading:
    """A question with no scope word about one player who did not play the latest match ("X's deaths") is about
    that player's own latest match, as "X's deaths in her last game" is (`_own_last_game`): the latest match has no
    figure of theirs to give."""
    player = _one_player_named(question, con) if scope.kind == "none" else None
    played = _latest_played(con, player) if player else None
    if played is None or played == matches[-1][0]:
        return scope
    return dataclasses.replace(scope, kind="match", match_id=played, player=player)


def _with_players(question: str, con: LockedConnection, matches: list) -> ScopeReading:
    """The scope read again knowing every player's and god's name: a player's average is over every match, and so
    are two gods' averages set against each other (docs/season.md)."""
    players = tuple(r[0] for r in con.execute("SELECT DISTINCT player FROM players").fetchall())
    gods = tuple(r[0] for r in con.execute("SELECT DISTINCT god FROM players WHERE god IS NOT NULL").fetchall())
    latest = max((s for _, s in matches if s is not None), default=None)
    return read_scope(question, tuple(m for m, _ in matches), latest, players, gods)


def answering(env: StageEnv) -> StageEnv:
    """The env with the pipeline's follow-up runner, which the composer answers the follow-ups with."""
    return env if env.run_followup is not None else dataclasses.replace(env, run_followup=run_stages)


def pinned(env: StageEnv, pkg: AgentDataPackage) -> StageEnv:
    """The env reading the lake snapshot the package's query analyst read, so every stage reads the same state."""
    snapshot = pkg.metadata.warehouse_snapshot
    return env if env.snapshot is not None or snapshot is None else dataclasses.replace(env, snapshot=snapshot)


def run_stage(name: StageName, pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    """One stage on its own, as each Dagster question asset runs one: the query analyst, or the named stage of
    the sequence the package's plan chose, on the snapshot the query analyst read."""
    if name == "query_analyst":
        return query_analyst(pkg, answering(env))
    stage: Stage = getattr(sequence_for(pkg.plan), name)
    return stage(pkg, answering(pinned(env, pkg)))


def run_stages(
    question: str,
    env: StageEnv,
    *,
    previous_queries: Sequence[str] = (),
    user_id: str = "anonymous",
    session_id: str = "",
    on_words: Callable[[Words], None] | None = None,
) -> AgentDataPackage:
    """The five stages on one locked connection, opened once for the question and its follow-ups.

    `on_words` is handed the composer's wording as soon as the analyst is done, before the charts, the
    follow-ups and the report (the command line prints the direct answer then: a reader waits for the answer,
    not for the report around it); the composer words the same package the same way."""
    pkg = new_package(question, env.match_id, tuple(previous_queries), user_id=user_id, session_id=session_id)
    with answering(env).session() as session:
        pkg = query_analyst(pkg, session)
        sequence = sequence_for(pkg.plan)
        for stage in (sequence.data_engineer, sequence.analyst):
            pkg = stage(pkg, session)
        if on_words is not None:
            on_words(sequence.words(pkg, session))
        for stage in (sequence.visualization, sequence.composer):
            pkg = stage(pkg, session)
    return pkg


def answer_question(
    question: str,
    *,
    warehouse_root: Lake | Path | str,
    match_id: str | None,
    artifacts_dir: Path | str,
    previous_queries: Sequence[str] = (),
    user_id: str = "anonymous",
    session_id: str = "",
    planner: Planner | None = None,
    followups: bool = True,
    handles_dir: Path | str | None = None,
    inline_row_cap: int | None = None,
    scope_how: str = "named",
    scope: ScopeReading | None = None,
    charts: ChartDrawer = DRAW_HERE,
    snapshot: int | None = None,
    on_words: Callable[[Words], None] | None = None,
    answer_only: bool = False,
) -> AgentDataPackage:
    """Answer one question about one match (or, with `match_id` None on a warehouse of several, across
    matches; `choose_match` picks, and its `scope` reading is passed on so it is not read again), on the lake as
    it is, or as it was at `snapshot`; charts and reports go under artifacts_dir/<query_id>/, drawn by `charts`
    (here, by default). `on_words` is handed the answer's words before its charts and report (`run_stages`).
    `answer_only`: the words alone, with no charts, report files or follow-ups (`ask --answer-only`)."""
    env = StageEnv.build(
        scope_how=scope_how,
        scope=scope,
        warehouse_root=warehouse_root,
        match_id=match_id,
        artifacts_dir=artifacts_dir,
        handles_dir=handles_dir,
        planner=planner,
        followups=followups,
        user_id=user_id,
        session_id=session_id,
        inline_row_cap=inline_row_cap or DEFAULT_INLINE_ROWS,
        charts=charts,
        snapshot=snapshot,
        answer_only=answer_only,
    )
    return run_stages(question, env, previous_queries=previous_queries, user_id=user_id, session_id=session_id,
                      on_words=on_words)
