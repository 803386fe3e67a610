"""Exclusions: "top 5 damage dealers excluding supports", "every player except Brisk", "team 1 other than the jungler".

The entity readers find the supports, Brisk or the jungler wherever they are named, so without this the plan
would be about exactly what the question leaves out. An entity named after an exclusion word turns its
filter around (`!=`: every value but these), which composes with every intent the compiler knows.
"""

from __future__ import annotations

import re

from combat_analysis.contracts.plan import Filter, Intent, QueryPlan
from combat_analysis.planner.plans.cues import OBJECTIVE_VALUES
from combat_analysis.planner.plans.refusals import refuse
from combat_analysis.planner.read.names import find_roles, find_teams, fold
from combat_analysis.planner.read.reading import Reading
from combat_analysis.planner.vocabulary import Vocabulary

# The excluded words run to the end of their clause: a comma, a question word, or a time or order phrase.
CUE = re.compile(r"\b(?:excluding|exclude|except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|not\s+counting|"
                 r"not\s+including|leaving\s+out|leave\s+out|ignoring|ignore|minus|but\s+not|besides|outside\s+of)\s+"
                 r"(?P<what>.+?)"
                 # a question word ends them, contracted too ("besides autos, whats X's ...")
                 r"(?=[,;?!]|\s+(?:and\s+)?(?:(?:who|which|what|wat|how)(?:['’]?s|['’]?re)?|in|during|over|after|before|by|per|"
                 r"for)\b|$)")


# "leaving autos aside", "setting the towers aside", "leave X out": the thing left out said inside the phrase
_SET_ASIDE = re.compile(r"\b(?:leaving|leave|setting|set)\s+(?P<what>(?:(?!\b(?:aside|out|apart)\b)[^,;?!.])+?)"
                        r"\s+(?:aside|out|apart)\b", re.IGNORECASE)


def _folded(question: str) -> str:
    return set_aside(fold(question))


def set_aside(question: str) -> str:
    """The question with a thing set aside said as `CUE` reads it: "leaving autos aside, ..." -> "leaving out autos,
    ..."."""
    return _SET_ASIDE.sub(lambda m: f"leaving out {m.group('what')}", question)


# "damage (not just to gods)", "deaths, not only to players": what is said "not just" is a part of what is asked, so
# the whole is asked and the part said adds nothing; "not just X but Y" names the parts and is left alone
_NOT_ONLY = re.compile(r"(?:,\s*)?\b(?:and\s+|but\s+)?not\s+(?:just|only|merely|simply|solely)\s+(?P<what>(?:(?!\bbut\b)[^,;?!.()\[\]])+?)"
                       r"(?=\s*(?:[,;?!.)\]]|$))", re.IGNORECASE)


def not_only(question: str) -> str:
    """The question without a part it says is "not just" what is asked: "total damage (everything, not just to
    gods)" -> "total damage (everything)"."""
    return _NOT_ONLY.sub("", question)


def cue_words(question: str) -> set[str]:
    """The words that say "leave out" in the question ("apart", "from")."""
    folded = _folded(question)
    return {w for m in CUE.finditer(folded) for w in folded[m.start():m.start("what")].split()}


# Kinds of abilities a question can leave out: basic attacks, and the item effects the log names like abilities
_BASIC = re.compile(r"\b(?:autos?|auto\s*attacks?|basic\s+attacks?|basics?|aa)\b")
_ITEM_EFFECTS = re.compile(r"\b(?:item\s+)?procs?\b|\bitems?(?:\s+(?:effects?|damage|actives?|passives?))?\b|\brelics?\b")


# "no autos", "without item procs", "w/o basics": a kind of ability left out by a bare negation, which leaves out
# nothing else (so "no kills" or "no supports" stay what the other readers make of them)
_NO_KIND = re.compile(r"(?:^|(?<=[\s(\[,;/]))(?:no|without|w/o|wo|sans|minus|excl\.?|ex)\s+(?:the\s+|any\s+)?"
                      r"(?P<what>(?:basic\s+attacks?|basics|auto\s*attacks?|autos?|aa|item\s+(?:procs?|effects?|"
                      r"actives?|passives?)|procs?|relics?))\b")
# "the top ability that isn't a basic attack", "which are not autos", "non-basic-attack abilities": a kind of ability
# negated where it is named
# (said with an owner too: "his most used ability that isn't his auto", "which wasn't one of her basics")
_OWNER = r"(?:an?|the|his|her|their|its|my|your|one\s+of\s+(?:his|her|their|the|my|your))\s+"
_NOT_A_KIND = re.compile(r"\b(?:(?:that|which|thats|that's|whichs)\s+)?(?:isn'?t|is\s+not|aren'?t|are\s+not|wasn'?t|was\s+not|"
                         r"weren'?t|were\s+not|ain'?t|(?<=that)'?s\s+not|not|non)[\s-]+"
                         rf"(?:{_OWNER}|from\s+(?:{_OWNER})?)?"
                         r"(?P<what>(?:basic[\s-]+attacks?|basics?|auto[\s-]*attacks?|autos?|aa|item\s+(?:procs?|effects?|"
                         r"actives?|passives?)|procs?|relics?|items?))\b")
