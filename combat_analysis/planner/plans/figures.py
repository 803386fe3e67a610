"""Figures: a reading's metrics composed with its entities, qualifiers, windows, grouping and shape.

`figure_plan` picks the figures (or the defaults a question without one means), applies the qualifiers ("to the
jungle camps", "died to towers"), and hands the draft to the shape it asks for: windows side by side, a series,
an average, or `grouped_plan` (rankings, breakdowns, comparisons and lookups).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from combat_analysis.catalog import DIMENSIONS, average_of, metric, rate_of
from combat_analysis.catalog.parts import is_part_of, widest_whole
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan, ValueCondition
from combat_analysis.formatting import count as fmt_count
from combat_analysis.planner.plans import shares
from combat_analysis.planner.plans.cues import (
    ATTACK_KINDS,
    AVERAGE,
    BASIC_ATTACKS,
    BREAKDOWN,
    PER_TEAM,
    PERSON,
    RECEIVED,
    SCOREBOARD,
)
from combat_analysis.planner.plans.draft import (
    CORE_STATS,
    LIST_LIMIT,
    RATES,
    ROSTER_DIMS,
    Draft,
    Entities,
    _in,
    as_taker,
    entity_filters,
    finish,
    gods_as_players,
    summarize,
)
from combat_analysis.planner.plans.events import objective_values
from combat_analysis.planner.plans.refusals import refusal
from combat_analysis.planner.read import conditions, exclusions, yesno
from combat_analysis.planner.read.causes import cause_filters
from combat_analysis.planner.read.names import find_teams, name_or_plural
from combat_analysis.planner.read.reading import (
    CROWD_CONTROLLING,
    EVENT_FIGURES,
    EVERY_NPC,
    HEALING,
    HITTING,
    NPC_KINDS,
    OBJECTIVE_METRICS,
    OF_OWN,
    ONE_ENEMY,
    RECEIVE,
    MetricHit,
    Qualifier,
    Reading,
    normalize,
    read_metrics,
)
from combat_analysis.planner.read.takers import read_takers
from combat_analysis.planner.vocabulary import Vocabulary

# ------------------------------------------------------------------------------------------- figures

def default_metrics(r: Reading, e: Entities) -> tuple[list[str], list[str]] | None:
    """The figures a question means when it names none: core stats for an entity, damage for a split."""
    if {"ability", "target_kind", "phase"} & set(r.groups) or r.abilities:
        return ["damage_dealt"], ["no figure named: showing damage dealt"]
    if "target" in r.groups and e.players:  # "who was X focusing": whom X dealt the most damage to
        return ["damage_dealt"], ["whom a player went after read as the enemy player they dealt the most damage to"]
    if "victim" in r.groups and e.players:  # "her top victim": whom she killed the most
        return ["kills"], ["a player's victim read as the enemy player they killed the most"]
    if "item" in r.groups:
        return ["items_purchased"], []
    if re.search(r"\bbest\b|\bbetter\b|\bworst\b|\bworse\b", r.text) and not r.shape.count:
        return ["mvp_score"], ["'best' read as the match report's MVP score"]
    if e.any or SCOREBOARD.search(r.text) or len(r.windows) > 1:
        return list(CORE_STATS), ["no figure named: showing the core stats (KDA, kills, deaths, assists, damage, gold)"]
    return None


KIND_METRIC = {"player": "damage_to_players", "structure": "damage_to_structures", "minion": "damage_to_minions",
               "jungle": "damage_to_jungle", "boss": "damage_to_bosses"}
# Who was killed, by kind: players are the kills; non-players other than objectives have their kind's own count
# ("killed minions", "kills on jungle camps")
KIND_KILLS = {"player": "kills", "minion": "minion_kills", "jungle": "jungle_monster_kills"}
TARGET_SIDE = ("to", "against", "on", "into", "at", *HITTING, "kill", "kills", "killed", "killing", "slay", "slew",
               "slain", "score on", "scored on", *CROWD_CONTROLLING, *HEALING)


@dataclass(frozen=True)
class Applied:
    metrics: tuple[str, ...]
    filters: tuple[Filter, ...] = ()
    notes: tuple[str, ...] = ()
    unapplied: tuple[str, ...] = ()  # qualifiers the figure cannot honour, as said


Outcome = tuple[Literal["skip", "filter", "metric", "unapplied"], "Filter | str | None"]


_KILL_VERBS = frozenset({"kill", "kills", "killed", "killing", "slay", "slew", "slain"})


def _who_hit(q: Qualifier, head) -> Outcome:
    """'Died to towers', 'damage taken from minions': the qualifier names who hit."""
    if q.name and head.id == "deaths" and q.preposition in _KILL_VERBS:
        return "filter", Filter(dimension="player", values=(q.name,))  # "who killed Brisk": Brisk's deaths
    if q.name and "source" in head.dimensions:
        return "filter", Filter(dimension="source", values=(q.name,))
    if q.kind == EVERY_NPC and "source_kind" in head.dimensions:  # "damage taken from npcs": from anything but a player
        return "filter", Filter(dimension="source_kind", op="!=", values=("player",))
    if q.kind and "source_kind" in head.dimensions:
        return "filter", Filter(dimension="source_kind", values=(q.kind,))
    return "unapplied", q.said


def _who_was_hit(q: Qualifier, head) -> Outcome:
    """'Damage to the jungle camps', 'kills on Brisk', 'damage to VoidWalker': the qualifier names who was hit."""
    if q.kind == EVERY_NPC:  # every non-player hit: their kills are the npc kills, their damage all but to players
        if head.id == "kills":
            return "metric", "npc_kills"
        if "target_kind" in head.dimensions:
            return "filter", Filter(dimension="target_kind", op="!=", values=("player",))
        return "unapplied", q.said
    if head.id == "kills" and q.name:
        return "filter", Filter(dimension="victim", values=(q.name,))
    if head.id == "kills" and q.kind in KIND_KILLS:
        return "metric", KIND_KILLS[q.kind]  # "killed the most jungle monsters": the log's blows on that kind
    if head.id == KIND_KILLS.get(q.kind or "") or (head.id == "npc_kills" and q.kind in ("minion", "jungle")):
        return "skip", None  # "minions killed on minions", "npc kills of minions": already the figure
    if q.name and "target" in head.dimensions:
        return "filter", Filter(dimension="target", values=(q.name,))
    if head.id == "damage_dealt" and q.kind:
        return "metric", KIND_METRIC[q.kind]
    if q.kind and "target_kind" in head.dimensions:
        return "filter", Filter(dimension="target_kind", values=(q.kind,))
    if head.id == KIND_METRIC.get(q.kind or ""):
        return "skip", None  # "damage to players to gods": already the figure
    return "unapplied", q.said


def _qualifier_outcome(q: Qualifier, head, players: Sequence[str], compare: bool) -> Outcome:
    if q.kind == "player" and q.name and (q.name not in players or (compare and q.preposition == "against")):
        return "skip", None  # "Brisk against VoidWalker" compares them
    if q.name and q.name in players and q.preposition in ("by", "from") and not (
            head.id == "deaths" or "source" in head.dimensions):
        return "skip", None  # "damage to structures by MooseKnuckle": the player whose figure it is
    if q.name and q.name in players and q.preposition == "by" and head.source is not None \
            and head.source.actor == "target":
        return "skip", None  # "damage taken by Brisk": a figure of receiving is Brisk's own; "taken from" names who hit
    target_side = q.preposition in TARGET_SIDE
    if head.id == "deaths" or (not target_side and ("source" in head.dimensions or "source_kind" in head.dimensions)):
        return _who_hit(q, head)
    return _who_was_hit(q, head) if target_side else ("unapplied", q.said)


def apply_qualifiers(metrics: Sequence[str], qualifiers: Sequence[Qualifier], players: Sequence[str],
                     compare: bool = False) -> Applied:
    """'Damage to the jungle camps' is damage to jungle camps; 'died to towers' counts deaths whose killer is a
    structure; 'damage to VoidWalker' keeps the rows whose target is VoidWalker. A qualifier the headline
    figure cannot take is returned as unapplied, for the faithfulness check."""
    metrics = list(metrics)
    filters: list[Filter] = []
    unapplied: list[str] = []
    joined = _kinds_together(metrics[0], qualifiers)
    if joined is not None:  # "dmg to the camps and the minions": one figure over both kinds
        metrics[0], together = joined
        filters += together
        qualifiers = [q for q in qualifiers if not _hit_kind(q)]
    for q in qualifiers:
        kind, value = _qualifier_outcome(q, metric(metrics[0]), players, compare)
        if kind == "filter" and isinstance(value, Filter):
            filters.append(value)
        elif kind == "metric" and isinstance(value, str):
            metrics[0] = value
        elif kind == "unapplied" and isinstance(value, str):
            unapplied.append(value)
    return Applied(tuple(dict.fromkeys(metrics)), _either_of_named(filters), (), tuple(unapplied))


def _hit_kind(q: Qualifier) -> bool:
    return q.kind is not None and q.name is None and q.preposition in TARGET_SIDE


def _kinds_together(head: str, qualifiers: Sequence[Qualifier]) -> tuple[str, list[Filter]] | None:
    """Two kinds or more hit, said after one word ("killed minions and jungle monsters", "damage into minions and
    camps"): kills of minions and jungle monsters are the npc kills; damage is damage dealt to any of the kinds (a
    row has one target kind, so the rows of either add up). None for one kind, or a figure that cannot take them."""
    kinds = sorted({q.kind for q in qualifiers if _hit_kind(q) and q.kind is not None})
    if len(kinds) < 2 or EVERY_NPC in kinds:
        return None
    if head in ("kills", *KIND_KILLS.values(), "npc_kills") and kinds == ["jungle", "minion"]:
        return "npc_kills", []
    if head in ("damage_dealt", *KIND_METRIC.values()):
        return "damage_dealt", [Filter(dimension="target_kind", op="in", values=tuple(kinds))]
    return None


def _either_of_named(filters: Sequence[Filter]) -> tuple[Filter, ...]:
    """Two names of one dimension ("damage to the fire giant and the gold fury"): rows of either, which is what
    both together count; no row has two targets, so keeping both as they are would count none.

    >>> _either_of_named([Filter(dimension="target", values=("A",)), Filter(dimension="target", values=("B",))])
    (Filter(dimension='target', op='in', values=('A', 'B')),)
    """
    out: list[Filter] = []
    for f in filters:
        same = next((i for i, o in enumerate(out) if o.dimension == f.dimension and o.op in ("=", "in")
                     and f.op in ("=", "in") and o.values != f.values), None)
        if same is None:
            out.append(f)
        else:
            values = tuple(dict.fromkeys((*out[same].values, *f.values)))
            out[same] = Filter(dimension=f.dimension, op="in", values=values)
    return tuple(dict.fromkeys(out))


# the figure said after a non-player's name, its own or bare: "the fire giant's total damage", "gold fury dmg"
_NPC_FIGURE = r"\s+(?:(?:total|overall|combined|entire|full|raw|whole)\s+)?(?:damage|dmg|dealt|did|hits?|output)\b"


def _npc_as_source(r: Reading, vocab: Vocabulary) -> str | None:
    """'How much damage did the Fire Giant do': a non-player named as the one dealing damage. A bare noun before the
    figure ("fire giant dmg") says the dealer only when no person is asked for: "who did the most fire giant dmg",
    "fire giant dmg by player" are damage dealt to it, as "tower dmg" is damage to towers."""
    if not r.npcs:
        return None
    text = normalize(r.masked)
    # two or more named before the figure (both bosses by name, then "dmg") are what was hit, as "tower dmg" is
    bare_is_source = not (r.players or "player" in r.groups or _ASKS_WHO.search(text)
                          or sum(q.bare for q in r.qualifiers) > 1)
    for npc in r.npcs:
        said = name_or_plural(npc)
        if re.search(rf"\b(?:did|does|do|has|had)\s+(?:the\s+)?{said}\s+(?:deal|do|dish|inflict|cause|hit|put\s+out)\b"
                     # the name, then a pronoun for it doing damage: "the brutes: how much did they deal"
                     rf"|\b{said}\b[^?.]*?\b(?:did|do|does)\s+(?:they|it|those|these|them)\s+"
                     rf"(?:deal|do|dish|inflict|cause|hit|put\s+out)\b"
                     rf"|\b{said}(?:'s|'){_NPC_FIGURE}|\b(?:by|from)\s+(?:the\s+)?{said}\b"
                     rf"|\bdamage\s+(?:of|for)\s+(?:the\s+)?{said}\b", text):
            return npc
        if bare_is_source and re.search(rf"\b{said}{_NPC_FIGURE}", text):
            return npc
    return None


def _npc_kind_as_source(r: Reading) -> tuple[str | None, bool] | None:
    """'How much damage did the towers do', 'which jungle monster dealt the most damage': non-players, by
    kind, dealing the damage. Returns (kind or None for every non-player, whether to rank them)."""
    if r.kind_subject is None or r.players and not r.qualifiers:
        return None
    # the subject's verb ("did the phoenixes deal", "which side's towers hurt") says damage when no figure is named;
    # towers that "hit hardest" dealt the most damage (a player's hardest hit is his biggest one)
    if not any(m in ("damage_dealt", "biggest_hit", *KIND_METRIC.values()) for m in r.metrics) and \
            any(metric(m).is_figure for m in r.metrics):
        return None
    kind = next((k for k, p in NPC_KINDS if re.fullmatch(p, r.kind_subject)), None)
    # two sides' (or whose) are ranked, one against the other ("did order's towers hit harder than chaos's")
    return kind, bool(re.search(r"\b(which|what|whose)\b", r.text)) or r.shape.superlative or len(r.teams) > 1


def npc_plan(question: str, r: Reading, vocab: Vocabulary, assumptions: list[str]) -> QueryPlan | None:
    """Damage dealt by a non-player: one named ("the Fire Giant") or a kind of them ("the towers")."""
    rivals = _rival_npcs(question, r, assumptions)
    if rivals is not None:
        return rivals
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
        # a bare name read as the one dealing damage would make every bare name a dealer
        kept = [q for q in r.qualifiers if q.name != npc and not q.bare]
        filters += apply_qualifiers(("npc_damage",), kept, r.players).filters
        return finish(Draft(question, Intent.LOOKUP, ("npc_damage",), filters=filters, window=r.window,
                            focus=[npc], assumptions=assumptions + [f"{npc} read as a non-player source of damage"]))
    return _npc_kind_plan(question, r, vocab, assumptions)


def structures_dealing(question: str, r: Reading, vocab: Vocabulary, assumptions: list[str]) -> QueryPlan | None:
    """Towers, phoenixes or titans as the subject of a damage figure: the damage they dealt, read before any event
    list would take the structure word for objectives taken or lost."""
    if r.kind_subject is None or not re.fullmatch(NPC_KINDS[0][1], r.kind_subject) or r.players:
        return None
    if read_takers(r, vocab) is not None:
        return None  # "which towers did the minions finish": the towers were taken, by minions
    taken = _STRUCTURES_DONE_TO.search(r.text)
    if taken is not None and not _DAMAGE_DONE.search(r.text, taken.end()):
        return None  # "which towers did order destroy": the towers are what was done to, objectives taken
    return _npc_kind_plan(question, r, vocab, assumptions)


def _npc_kind_plan(question: str, r: Reading, vocab: Vocabulary, assumptions: list[str]) -> QueryPlan | None:
    """Damage dealt by a kind of non-player ("the towers", "which side's phoenixes"): ranked by source when asked
    which, else their sum."""
    by_kind = _npc_kind_as_source(r)
    if by_kind is None:
        return None
    kind, ranked = by_kind
    filters = _npc_source_filters(kind, r, vocab)
    targets = [q for q in r.qualifiers if q.preposition in TARGET_SIDE and (q.name or q.kind != kind)]
    filters += apply_qualifiers(("npc_damage",), targets, r.players).filters
    one = [str(f.values[0]) for f in filters if f.dimension == "source" and f.op == "=" and len(f.values) == 1]
    if ranked and not one:  # "which phoenix hit harder"; one named in full ("what did the Chaos Phoenix deal") is its own
        return finish(Draft(question, Intent.RANKING, ("npc_damage",), ("source",), filters, r.window, shape="leader",
                            order=r.shape.order, assumptions=assumptions))
    return finish(Draft(question, Intent.LOOKUP, ("npc_damage",), (), filters, r.window, focus=one,
                        assumptions=assumptions))


# Non-players named side by side as the ones dealing damage: "the fire giant or the gold fury: which dealt more"
_RIVALS = re.compile(r"\b(?:vs\.?|versus|or|against|compared\s+(?:to|with))\b")
_DEALING = re.compile(r"\b(?:which|who|what|did|does|do)\b[^?]*\b(?:deal|dealt|hurt|hit|damage|dmg)\b")


# ... or each of them asked for: "what did the fire giant and the gold fury each deal", "their damage, separately"
_EACH_NPC = re.compile(r"\b(?:each|separately|respectively|individually|apart|one\s+by\s+one|both|split|"
                       r"side\s+by\s+side)\b")
_DAMAGE_SAID = re.compile(r"\b(?:deal|deals|dealt|dealing|hurt|hit|hits|damage|dmg|do|does|did|done)\b")
_STRUCK = r"(?:to|on|into|against|at|hit|hitting|damaged|damaging|attacked|attacking)\s+(?:the\s+|both\s+)?"


def _rival_npcs(question: str, r: Reading, assumptions: list[str]) -> QueryPlan | None:
    """Two or more non-players of this match compared on the damage they dealt (their damage, highest first), or
    each one's asked for (every one's, in the same order)."""
    if len(r.npcs) < 2 or r.players \
            or any(metric(m).is_figure and not m.startswith("damage") and m not in OBJECTIVE_METRICS for m in r.metrics):
        return None
    rivals = bool(_RIVALS.search(r.text) and (_DEALING.search(r.text) or re.search(r"\b(?:damage|dmg)\b", r.text)))
    if not rivals and not (_EACH_NPC.search(r.text) and _DAMAGE_SAID.search(r.text) and not _npcs_struck(r)):
        return None
    filters = [Filter(dimension="source", op="in", values=tuple(r.npcs))]
    return finish(Draft(question, Intent.RANKING, ("npc_damage",), ("source",), filters, r.window,
                        shape="leader" if rivals else "all", limit=10 if rivals else LIST_LIMIT,
                        order=r.shape.order if rivals else "desc",
                        focus=list(r.npcs), assumptions=assumptions + [
                            f"{' and '.join(r.npcs)} read as non-player sources of damage"]))


def _npcs_struck(r: Reading) -> bool:
    """A non-player said as the one hit ("damage to the fire giant and the gold fury")."""
    return any(re.search(rf"\b{_STRUCK}{name_or_plural(npc)}", r.text) for npc in r.npcs)


_SIDE_WORD = {1: "order", 2: "chaos"}


def _npc_source_filters(kind: str | None, r: Reading, vocab: Vocabulary) -> list[Filter]:
    """Non-players dealing damage, by kind; towers, phoenixes and titans are each their own (all are structures), and
    a side named with them keeps that side's ("the order towers", "chaos's phoenixes")."""
    word = next((w for w, said in _STRUCTURE_WORDS if re.fullmatch(said, r.kind_subject or "")), None)
    if kind != "structure" or word is None:
        return [Filter(dimension="source_kind", values=(kind,))] if kind else []
    sides = {_SIDE_WORD[t] for t in r.teams if t in _SIDE_WORD}
    # one named in full ("the chaos phoenix", its side inside the name) is that one
    said = tuple(n for n in r.npcs if word in n.lower().split())
    named = said or tuple(n for n in vocab.npcs if word in n.lower().split()
                          and (not sides or n.lower().split()[0] in sides))
    if not named:
        return [Filter(dimension="source_kind", values=(kind,))]
    return [Filter(dimension="source", op="=" if len(named) == 1 else "in", values=named)]


