"""Cross-match plans: a question with a scope over several matches becomes a `SeasonFigure` of docs/season.md.

The question minus its scope words (and minus a minimum of games, "with at least 5 games") is read by the same
readers as a one-match question (`read_question`: names, metrics, qualifiers, shape), against the names of every
match. Three slots of its own then pick the figure, each read on its own:

- **figure** (`_figure`): a per-game figure (any player figure, first bloods, objectives, deaths by cause, kills on
  one player), a record figure (games, wins, losses, win rate) or a match figure (length, first blood time, gold
  lead);
- **subject** (`_subject`): what is ranked or described: players, gods, roles, sides, matches, or the season
  as a whole; a named god, role or side with nobody else named is that one looked up; two or more of one kind
  named against each other (`_compared_entries`) are those compared;
- **statistic** (`_statistic`): total, per-game mean, best or worst single game, or the record.

| slots | figure |
|---|---|
| two players and head-to-head words, or a comparison without a figure | head-to-head |
| one player and trend words | trend |
| one or more players, a player figure, no god, role or side | profile: record, total, per-game mean, best and worst match |
| players, gods, roles or sides | board: ranked, listed, or one looked up, with their games |
| two or more gods, roles or sides named against each other | board of those alone, which is more (or yes/no) |
| matches, or a match figure with a superlative | matches ranked by a match figure |
| a match figure with no one named | the figure over the season (total, mean, number of matches) |

What a cross-match plan cannot honour is refused with the reason, never dropped: a time window inside the
matches, a figure that has no cross-match version (kill streaks, team fights, the MVP score...; a multi-kill only as the question defines it, `chains.across`), a non-player.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from itertools import pairwise
from typing import Any, Literal

from combat_analysis.contracts.plan import Intent, ManyMatches, QueryPlan, Refusal, SeasonFigure
from combat_analysis.contracts.selection import AllMatches, LastMatches, MatchList, MatchSelection, describe
from combat_analysis.formatting import plural
from combat_analysis.planner.plans import chains, refusals
from combat_analysis.planner.plans.cues import POSITIONS
from combat_analysis.planner.read import compounds, conditions, parts, yesno
from combat_analysis.planner.read.framing import without_framing
from combat_analysis.planner.read.names import find_mentions, find_roles
from combat_analysis.planner.read.reading import Qualifier, Reading, read_qualifiers, read_question
from combat_analysis.planner.read.scope import HABIT, HEAD_TO_HEAD, RECENT_FORM, ScopeReading
from combat_analysis.planner.read.timewords import _WORD_NUMBERS
from combat_analysis.planner.read.words import ROLE_PERSON_SAID, ROLE_SAID, STORAGE, unknown_words
from combat_analysis.planner.vocabulary import Vocabulary
from combat_analysis.season.boards import (
    COUNTED_TOGETHER,
    DEFAULT_MIN_GAMES,
    FIRST_TAKEN,
    GAME_FIGURES,
    MATCH_FIGURES,
    OBJECTIVE_KINDS,
    RECORD_FIGURES,
    SEASON_COUNTS,
    side_name,
)
from combat_analysis.season.figures import ADDITIVE_METRICS, PLAYER_METRICS, metric_label

SEASON_SUGGESTIONS = ("Who dealt the most damage across all matches?", "Which gods win most in the Solo lane?",
                      "How has the top player's KDA moved over their last 10 games?")
Subject = Literal["player", "god", "role", "side", "matches", "season"]
Family = Literal["game", "record", "match"]

# --- the figure slot ---------------------------------------------------------------------------------------------

_H2H = re.compile(r"\b(head[- ]to[- ]head|h2h|vs\.?|versus|against\s+each\s+other|against|rivalry|matchups?)\b")
_H2H_WORDS = HEAD_TO_HEAD
_TREND = re.compile(r"\b(trend(?:s|ed|ing)?|moved?|moving|changed?|changing|progress(?:ed|ion)?|evolved?|form|over\s+time|"
                    r"match\s+(?:by|after|to)\s+match|game\s+(?:by|after|to)\s+game|each\s+(?:match|game)|"
                    r"every\s+(?:match|game)|per\s+(?:match|game)\s+(?:figures?|values?)|improv(?:e|ed|ing)|"
                    r"declin(?:e|ed|ing)|compared?|"
                    # recent form asked ("lately", "these days"): how the games went, one after another
                    + RECENT_FORM.pattern.removeprefix(r"\b(?:").removesuffix(r")\b") + r")\b")
_AVERAGE = re.compile(r"\b(average[sd]?|averaging|avg|mean|typical(?:ly)?|per[- ](?:match|game)|a\s+(?:match|game)|"
                      r"usual(?:ly)?|normal(?:ly)?|on\s+avg)\b")
# "how often" and "the number of times" count too: "how often did someone die to minions" is how many times
_TOTAL = re.compile(r"\b(total|in\s+total|combined|overall|sum|altogether|cumulative|how\s+many|how\s+much|"
                    r"how\s+(?:often|frequently)|number\s+of\s+times)\b")
# "a game" alone after a verb is per game ("how much damage does X do a game"); "in a game" is one game
_SINGLE_GAME = re.compile(r"\bin\s+(?:one|a\s+single|a|any|one\s+single|a\s+given)\s+(?:match|game)\b"
                          r"|\b(?:one|a\s+single|any|one\s+single|a\s+given)\s+(?:match|game)\b"
                          r"|\bsingle[- ](?:match|game)\b|\bone[- ](?:match|game)\b"
                          # "the biggest damage game", "highest kill games": a game named by its figure
                          r"|\b(?:biggest|largest|highest|best|greatest|top|lowest|smallest|fewest|least|worst|"
                          r"weakest|poorest)[-\s]+"
                          r"(?:(?!the\b|this\b|that\b|in\b|of\b|a\b|per\b|each\b|every\b|any\b|one\b)\w+[-\s]+){1,2}"
                          r"(?:match|game)(?:es|s)?\b"
                          # "the record for kills": the most in one game
                          r"|\brecords?\s+(?:for|in)\b")
_WIN_RATE = re.compile(r"\b(win[- ]?rates?|w\s*/\s*l|win\s*[-/]\s*loss(?:es)?|win\s+percentage|winning\s+percentage|win\s+%|wins?\s+most|"
                       r"win\s+the\s+most(?!\s+(?:matches|games))|"
                       r"most\s+(?:successful|winning)|records?(?!\s+(?:for|in)\b))\b")
# "where" that picks games, not a place: "the game where he died the most"
_WHERE_OF_GAMES = re.compile(r"\b(?:games?|match(?:es)?|ones?|times?|those|any|days?)\s+where\b")
_BEST_OF_KIND = re.compile(r"\b(?:best|worst|strongest|weakest|most\s+successful|least\s+successful)\s+"
                           r"(?:and\s+(?:best|worst)\s+)?(?:gods?|roles?|sides?|picks?|characters?)\b"
                           # ... or said after it: "which god is the best", "what role has been the weakest"
                           r"|\b(?:which|what)\s+(?:gods?|roles?|sides?|picks?|characters?)\b[^?.;]*"
                           r"\b(?:best|worst|strongest|weakest|most\s+successful|least\s+successful)\b")
# Who took part: "how many different players have we seen", "number of gods played".
_TOOK_PART = re.compile(r"\b(?:how\s+many|number\s+of|count\s+(?:of|the|all))\s+(?:(?:all\s+)?the\s+)?"
                        r"(?:different\s+|diff\s+|distinct\s+|unique\s+|individual\s+)?"
                        r"(players|people|gods|characters|heroes)\b")
# Verbs of taking part in a game, said of the players or gods counted ("have shown up", "took part", "featured")
_APPEARED = re.compile(r"\b(?:show(?:s|ed|n|ing)?|turn(?:s|ed|ing)?)\s+up\b|\b(?:took|taken|take|takes|taking)\s+part\b"
                       r"|\bparticipat(?:e|es|ed|ing)\b|\bfeatur(?:e|es|ed|ing)\b|\bappear(?:s|ed|ing)?\b"
                       r"|\bjoin(?:s|ed|ing)?\b")
_LOSSES = re.compile(r"\b(loss(?:es)?|lost|lose|loses|losing|defeats?|defeated)\b")
_WINS = re.compile(r"\b(wins|won|win|victories|victory|winners?)\b")
_GAMES = re.compile(r"\b(how\s+many\s+(?:matches|games)|(?:matches|games)\s+played|appearances?|appeared|"
                    r"number\s+of\s+(?:matches|games)|play(?:s|ed|ing)?|picked|picks?|chos(?:e|en)|choose[sn]?|popular|favou?rites?|mains?|"
                    r"go[- ]to|comfort|(?:most|fewest|least|more|fewer)\s+(?:matches|games))\b")
# a player's best or worst game, its figure maybe between: "best game", "lowest-kill game", "highest damage match"
_BEST = re.compile(r"\b(best|top|strongest|greatest|highest|biggest|largest)[-\s]+(?:(?!of\b|in\b)\w+[-\s]+){0,2}?"
                   r"(match|game|performance)\b")
_WORST = re.compile(r"\b(worst|weakest|lowest|smallest|fewest|least|poorest)[-\s]+(?:(?!of\b|in\b)\w+[-\s]+){0,2}?"
                    r"(match|game|performance)\b")
_MULTIKILLS = re.compile(r"\b(penta|quadra|quad|triple|double)[- ]?kills?\b|\bmulti[- ]?kills?\b|\bkill\s*streaks?\b"
                         r"|\bkilling\s+sprees?\b|\b(?:pentas?|quadras?)\b")
_FIRST_BLOOD_VICTIM = re.compile(r"\bfirst[- ]blooded\b|\b(?:die[sd]?|dying)\s+first\b|\b(?:been|was|were|is)\s+first[- ]blood(?:ed)?\b"
                                 r"|\b(?:got|get|gets|getting)\s+first[- ]blooded\b"  # "got first blood" drew it
                                 r"|\bdied\s+first\b|\bfirst\s+to\s+die\b|\bvictims?\s+of\s+(?:the\s+)?first\s+blood\b"
                                 r"|\bfirst\s+blood\s+victims?\b|\b(?:gave|given|give|gives|giving|conceded?|surrender(?:ed)?)"
                                 r"\s+(?:up\s+|away\s+)?first\s+blood\b")
# "when is first blood", "what minute did first blood fall": its time, not its victim ("who was first blood")
_FIRST_BLOOD_TIME = re.compile(r"\b(?:when|what\s+(?:time|minute|second))\s+(?:is|was|does|did)\s+(?:the\s+)?"
                               r"first[- ]blood\b(?!ed)")
_FIRST_BLOODS = re.compile(r"\bfirst[- ]?bloods\b|\bfbs\b")
# A count denied: "who has never won", "who hasn't died once", "zero first bloods": those whose count is 0.
# ("never fails to" is a habit, the opposite of a count denied; "i didn't see", "i haven't checked": the asker's)
_NEVER = re.compile(r"(?<!\bi\s)(?<!\bi've\s)\b(?:never(?!\s+fail(?:s|ed)?\s+to\b)|hasn'?t|haven'?t|has\s+not|have\s+not|didn'?t|did\s+not|yet\s+to)"
                    r"(?:\s+\w+\s+(?:even\s+)?once)?\b"
                    r"|\bnot\s+(?:a\s+single|once|one|even\s+one|any)\b|\bnot\s+\w+\s+(?:even\s+)?once\b|\bwithout\s+(?:a\s+|any\s+)?(?:single\s+)?\w+"
                    r"|\bzero\s+\w+")
_WHEN = re.compile(r"\b(fastest|earliest|quickest|soonest|latest|slowest|when|time|timing|at\s+what\s+minute|"
                   r"how\s+(?:early|fast|soon|late))\b")
_EARLY = re.compile(r"\b(fastest|earliest|quickest|soonest)\b")
_LATE = re.compile(r"\b(latest|slowest)\b")
# Deaths asked in the passive ("has been killed by towers", "died to non-players") and by non-players in general.
_KILLED = re.compile(r"\b(?:been|got|get|gets|getting|was|were|is|are)\s+(?:\S+\s+)?killed\b|\bkilled\s+by\b|\bdied\s+to\b"
                     r"|\bdeaths?\s+(?:to|by|from)\b")
_BY_NPCS = re.compile(r"\b(?:to|by|from)\s+(?:the\s+|a\s+)?(?:non[- ]?players?|npcs?|neutrals?|the\s+environment|"
                      r"non[- ]?player\s+\w+)\b")
_PERFORM = re.compile(r"\bhow\s+(?:do|does|did|has|have|is|are|well)\b.*\b(?:do|doing|done|did|perform(?:s|ed|ing)?|"
                      r"fare[sd]?|faring|going|gone|good|well)\b")
# "by one player" is no time ("before minute 1" to the time reader): the figure of a player
_BY_ONE = re.compile(r"\b(by|from|for)\s+one\s+(?!minutes?\b|mins?\b|seconds?\b)(?=[a-z])")
# "most often" is "the most" of a count across matches ("picked most often"), not a figure of its own
_OFTEN = re.compile(r"\b(most|least|more|less|fewest)\s+(?:often|frequently|times)\b")
# Figures a question may name that have no cross-match version; the refusal names them honestly.
_NO_SEASON_FIGURE = {
    "team_fights": "team fights", "kill_streaks": "kill streaks",
    "npc_damage": "damage dealt by non-players", "hits": "hits", "build": "builds", "death_recap": "death recaps",
    "gold_swing": "gold swings",
}
# Catalog figures read under another id across matches.
_CATALOG = {"first_blood": "first_bloods", "match_info": "duration_s", "gold_diff": "largest_gold_lead",
            "kill_events": "kills", "objective_events": "objectives_taken"}
_RESULT_WORDS = frozenset({"winner", "roster"})
_DEATH_KINDS = {"structure": "deaths_to_structures", "minion": "deaths_to_minions", "jungle": "deaths_to_jungle",
                "boss": "deaths_to_bosses", "player": "deaths_to_players"}
_KILL_VERBS = frozenset({"kill", "kills", "killed", "killing", "slay", "slew", "slain", "on", "against", "score on",
                         "scored on"})
# Matches ranked by what their adjective says: "the longest game", "the closest gold race".
_MATCH_ADJECTIVES: dict[str, tuple[str, Literal["asc", "desc"]]] = {
    "longest": ("duration_s", "desc"), "shortest": ("duration_s", "asc"), "quickest": ("duration_s", "asc"),
    "fastest": ("duration_s", "asc"), "slowest": ("duration_s", "desc"), "bloodiest": ("kills", "desc"),
    "closest": ("final_gold_difference", "asc"), "tightest": ("final_gold_difference", "asc"),
    "most one sided": ("largest_gold_lead", "desc"), "most lopsided": ("largest_gold_lead", "desc"),
}
_MATCH_ADJECTIVE = re.compile(r"\b(" + "|".join(a.replace(" ", r"[- ]") for a in _MATCH_ADJECTIVES) + r")\b")


@dataclass(frozen=True)
class FigureSlot:
    figure: str | None
    family: Family | None
    versus: str | None = None  # the other player of kills_on / deaths_to
    unsupported: str | None = None  # what the question named that has no cross-match version
    order: Literal["asc", "desc"] | None = None  # an order the figure's own words say ("the fastest first blood")


# Two players set against each other: "the fights" between them are their duels (the head-to-head), no team fights
_SET_AGAINST_EACH = re.compile(r"\b(?:vs\.?|versus|against)\b")


def _catalog_figure(r: Reading, text: str) -> tuple[str | None, str | None]:
    """The first figure the shared readers found that has a cross-match version, or what has none."""
    duel = len(set(r.players)) == 2 and bool(_SET_AGAINST_EACH.search(text)) \
        and not any(h.metric_id == "team_fights" and "team" in h.phrase for h in r.metric_hits)
    for m in r.metrics:
        if m in _RESULT_WORDS or (m == "team_fights" and duel):
            continue
        season_id = _CATALOG.get(m, m)
        if season_id in GAME_FIGURES or season_id in MATCH_FIGURES:
            return season_id, None
        return None, _NO_SEASON_FIGURE.get(m, metric_label(m))
    return None, None


# A loss said to the side that won it ("have we ever lost to chaos", "beaten by order"): that side's wins.
LOST_TO = re.compile(r"\b(?:lost|lose|loses|losing|beaten|beat|defeated|fell)\s+(?:to|against|by)\s+(?:the\s+)?"
                     r"(order|chaos|team\s*[12])(?:\s+(?:side|team))?\b")


def _record_figure(text: str) -> str | None:
    # games with no winner are games, not wins ("which games have no winner")
    for figure, pattern in (("matches", _NO_RESULT), ("win_rate", _WIN_RATE), ("wins", LOST_TO), ("losses", _LOSSES),
                            ("wins", _WINS), ("matches", _GAMES)):
        if pattern.search(text):
            return figure
    return None


def _versus(r: Reading, kinds: frozenset[str] | None = None) -> str | None:
    """The player a kill or death qualifier names ("killed NAME", "deaths to NAME", "killed by NAME")."""
    for q in r.qualifiers:
        if q.kind == "player" and q.name in r.players and (kinds is None or q.preposition in kinds):
            return q.name
    return None


def _refined(figure: str, r: Reading, text: str) -> FigureSlot:
    """A figure made precise by its qualifiers: kills on one player, deaths by cause or to one player, the first
    blood's time."""
    if figure == "kills" and _KILLED.search(text):
        figure = "deaths"  # "who has been killed by towers the most": the victims' deaths
    if figure == "kills" and (victim := _versus(r, _KILL_VERBS)):
        return FigureSlot("kills_on", "game", versus=victim)
    if figure == "deaths":
        return _deaths(r, text)
    if figure in FIRST_TAKEN and _WHEN.search(text) and re.search(r"\bfirst\b", text):  # "the earliest first tower"
        order = "asc" if _EARLY.search(text) else "desc" if _LATE.search(text) else None
        return FigureSlot(FIRST_TAKEN[figure][0], "match", order=order)  # type: ignore[arg-type]
    if figure == "first_bloods" and _WHEN.search(text):
        order = "asc" if _EARLY.search(text) else "desc" if _LATE.search(text) else None
        return FigureSlot("first_blood_s", "match", order=order)  # type: ignore[arg-type]
    return FigureSlot(figure, "match" if figure not in GAME_FIGURES else "game")


