"""Multi-part questions: "who got first blood and who won" is two questions, answered in turn.

A question is split where a new clause starts with a question word ("... and who won", "...; which team
...", "...? how many ..."), never inside a name. Each later clause then decides how it relates to the first:

- it points back with "it", "each", "that" ("what abilities did X use and how much damage did each do",
  "what was the biggest hit, and who landed it"): not a new question, the whole sentence is read as one;
- it points back at a person ("who had the most kills and what did they build"): a dependent step on the
  first clause's leader;
- a bare "when" after a ranking ("who carried the damage, and when?"): the leader's top minutes of that figure;
- it asks how many "of those" had a property ("xiao's deaths, and how many of those weren't to players"): the
  first clause read again with the property, a part after the whole;
- it names no figure of its own ("how many kills did team 1 get and team 2?"): read as a follow-up of the first
  clause, or as part of it when that adds nothing;
- otherwise it is its own question (a `part` of the plan).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.planner.read.causes import REST, complement
from combat_analysis.planner.read.names import find_mentions
from combat_analysis.planner.vocabulary import Vocabulary

_SPLIT = re.compile(r"(?:\s*[,;]\s*|\s+)(?:and|also|plus|&|then)\s+(?=(?:who|whom|whose|what|which|how|when|where|did|"
                    r"does|was|were|is|are|list|show|give|tell|compare|rank|include|add)\b)|\s*[?;]\s+(?=\S)"
                    # a new sentence that asks on ("... the match. Include the average damage per player")
                    r"|\.\s+(?=(?:who|what|which|how|when|where|list|show|give|tell|compare|rank|include|add|also)\b)",
                    re.IGNORECASE)
_POINTS_BACK = re.compile(r"\b(it|its|that|those|these|each(?!\s+(?:player|team|role|god|minute|one\s+of))|"
                          r"one|ones|them|then)\b\s*[?.!]*\s*$|\b(it|its|that\s+one|those|these|each\s+(?:do|did|deal|"
                          r"dealt|one|of\s+them))\b"
                          # "... and when did the first go down": the first of what the first clause counted
                          r"|\bthe\s+(?:first|last|earliest|latest)(?:\s+(?:one|ones|of\s+them|of\s+those))?\s*(?:[?.!]*\s*$|"
                          r"(?:go|goes|went|gone|fall|falls|fell|fallen|die|died|drop|dropped|come|came|get|got|was|were|"
                          r"happen|happened|lost|destroyed|taken|killed|down)\b)", re.IGNORECASE)
_PERSON = re.compile(r"\b(he|she|they|them|their|his|her|him)\b", re.IGNORECASE)
# "who carried the damage, and when?": the moment of the leader's figure, a step on the leader like a pronoun's
BARE_WHEN = re.compile(r"^\s*(?:and\s+)?when\s*[?.!]*\s*$", re.IGNORECASE)
# "... and how many of those were to towers": a subset of what the first clause counted
_OF_THOSE = re.compile(r"^\s*(?:and\s+)?how\s+(?:many|much|often)\s+of\s+(?:those|these|them|that|it)\b\s*", re.IGNORECASE)
# "how many died to towers, and which players?": who the first clause counted, asked with no figure of its own
_BARE_WHO = re.compile(r"^\s*(?:and\s+)?(?:who|which\s+(?:players?|people|ones|guys|gods))"
                       r"(?:\s+(?:died|(?:was|were)\s+(?:it|they|those|killed)|got\s+killed))?\s*[?.!]*\s*$"
                       # "X's deaths to npcs? what got her": what dealt the deaths the first clause counted
                       r"|^\s*(?:and\s+)?(?:what|which\s+\w+|who)\s+(?:got|killed|did\s+it|took\s+(?:him|her|them)\s+out)"
                       r"(?:\s+(?:him|her|them|it))?\s*[?.!]*\s*$", re.IGNORECASE)
# The asker's impression, which frames a question and asks nothing: a clause of its own ("... ? seems close",
# "..., looks tight tbh") or a lead-in ("i feel like ...", "seems like ..."); a clause with a question word stays
_IMPRESSION_CLAUSE = re.compile(
    r"(?:^|(?<=[?!;:,.])|(?<=\s)(?=[-–—]\s))\s*(?:[-–—]\s*)?(?:(?:it|this|that|i|we|tbh|ngl|honestly|lowkey|kinda|but|though|and|so|to\s+me)\s+)*"
    r"(?:feels?|felt|seems?|seemed|looks?|looked|looking)\b(?![^?!;:,.]*\b(?:who|whom|whose|what|which|how|when|where)\b)"
    r"[^?!;:,.]*[?!.]*\s*$", re.IGNORECASE)
_IMPRESSION_LEAD = re.compile(r"^\s*(?:(?:i|we)\s+(?:feel|felt|think|thought|guess|reckon)|(?:it\s+)?(?:feels|felt|seems|seemed|"
                              r"looks|looked))\s+(?:like|as\s+if|that)\s+", re.IGNORECASE)


def without_impressions(question: str) -> str:
    """The question without the asker's impression of the answer ("which side healed more? seems tight": the
    comparison is asked, the feeling is not), or the question as it is when nothing else would be left."""
    text = _IMPRESSION_LEAD.sub("", _IMPRESSION_CLAUSE.sub("", question))
    if text == question:
        return question  # nothing said of an impression: the text stays as typed, trailing marks and all
    text = text.strip(" ,;-–—")
    return text if re.search(r"\w", text) else question


MAX_PARTS = 6  # clauses: any number of parts, within the plan's limit
# "which side won, and the kills for each team", "the winner and kills per team": after a clause that asks who
# won (a winner word among its last words, not one a figure belongs to: "kills of the winner"), "and ..." names a
# second thing asked (the kill score), not more of the winner; it is a clause of its own.
_WON = re.compile(r"(?<!of the )(?<!by the )(?<!for the )(?<!to the )\b(?:won|win|winner|winners)\b"
                  r"(?:\s+\S+){0,4}?\s*[,:;-]?\s*$", re.IGNORECASE)
_AND_THE = re.compile(r"(?:\s*,\s*|\s+)and\s+(?!(?:by|how|when|why|where|with|who|whom|what|which|lost|lose|loses|"
                      r"it|its|that|those|them|then)\b)", re.IGNORECASE)


def _after_a_winner(piece: str) -> list[str]:
    """The piece cut at "and the ..." after a clause that asks who won (see `_AND_THE`)."""
    cut = _AND_THE.search(piece)
    if cut is None or not _WON.search(piece[:cut.start()]):
        return [piece]
    return [piece[:cut.start()].strip(" ,;"), *_after_a_winner(piece[cut.end():])]


def clauses(question: str, vocab: Vocabulary) -> list[str]:
    """The question cut at the starts of new clauses, never inside a name of this match."""
    names = [(m.start, m.end) for m in find_mentions(question, vocab)]
    cuts, last = [], 0
    for m in _SPLIT.finditer(question):
        if any(start < m.end() and m.start() < end for start, end in names):
            continue
        piece = question[last:m.start()].strip(" ,;")
        if piece:
            cuts.append(piece)
        last = m.end()
    tail = question[last:].strip(" ,;")
    if tail:
        cuts.append(tail)
    if not any(start < end for start, end in names if _AND_THE.search(question, start, end)):
        cuts = [part for cut in cuts for part in _after_a_winner(cut) if part]
    return cuts[:MAX_PARTS] if len(cuts) > 1 else [question]


PlanFn = Callable[[str, tuple[str, ...]], QueryPlan]


def _already_answered(plan: QueryPlan, first: QueryPlan) -> bool:
    """A clause that asks only for a figure the first clause's answer already gives, for no one in particular, or
    for the same list ("who was on order? names and gods": the roster already names them)."""
    if plan.intent == Intent.EVENT_LIST and first.intent == Intent.EVENT_LIST and plan.metrics == first.metrics \
            and not plan.filters and plan.window is None:
        return True
    return (plan.intent == Intent.LOOKUP and not plan.filters and not plan.group_by and plan.window is None
            and bool(plan.metrics) and set(plan.metrics) <= set(first.metrics) and first.intent == Intent.RANKING)


def _subset(head: str, piece: str, first: QueryPlan, plan_one: PlanFn) -> QueryPlan | None:
    """"how many of those weren't to players" after a count: the first clause with the property said after it, or
    None when the clause is no such subset or the property adds nothing the plan can apply."""
    m = _OF_THOSE.match(piece)
    if m is None or not piece[m.end():].strip(" ?.!"):
        return None
    plan = plan_one(f"{head} {piece[m.end():]}", ())
    if plan.intent == Intent.REFUSE or plan.filters == first.filters or plan.caveats:
        return None
    return plan


def _of_one(first: QueryPlan, piece: str) -> bool:
    """"how many times did X die and who killed him": a bare "who" about the first clause's one player, whose count
    named no cause, asks who did it to that player (a question of its own), not who the first clause counted."""
    players = {v for f in first.filters if f.dimension == "player" and f.op == "=" for v in f.values}
    return bool(_PERSON.search(piece)) and len(players) == 1 and complement(first.filters) is None


def _rest(piece: str, first: QueryPlan, summarize: Callable[[QueryPlan], str]) -> QueryPlan | None:
    """"... how many by gods and how many by the rest": the first clause's count with its cause turned
    around, or None when the clause asks for no rest or the first clause counted by no cause."""
    if REST.search(piece) is None or first.parts or first.then is not None:
        return None
    filters = complement(first.filters)
    if filters is None:
        return None
    plan = first.model_copy(update={"question": piece, "filters": filters})
    return plan.model_copy(update={"summary": summarize(plan)})


def _of_first_player(piece: str, first: QueryPlan, alone: QueryPlan, vocab: Vocabulary, plan_one: PlanFn) -> QueryPlan:
    """A clause that lists figures for no one after a clause about one player is about that player: "was Brisk fed?
    kills, gold and gpm" asks for Brisk's kills, gold and gpm, not the match's."""
    players = [f for f in first.focus if f in vocab.player_names]
    if len(players) != 1 or len(first.focus) != 1 or alone.intent not in (Intent.LOOKUP, Intent.RANKING) \
            or alone.filters or alone.group_by or alone.window is not None or find_mentions(piece, vocab):
        return alone
    return plan_one(f"{players[0]}'s {piece}", ())