# The structures by the word in their names (METRICS.md: a structure's name holds Tower, Phoenix or Titan)
_STRUCTURE_WORDS = (("tower", r"towers?|turrets?"), ("phoenix", r"phoenix(?:es)?"), ("titan", r"titans?"))
# The structures as the object of what a side or player did ("which towers did team 1 take down"), unless what was
# done is damage ("which tower did the most damage")
_STRUCTURES_DONE_TO = re.compile(r"\b(?:which|what)\s+(?:" + "|".join(said for _, said in _STRUCTURE_WORDS) + r")\s+"
                                 r"(?:did|does|do|has|have|had)\b")
_DAMAGE_DONE = re.compile(r"\b(?:deal|deals|dealt|dealing|damage|dmg|hit|hits|hurt|most|least|more|less)\b")


# Slang for the weakest player of a side or the match ("who was the problem", "the weak link", "our liability"): with
# no figure named, the lowest KDA, the reading stated
_WEAKEST = re.compile(r"\b(?:problems?|weak(?:est)?\s+links?|liabilit(?:y|ies)|weakest(?:\s+player)?|"
                      r"boat\s*anchor|passengers?)\b")


def _weakest(r: Reading) -> Reading:
    """The reading of a weakest-player word as the lowest KDA (METRICS.md's KDA), every tie named by the ranking."""
    found = _WEAKEST.search(r.text)
    if found is None or any(metric(m).is_figure for m in r.metrics):
        return r
    return replace(r, metrics=("kda",), shape=replace(r.shape, superlative=True, order="asc"),
                   assumptions=(*r.assumptions, f"'{found.group(0)}' read as the lowest KDA"))