def _objective_killed(r: Reading) -> str | None:
    """The objective kind of the one objective a kill verb names ("which players never slew a fire giant", "how many times
    has X slain the fire giant"), by its word in `_EVENT_KINDS`: the objectives of that kind a player took; else None."""
    said = [_EVENT_KIND.search((q.name or q.said).lower()) for q in r.qualifiers
            if q.preposition in _KILL_VERBS and q.kind in ("boss", "structure")]
    kinds = {m.lastgroup for m in said if m is not None and m.lastgroup in OBJECTIVE_KINDS}
    return next(iter(kinds)) if len(kinds) == 1 else None


def _deaths(r: Reading, text: str) -> FigureSlot:
    """Deaths, or deaths by one cause: to one player, to non-players, to a kind of non-player."""
    if killer := _versus(r, frozenset({"by", "to", "from", "against"})):
        return FigureSlot("deaths_to", "game", versus=killer)
    if _BY_NPCS.search(text):
        return FigureSlot("deaths_to_npcs", "game")
    if (boss := _named_boss(r)) is not None:  # "died to the fire giant": deaths to that boss, by its name
        return FigureSlot(boss, "game")
    kind = next((q.kind for q in _death_qualifiers(r) if q.kind in _DEATH_KINDS and q.name is None), None)
    if kind == "structure" and (structure := _STRUCTURE_WORD.search(text)):  # "died to a tower": towers alone
        return FigureSlot(f"deaths_to_{_STRUCTURE_KINDS[structure.group(1)]}", "game")
    return FigureSlot(_DEATH_KINDS[kind] if kind is not None else "deaths", "game")


# A boss named as what killed a player ("died to the fire giant", "killed by gold fury"): the deaths to it, counted by
# its name as METRICS.md names the bosses. The boss is the killer here, not the subject of a figure.
_BOSS_DEATHS = {"gold fury": "deaths_to_gold_furies", "fire giant": "deaths_to_fire_giants"}


def _named_boss(r: Reading) -> str | None:
    names = {n.lower() for n in (*r.npcs, *(r.causes.names if r.causes is not None and not r.causes.negated else ()))}
    found = {figure for name in names for word, figure in _BOSS_DEATHS.items() if word in name}
    return found.pop() if len(found) == 1 else None


# One kind of structure said, not the whole kind ("structures", "buildings"): its deaths alone, not a nearby sum.
_STRUCTURE_WORD = re.compile(r"\b(tower|phoenix|titan)(?:s|es)?\b")
_STRUCTURE_KINDS = {"tower": "towers", "phoenix": "phoenixes", "titan": "titans"}


def _death_qualifiers(r: Reading) -> tuple[Qualifier, ...]:
    """The qualifiers, with those the shared reader gave to a cause of death ("died to towers"): a kind word said
    there is a whole kind of killer; a non-player said by its name ("the fire giant") is no kind."""
    causes = r.causes
    if causes is None or causes.negated:
        return r.qualifiers
    said = r.text[causes.start:causes.end]
    return (*r.qualifiers, *read_qualifiers(said, (), [(name, name) for name in causes.names]))


def _agrees(said: str, adjective_figure: str) -> bool:
    """A figure word that names the same thing as a match adjective ("gold" beside "closest": the gold lead)."""
    said = _CATALOG.get(said, said)
    return said == adjective_figure or bool((set(said.split("_")) & set(adjective_figure.split("_"))) - {"largest", "s"})


def _adjective_figure(r: Reading, text: str) -> FigureSlot | None:
    """A match adjective names its own figure ("the longest game", "the closest gold race"); figure words beside
    it only agree with it ("gold"), else they are the figure ("the fastest first blood")."""
    adjective = _MATCH_ADJECTIVE.search(text)
    if adjective is None:
        return None
    figure, order = _MATCH_ADJECTIVES[re.sub(r"[- ]+", " ", adjective.group(1))]
    if all(_agrees(m, figure) for m in r.metrics if m not in _RESULT_WORDS):
        return FigureSlot(figure, "match", order=order)
    return None


def _took_part(r: Reading, text: str) -> FigureSlot | None:
    """How many players or gods took part ("how many different players have we seen"); None when the players are
    counted by a figure ("how many players died to towers": their deaths to towers)."""
    took_part = _TOOK_PART.search(text)
    figured = [m for m in r.metrics if m not in _RESULT_WORDS] or r.causes is not None or _KILLED.search(text)
    if took_part is None or r.players or figured:
        return None
    return FigureSlot("players" if took_part.group(1) in ("players", "people") else "gods", "record")


# A rate said beside both wins and losses ("wins, losses and %", "wins and losses and loss
# percentage"): the record, whose one rate is the win rate (docs/season.md), whichever figure word is said last.
_RATE_WORD = re.compile(r"%|\b(?:rates?|percent(?:age)?s?|pct|ratio)\b")


def _record_with_rate(text: str) -> bool:
    return bool(_WINS.search(text) and _LOSSES.search(text) and _RATE_WORD.search(text))


def _figure(r: Reading, text: str) -> FigureSlot:
    """The figure slot (see the module docstring)."""
    if _MULTIKILLS.search(text):
        return FigureSlot(None, None, unsupported="multi-kills and kill streaks")
    if POSITIONS.search(text) and not _WHERE_OF_GAMES.search(text):
        # where on the map: each match's kill positions, never a count or average of them
        return FigureSlot(None, None, unsupported="where on the map things happened")
    if _FIRST_BLOOD_VICTIM.search(text) and not _FIRST_BLOOD_TIME.search(text):
        return FigureSlot("first_blood_deaths", "game")
    if _WIN_RATE.search(text) or _record_with_rate(text):
        return FigureSlot("win_rate", "record")
    took_part = _took_part(r, text)
    if took_part is not None:
        return took_part
    adjective = _adjective_figure(r, text)
    if adjective is not None:
        return adjective
    found, unsupported = _catalog_figure(r, text)
    if found is None and not unsupported and _FIRST_BLOODS.search(text):
        found = "first_bloods"
    if found is None and not unsupported and _KILLED.search(text):
        found = "deaths"
    if found in (None, "kills") and not unsupported and (taken := _objective_killed(r)) is not None:
        return FigureSlot(taken, "game")  # "which players never slew a fire giant": the Fire Giants each one took
    if unsupported:
        return FigureSlot(None, None, unsupported=unsupported)
    if found is not None:
        return _refined(found, r, text)
    return _record_slot(text)


def _record_slot(text: str) -> FigureSlot:
    """The slot of a question that names no figure of the catalog: a record, or the MVP score of a best person."""
    record = _record_figure(text)
    if _BEST_OF_KIND.search(text) and record in (None, "matches"):
        record = "win_rate"  # "the best gods", "her worst role": by their win rate
    if record is None and _PERFORM.search(text):
        record = "win_rate"  # "how do the supports do": their record, games, wins and losses
    if record is None and _BEST_PERSON.search(text):
        return FigureSlot("mvp_score", "game")  # "who was our best mid": the MVP score per game, as in one match
    return FigureSlot(record, "record" if record else None)


