"""The offline planner: a deterministic reading of a question into a `QueryPlan`, in a few milliseconds.

    plan_question(question, vocab, previous) -> QueryPlan

Order: the question is read into slots (`reading.read_question`: names are found and masked first, so a
player called "mid_or_feed" is never the mid role and a name full of SQL is never read as an attack); hostile
text and questions about things the log does not hold are refused; a follow-up merges its slots into the
previous question's (`followup`); a multi-part question becomes a plan with parts (`parts`); unknown or
ambiguous names are refused or asked about; then `intents.plan_reading` makes the plan and `faithful.check`
makes sure every word that carries meaning was honoured, stated, or refused. Every reading that is not
literal goes into `plan.assumptions`.

`plan_question` never raises for user text: anything it cannot answer becomes a REFUSE plan with a reason
and three answerable suggestions (which hold no digits, so a refusal never shows an invented number).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from combat_analysis.catalog import metric
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan
from combat_analysis.planner import faithful
from combat_analysis.planner.plans import followup, intents, refusals, shapes
from combat_analysis.planner.plans.chains import chain_plan
from combat_analysis.planner.plans.cues import ATTACK_KINDS
from combat_analysis.planner.plans.intents import PARAM_PLAYER, plan_reading, summarize
from combat_analysis.planner.plans.refusals import GENERIC_SUGGESTIONS, no_digits, refuse
from combat_analysis.planner.plans.single import checked, plan_reading_checked
from combat_analysis.planner.read import exclusions, killverbs, parts, perspective, spelling, yesno
from combat_analysis.planner.read.framing import without_framing
from combat_analysis.planner.read.glosses import without_glosses
from combat_analysis.planner.read.names import find_mentions
from combat_analysis.planner.read.reading import RECEIVE, Reading, normalize, read_metrics, read_question
from combat_analysis.planner.vocabulary import Vocabulary

MAX_QUESTION_CHARS = 500
MAX_HISTORY = followup.MAX_HISTORY
CORE_STATS = intents.CORE_STATS

__all__ = ["plan_question", "summarize", "MAX_QUESTION_CHARS", "MAX_HISTORY", "CORE_STATS", "PARAM_PLAYER",
           "GENERIC_SUGGESTIONS"]


def plan_question(question: str, vocab: Vocabulary, previous: Sequence[str] = ()) -> QueryPlan:
    """The plan for one question, given the earlier questions of the session (oldest first)."""
    question = question if isinstance(question, str) else str(question)
    try:
        # a follow-up re-plans the questions before it; the last few are all a reading can lean on
        plan = _plan(question, vocab, tuple(str(p) for p in previous)[-MAX_HISTORY:])
        plan = _shaped(plan, vocab)
        if len(question.strip()) > MAX_QUESTION_CHARS and plan.intent != Intent.REFUSE:
            plan = plan.model_copy(update={"assumptions": (
                *plan.assumptions, "the question was very long; only its start was read")})
        if plan.refusal is not None and not plan.refusal.suggestions:
            plan = plan.model_copy(update={"refusal": plan.refusal.model_copy(
                update={"suggestions": refusals.suggestions(vocab, question)})})
        return plan
    except Exception as error:  # noqa: BLE001 - user text must never crash the planner
        return refuse(question, vocab, "This question cannot be answered from the combat log: "
                      + no_digits(type(error).__name__ + " while planning") + ".")


def _plan(question: str, vocab: Vocabulary, previous: tuple[str, ...]) -> QueryPlan:
    text = question.strip()
    if not text:
        return refuse(question, vocab, "The question is empty, so I cannot answer it.")
    if len(text) > MAX_QUESTION_CHARS:
        text = text[:MAX_QUESTION_CHARS]
    text = _contracted(text, vocab)  # "didnt", "theyre", "did'nt": the contractions, never unknown names
    text = exclusions.set_aside(text)  # "leaving autos aside": "leaving out autos"
    text = exclusions.not_only(text)  # "damage, not just to gods": all of the damage
    chained = chain_plan(text, vocab)  # "3 kills each within 10 s of the one before": kill chains it defines
    if chained is not None:
        return checked(chained, vocab)
    text = yesno.claim(text) or text  # "is it true that ...", "..., right?": the claim is the question, asked yes or no
    checking = _checking(question, text, vocab, previous)  # "..., and is that one a support": a check of the answer's subject
    if checking is not None:
        return checking
    text = without_framing(parts.without_impressions(text), vocab)[0]  # "analyst here:", "with ties": frame, ask nothing
    text = without_glosses(text)  # "bosses (gold fury, fire giant)": the bracket names what the word covers
    text = yesno.out_verbs(text)  # "did A out-kill B": A's kills against B's, never kills on B
    text = killverbs.plain(text, vocab)  # "how many times did A clap B": A's kills on B
    text = _sharpened(text, vocab) or text  # "who popped off, like who dealt the most damage": the sharper part
    text = _restricted(text) or text  # "who was the most fed? gold only": one question, its figure restricted
    text = spelling.spelled_out(text, [(m.start, m.end) for m in find_mentions(text, vocab)]) \
        if spelling.has_chat_words(text) else text  # "every1", "n", "w/": before the clauses are cut
    mine = perspective.rewrite(text, vocab)  # "I'm X ... my team": X's team
    theirs = perspective.players_sides(mine.text, vocab)  # "Brisk's team": the side Brisk played on
    hit = perspective.owned_targets(theirs.text, vocab)  # "damage to chaos's towers": the Chaos Tower hit
    text = hit.text
    r = read_question(text, vocab)
    notes = tuple(n for n in (mine.note, theirs.note, hit.note) if n)
    if notes:
        r = replace(r, assumptions=(*r.assumptions, *notes))
    if refusals.hostile(r.masked):
        return refuse(question, vocab, "This looks like SQL or a command rather than a question; I can't run "
                      "commands and only answer questions about the match.")
    lacks = refusals.missing(r.masked)
    if lacks:
        return refuse(question, vocab, f"The combat log does not record {lacks[0]}, so this cannot be answered from it.",
                      near=lacks[1])
    r = replace(r, question=question)
    if previous and followup.is_follow_up(r):
        plan = _follow_up(question, r, vocab, previous)
        if plan is not None:
            return plan
    mutual = parts.each_other(text, vocab, lambda clause, before: _clause(clause, vocab, before))
    if mutual is not None:  # "did A and B kill each other": each one's kills on the other
        return checked(mutual.model_copy(update={"summary": _summary_with_parts(mutual)}), vocab)
    elided = _elided(question, text, vocab)
    if elided is not None:
        return elided
    # basic attacks set against the rest is one question however many clauses say it ("how many from autos and how
    # many from abilities")
    multi = None if ATTACK_KINDS.search(r.text) else parts.plan_parts(text, vocab, lambda clause, before: _clause(clause, vocab, before),
                             lambda first, clause: _about_leader(first, clause, vocab), summarize)
    if multi is not None:
        return checked(multi.model_copy(update={"question": question, "summary": _summary_with_parts(multi)}), vocab)
    return plan_reading_checked(question, r, vocab)


def _contracted(text: str, vocab: Vocabulary) -> str:
    """`text` with its contractions typed without an apostrophe or with a misplaced one written out
    (`spelling.contractions`); a name found in it stays as typed."""
    written = spelling.contractions(text)
    if written == text:
        return text
    return spelling.contractions(text, [(m.start, m.end) for m in find_mentions(text, vocab)])


def _shaped(plan: QueryPlan, vocab: Vocabulary) -> QueryPlan:
    """The answer shapes the whole question asks for (`shapes`): one biggest hit named with its ability and target, a
    yes or no comparison of two subjects. Compiled again when they changed the plan."""
    if plan.intent == Intent.REFUSE or plan.scope is not None:
        return plan
    shaped = shapes.compared(shapes.one_hit(shapes.summed(plan)))
    return checked(shaped, vocab) if shaped != plan else plan


def _checking(question: str, text: str, vocab: Vocabulary, previous: tuple[str, ...]) -> QueryPlan | None:
    """A question that ends with a yes or no about its answer's subject ("whose damage was the lowest, and is that one a
    support"): the question without it, answered over everyone, and the check (`QueryPlan.check`) after it. None when
    the question ends with no such check, or its answer names no one subject the check can be about."""
    found = yesno.trailing_check(text, vocab) or yesno.identity_check(text, vocab)
    if found is None:
        return None
    plan = _plan(found.main, vocab, previous)
    if not _one_subject(plan, found.check.dimension) or \
            (found.about is not None and tuple(plan.focus) != (found.about,)):
        return None
    return plan.model_copy(update={"question": question, "check": found.check,
                                   "summary": f"{plan.summary} Then say yes or no: is its subject "
                                              f"{'team ' if found.check.dimension == 'team' else ''}"
                                              f"{found.check.values[0]}."})


def _one_subject(plan: QueryPlan, checked_dimension: str) -> bool:
    """Whether the plan's answer names one subject (a leader, or the one player, side, role or god looked up) whose
    name, role, side or god a check can be about: a player has all of them; a god's players a side and a role; a side
    or a role only its own."""
    if plan.intent == Intent.REFUSE or plan.parts or plan.check is not None or plan.compare is not None:
        return False
    if plan.metrics == ("roster",) and len(plan.focus) == 1 and plan.then is None and \
            [f.dimension for f in plan.filters] == ["player"]:
        return True  # one player's row of the roster: "which god was X on"
    for step in (plan, plan.then):
        if step is None or not step.group_by or step.group_by[0] not in ("player", "team", "role", "god"):
            continue
        one = (step.intent == Intent.RANKING and step.shape in ("leader", "auto")) or \
            (step.intent == Intent.LOOKUP and len(step.focus) == 1)
        # a god's players have a side and a role too; a side or a role has players on both
        if one and (step.group_by[0] in ("player", checked_dimension) or
                    (step.group_by[0] == "god" and checked_dimension in ("team", "role"))):
            return True
    return False


def _sharpened(text: str, vocab: Vocabulary) -> str | None:
    """The part of a question that restates the part before it, sharper ("... i.e. who killed him most", "...? top 3
    by kda"), when both name a figure of their own: the asker means the sharper reading, so it is what is read; the
    vaguer part's slang or loose verb never leads the answer with another figure. None when nothing restates."""
    found = parts.restated(text, vocab)
    if found is None:
        return None
    vague, sharp, said_again = found
    if not read_metrics(normalize(sharp)).ids:
        return None
    # the vaguer part's figure said only by a loose or slang verb ("who popped off", "who was the best"): the figure
    # the sharper part names is the one meant; so it is when a word of restating leads a superlative of a figure
    # ("who got farmed the most, i mean most damage taken"), whatever the vaguer part's words read as
    # ("best player? in terms of damage": the MVP score is a judgement the sharper part says what it rests on)
    slang = all(hit.strength in ("weak", "noted") or hit.metric_id == "mvp_score"
                for hit in read_metrics(normalize(parts.without_time(vague, vocab))).hits)
    if not _WHOLE_SHAPE.match(sharp):
        if not slang and not (said_again and _SUPERLATIVE.match(sharp)):
            return None  # "...? by hits, not damage": a fragment that qualifies the question, read with it as one
        sharp = _ranked_by(vague, sharp)  # "who popped off late? in terms of kills": who had the most kills
    # the time the vaguer part said is the time of the sharper one ("who carried early, like who dealt the most
    # damage": the damage of the early game)
    sharp = parts.with_time_of(vague, parts.with_side_of(vague, sharp, vocab), vocab)  # "...for chaos? kills"
    if not read_metrics(normalize(vague)).ids:
        # a vaguer part that names no figure word ("best players?") is a figure of its own only when the planner
        # reads one
        before = _plan(vague, vocab, ())
        if before.intent == Intent.REFUSE or not before.metrics:
            return None
    plan = _plan(sharp, vocab, ())
    return sharp if plan.intent != Intent.REFUSE and plan.metrics else None


def _restricted(text: str) -> str | None:
    """The question with a last clause that only restricts its figure ("...? just damage") joined to it, when that
    clause names a figure; None otherwise."""
    found = parts.restricting(text)
    if found is None or not read_metrics(normalize(found[1])).ids:
        return None
    return found[0]


_WHOLE_SHAPE = re.compile(r"^(?:(?:the\s+)?top\s+\w+|who|whom|whose|which|what|how|rank|list)\b", re.IGNORECASE)
_ASKED_OF = re.compile(r"^(?:which|what)\s+(?:player|team|side|role|god)s?\b", re.IGNORECASE)
_RANKED_BY = re.compile(r"^(?:by|in\s+terms\s+of|on|for)\s+", re.IGNORECASE)
_SUPERLATIVE = re.compile(r"^(?:the\s+)?(?:most|least|fewest|highest|lowest|best|worst|biggest|largest|smallest|top|"
                          r"bottom)\b", re.IGNORECASE)


def _ranked_by(vague: str, fragment: str) -> str:
    """A verbless fragment that names the figure a slang question ranks by ("by healing done", "most kills", "in terms
    of kda") as a whole question of the vaguer part's subject: "who had the most healing done"."""
    asked = _ASKED_OF.match(vague.strip())
    subject = asked.group(0) if asked else "who"
    figure = _RANKED_BY.sub("", fragment.strip())
    return f"{subject} had {figure}" if _SUPERLATIVE.match(figure) else f"{subject} had the most {figure}"


def _elided(question: str, text: str, vocab: Vocabulary) -> QueryPlan | None:
    """"How much damage did Brisk deal, and the fire giant?": a last part that names only a new subject asks the first
    part again of it (its figure and shape kept), answered after the first; None when no part is such."""
    pair = parts.elided(text, vocab)
    if pair is None:
        return None
    first, second = (_plan(t, vocab, ()) for t in pair)
    if Intent.REFUSE in (first.intent, second.intent) or first.then is not None or second.then is not None:
        return None
    plan = first.model_copy(update={"question": question, "parts": (*first.parts, second.model_copy(
        update={"question": pair[1]}))})
    return checked(plan.model_copy(update={"summary": _summary_with_parts(plan)}), vocab)


def _follow_up(question: str, r: Reading, vocab: Vocabulary, previous: tuple[str, ...]) -> QueryPlan | None:
    base = followup.resolve(previous[-1], vocab, previous[:-1])
    if base is None or base.plan.intent == Intent.REFUSE:
        return None
    unknown = refusals.unknown_name(r.masked, r)
    if unknown:
        return refusals.unknown_name_refusal(question, vocab, unknown)
    merged = followup.merge(base.reading, r, base.people)
    plan = followup.follow_plan(question, r, merged, base, vocab)
    if plan.summary == base.plan.summary and plan.then == base.plan.then:
        return None  # nothing carried over: plan the question on its own
    return checked(faithful.check(plan, merged, vocab), vocab)


def _clause(clause: str, vocab: Vocabulary, before: tuple[str, ...]) -> QueryPlan:
    """One clause of a multi-part question; with `before`, read as a follow-up of the first clause."""
    if not before:
        return _plan(clause, vocab, ())
    first = read_question(before[-1], vocab)
    if first.causes is not None or "deaths" in first.metrics:
        clause = parts.death_said(clause)  # "..., plus how many by the titan": the first clause's deaths, by that cause
    r = read_question(clause, vocab)
    plan = _follow_up(clause, r, vocab, before)
    return plan if plan is not None else refuse(clause, vocab, "This clause adds nothing to the first one.")


_PERSON_PRONOUN = re.compile(r"\b(?:he|she|him|her|they|them)\b|\b(?:his|their)\b", re.IGNORECASE)


def _about_player(first: QueryPlan, clause: str, vocab: Vocabulary) -> QueryPlan | None:
    """A later clause about the first clause's one player ("how many times did Brisk die and who killed him"): the
    pronoun is that player, and the clause is planned with the name in its place."""
    players = [v for f in first.filters if f.dimension == "player" and f.op == "=" for v in f.values]
    if len(players) != 1 or str(players[0]).startswith("$"):
        return None
    name = str(players[0])
    said = _received_of(first, _PERSON_PRONOUN.sub(
        lambda m: f"{name}'s" if m.group(0).lower() in ("his", "their") else name, clause))
    plan = _plan(said, vocab, ())
    return None if plan.intent == Intent.REFUSE else plan.model_copy(update={"question": clause})


# a verb of doing after a figure received: X's healing received, then what she did herself
_DOING = re.compile(r"\b(?:do|did|does|done|deal|deals|dealt|dish(?:ed)?\s+out|give|gave|given|put\s+out|output)\b")
_HOW_MUCH = re.compile(r"^(\s*(?:and\s+|&\s*|plus\s+)?how\s+much)\b", re.IGNORECASE)


def _received_of(first: QueryPlan, clause: str) -> str:
    """"X's damage dealt, and what she took": a clause that names no figure but a verb of receiving (or of
    doing, after a figure received) asks the first clause's figure as that verb turns it, so the first figure's unit
    is said in it ("how much damage did X take", "how much healing did X do")."""
    said = normalize(clause)
    if len(first.metrics) != 1 or metric(first.metrics[0]).unit not in ("damage", "healing") \
            or read_metrics(said).ids or not (RECEIVE.search(said) or _DOING.search(said)):
        return clause
    return _HOW_MUCH.sub(lambda m: f"{m.group(1)} {metric(first.metrics[0]).unit}", clause, count=1)


def _about_leader(first: QueryPlan, clause: str, vocab: Vocabulary) -> QueryPlan | None:
    """A later clause about the first clause's leader ("... and what did they build"), or its one player."""
    leader = followup._leader(first)
    if leader is None:
        return _about_player(first, clause, vocab) or _about_event_person(first, clause, vocab)
    if parts.BARE_WHEN.match(clause):
        if not leader.metrics:
            return None
        child = _by_minute(leader, clause)
    else:
        r, about = _about_someone(clause, vocab)
        child = _same_event(leader, r, about)
    return _bound(leader.model_copy(update={"limit": 1, "shape": "leader"}), child, "player")


# The one player of a one-row event list, by the column that names them: first blood's killer, the first death's victim
_EVENT_PERSON = {"first_blood": "killer", "kill_events": "killer", "death_events": "victim"}


def _about_event_person(first: QueryPlan, clause: str, vocab: Vocabulary) -> QueryPlan | None:
    """First blood's killer, then their assists at the end: a later clause about the one player of a one-row
    event list, bound to the row's killer (or victim) as a ranking's leader is."""
    column = _EVENT_PERSON.get(first.metrics[0]) if first.metrics and first.intent == Intent.EVENT_LIST else None
    if column is None or first.limit != 1 or first.then is not None or parts.BARE_WHEN.match(clause):
        return None
    return _bound(first, _about_someone(clause, vocab)[1], column)


def _about_someone(clause: str, vocab: Vocabulary) -> tuple[Reading, QueryPlan]:
    """The clause read, and planned about the one player a parent step binds (`PARAM_PLAYER`), not whom it names."""
    r = read_question(clause, vocab)
    return r, plan_reading(clause, replace(r, players=(PARAM_PLAYER,), teams=(), roles=()), vocab)


def _bound(parent: QueryPlan, child: QueryPlan, column: str) -> QueryPlan | None:
    """`parent` with `child` as its dependent step, bound to the player in `column` of its first row; None when the
    child is refused or names no figure."""
    if child.intent == Intent.REFUSE or not child.metrics:
        return None
    plan = parent.model_copy(update={"then": child, "bind": {"player": column}})
    return plan.model_copy(update={"summary": summarize(plan)})


def _same_event(leader: QueryPlan, r: Reading, child: QueryPlan) -> QueryPlan:
    """"who landed the biggest hit and what ability did they use": a clause that names no figure of its own, split by
    what the leader's one event was done with, asks for that event's ability, not every ability's damage."""
    if r.metrics or not leader.metrics or metric(leader.metrics[0]).aggregation != "max" \
            or not set(child.group_by) & {"ability", "target"}:
        return child
    plan = child.model_copy(update={"intent": Intent.RANKING, "metrics": leader.metrics[:1], "limit": 1,
                                    "shape": "leader"})
    return plan.model_copy(update={"summary": summarize(plan)})


def _by_minute(leader: QueryPlan, clause: str) -> QueryPlan:
    """A bare "and when" after a leader: the leader's figure by minute in the leader's window, most first."""
    plan = QueryPlan(question=clause, intent=Intent.RANKING, metrics=leader.metrics[:1], group_by=("minute",),
                     filters=(Filter(dimension="player", values=(PARAM_PLAYER,)),), focus=(PARAM_PLAYER,),
                     window=leader.window, shape="leader")
    return plan.model_copy(update={"summary": summarize(plan)})


def _summary_with_parts(plan: QueryPlan) -> str:
    text = plan.summary
    for i, part in enumerate(plan.parts, start=2):
        text += f" Part {i}: {part.summary}"
    return text
