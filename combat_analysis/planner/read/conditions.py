"""Conditions on a figure's value: "players with more than 10 kills", "at least 5 assists", "20 or more".

`read_condition` finds one and what it compares with; `faithful.check` applies it to a plan that has one figure
per player, team, role or god (`QueryPlan.condition`), and says so in the answer where it cannot. A number of
minutes or seconds is a time window, not a condition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from combat_analysis.contracts.plan import ValueCondition
from combat_analysis.planner.read.words import COUNT_WORDS, ROLE_WORDS

# Numbers said in words count too: "at least one crit", "more than two deaths", "a single kill"
NUMBER_WORDS = {"zero": 0, "one": 1, "a single": 1, "single": 1, **COUNT_WORDS}
_WORDS = "|".join(w.replace(" ", r"\s+") for w in sorted(NUMBER_WORDS, key=len, reverse=True))
# How many times, said in one word: "died more than twice" is more than 2 times, the figure the verb before names
TIMES_WORDS = {"once": 1, "twice": 2, "thrice": 3}
_SAID_NUMBERS = {**NUMBER_WORDS, **TIMES_WORDS}
# "300k": thousands, as players write them
_NUM = (rf"\d[\d,]*(?:\.\d+)?(?:k(?![a-z]))?|(?:{_WORDS})(?=\s+[a-z])(?!\s+of\b)"
        rf"|(?:{'|'.join(TIMES_WORDS)})\b")
_NOT_TIME = r"(?!\s*(?:minutes?|mins?|seconds?|secs?|s|m)\b)"
# the number of a side is no threshold: "than team 2 or more" compares with team 2
_NO_SIDE = r"(?<!team\s)(?<!side\s)"
_ABOVE = r"more|greater|higher|bigger|larger"
_BELOW = r"fewer|less|lower|smaller"
THRESHOLD = re.compile(
    rf"\b(?P<word>(?:{_ABOVE}|{_BELOW})\s+than|at\s+least|at\s+most|no\s+more\s+than|no\s+less\s+than|"
    rf"no\s+fewer\s+than|over|under|above|below|exceeding|beyond)\s+(?P<n0>{_NUM})\b{_NOT_TIME}"
    # the figure may come between: "10 kills or more"
    rf"|{_NO_SIDE}\b(?P<n1>{_NUM}){_NOT_TIME}(?:\s+(?!or\b)[a-z']+){{0,2}}?\s+or\s+(?P<after>more|fewer|less|greater|higher|lower|above|below)\b"
    rf"|{_NO_SIDE}\b(?P<n2>{_NUM})\+\s*(?=[a-z])")

Op = Literal[">", ">=", "<", "<="]
_OPS: dict[str, Op] = {"at least": ">=", "no less than": ">=", "no fewer than": ">=", "at most": "<=", "no more than": "<=",
        "over": ">", "above": ">", "exceeding": ">", "beyond": ">", "under": "<", "below": "<"}


# "players without a kill", "who had zero deaths", "with no assists", "who didn't get a kill": none at all, if a
# figure follows
_NEGATED = r"(?:did\s*n[o']?t|not|never|ha(?:s|ve|d)\s*n[o']?t)"
_GETS = r"(?:get|got|have|had|score|scored|land|landed|deal|dealt|make|made|take|took|earn|earned|record|recorded)"
NONE_AT_ALL = re.compile(r"\b(?:without\s+(?:a\s+|any\s+|an\s+)?|with\s+(?:no|zero|0)\s+|(?:had|got|get|gets|has|have|scored|landed|land|lands|dealt|made|took|earned|recorded|did|do|does|done)\s+"
                         rf"(?:(?:literally|exactly|basically|actually|just|absolutely)\s+)?(?:no|zero|0)\s+|zero\s+|{_NEGATED}\s+{_GETS}\s+(?:a\s+single\s+|a\s+|an\s+|any\s+)?)(?=[a-z])")


# A yes or no about anybody doing a thing at all: "did anyone buy X", "has anybody healed" keep the players with any
# of the figure named right after (a superlative or a number of its own said later wins: see `read_condition`)
ANY_AT_ALL = re.compile(r"^\s*(?:so\s+|and\s+|ok\s+)?(?:did|has|have|had)\s+(?:any\s?one|any\s?body|any\s+(?:player|of\s+(?:them|"
                        r"the\s+players))|some\s?one|some\s?body)\s+(?:(?:ever|even|actually)\s+)?(?=[a-z])")
# Who did a thing at all, asked of everyone: "which players got kills", "what gods had assists", "who got any kills"
_WHICH_DID = re.compile(r"^\s*(?:so\s+|and\s+|ok\s+)?(?:(?:which|what)\s+(?:players?|people|gods?|guys|ones|champs?)|"
                        r"who(?=\s+\w+\s+any\b))\s+(?:(?:ever|even|actually)\s+)?"
                        # a verb of getting a figure, never an auxiliary ("what gods has X played") nor a negation
                        r"(?=(?:got|get|had|scored|landed|made|earned|dealt)\b(?!\s+(?:not|never|no|zero|0)\b))")
ANY_SAID = "any ..."
# "how many players", "how many of the gods", "how many supports", "how many ppl on chaos": people counted
COUNTED_PEOPLE = re.compile(r"\bhow\s+many\s+(?:of\s+(?:the\s+|our\s+|their\s+)?)?(?:(?:enemy|enemies|opposing|"
                            r"order|chaos|team\s*[12])(?:'s)?\s+)?(?:players|gods|people|persons|guys|ppl|heroes|"
                            r"champions|characters|members|us|them|" + "|".join(
                                sorted({w if w.endswith("s") else (w[:-1] + "ies" if w.endswith("y") else w + "s")
                                        for w in ROLE_WORDS if w != "top"}, key=len, reverse=True)) + r")\b")
# "how many players bought X", "how many supports died to towers": the people with any of the figure their verb
# names, counted (a number of its own, "how many players died more than twice", is read first)
# an auxiliary may come first: "how many people have bought X", "how many of them had ever died"
_HOW_MANY_DID = re.compile(COUNTED_PEOPLE.pattern + r"\s+(?:(?:have|has|had|ever|even|actually)\s+)*(?=(?:got|had|scored|landed|"
                           r"made|earned|dealt|bought|purchased|built|died|healed|took|received|killed)\b"
                           r"(?!\s+(?:not|never|no|zero|0)\b))")
# "how many people died in total" counts the deaths, not the people
_IN_TOTAL = re.compile(r"\b(?:in\s+total|total|altogether|combined|in\s+all|all\s+told)\b")
_SUPERLATIVE_AFTER = re.compile(r"\b(?:most|least|fewest|top|highest|lowest|biggest|more|less|fewer|higher|lower|"
                                r"best|worst|than|out\w+)\b")


# Words that are a condition and its figure in one: "did anyone go deathless", "who never died"
NO_DEATHS = re.compile(r"\b(?:deathless|never\s+died|never\s+dying|did\s*n[o']?t\s+die|without\s+(?:a\s+)?(?:single\s+)?"
                       r"death|without\s+dying\s+once|zero\s+deaths|no\s+deaths)\b")


@dataclass(frozen=True)
class Condition:
    condition: ValueCondition | None  # None: a condition this module cannot state (a percentage)
    said: str  # the words of the condition without their number, for an answer that must not invent digits
    end: int  # where it ends in the text: the figure it compares is named after it
    start: int = 0
    figure: str | None = None  # the figure, when the words name it themselves ("deathless": deaths)
    needs_figure: bool = False  # "without ...": a condition only when a figure is named right after it


def read_condition(text: str, asked: str = "") -> Condition | None:
    """The first condition on a value in `text` (normalized, lower case), or None. `asked` is the question as asked,
    with the words the reading set aside ("in total")."""
    m = THRESHOLD.search(text)
    if m is None and (none := NO_DEATHS.search(text)):
        return Condition(ValueCondition(op="<=", value=0), " ".join(none.group(0).split()), none.end(), none.start(),
                         figure="deaths")
    if m is None:
        none = NONE_AT_ALL.search(text)
        if none is None:
            return _any_at_all(text, asked)
        return Condition(ValueCondition(op="<=", value=0), " ".join(none.group(0).split()) + " ...", none.end(),
                         none.start(), needs_figure=True)
    number = _value(next(m.group(g) for g in ("n0", "n1", "n2") if m.group(g)))
    said = " ".join(re.sub(rf"\d[\d,.]*k?\+?|\b(?:{_WORDS})\b", " ", m.group(0)).split()) or "a limit"
    said = "... or more" if m.group("n2") else f"... {said}" if m.group(0)[0].isdigit() else f"{said} ..."
    percent = text[m.end():].lstrip().startswith(("%", "percent"))
    return Condition(None if percent else ValueCondition(op=_op(m), value=number), said, m.end(), m.start())


def _any_at_all(text: str, asked: str = "") -> Condition | None:
    """"did anyone buy X", "which players got kills", "how many players bought X": the players with any of the figure,
    unless the question then asks for a leader."""
    some = ANY_AT_ALL.match(text) or _WHICH_DID.match(text) or (
        None if _IN_TOTAL.search(asked.lower()) else _HOW_MANY_DID.search(text))
    if some is None or _SUPERLATIVE_AFTER.search(text, some.end()):
        return None
    # the figure may come from a verb ("did anyone pick up X": its purchases), so none need be named right after
    return Condition(ValueCondition(op=">", value=0), ANY_SAID, some.end(), some.start())


def _value(said: str) -> float:
    """The number a condition says: "10", "1,500", "300k" (300,000)."""
    said = " ".join(said.split())
    if said in _SAID_NUMBERS:
        return float(_SAID_NUMBERS[said])
    said = said.replace(",", "")
    return float(said.rstrip("k")) * (1_000 if said.endswith("k") else 1)


def _op(m: re.Match) -> Op:
    if m.group("word"):
        word = " ".join(m.group("word").split())
        if word.endswith(" than") and word not in _OPS:
            return ">" if word.split()[0] in _ABOVE.split("|") else "<"
        return _OPS[word]
    if m.group("after"):
        return ">=" if m.group("after") in ("more", "greater", "higher", "above") else "<="
    return ">="  # "10+ kills"


def none_at_all(condition: ValueCondition) -> bool:
    """Whether the condition keeps only the rows with none of the figure ("without a kill", "who didn't get a kill")."""
    return condition.op == "<=" and condition.value == 0


def any_at_all(condition: ValueCondition) -> bool:
    """Whether the condition keeps only the rows with any of the figure ("did anyone buy X")."""
    return condition.op == ">" and condition.value == 0


def describe(condition: ValueCondition) -> str:
    """'more than 10', 'at least 5', in words (the number is the question's own)."""
    if none_at_all(condition):
        return "zero"
    if any_at_all(condition):
        return "any"
    words = {">": "more than", ">=": "at least", "<": "less than", "<=": "at most"}[condition.op]
    return f"{words} {condition.value:,g}"
