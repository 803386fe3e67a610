"""The typed contract between the query analyst and the later stages.

A question becomes one `QueryPlan`; the plan compiles to one or more `SqlQuery`s. Later stages read the plan
(intent, metrics, assumptions) and the query results; they never look at the question text again.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from combat_analysis.contracts.selection import MatchSelection

# Strict patterns for every plan string that names something (a plan may come from a language model, so it is
# data): catalog ids and result columns, parameter names, window labels, refusal text. Values are never
# patterned here; they only ever reach SQL as escaped literals or bound parameters.
Identifier = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
ParameterName = Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]{0,63}$")]
PlanOrder = Literal["desc", "asc"]
PlanShape = Literal["auto", "leader", "top", "all", "share", "average", "median", "count"]
# A window's label may hold a player's name as logged ("from León0722's first death at 0:19 on"): any printable text.
# It reaches SQL only as an escaped literal (compile.py) and answers only as text, as every name from the log does.
WindowLabel = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][^\x00-\x1f\x7f]{0,199}$")]
RefusalText = Annotated[str, StringConstraints(min_length=1, max_length=400)]
EntryName = Annotated[str, StringConstraints(min_length=1, max_length=80)]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Intent(str, Enum):
    RANKING = "ranking"  # who had the most X (rows: dimension, metric; sorted)
    LOOKUP = "lookup"  # one figure for one entity or the whole match (one row)
    COMPARISON = "comparison"  # X for two or more named entities (one row each)
    BREAKDOWN = "breakdown"  # X split by ability, item, target kind... (rows: dimension, metric)
    TIMELINE = "timeline"  # X per minute (rows: minute, [series], metric)
    EVENT_LIST = "event_list"  # kills, first blood, objectives, winner (event rows)
    BUILD_ORDER = "build_order"  # a player's purchases in order (rows: player, seq, item, match_second)
    REFUSE = "refuse"  # not answerable from a combat log


class ValueCondition(Frozen):
    """Keep only the rows whose figure meets it: "players with more than 10 kills" is `> 10` on kills.

    The figure is the headline unless `metric` names another of the plan's figures ("the most damage among players
    with more than 5 kills" ranks damage and keeps the players with more than 5 kills)."""

    op: Literal[">", ">=", "<", "<="]
    value: float = Field(allow_inf_nan=False)
    metric: Identifier | None = None  # one of the plan's metrics; None is the headline


class TimeWindow(Frozen):
    """Match seconds [start_s, end_s). `from_end_s` means "the last N seconds", resolved against the
    match duration when the SQL is compiled, so a plan stays valid for any match."""

    label: WindowLabel  # as an analyst would say it: "first 10 minutes"
    start_s: int | None = None
    end_s: int | None = None
    from_end_s: int | None = None


class Filter(Frozen):
    dimension: Identifier  # catalog dimension id: player, team, role, god, ability, item, target_kind
    op: Literal["=", "!=", "in"] = "="
    values: tuple[str | int, ...]


class Refusal(Frozen):
    reason: RefusalText
    suggestions: tuple[RefusalText, ...] = Field(default=(), max_length=5)
    options: tuple[str, ...] = Field(default=(), max_length=10)  # a clarifying question: the players an ambiguous name could mean


class KillChain(Frozen):
    """A kill chain ("multi-kill") as the question defines it, for the log defines none: at least `kills` player kills
    by one player, each within `seconds` of the one before ("gap", the chain reading) or all within `seconds` of the
    chain's first kill ("window", the window reading). A longer run counts once. With `deaths_break`, a death of the
    killer (from any source) between two kills ends the chain (`catalog/kill_chains.sql`)."""

    kills: int = Field(ge=2, le=50)
    seconds: int = Field(ge=1, le=3600)
    reading: Literal["gap", "window"] = "gap"
    deaths_break: bool = True


