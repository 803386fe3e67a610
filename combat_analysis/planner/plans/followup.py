"""Follow-ups: a short question that leans on the one before it, answered by merging slots.

The earlier question is read again (itself resolved against its own predecessors), and every slot the new
question fills replaces the old one: "and LunaSol?" swaps the players, "only after minute 20" the window,
"what about kills?" the figure, "per minute?" the shape, "and the worst?" the order; "compare with team 2"
adds to the entities instead. "He", "she" or "they" is the earlier question's one player, or the leader of
its ranking, in which case the new question becomes a dependent step after that ranking.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.planner.plans import intents
from combat_analysis.planner.plans.intents import PARAM_PLAYER, PRONOUN, plan_reading
from combat_analysis.planner.plans.single import plan_reading_checked
from combat_analysis.planner.read.reading import QUESTION_WORD, Reading, Shape, read_question
from combat_analysis.planner.vocabulary import Vocabulary

FOLLOW_UP_START = re.compile(r"^\s*(and|what\s+about|how\s+about|same\s+(?:for|but|with)|now|only|just|also|but|ok(?:ay)?|then|"
                             r"what\s+if|for|in|during|per|by|versus|vs)\b")
_WHOLE = re.compile(r"\b(whole|entire|full)\s+(match|game)\b|\boverall\b")
MAX_HISTORY = 4


@dataclass(frozen=True)
class Resolved:
    """An earlier question as it was finally understood: its merged reading and its plan, and every player
    the session has named so far (most recent last), for "compare them"."""

    reading: Reading
    plan: QueryPlan
    people: tuple[str, ...] = ()


_BOTH = re.compile(r"\b(them|they|their|both|the\s+two|those\s+two|these\s+two|each\s+other)\b")


def _remember(people: tuple[str, ...], players: tuple[str, ...]) -> tuple[str, ...]:
    kept = [p for p in people if p not in players and not p.startswith("$")]
    return tuple([*kept, *(p for p in players if not p.startswith("$"))])


def is_follow_up(r: Reading) -> bool:
    if FOLLOW_UP_START.search(r.text) or PRONOUN.search(r.text):
        return True
    has_subject = bool(r.metrics) and bool(QUESTION_WORD.search(r.text))
    return len(r.text.split()) <= 4 and not has_subject


def resolve(question: str, vocab: Vocabulary, previous: Sequence[str]) -> Resolved | None:
    """The earlier question read and planned as the session understood it (None if it cannot be read)."""
    try:
        reading = read_question(question, vocab)
        base = resolve(previous[-1], vocab, previous[:-1]) if previous else None
        if base is not None and base.plan.intent != Intent.REFUSE and is_follow_up(reading):
            merged = merge(base.reading, reading, base.people)
            return Resolved(merged, follow_plan(question, reading, merged, base, vocab),
                            _remember(base.people, merged.players))
        people = _remember(base.people if base else (), reading.players)
        return Resolved(reading, plan_reading_checked(question, reading, vocab), people)
    except Exception:  # noqa: BLE001 - an earlier question that cannot be read leaves this one standalone
        return None


def merge(base: Reading, new: Reading, people: tuple[str, ...] = ()) -> Reading:
    """The earlier reading with every slot the new question fills replaced (or, for "compare with", added).
    The text keeps both questions' words, so cues of either are seen."""
    adding = (new.shape.compare or bool(re.match(r"\s*(vs\.?|versus|compare)\b", new.text))) and \
        len(new.players) + len(new.teams) == 1
    changes: dict = {"question": new.question, "assumptions": (*base.assumptions, *new.assumptions),
                     "unread": new.unread, "ambiguous": new.ambiguous, "text": f"{base.text} {new.text}",
                     "masked": f"{base.masked} {new.masked}"}
    if not (new.players or new.teams) and _BOTH.search(new.text) and len(people) >= 2 and (
            new.shape.compare or "compare" in new.text):
        # "compare them": the last two players the session named
        changes.update(players=people[-2:], teams=(), roles=())
        changes["shape"] = replace(_merge_shape(base.shape, new.shape, True), superlative=False)
    if new.players or new.teams or new.roles or new.gods:
        if adding:
            changes.update(players=tuple(dict.fromkeys((*base.players, *new.players))),
                           teams=tuple(dict.fromkeys((*base.teams, *new.teams))))
        else:
            changes.update(players=new.players, teams=new.teams, roles=new.roles, gods=new.gods)
    if new.windows:
        changes.update(windows=new.windows, at_minute=new.at_minute)
    elif _WHOLE.search(new.text):
        changes.update(windows=(), at_minute=None)
    figures = [m for m in new.metrics if intents.metric(m).is_figure]
    if figures:
        changes.update(metrics=tuple(figures), metric_hits=new.metric_hits, evidence=new.evidence,
                       qualifiers=new.qualifiers)
    if new.causes is not None:
        changes["causes"] = new.causes  # "..., plus how many by the titan": another cause of the same deaths
    if new.abilities or new.items:
        changes.update(abilities=new.abilities, items=new.items)
    changes.setdefault("shape", _merge_shape(base.shape, new.shape, adding))
    if re.search(r"\b(when|where)\b", new.text):
        changes["groups"] = new.groups  # "when did they take the titan" asks for events, not a split
    elif new.groups and not set(new.groups) <= {"player"}:
        changes["groups"] = tuple(dict.fromkeys((*base.groups, *new.groups)))
    return replace(base, **changes)


