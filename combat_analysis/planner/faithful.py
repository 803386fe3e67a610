"""Faithfulness: every word that carries meaning is honoured, stated, or the question is refused.

After a plan is made, the words of the question that no slot reader had a meaning for (`Reading.unread`),
and the qualifiers the figure could not take (`QueryPlan.caveats`), decide its fate:

- nothing unread: the plan stands;
- the plan rests on a weak reading (no figure named, a loose synonym, a figure named only by a thing's name
  such as "the Fire Giant", or an unread word right where the event's object should be, as in "which team
  won the lottery"): the question is refused, with no number;
- otherwise the plan stands and the direct answer says "I read this as ...", naming the words it did not use.
"""

from __future__ import annotations

import re

from combat_analysis.catalog import DIMENSIONS, metric, rate_of
from combat_analysis.contracts.plan import Intent, QueryPlan, ValueCondition
from combat_analysis.planner.plans.draft import LIST_LIMIT, summarize
from combat_analysis.planner.plans.events import objective_values
from combat_analysis.planner.plans.refusals import no_digits, refuse
from combat_analysis.planner.read import conditions, exclusions
from combat_analysis.planner.read.names import find_roles
from combat_analysis.planner.read.reading import (
    EVENT_FIGURES,
    ONE_ENEMY,
    SHARE,
    MetricHit,
    Reading,
    normalize,
    read_metrics,
)
from combat_analysis.planner.read.words import FRAME_NOUNS, RECEIVING_VERBS
from combat_analysis.planner.vocabulary import Vocabulary

# The cue words of events whose object must be this match: "won the match", not "won the lottery" or "won the
# coin toss".
_EVENT_VERB = re.compile(r"\b(won|win|wins|beat|lost|lose)\s+(?:the\s+|a\s+|an\s+|this\s+|that\s+)?([a-z]+)")
_EVENT_OBJECTS = frozenset("""match game it most more fights fight teamfight teamfights team fights overall this that
them us by with in at after before and or""".split())


def _named_by_a_thing(r: Reading) -> bool:
    """The only figure words are the name of a non-player ("what does the Fire Giant weigh")."""
    if not r.metric_hits or not r.npcs:
        return False
    names = {normalize(n) for n in r.npcs}
    return all(any(h.phrase in name or name in h.phrase for name in names) for h in r.metric_hits)


def _event_object_unread(r: Reading, plan: QueryPlan) -> bool:
    """'Which team won the lottery': the winner question names something other than this match ("who won this one"
    and "who won the scrim" name the match)."""
    if plan.intent != Intent.EVENT_LIST or "winner" not in plan.metrics:
        return False
    return any(m.group(2) not in _EVENT_OBJECTS and m.group(2) not in FRAME_NOUNS and not m.group(2).startswith("name")
               for m in _EVENT_VERB.finditer(r.text))


def _conditionable(plan: QueryPlan, found: conditions.Condition) -> bool:
    """The plan has one figure per player, team, role or god for a condition on a value to keep rows of."""
    if found.condition is None or plan.then is not None or plan.parts or plan.windows or not plan.group_by:
        return False
    return metric(plan.metrics[0]).is_figure and plan.group_by[0] not in ("minute", "period") \
        and plan.intent != Intent.TIMELINE


def _compared(plan: QueryPlan, found: conditions.Condition, r: Reading) -> tuple[str, MetricHit | None]:
    """The figure a condition compares, and the words that named it: the figure named right after the condition,
    or else right before it ("while dying fewer than 4 times"), or the headline."""
    after = r.text[found.end:found.end + 40]
    named = read_metrics(after).ids
    verb = _VERB_BEFORE.search(r.text[:found.start])
    if named and verb and verb.group(1) in RECEIVING_VERBS:
        # "players who took more than 50k damage": the verb before the condition turns the figure after it
        named = read_metrics(f"{verb.group(1)} {after}").ids or named
    before = next((h for h in reversed(r.metric_hits) if found.start - 12 <= h.end <= found.start), None)
    own = next((h for h in r.metric_hits if h.start >= found.end), None) if named else before
    if found.said == conditions.ANY_SAID and named and named[0] not in plan.metrics:
        # "which players dealt damage to towers", "how many players killed minions": the figure the verb names was
        # narrowed by what follows it into the headline, and having any of it is having any of the headline
        named = (plan.metrics[0],)
    compared = found.figure or (named[0] if named else before.metric_id if before else plan.metrics[0])
    if rate_of(compared) in plan.metrics and _PER_MINUTE_NEXT.match(after.split(compared.split("_")[0], 1)[-1]):
        compared = rate_of(compared) or compared  # "more than 0.5 kills per minute": the rate the plan has
    return compared, own


