"""A `Reading` becomes a `QueryPlan`: the intent, then the figures, entities, windows and shape.

`plan_reading` tries the intent families in turn, each a small function that returns a plan or None: event
lists (match facts, roster, first blood, winner, objectives, kill feed), match patterns (team fights, kill
streaks, comebacks, death recaps), build orders, and figures. Figures compose independently read slots:
metrics, entity filters, qualifiers ("to the jungle camps"), one window or several side by side, grouping and
the answer's shape (leader, top N with ties, every row, a series, a comparison).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from combat_analysis.catalog import DIMENSIONS, metric, rate_of
from combat_analysis.contracts.plan import Filter, Intent, PlanOrder, PlanShape, QueryPlan, TimeWindow
from combat_analysis.planner.plans.refusals import refusal
from combat_analysis.planner.read import exclusions
from combat_analysis.planner.read.reading import (
    EVENT_FIGURES,
    NPC_KINDS,
    OBJECTIVE_METRICS,
    Qualifier,
    Reading,
    group_cues,
    normalize,
    read_metrics,
    read_shape,
)
from combat_analysis.planner.vocabulary import Vocabulary

CORE_STATS = ("kda", "kills", "deaths", "assists", "damage_dealt", "gold")
PARAM_PLAYER = "$player"  # a player bound from an earlier query's first row
RATES = {"gpm": "gold", "dpm": "damage_dealt", "xpm": "experience", "kda": "kills", "kd": "kills",
         "mvp_score": "kills"}
ROSTER_DIMS = ("player", "team", "role", "god")
LIST_LIMIT = 500

# ---------------------------------------------------------------------------------------- event cues

FIRST_BLOOD = re.compile(r"\bfirst\s+(blood|kill|death|takedown)\b|\b(died|killed|die)\s+first\b|\bfirst\s+(?:player\s+|one\s+)?to\s+(die|be\s+killed|get\s+a\s+kill)\b|\bfb\b|\bopened\s+the\s+scoring\b|\bdrew\s+first\s+blood\b")
WINNER = re.compile(r"\b(won|win|wins|winner|winners|winning|victory|victorious|lost|lose|loser|losers|outcome|result|beat)\b")
BUILD = re.compile(r"\bbuild(s|ing)?\b|\bbuilt\b|\bbuild\s+order\b|\bitems?\b.*\b(buy|bought|purchas\w*|get|got|pick\w*|have|had|use[ds]?)\b|"
                   r"\b(buy|bought|purchas\w*)\b.*\bitems?\b|\bwhat\s+did\s+name\s+(buy|purchase)\b|\bwhat\s+did\s+.*\b(buy|purchase)\b|"
                   r"\bwho\s+(bought|purchased|built)\b|\bshopping\s+list\b|\binventory\b|\bname\s+items?\b")
KILL_LIST = re.compile(r"\b(kill\s*feed|kill\s+list|list\s+(?:of\s+|all\s+(?:the\s+)?|the\s+)?kills|every\s+kill|all\s+(?:the\s+)?kills|"
                       r"each\s+kill|who\s+killed|who\s+did\s+name\s+kill|when\s+did\s+name\s+die|whom\s+did|killed\s+by\s+whom|"
                       r"who\s+was\s+killed\s+by|kills?\s+timeline|show\s+(?:me\s+)?(?:the\s+)?kills)\b")
OBJECTIVE_WORDS = re.compile(r"\b(objectives?|towers?|phoenix(?:es)?|titans?|gold\s+fur(?:y|ies)|fire\s+giants?|bosses|structures?)\b"
                             r"|\bwhat\s+(?:was\s+|got\s+)?(?:fell|falls|fall|destroyed|taken|went\s+down|came\s+down)\b")
OBJECTIVE_LIST = re.compile(r"\b(when|list|show|which|what|who|timeline|order|sequence|took|destroyed|killed|fell|fall|"
                            r"taken|secured|go\s+down|went\s+down)\b")
OBJECTIVE_VALUES = [("tower", r"towers?"), ("phoenix", r"phoenix(?:es)?"), ("titan", r"titans?"),
                    ("gold fury", r"gold\s+fur(?:y|ies)"), ("fire giant", r"fire\s+giants?")]
TOGETHER = re.compile(r"\b(combined|together|altogether|between\s+them|in\s+total|total)\b")
FIRST_OR_LAST = re.compile(r"\b(first|earliest|opening|last|final|latest)\b")
MATCH_FACTS = re.compile(r"\bhow\s+long\b|\b(match|game)\s+last(ed)?\b|\bhow\s+many\s+minutes\s+(did|was|were)\s+(the\s+)?(match|game)\b|\b(match|game)\s+(length|duration|time)\b|\bduration\b|"
                         r"\bwhen\s+did\s+the\s+(match|game)\s+(end|start|begin|finish)\b|\bmatch\s+id\b|\blength\s+of\s+the\s+(match|game)\b")
ROSTER = re.compile(r"\bwho\s+(played|was\s+playing|picked)\b|\b(which|what)\s+(role|god|team)\s+(is|was|did|does|were)\b|"
                    r"\bwhat\s+(gods|roles)\s+were\b|\b(list|show)\s+(me\s+)?(the\s+|all\s+)?players\b|\broster\b|"
                    r"\bline\s*ups?\b|\bwho\s+(was|were|is|are)\s+(on|in)\s+team\b|\bwhich\s+players\s+(were|are)\s+on\b|"
                    r"\bplayed\s+(as\s+)?(which|what)\b|\bteam\s+compositions?\b|\bwho\s+were\s+the\s+players\b")
POSITIONS = re.compile(r"\bwhere\b.*\b(die|died|dying|death|deaths|kill|kills|killed|fights?|fought|ganks?)\b|"
                       r"\bheat\s*maps?\b|\b(kill|death)\s+(positions?|locations?|map)\b")
WHAT_HAPPENED = re.compile(r"\bwhat\s+happened\b|\bkey\s+moments\b|\bkey\s+events\b")
_WHOM = r"(?:name|he|she|they|him|her)"
DEATH_RECAP = re.compile(rf"\bhow\s+did\s+{_WHOM}\s+die\b|\bwhat\s+killed\s+{_WHOM}\b|\bwhy\s+did\s+{_WHOM}\s+(?:die|keep\s+dying)\b|"
                         rf"\bhow\s+(?:was|did)\s+{_WHOM}\s+(?:get\s+)?killed\b|\b(?:name|his|her|their)\s*(?:'s\s+)?death\s+recaps?\b")
SCOREBOARD = re.compile(r"\b(scoreboard|summary|summari[sz]e|overview|stats|statistics|stat\s+line|box\s+score|how\s+did\s+.+\s+(do|play|perform|fare)|"
                        r"performance|perform|recap|tell\s+me\s+about|how\s+was|how\s+did\s+the\s+(match|game)\s+go|how\s+.+\s+(did|went))\b")
BREAKDOWN = re.compile(r"\b(break\s*down|broken\s+down|breakdown|split|distribution|distributed|composition|made\s+up|"
                       r"by\s+(?:ability|abilities|skill|item|target|source|phase)|per\s+(?:ability|skill|item|target|phase)|"
                       r"where\s+did\b.*\bgo|which\s+sources?|what\s+sources?|use[ds]?|using|each|every|all|list)\b")
RECEIVED = re.compile(r"\b(take|takes|took|taken|taking|receive|received|absorb|absorbed|suffer|suffered)\b")
BASIC_ATTACKS = re.compile(r"\bbasic\s+attacks?\b|\bauto\s*attacks?\b|\bautos\b")
AVERAGE = re.compile(r"\b(average|avg|mean|median)\b")
DEPENDENT = re.compile(
    r"\b(?:the\s+)?(?:player|one|person|guy|god|someone|whoever)\s+(?:with|who\s+(?:had|got|dealt|did|earned|took|landed|made))\s+"
    r"(?:the\s+)?(?:most|highest|best|biggest|largest|top)\s+([a-z' /]+?)(?=\s+(?:use|used|build|built|buy|bought|get|got|deal|"
    r"dealt|do|did|earn|earned|take|took|have|had|heal|healed|make|made|purchase|purchased)\b|[?.!,]|$)"
    r"|\b(?:the\s+)?(?:top|biggest|best|highest|leading|main)\s+([a-z' ]*?)\s*(?:dealer|earner|fragger|healer|killer|carry|"
    r"scorer|tank|player|leader|assister)\b"
    r"|\b(?:the\s+)?([a-z' ]+?)\s+leader\b|\bthe\s+(mvp)\b")
PRONOUN = re.compile(r"\b(him|her|he|she|his|hers|they|them|their|that\s+player|this\s+player|that\s+guy|the\s+same\s+player)\b")


# ------------------------------------------------------------------------------------------ entities

@dataclass(frozen=True)
class Entities:
    """Who the question is about, resolved against the roster."""

    players: tuple[str, ...] = ()
    teams: tuple[int, ...] = ()
    roles: tuple[str, ...] = ()
    gods: tuple[str, ...] = ()
    by_player: bool = False  # a role or god means its players, compared by name ("the supports")
    notes: tuple[str, ...] = ()

    @property
    def any(self) -> bool:
        return bool(self.players or self.teams or self.roles or self.gods)


def resolve_entities(r: Reading, vocab: Vocabulary) -> Entities:
    """'The team 1 support' is one player; 'the supports' (a role, no team) are its players by name."""
    if not r.players and len(r.teams) == 1 and len(r.roles) == 1:
        found = vocab.players_where(team=r.teams[0], role=r.roles[0])
        if len(found) == 1:
            return Entities(players=(found[0].player,), notes=(
                f"the team {r.teams[0]} {r.roles[0].lower()} read as {found[0].player}",))
    # "the supports' gold combined": the role's total, not each support's
    role_totals = "role" in r.groups or "god" in r.groups or len(r.roles) > 1 or bool(TOGETHER.search(r.text))
    # a role left out ("excluding the junglers") is no role whose players are compared
    left_out = {v for d, v in exclusions.excluded(r.question, r, vocab) if d == "role"} if r.roles else set()
    by_player = bool(set(r.roles) - left_out and not r.players and not role_totals)
    return Entities(players=r.players, teams=r.teams, roles=r.roles, gods=r.gods if not r.players else (),
                    by_player=by_player)


def _in(dimension: str, values: Sequence) -> Filter:
    return Filter(dimension=dimension, op="=" if len(values) == 1 else "in", values=tuple(values))


def entity_filters(e: Entities, allowed: Sequence[str]) -> tuple[list[Filter], list[str]]:
    filters: list[Filter] = []
    focus: list[str] = []
    if e.players and "player" in allowed:
        filters.append(_in("player", e.players))
        focus += e.players
    if e.teams and "team" in allowed:
        filters.append(_in("team", e.teams))
        focus += [f"team {t}" for t in e.teams]
    if e.roles and "role" in allowed:
        filters.append(_in("role", e.roles))
        focus += e.roles
    if e.gods and "god" in allowed:
        filters.append(_in("god", e.gods))
        focus += e.gods
    return filters, focus


# ---------------------------------------------------------------------------------------- the draft

@dataclass
class Draft:
    """A plan under construction; `finish` turns it into a frozen QueryPlan."""

    question: str
    intent: Intent
    metrics: tuple[str, ...]
    group_by: tuple[str, ...] = ()
    filters: list[Filter] = field(default_factory=list)
    window: TimeWindow | None = None
    windows: tuple[TimeWindow, ...] = ()
    order: PlanOrder = "desc"
    limit: int = 10
    focus: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    shape: PlanShape = "auto"
    position: int = 1


def finish(d: Draft) -> QueryPlan:
    assumptions = list(d.assumptions)
    metrics, filters = fit(d.metrics, d.group_by, list(d.filters), assumptions)
    plan = QueryPlan(question=d.question, intent=d.intent, metrics=metrics, group_by=d.group_by,
                     filters=tuple(filters), window=d.window, windows=d.windows, order=d.order, limit=d.limit,
                     focus=tuple(dict.fromkeys(d.focus)), assumptions=tuple(dict.fromkeys(assumptions)),
                     caveats=tuple(dict.fromkeys(d.caveats)), shape=d.shape, position=d.position)
    return plan.model_copy(update={"summary": summarize(plan)})


def fit(metrics: Sequence[str], group_by: Sequence[str], filters: list[Filter], assumptions: list[str]):
    """Keep only what the headline metric can be filtered by, and the extra metrics that fit the grouping."""
    head = metric(metrics[0])
    if not head.is_figure:
        return tuple(metrics), filters
    kept_filters = []
    for f in filters:
        if f.dimension in head.dimensions:
            kept_filters.append(f)
        else:
            assumptions.append(f"{head.label} cannot be narrowed by {DIMENSIONS[f.dimension].label}; that part was ignored")
    dims = (set(group_by) - {"period"}) | {f.dimension for f in kept_filters}
    kept_metrics = [metrics[0]]
    for extra in metrics[1:]:
        m = metric(extra)
        if m.is_figure and dims <= set(m.dimensions):
            kept_metrics.append(extra)
        else:
            assumptions.append(f"{m.label} left out: it cannot be split or filtered the same way")
    return tuple(kept_metrics), kept_filters


def summarize(plan: QueryPlan) -> str:
    """The plan in plain words, for the report's methodology section and "I read this as"."""
    if plan.intent == Intent.REFUSE:
        return "Refused: " + (plan.refusal.reason if plan.refusal else "")
    labels = ", ".join(metric(m).label for m in plan.metrics)
    where = "; ".join(f"{DIMENSIONS[f.dimension].label} {'is' if f.op == '=' else f.op} "
                      + " or ".join(str(v) for v in f.values) for f in plan.filters)
    if plan.windows:
        when = " in " + " against ".join(f"the {w.label}" for w in plan.windows)
    else:
        when = f" in the {plan.window.label}" if plan.window else " over the whole match"
    by = " by " + " and ".join(DIMENSIONS[g].label for g in plan.group_by if g != "period") if [
        g for g in plan.group_by if g != "period"] else ""
    texts = {
        Intent.RANKING: f"Rank {labels}{by}{when}, {'highest' if plan.order == 'desc' else 'lowest'} first, top {plan.limit}",
        Intent.LOOKUP: f"Look up {labels}{by}{when}",
        Intent.COMPARISON: f"Compare {labels}{by}{when}",
        Intent.BREAKDOWN: f"Break down {labels}{by}{when}",
        Intent.TIMELINE: f"Show {labels} minute by minute{when}",
        Intent.EVENT_LIST: f"List {labels}{when}",
        Intent.BUILD_ORDER: f"List purchases in build order{when}",
    }
    text = texts[plan.intent] + (f" (where {where})" if where else "") + "."
    if plan.then is not None:
        text += " Then, for its first row: " + summarize(plan.then)
    return text


