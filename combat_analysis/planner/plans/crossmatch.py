"""Cross-match plans: a question with a scope over several matches becomes a `SeasonFigure` of docs/season.md.

The question minus its scope words is read by the same readers as a one-match question (`read_question`:
names, metrics, shape, time windows), against the names of every match. The slots then pick the figure:

| slots | figure |
|---|---|
| two players and head-to-head words ("vs", "against each other", "head to head") | head-to-head |
| "god(s)" or "role(s)" as what is ranked or listed ("which gods win most in the Solo lane") | god or role records |
| one player and trend words ("how has X's KDA moved", "match by match", "compared with the previous match") | trend |
| one or two players | profiles: record, total, per-match average, best and worst match |
| no player | leaderboard: total, or per-match average with "average" words or for a ratio figure |

What a cross-match plan cannot honour is refused with the reason, never dropped: a time window inside the
matches, a figure that has no cross-match version (objectives, first blood, pentakills...).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from combat_analysis.contracts.plan import Intent, ManyMatches, QueryPlan, Refusal, SeasonFigure
from combat_analysis.contracts.selection import AllMatches, LastMatches, MatchList, MatchSelection, describe
from combat_analysis.planner.plans import refusals
from combat_analysis.planner.read import conditions
from combat_analysis.planner.read.names import find_roles
from combat_analysis.planner.read.reading import Reading, read_question
from combat_analysis.planner.read.scope import ScopeReading
from combat_analysis.planner.vocabulary import Vocabulary
from combat_analysis.season.figures import ADDITIVE_METRICS, PLAYER_METRICS, metric_label

_H2H = re.compile(r"\b(head[- ]to[- ]head|h2h|vs\.?|versus|against\s+each\s+other|against|rivalry|matchups?)\b")
_GODS = re.compile(r"\b(gods?|characters?|champions?|heroes?|picks?)\b")
_ROLES = re.compile(r"\b(roles?|positions?|lanes?)\b")
_GROUPED_BY_ROLE = re.compile(r"\b(which|what|each|every|per|by|all|the)\s+(roles?|positions?|lanes?)\b")
_TREND = re.compile(r"\b(trend(?:s|ed|ing)?|moved?|moving|changed?|changing|progress(?:ed|ion)?|evolved?|form|over\s+time|"
                    r"match\s+(?:by|after|to)\s+match|game\s+(?:by|after|to)\s+game|each\s+(?:match|game)|"
                    r"every\s+(?:match|game)|per\s+(?:match|game)\s+(?:figures?|values?)|improv(?:e|ed|ing)|"
                    r"declin(?:e|ed|ing)|compared?)\b")
_AVERAGE = re.compile(r"\b(average[sd]?|averaging|avg|mean|typical(?:ly)?|per[- ](?:match|game)|a\s+(?:match|game)|usually|normally)\b")
_TOTAL = re.compile(r"\b(total|in\s+total|combined|overall|sum|altogether|cumulative)\b")
_WIN_RATE = re.compile(r"\b(win[- ]?rates?|win\s+percentage|winning\s+percentage|win\s+%|wins?\s+most|win\s+the\s+most|"
                       r"most\s+(?:successful|winning))\b")
_WINS = re.compile(r"\b(wins|won|victories|record)\b")
_GAMES = re.compile(r"\b(how\s+many\s+(?:matches|games)|(?:matches|games)\s+played|played\s+the\s+most|most\s+(?:matches|games)"
                    r"|appearances|how\s+often\s+did\s+\S+\s+play|number\s+of\s+(?:matches|games))\b")
_BEST = re.compile(r"\b(best|top|strongest|greatest|highest)\s+(?:single\s+)?(match|game|performance)\b")
_WORST = re.compile(r"\b(worst|weakest|lowest)\s+(?:single\s+)?(match|game|performance)\b")
_GROUP_ORDER = {"kda": "average_kda", "damage_dealt": "average_damage", "gold": "average_gold"}
# Figures a question may name that have no cross-match version; the refusal names them honestly.
_NO_SEASON_FIGURE = {
    "objectives_taken": "objectives", "towers": "towers", "phoenixes": "phoenixes", "titans": "titans",
    "gold_furies": "gold furies", "fire_giants": "fire giants", "first_blood": "first blood",
    "gold_diff": "the gold difference", "team_fights": "team fights", "kill_streaks": "kill streaks",
    "mvp_score": "the MVP score", "npc_damage": "damage to NPCs", "hits": "hits", "kd": "K/D",
    "xpm": "XP per minute", "build": "builds", "death_recap": "death recaps", "gold_swing": "gold swings",
}
_MULTIKILLS = re.compile(r"\b(penta|quadra|quad|triple|double)[- ]?kills?\b|\bmulti[- ]?kills?\b|\bkill\s*streaks?\b")
SEASON_SUGGESTIONS = ("Who dealt the most damage across all matches?", "Which gods win most in the Solo lane?",
                      "How has the top player's KDA moved over their last 10 games?")


def _refuse(question: str, reason: str, notes: Sequence[str] = ()) -> QueryPlan:
    return QueryPlan(question=question, intent=Intent.REFUSE, assumptions=tuple(notes),
                     refusal=Refusal(reason=reason, suggestions=SEASON_SUGGESTIONS))


def _selection(scope: ScopeReading, players: Sequence[str], latest_ids: Sequence[str]) -> MatchSelection:
    if scope.last is not None:
        if players:
            return LastMatches(player=players[0], count=scope.last)
        return MatchList(match_ids=tuple(latest_ids[-scope.last:])) if latest_ids else AllMatches()
    return scope.selection if scope.selection is not None else AllMatches()


def _metric(r: Reading, text: str) -> tuple[str | None, str | None]:
    """The cross-match figure named, or (None, what has no cross-match version)."""
    if _MULTIKILLS.search(text):
        return None, "multi-kills (double to penta kills)"
    for m in r.metrics:
        if m in PLAYER_METRICS:
            return m, None
        if m in _NO_SEASON_FIGURE:
            return None, _NO_SEASON_FIGURE[m]
    if _WIN_RATE.search(text):
        return "win_rate", None
    if _GAMES.search(text):
        return "matches", None
    if _WINS.search(text):
        return "wins", None
    if r.metrics:
        return None, r.metrics[0].replace("_", " ")
    return None, None


def plan_across(question: str, scope: ScopeReading, vocab: Vocabulary, latest_ids: Sequence[str] = ()) -> QueryPlan:
    """The cross-match plan for a question whose scope is a set of matches (see the module docstring);
    `latest_ids` are the warehouse's match ids in start order ("the last 5 matches" with no player)."""
    rest = scope.rest or question
    head_to_head = bool(_H2H_WORDS.search(rest))
    # Head-to-head words are the figure, not a metric ("head" is not a misspelt "healed").
    r = read_question(_H2H_WORDS.sub(" vs ", rest) if head_to_head else rest, vocab)
    text = r.text
    notes = list(r.assumptions) + [f"'{w}' read as the scope: which matches are counted" for w in scope.words]
    if refusals.hostile(r.masked):
        return _refuse(question, "This looks like SQL or a command rather than a question; I only answer "
                                 "questions about the matches.")
    missing = refusals.out_of_scope(r.masked)
    if missing and "other matches" not in missing:  # other matches are what this plan reads
        return _refuse(question, f"The combat logs do not record {missing}, so this cannot be answered from them.")
    if r.ambiguous:
        mention = r.ambiguous[0]
        return QueryPlan(question=question, intent=Intent.REFUSE, refusal=Refusal(
            reason=f"'{mention.said}' fits more than one player, so I cannot tell whose figures you want; "
                   "please name the player.", options=tuple(mention.candidates)[:10]))
    if r.windows or r.at_minute is not None:
        said = r.windows[0].label if r.windows else f"minute {r.at_minute}"
        return _refuse(question, f"A time window inside the matches ('{said}') is not supported across matches: "
                                 "the season figures cover whole matches. Drop the window, or ask about one match "
                                 "with --match.", notes)
    players = _exact_case(tuple(dict.fromkeys(r.players)), question)
    unknown = refusals.unknown_name(r.masked, r)
    if unknown and not players:
        return _refuse(question, f"No player called '{refusals.no_digits(unknown)}' is in any match of the "
                                 "warehouse, so this cannot be answered.")
    if r.npcs:
        # season figures are per player, god and role; answering about the players would be another question
        npc = refusals.no_digits(r.npcs[0])
        return _refuse(question, f"Across matches I have figures per player, god and role, not for non-players "
                                 f"such as {npc}. Ask about one match (--match) for what it did.", notes)
    metric, unsupported = _metric(r, text)
    if unsupported:
        return _refuse(question, f"Across matches I cannot answer about {unsupported}: it is a one-match figure "
                                 "with no cross-match version. Ask about one match (--match), or across matches "
                                 "about damage, kills, deaths, assists, KDA, gold, healing, win rate or games "
                                 "played.", notes)
    # a place that names a role ("in the Solo lane") is the role filter across matches, not a map location
    unread = [w for w in r.unread if not (r.roles and find_roles(w, vocab.roles))]
    if unread:
        # an unread word may be a name or a qualifier; either way a season figure without it is another question
        words = ", ".join(f"'{refusals.no_digits(w)}'" for w in unread[:3])
        return _refuse(question, f"{words} matches no player, god, role or figure of these matches, so I will "
                                 "not answer a different question across them.", notes)
    if r.shape.per_minute and metric not in ("gpm", "dpm", "xpm"):
        return _refuse(question, "Per-minute figures across matches are gold, damage and experience per minute "
                                 "(GPM, DPM, XPM); other figures across matches are totals and per-match averages. "
                                 "Ask for the per-match average, or ask about one match (--match) for its "
                                 "per-minute rate.", notes)
    if _MEDIAN.search(text):
        return _refuse(question, "Across matches the middle figure is the mean of per-match figures, not the "
                                 "median. Ask for the average per match instead.", notes)
    least, condition_problem = _minimum_games(text)
    if condition_problem:
        return _refuse(question, condition_problem, notes)
    selection = _selection(scope, players, latest_ids)
    base = QueryPlan(question=question, intent=Intent.LOOKUP, assumptions=tuple(dict.fromkeys(notes)),
                     scope=ManyMatches(selection=selection, words=scope.words), focus=players)
    order: Literal["asc", "desc"] = "asc" if r.shape.order == "asc" else "desc"

    def made(intent: Intent, figure: SeasonFigure, **update: Any) -> QueryPlan:
        if least > 1 and figure.figure != "leaderboard":
            return _refuse(question, "A minimum number of games applies to a ranking of players across matches "
                                     "('who has the best KDA with at least ten games'), not to this figure.", notes)
        return base.model_copy(update={"intent": intent, "season": figure, "summary": _summary(figure, selection),
                                       **update})

    if len(players) == 2 and (head_to_head or ((_H2H.search(text) or r.shape.compare) and metric is None)):
        figure = SeasonFigure(figure="head_to_head", players=players)
        return made(Intent.COMPARISON, figure)
    role_filter = r.roles[0] if r.roles else None
    by_god = bool(_GODS.search(text)) and not players
    by_role = not by_god and not players and bool(_GROUPED_BY_ROLE.search(text)) and role_filter is None
    if by_god or by_role:
        by = ("win_rate" if metric in ("win_rate", "wins") else _GROUP_ORDER.get(metric or "", "games"))
        if metric is not None and metric not in ("win_rate", "wins", "matches") and metric not in _GROUP_ORDER:
            return _refuse(question, f"Per god and per role I have games, wins, win rate, average KDA, damage and "
                                     f"gold, not {metric_label(metric)}.", notes)
        figure = SeasonFigure(figure="groups", group="god" if by_god else "role",
                              role=role_filter if by_god else None, by=by)  # type: ignore[arg-type]
        return made(Intent.BREAKDOWN, figure, order=order, limit=r.shape.top or 10)
    statistic = _statistic(metric, text)
    trend = len(players) == 1 and bool(scope.previous or _TREND.search(text)) and metric != "win_rate"
    if (not trend and statistic == "total" and metric is not None and metric not in ADDITIVE_METRICS
            and metric in PLAYER_METRICS):
        statistic = "average"
        base = base.model_copy(update={"assumptions": (*base.assumptions, f"{metric_label(metric)} has no total "
                                                       "across matches: read as the mean of the per-match figures")})
    if trend:
        figure = SeasonFigure(figure="trend", players=players, metric=metric or "kda")
        return made(Intent.TIMELINE, figure, metrics=(figure.metric or "kda",))
    if players:
        best = "worst" if _WORST.search(text) else "best" if _BEST.search(text) else None
        figure = SeasonFigure(figure="profile", players=players, metric=metric or "damage_dealt",
                              statistic=statistic, best=best)  # type: ignore[arg-type]
        intent = Intent.COMPARISON if len(players) > 1 else Intent.LOOKUP
        return made(intent, figure, metrics=(figure.metric or "damage_dealt",))
    if metric is None:
        return _refuse(question, "I could not tell which figure to rank across matches. Name one, such as "
                                 "damage, kills, KDA, gold, win rate or games played.", notes)
    figure = SeasonFigure(figure="leaderboard", metric=metric, statistic=statistic, min_matches=least)
    return made(Intent.RANKING, figure, metrics=(metric,), group_by=("player",), order=order,
                limit=r.shape.top or 10, position=r.shape.position)