# A person asked as the best or worst with no figure named: the match report's MVP score, a mean per game
# one who plays a role, said as a person: "which jungler", "what support" (never "which role")
_ONE_OF_A_ROLE = f"(?:{ROLE_PERSON_SAID})"
_BEST_PERSON = re.compile(r"\b(?:who(?:'s|s|\s+is|\s+was|\s+has\s+been)?|which\s+(?:player|person|guy|one)s?"
                          rf"|(?:which|what)\s+{_ONE_OF_A_ROLE})\b[^?.;]*\b(?:best|worst|strongest|weakest|mvp)\b")


# --- a grouping said with an article ---------------------------------------------------------------------------------

# "The most kills by a god", "highest average damage for a role", "most wins by any one side", "most gold by a
# player": after a ranking word, the article names no one, it says what is ranked. Read as "by <kind>", as if said
# without it; after a kill verb ("killed by a god") it is the killer, and stays.
_ARTICLE_KINDS = {"god": "god", "character": "god", "champion": "god", "champ": "god", "hero": "god", "role": "role",
                  "position": "role", "lane": "role", "side": "side", "team": "side", "player": "player",
                  "person": "player"}
_ARTICLE_GROUPING = re.compile(
    r"\b(?P<rank>most|fewest|least|highest|lowest|biggest|largest|best|worst|top|more|fewer|max(?:imum)?|"
    r"min(?:imum)?|rank(?:ed)?|leads?|leader)\b(?P<between>(?:\s+[\w'/-]+){1,5}?)\s+"
    r"(?P<said>(?:by|for|from|of)\s+(?:a|an|any|any\s+one|one|a\s+single|one\s+single|each)\s+"
    r"(?P<kind>" + "|".join(sorted(_ARTICLE_KINDS, key=len, reverse=True)) + r")(?:e?s)?)\b")
_KILLED_BY = re.compile(r"\b(?:killed|slain|blooded|murdered|executed|taken\s+out)$")


def _article_grouping(text: str) -> tuple[str, tuple[str, ...]]:
    """The text with a grouping said with an article (`_ARTICLE_GROUPING`) said as "by <kind>", and the reading."""
    found = _ARTICLE_GROUPING.search(text)
    if found is None or _KILLED_BY.search(found.group("between")):
        return text, ()
    kind = _ARTICLE_KINDS[found.group("kind")]
    note = f"'{found.group('said')}' read as by {kind}: {kind}s ranked"
    return text[:found.start("said")] + f"by {kind}" + text[found.end("said"):], (note,)


# --- reflexive emphasis ----------------------------------------------------------------------------------------------

# A reflexive after a player's figure ("how many kills did X get himself", "X's damage on her own", "did they get
# them by themselves") points back at the one already named: it names no one new, and the figure is theirs as it is
# (a kill is the killing blow's, assisted or not). "Solo" said so, after the figure and not as a place ("as solo",
# "in the solo lane", "solo kills"), is the same emphasis once a player is named.
_REFLEXIVE = re.compile(r"(?:\b(?:all\s+)?(?:by|on)\s+)?\b(?:him|her|them|it|one|my|your|our)sel(?:f|ves|fs)\b"
                        r"|\bhisself\b|\b(?:all\s+)?on\s+(?:his|her|their|its|one's)\s+own\b")
_SOLO = re.compile(r"(?<!\bas\s)(?<!\bon\s)(?<!\bin\s)(?<!\bat\s)(?<!\bthe\s)(?<!\ba\s)(?<!\ban\s)(?<!\bfrom\s)"
                   r"(?<!\bplaying\s)(?<!\bplayed\s)(?<!\bplays\s)(?<!\bhis\s)(?<!\bher\s)(?<!\btheir\s)(?<!'s\s)"
                   r"\b(?:(?:all|completely|totally|fully)\s+)?solo\b(?=\s*(?:[?.!,;]|$))")


def _reflexive(text: str, vocab: Vocabulary) -> tuple[str, tuple[str, ...]]:
    """The text without reflexive emphasis (`_REFLEXIVE`, `_SOLO`), and the reading said."""
    said = [m.group(0) for m in _REFLEXIVE.finditer(text)]
    text = _REFLEXIVE.sub(" ", text)
    solo = _SOLO.search(text)
    if solo is not None and read_question(text, vocab).players:
        said.append(solo.group(0))
        text = text[:solo.start()] + " " + text[solo.end():]
    if not said:
        return text, ()
    kills = " (a kill is the killing blow's, assisted or not)" if re.search(r"\bkill", text) else ""
    return " ".join(text.split()), tuple(f"'{s}' read as emphasis: it names no one new, and the figure is counted "
                                         f"as without it{kills}" for s in dict.fromkeys(said))


# "order" is an ordinary word ("in order", "build order") that the shared reader takes as a side only with
# "side" or "team"; across matches it is a side too as the subject of a result ("does order win", "order's wins").
_ORDER_RESULT = re.compile(r"\border(?:'s)?\s+(?:wins?|won|winning|loses|lose|lost|losing|win[- ]?rates?|records?)\b"
                           r"|\b(?:does|did|do|has|have|is)\s+order\s+(?:win|won|lose|lost|do|done|fare|fared)\b")


# --- the subject slot ----------------------------------------------------------------------------------------------

_MATCH_SUBJECT = re.compile(
    r"\b(?:which|what)\s+(?:single\s+)?(?:match|game)(?:es)?\b"
    r"|\b(?:which|what)\s+(?:day|date)\b"  # "what day had the most kills": a match, named with its day
    r"|\b(?:match|game)(?:es|s)?\s+(?:with|had|has|having|saw)\s+the\s+(?:most|fewest|least|highest|lowest|biggest|"
    r"largest|longest|shortest)\b|\b(?:rank|sort|list)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:matches|games)\b"
    r"|\b(?:matches|games)\s+(?:ranked|sorted)\b|\b(?:top|bottom)\s+\d*\s*(?:matches|games)\b")
_GOD_SUBJECT = re.compile(r"\b(?:gods?|characters?|champions?|heroes|picks)\b|\bgod\s+pool\b")
_ROLE_SUBJECT = re.compile(r"\b(?:which|what|each|every|per|by|all|the)\s+(?:roles?|positions?)\b|\broles\b|\bpositions\b")
_SIDE_SUBJECT = re.compile(r"\b(?:which|what|each|every|per|by|both|the\s+two)\s+(?:sides?|teams?)\b|\bsides\b|\bteams\b"
                           r"|\b(?:order|chaos|team\s*[12])\s+(?:or|and|vs\.?|versus|against)\s+(?:order|chaos|team\s*[12])\b"
                           r"|\bside\s+win\s+rates?\b")
_PLAYER_CUE = re.compile(r"\b(?:who(?:s|'s|se|m)?|anyone|anybody|someone|which\s+(?:player|person|one)|what\s+player|"
                         r"players?|people|ppl)\b"
                         r"|\b(?:which|what)\s+" + _ONE_OF_A_ROLE + r"\b")
_SEASON_COUNT = re.compile(r"\bhow\s+many\s+(?:matches|games)\b|\bnumber\s+of\s+(?:matches|games)\b|\b(?:loaded|ingested|stored)\b"
                           rf"|\b(?:in|into|on)\s+(?:the\s+|our\s+|this\s+)?{STORAGE}\b")


def _masked(r: Reading) -> str:
    """The text without the words the figure readers took ("damage to gods" names no god)."""
    text = r.text
    for start, end in sorted([(h.start, h.end) for h in r.metric_hits] + [(q.start, q.end) for q in r.qualifiers],
                             reverse=True):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _named_subject(r: Reading, players: Sequence[str], cue: bool) -> Subject | None:
    """A god, role or side named with nobody else (and no "who"): that one looked up."""
    if players or cue:
        return None
    if len(r.gods) == 1:
        return "god"
    if len(r.roles) == 1:
        return "role"
    if len(r.teams) == 1:
        return "side"
    return None


def _whose_best_game(text: str, slot: FigureSlot, cue: bool) -> bool:
    """"Most kills in a single game, who and which game": a player's best game, where "which game" asks in which of
    their games it was, not for the matches ranked by their own total."""
    return cue and slot.family == "game" and bool(_SINGLE_GAME.search(text))


def _ranked_subject(r: Reading, slot: FigureSlot, players: Sequence[str], text: str, cue: bool) -> Subject | None:
    """A subject named by its kind: matches, gods, roles or sides."""
    if len(players) == 1 and _MATCH_SUBJECT.search(text) and slot.family != "match":
        return "player"  # "which game was her worst for deaths": her best and worst match
    if (_MATCH_SUBJECT.search(text) and not _whose_best_game(text, slot, cue)) or (
            slot.family == "match" and (r.shape.superlative or slot.order)):
        return "matches"
    for subject, pattern in (("god", _GOD_SUBJECT), ("role", _ROLE_SUBJECT), ("side", _SIDE_SUBJECT)):
        if pattern.search(text):
            return subject  # type: ignore[return-value]
    if len(r.teams) == 2 and not players:
        return "side"
    return None


# Anyone at all, or people as a group: in a count ("how many times did people die to towers") they ask how many
# in all, not who. "How many players" counts the players themselves (`_TOOK_PART`), so a group word right after
# "how many" stays.
_INDEFINITE = re.compile(r"(?<!how many )\b(?:someone|somebody|anyone|anybody|everyone|everybody|people|ppl|"
                         r"players|folks)\b")


# One player said with an article, or one of a group ("how many times did a player die to a tower", "did any player",
# "any of us", "one of them"): in a count, anyone at all, unless the count is of one game ("a player's kills in a single
# game" is the best game)
_ANY_ONE = re.compile(r"\b(?:a|any|some)\s+(?:single\s+)?(?:player|person|guy|one\s+of\s+(?:us|them|you))\b"
                      r"|\b(?:any|one|anyone|someone|anybody|somebody|either|each)\s+of\s+(?:us|them|you|the\s+players|"
                      r"our\s+players)\b")


def _counted(text: str) -> str:
    """"how many times (how often) did someone die to a tower": an indefinite someone in a count asks how many, not
    who."""
    if not _TOTAL.search(text) or re.search(r"\bwho\b", text):
        return text
    text = _INDEFINITE.sub(" ", text)
    return text if _SINGLE_GAME.search(text) else _ANY_ONE.sub(" ", text)


# "any of us", "one of us", "anyone of us": the asker's people are everyone whose matches are loaded (docs/season.md,
# "The asker's own games"), so anyone at all, never a player called "us"
_OF_US = re.compile(r"\b(any|one|anyone|someone|somebody|anybody|none|either)(?:\s+one)?\s+of\s+us\b")


# A god said as the killer ("who was killed by a god the most", "died to a god"): the player who killed, no subject
_KILLER_KIND = re.compile(r"\b(?:killed|slain|murdered|executed|died|dies|die|dying|deaths?)\s+(?:by|to|from)\s+"
                          r"(?:a|an|any|some|one)\s+(?:god|character|champion|hero)\b")


# Whoever plays a god, role or side said as its players ("someone on Thor", "anyone playing Loki", "Thor players",
# "support mains", "order players"): the god's (role's, side's) own games, not a board of the players who played it;
# "who", "which player" or a superlative still ask for a player
_ONE_OF_ITS_PLAYERS = re.compile(
    r"\b(?:someone|somebody|anyone|anybody|everyone|everybody|whoever|a\s+player|any\s+player|players?|people|ppl|"
    r"(?:a\s+|the\s+)?(?:guys?|person))(?:'s\s+|\s+(?:who\s+|that\s+)?(?:is\s+|are\s+|was\s+|were\s+|'s\s+|goes\s+)?)"
    r"(?:on|playing|plays|played|as|picking|picks|picked|using|uses|used|with|in)\s+(?:the\s+)?"
    r"(?=name\b|(?:support|jungle|mid|middle|carry|adc|solo|order|chaos)\b)"
    r"|\b(?:name|order|chaos|supports?|supp|sup|junglers?|jungle|jg|mids?|middle|midlaners?|carry|carries|adcs?|"
    r"hunters?|mages?|solos?|sololaners?)(?P<its>\s+(?:side\s+)?(?:players?|mains?|users?|pickers?|people|ppl|ones))\b")
_ASKS_WHO = re.compile(r"\b(?:who(?:s|'s|se|m)?|which|what\s+player|whom)\b")


