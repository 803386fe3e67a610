"""A group's share of the match's total: "what percent of all damage came from the supports", "the junglers' share of
the match's gold", "what fraction of the kills in the first 10 minutes were chaos's", "what % of the gold went to A and
B". The group is one or more roles, gods, players or a side; the base is the match's total of the same figure over the
same window and qualifiers (METRICS.md: per role and per god is the sum over their players; the match's total is the
sum over every player).

`of_a_group` turns the plan of such a question into one query of the figure for every member of the group's kind
(every role, every god, every player, both sides), the group in `focus`; `group_share` says what a plan of that shape
asks, so the analyst can put the group's sum over the sum of every row, both named, and the composer say it.
"""

from __future__ import annotations

import re

from combat_analysis.catalog import metric
from combat_analysis.catalog.parts import is_part_of
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.planner.plans.draft import LIST_LIMIT, Entities, summarize
from combat_analysis.planner.read.reading import Reading

_GROUPS = ("role", "god", "player", "team")


def group_share(plan: QueryPlan) -> tuple[str, tuple[str, ...]] | None:
    """(the group's dimension, its members) when the plan asks a group's share of the match's total, else None."""
    if plan.shape != "share" or plan.intent != Intent.LOOKUP or len(plan.group_by) != 1 \
            or plan.group_by[0] not in _GROUPS or not plan.focus:
        return None
    dim = plan.group_by[0]
    if any(f.dimension == dim for f in plan.filters):
        return None  # one player's or one side's share of its own team and the match, read as before
    return dim, tuple(plan.focus)


def _members(plan: QueryPlan, e: Entities) -> tuple[str, tuple[str, ...]] | None:
    """The group a question names: several players, one or more roles or gods, or one player or side in a window (one
    of them over the whole match is already a share of its team's and the match's totals)."""
    if len(e.players) > 1 or (e.players and plan.window is not None):
        return "player", e.players
    if e.players:
        return None
    if e.roles and not e.teams and not e.gods:
        return "role", e.roles
    if e.gods and not e.teams and not e.roles:
        return "god", e.gods
    if len(e.teams) == 1 and not e.roles and (plan.window is not None):
        return "team", (f"team {e.teams[0]}",)
    return None


def of_a_group(plan: QueryPlan, r: Reading, e: Entities) -> QueryPlan:
    """The plan of a group's share of the match's total when the question asks one ("what percent of all <figure> came
    from the <role>s"): the figure by the group's kind, every member of it, with the group in focus. The plan as it was
    when the question asks no share, names one player (or one side over the whole match: its share is read as before),
    asks a part of the group's own whole ("what share of the supports' damage went to gods"), or the figure is no sum."""
    if not r.shape.share or plan.intent not in (Intent.LOOKUP, Intent.COMPARISON, Intent.RANKING) or plan.parts \
            or plan.windows or plan.condition is not None or plan.then is not None or not plan.metrics:
        return plan
    head = metric(plan.metrics[0])
    if not head.is_figure or head.aggregation not in ("sum", "count") or len(plan.metrics) > 1:
        return plan
    found = _members(plan, e)
    if found is None or found[0] not in head.dimensions:
        return plan
    dim, members = found
    if _OF_OWN.search(r.text):
        return _own_whole(plan, r, dim, members)
    filters = tuple(f for f in plan.filters if f.dimension != dim)
    shared = plan.model_copy(update={
        "intent": Intent.LOOKUP, "group_by": (dim,), "filters": filters, "focus": members, "shape": "share",
        "limit": LIST_LIMIT, "order": "desc", "position": 1,
        "assumptions": (*plan.assumptions, f"the share read as {_said(dim, members)}'s total over the match's total "
                                           f"{head.label}, the sum over every {dim}")})
    return shared.model_copy(update={"summary": summarize(shared)})


# "of the supports' damage", "of the junglers' gold": the group's own figure is the whole a share is of, not the match's
_OF_OWN = re.compile(r"\bof\s+(?:the\s+|both\s+|all\s+(?:the\s+)?)?(?!(?:match|game|team|teams|total|whole|overall|"
                     r"enemy|enemies|other)(?:'s|s'|')?\s)[a-z]+(?:s'|'s|')(?=\s)")


def _own_whole(plan: QueryPlan, r: Reading, dim: str, members: tuple[str, ...]) -> QueryPlan:
    """"What share of the supports' damage went to gods": the group's part over its own whole (the figure the words
    named, which a qualifier narrowed; `catalog.parts`), for one role or god; the plan as it was otherwise."""
    whole = next(iter(r.metrics), None)
    if len(members) != 1 or dim not in ("role", "god") or whole is None or whole == plan.metrics[0] \
            or not is_part_of(plan.metrics[0], whole):
        return plan
    own = plan.model_copy(update={
        "intent": Intent.LOOKUP, "group_by": (dim,), "metrics": (plan.metrics[0], whole), "focus": members,
        "shape": "share", "limit": LIST_LIMIT, "order": "desc", "position": 1,
        "assumptions": (*plan.assumptions, f"the share read as part of the {_said(dim, members)}'s own "
                                           f"{metric(whole).label}")})
    return own.model_copy(update={"summary": summarize(own)})


def _said(dim: str, members: tuple[str, ...]) -> str:
    if dim == "role":
        return " and ".join(members) + (" role" if len(members) == 1 else " roles")
    return " and ".join(members)
