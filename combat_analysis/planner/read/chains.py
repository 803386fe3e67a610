"""Kill chains defined in the question: "N kills by one player, each within S seconds of the one before".

The log and METRICS.md define no multi-kill, so a chain is answered only when the question says what it is: a number
of kills (a count before "kills", or a multi-kill word: double 2, triple 3, quadra 4, penta 5, multi at least 2) and a
number of seconds said as closeness. `read_chain` reads both, and which reading the seconds have:

- the chain reading: "each within S s of the one before / of the previous (kill) / of the last", "no more than S s
  apart", "S s between kills", "gaps of S s": every kill within S seconds of the kill before it;
- the window reading: "within S seconds", "in S s", "inside S secs", "of each other": all within S seconds of the
  chain's first kill.

A death of the killer between two kills ends the chain unless the question says it need not ("even if he died",
"deaths allowed", "dying doesn't matter", "regardless of deaths"); "without dying" says the rule itself. `rest` is the
question without the chain's words, for the other readers (names, sides, roles, gods, the shape).
A question with a multi-kill word but no seconds is no chain: it is refused, saying how to ask (`refusals`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from combat_analysis.contracts.plan import KillChain
from combat_analysis.planner.read.words import COUNT_WORDS

_NUMBER_WORDS = {**COUNT_WORDS, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "a": 1, "one": 1}
_NUM = r"(\d{1,4}|" + "|".join(sorted((w for w in _NUMBER_WORDS if w != "a"), key=len, reverse=True)) + r")"
_MULTI_N = {"double": 2, "triple": 3, "quadra": 4, "quad": 4, "quadruple": 4, "penta": 5, "multi": 2}
# a multi-kill word: "triple kill", "penta", "quadrakills", "multi-kills", "double-kill chains"
MULTI_WORD = re.compile(r"\b(double|triple|quadruple|quadra|quad|penta|multi)[\s-]?kills?\b|\b(penta|quadra)s?\b",
                        re.IGNORECASE)
# "3 kills", "three player kills", "3+ kills", "a 4-kill chain", "chains of 3 or more kills", "at least 3 kills"
_KILLS = re.compile(r"\b(?:at\s+least\s+|min(?:imum)?\s+(?:of\s+)?|(more\s+than\s+|over\s+))?" + _NUM +
                    r"(?:\s*\+|\s+or\s+more)?[\s-]+(?:player\s+|enemy\s+|god\s+)?(?:kills?|frags?|takedowns?)\b"
                    r"(?:\s+or\s+more)?", re.IGNORECASE)
_SEC = r"(?:seconds?|secs?|s)\b"
# the seconds said as closeness between one kill and the one before it: the chain reading
_GAP = re.compile(
    r"\b(?:each|every\s+(?:one|kill)|every|one\s+after\s+another)?\s*(?:kill\s+)?(?:within|in|inside|under|less\s+than|"
    r"no\s+more\s+than|at\s+most|max(?:imum)?\s+(?:of\s+)?)?\s*" + _NUM + r"\s*" + _SEC +
    r"\s*(?:or\s+(?:less|fewer|under)\s+)?(?:of|after|from)\s+(?:the\s+)?(?:one|kill|frag)\s+before(?:\s+it)?"
    r"|\b(?:within|in|inside|under|less\s+than|no\s+more\s+than|at\s+most)?\s*" + _NUM + r"\s*" + _SEC +
    r"\s*(?:or\s+(?:less|fewer|under)\s+)?(?:of|after|from)\s+(?:the\s+)?(?:previous|prior|preceding|last|one\s+before|kill\s+before)(?:\s+(?:one|kill|frag))?"
    r"|\b(?:no\s+more\s+than|at\s+most|within|under|less\s+than)?\s*" + _NUM + r"\s*" + _SEC + r"\s*apart\b"
    r"|\b(?:gaps?|breaks?|pauses?)\s+(?:of\s+)?(?:no\s+more\s+than\s+|at\s+most\s+|under\s+|less\s+than\s+)?" + _NUM +
    r"\s*" + _SEC +
    r"|\b(?:no\s+more\s+than|at\s+most|within|under|less\s+than)?\s*" + _NUM + r"\s*" + _SEC +
    r"\s*(?:or\s+less\s+)?between\s+(?:each\s+|the\s+|consecutive\s+)?(?:kills?|frags?|them|each)\b",
    re.IGNORECASE)
# the seconds said as a span the whole chain fits in: the window reading ("of each other": every kill close to every other)
_SPAN = re.compile(r"(?<!first\s)(?<!last\s)\b(?:within|in|inside|under|less\s+than|no\s+more\s+than|at\s+most|over|"
                   r"across|during)\s+(?:a\s+(?:span|window|period)\s+of\s+|the\s+(?:same\s+)?(?:span\s+of\s+)?)?"
                   + _NUM + r"\s*" + _SEC + r"(?:\s+of\s+each\s+other)?(?:\s+(?:span|window))?"
                   r"|\b" + _NUM + r"\s*" + _SEC + r"\s+of\s+each\s+other\b"
                   r"|\b" + _NUM + r"[\s-]*(?:second|sec|s)\s+(?:span|window)\b", re.IGNORECASE)
# a death of the killer in between need not end the chain
_DEATHS_ALLOWED = re.compile(
    r"\beven\s+(?:if|when|though)\s+(?:he|she|they|the\s+killer|it|you)?\s*(?:\w+\s+)?(?:died|dies|die|was\s+killed)\b"
    r"|\b(?:deaths?|dying)\s+(?:in\s+between\s+|between\s+)?(?:is\s+|are\s+)?(?:allowed|included|ok|okay|fine|permitted|counted|"
    r"count)\b"
    r"|\b(?:deaths?|dying)\s+(?:in\s+between\s+|between\s+)?(?:doesn'?t|don'?t|does\s+not|do\s+not|won'?t|will\s+not)\s+"
    r"(?:matter|count|break|reset|end|stop)\b"
    r"|\b(?:regardless|irrespective)\s+of\s+(?:any\s+)?(?:deaths?|dying)\b"
    r"|\bwhether\s+or\s+not\s+(?:he|she|they|the\s+killer)\s+died\b|\bwhether\s+(?:he|she|they)\s+died\s+or\s+not\b"
    r"|\b(?:with|despite|including)\s+(?:a\s+|any\s+)?(?:deaths?|dying)\s+(?:in\s+between|between)\b"
    r"|\b(?:ignor(?:e|ing)|not\s+counting)\s+(?:any\s+)?(?:deaths?|dying)\b", re.IGNORECASE)
# "without dying", "no deaths in between": the rule itself, said
_DEATHS_BREAK = re.compile(r"\bwithout\s+(?:dying|a\s+death|deaths?|being\s+killed|getting\s+killed)(?:\s+in\s+between)?\b"
                           r"|\bno\s+deaths?\s+(?:in\s+between|between)\b"
                           r"|\b(?:deaths?|dying)\s+(?:(?:in\s+)?between\s+)?(?:breaks?|resets?|ends?|stops?)\s+"
                           r"(?:it|the\s+chain|them|a\s+chain|the\s+count|the\s+streak)\b"
                           r"|\bbefore\s+(?:dying|being\s+killed)\b|\bin\s+(?:one|a\s+single|the\s+same)\s+life\b",
                           re.IGNORECASE)


@dataclass(frozen=True)
class ChainReading:
    chain: KillChain
    rest: str  # the question without the chain's words
    said: tuple[str, ...]  # the words read as the chain, as the question wrote them
    multi: str | None  # the multi-kill word, if one was said ("triple kill")


def _number(text: str) -> int:
    text = text.lower()
    return int(text) if text.isdigit() else _NUMBER_WORDS[text]


def _multi_kills(found: re.Match | None) -> int | None:
    if found is None:
        return None
    word = (found.group(1) or found.group(2) or "").lower()
    return _MULTI_N.get(word)


# words of a chain of kills with no multi-kill word: "kill chains", "of the one before"
_CHAIN_WORD = re.compile(r"\bkill[\s-]*chains?\b|\bchains?\s+of\b|\b\w+[\s-]kill\s+(?:chains?|bursts?|sprees?)\b"
                         r"|\b(?:of|after)\s+the\s+(?:one|kill)\s+before\b|\bof\s+the\s+previous\s+kill\b",
                         re.IGNORECASE)


def has_multi_word(text: str) -> bool:
    """Whether the question names a multi-kill ("triple kill", "pentas", "multikills") or a chain of kills ("kill
    chains", "each within ... of the one before")."""
    return MULTI_WORD.search(text) is not None or _CHAIN_WORD.search(text) is not None


# A span said in minutes ("within a minute", "in 2 mins", "half a minute"), never a minute of the match ("the first
# minute", "minute 5") nor a rate ("kills a minute", which no closeness word comes before)
_MINUTES = re.compile(r"(?<!first\s)(?<!last\s)(?<!\bper\s)\b(?P<n>\d{1,2}(?:\.5)?|a|an|one|two|three|half\s+a)\s*"
                      r"(?:minutes?|mins?)\b", re.IGNORECASE)
_MINUTE_WORDS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0}