_H2H_WORDS = re.compile(r"\b(head[- ]to[- ]head|h2h)\b", re.IGNORECASE)


def _exact_case(players: tuple[str, ...], question: str) -> tuple[str, ...]:
    """Names are exact (docs/season.md): of two players whose names differ only in case, the one written
    exactly as in the question is meant."""
    return tuple(p for p in players if not (p not in question and any(
        o != p and o.casefold() == p.casefold() and o in question for o in players)))


_MEDIAN = re.compile(r"\bmedian\b")
_GAMES_NEXT = re.compile(r"\s*(?:games?|matches|match|appearances)\b")


def _minimum_games(text: str) -> tuple[int, str | None]:
    """'With at least 3 games' is a leaderboard of the players with that many (min_matches); any other condition
    on a value is not something the season figures can apply, so it is refused rather than dropped."""
    found = conditions.read_condition(text)
    if found is None or (found.needs_figure and not found.figure):
        return 1, None
    if found.condition is not None and _GAMES_NEXT.match(text[found.end:]):
        value = found.condition.value
        if found.condition.op in (">", ">=") and value == int(value):
            return max(1, int(value) + (1 if found.condition.op == ">" else 0)), None
    return 1, (f"A condition such as '{found.said}' is applied across matches only as a minimum number of games "
               "('with at least ten games'). Ask without it, or about one match (--match), where conditions on a "
               "figure are applied.")


def _statistic(metric: str | None, text: str) -> Literal["total", "average", "record"]:
    if metric in ("matches", "wins", "win_rate"):
        return "record"
    if _AVERAGE.search(text) and not _TOTAL.search(text):
        return "average"
    return "total"


def _summary(figure: SeasonFigure, selection: MatchSelection) -> str:
    what = {
        "leaderboard": f"players ranked by the {figure.statistic} of {metric_label(figure.metric or '')}",
        "profile": "the record, totals, per-match averages and best and worst match of " + " and ".join(figure.players),
        "groups": f"each {figure.group}'s games, wins, win rate and averages"
                  + (f" in the {figure.role} role" if figure.role else ""),
        "head_to_head": "head-to-head of " + " and ".join(figure.players),
        "trend": f"{figure.players[0] if figure.players else ''}'s {metric_label(figure.metric or '')} match by match",
    }[figure.figure]
    return f"Across matches: {what}, over {describe(selection)} (docs/season.md)."