# -------------------------------------------------------------------------------------- event lists

def _figures(r: Reading) -> list[str]:
    """The metrics that are figures (the gold difference too), not event lists or patterns."""
    return [m for m in r.metrics if metric(m).is_figure or metric(m).kind == "gold_diff"]


def winner_question(r: Reading) -> bool:
    if not WINNER.search(r.text):
        return False
    if _figures(r):
        return False  # "which team won more fights"/"gold of the winning team" are figures
    return not re.search(r"\b(won|win|wins)\s+(?:the\s+)?(most|more)\b", r.text)


def _objective_values(text: str) -> list[str]:
    return [v for v, pat in OBJECTIVE_VALUES if re.search(rf"\b{pat}\b", text)]


def event_plan(question: str, r: Reading, e: Entities) -> QueryPlan | None:
    """Match facts, roster, what happened, first blood, winner, objectives, kill positions, kill feed."""
    text, figures = r.text, _figures(r)
    assumptions = [*r.assumptions, *e.notes]

    def draft(metric_id: str, dims: Sequence[str] = (), **kw) -> QueryPlan:
        filters, focus = entity_filters(e, dims)
        kw.setdefault("window", r.window)
        return finish(Draft(question, Intent.EVENT_LIST, (metric_id,), filters=filters + kw.pop("extra", []),
                            order=kw.pop("order", "asc"), limit=kw.pop("limit", LIST_LIMIT), focus=focus,
                            assumptions=assumptions + kw.pop("notes", []), **kw))

    how_many, superlative = r.shape.count, r.shape.superlative
    # "how long did it take for the first tower to fall" asks when that objective fell, not the match's length
    objective_edge = bool(OBJECTIVE_WORDS.search(text) and FIRST_OR_LAST.search(text) and OBJECTIVE_LIST.search(text))
    if ("match_info" in r.metrics or (MATCH_FACTS.search(text) and not figures)) and not objective_edge:
        return draft("match_info", window=None, limit=1)
    # "list the players by gold" asks for the gold of every player, not the line-up without it
    if ("roster" in r.metrics or ROSTER.search(text)) and not figures:
        return draft("roster", ROSTER_DIMS, window=None)
    if WHAT_HAPPENED.search(text) and not figures:
        window, notes = r.window, ["'what happened' read as the player kills"]
        if r.at_minute is not None:
            window = TimeWindow(label=f"during minute {r.at_minute}", start_s=60 * r.at_minute,
                                end_s=60 * r.at_minute + 60)
            assumptions = [a for a in assumptions if not a.startswith("'at")]
        return draft("kill_events", ("player", "team"), window=window, notes=notes)
    if FIRST_BLOOD.search(text) and not how_many:
        return finish(Draft(question, Intent.EVENT_LIST, ("first_blood",), window=r.window, limit=1,
                            assumptions=assumptions))
    if winner_question(r):
        return finish(Draft(question, Intent.EVENT_LIST, ("winner",), limit=1, assumptions=assumptions))
    damage = any(m.startswith("damage") or m == "npc_damage" for m in r.metrics)
    per_group = bool({"team", "role", "god"} & set(r.groups))
    if OBJECTIVE_WORDS.search(text) and OBJECTIVE_LIST.search(text) and not how_many and not damage and not per_group \
            and (not superlative or FIRST_OR_LAST.search(text)):
        values = _objective_values(text)
        extra = [_in("objective", values)] if values else []
        edge = FIRST_OR_LAST.search(text)
        if edge and not r.window:
            last = edge.group(1) in ("last", "final", "latest")
            return draft("objective_events", ("player", "team"), extra=extra, order="desc" if last else "asc",
                         limit=1)
        return draft("objective_events", ("player", "team"), extra=extra)
    if POSITIONS.search(text) and not how_many and not superlative:
        return draft("kill_events", ("player", "team"), notes=["'where' read as the map positions of the player kills"])
    # "kills per god", "every player's kills": figures split by something, not the kill feed
    split = {"team", "role", "god"} & set(r.groups) or (r.shape.every and "player" in r.groups)
    # "show kills each minute", "kills per minute": counts over time or a rate, not the kill feed
    if KILL_LIST.search(text) and not how_many and not superlative and not split and not r.shape.per_minute \
            and not r.shape.share:  # "what percent of all kills did team 2 get" is a share, not the kill feed
        return draft("kill_events", ("player", "team"))
    return None


