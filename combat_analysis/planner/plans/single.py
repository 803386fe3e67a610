"""The plan of one question read on its own: what both the offline planner and the follow-up reader (which
re-plans the earlier questions of a session) make of a reading.

Unknown or ambiguous names are refused or asked about, a winner the log does not record is refused, the
special shapes (a dependent step, a leader split) come before the plain reading, `faithful.check` makes sure
every word that carries meaning was honoured, and `checked` compiles the plan once so that one which cannot
become valid SQL is an honest refusal here rather than an error later.
"""

from __future__ import annotations

from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.planner import faithful
from combat_analysis.planner.compile import PlanError, compile_plan
from combat_analysis.planner.plans import intents, refusals, superlatives
from combat_analysis.planner.plans.events import with_taken_edge
from combat_analysis.planner.plans.intents import plan_reading
from combat_analysis.planner.plans.refusals import no_digits, refuse
from combat_analysis.planner.read.reading import Reading
from combat_analysis.planner.vocabulary import Vocabulary


def checked(plan: QueryPlan, vocab: Vocabulary) -> QueryPlan:
    """Compile once so a plan that cannot become valid SQL turns into an honest refusal here."""
    if plan.intent == Intent.REFUSE:
        return plan
    try:
        compile_plan(plan, vocab)
    except PlanError as error:
        return refuse(plan.question, vocab, "This question cannot be answered from the combat log as asked: "
                      + no_digits(str(error)) + ".", plan.assumptions)
    return plan


def plan_single(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan:
    """A reading's plan, faithful to its words but not yet compiled."""
    unread = refusals.unreadable_refusal(question, vocab, r)
    if unread is not None:
        return unread
    if r.anchor is not None and r.anchor.missing:  # "after the third phoenix" where fewer fell
        return refuse(question, vocab, r.anchor.missing, r.assumptions)
    if r.winner_unknown:
        return refuse(question, vocab, "No Titan fell in this match, so the combat log does not record a winner and "
                      "the winning or losing team cannot be named.", r.assumptions)
    for special in (intents.dependent_plan, intents.leader_split_plan, intents.hit_target_plan,
                    superlatives.held_plan):
        plan = special(question, r, vocab)
        if plan is not None:
            return faithful.check(plan, r, vocab)
    # "did A get first blood", "did chaos win": the event, and whether it was theirs
    plan = faithful.check(superlatives.event_checked(question, r, vocab, plan_reading(question, r, vocab)), r, vocab)
    return with_taken_edge(plan, r)  # "which side took the gold furies, and the first one?": its first as a part


def plan_reading_checked(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan:
    """A reading's plan without the session machinery (used to re-read earlier questions)."""
    return checked(plan_single(question, r, vocab), vocab)