# A verb of getting said of an item the match has ("did anyone pick up X", "who got X"): with no figure named, its
# purchases, the only way the log says an item was had
_GOT_ITEM = re.compile(r"\b(?:get|gets|got|gotten|getting|pick(?:ed|s|ing)?\s+up|grab(?:bed|s|bing)?|cop(?:ped|s)?|"
                       r"rush(?:ed|es|ing)?|have|has|had)\b")


def _item_got(r: Reading) -> Reading:
    """The reading of a verb of getting an item, with no figure named, as that item's purchases, stated."""
    found = _GOT_ITEM.search(r.text)
    if found is None or not r.items or any(metric(m).is_figure for m in r.metrics):
        return r
    return replace(r, metrics=("items_purchased",),
                   assumptions=(*r.assumptions, f"'{found.group(0)}' an item read as buying it"))


def figure_plan(question: str, r: Reading, e: Entities, vocab: Vocabulary) -> QueryPlan:
    """A figure, or several, composed from the reading's slots (see the module's docstring)."""
    r = _item_got(_weakest(r))
    e = gods_as_players(r, e, vocab)
    assumptions = [*r.assumptions, *e.notes]
    npc = npc_plan(question, r, vocab, assumptions)
    if npc is not None:
        return npc
    chosen = _chosen_metrics(r, e, assumptions)
    if chosen is None:
        return refusal(question, "I can't find a figure from the combat log in this question; it records "
                       "damage, healing, kills, gold, experience, crowd control, purchases and objectives.",
                       (), assumptions)
    metrics, qualifiers = chosen
    e, metrics = _side_on_side(r, e, vocab, metrics, assumptions)
    each = _own_superlatives(r) or _both_ends(r) or _read_beside(r)
    if len(each) > 1 and not e.players:
        return _ranked_in_turn(question, r, e, vocab, each)
    if ATTACK_KINDS.search(r.text) and "ability" in metric(metrics[0]).dimensions:
        return _by_attack_kind(question, r, e, vocab, metrics, qualifiers, assumptions)
    plan = _effect_users(_composed(question, r, e, vocab, metrics, qualifiers, assumptions), r, e, vocab)
    return _by_pair(shares.of_a_group(plan, r, e), r)  # "what percent of all damage came from the supports"