class OneMatch(Frozen):
    """The question is about one match: named (`--match`, `--log`, "in match 5147276662"), the only one in
    the warehouse, or the latest one by default when the warehouse holds several and no match was named."""

    kind: Literal["match"] = "match"
    match_id: str = Field(min_length=1, max_length=200)
    how: Literal["named", "only", "latest", "dated", "numbered", "own"] = "named"  # dated: the one match of a day the
    # question named; numbered: the match at a place the question named ("game 4"), among every match in start order;
    # own: a player's own latest match ("in his last game")
    player: str | None = None  # for "own": whose latest match it is
    number: int | None = Field(default=None, ge=1)  # that place
    started_at: str | None = None  # ISO start, for "In the latest match, 6963307283 (2025-03-05): ..."
    matches_in_warehouse: int = Field(default=1, ge=0)


class ManyMatches(Frozen):
    """The question is about a set of matches (`season.MatchSelection`: all, a player's last N, a date range,
    a list of ids), answered with the figures of docs/season.md."""

    kind: Literal["matches"] = "matches"
    selection: MatchSelection
    words: tuple[str, ...] = ()  # the scope words read ("this season", "over his last 10 games")


PlanScope = Annotated[OneMatch | ManyMatches, Field(discriminator="kind")]


class SeasonFigure(Frozen):
    """Which cross-match figure of `combat_analysis.season` answers a plan with a `ManyMatches` scope
    (docs/season.md): a board of players, gods, roles or sides; matches ranked by a match figure; a match
    figure over the season; a player's profile, trend, or head-to-head with another."""

    figure: Literal["board", "matches", "season", "profile", "head_to_head", "trend"]
    metric: Identifier | None = None  # a season.figures game, record or match figure id
    statistic: Literal["total", "average", "record", "max", "min", "count"] = "total"
    players: tuple[str, ...] = ()  # exact names; two for a head-to-head
    subject: Literal["player", "god", "role", "side"] = "player"  # what a board ranks or lists
    # a board's filters: only the games of this player, god, role or side (team 1 Order, team 2 Chaos)
    role: str | None = Field(default=None, max_length=40)
    god: str | None = Field(default=None, max_length=80)
    side: int | None = Field(default=None, ge=1, le=2)
    # only the games the subject won (lost): "in the games she won"; "unknown": the matches with no winner
    result: Literal["win", "loss", "unknown"] | None = None
    versus: str | None = Field(default=None, max_length=200)  # the other player of kills_on / deaths_to
    best: Literal["best", "worst"] | None = None  # a profile asked for its best (or worst) match
    min_matches: int = Field(default=1, ge=1, le=100_000)  # a board of those with at least this many games
    min_default: bool = False  # min_matches is the default for averages and rates, not the question's own
    none: bool = False  # a board of only those whose count is zero ("who has never won a game")
    # two players' figures compared: is the first one's value more (less) than the second's (yes/no), or which
    # of the two has more (less): "which_more" ("who averages more kills, A or B")
    compare: Literal["more", "less", "which_more", "which_less"] | None = None
    # a board of only these entries of its subject, two or more gods, roles or sides named and set against each other
    # ("Thor or Loki, which wins more", "does order or chaos average more kills"): gods and roles as the matches
    # write them, sides as "1" and "2", in the question's order; `compare` says which is more, or yes or no
    named: tuple[EntryName, ...] = Field(default=(), max_length=12)
    chain: KillChain | None = None  # metric "kill_chains": the chain the question defined


