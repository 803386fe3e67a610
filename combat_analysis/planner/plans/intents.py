"""A `Reading` becomes a `QueryPlan`: the first intent family that recognises it makes the plan.

`plan_reading` tries event lists, match patterns and build orders (`events`), then figures (`figures`). The special
shapes come first in `single`: a dependent step ("what abilities did the top damage dealer use": rank first, then ask
about the leader) and a leader split ("who did the most damage, and with which abilities").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from combat_analysis.catalog import metric
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan
from combat_analysis.planner.plans import identity
from combat_analysis.planner.plans.cues import BUILD, DEPENDENT, PRONOUN
from combat_analysis.planner.plans.draft import (
    CORE_STATS,
    LIST_LIMIT,
    PARAM_PLAYER,
    Draft,
    finish,
    resolve_entities,
    summarize,
)
from combat_analysis.planner.plans.events import _figures, build_plan, event_plan, pattern_plan
from combat_analysis.planner.plans.figures import figure_plan, structures_dealing
from combat_analysis.planner.read.reading import (
    EVERY_NPC,
    Reading,
    group_cues,
    normalize,
    read_metrics,
    read_shape,
)
from combat_analysis.planner.vocabulary import Vocabulary

__all__ = ["plan_reading", "dependent_plan", "leader_split_plan", "hit_target_plan", "leader_then", "summarize", "metric", "BUILD",
           "PRONOUN", "PARAM_PLAYER", "CORE_STATS"]

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
    # a side's structures as the ones dealing damage ("did order's towers hit harder than chaos's") are no objectives
    plan = structures_dealing(question, r, vocab, [*r.assumptions, *e.notes]) or event_plan(question, r, e, vocab)
    if plan is not None:
        return plan
    plan = pattern_plan(question, r, e, vocab) or build_plan(question, r, e)
    if plan is not None:
        return plan
    # "X's role and kda": the figure, then who X was
    figure_only = identity.beside_figure(r, e)
    if figure_only is not None:
        return identity.with_identity(question, e, figure_plan(question, figure_only, e, vocab))
    return figure_plan(question, r, e, vocab)


def leader_split_plan(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan | None:
    """'Who did the most damage, and with which abilities': the leader, then their figure split by ability."""
    splits = [g for g in r.groups if g in ("ability", "item", "target_kind")]
    figures = _figures(r)
    if not (splits and figures and r.shape.superlative and "player" in r.groups and not r.named):
        return None
    if not re.search(r"\bwho(?:se|m|s|'s)?\b|\bwhich\s+player\b", r.text) or not re.search(
            r"\b(?:and|with|using|by|from)\s+(?:which|what)\b|\band\s+(?:the|their|his|her)\b", r.text):
        return None
    head = metric(figures[0])
    if splits[0] not in head.dimensions:
        return None
    # one event's size (the biggest hit) was done with one ability: that one, not a list of every ability's own record
    one = head.aggregation == "max"
    child = finish(Draft(question, Intent.RANKING if one else Intent.BREAKDOWN, (head.id,), (splits[0],),
                         [Filter(dimension="player", values=(PARAM_PLAYER,))], r.window, limit=1 if one else LIST_LIMIT,
                         focus=[PARAM_PLAYER], assumptions=list(r.assumptions), shape="leader" if one else "all"))
    said = f"the {head.label}" if one else f"the most {head.label}"
    return leader_then(question, head.id, r, child, [f"'who' read as the player with {said}"])


# "who was the biggest hit on", "against whom did Brisk land his biggest hit", "the biggest crit and its target": the
# one event's target is asked for, so the hit is named with whom it landed on (and by whom, match-wide)
_HIT_TARGET = re.compile(r"\b(?:on|against|at|into|onto)\s+(?:who|whom|which\s+(?:player|enemy|god|target|one))\b"
                         r"|\b(?:who|whom|what)\b[^.?!;]*\b(?:on|against)\s*[?.!]*$"
                         r"|\bwho\s+(?:was\s+it|did\s+it\s+(?:land|go))\s+on\b"
                         r"|\b(?:who|whom)\s+did\s+name\s+\w+\s+(?:with|for)\s+(?:his|her|their|the|that)\s+(?:biggest|largest|"
                         r"hardest|highest|best|top)\b"
                         r"|\b(?:its|the|his|her|their)\s+(?:target|victim)s?\b"
                         r"|\bwho\s+(?:took|received|ate|tanked|got\s+hit\s+(?:by|with))\b")


def hit_target_plan(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan | None:
    """The biggest single hit (or crit) asked with whom it landed on: that hit's target, for one player or, match-wide,
    the player who landed it and then its target."""
    figures = _figures(r)
    if not figures or metric(figures[0]).aggregation != "max" or "target" not in metric(figures[0]).dimensions \
            or len(r.players) > 1 or r.teams or r.roles or r.gods or len(r.windows) > 1 \
            or not _HIT_TARGET.search(r.text):
        return None
    head = metric(figures[0])
    who = r.players[0] if r.players else PARAM_PLAYER
    # the kind of target said ("the largest crit against a god, and on whom it landed"): the hits on that kind alone
    kinds = {q.kind for q in r.qualifiers if q.name is None and q.kind and q.kind != EVERY_NPC and q.preposition in _ON_TARGET}
    on_kind = [Filter(dimension="target_kind", values=(kinds.pop(),))] if len(kinds) == 1 else []
    child = finish(Draft(question, Intent.RANKING, (head.id,), ("target",), [Filter(dimension="player", values=(who,)),
                                                                           *on_kind],
                         r.window, limit=1, focus=[who], assumptions=list(r.assumptions), shape="leader"))
    if r.players:
        return child
    return leader_then(question, head.id, r, child, [f"the {head.label} named with whom it landed on"], filters=on_kind)


_ON_TARGET = frozenset(("on", "against", "at", "into", "onto", "to"))