def pattern_plan(question: str, r: Reading, e: Entities) -> QueryPlan | None:
    """Team fights, kill streaks, comebacks and stomps, death recaps: the match patterns of the reports."""
    patterns = [m for m in r.metrics if metric(m).kind == "pattern"]
    if DEATH_RECAP.search(r.text) and e.players:
        patterns = ["death_recap"]
    if not patterns or (_figures(r) and patterns[0] != "death_recap" and not re.search(
            r"\b(which|what|when|show|list|describe|were|was|decided|biggest|best|longest)\b", r.text)):
        return None
    head = patterns[0]
    filters, focus = entity_filters(e, ("player", "team") if head in ("death_recap", "kill_streaks") else ())
    return finish(Draft(question, Intent.EVENT_LIST, (head,), filters=filters, window=r.window, order="asc",
                        limit=LIST_LIMIT, focus=focus, assumptions=[*r.assumptions, *e.notes]))


def build_plan(question: str, r: Reading, e: Entities) -> QueryPlan | None:
    text = r.text
    metrics = list(r.metrics)
    per_group = bool({"team", "role", "god"} & set(r.groups))
    item_breakdown = ("item" in r.groups and not e.players) or (per_group and "items_purchased" in metrics)
    if not BUILD.search(text) or r.shape.count or r.shape.superlative or item_breakdown or \
            [m for m in metrics if m not in ("items_purchased", "build")]:
        return None
    filters, focus = entity_filters(e, ROSTER_DIMS)
    if r.items:
        filters.append(_in("item", r.items))
        focus += r.items
    return finish(Draft(question, Intent.BUILD_ORDER, ("build",), filters=filters, window=r.window, order="asc",
                        limit=LIST_LIMIT, focus=focus, assumptions=[*r.assumptions, *e.notes]))


