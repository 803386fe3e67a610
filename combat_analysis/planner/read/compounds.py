"""Compounds: two words said as one, read as the phrase they make.

- **Closed compounds.** A word the planner does not know that is two known words run together, whose phrase is a
  figure phrase of the catalog (a label or a synonym of two words: "kill count", "damage dealt", "gold lead"), is
  read as that phrase, and the reading is said ("'killcount' read as 'kill count'"). The split is found, never
  listed: every cut of the word is tried, and only one that makes a known figure phrase is taken (two such cuts
  leave the word alone, as a guess would). A plural ending after the second word is kept ("healingreceived").
- **A non-player kind before deaths.** "Tower deaths", "minion deaths", "boss deaths", "jungle deaths", "titan
  deaths": a noun compound of a non-player kind (METRICS.md's towers, phoenixes, Titans, minions, jungle camps,
  bosses, the Fire Giant and the Gold Fury, structures) and deaths is the players' deaths dealt by that kind, read
  as "deaths to <kind>" and said so; never the objectives of that kind taken, and "jungle" there is the camps, not
  the Jungle role. "Player deaths" are the players' deaths, and "npc deaths" or "pve deaths" (every non-player) are
  read by the causes reader as they are.

Both run on normalized text with names masked (`reading.read_question`), so a player whose name looks like a
compound is never split; the cross-match planner adds the season's figure phrases ("win rate") to the catalog's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from combat_analysis.catalog import METRICS
from combat_analysis.planner.read.words import known_words, stems

_SHORTEST = 5  # a shorter word is no two words of a figure phrase ("kd" and "xp" are words of their own)


@lru_cache(maxsize=1)
def figure_phrases() -> frozenset[str]:
    """The catalog's figure phrases of two words: every metric's label and its strong and noted synonyms, with
    "dmg" for "damage" as players write it."""
    phrases: set[str] = set()
    for m in METRICS.values():
        for phrase in (m.label, *m.synonyms, *m.noted_synonyms):
            words = re.findall(r"[a-z]+", phrase.lower())
            if len(words) == 2 and all(len(w) >= 2 for w in words):
                phrases.add(" ".join(words))
    return frozenset(phrases | {p.replace("damage", "dmg") for p in phrases if "damage" in p})


def _known(word: str) -> bool:
    known = known_words()
    return any(form in known for form in stems(word))


def joined(word: str, phrases: Iterable[str] | None = None) -> str | None:
    """The figure phrase an unknown `word` runs together ("winrate" -> "win rate" when "win rate" is among
    `phrases`), else None; `phrases` default to the catalog's (`figure_phrases`)."""
    if len(word) < _SHORTEST or not word.isalpha() or _known(word):
        return None
    known = frozenset(phrases) if phrases is not None else figure_phrases()
    found = set()
    for cut in range(2, len(word) - 1):
        left, right = word[:cut], word[cut:]
        for ending in ("", "s", "es"):
            if right.endswith(ending) and f"{left} {right[:len(right) - len(ending)]}" in known:
                found.add(f"{left} {right}")
    return found.pop() if len(found) == 1 else None


def split_joined(text: str, phrases: Iterable[str] | None = None,
                 keep: Sequence[tuple[int, int]] = ()) -> tuple[str, tuple[str, ...]]:
    """`text` with its closed compounds written as their phrases, and a note for each; words inside the spans of
    `keep` (names found in the text) stay as typed."""
    known = frozenset(phrases) if phrases is not None else figure_phrases()
    notes: list[str] = []

    def split(found: re.Match) -> str:
        if any(start < found.end() and found.start() < end for start, end in keep):
            return found.group(0)
        phrase = joined(found.group(0).lower(), known)
        if phrase is None:
            return found.group(0)
        notes.append(f"'{found.group(0)}' read as '{phrase}'")
        return phrase

    return re.sub(r"(?<![\w'])[A-Za-z]+(?![\w'])", split, text), tuple(dict.fromkeys(notes))


# The non-player kinds, as said before "deaths", and the words the cause readers know them by.
_KINDS = {"tower": "towers", "towers": "towers", "phoenix": "phoenixes", "phoenixes": "phoenixes", "titan": "titans",
          "titans": "titans", "minion": "minions", "minions": "minions", "creep": "minions", "creeps": "minions",
          "jungle": "jungle camps", "camp": "jungle camps", "camps": "jungle camps", "jungle camp": "jungle camps",
          "jungle camps": "jungle camps", "jungle monster": "jungle camps", "jungle monsters": "jungle camps",
          "monster": "jungle camps", "monsters": "jungle camps", "boss": "bosses", "bosses": "bosses",
          "fire giant": "the fire giant", "giant": "the fire giant", "gold fury": "the gold fury", "fury": "the gold fury",
          "structure": "structures", "structures": "structures", "building": "structures", "buildings": "structures"}
_KIND_DEATHS = re.compile(r"(?<![\w'])(?:(?P<side>order|chaos)(?:'s)?\s+)?(?P<kind>"
                          + "|".join(k.replace(" ", r"\s+") for k in sorted(_KINDS, key=len, reverse=True))
                          + r")\s+deaths\b")


def kind_deaths(text: str) -> tuple[str, tuple[str, ...]]:
    """`text` with each "<kind> deaths" as "deaths to <kind>" (the module docstring), and a note for each."""
    notes: list[str] = []

    def spelled(found: re.Match) -> str:
        kind = _KINDS[" ".join(found.group("kind").split())]
        side = found.group("side")
        if side:  # "order tower deaths": the deaths to order's towers
            kind = re.sub(r"^(?:the\s+)?", f"{side} ", kind)
        said = f"deaths to {kind}"
        notes.append(f"'{' '.join(found.group(0).split())}' read as {said}")
        return said

    return _KIND_DEATHS.sub(spelled, text), tuple(dict.fromkeys(notes))


def read(text: str) -> tuple[str, tuple[str, ...]]:
    """Both readings on normalized text with names masked: closed compounds, then a kind before deaths."""
    text, split = split_joined(text)
    text, deaths = kind_deaths(text)
    return text, (*split, *deaths)