# One attacker's figure on one enemy (`ONE_ENEMY`): the figure of each attacker and target, the largest pair first.
# An enemy is a player: damage in all is narrowed to the damage to players.
_PAIR_OF = {"damage_dealt": ("damage_to_players", "target"), "damage_to_players": ("damage_to_players", "target"),
            "kills": ("kills", "victim"), "cc_applied": ("cc_applied", "target"), "hits": ("hits", "target"),
            "healing_done": ("healing_done", "target")}


def _by_pair(plan: QueryPlan, r: Reading) -> QueryPlan:
    """The plan ranking pairs of a player and a target when the figure is said of one enemy (`ONE_ENEMY`); with one
    player named, that player's targets. Any other plan as it is."""
    said = ONE_ENEMY.search(r.text)
    if said is None or len(plan.metrics) != 1 or plan.metrics[0] not in _PAIR_OF or plan.parts or plan.windows:
        return plan
    figure, other = _PAIR_OF[plan.metrics[0]]
    one = [f for f in plan.filters if f.dimension == "player" and f.op == "=" and len(f.values) == 1]
    by: tuple[str, ...]
    if plan.intent in (Intent.LOOKUP, Intent.RANKING) and plan.group_by in ((), ("player",), (other,)) and one:
        by, read = (other,), f"of {one[0].values[0]} on each {DIMENSIONS[other].label}, the largest first"
    elif plan.intent == Intent.RANKING and plan.group_by == ("player",):
        by, read = ("player", other), f"of each player on each {DIMENSIONS[other].label}, the largest pair first"
    else:
        return plan
    return plan.model_copy(update={
        "intent": Intent.RANKING, "metrics": (figure,), "group_by": by, "shape": "leader",
        "assumptions": (*plan.assumptions, f"'{said.group(0)}' read as {metric(figure).label} {read}")})


_HIT_PREPOSITION = re.compile(r"\b(?:to|on|against|into|at)\s+(?:the\s+)?$")


def _side_on_side(r: Reading, e: Entities, vocab: Vocabulary, metrics: list[str],
                  assumptions: list[str]) -> tuple[Entities, list[str]]:
    """One side's damage said done to the other ("chaos's dmg on order", "order's damage into the chaos side"): the first
    side's damage to players, which is all dealt to the other side's players."""
    if len(e.teams) != 2 or e.players or e.roles or e.gods or metrics[0] not in ("damage_dealt", "damage_to_players"):
        return e, metrics
    said = find_teams(r.text, vocab.winner_team)
    hit = [(t, m) for t in said if (m := _HIT_PREPOSITION.search(r.text[:t.start]))]
    if len(hit) != 1 or hit[0][0].team is None or len(said) < 2:
        return e, metrics
    (target, preposition), dealer = hit[0], 3 - hit[0][0].team
    assumptions.append(f"'{preposition.group(0)}{target.said}' read as what team {dealer} hit: its damage to players "
                       f"(the other side's gods)")
    return replace(e, teams=(dealer,)), ["damage_to_players", *metrics[1:]]


def _effect_users(plan: QueryPlan, r: Reading, e: Entities, vocab: Vocabulary) -> QueryPlan:
    """An item's effect as the subject of a figure ("how much damage did the cudgel do", "what did Bumba's Cudgel deal
    across everyone"): the figure of every player who used it (more than 0), so the answer gives the total and how
    many players it came from (METRICS.md: the ability breakdown includes item procs)."""
    effect = [f for f in plan.filters if f.dimension == "ability" and f.op == "=" and len(f.values) == 1
              and f.values[0] in vocab.shared_abilities]
    head = metric(plan.metrics[0]) if plan.metrics else None
    if len(effect) != 1 or head is None or head.aggregation not in ("sum", "count") or head.is_derived \
            or "player" not in head.dimensions or e.any \
            or plan.group_by not in ((), ("player",)) or plan.condition is not None or plan.parts or plan.windows \
            or plan.intent not in (Intent.LOOKUP, Intent.RANKING) or plan.shape not in ("auto", "all") \
            or any(f.dimension in ROSTER_DIMS for f in plan.filters):
        return plan
    return plan.model_copy(update={
        "intent": Intent.RANKING, "group_by": ("player",), "shape": "all", "limit": LIST_LIMIT,
        "condition": ValueCondition(op=">", value=0),
        "assumptions": (*plan.assumptions, f"{effect[0].values[0]} read as an item's effect, over every player who "
                                           "used it")})


