"""Event lists, match patterns and build orders: the intent families that answer with rows of events.

`event_plan` tries each event reader in turn (match facts, roster, what happened, first blood, winner, objectives,
kill positions, kill feed); `pattern_plan` answers team fights, kill streaks, comebacks and death recaps from the
report's patterns; `build_plan` answers what a player bought.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from combat_analysis.catalog import metric
from combat_analysis.catalog.kinds import entity_kind
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan, TimeWindow
from combat_analysis.planner.plans import identity
from combat_analysis.planner.plans.cues import (
    AFTER_FIRST_BUY,
    ASSIST_EDGE,
    BOSS_OBJECTIVES,
    BUILD,
    BUILD_EDGE,
    DEATH_EDGE,
    DEATH_RECAP,
    FIRST_BLOOD,
    FIRST_BLOOD_NAMED,
    FIRST_OR_LAST,
    GOLD_WENT_ON,
    ITEM_BUYER,
    ITEM_WHEN,
    KILL_EDGE,
    KILL_LIST,
    LAST_HITS,
    MATCH_END,
    MATCH_FACTS,
    MATCH_START,
    NEXT_N,
    OBJECTIVE_LIST,
    OBJECTIVE_VALUES,
    OBJECTIVE_WORDS,
    POSITIONS,
    PURCHASE_PLACE,
    ROSTER,
    STRUCTURE_OBJECTIVES,
    WHAT_HAPPENED,
    WINNER,
    edge_said,
)
from combat_analysis.planner.plans.draft import (
    LIST_LIMIT,
    ROSTER_DIMS,
    Draft,
    Entities,
    _in,
    as_taker,
    entity_filters,
    finish,
    gods_as_players,
)
from combat_analysis.planner.read import yesno
from combat_analysis.planner.read.causes import cause_filters
from combat_analysis.planner.read.names import find_roles, fold
from combat_analysis.planner.read.reading import Reading
from combat_analysis.planner.read.takers import read_takers
from combat_analysis.planner.read.words import PLACES
from combat_analysis.planner.vocabulary import Vocabulary


def _figures(r: Reading) -> list[str]:
    """The metrics that are figures (the gold difference too), not event lists or patterns."""
    return [m for m in r.metrics if metric(m).is_figure or metric(m).kind == "gold_diff"]


def winner_question(r: Reading) -> bool:
    if not WINNER.search(r.text):
        return False
    if _figures(r) or "team_fights" in r.metrics:
        # "which team won more fights"/"gold of the winning team" are figures; "who won the late teamfights" asks
        # the fights' winners
        return False
    if _OBJECTIVES_LOST.search(r.text):
        return False  # "which towers did chaos lose": the objectives the other side took
    return not re.search(r"\b(won|win|wins)\s+(?:the\s+)?(most|more)\b", r.text)


# Objectives as what a side lost: "which towers did chaos lose", "what did order lose, objective-wise"
_OBJECTIVES_LOST = re.compile(r"\b(?:which|what)\s+(?:towers?|turrets?|phoenix(?:es)?|titans?|objectives?|structures?|"
                              r"buildings?)\s+(?:\w+\s+){0,4}?(?:lose|lost|losing)\b")


_STRUCTURE_WORDS = re.compile(r"\b(?:structures?|buildings?)\b")


_BOSS_WORDS = re.compile(r"\b(?:bosses|boss)\b")
# a kind said as counted in with the rest, not as the only one: "objectives, bosses included", "including towers"
_COUNTED_IN = re.compile(r"\b(?:including|incl\.?|plus|also)\s+(?:the\s+)?(?P<a>\w+(?:\s+\w+)?)"
                         r"|\b(?P<b>\w+(?:\s+\w+)?)\s+(?:included|too|as\s+well|counted)\b")


def objective_values(text: str) -> list[str]:
    """The objectives a question names; "structures" are the towers, phoenixes and Titans, "bosses" the Gold Fury and
    the Fire Giant (METRICS.md: entity kinds)."""
    named = [v for v, pat in OBJECTIVE_VALUES if re.search(rf"\b{pat}\b", text)]
    if _STRUCTURE_WORDS.search(text):
        named += [v for v in STRUCTURE_OBJECTIVES if v not in named]
    if _BOSS_WORDS.search(text):
        named += [v for v in BOSS_OBJECTIVES if v not in named]
    counted_in = {v for m in _COUNTED_IN.finditer(text) for v in objective_values(m.group("a") or m.group("b") or "")}
    if named and set(named) <= counted_in and re.search(r"\bobjectives?\b", text):
        return []  # every objective, the kinds said only counted in with the rest
    return named


# What may stand before a role word in a phrase naming one player: "the chaos jungler", "their team 2 support"
_SIDE_BEFORE = re.compile(r"(?:\b(?:the|their|our|enemy|order|chaos|team\s*(?:1|2|one|two)|side|team)(?:'s)?\s+)*$")


@dataclass(frozen=True)
class EventAsk:
    """One question as the event readers see it: its reading, entities and what they all check."""

    question: str
    r: Reading
    e: Entities
    assumptions: tuple[str, ...]
    vocab: Vocabulary

    @property
    def text(self) -> str:
        return self.r.text

    @property
    def figures(self) -> list[str]:
        return _figures(self.r)

    @property
    def people(self) -> tuple[str, ...]:
        """The players a kill or death list is about: named, or said by the one god they played ("when did the
        sobek die") or by a side's role ("who killed the chaos jungler")."""
        return gods_as_players(self.r, self.e, self.vocab).players

    @property
    def named(self) -> str:
        """The text with a side's role that stands for one player written `name`, as a player's name is, so the
        readers of whose kills and deaths read "who killed the chaos jungler" as "who killed <player>"."""
        text = fold(self.text)
        if self.e.players and not self.r.players:
            for role in reversed(find_roles(text, self.vocab.roles)):
                before = _SIDE_BEFORE.search(text[:role.start])  # always matches: it may match nothing
                start = role.start - (len(before[0]) if before else 0)
                text = f"{text[:start]}name{text[role.start + len(role.said):]}"
        return re.sub(r"\bthe\s+name\b", "name", text)  # a god said with its article: "when did the loki die"

    def draft(self, metric_id: str, dims: Sequence[str] = (), **kw) -> QueryPlan:
        """An event list of `metric_id`, narrowed by the entities `dims` allows and the reading's window."""
        filters, focus = entity_filters(self.e, dims)
        kw.setdefault("window", self.r.window)
        return finish(Draft(self.question, Intent.EVENT_LIST, (metric_id,), filters=filters + kw.pop("extra", []),
                            order=kw.pop("order", "asc"), limit=kw.pop("limit", LIST_LIMIT),
                            focus=[*focus, *kw.pop("focus", [])],
                            assumptions=[*self.assumptions, *kw.pop("notes", [])], **kw))


def _event_edge(ask: EventAsk) -> bool:
    """'How long did it take for the first tower to fall', 'how long until the first death' ask when that event
    happened (an objective, a kill, first blood, a death), not how long the match lasted."""
    text = ask.text
    objective = OBJECTIVE_WORDS.search(text) and FIRST_OR_LAST.search(text) and OBJECTIVE_LIST.search(text)
    return bool(objective or FIRST_BLOOD.search(text) or KILL_EDGE.search(text) or DEATH_EDGE.search(text))


def lobby(ask: EventAsk) -> QueryPlan | None:
    """How long the lobby (the draft, the pick phase) lasted: from the log's first event to the match start."""
    if "lobby_info" not in ask.r.metrics or ask.figures:
        return None
    return ask.draft("lobby_info", window=None, limit=1,
                     notes=["the lobby read as the log's first event up to the match start (its earliest item, "
                            "combat or reward event)"])


def match_facts(ask: EventAsk) -> QueryPlan | None:
    edge = _match_edge(ask.text)
    # both edges asked ("what time did the match start and when did the log end") are the match facts too
    edges = MATCH_START.search(ask.text) or MATCH_END.search(ask.text)
    wanted = "match_info" in ask.r.metrics or ((MATCH_FACTS.search(ask.text) or edges) and not ask.figures)
    if not wanted or _event_edge(ask):
        return None
    if edge is None:
        return ask.draft("match_info", window=None, limit=1)
    # the start or the end asked for itself: said first, with the date-time and the match clock ("leader" = one edge)
    notes = [f"the match's {edge} read as its {'first' if edge == 'start' else 'last'} combat, item or reward event "
             "(the lobby before it is not the match)"]
    return ask.draft("match_info", window=None, limit=1, shape="leader",
                     order="asc" if edge == "start" else "desc", notes=notes)


def _match_edge(text: str) -> str | None:
    """'start' or 'end' where a question asks when the match (or its log) began or ended; None otherwise."""
    start, end = MATCH_START.search(text), MATCH_END.search(text)
    if start and end:
        return None  # both edges asked: the duration answer says both
    return "start" if start else "end" if end else None


# Who played a god, asked of the god with no figure: "who was on zeus", "who's the guy playing ymir", "who was the athena"
_WHO_ON = re.compile(r"\bwho(?:'s|s|\s+(?:is|was|were))\s+(?:the\s+)?(?:(?:guy|person|player|one|dude|man|girl|lad)\s+)?"
                     r"(?:on|playing|maining|piloting|the)\b")


def roster(ask: EventAsk) -> QueryPlan | None:
    # "list the players by gold" asks for the gold of every player, not the line-up without it
    on_god = bool(ask.e.gods and not ask.e.players and _WHO_ON.search(ask.text))
    if ("roster" in ask.r.metrics or ROSTER.search(ask.text) or identity.asked(ask.r, ask.e) or on_god) \
            and not ask.figures:
        return ask.draft("roster", ROSTER_DIMS, window=None)
    return None


def what_happened(ask: EventAsk) -> QueryPlan | None:
    if not WHAT_HAPPENED.search(ask.text) or ask.figures:
        return None
    r, window, notes = ask.r, ask.r.window, ["'what happened' read as the player kills"]
    if r.at_minute is not None:
        window = TimeWindow(label=f"during minute {r.at_minute}", start_s=60 * r.at_minute, end_s=60 * r.at_minute + 60)
        ask = replace(ask, assumptions=tuple(a for a in ask.assumptions if not a.startswith("'at")))
    return ask.draft("kill_events", ("player", "team"), window=window, notes=notes)


# A list asked for: who, which players, when, list, show, "did anyone".
_WHO_OR_WHEN = re.compile(r"\b(?:who|whom|whose|which|when|list|show|anyone|anybody|everyone|ever|did\s+\w+)\b")


def _cause_of_death(ask: EventAsk) -> list[Filter]:
    causes = ask.r.causes
    return cause_filters(causes, ask.vocab) if causes is not None else []


# A count asked together with who: "and who was it", "who were they", ", and which players". The event list says both.
_AND_WHO = re.compile(r"(?:\band|[,;?.-])\s+(?:who|which\s+(?:players?|people|ones|guys|gods))\b"
                      r"|\bwho\s+(?:was|were)\s+(?:it|they)\b"
                      # "X's deaths to non-players? what got her": the killers asked, so the deaths are listed
                      r"|\b(?:what|which\s+\w+)\s+(?:got|killed|took\s+(?:\w+\s+)?out)\b")


# A player's deaths as a list: "when did Brisk die", "list Brisk's deaths"
_DEATHS_OF = re.compile(r"\bwhen\s+(?:did|does|was|were)\s+name\s+(?:die|get\s+killed|killed)\b|\bname's\s+deaths\b"
                        # a side's deaths: "when did chaos players die", "when did team 1 get killed"
                        r"|\bwhen\s+(?:did|does|do|were)\s+(?:the\s+)?(?:order|chaos|team\s*(?:1|2|one|two))(?:'s)?"
                        r"(?:\s+(?:players?|guys|people|side|team|members))?\s+(?:die|get\s+killed|killed)\b"
                        r"|\b(?:list|show)\s+(?:me\s+)?(?:all\s+|every\s+)?(?:of\s+)?(?:the\s+)?deaths\b"
                        # who killed a player is every killer, non-players too (METRICS.md: deaths from any source); "what killed X"
                        # stays the death recap, which counts them too
                        r"|\bwho\s+(?:all\s+)?(?:killed|took\s+out|slew)\s+name\b|\bname(?:'s)?\s+killers\b"
                        r"|\bkillers\s+of\s+name\b")


def edge_subjects(ask: EventAsk) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """(players, sides) whose first or last kill, death or assist is asked: a player, a god's players, a role's
    players (of the side said with it), else the sides said; the event tables have no role or god column."""
    e = gods_as_players(ask.r, ask.e, ask.vocab)
    if e.players:
        return e.players, ()
    found = [p.player for role in e.roles for team in (e.teams or (None,))
             for p in ask.vocab.players_where(team=team, role=role)]
    found += [p.player for god in e.gods for p in ask.vocab.players_where(god=god)]
    return (tuple(dict.fromkeys(found)), ()) if found else ((), e.teams)


def deaths(ask: EventAsk) -> QueryPlan | None:
    """Deaths from any source as events: the first or last death ("who died first"), a player's deaths ("when did
    Brisk die"), and the deaths by a cause ("who got killed by the fire giant", "did anyone die to a tower")."""
    r = ask.r
    edge = DEATH_EDGE.search(ask.text)
    # "how many people did the towers kill", "how many died to minions and who were they": how often, and who
    victims = r.causes is not None and (r.causes.victims or bool(_AND_WHO.search(ask.text)))
    listed = (r.causes is not None and _WHO_OR_WHEN.search(ask.text)) or _DEATHS_OF.search(ask.named) \
        or "death_events" in r.metrics or victims
    # "what minute did X first die" asks when: the minute is no split of a first or last death
    split = {"team", "role", "god", "ability", "phase", *(() if edge else ("minute",))} & set(r.groups) \
        or r.shape.per_minute
    # a share of deaths (the percentage of every death that towers dealt) is a figure over the match's deaths,
    # never their list
    if r.shape.count and not victims or r.shape.superlative and not edge or split or not (edge or listed) or r.shape.share:
        return None
    if edge and FIRST_BLOOD_NAMED.search(ask.text):
        return None  # "who died first blood": the victim of first blood, a player kill

    # a player said by their god or their side's role is that player, a role its players (the list has no god or
    # role column)
    people = edge_subjects(ask)[0] if not ask.e.players else ()
    extra = [*_cause_of_death(ask), *([_in("player", people)] if people else [])]
    if edge:
        return _death_edge(ask, edge, extra, people)
    return ask.draft("death_events", ("player", "team"), extra=extra, focus=list(people))


def _death_edge(ask: EventAsk, edge: re.Match[str], extra: list[Filter], people: Sequence[str]) -> QueryPlan:
    """The first or last deaths ("who died first", "the last 3 deaths"). "The first 3 players to die" asks for three
    people, each at their first death (their last, for the last ones): one row per player; "the first 3 deaths" may
    name a player twice."""
    count = ask.r.shape.top or 1
    each = ("player",) if edge.group("dying") and count > 1 else ()
    return ask.draft("death_events", ("player", "team"), extra=extra, order="desc" if edge_said(edge) == "last" else "asc",
                     limit=count, focus=list(people), group_by=each)


def kill_edge(ask: EventAsk) -> QueryPlan | None:
    """'Who got the last kill', 'Brisk's final kill', 'when did Brisk get his first kill': a player's first or last
    kill, or the match's last one or first or last N (the match's one first kill is first blood, read next)."""
    edge = KILL_EDGE.search(ask.text)
    if not edge or ask.r.shape.count:
        return None
    first = edge_said(edge) == "first"
    players, teams = edge_subjects(ask)
    # the match's first kill is first blood, and so is "did the zeus (did order) get the first kill", checked for
    # them; the first in a window anchored on an event is the first after it; the first N kills are a list
    whose = players or teams
    if first and (ask.r.shape.top or 1) == 1 and (not whose or FIRST_BLOOD_NAMED.search(ask.text) or (
            not ask.e.players and yesno.asked_yes_no(ask.question))) and ask.r.anchor is None:
        return None
    on = players and _KILLS_ON.search(ask.text) and not _KILLS_BY.search(ask.text)  # "the first kill on Brisk"
    extra = [_in("victim" if on else "source", players)] if players else []
    window = ask.r.anchor.events if ask.r.anchor is not None else ask.r.window  # "the first kill after fb": not fb
    return ask.draft("kill_events", ("team",), extra=extra, order="asc" if first else "desc",
                     limit=ask.r.shape.top or 1, focus=list(players), window=window)


# Who helped with one player's kills of another, the killer said first ("who assisted A's kill on B", "the kill A got
# on B", "who helped A kill B") or the victim first ("the kill of B by A"); names are `name` in the text
_ASSISTED = re.compile(r"\b(?:assist(?:s|ed|ing|ers?)?|helped|help(?:s|ing)?)\b")
_KILLER_FIRST = re.compile(r"\bname(?:'s)?\s+(?:kills?|killed|kill)\s+(?:on\s+|of\s+)?name\b"
                           r"|\bkills?\s+(?:that\s+|which\s+)?name\s+(?:got|made|scored|had|secured|landed)\s+on\s+name\b"
                           r"|\bkills?\s+(?:by|from)\s+name\s+on\s+name\b")
_VICTIM_FIRST = re.compile(r"\bkills?\s+(?:of|on)\s+name\s+by\s+name\b")
_AT_CLOCK = re.compile(r"\bat\s+(\d{1,2}):([0-5]\d)\b")


def kill_assisters(ask: EventAsk) -> QueryPlan | None:
    """'Who assisted A's kill on B (at 0:28)': A's kills of B, each with the players credited with assisting it
    (METRICS.md: assists); a clock said with it keeps the kill of that second."""
    r = ask.r
    if len(r.players) != 2 or not _ASSISTED.search(ask.text) or r.shape.count or r.shape.superlative:
        return None
    text = fold(r.masked).replace("’", "'")
    if _KILLER_FIRST.search(text):
        killer, victim = r.players
    elif _VICTIM_FIRST.search(text):
        victim, killer = r.players
    else:
        return None
    return ask.draft("kill_events", ("team",), extra=[_in("source", [killer]), _in("victim", [victim])],
                     focus=[killer, victim], window=_at_clock(r))


def _at_clock(r: Reading) -> TimeWindow | None:
    """The one second a clock names ("... at 0:28": the kill or death of that second), else the reading's window."""
    at = _AT_CLOCK.search(r.question)
    if at is None or r.window is not None:
        return r.window
    second = int(at.group(1)) * 60 + int(at.group(2))
    return TimeWindow(label=f"at {at.group(1)}:{at.group(2)}", start_s=second, end_s=second + 1)


def assist_edge(ask: EventAsk) -> QueryPlan | None:
    """'Her first assist', 'when did the chaos support last assist', 'order's final assist': the first or last kill a
    player (a god's player, a role's players, a side, or anyone) was credited with assisting, with its killer and
    victim (METRICS.md: assists)."""
    edge = ASSIST_EDGE.search(ask.text)
    if not edge or ask.r.shape.count or ask.r.shape.superlative:
        return None
    players, _ = edge_subjects(ask)
    extra = [_in("player", players)] if players and not ask.e.players else []
    window = ask.r.anchor.events if ask.r.anchor is not None else ask.r.window
    # one kill may be assisted by up to four players, all of them its assisters: the rows of the first (last) kill
    one = len(players) == 1
    return ask.draft("assist_events", ("player", "team"), extra=extra,
                     order="asc" if edge_said(edge) == "first" else "desc", limit=1 if one else ASSISTERS,
                     shape="leader", focus=list(players) if extra else [], window=window)


ASSISTERS = 4  # the most players who can assist one kill: the killer's teammates


# Whose kills a kill list is: "kills by Brisk", "Brisk's kills" (the killer); "kills on Brisk", "who killed Brisk"
# (the victim); otherwise both, the kills a player made and suffered.
_KILLS_BY = re.compile(r"\bkills?\s+(?:made\s+|scored\s+|landed\s+|secured\s+)?(?:by|from)\s+(?:player\s+)?name\b"
                       r"|\bname's\s+kills\b|\bname\s+(?:killed|got|made|scored|secured)\b|\bwho\s+did\s+name\s+kill\b")
_KILLS_ON = re.compile(r"\bkills?\s+on\s+name\b|\bkilled\s+name\b|\bwho\s+killed\s+name\b|\bname\s+was\s+killed\b")


def _kill_list_side(ask: EventAsk) -> tuple[tuple[str, ...], list[Filter]]:
    """The entity dimensions of a kill list and the filters that say whose kills they are."""
    players, text = ask.people, ask.named
    if len(players) == 1 and _KILLS_BY.search(text) and not _KILLS_ON.search(text):
        return ("team",), [_in("source", players)]
    if len(players) == 1 and _KILLS_ON.search(text) and not _KILLS_BY.search(text):
        return ("team",), [_in("victim", players)]
    return ("player", "team"), []


def first_blood(ask: EventAsk) -> QueryPlan | None:
    if not FIRST_BLOOD.search(ask.text) or ask.r.shape.count:
        return None
    return finish(Draft(ask.question, Intent.EVENT_LIST, ("first_blood",), window=ask.r.window, limit=1,
                        assumptions=list(ask.assumptions)))


def winner(ask: EventAsk) -> QueryPlan | None:
    if not winner_question(ask.r):
        return None
    return finish(Draft(ask.question, Intent.EVENT_LIST, ("winner",), limit=1, assumptions=list(ask.assumptions)))


_WHEN = re.compile(r"\bwhen\b|\bwhat\s+(?:times?|minutes?)\b|\bat\s+what\s+(?:times?|minutes?|point)\b|\bhow\s+(?:early|soon)\b"
                   r"|\b(?:their|its|his|her|the)\s+(?:times|timestamps|minutes)\b")
_BY_WHOM = re.compile(r"\bwho(?:m)?\b|\bwhich\s+(?:players?|gods?|teams?|sides?)\b|\bby\s+whom\b")


def _objective_filter(text: str, killers_said: Sequence[str]) -> list[Filter]:
    """The objectives named outside the words that name their killer ("by the fire giant" is no Fire Giant kill)."""
    for said in killers_said:
        text = text.replace(said, " ")
    values = objective_values(text)
    return [_in("objective", values)] if values else []


def taken_by_non_players(ask: EventAsk) -> QueryPlan | None:
    """"How many structures got last hit by minions", "did the minions take a tower", "which minion types finished
    a phoenix", "towers killed by archers": the list, which counts them and names each killer (the minion's kind as
    the log names it) and its side; None when no non-player is said to have taken one (`takers.read_takers`)."""
    found = read_takers(ask.r, ask.vocab)
    if found is None:
        return None
    return ask.draft("objective_events", ("player", "team"), extra=[found.filter, *_objective_filter(ask.text, found.said)],
                     focus=list(found.names))


# One objective by its place in time, whatever the verb ("did chaos get the first tower", "the last phoenix"): an event
_EDGE_OBJECTIVE = re.compile(r"\b(?:first|earliest|opening|last|final|latest)\s+(?:objectives?|" + "|".join(
    pattern for _, pattern in OBJECTIVE_VALUES) + r")\b")


# Words that ask something; a question with none is a bare noun phrase ("towers before minute 12"), a
# request for those objectives, listed (the list says how many too)
_ASKED = re.compile(r"\b(?:how|what|which|who|whom|whose|when|where|why|did|do|does|was|were|is|are|has|have|had|number|"
                    r"count|total|many|much|most|least|more|less|fewer|fewest|any|every|each|per|share|percent|"
                    r"ratio|rate|average|avg|damage|dmg|gold|first|last)\b|%")


def _objective_list_asked(r: Reading) -> bool | None:
    """None when the question asks for no list of objectives; else whether it asks their times after a count."""
    text = r.text
    damage = any(m.startswith("damage") or m == "npc_damage" for m in r.metrics)
    # "which team took the first tower" asks who took one objective (its side and its last hitter), no counts per side
    per_group = bool({"team", "role", "god"} & set(r.groups)) and not (
        _EDGE_OBJECTIVE.search(text) and not _EACH_TAKER.search(text))
    # "how many" alone is a count; with "who" or "when" it is the list, which says how many too ("how many towers did
    # order lose and when did the first go down": every one with its time, the first of them said)
    timed = r.shape.count and bool(_WHEN.search(text))
    counted = r.shape.count and not _BY_WHOM.search(text) and not timed
    list_cue = OBJECTIVE_LIST.search(text) or _EDGE_OBJECTIVE.search(text) or timed or not _ASKED.search(text)
    if not (OBJECTIVE_WORDS.search(text) and list_cue) or counted or damage or per_group:
        return None
    if r.causes is not None and "deaths" in r.metrics:
        return None  # "what share of deaths were to towers": the towers dealt the deaths, no tower was taken
    return timed


def objectives(ask: EventAsk) -> QueryPlan | None:
    r, text = ask.r, ask.text
    timed = _objective_list_asked(r)
    if timed is None:
        return None
    edge = FIRST_OR_LAST.search(LAST_HITS.sub(" ", text))
    if r.shape.superlative and (not edge or leans_on_takers(text, edge)):
        return None  # "who took the most towers (, then the earliest?)": the ranking, its first a part of it
    values = objective_values(text)
    extra = [_in("objective", values)] if values else []
    # a structure named in full, its side inside the name ("the last chaos phoenix", "the first Order Tower"): that
    # side's structures, whoever took them
    named = [n for n in r.npcs if entity_kind(n, ()) == "structure"]
    extra += [_in("target", named)] if named else []
    e, notes = as_taker(r, ask.e)
    ask = _takers_as_players(replace(ask, e=e, assumptions=(*ask.assumptions, *notes)))
    order = None if timed else _one_objective(r, edge)
    window = r.anchor.events if r.anchor is not None else r.window  # after an objective: never that objective itself
    if timed and edge is not None and not _EDGE_OF_ELSE.match(text[edge.end():]):
        # "how many towers did X take, and when did he take the last one": every one with its time, the one asked for
        # said (`leader`: the list's first in `order`, latest first for the last)
        last = edge.group(1) in ("last", "final", "latest")
        return ask.draft("objective_events", ("player", "team"), extra=extra, window=window, shape="leader",
                         order="desc" if last else "asc")
    listed = ask.draft("objective_events", ("player", "team"), extra=extra, window=window)
    if order is not None and leans_on_takers(text, edge):
        # "which players killed the fire giants; the earliest?": every one with its taker, then the first of them
        one = ask.draft("objective_events", ("player", "team"), extra=extra, order=order, limit=1, window=window)
        return listed.model_copy(update={"parts": (one.model_copy(update={"assumptions": ()}),)})
    if order is not None:
        return ask.draft("objective_events", ("player", "team"), extra=extra, order=order, limit=1, window=window)
    return listed


def _takers_as_players(ask: EventAsk) -> EventAsk:
    """The objectives of a god or a role are those its players took (the objectives table has neither column)."""
    if ask.e.players or not (ask.e.gods or ask.e.roles):
        return ask
    players, _ = edge_subjects(ask)
    if not players:
        return ask
    return replace(ask, e=replace(ask.e, players=players, teams=(), roles=(), gods=()))


# A later clause after the objectives ("...; the earliest?", "and the last?"): a comma, "and", "then"
_CLAUSE_BREAK = re.compile(r"[,;?!]|\b(?:and|then|also|plus|but)\b")
# The takers said as a grouping: "how many did each team take", "towers per side", "by player"
_EACH_TAKER = re.compile(r"\b(?:each|every|per|by)\s+(?:team|side|player|god|role)s?\b")
# What follows a first or last that is no objective: "the first kill", "her last item", "the final 5 minutes"
_EDGE_OF_ELSE = re.compile(r"\s*(?:[a-z]+\s+)?(?:kills?|blood|deaths?|died|items?|buys?|purchases?|minutes?|mins?|"
                           r"seconds?|fights?|\d)\b")


def leans_on_takers(text: str, edge: re.Match[str] | None) -> bool:
    """Whether `text` asks who took every objective of its kind ("who got the fire giants", "which players killed
    phoenixes", "how many did each side get") and then, in a later clause, the first or last of them ("..., and when
    was the first one", "and the last?"): the edge comes after the objective word and a clause break, with who or
    which before that word, or a grouping by taker before the edge."""
    noun = OBJECTIVE_WORDS.search(text)
    if edge is None or noun is None or edge.start() < noun.end():
        return False
    takers = _BY_WHOM.search(text[:noun.start()]) or _EACH_TAKER.search(text[:edge.start()])
    return bool(takers and _CLAUSE_BREAK.search(text[noun.end():edge.start()])
                and not _EDGE_OF_ELSE.match(text[edge.end():]))


def with_taken_edge(plan: QueryPlan, r: Reading) -> QueryPlan:
    """A count of objectives by who took them ("which side took the gold furies", "who took the most towers")
    followed by a clause about the first or last of them ("then the earliest?"): the count, then that
    objective as a part, of the kind counted and, when the count is a side's, of that side."""
    head = metric(plan.metrics[0]) if plan.metrics else None
    edge = FIRST_OR_LAST.search(LAST_HITS.sub(" ", r.text))
    if plan.intent == Intent.EVENT_LIST or plan.parts or head is None or head.source is None or \
            head.source.table != "objectives" or edge is None or not leans_on_takers(r.text, edge):
        return plan
    kinds = objective_values(r.text)
    sides = [f for f in plan.filters if f.dimension == "team"]
    one = finish(Draft(plan.question, Intent.EVENT_LIST, ("objective_events",),
                       filters=[*sides, *([_in("objective", kinds)] if kinds else [])], window=r.window,
                       order="desc" if edge.group(1) in ("last", "final", "latest") else "asc", limit=1))
    return plan.model_copy(update={"parts": (one,)})


def _one_objective(r: Reading, edge: re.Match[str] | None) -> Literal["asc", "desc"] | None:
    """The order of the one objective asked for ("the first tower": asc, "the last one": desc), or None for a list. In
    a window anchored on an event the first or last is the one nearest it too ("the last one before the fire giant
    fell"), and so is one said right next to it ("right after first blood")."""
    anchored = r.anchor is not None and r.anchor.window is not None
    if edge and (not r.window or anchored):
        return "desc" if edge.group(1) in ("last", "final", "latest") else "asc"
    if anchored and r.anchor is not None and r.anchor.near:
        return "asc" if r.anchor.after else "desc"
    return None


WHERE_READ = "'where' read as the map positions of the player kills"  # the wording then says each one's place
# "where" asked first, or of the map, asks a place whatever follows: "where does X die most", "where on the map do
# most kills happen" ask where, never how many
_WHERE_FIRST = re.compile(r"^\W*(?:(?:and|so|ok|okay|also)\W+)?where\b|\bwhere\s+on\s+the\s+map\b")


def positions(ask: EventAsk) -> QueryPlan | None:
    if not POSITIONS.search(ask.text):
        return None
    if (ask.r.shape.count or ask.r.shape.superlative) and not _WHERE_FIRST.search(ask.text):
        return None
    return ask.draft("kill_events", ("player", "team"), notes=[WHERE_READ])


def kill_feed(ask: EventAsk) -> QueryPlan | None:
    r = ask.r
    # "kills per god", "every player's kills": figures split by something, not the kill feed
    split = {"team", "role", "god"} & set(r.groups) or (r.shape.every and "player" in r.groups)
    # "show kills each minute", "kills per minute": counts over time or a rate; "what percent of all kills": a share
    if not KILL_LIST.search(ask.text) or split or r.shape.count or r.shape.superlative or r.shape.per_minute \
            or r.shape.share:
        return None
    dims, extra = _kill_list_side(ask)
    return ask.draft("kill_events", dims, extra=extra, focus=list(ask.people) if extra else [])


EVENT_READERS: tuple[Callable[[EventAsk], QueryPlan | None], ...] = (
    lobby, match_facts, roster, what_happened, taken_by_non_players, deaths, kill_assisters, assist_edge, kill_edge,
    first_blood, winner,
    objectives, positions, kill_feed)


def event_plan(question: str, r: Reading, e: Entities, vocab: Vocabulary) -> QueryPlan | None:
    """Match facts, roster, what happened, deaths, a first or last kill, first blood, winner, objectives, kill positions,
    kill feed: the first event reader that recognises the question makes its plan."""
    ask = EventAsk(question, r, e, (*r.assumptions, *e.notes), vocab)
    return next((plan for reader in EVENT_READERS if (plan := reader(ask)) is not None), None)


def pattern_plan(question: str, r: Reading, e: Entities, vocab: Vocabulary) -> QueryPlan | None:
    """Team fights, kill streaks, comebacks and stomps, death recaps: the match patterns of the reports. A death
    recap's player may be said by the one god they played ("what killed the loki")."""
    patterns = [m for m in r.metrics if metric(m).kind == "pattern"]
    if DEATH_RECAP.search(r.text) and (e := gods_as_players(r, e, vocab)).players:
        if r.window is None and _AT_CLOCK.search(r.question):  # "what killed X at 31:45": that one death, listed
            return finish(Draft(question, Intent.EVENT_LIST, ("death_events",), filters=[_in("player", e.players)],
                                window=_at_clock(r), order="asc", limit=LIST_LIMIT, focus=list(e.players),
                                assumptions=[*r.assumptions, *e.notes]))
        patterns = ["death_recap"]
    if not patterns or (_figures(r) and patterns[0] != "death_recap" and not re.search(
            r"\b(which|what|when|show|list|describe|were|was|decided|biggest|best|longest)\b", r.text)):
        return None
    head = patterns[0]
    filters, focus = entity_filters(e, ("player", "team") if head in ("death_recap", "kill_streaks") else ())
    return finish(Draft(question, Intent.EVENT_LIST, (head,), filters=filters, window=r.window, order="asc",
                        limit=LIST_LIMIT, focus=focus, assumptions=[*r.assumptions, *e.notes]))


def _purchase_edge(r: Reading, bought_when: bool) -> tuple[Literal["asc", "desc"], int, list[str]]:
    """(order, limit, notes) of a build list: the first or last purchases in time ("his first 3 items", "the last
    purchase", "who bought X first", "when did X buy <item>": the first), the purchases up to a place ("her third
    item": `_purchase_place`), else the whole list in order."""
    place = _purchase_place(r)
    if place > 1:
        return "asc", place, []
    following = _after_first(r)
    if following:
        return "asc", 1 + following, ["'the starter' read as the first purchase"] if "start" in r.text else []
    edge = BUILD_EDGE.search(r.text)
    last = edge is not None and edge.group("a") in ("last", "final", "latest")
    limit = (r.shape.top or 1) if (edge or bought_when) and not r.window else LIST_LIMIT
    notes = [] if edge or not bought_when or limit == LIST_LIMIT else [f"'when' read as the first purchase of {r.items[0]}"]
    return ("desc" if last and limit < LIST_LIMIT else "asc"), limit, notes


# The first and the last said together in one question about purchases
BOTH_EDGES = re.compile(r"\b(?:first|earliest|opening|starting)\b.*\b(?:last|final|latest)\b")


def _purchase_place(r: Reading) -> int:
    """The place in a build list asked about ("his second item", "the third thing she bought", "her 2nd <item>"),
    counted in time order (of that item when one is named); 0 when none is, or when a window is said."""
    m = PURCHASE_PLACE.search(r.text)
    return 0 if m is None or r.window else PLACES[m.group("n").lower()]


_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _next_count(text: str) -> int:
    """How many next purchases the words count ("the next two", "3 items after"); 0 when they count none."""
    m = NEXT_N.search(text)
    if m is None:
        return 0
    n = m.group("n") or m.group("m")
    return int(n) if n.isdigit() else _COUNT_WORDS[n]


def _next_n(r: Reading) -> int:
    """How many next purchases are asked for ("the next thing", "his next two items"); 0 when "next" is not said."""
    return _next_count(r.text) or (1 if re.search(r"\bnext\b", r.text) else 0)


def _after_first(r: Reading) -> int:
    """How many purchases after the first one are asked for ("the next two after his starter"); 0 when none are."""
    return _next_count(r.text) if AFTER_FIRST_BUY.search(r.text) and not r.window else 0


def _asks_for_purchases(r: Reading, spent: bool, bought_when: bool) -> bool:
    """A build word, what gold went on, when or by whom an item was bought, or the purchases after the first."""
    bought_by = bool(r.items) and bool(ITEM_BUYER.search(r.text))
    return bool(BUILD.search(r.text) or spent or bought_when or bought_by or _after_first(r))


def _asks_a_build(r: Reading, e: Entities, metrics: list[str], spent: bool, bought_when: bool) -> bool:
    """Whether the question asks for purchases in order, not a count, a leader or a split of them."""
    text = r.text
    # "which team took the first tower" asks who took one objective (its side and its last hitter), no counts per side
    per_group = bool({"team", "role", "god"} & set(r.groups)) and not (
        _EDGE_OBJECTIVE.search(text) and not _EACH_TAKER.search(text))
    # "which items were bought the most" or "by team 2" split by item; "what items did the support build" is the
    # build order of its players
    item_breakdown = ("item" in r.groups and not (e.players or e.roles or e.gods)) or \
        (per_group and "items_purchased" in metrics)
    # "the next thing she picked up after her boots": after a purchase, a question naming no figure asks what was bought
    after_purchase = r.anchor is not None and r.anchor.purchase and not metrics
    return (_asks_for_purchases(r, spent, bought_when) or after_purchase) and not (
        r.shape.count or r.shape.superlative or item_breakdown
        or [m for m in metrics if m not in ("items_purchased", "build")])


def _after_a_purchase(plan: QueryPlan, r: Reading) -> QueryPlan:
    """"what did she buy (right) after her boots": the purchases from the next second on (never those boots), or the
    next ones alone; any other build as it is."""
    if r.anchor is None or not r.anchor.purchase or r.anchor.events is None or not r.anchor.after:
        return plan
    return plan.model_copy(update={"window": r.anchor.events, "order": "asc", "position": 1,
                                   "limit": _next_n(r) or (1 if r.anchor.near else LIST_LIMIT)})


def build_plan(question: str, r: Reading, e: Entities) -> QueryPlan | None:
    spent = GOLD_WENT_ON.search(r.text)
    metrics = [m for m in r.metrics if not (spent and m == "gold")]
    bought_when = bool(r.items) and bool(ITEM_WHEN.search(r.text))
    if not _asks_a_build(r, e, metrics, bool(spent), bought_when):
        return None
    filters, focus = entity_filters(e, ROSTER_DIMS)
    if r.items:
        filters.append(_in("item", r.items))
        focus += r.items
    order, limit, notes = _purchase_edge(r, bought_when)
    plan = _after_a_purchase(finish(Draft(
        question, Intent.BUILD_ORDER, ("build",), filters=filters, window=r.window, order=order, limit=limit,
        focus=focus, position=max(_purchase_place(r), 2 if _after_first(r) else 1),
        assumptions=[*r.assumptions, *e.notes, *notes])), r)
    if order == "asc" and limit < LIST_LIMIT and BOTH_EDGES.search(r.text):
        # "her first and last items", "his opening buy and the last thing he got": the last ones too, as a part
        last = plan.model_copy(update={"order": "desc", "position": 1, "assumptions": ()})
        return plan.model_copy(update={"parts": (last,)})
    return plan