# ------------------------------------------------------------------------------------------- figures

def default_metrics(r: Reading, e: Entities) -> tuple[list[str], list[str]] | None:
    """The figures a question means when it names none: core stats for an entity, damage for a split."""
    if {"ability", "target_kind", "phase"} & set(r.groups) or r.abilities:
        return ["damage_dealt"], ["no figure named: showing damage dealt"]
    if "item" in r.groups:
        return ["items_purchased"], []
    if re.search(r"\bbest\b|\bbetter\b|\bworst\b|\bworse\b", r.text) and not r.shape.count:
        return ["mvp_score"], ["'best' read as the match report's MVP score"]
    if e.any or SCOREBOARD.search(r.text) or len(r.windows) > 1:
        return list(CORE_STATS), ["no figure named: showing the core stats (KDA, kills, deaths, assists, damage, gold)"]
    return None


KIND_METRIC = {"player": "damage_to_players", "structure": "damage_to_structures", "minion": "damage_to_minions",
               "jungle": "damage_to_jungle", "boss": "damage_to_bosses"}
TARGET_SIDE = ("to", "against", "on", "into", "at", "hit", "hits", "hitting", "damaged", "damaging", "attacked",
               "attacking", "kill", "kills", "killed", "killing", "slay", "slew", "slain", "score on", "scored on")


@dataclass(frozen=True)
class Applied:
    metrics: tuple[str, ...]
    filters: tuple[Filter, ...] = ()
    notes: tuple[str, ...] = ()
    unapplied: tuple[str, ...] = ()  # qualifiers the figure cannot honour, as said