def _by_attack_kind(question: str, r: Reading, e: Entities, vocab: Vocabulary, metrics: list[str],
                    qualifiers: list[Qualifier], assumptions: list[str]) -> QueryPlan:
    """Basic attacks set against abilities ("did Brisk get more kills with autos or abilities"): the figure with
    basic attacks, then the same figure with every other ability, for the same players and window."""
    r = replace(r, groups=tuple(g for g in r.groups if g != "ability"),
                shape=replace(r.shape, superlative=r.shape.superlative and not (e.players or e.teams)))
    basic = _composed(question, r, e, vocab, metrics, qualifiers, list(assumptions))
    if not any(f.dimension == "ability" and f.op == "in" for f in basic.filters):
        return basic  # no basic attack in this match
    rest = tuple(f.model_copy(update={"op": "!="}) if f.dimension == "ability" and f.op == "in" else f
                 for f in basic.filters)
    return basic.model_copy(update={"parts": (*basic.parts, basic.model_copy(update={"filters": rest, "parts": ()}))})


def _composed(question: str, r: Reading, e: Entities, vocab: Vocabulary, metrics: list[str],
              qualifiers: list[Qualifier], assumptions: list[str]) -> QueryPlan:
    """The chosen figures in the shape the reading asks for."""
    if "gold_diff" in metrics and (len(e.players) > 1 or e.by_player):
        # "gold diff A vs B", "mid gold diff" (a role's players, a lane matchup): the players' gold side by side, the
        # difference said; the team series is no answer
        metrics = list(dict.fromkeys("gold" if m == "gold_diff" else m for m in metrics))
        assumptions.append("'gold diff' between players read as each player's gold and the gap between them")
    if "gold_diff" in metrics or _side_on_gold(metrics, r, e):
        return gold_diff_plan(question, r, assumptions)
    # "who had the most assists per minute": each player's assists over the minutes played, as GPM is gold's
    rate = r.shape.per_minute and not r.shape.series and _wants_a_rate(r, e)
    per_minute_rates = {m for m in metrics if m in ("gpm", "dpm", "xpm")}
    # "through the match phases" splits by phase, not minute by minute
    series = (r.shape.series or (r.shape.per_minute and not per_minute_rates and not rate)) and "phase" not in r.groups
    if series:
        metrics = list(dict.fromkeys(RATES.get(m, m) if m in ("gpm", "dpm", "xpm") else m for m in metrics))
    if metrics[0] in OBJECTIVE_METRICS:
        e, notes = as_taker(r, e)
        assumptions += notes
    d, e = _qualified(question, r, e, vocab, metrics, qualifiers, assumptions, rate)
    if len(r.windows) > 1:
        return periods_plan(d, r, e)
    if series:
        return timeline_plan(d, r, e)
    return _averaged_or_grouped(d, r, e)


def _side_on_gold(metrics: list[str], r: Reading, e: Entities) -> bool:
    """"Was chaos ever behind on the gold graph": a side set ahead or behind on gold is its place on the gold
    difference, never its own gold."""
    return metrics[0] == "gold" and len(e.teams) in (1, 2) and not (e.players or e.roles or e.gods) \
        and yesno.lead_on_gold(r.text)


_OWN_SUPERLATIVE = re.compile(r"\b(most|least|fewest|highest|lowest|biggest|best|worst|top)\s+(?:[a-z']+\s+)?$")


def _own_superlatives(r: Reading) -> list[tuple[MetricHit, str]]:
    """The figures each named right after a superlative of its own: "most kills, most deaths and the fewest
    assists" asks three rankings, "the most kills and deaths" one."""
    found = [(h, m.group(1)) for h in r.metric_hits if metric(h.metric_id).is_figure
             and (m := _OWN_SUPERLATIVE.search(r.text[max(0, h.start - 30):h.start]))]
    return [(h, said) for h, said in found if h.metric_id in r.metrics] if len({h.metric_id for h, _ in found}) > 1 else []


_HIGH_END = re.compile(r"\b(most|highest|biggest|largest|greatest|best)\b")
_LOW_END = re.compile(r"\b(least|fewest|lowest|smallest|worst)\b")
_AT_LEAST = re.compile(r"\bat\s+least\b")  # a threshold ("at least 5 kills"), no end of a ranking


def _both_ends(r: Reading) -> list[tuple[MetricHit, str]]:
    """Both ends of one figure in one question ("most and least gold", "highest xp and lowest xp - who"): the
    leader, then the last, each ranked in turn, in the order the question says them."""
    hits = [h for h in r.metric_hits if metric(h.metric_id).is_figure and h.metric_id in r.metrics]
    if len({h.metric_id for h in hits}) != 1:
        return []
    text = _AT_LEAST.sub(lambda m: " " * len(m.group(0)), r.text)
    high, low = _HIGH_END.search(text), _LOW_END.search(text)
    # both ends said in this question: a follow-up's text holds the earlier question's words too ("and the worst?")
    asked = _AT_LEAST.sub(" ", normalize(r.question))
    if high is None or low is None or not (_HIGH_END.search(asked) and _LOW_END.search(asked)):
        return []
    ends = sorted((high, low), key=lambda m: m.start())
    return [(hits[0], m.group(1)) for m in ends]


def _read_beside(r: Reading) -> list[tuple[MetricHit, str]]:
    """A ranking named by a loose word, and the figure its literal reading names ("who had the fattest crit": the
    biggest hit, then the biggest critical hit), each ranked in turn."""
    said = "least" if r.shape.superlative and r.shape.order == "asc" else "most"
    found = [(h, said) for h in r.metric_hits if h.strength == "noted" and metric(h.metric_id).noted_with]
    beside = [(replace(h, metric_id=also), said) for h, _ in found for also in metric(h.metric_id).noted_with
              if also in r.metrics]
    return [*found, *beside] if beside else []


def _ranked_in_turn(question: str, r: Reading, e: Entities, vocab: Vocabulary,
                    each: list[tuple[MetricHit, str]]) -> QueryPlan:
    """One ranking per figure, each in the order its own superlative says, with the same entities and window."""
    plans = []
    for hit, said in each:
        low = bool(_LOW_END.fullmatch(said))
        shape = replace(r.shape, superlative=True, order="asc" if low else "desc")
        # each ranking reads only its own end, so one figure's two ends are two rankings, not two again
        text = (_HIGH_END if low else _LOW_END).sub(lambda m: " " * len(m.group(0)), r.text)
        plans.append(figure_plan(question, replace(r, text=text, metrics=(hit.metric_id,), metric_hits=(hit,),
                                                   shape=shape), e, vocab))
    return plans[0].model_copy(update={"parts": tuple(plans[1:])})


def _chosen_metrics(r: Reading, e: Entities, assumptions: list[str]) -> tuple[list[str], list[Qualifier]] | None:
    """The figures asked for and the qualifiers left to apply; None when the question names no figure and none
    is meant by default."""
    # a figure plan counts what an event list would list: "what percent of all kills" is kills
    metrics = [EVENT_FIGURES.get(m, m) for m in r.metrics]
    metrics = list(dict.fromkeys(m for m in metrics if metric(m).is_figure or metric(m).kind == "gold_diff"))
    qualifiers = list(r.qualifiers)
    slain = next(((q, counted) for q in qualifiers if q.name and q.preposition in _SLAY
                  for counted in _objective_counted(q.name)), None)
    if not metrics and slain is not None:
        # "how many times did the order team kill the fire giant": the count of that objective, as the catalog names it
        qualifiers.remove(slain[0])
        return [slain[1]], qualifiers
    if metrics:
        return metrics, qualifiers
    defaults = default_metrics(r, e)
    if defaults is None:
        return None
    assumptions += defaults[1]
    return defaults[0], qualifiers