def _of_its_players(r: Reading, players: Sequence[str], text: str) -> str:
    """`text` without the words that say a named god, role or side by its players (`_ONE_OF_ITS_PLAYERS`), when
    nobody is named and no one is asked for."""
    if players or not (r.gods or r.roles or r.teams) or r.shape.superlative or _ASKS_WHO.search(r.text):
        return text
    return _ONE_OF_ITS_PLAYERS.sub(lambda m: m.group(0)[:m.start("its") - m.start()] + " " * len(m.group("its"))
                                   if m.group("its") else " " * len(m.group(0)), text)


def _season_kinds(r: Reading, players: Sequence[str], cue: bool) -> bool:
    """Kinds of event counted together with no one named or asked for ("the number of towers and phoenixes"): each
    kind's count over the matches."""
    return bool(kinds_counted(r.text)) and not (players or cue or r.shape.superlative or r.gods or r.roles or r.teams)


def _subject(r: Reading, slot: FigureSlot, players: Sequence[str]) -> tuple[Subject, bool]:
    """The subject slot (see the module docstring), and whether it is one named god, role or side looked up."""
    text = _masked(r)
    for killer in _KILLER_KIND.finditer(r.text):  # the masked text keeps the positions of r.text
        text = text[:killer.start()] + " " * len(killer.group(0)) + text[killer.end():]
    # "who played jungle the most": a figure's words that start with "who" still ask for a person
    text = _of_its_players(r, players, text)  # "someone picks thor", "thor players": the god's own games
    cue = bool(_PLAYER_CUE.search(_counted(text))) or any(h.phrase.startswith("who") for h in r.metric_hits)
    if slot.figure in SEASON_COUNTS:
        return "season", False
    if _season_kinds(r, players, cue):
        return "season", False
    ranked = _ranked_subject(r, slot, players, text, cue)
    if ranked is not None:
        return ranked, False
    named = _named_subject(r, players, cue)
    if named is not None:
        return named, True
    if slot.family == "match" or (slot.figure == "matches" and not players and _SEASON_COUNT.search(text)):
        return "season", False
    if (not players and not cue and not r.shape.superlative and slot.figure in MATCH_FIGURES
            and slot.figure != "biggest_hit" and (_TOTAL.search(r.text) or _AVERAGE.search(r.text))):
        return "season", False
    return "player", False


# --- entries set against each other -----------------------------------------------------------------------------

# Two or more gods, roles or sides named and set against each other ("Thor or Loki, which wins more", "support vs
# carry damage per game", "does order or chaos average more kills"): those entries compared, nobody else ranked.
# "Who" asks for a player only with a superlative and no comparative ("who played Thor or Loki the most"); a player
# word ("which player", "players") always does.
_PLAYER_KIND = re.compile(r"\b(?:players?|people|ppl|person|anyone|anybody|someone|somebody)\b")
_WHO = re.compile(r"\b(?:who|whos|who's|whom|whose)\b")
_COMPARATIVE_WORD = re.compile(r"\b(more|higher|greater|bigger|larger|better|fewer|less|lower|smaller|worse)\b")
# "which side wins more (often)": the win rate, as "wins most" is
_WINS_MORE = re.compile(r"\bwin(?:s|ning)?\s+(?:more|less|fewer)\b|\bwin(?:s|ning)?\s+(?:more|less)\s+often\b")


# The players of a role said as a group ("mid players", "the adc people", "support mains"): the role, not a player
_PLAYERS_OF = re.compile(r"\s+(?:players?|people|ppl|mains?)\b")


def _without_role_players(text: str) -> str:
    """`text` without the player word after a role ("do adc mains heal more than jungle players" sets two roles against
    each other)."""
    for role in reversed(find_roles(text, ())):
        after = _PLAYERS_OF.match(text, role.start + len(role.said))
        if after is not None:
            text = text[:after.start()] + " " * len(after.group(0)) + text[after.end():]
    return text


def _named_entries(r: Reading) -> dict[str, tuple[str, ...]]:
    """The kinds with two or more entries named: gods and roles as the matches write them, sides as "1", "2"."""
    found = {"god": tuple(r.gods), "role": tuple(r.roles), "side": tuple(str(t) for t in r.teams if t in (1, 2))}
    return {kind: tuple(dict.fromkeys(named)) for kind, named in found.items() if len(set(named)) >= 2}


def _compared_entries(r: Reading, slot: FigureSlot, players: Sequence[str]) -> tuple[Subject, tuple[str, ...]] | None:
    """The subject and its entries when two or more of one kind are named and set against each other, with one
    player at most (whose games they are); None otherwise."""
    kinds = _named_entries(r)
    if len(kinds) != 1 or len(players) > 1 or slot.family == "match" or slot.figure in SEASON_COUNTS:
        return None
    text = _without_role_players(_masked(r))
    if _PLAYER_KIND.search(text) or (_WHO.search(text) and r.shape.superlative
                                        and not _COMPARATIVE_WORD.search(text)):
        return None
    (kind, named), = kinds.items()
    return kind, named  # type: ignore[return-value]


def _two_kinds_compared(ask: Ask) -> str | None:
    """Two kinds each named twice or more ("Thor or Loki as support or carry"): which to compare is not said."""
    kinds = _named_entries(ask.reading)
    if len(kinds) < 2 or len(ask.players) > 1:
        return None
    said = " and ".join(plural(kind) for kind in kinds)
    return (f"The question names two or more {said} at once, so I cannot tell which to set against each other. "
            f"Name the entries of one kind to compare, and at most one of the other to keep their games.")


def _entries_compared(ask: Ask) -> Literal["more", "less", "which_more", "which_less"]:
    """How named entries are compared: yes or no for two ("does order average more kills than chaos"), else which is
    more or less: by a comparative ("which deals more"), a superlative ("which of the three has the fewest
    deaths"), or the higher when nothing is said ("Thor vs Loki win rate")."""
    found = _COMPARATIVE.search(ask.text)
    if found is not None and _YES_NO.search(ask.text) and len(ask.entries) == 2:
        return _more_or_less(found.group(1), ask)
    word = _COMPARATIVE_WORD.search(ask.text)
    if word is not None:
        return "which_more" if _more_or_less(word.group(1), ask) == "more" else "which_less"
    if ask.reading.shape.superlative:
        return "which_less" if _judged(ask.slot.figure, ask.text, ask.reading.shape.order) == "asc" else "which_more"
    return "which_more"


# --- the statistic slot -------------------------------------------------------------------------------------------

Statistic = Literal["total", "average", "record", "max", "min", "count"]


# "averages 5 kills a game", "more deaths a game than B on average", "more kills a game than B": "a game" beside an
# average word (before or after it), or after a comparative, is per game, not one single game
_AVERAGED_A_GAME = re.compile(r"\b(?:average[sd]?|averaging|avg|mean)\b(?:\s+\S+){0,5}?\s+a\s+(?:match|game)\b"
                              r"|(?<!\bin\s)\ba\s+(?:match|game)\b(?:\s+\S+){0,8}?\s+(?:on\s+)?(?:average|avg|mean)\b"
                              # "more kills a game than B", "who dies less a game, A or B"
                              r"|\b(?:more|fewer|less|higher|lower)\b(?:\s+\S+){0,3}?\s+a\s+(?:match|game)\b"
                              # "on avg, what does X deal in a game": no record is asked
                              r"|\bon\s+(?:average|avg)\b(?!.*\b(?:most|best|highest|max|maximum|record|biggest|top|worst|"
                              r"lowest|least|fewest)\b)")


def _statistic(slot: FigureSlot, text: str, subject: Subject, order: str) -> Statistic:
    if slot.family == "record":
        return "count" if subject == "season" else "record"
    if subject == "season":
        return "total" if _TOTAL.search(text) and not _AVERAGE.search(text) else "average"
    figure = GAME_FIGURES.get(slot.figure or "")
    if _NEVER.search(text) and (figure is None or figure.kind == "sum"):
        return "total"
    if _SINGLE_GAME.search(text) and not _AVERAGED_A_GAME.search(text):
        return "min" if order == "asc" else "max"
    if _AVERAGE.search(text) and not re.search(r"\b(total|in\s+total|combined|altogether|sum)\b", text):
        return "average"
    if figure is not None and figure.kind == "ratio":
        return "average"
    if figure is not None and figure.kind == "max":
        return "max"
    return "total"


# --- minimum of games ----------------------------------------------------------------------------------------------

_MIN_CORE = re.compile(
    r"(?:\bat\s+least|\bmin(?:imum)?(?:\s+of)?|\ba\s+minimum\s+of|\bno\s+(?:fewer|less)\s+than)\s+(?P<a>\d+)"
    r"|\b(?P<b>\d+)\s*\+|\b(?P<c>\d+)\s+or\s+more|\b(?:more\s+than|over)\s+(?P<d>\d+)")
# the minimum said after its games: "(3 games min)", "5 matches minimum"
_MIN_AFTER = re.compile(r"\b(?P<a>\d+)\s*(?:games?|matches|match|appearances)\s+(?:min(?:imum)?|at\s+least)\b\)?")
# a role may say which games count: "with 4+ support games"
_MIN_GAMES = re.compile(r"\s*(?:(?P<role>" + ROLE_SAID + r")\s+)?(?:games?|matches|match|appearances)\b"
                        r"(?:\s+(?:played|or\s+more))?")
_MIN_LEAD = re.compile(r"[(,]?\s*(?:\b(?:only|just)\s+)?(?:\b(?:among|for|of|from)\s+)?"
                       r"(?:\b(?P<kind>players?|people|ppl|gods?|characters?|champions?|heroes|roles?|positions?|"
                       r"those|anyone|everyone|ones)\s+)?"
                       r"(?:\b(?:with|having|who(?:'ve|\s+have)?(?:\s+(?:been\s+)?(?:played|picked))?|"
                       r"that\s+(?:have\s+)?(?:been\s+)?(?:played|picked)|(?:been\s+)?(?:played|picked|chosen|used))\s+)?$")
# "played at least 3 times", "picked 5+ times": times counted by a verb of playing are games
_PLAYED_TIMES = re.compile(r"\s*(?:times|picks)\b")
_PLAY_VERB = re.compile(r"\b(?:played|picked|chosen|used|fielded|seen)\s+$")
# the kind a minimum is said of stays in the question ("among gods with at least 3 games, the best win rate": gods)
_KIND_KEPT = frozenset({"gods", "god", "characters", "character", "champions", "champion", "heroes", "roles", "role",
                        "positions", "position"})


def _min_games_after(text: str, core: re.Match) -> re.Match | None:
    """The games word after a minimum ("5 games"), or "times" after a verb of playing ("played at least 3 times")."""
    after = _MIN_GAMES.match(text, core.end())
    if after is None and _PLAY_VERB.search(text[:core.start()]):
        after = _PLAYED_TIMES.match(text, core.end())
    return after


def _without_minimum(text: str, start: int, end: int, lead: re.Match | None, role: str | None = None) -> str:
    kind = lead.group("kind") if lead else None
    kept = f" {kind} " if kind in _KIND_KEPT else " "
    if role:  # the games of a role are the player's games in it: the role stays, said as one
        kept += f"as {role} "
    return " ".join((text[:start] + kept + text[end:]).split())


def _cut_minimum(text: str) -> tuple[int | None, str]:
    """"With at least 5 games", "min 5 games", "3+ games", "more than 9 matches": the fewest games an entry needs
    to be ranked, and the text without those words (so "min" is no "lowest first")."""
    for core in _MIN_CORE.finditer(text):
        after = _min_games_after(text, core)
        if after is None:
            continue
        number = int(next(g for g in core.group("a", "b", "c", "d") if g))
        least = number + 1 if core.group("d") else number
        lead = _MIN_LEAD.search(text[:core.start()])
        start = lead.start() if lead else core.start()
        end = after.end() + (1 if text[after.end():after.end() + 1] == ")" else 0)
        return max(least, 1), _without_minimum(text, start, end, lead, after.groupdict().get("role"))
    after_games = _MIN_AFTER.search(text)
    if after_games is not None:
        lead = _MIN_LEAD.search(text[:after_games.start()])
        start = lead.start() if lead else after_games.start()
        return max(int(after_games.group("a")), 1), _without_minimum(text, start, after_games.end(), lead)
    return None, text


# --- refusals -------------------------------------------------------------------------------------------------------

def _refuse(question: str, reason: str, notes: Sequence[str] = ()) -> QueryPlan:
    return QueryPlan(question=question, intent=Intent.REFUSE, assumptions=tuple(notes),
                     refusal=Refusal(reason=reason, suggestions=SEASON_SUGGESTIONS))