def apply_qualifiers(metrics: Sequence[str], qualifiers: Sequence[Qualifier], players: Sequence[str],
                     compare: bool = False) -> Applied:
    """'Damage to the jungle camps' is damage to jungle camps; 'died to towers' counts deaths whose killer is a
    structure; 'damage to VoidWalker' keeps the rows whose target is VoidWalker. A qualifier the headline
    figure cannot take is returned as unapplied, for the faithfulness check."""
    metrics = list(metrics)
    filters: list[Filter] = []
    notes: list[str] = []
    unapplied: list[str] = []
    for q in qualifiers:
        head = metric(metrics[0])
        if q.kind == "player" and q.name and (q.name not in players or (compare and q.preposition == "against")):
            continue  # "Brisk against VoidWalker" compares them
        if q.name and q.name in players and q.preposition in ("by", "from") and not (
                head.id == "deaths" or "source" in head.dimensions):
            continue  # "damage to structures by MooseKnuckle": the player whose figure it is
        target_side = q.preposition in TARGET_SIDE
        if head.id == "deaths" or (not target_side and ("source" in head.dimensions or "source_kind" in head.dimensions)):
            # "died to towers", "damage taken from minions": the qualifier names who hit
            if q.name and "source" in head.dimensions:
                filters.append(Filter(dimension="source", values=(q.name,)))
            elif q.kind and "source_kind" in head.dimensions:
                filters.append(Filter(dimension="source_kind", values=(q.kind,)))
            else:
                unapplied.append(q.said)
            continue
        if not target_side:
            unapplied.append(q.said)
            continue
        if head.id == "kills" and q.name:
            filters.append(Filter(dimension="victim", values=(q.name,)))
        elif q.name and "target" in head.dimensions:
            filters.append(Filter(dimension="target", values=(q.name,)))
        elif head.id == "damage_dealt" and q.kind:
            metrics[0] = KIND_METRIC[q.kind]
        elif q.kind and "target_kind" in head.dimensions:
            filters.append(Filter(dimension="target_kind", values=(q.kind,)))
        elif head.id == KIND_METRIC.get(q.kind or ""):
            continue  # "damage to players to gods": already the figure
        else:
            unapplied.append(q.said)
    return Applied(tuple(dict.fromkeys(metrics)), tuple(filters), tuple(notes), tuple(unapplied))


def _npc_as_source(r: Reading, vocab: Vocabulary) -> str | None:
    """'How much damage did the Fire Giant do': a non-player named as the one dealing damage."""
    if not r.npcs:
        return None
    for npc in r.npcs:
        said = re.escape(normalize(npc))
        if re.search(rf"\b(?:did|does|do|has|had)\s+(?:the\s+)?{said}s?\s+(?:deal|do|dish|inflict|cause|hit)\b"
                      rf"|\b{said}(?:'s)?\s+(?:damage|dealt|did|hits?|output)\b|\b(?:by|from)\s+(?:the\s+)?{said}\b"
                      rf"|\bdamage\s+(?:of|for)\s+(?:the\s+)?{said}\b", normalize(r.masked)):
            return npc
    return None


def _npc_kind_as_source(r: Reading) -> tuple[str | None, bool] | None:
    """'How much damage did the towers do', 'which jungle monster dealt the most damage': non-players, by
    kind, dealing the damage. Returns (kind or None for every non-player, whether to rank them)."""
    if not any(m in ("damage_dealt", *KIND_METRIC.values()) for m in r.metrics) or r.players and not r.qualifiers:
        return None
    if r.kind_subject is None:
        return None
    kind = next((k for k, p in NPC_KINDS if re.fullmatch(p, r.kind_subject)), None)
    return kind, bool(re.search(r"\b(which|what)\b", r.text)) or r.shape.superlative


def npc_plan(question: str, r: Reading, vocab: Vocabulary, assumptions: list[str]) -> QueryPlan | None:
    """Damage dealt by a non-player: one named ("the Fire Giant") or a kind of them ("the towers")."""
    npc = _npc_as_source(r, vocab)
    metrics = [m for m in r.metrics if metric(m).is_figure]
    taken = next((n for n in r.npcs if RECEIVED.search(r.text)), None)
    if taken and not r.players and metrics and metrics[0] in ("damage_taken", "damage_dealt", *KIND_METRIC.values()):
        # "how much damage did the Gold Fury take": the damage players dealt to it
        return finish(Draft(question, Intent.LOOKUP, ("damage_dealt",), (), [Filter(dimension="target", values=(taken,))],
                            r.window, assumptions=assumptions + [f"damage taken by {taken} read as the damage players "
                                                                 f"dealt to it"]))
    if npc and (not metrics or any(m.startswith("damage") or m in OBJECTIVE_METRICS for m in metrics)):
        filters = [Filter(dimension="source", values=(npc,))]
        filters += apply_qualifiers(("npc_damage",), [q for q in r.qualifiers if q.name != npc], r.players).filters
        return finish(Draft(question, Intent.LOOKUP, ("npc_damage",), filters=filters, window=r.window,
                            focus=[npc], assumptions=assumptions + [f"{npc} read as a non-player source of damage"]))
    by_kind = _npc_kind_as_source(r)
    if by_kind is None:
        return None
    kind, ranked = by_kind
    filters = [Filter(dimension="source_kind", values=(kind,))] if kind else []
    targets = [q for q in r.qualifiers if q.preposition in TARGET_SIDE and (q.name or q.kind != kind)]
    filters += apply_qualifiers(("npc_damage",), targets, r.players).filters
    if ranked:
        return finish(Draft(question, Intent.RANKING, ("npc_damage",), ("source",), filters, r.window, shape="leader",
                            assumptions=assumptions))
    return finish(Draft(question, Intent.LOOKUP, ("npc_damage",), (), filters, r.window, assumptions=assumptions))