def _taken_from_the_other_side(metrics: list[str], e: Entities, vocab: Vocabulary) -> str | None:
    """The one player whose damage taken is asked with the other side named ("how much damage did our loki take from
    chaos"), or None."""
    if metrics[0] != "damage_taken" or len(e.players) != 1 or len(e.teams) != 1 or e.roles or e.gods:
        return None
    info = vocab.player(e.players[0])
    return e.players[0] if info is not None and info.team is not None and info.team != e.teams[0] else None


def _qualified(question: str, r: Reading, e: Entities, vocab: Vocabulary, metrics: list[str],
               qualifiers: list[Qualifier], assumptions: list[str], rate: bool) -> tuple[Draft, Entities]:
    """The draft of the figures with the qualifiers applied, and the entities left once a qualifier took a name
    ("kills on Brisk": Brisk is the victim, not whose kills they are)."""
    received: list[Filter] = []
    if RECEIVED.search(r.text) and metrics[0] in KIND_METRIC.values():
        # "who took the most tower damage": damage taken, from that kind of attacker
        kind = next(k for k, m in KIND_METRIC.items() if m == metrics[0])
        metrics = ["damage_taken", *metrics[1:]]
        received.append(Filter(dimension="source_kind", values=(kind,)))
    taker = _taken_from_the_other_side(metrics, e, vocab)
    if taker is not None:
        # "how much damage did D'Artagnan take from order": the damage order's players dealt to him
        metrics = ["damage_dealt", *metrics[1:]]
        received.append(Filter(dimension="target", values=(taker,)))
        e = replace(e, players=())
        assumptions.append(f"the damage {taker} took from team {e.teams[0]} read as the damage team {e.teams[0]}'s "
                           f"players dealt to {taker}")
    if metrics[0] == "biggest_hit" and RECEIVE.search(r.text) and e.players:
        # "the hardest hit Brisk took": the biggest hit against Brisk, and who landed it
        received.append(_in("target", e.players))
        e = replace(e, players=())
    if r.causes is not None and "source" in metric(metrics[0]).dimensions and metrics[0] in ("deaths",):
        received += cause_filters(r.causes, vocab)  # "died to towers", "deaths not caused by enemy players"
    # a god played by one player stands for that player ("did Thor ever kill Zeus"), as in the entities
    applied = apply_qualifiers(metrics, qualifiers, tuple(dict.fromkeys((*r.players, *e.players))), r.shape.compare)
    metrics = list(applied.metrics)
    extra: list[Filter] = [*received, *applied.filters]
    taken = {v for f in extra if f.dimension in ("victim", "source", "target") for v in f.values}
    e = replace(e, players=tuple(p for p in e.players if p not in taken))
    head = metric(metrics[0])
    extra += _event_filters(r, head, vocab, assumptions)
    if rate and rate_of(metrics[0]) and all(f.dimension in metric(rate_of(metrics[0]) or "").dimensions for f in extra):
        # after the qualifiers, which name the figure ("damage to the jungle per minute")
        metrics = list(dict.fromkeys(rate_of(m) or m for m in metrics))
        head = metric(metrics[0])
    caveats = _unapplied(head.label, applied.unapplied, extra)
    return Draft(question, Intent.LOOKUP, tuple(metrics), filters=extra, window=r.window, assumptions=assumptions,
                 caveats=caveats, order=r.shape.order), e


def _averaged_or_grouped(d: Draft, r: Reading, e: Entities) -> QueryPlan:
    """The grouped plan, or the average (or median) the question asks for: of each group per player ("which role
    had the highest average damage": a role's total over its 2 players, per METRICS.md), or of the players of what it
    names, led by their mean ("the average gold of the junglers", "avg kills per player on chaos", "the average
    K/D": every player's own figure)."""
    if not AVERAGE.search(r.text):
        return grouped_plan(d, r, e)
    statistic = _statistic(r.text)
    head = metric(d.metrics[0])
    per_player = average_of(head.id)
    if {"team", "role", "god"} & set(r.groups) and statistic == "average" and per_player and not e.players:
        d.metrics = (per_player, *d.metrics[1:])
        d.assumptions.append(f"a group's average {head.label} is its total divided by its number of players")
        return grouped_plan(d, r, e)
    if (r.shape.top or r.shape.superlative) and not {"team", "role", "god"} & set(r.groups) and not e.players:
        # "the five best avg healers" in one match: a player's average over one game is that game's figure, ranked
        plan = grouped_plan(d, r, e)
        return plan.model_copy(update={"assumptions": (
            *plan.assumptions, f"one match: each player's average {head.label} is the figure of that one game")})
    if not e.players:
        filters, focus = entity_filters(e, head.dimensions)
        d.filters += filters
        d.focus += focus
        d.intent, d.group_by, d.shape, d.limit = Intent.RANKING, ("player",), statistic, LIST_LIMIT
        return finish(d)
    plan = grouped_plan(d, r, e)
    return plan.model_copy(update={"assumptions": (*plan.assumptions, "averages are not computed for one player: "
                                                   "the figure is their total")})


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
    # one side named is picked out as a player is ("chaos kills per minute": its rate); "for each team" is a series
    return (shape.superlative or shape.top is not None or shape.position > 1 or bool(e.players) or e.by_player
            or "player" in r.groups or (len(e.teams) == 1 and not (e.roles or e.gods) and not shape.every))


def _left_out_said(left_out: Sequence[str], vocab: Vocabulary) -> str:
    """Which kind of ability was left out, and (METRICS.md counts item effects among the abilities, as the log names
    them) whether item effects stayed in."""
    basics = [a for a in left_out if a.lower().endswith("basic attack")]
    effects = [a for a in left_out if a in vocab.item_effects]
    kinds = [k for k, found in (("basic attacks", basics), ("item effects", effects)) if found]
    said = f"{fmt_count(len(left_out), 'ability')} left out, as asked ({' and '.join(kinds) or 'the kinds named'})"
    kept = [a for a in vocab.item_effects if a not in left_out]
    if basics and not effects and kept:
        said += (f"; item effects ({', '.join(kept[:2])}{' and more' if len(kept) > 2 else ''}) stay in, as the log "
                 "names them like abilities")
    return said


# Items' effects as the abilities asked about: "which item proc", "damage from item effects"
_ITEM_PROCS = re.compile(r"\bitem\s+(?:procs?|effects?|actives?|passives?)\b|\bprocs?\b")


