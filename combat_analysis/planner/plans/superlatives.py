"""Yes or no questions about one subject of a match and what the answer names: they are asked with the answer, and the
answer opens with the truthful Yes or No (`QueryPlan.compare` beside `QueryPlan.check`).

- A superlative held or not: "did A deal the most damage", "was chaos the side with the fewest deaths", "were the
  supports the role that healed most", "did the ymir take the most damage after minute 20". The subject (a player, a
  god's one player, a side's role, a side, a role, a god of several players) is taken out of the reading, which is
  ranked by its kind instead, everyone in; the check is the subject, and `compare` the end of the ranking asked
  ("more": the most, "less": the least).
- An event's subject: "did A get first blood", "did chaos draw first blood", "did order win": the event itself, with
  the check of who (or which side) it names.
"""

from __future__ import annotations

import re
from dataclasses import replace

from combat_analysis.catalog import metric
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan
from combat_analysis.planner.plans.draft import (
    LIST_LIMIT,
    Entities,
    gods_as_players,
    resolve_entities,
    summarize,
)
from combat_analysis.planner.plans.intents import plan_reading
from combat_analysis.planner.read import yesno
from combat_analysis.planner.read.reading import Reading
from combat_analysis.planner.vocabulary import Vocabulary


def held_plan(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan | None:
    """A yes or no question whether one subject holds a superlative: the ranking of every subject of its kind, checked
    for it; None when the question asks no such thing or its subject is not one player, side, role or god."""
    if not r.named or r.shape.top is not None or r.shape.position > 1 or len(r.windows) > 1 or r.shape.series \
            or r.shape.share:
        return None
    found = _subject(r, vocab)
    if found is None or not yesno.asked_superlative(question, of_two=found[0] == "team"):
        return None
    dim, value, kept, notes = found
    plan = plan_reading(question, kept, vocab)
    if not _ranks_every(plan, dim):
        return None
    plan = plan.model_copy(update={"shape": "leader", "limit": LIST_LIMIT, "position": 1,
                                   "assumptions": (*plan.assumptions, *notes),
                                   "check": Filter(dimension=dim, values=(value,)),
                                   "compare": "more" if plan.order == "desc" else "less"})
    end = "most" if plan.order == "desc" else "least"
    return plan.model_copy(update={"summary": f"{summarize(plan)} Say yes or no: did "
                                              f"{'team ' if dim == 'team' else ''}{value} have the {end}."})


def _ranks_every(plan: QueryPlan, dim: str) -> bool:
    """Whether a plan ranks one figure over every subject of a kind (none of them left out but by an exclusion)."""
    head = metric(plan.metrics[0]) if plan.metrics else None
    return plan.intent == Intent.RANKING and plan.group_by == (dim,) and head is not None and head.is_figure \
        and plan.then is None and not plan.parts and not plan.windows and plan.condition is None \
        and not any(f.dimension == dim and f.op != "!=" for f in plan.filters)


def _subject(r: Reading, vocab: Vocabulary) -> tuple[str, str | int, Reading, tuple[str, ...]] | None:
    """The one subject a superlative is asked of, as (its dimension, its value, the reading without it and ranked by
    its kind, the readings made of it): a player named, or said by their god or their side's role; else a side, a role
    or a god of several players said alone."""
    e = gods_as_players(r, resolve_entities(r, vocab), vocab)
    shape = replace(r.shape, superlative=True, every=False, compare=False, count=False)
    value: str | int
    if len(e.players) == 1 and not e.gods:
        # a player by name keeps a side or role said beside as whom they are ranked among ("the most healing among
        # supports"); said by their god or their side's role, those words are the player
        dim, value = "player", e.players[0]
        kept = replace(r, players=(), gods=(), side_roles=(), teams=r.teams if r.players else (),
                       roles=r.roles if r.players else ())
    elif len(e.teams) == 1 and not (e.players or e.roles or e.gods):
        dim, value, kept = "team", e.teams[0], replace(r, teams=())
    elif len(e.roles) == 1 and not (e.players or e.teams or e.gods):
        dim, value, kept = "role", e.roles[0], replace(r, roles=())
    elif len(e.gods) == 1 and not (e.players or e.teams or e.roles):
        dim, value, kept = "god", e.gods[0], replace(r, gods=())
    else:
        return None
    groups = (dim, *(g for g in kept.groups if g not in ("player", "team", "role", "god")))
    return dim, value, replace(kept, groups=groups, shape=shape), e.notes


# "did chaos win", "did order get the win", "is it true the zeus's side won": the winner asked of a side
_WON = re.compile(r"\b(?:win|wins|won|winning|winner|winners|victory|victorious)\b")
_LOST = re.compile(r"\b(?:lose|loses|lost|losing|loser|losers|defeat|defeated)\b")


def event_checked(question: str, r: Reading, vocab: Vocabulary, plan: QueryPlan) -> QueryPlan:
    """A yes or no question about an event's subject ("did A get first blood", "did chaos win"): the event, checked
    for the player or side the question names, the check answered first; else the plan as it was."""
    if plan.intent != Intent.EVENT_LIST or plan.check is not None or plan.parts or plan.then is not None \
            or not yesno.asked_yes_no(question):
        return plan
    if _objective_edge(plan):
        return _taker_checked(plan)
    if plan.metrics not in (("first_blood",), ("winner",)):
        return plan
    e = gods_as_players(r, resolve_entities(r, vocab), vocab)
    check = _event_subject(plan.metrics[0], r, e)
    if check is None:
        return plan
    said = f"team {check.values[0]}" if check.dimension == "team" else str(check.values[0])
    return plan.model_copy(update={"check": check, "compare": "more", "assumptions": (*plan.assumptions, *e.notes),
                                   "summary": f"{plan.summary} Say yes or no: was it {said}."})


def _objective_edge(plan: QueryPlan) -> bool:
    """The first or last objective of a kind, narrowed to one taker ("did order take the first tower", "did A get
    the last fire giant")."""
    takers = [f for f in plan.filters if f.dimension in ("team", "player")]
    return plan.metrics == ("objective_events",) and plan.limit == 1 and plan.window is None \
        and any(f.dimension == "objective" for f in plan.filters) and len(takers) == 1 \
        and takers[0].op == "=" and len(takers[0].values) == 1


def _taker_checked(plan: QueryPlan) -> QueryPlan:
    """The match's first (last) objective of the kind, whoever took it, checked for the taker the question named:
    the side's own first tower is another question."""
    (taker,) = [f for f in plan.filters if f.dimension in ("team", "player")]
    said = f"team {taker.values[0]}" if taker.dimension == "team" else str(taker.values[0])
    edge = "first" if plan.order == "asc" else "last"
    return plan.model_copy(update={
        "filters": tuple(f for f in plan.filters if f is not taker), "check": taker, "compare": "more",
        "summary": f"The {edge} of these objectives in the match, whoever took it. Say yes or no: was it {said}."})


def _event_subject(event: str, r: Reading, e: Entities) -> Filter | None:
    """The one player or side a yes or no asks an event of: the winner a side ("did order win"; one that lost is
    not asked so), first blood a player (by name, god or side's role) or a side."""
    one_side = len(e.teams) == 1 and not (e.players or e.roles or e.gods)
    if event == "winner":
        won = _WON.search(r.text) and not _LOST.search(r.text)
        return Filter(dimension="team", values=(e.teams[0],)) if won and one_side else None
    if len(e.players) == 1 and not (e.teams and r.players) and not e.gods:
        return Filter(dimension="player", values=(e.players[0],))
    return Filter(dimension="team", values=(e.teams[0],)) if one_side else None