def figure_plan(question: str, r: Reading, e: Entities, vocab: Vocabulary) -> QueryPlan:
    text = r.text
    assumptions = [*r.assumptions, *e.notes]
    # a figure plan counts what an event list would list: "what percent of all kills" is kills
    metrics = [EVENT_FIGURES.get(m, m) for m in r.metrics]
    metrics = list(dict.fromkeys(m for m in metrics if metric(m).is_figure or metric(m).kind == "gold_diff"))
    npc = npc_plan(question, r, vocab, assumptions)
    if npc is not None:
        return npc
    qualifiers = list(r.qualifiers)
    slain = next(((q, counted) for q in qualifiers if q.name and q.preposition in _SLAY
                  for counted in _objective_counted(q.name)), None)
    if not metrics and slain is not None:
        # "how many times did the order team kill the fire giant": the count of that objective, as the catalog names it
        metrics = [slain[1]]
        qualifiers.remove(slain[0])
    if not metrics:
        defaults = default_metrics(r, e)
        if defaults is None:
            return refusal(question, "I can't find a figure from the combat log in this question; it records "
                           "damage, healing, kills, gold, experience, crowd control, purchases and objectives.",
                           (), assumptions)
        metrics, notes = defaults
        assumptions += notes
    if "gold_diff" in metrics:
        return gold_diff_plan(question, r, assumptions)
    average = bool(AVERAGE.search(text))
    # "who had the most assists per minute": each player's assists over the minutes played, as GPM is gold's
    rate = r.shape.per_minute and not r.shape.series and _wants_a_rate(r, e)
    per_minute_rates = {m for m in metrics if m in ("gpm", "dpm", "xpm")}
    series = r.shape.series or (r.shape.per_minute and not per_minute_rates and not rate)
    if series:
        metrics = list(dict.fromkeys(RATES.get(m, m) if m in ("gpm", "dpm", "xpm") else m for m in metrics))
    received: list[Filter] = []
    if RECEIVED.search(text) and metrics[0] in KIND_METRIC.values():
        # "who took the most tower damage": damage taken, from that kind of attacker
        kind = next(k for k, m in KIND_METRIC.items() if m == metrics[0])
        metrics[0] = "damage_taken"
        received.append(Filter(dimension="source_kind", values=(kind,)))
    applied = apply_qualifiers(metrics, qualifiers, r.players, r.shape.compare)
    metrics = list(applied.metrics)
    players = list(e.players)
    extra: list[Filter] = [*received, *applied.filters]
    if any(f.dimension == "victim" for f in extra):
        players = [p for p in players if p not in {f.values[0] for f in extra if f.dimension == "victim"}]
    if any(f.dimension in ("source", "target") for f in extra):
        named = {v for f in extra if f.dimension in ("source", "target") for v in f.values}
        players = [p for p in players if p not in named]
    e = replace(e, players=tuple(players))
    head = metric(metrics[0])
    extra += _event_filters(r, head, vocab, assumptions)
    if rate and rate_of(metrics[0]) and all(f.dimension in metric(rate_of(metrics[0]) or "").dimensions for f in extra):
        # after the qualifiers, which name the figure ("damage to the jungle per minute")
        metrics = list(dict.fromkeys(rate_of(m) or m for m in metrics))
        head = metric(metrics[0])
    caveats = [f"I read this as {head.label} without the qualifier '{u}', which the log cannot apply to it"
               for u in applied.unapplied]
    d = Draft(question, Intent.LOOKUP, tuple(metrics), filters=extra, window=r.window, assumptions=assumptions,
              caveats=caveats, order=r.shape.order)
    if len(r.windows) > 1:
        return periods_plan(d, r, e)
    if series:
        return timeline_plan(d, r, e)
    if average and not e.any and not {"team", "role", "god"} & set(r.groups) and \
            metric(d.metrics[0]).aggregation in ("sum", "count"):
        # "the average gold per player": every player's figure, led by their average
        d.intent, d.group_by, d.shape, d.limit = Intent.RANKING, ("player",), _statistic(text), LIST_LIMIT
        return finish(d)
    plan = grouped_plan(d, r, e)
    if average and plan.intent in (Intent.COMPARISON, Intent.RANKING) and len(plan.group_by) == 1:
        return plan.model_copy(update={"shape": _statistic(text)})  # "the average damage of the supports"
    if average:
        return plan.model_copy(update={"assumptions": (*plan.assumptions, "averages are not computed for one entity: "
                                                       "the figure is its total")})
    return plan


_SLAY = frozenset({"kill", "killed", "kills", "slay", "slew", "slain", "take", "took", "taken", "secure", "secured"})


def _objective_counted(name: str) -> list[str]:
    """The objective figure a non-player's name is counted by ("Fire Giant": fire_giants), read from the catalog."""
    return [m for m in read_metrics(normalize(name)).ids if m in OBJECTIVE_METRICS][:1]


def _statistic(text: str) -> Literal["average", "median"]:
    """Which middle the question asks for: "the median damage per player" leads with the median."""
    return "median" if re.search(r"\bmedian\b", text) and not re.search(r"\b(average|avg|mean)\b", text) else "average"


def _wants_a_rate(r: Reading, e: Entities) -> bool:
    """"Per minute" asks for a rate when the question picks out or ranks who had it ("who had the most kills per
    minute", "Brisk's deaths per minute", "assists per minute by player"); without that ("kills per minute for each
    team") it is the minute-by-minute series."""
    shape = r.shape
    return (shape.superlative or shape.top is not None or shape.position > 1 or bool(e.players) or e.by_player
            or "player" in r.groups)