_VERB_BEFORE = re.compile(r"\b([a-z]+)\s+$")


def _with_condition(plan: QueryPlan, found: conditions.Condition, r: Reading) -> QueryPlan | None:
    """The plan keeping only the rows whose figure meets the condition, or None where it cannot: the plan has
    no figure per player, team, role or god, the condition is a percentage, or the figure it names cannot be
    split the way the plan is.

    The figure is the one named right after the condition: "players with more than 10 kills" keeps kills over
    10; "the most damage among players with more than 5 kills" ranks damage, keeps the players with more than
    5 kills, and shows their kills beside the damage."""
    if found.condition is None:
        return None
    counted = _counted_per_player(plan, found)
    if counted is not plan:  # the condition is on how many of the listed events each player had
        return _kept(counted, found.condition, "all")
    if not _conditionable(plan, found):
        return None
    head = metric(plan.metrics[0])
    compared, own = _compared(plan, found, r)
    # a list of the rows kept, unless the question asks for the leader among them ("the most damage among ...")
    shape = plan.shape if r.shape.superlative or r.shape.top or plan.shape not in ("auto", "leader") else "all"
    if compared != head.id:
        return _with_condition_on(plan.model_copy(update={"shape": shape}), found, compared)
    # "rank players with at least 10 assists by gold": the condition's figure is not the one asked for
    asked = [h.metric_id for h in r.metric_hits if h is not own and h.metric_id in plan.metrics and h.metric_id != head.id]
    if asked:
        metrics = (asked[0], *(m for m in plan.metrics if m != asked[0]))
        return _with_condition_on(plan.model_copy(update={"metrics": metrics, "shape": shape}), found, head.id)
    return _kept(plan, found.condition, shape)


def _kept(plan: QueryPlan, condition: ValueCondition, shape: str) -> QueryPlan:
    """The plan keeping the rows whose headline figure meets the condition."""
    who, head = DIMENSIONS[plan.group_by[0]].label, metric(plan.metrics[0])
    return plan.model_copy(update={"condition": condition, "shape": shape, "assumptions": (
        *plan.assumptions, f"only the {who}s with {conditions.describe(condition)} {head.label}")})


def _counted_per_player(plan: QueryPlan, found: conditions.Condition) -> QueryPlan:
    """A list of events with a condition on how many each player had ("who never died to a tower", "who died to
    minions more than twice") counts them per player, every player a row (none is 0), for the condition to keep;
    "did anyone die to X" stays the list, which names whoever did."""
    counted = EVENT_FIGURES.get(plan.metrics[0]) if plan.metrics else None
    if plan.intent != Intent.EVENT_LIST or counted is None or len(plan.metrics) != 1 or plan.group_by \
            or found.condition is None or found.said == conditions.ANY_SAID or plan.then is not None or plan.parts \
            or plan.windows or any(f.dimension not in metric(counted).dimensions for f in plan.filters):
        return plan
    counts = plan.model_copy(update={"intent": Intent.RANKING, "metrics": (counted,), "group_by": ("player",),
                                     "order": "desc", "shape": "all", "limit": LIST_LIMIT})
    return counts.model_copy(update={"summary": summarize(counts)})


