"""Non-players that took objectives: the last hit on a tower, phoenix, titan or boss dealt by a minion (the lane's
waves, or a minion by the name the log gives it: Archer, Swordsman, Brute, Champion Swordsman and their Fire
variants), a jungle camp or a boss. METRICS.md: an objective's killing blow may come from a minion, and then the side
opposing the structure's owner took it.

    read_takers(r, vocab) -> Takers | None

They are said as the ones doing the taking ("did the minions finish a tower", "which minion types got the last hit on
a phoenix", "did any archers last hit a tower"), after "by" ("towers killed by brutes", "objectives last hit by the
wave") or after falling ("structures that fell to minion last hits"). `Takers.filter` is the one filter on the
objective's killer: by name when names were said, else by kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from combat_analysis.catalog.kinds import entity_kind
from combat_analysis.contracts.plan import Filter
from combat_analysis.planner.read.names import fold
from combat_analysis.planner.read.reading import OBJECTIVE_METRICS, Reading
from combat_analysis.planner.vocabulary import Vocabulary

# A minion by the name the log gives it, as people type it: "archers", "the swordsmen", "champion swordsman",
# "fire brutes"
_MINION_NAME = r"(?:(?:fire|champion)\s+){0,2}(?:archers?|swordsm[ae]n|brutes?)"
_KINDS = {"minion": rf"{_MINION_NAME}|(?:lane\s+)?minions?|creeps?|(?:minion\s+)?waves?",
          "jungle": r"jungle\s+(?:camps?|monsters?|creeps?|mobs?)|camps?|monsters?|mobs?"}
_KIND = "|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _KINDS.items())
# Taking an objective, the verb or the noun: "finished", "took down", "secured", "got the last hit", "last hits"
_TAKING = (r"(?:finish\w*|took|take[ns]?|taking|secur\w*|got|get|gets|getting|last[\s-]*hit\w*|(?:killing|final|"
           r"finishing)\s+blows?|destroy\w*|kill(?:s|ed)?|br[eo]k\w*|knock\w*|claim\w*|drop(?:ped)?|land\w*)")
_SUBJECT = re.compile(rf"\b(?:{_KIND})(?:\s+(?:kinds?|types?|sorts?))?\s+(?:that\s+|which\s+|who\s+|ever\s+|even\s+|"
                      rf"actually\s+|did\s+|have\s+|had\s+)?{_TAKING}\b")
_ARTICLES = r"(?:(?:the|a|an|any|some|enemy|their|our|lane)\s+)*"
_AFTER_BY = re.compile(rf"\bby\s+{_ARTICLES}(?:{_KIND})\b")
# fell to (lost to, went down to) a minion's last hit
_AFTER_FALLING = re.compile(rf"\b(?:fell|fall|falls|fallen|lost|went\s+down|go(?:es)?\s+down|dropped|died)\s+to\s+"
                            rf"{_ARTICLES}(?:{_KIND})\b")
_OBJECTIVE = re.compile(r"\b(?:objectives?|towers?|turrets?|phoenix(?:es)?|titans?|structures?|buildings?|"
                        r"gold\s+fur(?:y|ies)|fire\s+giants?|bosses|boss)\b")
_TAKEN = re.compile(rf"\b{_TAKING}\b|\b(?:fell|fall|falls|fallen|went\s+down|taken)\b")
# players who died are no objectives: "how many players were killed by minions near a tower"
_PEOPLE = re.compile(r"\b(?:players?|people|anyone|anybody|someone|somebody|gods?|deaths?|died|dies?|dying|name)\b")
# a hit is the taking only when it is the last one
_LAST_HIT = re.compile(r"\blast[\s-]*hit\w*|\b(?:killing|final|finishing)\s+blows?\b")
_KILLED = re.compile(r"\bkill(?:s|ed|ing)?\b")


@dataclass(frozen=True)
class Takers:
    """The non-players said to have taken objectives: whole kinds, or non-players of the match by name."""

    kinds: tuple[str, ...]
    names: tuple[str, ...]
    said: tuple[str, ...]  # the words that name them, so an objective said inside them is no objective asked about

    @property
    def filter(self) -> Filter:
        if self.names:
            return Filter(dimension="source", op="in" if len(self.names) > 1 else "=", values=self.names)
        return Filter(dimension="source_kind", op="in" if len(self.kinds) > 1 else "=", values=self.kinds)


def _singular(word: str) -> str:
    return re.sub(r"men$", "man", word) if word.endswith("men") else re.sub(r"s$", "", word)


def _minions_named(said: str, vocab: Vocabulary) -> tuple[str, ...]:
    """The minions of this match whose names hold every word said ("archers": Archer and Fire Archer); the name as
    the log would give it when the match has none (so none of them took anything)."""
    words = [_singular(w) for w in said.split()]
    found = tuple(sorted(n for n in vocab.npcs if entity_kind(n, ()) == "minion"
                         and all(w in fold(n).split() for w in words)))
    return found or (" ".join(w.capitalize() for w in words),)


def _one(m: re.Match[str], vocab: Vocabulary) -> tuple[str | None, tuple[str, ...]]:
    """(kind, names) of one killer said."""
    said = fold(m.group("minion") or m.group("jungle") or "")
    if re.fullmatch(_MINION_NAME, said):
        return None, _minions_named(said, vocab)
    return ("minion" if m.group("minion") else "jungle"), ()


def _by_qualifiers(r: Reading, vocab: Vocabulary) -> Takers | None:
    """A boss or a non-player of this match by name after "by" or "from" ("taken by the Fire Giant"), as the
    qualifiers read it."""
    by = [q for q in r.qualifiers if q.preposition in ("by", "from")]
    named = tuple(q.name for q in by if q.name and q.name in vocab.npcs)
    kinds = tuple(dict.fromkeys(q.kind for q in by if q.kind in ("minion", "jungle", "boss") and not q.name))
    if not (named or kinds):
        return None
    return Takers(kinds=() if named else kinds, names=named, said=tuple(q.said for q in by))


def _allowed(r: Reading) -> bool:
    """The figures the words of taking may have been read as: an objective count, or, for a last hit, hits or damage
    ("last hit" is no hit landed), and for a kill, deaths or kills (the killed one is the objective)."""
    extra = set(r.metrics) - OBJECTIVE_METRICS - {"objective_events"}
    if _LAST_HIT.search(r.text):
        extra -= {"hits", "damage_dealt", "damage_to_structures", "damage_to_bosses"}
    if _KILLED.search(r.text):
        extra -= {"deaths", "kills"}
    return not extra


def read_takers(r: Reading, vocab: Vocabulary) -> Takers | None:
    """The non-players a question says took objectives, or None when it says none did."""
    text = r.text
    if not _OBJECTIVE.search(text) or not _TAKEN.search(text) or not _allowed(r):
        return None
    found = [m for m in _SUBJECT.finditer(text)]
    if not _PEOPLE.search(text):
        found += [*_AFTER_BY.finditer(text), *_AFTER_FALLING.finditer(text)]
    # the objective is said outside the words that name who took it
    found = [m for m in found if _OBJECTIVE.search(text[:m.start()] + " " + text[m.end():])]
    if not found:
        return _by_qualifiers(r, vocab) if set(r.metrics) <= OBJECTIVE_METRICS and r.metrics else None
    kinds: list[str] = []
    names: list[str] = []
    for m in found:
        kind, named = _one(m, vocab)
        names += named
        kinds += [kind] if kind else []
    if names and kinds:
        return None  # a kind and a name side by side: not one filter on the killer
    return Takers(kinds=tuple(dict.fromkeys(kinds)), names=tuple(dict.fromkeys(names)),
                  said=tuple(m.group(0) for m in found))
