"""Answer shapes set on a finished plan of one match, from what the whole question asks.

- `compared`: a yes or no question setting two subjects against each other on one figure ("did A out-damage B", "did
  the supports heal more than the junglers") is a comparison of the two whose answer opens with Yes or No
  (`QueryPlan.compare`); the first subject said is the one asked about.
- `summed`: one subject set against the sum of two or more others ("did A deal more damage than B and C combined", "A's
  kills vs B plus C", "the jungle against the mid and solo put together"): a comparison of them all, the others summed
  as one group (`QueryPlan.summed`), with Yes or No when the question asks it.
- `one_hit`: the biggest single hit (or crit) of the match, a player, a side or a window is one event: it is answered
  with the player who landed it, the amount, the ability (the event's itemname) and the target, whatever of those
  the question asked for.
"""

from __future__ import annotations

import re

from combat_analysis.catalog import metric
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.planner.plans.draft import LIST_LIMIT, ROSTER_DIMS, summarize
from combat_analysis.planner.read import yesno

# the groups one hit is named by: who landed it, with what, on whom
HIT_GROUPS = ("player", "ability", "target")


def compared(plan: QueryPlan) -> QueryPlan:
    """The plan (and each of its parts, by its own words) as a yes or no comparison of its two subjects when the
    question asks one; else as it was."""
    plan = _compared(plan)
    if plan.parts:
        plan = plan.model_copy(update={"parts": tuple(_compared(p) for p in plan.parts)})
    return plan


def _compared(plan: QueryPlan) -> QueryPlan:
    if plan.intent not in (Intent.COMPARISON, Intent.RANKING, Intent.LOOKUP) or plan.then is not None \
            or plan.windows or plan.compare is not None or plan.condition is not None or len(plan.group_by) != 1 \
            or plan.group_by[0] not in ROSTER_DIMS or not plan.metrics or not metric(plan.metrics[0]).is_figure:
        return plan
    dim = plan.group_by[0]
    named = [v for f in plan.filters if f.dimension == dim and f.op in ("=", "in") for v in f.values]
    if len(set(named)) != 2 or len(plan.focus) != 2:
        return plan
    way = yesno.asked_comparison(plan.question, lower_is_better=plan.metrics[0] == "deaths")
    if way is None:
        return plan
    plan = plan.model_copy(update={"intent": Intent.COMPARISON, "shape": "all", "limit": LIST_LIMIT, "position": 1,
                                   "compare": way})
    return plan.model_copy(update={"summary": summarize(plan)})


# the words that add the subjects of one side together; "than", "vs", "against" part the two sides
_SUM = re.compile(r"\b(?:combined|put\s+together|together|altogether|all\s+together|added(?:\s+up)?|summed(?:\s+up)?|"
                  r"between\s+them|plus|in\s+total|total)\b|\+", re.IGNORECASE)
_SIDES_PART = re.compile(r"\b(?:than|vs\.?|versus|against|compared\s+(?:to|with)|or)\b", re.IGNORECASE)
# faithful's note on words it could not read (`faithful._unread_caveat`), and the adding words among them
_UNREAD = re.compile(r"; the words? (?P<words>'[^;]*') (?:was|were) not used, as the combat log has nothing")
_SUM_WORDS = re.compile(r"'(?:combined|put|together|altogether|added|up|summed|between|them|plus|total)'")


def _read_now(caveat: str) -> bool:
    """Whether a caveat only says adding words went unread, which the sum now reads."""
    m = _UNREAD.search(caveat)
    return m is not None and all(_SUM_WORDS.fullmatch(w.strip()) for w in m.group("words").split(", "))


def summed(plan: QueryPlan) -> QueryPlan:
    """The plan as one subject set against the sum of the others when the question adds two or more of them together
    on an additive figure; else as it was."""
    if plan.intent not in (Intent.COMPARISON, Intent.RANKING, Intent.LOOKUP) or plan.then is not None or plan.parts \
            or plan.windows or plan.compare is not None or plan.condition is not None or len(plan.group_by) != 1 \
            or plan.group_by[0] not in ROSTER_DIMS or len(plan.metrics) != 1 or len(plan.focus) < 3 \
            or metric(plan.metrics[0]).aggregation not in ("sum", "count"):
        return plan
    cue, part = _SUM.search(plan.question), _SIDES_PART.search(plan.question)
    if cue is None or part is None:
        return plan
    # the group is the side the adding word is on: "A and B combined than C" sums the first subjects
    group = plan.focus[:-1] if cue.start() < part.start() else plan.focus[1:]
    caveats = tuple(c for c in plan.caveats if not _read_now(c))
    plan = plan.model_copy(update={"intent": Intent.COMPARISON, "shape": "all", "limit": LIST_LIMIT, "position": 1,
                                   "summed": tuple(group), "caveats": caveats,
                                   "compare": yesno.asked_comparison(plan.question,
                                                                     lower_is_better=plan.metrics[0] == "deaths")})
    return plan.model_copy(update={"summary": summarize(plan)})


def one_hit(plan: QueryPlan) -> QueryPlan:
    """The plan (and each of its parts) with a biggest hit asked of the match, a player, a side or a window answered
    as the one event it is: its player, ability and target beside the amount."""
    plan = _one_hit(plan)
    if plan.parts:
        # a part that asked what the main question's hit was done with ("..., and what ability") is that hit again
        parts = tuple(p for p in map(_one_hit, plan.parts) if _asked(p) != _asked(plan))
        plan = plan.model_copy(update={"parts": parts})
    return plan


def _asked(plan: QueryPlan) -> dict:
    """What a step asks, without its words: two steps alike are one answer."""
    return plan.model_dump(exclude={"question", "summary", "assumptions", "caveats", "parts"})


def _one_hit(plan: QueryPlan) -> QueryPlan:
    head = metric(plan.metrics[0]) if plan.metrics else None
    if head is None or head.aggregation != "max" or not set(HIT_GROUPS) <= set(head.dimensions):
        return plan
    child = plan.then
    if child is not None and child.metrics[:1] == (head.id,) and set(child.group_by) <= set(HIT_GROUPS) \
            and child.then is None:
        # the leader, then the target or the ability of their hit: the one hit names them all
        plan = plan.model_copy(update={"then": None, "bind": {}})
    if len(plan.metrics) != 1 or plan.then is not None or plan.windows or plan.condition is not None \
            or plan.compare is not None \
            or plan.order != "desc" or plan.position != 1 or plan.shape not in ("leader", "auto") \
            or plan.intent not in (Intent.RANKING, Intent.LOOKUP) or not _one_event_asked(plan):
        return plan
    plan = plan.model_copy(update={"intent": Intent.RANKING, "group_by": HIT_GROUPS, "shape": "leader",
                                   "limit": LIST_LIMIT})
    return plan.model_copy(update={"summary": summarize(plan)})


def _one_event_asked(plan: QueryPlan) -> bool:
    """Whether the biggest hit is asked of one subject (the match, a player, a side, a role's or god's players):
    grouped by nothing but who landed it, with what or on whom, or by one side named."""
    if set(plan.group_by) <= set(HIT_GROUPS):
        return True
    named = [v for f in plan.filters if f.dimension == plan.group_by[0] for v in f.values]
    return len(plan.group_by) == 1 and plan.group_by[0] in ("team", "role", "god") and len(named) == 1