def _event_filters(r: Reading, head, vocab: Vocabulary, assumptions: list[str]) -> list[Filter]:
    """Abilities, items and objectives named in the question narrow the figure."""
    out: list[Filter] = []
    abilities = list(r.abilities)
    if BASIC_ATTACKS.search(r.text) and not abilities:
        abilities = [a for a in vocab.abilities if a.lower().endswith("basic attack")]
        if abilities:
            assumptions.append("'basic attacks' read as every ability named '<god> Basic Attack'")
    if abilities and "ability" in head.dimensions:
        out.append(_in("ability", abilities))
    if r.items and "item" in head.dimensions:
        out.append(_in("item", r.items))
    elif r.items and "ability" in head.dimensions:
        procs = [i for i in r.items if i in vocab.abilities]
        if procs:
            out.append(_in("ability", procs))
    objectives = _objective_values(r.text) if head.id == "objectives_taken" else []
    if objectives:
        out.append(_in("objective", objectives))
    return out


def gold_diff_plan(question: str, r: Reading, assumptions: list[str]) -> QueryPlan:
    if r.at_minute is not None:
        notes = [a for a in assumptions if not a.startswith("'at")]
        return finish(Draft(question, Intent.LOOKUP, ("gold_diff",), ("minute",),
                            [Filter(dimension="minute", values=(r.at_minute,))], order="asc", limit=1,
                            assumptions=notes))
    return finish(Draft(question, Intent.TIMELINE, ("gold_diff",), ("minute",), window=r.window, order="asc",
                        limit=LIST_LIMIT, assumptions=assumptions))


def periods_plan(d: Draft, r: Reading, e: Entities) -> QueryPlan:
    """Several windows side by side: one row per window (and per entity when several are named)."""
    head = metric(d.metrics[0])
    filters, focus = entity_filters(e, head.dimensions)
    dims = [g for g in r.groups if g in head.dimensions and g in ROSTER_DIMS]
    if e.by_player or len(e.players) > 1:
        dims = ["player"]
    elif len(e.teams) > 1:
        dims = ["team"]
    d.intent, d.group_by, d.windows, d.window = Intent.COMPARISON, ("period", *dims[:1]), r.windows, None
    d.filters += filters
    d.focus += focus
    d.limit, d.shape = LIST_LIMIT, "all"
    return finish(d)


def timeline_plan(d: Draft, r: Reading, e: Entities) -> QueryPlan:
    head = metric(d.metrics[0])
    allowed = head.dimensions
    groups = [g for g in r.groups if g in allowed]
    if e.players or e.by_player or ("player" in groups and not (e.teams or e.roles)):
        series = ["player"]
    elif "role" in groups or e.roles:
        series = ["role"]
    elif "god" in groups or e.gods:
        series = ["god"]
    else:
        series = ["team"]
    series = [s for s in series if s in allowed] or (["team"] if "team" in allowed else [])
    if "minute" not in allowed:
        return refusal(d.question, f"The combat log cannot give {head.label} minute by minute.", (), d.assumptions)
    filters, focus = entity_filters(e, allowed)
    d.intent, d.group_by, d.order, d.limit, d.shape = Intent.TIMELINE, ("minute", *series), "asc", LIST_LIMIT, "all"
    d.filters += filters
    d.focus += focus
    return finish(d)


def grouped_plan(d: Draft, r: Reading, e: Entities) -> QueryPlan:
    """Rankings, breakdowns, comparisons and lookups: the grouping and the shape decide."""
    head = metric(d.metrics[0])
    allowed = head.dimensions
    shape = r.shape
    groups = [g for g in r.groups if g in allowed]
    event_groups = [g for g in groups if DIMENSIONS[g].level == "event" and g != "period"]
    roster_groups = [g for g in groups if g in ("role", "god", "team")]
    for dim, named in (("god", e.gods), ("role", e.roles)):
        if len(named) > 1 and dim not in roster_groups and dim in allowed:
            roster_groups.insert(0, dim)  # "the supports or the junglers": the roles side by side
    superlative = shape.superlative or (head.aggregation == "max" and not e.any)
    d.limit = max(shape.top or 10, shape.position + 1)
    d.position = shape.position

    def with_entities(skip: Sequence[str] = ()) -> None:
        filters, focus = entity_filters(e, tuple(a for a in allowed if a not in skip))
        d.filters += filters
        d.focus += focus

    if event_groups:
        with_entities()
        breakdown = bool(BREAKDOWN.search(r.text)) or not superlative
        d.intent = Intent.BREAKDOWN if breakdown else Intent.RANKING
        d.group_by = (event_groups[0],)
        d.shape = "top" if shape.top else "all" if breakdown else "leader"
        d.limit = shape.top or (LIST_LIMIT if breakdown else d.limit)
        return finish(d)
    many_players, many_teams = len(e.players) > 1, len(e.teams) > 1
    if shape.compare or many_players or many_teams or (roster_groups and not superlative) or \
            (e.by_player and not superlative):
        return _comparison(d, e, roster_groups, allowed, shape.compare)
    if superlative or e.by_player:
        dim = roster_groups[0] if roster_groups else "player"
        if dim not in allowed:
            dim = "player"
        if e.players and dim == "player":
            # "what was LunaSol's highest hit" asks for one figure, not a ranking
            with_entities()
            d.group_by = ("player",)
            return finish(d)
        named_here = {"role": e.roles, "god": e.gods, "team": e.teams}.get(dim, ())
        with_entities(skip=(dim,) if len(named_here) < 2 else ())
        d.intent, d.group_by = Intent.RANKING, (dim,)
        d.shape = "top" if shape.top else "all" if shape.every else "leader"
        if shape.every:
            d.limit = LIST_LIMIT
        return finish(d)
    if shape.every and "player" in groups and not e.any:
        d.intent, d.group_by, d.shape, d.limit = Intent.RANKING, ("player",), "all", LIST_LIMIT
        return finish(d)
    return _lookup(d, e, groups, allowed, shape)