def _with_condition_on(plan: QueryPlan, found: conditions.Condition, compared: str) -> QueryPlan | None:
    """The plan ranking its headline among the rows whose `compared` figure (not the headline) meets the condition."""
    other = metric(compared)
    if found.condition is None or not other.is_figure or any(d not in other.dimensions for d in plan.group_by) or \
            any(f.dimension not in other.dimensions for f in plan.filters):
        return None
    who = DIMENSIONS[plan.group_by[0]].label
    condition = found.condition.model_copy(update={"metric": other.id})
    metrics = plan.metrics if other.id in plan.metrics else (*plan.metrics, other.id)
    return plan.model_copy(update={"condition": condition, "metrics": metrics, "assumptions": (
        *plan.assumptions, f"only the {who}s with {conditions.describe(condition)} {other.label}")})


_PER_MINUTE_NEXT = re.compile(r"\s*(?:per\s+min(?:ute)?|a\s+minute)\b")


def _answered_another_way(metric_id: str, plan: QueryPlan, used: set[str]) -> bool:
    """An event or pattern word the plan took without that figure."""
    if EVENT_FIGURES.get(metric_id) in used:
        return True  # "what percent of all kills": the count of what the list would list
    if metric_id == "first_blood" and plan.limit == 1:
        return "kill_events" in used  # "Brisk's first kill": the first of his kills, not the match's
    if metric_id == "match_info":
        # "how long until the first tower fell" or "until the first death": its time; "how long was the draft": the
        # lobby's length
        return bool(used & {"objective_events", "first_blood", "lobby_info", "kill_events", "death_events"}) \
            and plan.limit == 1 or "lobby_info" in used
    if metric_id == "winner":
        # the winner's own list, or "the winning team" read as the team the plan filters on
        return plan.intent == Intent.EVENT_LIST or any(f.dimension == "team" for _, step in plan.steps()
                                                       for f in step.filters)
    return metric_id == "roster" and "player" in plan.group_by  # "list the players by gold"


def _honoured(word: str, plan: QueryPlan, vocab: Vocabulary) -> bool:
    """An unread word the plan took all the same: a name it focuses on, or a place naming the role it filters on
    ("in the Solo lane" answered for the Solo players)."""
    focus = {f.lower() for f in plan.focus}
    # a name said in the plural ("archers", "swordsmen") is the one the plan focuses on
    if any(form in " ".join(focus) for form in (word, re.sub(r"men$", "man", word), re.sub(r"e?s$", "", word))):
        return True
    kinds = set(objective_values(word))
    if kinds and kinds <= {v for _, step in plan.steps() for f in step.filters if f.dimension == "objective" for v in f.values}:
        return True  # "bosses": the objectives the plan keeps
    if any(f.op == "!=" for _, step in plan.steps() for f in step.filters) and word in exclusions.cue_words(plan.question):
        return True  # "excluding": the plan leaves the named entities out
    if plan.group_by[-1:] in (("target",), ("victim",)) and any(word in m.group(0).split()
                                                                 for m in ONE_ENEMY.finditer(plan.question.lower())):
        return True  # "on the same victim": the plan ranks whom each one hit
    roles = find_roles(word, vocab.roles)
    return bool(roles) and all(m.role.lower() in focus for m in roles)


def _unhonoured(plan: QueryPlan, r: Reading, vocab: Vocabulary) -> list[str]:
    """The unread words the plan did not take some other way; a word inside another one's phrase counts once."""
    unread = [w for w in r.unread if not _honoured(w, plan, vocab)]
    return [w for w in unread if not any(w != other and f" {w} " in f" {other} " for other in unread)]  # "river" in "in the river"


def _weak(plan: QueryPlan, r: Reading) -> bool:
    """The plan rests on a weak reading: no figure named, a loose synonym, or a thing's name."""
    defaulted = any(a.startswith("no figure named") or a.startswith("'best' read as") for a in plan.assumptions)
    return r.evidence in ("weak", "fuzzy") or (r.evidence == "none" and plan.intent != Intent.EVENT_LIST) \
        or defaulted or _named_by_a_thing(r)