def _event_filters(r: Reading, head, vocab: Vocabulary, assumptions: list[str]) -> list[Filter]:
    """Abilities, items and objectives named in the question narrow the figure."""
    out: list[Filter] = []
    abilities = list(r.abilities)
    left_out = exclusions.left_out_abilities(r.question, vocab) if "ability" in head.dimensions else ()
    if left_out:
        # "the most used ability besides autos", "not counting autos or item procs"
        out.append(Filter(dimension="ability", op="!=", values=left_out))
        assumptions.append(_left_out_said(left_out, vocab))
    elif BASIC_ATTACKS.search(r.text) and not abilities:
        abilities = [a for a in vocab.abilities if a.lower().endswith("basic attack")]
        if abilities:
            assumptions.append("'basic attacks' read as every ability named '<god> Basic Attack'")
    elif (item_procs := _ITEM_PROCS.search(r.text)) and not abilities and vocab.item_effects:
        abilities = list(vocab.item_effects)  # METRICS.md: the ability breakdown includes item procs
        assumptions.append(f"'{item_procs.group(0)}' read as the abilities that are items' effects ({', '.join(abilities)})")
    if abilities and "ability" in head.dimensions:
        out.append(_in("ability", abilities))
    if r.items and "item" in head.dimensions:
        out.append(_in("item", r.items))
    elif r.items and "ability" in head.dimensions:
        procs = [i for i in r.items if i in vocab.abilities]
        if procs:
            out.append(_in("ability", procs))
    objectives = objective_values(r.text) if head.id == "objectives_taken" else []
    if objectives:
        out.append(_in("objective", objectives))
    return out


def _unapplied(label: str, unapplied: Sequence[str], filters: Sequence[Filter]) -> list[str]:
    """The caveats of qualifiers the figure could not take, but for a kind of objective its objective filter keeps
    ("last hits on towers" beside the objectives of a list of kinds)."""
    kept = {v for f in filters if f.dimension == "objective" for v in f.values}
    return [f"I read this as {label} without the qualifier '{u}', which the log cannot apply to it"
            for u in unapplied if not (named := set(objective_values(u))) or not named <= kept]


_EITHER_SIDE = re.compile(r"\b(?:order|chaos|team\s*[12])\s+or\s+(?:the\s+)?(?:order|chaos|team\s*[12])\b")


def gold_diff_plan(question: str, r: Reading, assumptions: list[str]) -> QueryPlan:
    # one side asked about ("did order lead at some minute", "when did chaos trail"): the difference read from that side, the
    # first side said; a yes or no says which way it asks (`QueryPlan.compare`)
    # both sides set as either ("is chaos or order up"): which one led is asked, never a yes or no of the first
    side = [f"team {r.teams[0]}"] if (len(r.teams) == 1 or (r.teams and yesno.lead_words(r.text))) \
        and not r.players and not _EITHER_SIDE.search(r.text) else []
    asked = yesno.lead_asked(r.question) if side else None
    if r.at_minute is not None:
        notes = [a for a in assumptions if not a.startswith("'at")]
        plan = finish(Draft(question, Intent.LOOKUP, ("gold_diff",), ("minute",),
                            [Filter(dimension="minute", values=(r.at_minute,))], order="asc", limit=1,
                            focus=side, assumptions=notes))
    else:
        plan = finish(Draft(question, Intent.TIMELINE, ("gold_diff",), ("minute",), window=r.window, order="asc",
                            limit=LIST_LIMIT, focus=side, assumptions=assumptions))
    if asked is None:
        return plan
    plan = plan.model_copy(update={"compare": asked})
    return plan.model_copy(update={"summary": summarize(plan)})


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


@dataclass(frozen=True)
class Grouping:
    """How a figure's rows are split: the groups the question names that the headline allows."""

    allowed: tuple[str, ...]
    groups: tuple[str, ...]  # every named group the headline allows
    event_groups: tuple[str, ...]  # ability, item, target kind...: a breakdown or a ranking of those
    roster_groups: tuple[str, ...]  # role, god, team
    superlative: bool


# Things named with "or", or asked of "each": one figure per thing named, never their sum
_EACH_OR_EITHER = re.compile(r"\bor\b|\beach\b|\brespectively\b|\bseparately\b|\bindividually\b|\bapiece\b")


def _grouping(d: Draft, r: Reading, e: Entities) -> Grouping:
    head = metric(d.metrics[0])
    allowed = head.dimensions
    groups = [g for g in r.groups if g in allowed]
    roster_groups = [g for g in groups if g in ("role", "god", "team")]
    for dim, named in (("god", e.gods), ("role", e.roles)):
        if len(named) > 1 and dim not in roster_groups and dim in allowed:
            roster_groups.insert(0, dim)  # "the supports or the junglers": the roles side by side
    events = [g for g in groups if DIMENSIONS[g].level == "event" and g != "period"]
    if (r.shape.compare or _EACH_OR_EITHER.search(r.text)) and len(r.abilities) > 1 and "ability" in allowed \
            and "ability" not in events:
        # "X's damage with A vs B", "A or B, which did more", "A and B, how much each": the abilities side by side,
        # not their sum
        events.insert(0, "ability")
    return Grouping(tuple(allowed), tuple(groups), tuple(events),
                    tuple(roster_groups), r.shape.superlative or (head.aggregation == "max" and not e.any))


def _with_entities(d: Draft, e: Entities, allowed: Sequence[str], skip: Sequence[str] = ()) -> None:
    filters, focus = entity_filters(e, tuple(a for a in allowed if a not in skip))
    d.filters += filters
    d.focus += focus


def _compared(r: Reading, e: Entities) -> tuple[bool, bool]:
    """(several players or sides named, a comparison asked of what is named). Players named only to be left out
    ("not counting Brisk and LunaSol, who ...") are neither compared nor counted."""
    kept = set(e.players) - exclusions.left_out_players(r.question, e.players)
    return len(kept) > 1 or len(e.teams) > 1, r.shape.compare and bool(kept or not e.players)


def grouped_plan(d: Draft, r: Reading, e: Entities) -> QueryPlan:
    """Rankings, breakdowns, comparisons and lookups: the grouping and the shape decide."""
    shape = r.shape
    g = _grouping(d, r, e)
    d.limit = max(shape.top or 10, shape.position + 1)
    d.position = shape.position
    if g.event_groups:
        return _event_grouped(d, r, e, g)
    if _counts_people(r, e, g):
        return _people_counted(d, e, g)
    many, compared = _compared(r, e)
    if shape.share and not shape.compare and not many and (e.players or e.teams):
        # "what % of their team's damage": the team named is the share's base, not a split by team
        _with_own_whole(d, r, e)
        return _lookup(d, e, list(g.groups), g.allowed, shape)
    if _totals_side_by_side(d, r, e, g):
        return _lookup(d, e, list(g.groups), g.allowed, shape)
    if compared or many or ((g.roster_groups or e.by_player) and not g.superlative):
        return _comparison(d, e, list(g.roster_groups), g.allowed, shape.compare)
    if g.superlative and not e.any and PER_TEAM.search(r.text) and PERSON.search(r.text) and not _TWO_SIDES.search(r.text):
        return _leader_per_team(d, r)
    if g.superlative or e.by_player or _whose_on_one_side(r, e, g):
        return _ranked(d, r, e, g)
    if _every_player(r, e, g):
        _with_entities(d, e, g.allowed)  # "assists of all the chaos players": every player of that side, each one's figure
        d.intent, d.group_by, d.shape, d.limit = Intent.RANKING, ("player",), "all", LIST_LIMIT
        return finish(d)
    return _lookup(d, e, list(g.groups), g.allowed, shape)


_ASKS_WHO = re.compile(r"\b(?:who(?:se|m|s|'s)?|which\s+(?:player|guy|one|person))\b")