# "the best actual ability", "real abilities only": a god's own abilities, neither basic attacks nor item effects
_OWN_ABILITIES = re.compile(r"\b(?:actual|real|true|proper|genuine|pure|own)\s+(?:god\s+)?(?:abilit(?:y|ies)|skills?|spells?)\b"
                            r"|\b(?:abilit(?:y|ies)|skills?|spells?)\s+only\b|\bonly\s+(?:the\s+)?(?:abilit(?:y|ies)|skills?|spells?)\b")


def _kinds_left_out(folded: str) -> list[str]:
    """What each exclusion leaves out, as the text that names it."""
    return [*(m.group("what") for m in CUE.finditer(folded)), *(m.group("what") for m in _NO_KIND.finditer(folded)),
            *(m.group("what") for m in _NOT_A_KIND.finditer(folded)),
            *("basic attacks and item procs" for _ in _OWN_ABILITIES.finditer(folded))]


def left_out_abilities(question: str, vocab: Vocabulary) -> tuple[str, ...]:
    """The abilities a question leaves out by kind: "not counting autos", "no autos" (every '<god> Basic Attack'),
    "besides item procs" (the abilities that are items of this match), "actual abilities" (both)."""
    out: list[str] = []
    for what in (w.replace("-", " ") for w in _kinds_left_out(_folded(question))):
        if _BASIC.search(what):
            out += [a for a in vocab.abilities if a.lower().endswith("basic attack")]
        if _ITEM_EFFECTS.search(what):
            out += list(vocab.item_effects)
    return tuple(dict.fromkeys(out))


def left_out_players(question: str, players: tuple[str, ...]) -> set[str]:
    """The players of `players` named after an exclusion word ("other than LunaSol, who ..."): no subject of the
    question, which ranks everyone else."""
    whats = [m.group("what") for m in CUE.finditer(_folded(question))]
    return {p for p in players if any(re.search(rf"(?<!\w){re.escape(fold(p))}(?!\w)", what) for what in whats)}


def excluded(question: str, r: Reading, vocab: Vocabulary) -> set[tuple[str, str | int]]:
    """(dimension, value) of every entity the question names after an exclusion word."""
    out: set[tuple[str, str | int]] = set()
    for m in CUE.finditer(_folded(question)):
        what = m.group("what")
        roles = {mention.role for mention in find_roles(what, vocab.roles)}
        teams = {mention.team for mention in find_teams(what, vocab.winner_team) if mention.team}
        out |= {("role", role) for role in roles} | {("team", team) for team in teams}
        # a side's role ("not counting the order jungler") is that side's one player, read as the player
        out |= {("player", p.player) for team in teams for role in roles for p in vocab.players_where(team=team, role=role)}
        out |= {("player", p) for p in r.players if re.search(rf"(?<!\w){re.escape(fold(p))}(?!\w)", what)}
        gods = {g for g in r.gods if re.search(rf"(?<!\w){re.escape(fold(g))}(?!\w)", what)}
        out |= {("god", g) for g in gods}
        # a god named for its one player ("everyone except the Loki"): that player is left out
        out |= {("player", p.player) for g in gods for p in vocab.players_where(god=g)}
        # a kind of objective: "objectives the minions took, besides the titan"
        out |= {("objective", value) for value, pattern in OBJECTIVE_VALUES if re.search(rf"\b{pattern}\b", what)}
    return out


def _turned(step: QueryPlan, names: set[tuple[str, str | int]]) -> QueryPlan:
    filters = tuple(Filter(dimension=f.dimension, op="!=", values=f.values)
                    if f.op != "!=" and all((f.dimension, v) in names for v in f.values) else f
                    for f in step.filters)
    if filters == step.filters:
        return step
    gone = {str(v).lower() for _, v in names} | {f"team {v}" for d, v in names if d == "team"}
    focus = tuple(f for f in step.focus if f.lower() not in gone)
    then = _turned(step.then, names) if step.then is not None else None
    return step.model_copy(update={"filters": filters, "focus": focus, "then": then})


def apply(plan: QueryPlan, r: Reading, vocab: Vocabulary) -> QueryPlan:
    """The plan with the filters of excluded entities turned into exclusions, saying so in its assumptions."""
    if plan.intent == Intent.REFUSE or not CUE.search(_folded(plan.question)):
        return plan
    names = excluded(plan.question, r, vocab)
    if not names:
        if plan.window is not None or plan.windows:
            # "except in the first 10 minutes": the reader took the window the question leaves out
            return refuse(plan.question, vocab, "A part of the match cannot be left out of a figure; ask for the "
                          "part you want instead (after a minute, or between two minutes).", plan.assumptions)
        return plan
    turned = _turned(plan, names)
    if turned is plan:
        return plan
    said = ", ".join(sorted(f"team {v}" if d == "team" else f"the {v} players" if d == "role" else str(v)
                            for d, v in names))
    return turned.model_copy(update={
        "parts": tuple(_turned(p, names) for p in plan.parts),
        "assumptions": (*plan.assumptions, f"{said} left out, as asked")})