def plan_parts(question: str, vocab: Vocabulary, plan_one: PlanFn, dependent: Callable[[QueryPlan, str], QueryPlan | None],
               summarize: Callable[[QueryPlan], str] = lambda plan: plan.summary) -> QueryPlan | None:
    """The plan of a multi-part question, or None when it is one question. `plan_one(text, previous)` plans
    a clause (as a follow-up of `previous`); `dependent(first, clause)` plans a clause about the leader of
    `first`, or returns None when `first` has no leader."""
    pieces = clauses(question, vocab)
    if len(pieces) < 2:
        return None
    first = plan_one(pieces[0], ())
    if first.intent == Intent.REFUSE:
        return None
    parts: list[QueryPlan] = []
    head = first
    for piece in pieces[1:]:
        rest = _rest(piece, first, summarize)
        if rest is not None:
            parts.append(rest)
            continue
        subset = _subset(pieces[0], piece, first, plan_one)
        if subset is not None:
            parts.append(subset)
            continue
        if _POINTS_BACK.search(piece) and not _PERSON.search(piece) or _BARE_WHO.match(piece) and not _of_one(first, piece):
            return None  # "... and how much damage did each do", "... and who": one question
        if _PERSON.search(piece) or BARE_WHEN.match(piece):
            step = dependent(head, piece)
            if step is None:
                return None
            if step.then is None:
                # the pronoun was the first clause's one player: a question of its own, answered after the first
                parts.append(step)
                continue
            head = step
            continue
        alone = _of_first_player(piece, first, plan_one(piece, ()), vocab, plan_one)
        if _already_answered(alone, first):
            continue  # "the richest player on each team and how much gold": the leaders' gold is in the answer
        if alone.intent == Intent.REFUSE or any(a.startswith("no figure named") for a in alone.assumptions):
            followed = plan_one(piece, (pieces[0],))
            if followed.intent == Intent.REFUSE or followed.summary == first.summary:
                return None  # "... and when": the first clause already answers it
            parts.append(followed)
            continue
        parts.append(alone)
    if not parts and head is first:
        return None
    plan = head.model_copy(update={"question": question, "parts": tuple(p.model_copy(update={"question": p.question})
                                                                        for p in parts)})
    return plan