def _in_seconds(text: str) -> str:
    """The text with a span in minutes said in seconds, for the chain's readers."""
    def seconds(m: re.Match) -> str:
        n = m.group("n").lower()
        minutes = 0.5 if n.startswith("half") else _MINUTE_WORDS.get(n) or float(n)
        return f"{round(minutes * 60)} seconds"
    return _MINUTES.sub(seconds, text)


def read_chain(text: str) -> ChainReading | None:
    """The kill chain the question defines, or None when it defines none (no count of kills, or no seconds)."""
    text = _in_seconds(text)
    gap, span = _GAP.search(text), _SPAN.search(text)
    closeness = gap or span
    if closeness is None:
        return None
    seconds = _number(next(g for g in closeness.groups() if g))
    multi = MULTI_WORD.search(text)
    kills = _KILLS.search(text)
    # "more than 3 kills" is at least 4
    count = _number(kills.group(2)) + (1 if kills.group(1) else 0) if kills else _multi_kills(multi)
    if count is None or count < 2 or seconds < 1:
        return None
    deaths_break = not _DEATHS_ALLOWED.search(text)
    chain = KillChain(kills=min(count, 50), seconds=min(seconds, 3600), reading="gap" if gap else "window",
                      deaths_break=deaths_break)
    cut = _merged([m.span() for m in (closeness, kills, multi, _DEATHS_ALLOWED.search(text),
                                      _DEATHS_BREAK.search(text)) if m])
    rest = text
    for start, end in reversed(cut):
        rest = rest[:start] + " " + rest[end:]
    said = tuple(text[start:end].strip() for start, end in cut)
    return ChainReading(chain=chain, rest=re.sub(r"\s+", " ", rest).strip(), said=said,
                        multi=multi.group(0) if multi else None)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of text, overlapping ones joined, in order."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