def _comparison(d: Draft, e: Entities, roster_groups: list[str], allowed: Sequence[str], compare: bool) -> QueryPlan:
    if len(e.players) > 1 or (e.players and compare) or e.by_player:
        group_by = ("player",)
    elif len(e.teams) > 1 or "team" in roster_groups or (compare and e.teams):
        group_by = ("team",)
        if len(e.teams) < 2:
            e = replace(e, teams=())
    elif roster_groups:
        group_by = (roster_groups[0],)
    else:
        group_by = ("player",)
    if group_by[0] not in allowed:
        return refusal(d.question, f"The combat log cannot split {metric(d.metrics[0]).label} by {group_by[0]}.",
                       (), d.assumptions)
    filters, focus = entity_filters(e, tuple(a for a in allowed if not (a == "team" and group_by == ("team",)
                                                                         and not e.teams)))
    d.filters += filters
    d.focus += focus
    d.intent, d.group_by, d.limit, d.shape = Intent.COMPARISON, group_by, LIST_LIMIT, "all"
    return finish(d)


def _lookup(d: Draft, e: Entities, groups: list[str], allowed: Sequence[str], shape) -> QueryPlan:
    """One figure for one entity or the whole match."""
    group_by: tuple[str, ...] = ()
    if e.players:
        group_by = ("player",)
    elif e.gods and "god" in allowed:
        group_by = ("god",)
    elif e.roles and "role" in allowed:
        group_by = ("role",) if not e.teams else ("team", "role")
    elif e.teams:
        group_by = ("team",)
    elif "player" in groups and not shape.count and "player" in allowed:
        d.intent, d.group_by, d.shape = Intent.RANKING, ("player",), "leader"
        return finish(d)
    filters, focus = entity_filters(e, allowed)
    d.filters += filters
    d.focus += focus
    if list(d.metrics) == list(CORE_STATS) and not group_by:
        d.intent, d.group_by, d.shape, d.limit = Intent.RANKING, ("player",), "all", 10
        return finish(d)
    d.intent, d.group_by = Intent.LOOKUP, group_by
    if shape.share and ((group_by == ("player",) and len(e.players) == 1) or (group_by == ("team",) and len(e.teams) == 1)):
        d.shape = "share"
    return finish(d)


# ------------------------------------------------------------------------------------------- dependent

def dependent_plan(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan | None:
    """'what abilities did the top damage dealer use': rank first, then ask about the leader."""
    m = DEPENDENT.search(r.text)
    if not m:
        return None
    phrase = next(g for g in m.groups() if g is not None)
    leader_metrics, notes = [*read_metrics(normalize(m.group(0))).ids], []
    if phrase == "mvp":
        leader_metrics, notes = ["mvp_score"], ["'the MVP' read as the player with the best MVP score"]
    if not leader_metrics or not metric(leader_metrics[0]).is_figure:
        return None
    rest_text = normalize((r.text[:m.start()] + " name " + r.text[m.end():]).strip())
    rest = read_metrics(rest_text)
    child_reading = replace(r, text=rest_text, players=(PARAM_PLAYER,), metrics=rest.ids, metric_hits=rest.hits,
                            groups=tuple(g for g in group_cues(rest_text) if g != "player"),
                            shape=read_shape(rest_text), qualifiers=(),
                            assumptions=(*r.assumptions, *rest.notes))
    if not rest.ids and not BUILD.search(rest_text) and not child_reading.groups:
        return None  # "who is the top damage dealer" is a plain ranking
    child = plan_reading(question, child_reading, vocab)
    if child.intent == Intent.REFUSE:
        return None
    return leader_then(question, leader_metrics[0], r, child,
                       [*notes, f"'{m.group(0).strip()}' read as the player with the most {metric(leader_metrics[0]).label}"])


def leader_then(question: str, leader_metric: str, r: Reading, child: QueryPlan, notes: Sequence[str] = (),
                filters: Sequence[Filter] = ()) -> QueryPlan:
    parent = finish(Draft(question, Intent.RANKING, (leader_metric,), ("player",), list(filters), r.window, limit=1,
                          assumptions=[*r.assumptions, *notes], shape="leader"))
    parent = parent.model_copy(update={"then": child, "bind": {"player": "player"}})
    return parent.model_copy(update={"summary": summarize(parent)})


# ------------------------------------------------------------------------------------------- the entry

def plan_reading(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan:
    """The plan a reading asks for: the first intent family that recognises it."""
    e = resolve_entities(r, vocab)
    for family in (event_plan, pattern_plan, build_plan):
        plan = family(question, r, e)
        if plan is not None:
            return plan
    return figure_plan(question, r, e, vocab)


def leader_split_plan(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan | None:
    """'Who did the most damage, and with which abilities': the leader, then their figure split by ability."""
    splits = [g for g in r.groups if g in ("ability", "item", "target_kind")]
    figures = _figures(r)
    if not (splits and figures and r.shape.superlative and "player" in r.groups and not r.named):
        return None
    if not re.search(r"\bwho\b|\bwhich\s+player\b", r.text) or not re.search(
            r"\b(?:and|with|using|by|from)\s+(?:which|what)\b|\band\s+(?:the|their|his|her)\b", r.text):
        return None
    head = metric(figures[0])
    if splits[0] not in head.dimensions:
        return None
    child = finish(Draft(question, Intent.BREAKDOWN, (head.id,), (splits[0],),
                         [Filter(dimension="player", values=(PARAM_PLAYER,))], r.window, limit=LIST_LIMIT,
                         focus=[PARAM_PLAYER], assumptions=list(r.assumptions), shape="all"))
    return leader_then(question, head.id, r, child, [f"'who' read as the player with the most {head.label}"])