def _merge_shape(base: Shape, new: Shape, adding: bool) -> Shape:
    shape = base
    if new.series:
        shape = replace(shape, series=True)
    if new.per_minute:
        # the figure plan decides: a rate where the earlier question ranked or named who had it ("and per
        # minute?" after "who dealt the most damage"), else the minute-by-minute series
        shape = replace(shape, per_minute=True)
    if new.order == "asc" and new.superlative:
        shape = replace(shape, order="asc", superlative=True)
    elif new.superlative:
        shape = replace(shape, order="desc", superlative=True)
    if new.top:
        shape = replace(shape, top=new.top, superlative=True)
    if adding or new.compare:
        shape = replace(shape, compare=True)
    return shape


def follow_plan(question: str, new: Reading, merged: Reading, base: Resolved, vocab: Vocabulary) -> QueryPlan:
    """The plan of a follow-up; "he"/"his" resolves to the earlier question's player or leader."""
    note = f"follow-up to '{_clip(base.plan.question)}'"
    merged = replace(merged, assumptions=(*merged.assumptions, note))
    if PRONOUN.search(new.text) and not new.players and not (len(merged.players) > 1 and merged.shape.compare):
        leader = _leader(base.plan)
        one = _one_player(base.plan)
        if one is not None:
            merged = replace(merged, players=(one,), teams=(), roles=())
        elif leader is not None:
            child_reading = replace(new if new.metrics or new.groups or intents.BUILD.search(new.text) else merged,
                                    players=(PARAM_PLAYER,), teams=(), roles=(), windows=merged.windows)
            child = plan_reading(question, child_reading, vocab)
            if child.intent != Intent.REFUSE and child.metrics:
                parent = leader.model_copy(update={"question": question, "limit": 1, "then": child,
                                                   "bind": {"player": "player"},
                                                   "assumptions": (*leader.assumptions, note,
                                                                   "'he/she' read as the leader of the previous ranking")})
                return parent.model_copy(update={"summary": intents.summarize(parent)})
    if merged.shape.superlative and merged.players and not new.players and PRONOUN.search(new.text):
        merged = replace(merged, shape=replace(merged.shape, superlative=False))
    return plan_reading(question, merged, vocab)


def _one_player(plan: QueryPlan) -> str | None:
    step = plan
    while step.then is not None:
        step = step.then
    values = [f.values for f in step.filters if f.dimension == "player"]
    if values and len(values[0]) == 1 and values[0][0] != PARAM_PLAYER:
        return str(values[0][0])
    return None


def _leader(plan: QueryPlan) -> QueryPlan | None:
    """The ranking whose first row "he" refers to: the earlier dependent plan's parent, or its ranking."""
    if plan.then is not None and plan.bind:
        return plan.model_copy(update={"then": None, "bind": {}})
    if plan.intent == Intent.RANKING and plan.group_by == ("player",):
        return plan
    return None


def _clip(text: str, size: int = 60) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"