@dataclass(frozen=True)
class Ask:
    """A cross-match question, read into its slots."""

    question: str
    reading: Reading
    text: str
    players: tuple[str, ...]
    slot: FigureSlot
    notes: tuple[str, ...]
    scope: ScopeReading
    least: int | None  # a minimum of games the question said
    result: Literal["win", "loss"] | None = None  # only the games won (lost): "in the games she won"
    subject: Subject = "player"
    named: bool = False  # the subject is one named god, role or side, looked up
    statistic: Statistic = "total"
    # two or more gods, roles or sides named and set against each other: the subject's entries compared
    entries: tuple[str, ...] = ()


# Matches without a result: "which games have no result", "matches without a winner", "undecided games"; or how many
# had one ("how many games had a winner", "how many were decided"), which the same answer says beside them
_NO_RESULT = re.compile(r"\b(?:no|without\s+(?:a|any)|missing\s+(?:a|the))\s+(?:results?|winners?|outcomes?)\b"
                        r"|\b(?:undecided|unfinished|unresolved)\b"
                        r"|\b(?:how\s+many|count|number\s+of)\b[^?.;]*?\b(?:(?:had|have|has|with|got|get|gets)\s+(?:a|an|any)\s+(?:clear\s+)?"
                        r"(?:results?|winners?|outcomes?)|(?:were|was|got|get)\s+decided)\b")
# The verbs of "how does X fare": a record asked (`_PERFORM`), no figure of their own
_PERFORM_VERBS = re.compile(r"\b(?:fare[sd]?|faring|perform(?:s|ed|ing)?)\b")
# A match's length asked with its verb ("how long did it run", "how long it lasted", "how long did that one take").
_HOW_LONG = re.compile(r"\bhow\s+long\b(?:\s+\S+){0,3}?\s+(?:run|ran|running|last|lasted|go|went|take|took)\b")
# Words the cross-match readers take that the one-match readers do not know.
# A label for the person asked, ending its clause ("... - who's the culprit"): it asks for a player, the figure
# said around it names which
_PERSON_LABEL = re.compile(r"\bwho(?:'s|\s+is|\s+was|\s+are|\s+were|\s+has\s+been)\s+(?:the|our|their|your|my)\s+"
                           r"[a-z]+(?=\s*(?:[?!.,;:]|-|$))")
_CONSUMED = (_PERSON_LABEL, _MATCH_SUBJECT, _TOOK_PART, _APPEARED, _MATCH_ADJECTIVE, _SEASON_COUNT, _FIRST_BLOOD_VICTIM, _FIRST_BLOODS, _NEVER, _AVERAGE,
             _ORDER_RESULT, _WHEN, _SINGLE_GAME, _GAMES,
             _LOSSES, _WINS, _GOD_SUBJECT, _NO_RESULT, _PERFORM_VERBS, _HOW_LONG, HABIT, re.compile(
                 rf"\b{STORAGE}\b|"
                 r"\b(?:race|lead|pool|rate|hold|holds|held|contain|contains|store|stores|loaded|ingested|"
                 r"available|saw|seen|featured|produced|witnessed|drawn|drew|draw|draws|top\d+|tends?(?=\s+to\b)|"
                 r"whenever|add(?:s|ed|ing)?)\b"))  # "once you add every game together": the season's totals, given beside


# What identifies a game, asked beside a game the question picks ("worst game, what date", "gimme the match id"):
# a picked game is always said by number, id and day.
_IDENTIFIES = re.compile(r"\b(?:dates?|days?|ids?|gimme|when)\b")


def _picks_a_game(text: str) -> bool:
    return bool(_BEST.search(text) or _WORST.search(text) or _SINGLE_GAME.search(text) or _MATCH_SUBJECT.search(text)
                or _MATCH_ADJECTIVE.search(text))


def _unread(r: Reading, vocab: Vocabulary) -> list[str]:
    consumed = (*_CONSUMED, _IDENTIFIES) if _picks_a_game(r.text) else _CONSUMED
    if _record_with_rate(r.text):  # "wins, losses and pct": the rate word is the win rate's
        consumed = (*consumed, _RATE_WORD)
    taken = " ".join(m.group(0) for pattern in consumed for m in pattern.finditer(r.text))
    return [w for w in r.unread if not (r.roles and find_roles(w, vocab.roles)) and w not in taken.split()]


# The kinds an objective is (METRICS.md: objectives are structures and bosses), said beside an objective figure
_OBJECTIVE_KINDS = frozenset("structure structures building buildings boss bosses tower towers phoenix phoenixes titan "
                             "titans".split())


def _without_objective_kinds(ask: Ask, unread: list[str]) -> list[str]:
    """"The most objective last hits (structures and bosses)": the kinds restate the figure, so they are read."""
    if ask.slot.figure != "objectives_taken":
        return unread
    return [w for w in unread if w not in _OBJECTIVE_KINDS]


# The figures a non-player may be named in across matches: as an objective taken (its kills, the time of the first),
# or as what killed a player (the deaths to a boss).
_NPC_NAMED_IN = frozenset(("objectives_taken", *OBJECTIVE_KINDS, *(first for first, _ in FIRST_TAKEN.values())))


def _npc_subject(r: Reading, slot: FigureSlot) -> bool:
    """A non-player is the subject of a figure ("what did the gold fury deal in damage"): the season has no figures
    of non-players. Named as an objective, or as a player's killer, it is no subject; beside a figure of its own
    ("the gold fury's damage") it is, though its name also reads as its kills."""
    kinds = kinds_counted(r.text)
    if not r.npcs or slot.figure in _BOSS_DEATHS.values() or all(
            any(word in n.lower() and figure in kinds for word, figure in _BOSS_DEATHS.items()) for n in r.npcs):
        return False  # the deaths to it, or to it and other kinds counted together
    if slot.figure not in _NPC_NAMED_IN:
        return True
    # "killed a gold fury": a kill of an objective is its taking, the figure the slot already says
    said = [m for m in r.metrics if m not in _RESULT_WORDS and not (m == "kills" and slot.figure in OBJECTIVE_KINDS)]
    return any(_CATALOG.get(m, m) not in _NPC_NAMED_IN for m in said)


def _no_figure_reason(ask: Ask) -> str | None:
    r, slot = ask.reading, ask.slot
    if slot.unsupported:
        return (f"Across matches I cannot answer about {slot.unsupported}: it is a one-match figure with no "
                "cross-match version. Ask about one match (--match), or across matches about damage, kills, deaths, "
                "KDA, gold, first bloods, objectives, match length, win rate or games played.")
    if _npc_subject(r, slot) and (slot.figure or "").startswith("deaths"):
        # deaths of players to it: a per-player figure, counted across matches for a boss by name or by kind
        return (f"Across matches, deaths to one non-player by its name are counted for the Gold Fury and the Fire "
                f"Giant; {refusals.no_digits(r.npcs[0])} is counted with its kind: ask for deaths to minions, jungle "
                "monsters, structures, towers, phoenixes, Titans, bosses or non-players, or about one match (--match).")
    if _npc_subject(r, slot):
        # season figures are per player, god, role, side and match; answering about the players would be another question
        return (f"Across matches I have figures per player, god, role, side and match, not for non-players such as "
                f"{refusals.no_digits(r.npcs[0])}. Ask about one match (--match) for what it did.")
    if r.shape.per_minute and slot.figure not in ("gpm", "dpm", "xpm"):
        return ("Per-minute figures across matches are gold, damage and experience per minute (GPM, DPM, XPM); other "
                "figures across matches are totals and per-game averages. Ask for the per-game average, or ask about "
                "one match (--match) for its per-minute rate.")
    if re.search(r"\bmedian\b", ask.text):
        return "Across matches the middle figure is the mean of per-game figures, not the median. Ask for the average per game instead."
    return None


def _condition_reason(text: str) -> str | None:
    """A condition on a value other than a minimum of games is not something the season figures apply."""
    found = conditions.read_condition(text)
    if found is None or (found.needs_figure and not found.figure) or _NEVER.search(found.said):
        return None  # a denied count is read here: those whose count is zero
    if found.said == conditions.ANY_SAID and conditions.COUNTED_PEOPLE.search(text):
        return None  # "how many players died to towers this season": the season's figure, which counts them
    return (f"A condition such as '{found.said}' is applied across matches only as a minimum number of games "
            "('with at least ten games'). Ask without it, or about one match (--match), where conditions on a "
            "figure are applied.")


def _first_refusal(ask: Ask, vocab: Vocabulary) -> str | None:
    r = ask.reading
    checks: tuple[Callable[[], str | None], ...] = (
        lambda: ("This looks like SQL or a command rather than a question; I only answer questions about the "
                 "matches.") if refusals.hostile(r.masked) else None,
        lambda: _out_of_scope(r),
        lambda: _window(r),
        lambda: _unknown(r, ask.players),
        lambda: _no_figure_reason(ask),
        lambda: _unread_reason(_without_objective_kinds(ask, _unread(r, vocab))),
        lambda: _condition_reason(ask.text),
    )
    return next((reason for check in checks if (reason := check()) is not None), None)


def _out_of_scope(r: Reading) -> str | None:
    missing = refusals.out_of_scope(r.masked)
    if missing and "other matches" not in missing:  # other matches are what this plan reads
        return f"The combat logs do not record {missing}, so this cannot be answered from them."
    return None


def _window(r: Reading) -> str | None:
    if not (r.windows or r.at_minute is not None):
        return None
    said = r.windows[0].label if r.windows else f"minute {r.at_minute}"
    return (f"A time window inside the matches ('{said}') is not supported across matches: the season figures "
            "cover whole matches. Drop the window, or ask about one match with --match.")


def _unknown(r: Reading, players: Sequence[str]) -> str | None:
    unknown = refusals.unknown_name(r.masked, r)
    if unknown and not players:
        return (f"No player called '{refusals.no_digits(unknown)}' is in any match of the warehouse, so this cannot "
                "be answered.")
    return None


def _unread_reason(unread: Sequence[str]) -> str | None:
    if not unread:
        return None
    # an unread word may be a name or a qualifier; either way a season figure without it is another question
    words = ", ".join(f"'{refusals.no_digits(w)}'" for w in unread[:3])
    return (f"{words} matches no player, god, role or figure of these matches, so I will not answer a different "
            "question across them.")


# --- the plans ----------------------------------------------------------------------------------------------------

def _selection(scope: ScopeReading, players: Sequence[str], latest_ids: Sequence[str]) -> MatchSelection:
    if scope.last is not None:
        if players:
            return LastMatches(player=players[0], count=scope.last)
        return MatchList(match_ids=tuple(latest_ids[-scope.last:])) if latest_ids else AllMatches()
    return scope.selection if scope.selection is not None else AllMatches()


def _exact_case(players: tuple[str, ...], question: str) -> tuple[str, ...]:
    """Names are exact (docs/season.md): of two players whose names differ only in case, the one written
    exactly as in the question is meant."""
    return tuple(p for p in players if not (p not in question and any(
        o != p and o.casefold() == p.casefold() and o in question for o in players)))


@dataclass(frozen=True)
class Made:
    """A plan's figure and how the plan reads it."""

    figure: SeasonFigure
    intent: Intent
    update: dict[str, Any]


def _pair(ask: Ask) -> tuple[str, ...]:
    """The players a question names, the one a kill is on included ("A killed B, and vice versa")."""
    return tuple(dict.fromkeys((*ask.players, *((ask.slot.versus,) if ask.slot.versus else ()))))


def _head_to_head(ask: Ask) -> Made:
    """Two players against each other; assists asked ("assists on each other") are those in the kills of the other
    (docs/season.md), said first."""
    assists = ask.slot.figure == "assists" or "assists" in ask.reading.metrics
    figure = SeasonFigure(figure="head_to_head", players=_pair(ask), metric="assists" if assists else None)
    return Made(figure, Intent.COMPARISON, {"metrics": ("assists",)} if assists else {})


def _trend(ask: Ask) -> Made:
    metric = ask.slot.figure if ask.slot.figure in PLAYER_METRICS else "kda"
    return Made(SeasonFigure(figure="trend", players=ask.players, metric=metric), Intent.TIMELINE, {"metrics": (metric,)})


