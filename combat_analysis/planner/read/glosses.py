"""A bracket that only spells out what the word before it already covers: "damage to bosses (gold fury + giant)",
"structures (towers, phoenixes, titans)", "camps (e.g. harpies)". It asks nothing new, so it is cut before the slot
readers run; read as names, its members would become the question's subject ("fire giant kills" for "who hit the
bosses hardest").

A bracket that says anything else stays: fewer members than the word covers ("structures (towers + phoenixes)"
leaves the Titans out), a turn ("(not players)"), a wider kind ("(npcs)"), a figure or a window.

>>> without_glosses("which of them hurt the bosses (gold fury, fire giant) most")
'which of them hurt the bosses most'
>>> without_glosses("structures (towers + phoenixes) destroyed")
'structures (towers + phoenixes) destroyed'
>>> without_glosses("deaths to towers or phoenixes (not players)")
'deaths to towers or phoenixes (not players)'
"""

from __future__ import annotations

import re

from combat_analysis.catalog.kinds import BOSS, STRUCTURE, entity_kind
from combat_analysis.planner.plans.cues import BOSS_OBJECTIVES, STRUCTURE_OBJECTIVES
from combat_analysis.planner.read.words import NPC_KIND_WORDS

# A word for a kind of non-player, then a bracket
_GLOSSED = re.compile(r"\b(?P<kind>bosses|boss|structures?|buildings?|objectives?|minions?|creeps?|(?:jungle\s+)?camps?|"
                      r"monsters?|mobs?|non[\s-]?(?:players?|gods?)|npcs|pve)\s*(?P<bracket>\((?P<gloss>[^()]{1,80})\))",
                      re.IGNORECASE)
# What separates the members a gloss lists
_SEPARATORS = re.compile(r"\s*(?:/|,|&|\+|\band\b|\bor\b|\bplus\b)\s*", re.IGNORECASE)
# A gloss that gives examples ("e.g. harpies") narrows nothing, however few it names
_EXAMPLES = re.compile(r"^(?:e\.?\s?g\.?|like|such\s+as|incl\.?|including)\s+", re.IGNORECASE)
# ... or ends saying there are more: "(minions, camps, towers etc)"
_AND_MORE = re.compile(r"\s*,?\s*(?:etc\.?|and\s+so\s+on|and\s+(?:the\s+)?(?:like|rest|more))\s*$", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
# The members a word covers whole, by the kinds of objective (METRICS.md: entity kinds)
_WHOLE = {"structure": set(STRUCTURE_OBJECTIVES), "boss": set(BOSS_OBJECTIVES),
          "objective": {*STRUCTURE_OBJECTIVES, *BOSS_OBJECTIVES}}


def _kind_of(word: str) -> str:
    word = word.lower()
    if word.startswith(("objective", "building")):
        return "objective" if word.startswith("objective") else "structure"
    return "boss" if word.startswith("boss") else "structure" if word.startswith("structure") else "other"


def _objectives(member: str) -> set[str]:
    """The kinds of objective a member names: "towers" -> {tower}, "bosses" -> {gold fury, fire giant}."""
    found = {m.group(0).lower() for m in STRUCTURE.finditer(member)} | {m.group(0).lower() for m in BOSS.finditer(member)}
    return _WHOLE["boss"] if re.search(r"\bboss", member, re.IGNORECASE) else found


def _glosses(kind_word: str, gloss: str) -> bool:
    more = _AND_MORE.search(gloss)
    gloss = gloss[:more.start()] if more else gloss
    lead = _EXAMPLES.match(gloss)
    examples = bool(lead or more)
    members = [_ARTICLE.sub("", w) for w in _SEPARATORS.split(gloss[lead.end():] if lead else gloss) if w]
    if not members or not all(entity_kind(w, ()) != "unknown" or re.search(r"\bboss", w, re.IGNORECASE)
                              or w.lower() in NPC_KIND_WORDS for w in members):
        return False
    whole = _WHOLE.get(_kind_of(kind_word))
    return examples or whole is not None and set().union(*(_objectives(w) for w in members)) >= whole


def without_glosses(text: str) -> str:
    """`text` with every bracket cut that only lists what the word for a kind of non-player before it covers."""
    for m in reversed(list(_GLOSSED.finditer(text))):
        if _glosses(m.group("kind"), m.group("gloss").strip()):
            start, end = m.span("bracket")
            text = (text[:start].rstrip() + " " + text[end:].lstrip()).strip()
    return text