def _whose_on_one_side(r: Reading, e: Entities, g: Grouping) -> bool:
    """"Who tanked for order", "who popped off on chaos": a person of the one side named is asked for, so its
    players are ranked, never the side's total given."""
    return _one_side_alone(e) and "player" in g.groups and not r.shape.count and bool(_ASKS_WHO.search(r.text))


def _one_side_alone(e: Entities) -> bool:
    """One side named, and no player, role or god."""
    return len(e.teams) == 1 and not (e.players or e.roles or e.gods)


def _every_player(r: Reading, e: Entities, g: Grouping) -> bool:
    """"Each player", "everyone" of the match, or of the one side the question names and nobody else."""
    return r.shape.every and "player" in g.groups and (not e.any or _one_side_alone(e))


def _counts_people(r: Reading, e: Entities, g: Grouping) -> bool:
    """"How many players died more than 10 times", "how many supports got at least 5 assists": a count of the players
    a condition on a figure keeps (the condition is applied by `faithful.check`)."""
    found = conditions.read_condition(r.text, r.question)
    return r.shape.count and not r.shape.superlative and not e.players and "player" in g.allowed \
        and found is not None and found.condition is not None and bool(conditions.COUNTED_PEOPLE.search(r.text))


def _people_counted(d: Draft, e: Entities, g: Grouping) -> QueryPlan:
    """Every player (of the sides and roles named) as a row, for the condition to keep and the answer to count."""
    _with_entities(d, e, g.allowed)
    d.intent, d.group_by, d.shape, d.limit = Intent.RANKING, ("player",), "count", LIST_LIMIT
    return finish(d)


def _with_own_whole(d: Draft, r: Reading, e: Entities) -> None:
    """'How much of X's damage went into gods': the part over X's own whole (the figure the words named, which a
    qualifier narrowed), so the whole joins the plan after the part; a team's or the match's base is not asked."""
    said = OF_OWN.search(r.text)
    whole = next(iter(r.metrics), None)
    if said and whole == d.metrics[0] and any(q.start >= said.end() for q in r.qualifiers):
        whole = widest_whole(whole)  # "of X's dmg hit structures": the figure was read with its part already
    if whole is None or whole in d.metrics or len(e.players) + len(e.teams) != 1 or not said \
            or not is_part_of(d.metrics[0], whole):
        return
    d.metrics = (d.metrics[0], whole, *d.metrics[1:])
    d.assumptions.append(f"the share read as part of the subject's own {metric(whole).label}")


_MATCH_TOTAL = re.compile(r"\b(?:totals?|overall|combined|altogether|in\s+all|match[\s-]+wide)\b"
                          r"|\b(?:for|in|across|over)\s+the\s+(?:whole\s+|entire\s+)?(?:match|game)\b")


def _totals_side_by_side(d: Draft, r: Reading, e: Entities, g: Grouping) -> bool:
    """"Total kills vs total deaths": two figures of the whole match set side by side, no one to split them by."""
    return (r.shape.compare and len(d.metrics) > 1 and not e.any and not g.roster_groups and "player" not in g.groups
            and not g.superlative and bool(_MATCH_TOTAL.search(r.text) or _MATCH_TOTAL.search(r.question.lower())))


# "per team - who had more": of two sides, "who ... more" (a comparative, no player word) is which side
_TWO_SIDES = re.compile(r"\bwho(?:'s|s)?\s+(?:(?!most|players?)\w+\s+){0,3}?(?:more|fewer|less)\b")


def _leader_per_team(d: Draft, r: Reading) -> QueryPlan:
    """'The richest player on each team': the ranking of each team's players, one part per team."""
    plans = []
    for team in (1, 2):
        one = replace(d, filters=[*d.filters, _in("team", (team,))], focus=[*d.focus, f"team {team}"],
                      assumptions=list(d.assumptions), caveats=list(d.caveats))
        one.intent, one.group_by = Intent.RANKING, ("player",)
        one.shape = "top" if r.shape.top else "leader"
        plans.append(finish(one))
    return plans[0].model_copy(update={"parts": tuple(plans[1:])})


def _event_grouped(d: Draft, r: Reading, e: Entities, g: Grouping) -> QueryPlan:
    """Split by ability, item, target kind...: every row (a breakdown), the top N or the leader."""
    _with_entities(d, e, g.allowed)
    if g.event_groups[0] == "target":
        _on_people(d, r)
    breakdown = bool(BREAKDOWN.search(r.text)) or not g.superlative
    d.intent = Intent.BREAKDOWN if breakdown else Intent.RANKING
    d.group_by = (g.event_groups[0],)
    d.shape = "top" if r.shape.top else "all" if breakdown else "leader"
    d.limit = r.shape.top or (LIST_LIMIT if breakdown else d.limit)
    return finish(d)


def _on_people(d: Draft, r: Reading) -> None:
    """A player's figure split by whom it hit ("who did she hit hardest", "her damage to each enemy"): damage to
    the people, not the minions; hitting someone hardest is doing them the most damage, their biggest hit beside."""
    head, rest = d.metrics[0], d.metrics[1:]
    if head == "damage_dealt" and re.search(r"\bhit\s+(?:the\s+)?hardest\b", r.text) and "biggest_hit" not in rest:
        head = "biggest_hit"  # "whom did she hit hardest": read as the hardest hit is, below
    if head == "damage_dealt":
        d.metrics = ("damage_to_players", *rest)
    elif head == "biggest_hit" and "damage_to_players" not in rest:
        d.metrics = ("damage_to_players", head, *rest)
        d.assumptions.append("hitting an enemy hardest read as dealing them the most damage; the biggest single "
                             "hit on each is beside it")


def _ranked(d: Draft, r: Reading, e: Entities, g: Grouping) -> QueryPlan:
    """Players, roles, gods or teams ranked: the leader, the top N or every row."""
    dim = g.roster_groups[0] if g.roster_groups else "player"
    if dim not in g.allowed:
        dim = "player"
    left_out = e.players and exclusions.left_out_players(r.question, e.players) == set(e.players)
    if e.players and dim == "player" and not left_out:
        # "what was LunaSol's highest hit" asks for one figure, not a ranking ("other than LunaSol, who ..." does)
        _with_entities(d, e, g.allowed)
        d.group_by = ("player",)
        return finish(d)
    # the players left out keep their filter, which the exclusion turns around
    named_here = {"role": e.roles, "god": e.gods, "team": e.teams, "player": e.players if left_out else ()}.get(dim, ())
    _with_entities(d, e, g.allowed, skip=(dim,) if len(named_here) < 2 and not (dim == "player" and left_out) else ())
    d.intent, d.group_by = Intent.RANKING, (dim,)
    d.shape = "top" if r.shape.top else "all" if r.shape.every else "leader"
    if r.shape.every:
        d.limit = LIST_LIMIT
    return finish(d)


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
    # a share of one player's, one side's or the match's whole ("what percent of deaths were to npcs": the match's
    # deaths to them over all its deaths); the match's only for a narrowed figure, whose whole is not itself
    if shape.share and ((group_by == ("player",) and len(e.players) == 1) or (group_by == ("team",) and len(e.teams) == 1)
                        or (not group_by and d.filters)):
        d.shape = "share"
    return finish(d)