def _profile(ask: Ask) -> Made:
    metric = ask.slot.figure or "damage_dealt"
    best: Literal["best", "worst"] | None = ("worst" if _WORST.search(ask.text) else "best" if _BEST.search(ask.text)
                                            else None)
    judged = _JUDGED.search(ask.text)
    if best is None and judged and _MATCH_SUBJECT.search(ask.text):
        best = "worst" if judged.group(1) in ("worst", "worse") else "best"  # "which game was his worst for deaths"
    statistic = ask.statistic
    if statistic in ("max", "min"):
        best, statistic = ("worst" if statistic == "min" else "best"), "total"
    if statistic == "total" and metric in PLAYER_METRICS and metric not in ADDITIVE_METRICS:
        statistic = "average"  # a ratio or a maximum has no total across matches: its per-game mean
    figure = SeasonFigure(figure="profile", players=ask.players, metric=metric, best=best,
                          statistic="record" if metric in RECORD_FIGURES else statistic,
                          compare=_yes_no_compared(ask) if len(ask.players) == 2 else None)
    # every figure said is carried: "her kills, deaths and assists" is answered with all three
    said = tuple(dict.fromkeys((metric, *(m for m in ask.reading.metrics if m in PLAYER_METRICS))))
    return Made(figure, Intent.COMPARISON if len(ask.players) > 1 else Intent.LOOKUP, {"metrics": said})


# A yes/no question comparing two players ("does A average more X than B", "is A's KDA higher than B's"): an
# auxiliary first, a comparative before "than".
_YES_NO = re.compile(r"^[\s,;:]*(?:does|do|did|is|was|are|were|has|have|had|can|will)\b")
_COMPARATIVE = re.compile(r"\b(more|higher|greater|bigger|larger|better|fewer|less|lower|smaller|worse)\b"
                          r"(?:\s+\S+){0,6}?\s+than\b")
_MORE_WORDS = frozenset({"more", "higher", "greater", "bigger", "larger"})


def _yes_no_compared(ask: Ask) -> Literal["more", "less", "which_more", "which_less"] | None:
    """"more" or "less" when the question asks whether the first player's figure is more (less) than the second's,
    "which_more" ("which_less") when it asks which of the two has more; "better" is the fewer for a figure where
    less is better (deaths)."""
    found = _COMPARATIVE.search(ask.text)
    which = _WHICH_COMPARED.search(ask.text)
    if which is not None and found is None:
        way = _more_or_less(which.group(1), ask)
        return "which_more" if way == "more" else "which_less"
    if found is None or not _YES_NO.search(ask.text):
        return None
    return _more_or_less(found.group(1), ask)


# "who averages more kills, A or B", "which of the two has the higher KDA": one of two named, by a comparative
_WHICH_COMPARED = re.compile(r"\b(?:who|whos|who's|which\s+(?:one|player|of\s+(?:them|the\s+two|those)))\b(?:\s+\S+){0,4}?"
                             r"\s+(?:the\s+)?(more|higher|greater|bigger|larger|better|fewer|less|lower|smaller|worse)\b")


def _more_or_less(said: str, ask: Ask) -> Literal["more", "less"]:
    """The way a comparative word points; "better" is the fewer for a figure where less is better (deaths)."""
    if said in ("better", "worse"):
        lower = ask.slot.figure == "deaths" or getattr(GAME_FIGURES.get(ask.slot.figure or ""), "lower_is_better",
                                                       False)
        return "less" if (said == "better") == lower else "more"
    return "more" if said in _MORE_WORDS else "less"


_LISTING = re.compile(r"\b(?:rank(?:ed|ing)?|sort(?:ed)?|list(?:ed)?|order(?:ed)?|all|every|each)\b")
_LEADS = re.compile(r"\b(?:leads?|leading|led|tops?|topped|first\s+place|number\s+one|records?)\b")


# "the 5 biggest damage dealers", "three highest KDAs": a number before a superlative is a top N
_N_SUPERLATIVE = re.compile(r"\b(\d{1,3}|" + "|".join(w for w in _WORD_NUMBERS if w.isalpha() and _WORD_NUMBERS[w] > 1)
                            + r")\s+(?:biggest|largest|highest|best|most|greatest|leading|top|worst|lowest|fewest|"
                              r"deadliest|strongest|weakest)\b")


def _top_n(ask: Ask) -> int | None:
    if ask.reading.shape.top:
        return ask.reading.shape.top
    found = _N_SUPERLATIVE.search(ask.text)
    if found is None:
        return None
    said = found.group(1)
    return int(said) if said.isdigit() else _WORD_NUMBERS[said]


def _shape(ask: Ask, lookup: bool) -> tuple[str, int]:
    top = _top_n(ask)
    if top:
        return "top", top
    # a habit asked of whom ("who keeps dying to towers") names the ones it is most true of, as "the most" does
    if (ask.reading.shape.superlative or _LEADS.search(ask.text) or ask.scope.habit) and not lookup:
        return "leader", 10
    return "all", 100


# Only the games won or lost: "in the games she won", "in matches they lost", "in his wins", "in their losses".
_IN_RESULT = re.compile(r"\b(?:in|from|during|over|across|for)\s+(?:(?:the|all|those|her|his|their|its)\s+)?"
                        r"(?:(?:games|matches)\s+(?:that\s+|which\s+)?(?P<who>(?:(?!the\b)\S+\s+){0,3}?)(won|lost)"
                        r"|(wins|victories|losses|defeats))\b")


def _result_cut(text: str) -> tuple[Literal["win", "loss"] | None, str]:
    found = _IN_RESULT.search(text)
    if found is None:
        return None, text
    said = found.group(2) or found.group(3)
    result: Literal["win", "loss"] = "win" if said in ("won", "wins", "victories") else "loss"
    # whoever won them stays in the question, as its subject ("in the games Brisk won, his damage": Brisk's damage;
    # "kills in games Brisk lost": Brisk's kills, not the kills on him)
    who = (found.group("who") or "").strip()
    who = "" if who in ("she", "he", "they", "we", "i", "you", "it") else who
    return result, " ".join(((f"{who}'s " if who else "") + text[:found.start()] + " " + text[found.end():]).split())


def _filters(ask: Ask) -> dict[str, Any]:
    """The god, role and side a board keeps the games of; a subject ranked by its own kind is not filtered by it
    ("order or chaos, which side wins more" ranks both sides)."""
    r = ask.reading
    found = {"god": r.gods[0] if len(r.gods) == 1 else None, "role": r.roles[0] if len(r.roles) == 1 else None,
             "side": r.teams[0] if len(r.teams) == 1 else None}
    if ask.subject in found and not ask.named:
        found[ask.subject] = None
    return {**found, "result": ask.result}


_JUDGED = re.compile(r"\b(best|worst|better|worse)\b")


def _judged(figure: str | None, text: str, order: str) -> str:
    """The order of "best" and "worst": for a figure where less is better (deaths) the best is the fewest, the
    worst the most; other words ("most", "lowest") keep their order."""
    found = _JUDGED.search(text)
    game = GAME_FIGURES.get(figure or "")
    if found is None or game is None or not (game.lower_is_better or figure == "deaths"):
        return order
    return "asc" if found.group(1) in ("best", "better") else "desc"


def _denied(ask: Ask) -> bool:
    """A count the question denies ("who has never won"): wins, losses, games or a figure that adds up."""
    counts = ask.slot.figure in ("wins", "losses", "matches") or (
        ask.slot.figure in GAME_FIGURES and GAME_FIGURES[ask.slot.figure].kind == "sum")
    return counts and ask.statistic in ("total", "record") and bool(_NEVER.search(ask.text))


def _compared_board(ask: Ask) -> Made:
    """Named entries set against each other: a board of them alone, with the way they are compared; the minimum of
    games for averages and rates as on any board."""
    slot = ask.slot
    rates = ask.statistic == "average" or slot.figure == "win_rate"
    least, default = ask.least, False
    if least is None and rates and ask.subject in ("player", "god"):
        least, default = DEFAULT_MIN_GAMES, True
    compare = _entries_compared(ask)
    figure = SeasonFigure(figure="board", subject=ask.subject, metric=slot.figure, statistic=ask.statistic,  # type: ignore[arg-type]
                          players=ask.players, min_matches=least or 1, min_default=default, compare=compare,
                          **_filters(ask), named=ask.entries)
    return Made(figure, Intent.COMPARISON,
                {"order": "asc" if compare == "which_less" else "desc", "limit": 100, "shape": "all",
                 "metrics": (slot.figure,), "group_by": (ask.subject,)})


def _board(ask: Ask) -> Made:
    r, slot = ask.reading, ask.slot
    subject = ask.subject
    if ask.entries:
        return _compared_board(ask)
    lookup = ask.named or (subject == "player" and len(ask.players) == 1)
    shape, limit = _shape(ask, lookup)
    rates = ask.statistic == "average" or slot.figure == "win_rate"
    least, default = ask.least, False
    if least is None and rates and not lookup and subject in ("player", "god"):
        least, default = DEFAULT_MIN_GAMES, True
    none = _denied(ask) and not lookup
    metric = slot.figure
    if lookup and metric == "win_rate" and not _WIN_RATE.search(ask.text):
        metric = "matches"  # "how does X do on chaos": the games and their record, a win rate only if any was decided
    figure = SeasonFigure(figure="board", subject=subject, metric=metric, statistic=ask.statistic,  # type: ignore[arg-type]
                          players=ask.players, versus=slot.versus, min_matches=least or 1, min_default=default,
                          none=none, **_filters(ask))
    order = "asc" if none else slot.order or _judged(slot.figure, ask.text, r.shape.order)
    if none:
        shape, limit = "all", 1000
    return Made(figure, Intent.RANKING if not lookup else Intent.LOOKUP,
                {"order": order, "limit": limit, "shape": shape, "position": r.shape.position,
                 "metrics": (together(ask) if lookup else ()) or (metric,), "group_by": (subject,)})


def _matches(ask: Ask) -> Made:
    slot, r = ask.slot, ask.reading
    order = slot.order or r.shape.order
    shape, limit = _shape(ask, False)
    if shape == "all" and slot.order is not None and not _LISTING.search(ask.text):
        shape, limit = "leader", 10  # a match adjective is a superlative: "the shortest game"
    figure = SeasonFigure(figure="matches", metric=slot.figure, statistic="max" if order == "desc" else "min")
    return Made(figure, Intent.RANKING, {"order": order, "limit": limit, "shape": shape, "metrics": (slot.figure,)})


def _season(ask: Ask) -> Made:
    metric = ask.slot.figure if ask.slot.figure in MATCH_FIGURES or ask.slot.figure in SEASON_COUNTS else "matches"
    figure = SeasonFigure(figure="season", metric=metric, statistic=ask.statistic)
    return Made(figure, Intent.LOOKUP, {"metrics": together(ask) or (metric, *_also_over_matches(ask, metric))})


def _also_over_matches(ask: Ask, metric: str) -> tuple[str, ...]:
    """The other match figures asked in the same question ("the mean match length and deaths per game", "kills per
    game, and the average duration?"): each is answered over the same matches, with its own base. Objective kinds
    asked together are `together`'s (their sum is said too)."""
    if metric not in MATCH_FIGURES:
        return ()
    said = (_CATALOG.get(m, m) for m in ask.reading.metrics if m not in _RESULT_WORDS)
    return tuple(m for m in dict.fromkeys(said) if m in MATCH_FIGURES and m != metric)


# Kinds of event counted together, joined by "and", "&", "n", "plus", "as well as", a comma or a slash ("towers and
# phoenixes", "first bloods plus towers", "tower deaths, minion deaths"): each kind by its word; with a word of dying
# in the question, a killer's kind is the deaths to it ("died to towers and the fire giant")
_EVENT_KINDS = (("towers", r"towers?"), ("phoenixes", r"phoenix(?:es)?"), ("titans", r"titans?"),
                ("gold_furies", r"gold\s+fur(?:y|ies|ys)"), ("fire_giants", r"fire\s+giants?"),
                ("first_bloods", r"first\s+bloods?|fbs?"), ("minions", r"minions?|creeps?"),
                ("jungle", r"jungle\s+(?:monsters?|camps?|mobs?)|(?:jungle\s+)?camps?"),
                ("structures", r"structures?|buildings?"), ("bosses", r"bosses|boss"))
_EVENT_KIND = re.compile(r"\b(?:" + "|".join(f"(?P<{name}>{said})" for name, said in _EVENT_KINDS) + r")\b")
# between two kinds: the joining word, maybe a figure noun before it and a preposition or article after it
_KIND_JOINED = re.compile(r"\s*(?:(?:deaths?|kills?|taken|destroyed|killed|secured|slain|fell)\s*)?"
                          r"(?:,\s*(?:and\s+|&\s*|n\s+|plus\s+)?|&|/|\s(?:and|n|plus|as\s+well\s+as)\s)\s*"
                          r"(?:(?:deaths?|kills?)\s+)?(?:(?:to|by|from|of)\s+)?(?:(?:the|a|an)\s+)?")