class QueryPlan(Frozen):
    question: str
    intent: Intent
    metrics: tuple[Identifier, ...] = ()  # catalog metric ids, the first is the headline
    group_by: tuple[Identifier, ...] = ()  # catalog dimension ids
    filters: tuple[Filter, ...] = ()
    window: TimeWindow | None = None
    order: PlanOrder = "desc"
    limit: int = Field(default=10, ge=1, le=10_000)
    focus: tuple[str, ...] = ()  # resolved entity names the question is about
    assumptions: tuple[str, ...] = ()  # every reading the planner made: "'mateo' read as MateoUwU"
    summary: str = ""  # the plan in plain words, for the report's methodology section
    refusal: Refusal | None = None
    planner: Literal["offline", "llm"] = "offline"  # which planner produced it
    # A dependent step: run `then` after this plan, binding named parameters from this plan's first row.
    then: QueryPlan | None = None
    bind: dict[ParameterName, Identifier] = Field(default_factory=dict)  # parameter -> column of this plan's first row
    # Windows side by side ("first 10 minutes against the last 10"): one row group per window, keyed by the
    # `period` dimension (the window's label), instead of the single `window`.
    windows: tuple[TimeWindow, ...] = Field(default=(), max_length=12)
    # How the answer reads its rows: the leader (and the runner-up), the first `limit` rows with ties, every
    # row, one figure with its share of the team's and the match's total, or every row led by their average;
    # "count": how many rows there are (the players a condition keeps), with their names; "auto" lets the intent
    # decide. `position` is the rank asked about ("the second most").
    shape: PlanShape = "auto"
    position: int = Field(default=1, ge=1, le=100)
    # Further questions asked in the same sentence ("who got first blood and who won"), answered in turn.
    parts: tuple[QueryPlan, ...] = Field(default=(), max_length=8)
    # Readings that change what is answered, stated in the direct answer itself ("I read this as ...").
    caveats: tuple[str, ...] = ()
    # Which matches the plan reads (None: the one match of the connection, as before scopes existed), and for
    # a cross-match scope the season figure that answers it.
    scope: PlanScope | None = None
    season: SeasonFigure | None = None
    # A condition on the headline figure of each row (a figure per player, team, role or god only).
    condition: ValueCondition | None = None
    # A yes or no the direct answer opens with: is the first subject's headline figure more ("more") or less
    # ("less") than the second's ("did A out-damage B", "did order get more kills than chaos"); of one side's gold
    # difference minute by minute, was that side ever ahead ("more") or behind ("less"); beside a `check`, the check is
    # the question itself, answered first: does the subject checked hold the most ("more") or the least ("less") of a
    # ranking's figure ("did A get the most kills"), or is it the one an event names ("more": "did chaos win").
    compare: Literal["more", "less"] | None = None
    # A yes or no asked after the question about the subject its answer names ("..., and is that one a support", "..., is
    # he on order"): whether that subject is this player or has this role, side (`team`) or god; answered after the
    # answer itself (first, when `compare` is set beside it: the check is the question).
    check: Filter | None = None
    # The subjects of `focus` summed as one group set against the one other subject ("did A deal more damage than B and
    # C combined"): the answer gives each figure, the group's sum and which side is larger; `compare` is asked of the
    # side said first (the group when `focus[0]` is in it).
    summed: tuple[str, ...] = Field(default=(), max_length=12)
    # The kill chain the question defined (metric "kill_chains"): how many kills, how close, which reading.
    chain: KillChain | None = None

    def steps(self) -> tuple[tuple[int, QueryPlan], ...]:
        """Every step that compiles to a query, in query order, with its part (0: the main question):
        the main plan and its `then` chain, then each part and its chain. Query ids are q1, q2... in
        this order, so the composer can find each part's answer."""
        out: list[tuple[int, QueryPlan]] = []
        for index, part in enumerate((self, *self.parts)):
            step: QueryPlan | None = part
            while step is not None:
                out.append((index, step))
                step = step.then
        return tuple(out)


class SqlQuery(Frozen):
    """One validated SQL statement. Parameters are DuckDB named parameters (`$player`), bound from an
    earlier query's first row (`parameters`: name -> "<query_id>.<column>"), never spliced into text."""

    query_id: str
    purpose: str
    sql: str
    dependencies: tuple[str, ...] = ()
    parameters: dict[ParameterName, str] = Field(default_factory=dict)
    primary: bool = False  # the query whose result answers the question