def _dropped_caveat(plan: QueryPlan, r: Reading) -> str | None:
    """'Who tanked the most in team fights': the figure is answered, the team-fight part is not."""
    used = {m for _, step in plan.steps() for m in step.metrics}
    dropped = [h.phrase for h in r.metric_hits if metric(h.metric_id).kind in ("pattern", "event")
               and h.metric_id not in used and not _answered_another_way(h.metric_id, plan, used)]
    return f"I read this as {_reading(plan)}; '{dropped[0]}' was not applied to it" if dropped else None


def _share_caveat(plan: QueryPlan, r: Reading) -> str | None:
    """'Which player dealt the highest percentage of their team's damage': ranked by the totals, and said so."""
    share = SHARE.search(r.text)
    if not share or plan.intent not in (Intent.RANKING, Intent.LOOKUP, Intent.COMPARISON) or plan.caveats or any(
            step.shape == "share" for _, step in plan.steps()):
        return None
    return (f"I read this as {_reading(plan)}; the share asked for ('{share.group(0)}') was not computed, so these "
            "are the totals, not percentages")


def _condition_read(r: Reading) -> conditions.Condition | None:
    """The condition on a figure, unless "without" names no figure, or the words are a figure's own ("the most kills
    without dying" is a kill streak)."""
    found = conditions.read_condition(r.text, r.question)
    if found is not None and found.needs_figure and (not read_metrics(r.text[found.end:found.end + 40]).ids or any(
            h.start <= found.start < h.end for h in r.metric_hits)):
        return None
    return found


def _unread_caveat(plan: QueryPlan, unread: list[str]) -> str:
    words = ", ".join(f"'{w}'" for w in unread[:4])
    if len(unread) > 1:
        return (f"I read this as {_reading(plan)}; the words {words} were not used, as the combat log has nothing I "
                "can match to them")
    return f"I read this as {_reading(plan)}; the word {words} was not used, as the combat log has nothing I can match to it"


def check(plan: QueryPlan, r: Reading, vocab: Vocabulary) -> QueryPlan:
    """The plan, refused or with a caveat when words of the question were not honoured."""
    if plan.intent == Intent.REFUSE:
        return plan
    plan = exclusions.apply(plan, r, vocab)
    unread = _unhonoured(plan, r, vocab)
    if _event_object_unread(r, plan) or unread and _weak(plan, r):
        unread = unread or [m.group(2) for m in _EVENT_VERB.finditer(r.text)]
        words = ", ".join(f"'{no_digits(w)}'" for w in unread[:3])
        return refuse(plan.question, vocab, f"The combat log does not record anything I can match to {words}, so "
                      "this cannot be answered from it without guessing.", plan.assumptions)
    caveats = [*plan.caveats, *(c for c in (_dropped_caveat(plan, r), _share_caveat(plan, r)) if c)]
    found = _condition_read(r)
    if found is not None:
        applied = _with_condition(plan, found, r)
        if applied is not None:
            plan = applied
        elif found.said != conditions.ANY_SAID:  # "did anyone die to X" answered with the deaths: who is in them
            caveats.append(f"I read this as {_reading(plan)}; the condition '{found.said}' on the figure was not "
                           "applied: no player is left out for it")
    if unread:
        caveats.append(_unread_caveat(plan, unread))
    if caveats == list(plan.caveats):
        return plan
    return plan.model_copy(update={"caveats": tuple(dict.fromkeys(caveats))})


def _reading(plan: QueryPlan) -> str:
    """What the plan answers, briefly: "kills per player over the whole match"."""
    text = ", ".join(metric(m).label for m in plan.metrics)
    groups = [DIMENSIONS[g].label for g in plan.group_by if g not in ("minute", "period")]
    if groups:
        text += " per " + " and ".join(groups)
    if plan.intent == Intent.TIMELINE:
        text += " minute by minute"
    named = [f for f in plan.focus if not f.startswith("$")]
    if named:
        text += " for " + ", ".join(named)
    if plan.windows:
        text += " in " + " against ".join(f"the {w.label}" for w in plan.windows)
    elif plan.window is not None:
        text += f" in the {plan.window.label}"
    else:
        text += " over the whole match"
    return text