_DYING = re.compile(r"\b(?:die[sd]?|dying|deaths?|killed\s+by|slain\s+by|fed|feeding)\b")
_OBJECTIVE_ONLY = frozenset(("first_bloods", *OBJECTIVE_KINDS))


def kinds_counted(text: str) -> tuple[str, ...]:
    """The kinds of event a question counts together, in the order said (`_EVENT_KINDS`), as season figures; () when
    fewer than two are joined. Said with a word of dying, a killer's kind is the deaths to it; else only objective
    kinds and first bloods are counts of their own."""
    found = list(_EVENT_KIND.finditer(text))
    joined = [found[0]] if found else []
    for before, after in pairwise(found):
        if not _KIND_JOINED.fullmatch(text, before.end(), after.start()):
            if len(joined) > 1:
                break
            joined = [after]
            continue
        joined.append(after)
    dying = bool(_DYING.search(text))
    kinds = []
    for said in joined:
        kind = str(said.lastgroup)
        if dying and kind != "first_bloods":
            kinds.append(f"deaths_to_{kind}")
        elif kind in _OBJECTIVE_ONLY:
            kinds.append(kind)
    kinds = list(dict.fromkeys(kinds))
    return tuple(kinds) if len(kinds) > 1 and len(kinds) == len({s.lastgroup for s in joined}) else ()


def _together_slot(slot: FigureSlot, text: str) -> FigureSlot:
    """The first of several kinds of event counted together as the figure (`kinds_counted`), when the figure read is
    one of them or a count they narrow (deaths): "how many first bloods and towers" starts with first bloods."""
    kinds = kinds_counted(text)
    if not kinds or slot.versus is not None or not (slot.figure in kinds or slot.figure == "deaths"
                                                     or slot.figure in COUNTED_TOGETHER):
        return slot
    return FigureSlot(kinds[0], "game")


def together(ask: Ask) -> tuple[str, ...]:
    """The kinds of event asked together (`kinds_counted`: objective kinds, first bloods, deaths by cause), the
    figure's own first; () when fewer than two are asked. Each kind is counted on its own (METRICS.md: a structure by
    its word, a boss by its name), so two or more asked at once ("total fire giant and gold fury kills") are each
    answered, and their sum where it means something (`boards.adds_up`). "Objectives" (all of them) overlaps every
    kind and is not among them."""
    said = kinds_counted(ask.text)
    if said and ask.slot.figure == said[0]:
        return said
    if ask.slot.figure not in OBJECTIVE_KINDS:
        return ()
    kinds = tuple(dict.fromkeys((ask.slot.figure, *(m for m in ask.reading.metrics if m in OBJECTIVE_KINDS))))
    return kinds if len(kinds) > 1 else ()


def _several_ranked(ask: Ask) -> str | None:
    """Objective kinds asked together in a ranking: each kind is its own board, and a board of their sum is not
    kept, so the ranking of one is no answer to both."""
    kinds = together(ask)
    lookup = ask.named or (ask.subject == "player" and len(ask.players) == 1)
    if not kinds or ask.subject in ("matches", "season") or lookup:
        return None
    said = " and ".join(metric_label(k) for k in kinds)
    one = "objective kind" if all(k in OBJECTIVE_KINDS for k in kinds) else "kind of count"
    return (f"Across matches I rank one {one} at a time, and {said} asked together have no board of their "
            f"own. Ask who took the most of each, or how many of each were taken in all (with their sum).")


def _both_ways(r: Reading) -> bool:
    """Kills or deaths asked of each player on the other ("A's deaths to B and B's to A", "kills by A on B and by B
    on A"): both players named as the other end of a kill."""
    ends = _KILL_VERBS | {"to", "by", "from"}
    named = {q.name for q in r.qualifiers if q.kind == "player" and q.name in r.players and q.preposition in ends}
    return len(named) >= 2 and bool({"kills", "deaths"} & set(r.metrics))


def _is_head_to_head(ask: Ask) -> bool:
    """Two players against each other: head-to-head words, or a comparison with no figure, or a record asked
    "against" each other ("who won more of their games against each other"); a figure compared is each one's own."""
    r, slot = ask.reading, ask.slot
    if len(_pair(ask)) == 2 and (_H2H_WORDS.search(ask.question) or _both_ways(r)):  # a kill on the other is half
        return True
    if len(ask.players) != 2 or slot.versus is not None:
        return False
    against = bool(_H2H.search(ask.text))
    return (against or r.shape.compare) and (slot.figure is None or (slot.family == "record" and against))


# One value per game, said before the games themselves (which the scope reader takes): "in each of his last 3 games"
_EACH_OF_GAMES = re.compile(r"\b(?:each|every\s+one|all)\s+of\s+(?:his|her|their|the|my|those|these)\b"
                            r"(?:\s+(?:last|past|previous|recent|latest))?(?:\s+\w+)?\s+(?:games|matches)\b")


# The games a player won or lost, asked for as games: "which games did X win", "what matches has X lost", "list
# X's wins". A count of them ("how many games did X win") is the record.
_WHICH_RESULT = re.compile(
    r"\b(?:which|what)\s+(?:games?|match(?:es)?)\b(?:\s+(?!and\b|or\b)\S+){0,5}?\s+(win|won|lose|lost)\b"
    r"|\b(?:list|show|name|give)\b(?:\s+\S+){0,4}?\s+(wins|victories|losses|defeats)\b"
    r"|\b(?:list|show|name|give)\b(?:\s+\S+){0,4}?\s+(?:games|matches)\s+(?:that\s+|which\s+)?"
    r"(?:\S+\s+){0,3}?(won|lost)\b")


def _listed_result(text: str, question: str) -> Literal["win", "loss"] | None:
    """The result of the games listed; `question` as asked, since a masked name reads "name" in `text` ("X's wins"
    is no "name the wins")."""
    found = next((m for m in _WHICH_RESULT.finditer(text)
                  if not m.group(0).startswith("name") or re.search(r"\bname\b", question.lower())), None)
    if found is None:
        return None
    said = next(g for g in found.groups() if g)
    return "win" if said in ("win", "won", "wins", "victories") else "loss"


def _result_games(ask: Ask) -> Made:
    result = _listed_result(ask.text, ask.question)
    figure = SeasonFigure(figure="trend", players=ask.players, metric="kda", result=result)
    return Made(figure, Intent.TIMELINE, {"metrics": ("kda",)})




def _undecided(ask: Ask) -> Made:
    figure = SeasonFigure(figure="season", metric="matches", statistic="count", result="unknown")
    return Made(figure, Intent.LOOKUP, {"metrics": ("matches",)})


def _is_trend(ask: Ask) -> bool:
    # a record ("wins/losses lately") is counted over the games, never drawn game by game
    return (len(ask.players) == 1 and ask.subject == "player" and ask.slot.figure != "win_rate"
            and ask.slot.family != "record" and bool(ask.scope.previous or _TREND.search(ask.text) or _EACH_OF_GAMES.search(ask.question.lower())
                     or _run_of_games(ask)))


# What a question asks of a figure over games when it asks something: how many, a total, an average, a best or a
# worst, how someone did
_STATISTIC_SAID = re.compile(r"\b(?:how|total|totals|in\s+all|overall|combined|sum|altogether|best|worst|most|least|"
                             r"highest|lowest|max|min|record)\b")


def _run_of_games(ask: Ask) -> bool:
    """A player's figure over their last N games, with nothing asked of it ("X deaths last 5 games"): the run of
    games, each game's value with the total and mean, rather than one number for all of them."""
    return (ask.scope.last is not None and ask.slot.figure in PLAYER_METRICS and ask.slot.figure not in RECORD_FIGURES
            and not _STATISTIC_SAID.search(ask.text) and not _AVERAGE.search(ask.text))


def _kind(ask: Ask) -> Callable[[Ask], Made]:
    """Which plan the slots make (the table in the module docstring)."""
    r, slot = ask.reading, ask.slot
    if _NO_RESULT.search(ask.text) and not ask.players and slot.figure == "matches":
        return _undecided
    if ask.subject in ("matches", "season"):
        return _matches if ask.subject == "matches" else _season
    if _is_head_to_head(ask):
        return _head_to_head
    if (len(ask.players) == 1 and ask.subject == "player" and not _record_with_rate(ask.text)
            and _listed_result(ask.text, ask.question)):
        return _result_games
    if _is_trend(ask):
        return _trend
    profiled = slot.figure is None or slot.figure in PLAYER_METRICS or slot.figure in RECORD_FIGURES
    if ask.result is not None:  # only some games of theirs: a board of those games, not the whole profile
        return _board
    if ask.players and ask.subject == "player" and profiled and slot.versus is None and not (r.gods or r.roles or r.teams):
        return _profile
    return _board


def _slots(ask: Ask) -> Ask:
    """The subject and statistic slots, and the players a kill pair leaves as the subject's filter."""
    players = tuple(p for p in ask.players if p != ask.slot.versus)
    compared = _compared_entries(ask.reading, ask.slot, players)
    subject, named = (compared[0], False) if compared else _subject(ask.reading, ask.slot, players)
    slot = ask.slot
    if compared and slot.figure == "wins" and _WINS_MORE.search(ask.text):
        slot = FigureSlot("win_rate", "record")  # "which side wins more": of each one's games, not of unequal counts
    if slot.figure is None and subject in ("god", "role", "side"):
        slot = FigureSlot("matches", "record")  # "X's god pool", "the roles": their games and record
    order = slot.order or ask.reading.shape.order
    statistic = _statistic(slot, ask.text, subject, order)
    return replace(ask, players=players, subject=subject, named=named, slot=slot, statistic=statistic,
                   entries=compared[1] if compared else ())


def _missing_figure(ask: Ask) -> str | None:
    if ask.slot.figure is not None or ask.players:
        return None
    return ("I could not tell which figure to rank across matches. Name one, such as damage, kills, KDA, gold, "
            "first bloods, match length, win rate or games played.")


def _match_figure_missing(ask: Ask) -> str | None:
    """A match ranked by a figure that matches do not have (a ratio such as KDA)."""
    if ask.subject == "matches" and ask.slot.figure not in MATCH_FIGURES and not _NO_RESULT.search(ask.text):
        return (f"Matches can be ranked by their length, kills, deaths, first blood time, gold lead, biggest hit, "
                f"objectives and totals, not by {metric_label(ask.slot.figure or 'that figure')}.")
    return None


# A yes/no question's closing tag ("..., or not?", "or nah"): it asks for the answer, it names nothing.
_TAG = re.compile(r"[,\s]+or\s+(?:not|no|nah|nope|naw|what)\s*[?.!]*\s*$", re.IGNORECASE)


def plan_across(question: str, scope: ScopeReading, vocab: Vocabulary, latest_ids: Sequence[str] = (),
                previous: Sequence[str] = ()) -> QueryPlan:
    """The cross-match plan for a question whose scope is a set of matches (see the module docstring);
    `latest_ids` are the warehouse's match ids in start order ("the last 5 matches" with no player); `previous`
    the earlier questions of the conversation, whose one player a "his" or "her" names."""
    # the asker's impression ("feels like a lot") frames the question and asks nothing, as in one match
    # "does A out-damage B": A's damage against B's, as in one match
    # who asks and how ("analyst here:", "quick one"), and the ties asked for, frame the question and ask nothing
    chained = chains.across(question, scope.rest or question, vocab,
                            lambda players: _selection(scope, players, latest_ids), scope.words)  # kill chains it defines
    if chained is not None:
        return chained
    framed, framing = without_framing(parts.without_impressions(scope.rest or question), vocab)
    least, rest = _cut_minimum(yesno.out_verbs(_TAG.sub("", framed)))
    rest = _OF_US.sub(lambda m: "anyone" if m.group(1) != "none" else "nobody", rest)
    rest, named, unnamed = _pronoun_named(rest, vocab, previous)
    if unnamed is not None:
        return _refuse(question, unnamed)
    rest, split = compounds.split_joined(rest, _season_phrases(), [(m.start, m.end) for m in find_mentions(rest, vocab)])
    result, rest = _result_cut(rest)
    rest = _OFTEN.sub(r"\1", _BY_ONE.sub(r"\1 a ", rest))
    rest, grouped = _article_grouping(rest)
    rest, emphasis = _reflexive(rest, vocab)
    head_to_head = bool(_H2H_WORDS.search(rest))
    # Head-to-head words are the figure, not a metric ("head" is not a misspelt "healed").
    rest, aliases = _without_aliases(rest, vocab)
    r = read_question(_H2H_WORDS.sub(" vs ", rest) if head_to_head else rest, vocab)
    r = replace(r, assumptions=(*framing, *split, *grouped, *emphasis, *r.assumptions, *aliases,
                                *((named,) if named else ())))
    notes = (*r.assumptions, *_scope_notes(scope))
    if r.ambiguous:
        mention = r.ambiguous[0]
        return QueryPlan(question=question, intent=Intent.REFUSE, refusal=Refusal(
            reason=f"'{mention.said}' fits more than one player, so I cannot tell whose figures you want; "
                   "please name the player.", options=tuple(mention.candidates)[:10]))
    read = r
    r = _damage_by_target(_jungle_as_role(_role_not_figure(_order_as_side(_sides_as_one(r)), vocab)))
    notes = (*(n for n in notes if n in r.assumptions or n not in read.assumptions),  # a reading taken back is not said
             *(a for a in r.assumptions if a not in notes))
    players = _exact_case(tuple(dict.fromkeys(r.players)), question)
    if lost_to := LOST_TO.search(r.text):
        notes = (*notes, f"'{lost_to.group(0)}' read as the games {lost_to.group(1)} won")
    ask = Ask(question=question, reading=r, text=r.text, players=players, slot=_together_slot(_figure(r, r.text), r.text),
              notes=notes,
              scope=scope, least=least, result=result)
    reason = _first_refusal(ask, vocab)
    if reason is None:
        ask = _slots(ask)
        reason = (_missing_figure(ask) or _match_figure_missing(ask) or _several_ranked(ask)
                  or _two_kinds_compared(ask))
    if reason is not None:
        return _refuse(question, reason, notes)
    made = _kind(ask)(ask)
    if least is not None and made.figure.figure != "board":
        return _refuse(question, "A minimum number of games applies to a ranking across matches ('who has the best "
                                 "KDA with at least ten games'), not to this figure.", notes)
    scope, notes = _recent_games(scope, ask.text, notes)
    selection = _selection(scope, ask.players or players, latest_ids)
    return QueryPlan(question=question, intent=made.intent, assumptions=tuple(dict.fromkeys((*notes, *_readings(made)))),
                     scope=ManyMatches(selection=selection, words=scope.words), focus=players, season=made.figure,
                     summary=_summary(made.figure, selection), **made.update)


# Recent form said with no games counted ("how has X been lately"): the player's last five games, a span of their
# own that moves with them (docs/season.md), said as a reading
RECENT_GAMES = 5


def _recent_games(scope: ScopeReading, text: str, notes: tuple[str, ...]) -> tuple[ScopeReading, tuple[str, ...]]:
    recent = RECENT_FORM.search(text)
    if recent is None or scope.words or scope.last is not None or scope.previous:
        return scope, notes
    return replace(scope, last=RECENT_GAMES), (*notes, f"'{recent.group(0)}' read as the last {RECENT_GAMES} games")


def _scope_notes(scope: ScopeReading) -> tuple[str, ...]:
    """What the scope reader read, said: its spelling corrections, its scope words and a habit word."""
    habit = (f"'{scope.habit}' read as a habit: over every match loaded, not the latest one alone",) if scope.habit \
        else ()
    return (*scope.spelled, *(f"'{w}' read as the scope: which matches are counted" for w in scope.words), *habit)


@lru_cache(maxsize=1)
def _season_phrases() -> frozenset[str]:
    """The figure phrases of two words a closed compound may join across matches: the catalog's and the season's
    own ("win rate")."""
    labels = (metric_label(f) for kinds in (GAME_FIGURES, MATCH_FIGURES, RECORD_FIGURES) for f in kinds)
    return compounds.figure_phrases() | {label.lower() for label in labels if re.fullmatch(r"[a-z]{2,} [a-z]{2,}", label)}


# A player said by a pronoun ("his worst game damage wise", "her kills per game"), with nobody named: the one
# player the conversation's latest question that names one named. "Their" and "them" may be a team or two players,
# so only a singular one is read.
_ONE_PRONOUN = re.compile(r"\b(his|her|hers|he|she|him)\b")


def _as_name(said: re.Match, player: str, text: str) -> str:
    """A pronoun as the player's name: "he", "him" (and "her" with no word after it) as the name, else "name's"."""
    alone = said.group(1) in ("he", "she", "him") or (said.group(1) == "her"
                                                       and not re.match(r"\s+[a-z]", text[said.end():]))
    return player if alone else f"{player}'s"


def _pronoun_named(text: str, vocab: Vocabulary, previous: Sequence[str]) -> tuple[str, str | None, str | None]:
    """The text with its pronoun replaced by the player an earlier question named, the reading said ("'his' read as
    X, ..."), and why it cannot be answered when no earlier question names one player (then the text as it is)."""
    said = _ONE_PRONOUN.search(text)
    if said is None:
        return text, None, None
    here = read_question(text, vocab)
    if here.players:
        return text, None, None
    if len(set(here.gods)) == 1:  # "loki - how often has he been picked": the god said before it
        god = here.gods[0]
        return (_ONE_PRONOUN.sub(partial(_as_name, player=god, text=text), text),
                f"'{said.group(1)}' read as {god}, the one god the question names", None)
    for earlier in reversed(previous):
        named = tuple(dict.fromkeys(read_question(earlier, vocab).players))
        if len(named) == 1:
            player = named[0]
            swapped = _ONE_PRONOUN.sub(partial(_as_name, player=player, text=text), text)
            return swapped, f"'{said.group(1)}' read as {player}, named in the earlier question '{earlier}'", None
    return text, None, (f"'{said.group(1)}' names no player here, and no earlier question names one. Ask again with the "
                  "player's name.")


# Damage said by its parts, a target kind after it ("dmg to towers and phoenixes", "damage on jungle camps"): the
# catalog figure of that kind. The structure kinds said there restate the target, they are no objective count.
_DAMAGE_TO = {"player": "damage_to_players", "structure": "damage_to_structures", "minion": "damage_to_minions",
              "jungle": "damage_to_jungle", "boss": "damage_to_bosses"}
_TARGET_WORDS = frozenset({"to", "on", "against", "at", "into", "vs", "versus"})
_STRUCTURE_COUNTS = frozenset({"towers", "phoenixes", "titans", "objectives_taken"})


def _role_not_figure(r: Reading, vocab: Vocabulary) -> Reading:
    """"How does X do as carry": a role word the figure reader also took ("carry" for damage) is the role alone,
    when it is the only figure said."""
    if not r.roles or not r.metric_hits or not all(find_roles(h.phrase, vocab.roles) for h in r.metric_hits):
        return r
    said = tuple(f"'{h.phrase}' read as" for h in r.metric_hits)
    return replace(r, metrics=(), metric_hits=(), assumptions=tuple(a for a in r.assumptions if not a.startswith(said)))


def _jungle_as_role(r: Reading) -> Reading:
    """"How does X do on jungle": with no figure for a target to qualify, the jungle said is the role."""
    said = next((q for q in r.qualifiers if q.kind == "jungle" and q.name is None
                 and re.search(r"\bjungl(?:e|er|ers)$", q.said)), None)
    place = next((w for w in r.unread if _IN_JUNGLE.fullmatch(w)), None)  # "in the jungle", which no reader took
    if (said is None and place is None) or r.roles or r.metrics:
        return r
    return replace(r, roles=("Jungle",), qualifiers=tuple(q for q in r.qualifiers if q is not said),
                   unread=tuple(w for w in r.unread if w != place),
                   assumptions=(*r.assumptions, f"'{said.said if said else place}' read as the Jungle role"))


_IN_JUNGLE = re.compile(r"(?:in|on|at|as|from)\s+(?:the\s+)?jungl(?:e|er|ers)")


def _damage_by_target(r: Reading) -> Reading:
    if "damage_dealt" not in r.metrics:
        return r
    target = next((q for q in r.qualifiers if q.name is None and q.kind in _DAMAGE_TO
                   and q.preposition in _TARGET_WORDS), None)
    if target is None:
        return r
    figure = _DAMAGE_TO[str(target.kind)]  # in _DAMAGE_TO, so not None
    kept = (m for m in r.metrics if not (figure == "damage_to_structures" and m in _STRUCTURE_COUNTS))
    metrics = tuple(dict.fromkeys(figure if m == "damage_dealt" else m for m in kept))
    note = f"'damage {target.said}' read as {metric_label(figure)}"
    return replace(r, metrics=metrics, assumptions=(*r.assumptions, note))


# A name with another spelling of it in parentheses: "xenia (Ξένια)", "Ξένια (xenia)", "big tuna (the fish)".
_PARENTHESES = re.compile(r"(?P<before>(?:[^\s()]+\s+){0,2}?[^\s()]+)\s*\((?P<inside>[^()]+)\)")


def _one_player(text: str, vocab: Vocabulary) -> str | None:
    found = read_question(text, vocab)
    return found.players[0] if len(set(found.players)) == 1 and not found.ambiguous else None


def _without_aliases(text: str, vocab: Vocabulary) -> tuple[str, tuple[str, ...]]:
    """A player named twice, once in parentheses: the spelling that names nobody is the other one's, and is read
    as that player (said), so it is no unknown name. Names that read as two different players stay."""
    notes = []
    for found in reversed(list(_PARENTHESES.finditer(text))):
        before, inside = found.group("before"), found.group("inside").strip()
        inside_player = _one_player(inside, vocab)
        words = before.split()
        # the words right before that are no word the planner knows: the other spelling
        size = next((n for n in range(len(words), 0, -1) if all(unknown_words(w) for w in words[-n:])), 0)
        alias = " ".join(words[-size:]) if size else ""
        if inside_player and alias and not read_question(alias, vocab).players:
            text = text[:found.start()] + f"{' '.join(words[:-size])} {inside}".strip() + text[found.end():]
            notes.append(f"'{alias}' read as {inside_player}, named beside it")
        elif not inside_player and unknown_words(inside) and (beside := _one_player(words[-1], vocab)):
            text = text[:found.start()] + before + text[found.end():]
            notes.append(f"'{inside}' read as {beside}, named beside it")
    return " ".join(text.split()), tuple(notes)


# Both sides said as one ("both teams together", "the sides combined", "both sides combined"): the match's whole, no
# split by side
_SIDES_AS_ONE = re.compile(r"\b(?:both|the\s+two|the|all)\s+(?:teams|sides)\s+(?:together|combined|summed|added\s+up)\b"
                           r"|\b(?:teams|sides)\s+combined\b|\bcombined\s+(?:for\s+)?(?:both\s+)?(?:teams|sides)\b")


def _sides_as_one(r: Reading) -> Reading:
    if not _SIDES_AS_ONE.search(r.text) or len(r.teams) == 1:
        return r
    return replace(r, text=_SIDES_AS_ONE.sub(" ", r.text), teams=(), groups=tuple(g for g in r.groups if g != "team"),
                   assumptions=(*r.assumptions, "both sides together read as the match's whole"))


def _order_as_side(r: Reading) -> Reading:
    if r.teams or not _ORDER_RESULT.search(r.text):
        return r
    return replace(r, teams=(1,), assumptions=(*r.assumptions, "'order' read as team 1 (Order)"))


def _readings(made: Made) -> tuple[str, ...]:
    """The readings a cross-match answer states, beside the scope."""
    figure = made.figure
    out = []
    if figure.statistic == "average" and figure.figure == "season":
        out.append("an average over the matches is the mean of per-match figures")
    elif figure.statistic == "average":
        out.append("an average across matches is the mean of per-game figures over the games played")
    if figure.min_default:
        out.append(f"no minimum of games was asked: averages and rates count those with at least {figure.min_matches} "
                   "games ('with at least N games' changes it)")
    return tuple(out)


def _entries_said(figure: SeasonFigure) -> str:
    """'the gods Thor and Loki', 'the sides Order (team 1) and Chaos (team 2)'."""
    names = [side_name(n) if figure.subject == "side" else n for n in figure.named]
    return f"the {figure.subject}s " + (" and ".join(names) if len(names) == 2 else ", ".join(names))


def _summary(figure: SeasonFigure, selection: MatchSelection) -> str:
    label = metric_label(figure.metric or "")
    what = {
        "board": (f"{_entries_said(figure)} compared by the {figure.statistic} of {label}" if figure.named else
                  f"{figure.subject}s by the {figure.statistic} of {label}"),
        "matches": f"matches ranked by {label}",
        "season": f"{label} over the matches",
        "profile": "the record, totals, per-match averages and best and worst match of " + " and ".join(figure.players),
        "head_to_head": "head-to-head of " + " and ".join(figure.players),
        "trend": f"{figure.players[0] if figure.players else ''}'s {label} match by match",
    }[figure.figure]
    return f"Across matches: {what}, over {describe(selection)} (docs/season.md)."
