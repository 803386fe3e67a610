"""The one way figures are written, in every answer and every report (METRICS.md, "Numbers in answers").

- numbers: thousands separators; sums and counts whole, ratios with up to two decimals
  (`number(192395.0)` -> "192,395", `number(2.3333, 2)` -> "2.33", `number(2.5, 2)` -> "2.5");
- the match clock, minutes and seconds from the match start (`clock(163)` -> "2:43");
- plurals (`plural("ability")` -> "abilities", `singular("abilities")` -> "ability") and counts
  (`count(1, "kill")` -> "1 kill", `count(2, "match")` -> "2 matches"; `counted(1, "items purchased")` ->
  "1 item purchased", for a figure's plural label);
- sentences: `sentence("team 2 took it")` -> "Team 2 took it." (a capital first, one full stop; a sentence
  that starts with a name keeps its spelling and only gets `full_stop`);
- possessives (`possessive("Brisk")` -> "Brisk's", `possessive("the 10 players", plural=True)` -> "the 10 players'");
- percentages and shares, with up to two decimals as METRICS.md asks of ratios (`percent(47.461)` -> "47.46%",
  `share(47.461, "team 1's kills")` -> "47.46% of team 1's kills"; `rate(0.475)` -> "47.5%" for a fraction);
- a missing value is `MISSING`, whatever it stands for.

Imports nothing of the project: every layer may use it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypeGuard

MISSING = "n/a"


def is_number(value: Any) -> TypeGuard[int | float]:
    """An int or a float (a bool is not a figure)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def number(value: Any, decimals: int = 0) -> str:
    """A figure with thousands separators: rounded to a whole number for `decimals` 0, else with up to
    `decimals` (at most two) decimals and no trailing zeros. Anything that is not a number is shown as it is."""
    if value is None:
        return MISSING
    if not is_number(value):
        return str(value)
    if decimals <= 0:
        return f"{round(value):,}"
    text = f"{value:,.{min(decimals, 2)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent(value: float | None) -> str:
    """A percentage with up to two decimals: 47.461 -> '47.46%', 50.0 -> '50%'. A part too small to show is said
    to be so, never "0%", which would read as nothing (4 of 1,217,020 is 'under 0.01%')."""
    if value is None:
        return MISSING
    if abs(value) < 0.005:
        # a part too small to show; a change that rounds to nothing has no sign ("-0.004%" read as a loss)
        return "under 0.01%" if value > 0 else "0%"
    return f"{number(value, 2)}%"


def rate(fraction: float | None) -> str:
    """A fraction as a percentage: 0.47461 -> '47.46%'."""
    return percent(None if fraction is None else 100 * fraction)


def share(value: float | None, of: str) -> str:
    """A percentage of a whole, named: share(47.461, "team 1's kills") -> "47.46% of team 1's kills"."""
    return f"{percent(value)} of {of}"


# Columns that hold a second of the match: people read them as m:ss, machines (CSV, --json) keep the seconds.
MATCH_SECOND_COLUMNS = {"match_second": "time", "start_second": "start", "end_second": "end", "second": "time",
                        "duration_s": "duration"}


def clock(seconds: Any) -> str:
    """A match second on the match clock: 163 -> '2:43'."""
    if not is_number(seconds):
        return MISSING
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def plural(word: str) -> str:
    """The plural of a noun: "ability" -> "abilities", "match" -> "matches", "kill" -> "kills"."""
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def count(n: int, word: str) -> str:
    """A count and its noun: count(1, "kill") -> "1 kill", count(1234, "match") -> "1,234 matches"."""
    return f"{number(n)} {word if n == 1 else plural(word)}"


def singular(word: str) -> str:
    """The singular of a plural noun: "abilities" -> "ability", "matches" -> "match", "kills" -> "kill"."""
    if word.endswith("ies") and len(word) > 3:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes", "sses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def counted(n: int, plural_phrase: str) -> str:
    """A count and a figure's plural label, its noun made singular for one: counted(1, "critical hits") ->
    "1 critical hit", counted(1, "items purchased") -> "1 item purchased", counted(3, "kills") -> "3 kills".
    The noun is the label's last word ending in s ("Gold Fury kills", "items purchased")."""
    if n != 1:
        return f"{number(n)} {plural_phrase}"
    words = plural_phrase.split(" ")
    at = next((i for i in range(len(words) - 1, -1, -1) if words[i].endswith("s")), None)
    if at is not None:
        words[at] = singular(words[at])
    return f"{number(n)} {' '.join(words)}"


def capital(text: str) -> str:
    """The text with its first letter upper case (the rest as it is)."""
    return text[:1].upper() + text[1:]


def opening(subject: str) -> str:
    """A subject at a sentence's start: capitalised after an article or as a side ("The Support players", "Team 2"); a
    player's name exactly as the log spells it.

    >>> opening("team 2"), opening("the Jungle players"), opening("zoe.rush")
    ('Team 2', 'The Jungle players', 'zoe.rush')
    """
    return capital(subject) if subject.startswith(("the ", "team ")) else subject


def full_stop(text: str) -> str:
    """The text ending in one full stop (or the question or exclamation mark it has)."""
    text = text.strip()
    return text + ("" if not text or text.endswith((".", "?", "!")) else ".")


def join_and(items: Sequence[str], word: str = "and") -> str:
    """"A", "A and B", "A, B and C"; "" for none; join_and(["A", "B"], "or") -> "A or B"."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1] if items else ""


def names_of(items: Sequence[str], most: int = 3) -> str:
    """A few names, then how many more: names_of(["A", "B", "C", "D", "E"]) -> "A, B, C and 2 more";
    names_of(["A", "B"]) -> "A and B"."""
    items = list(items)
    return join_and(items) if len(items) <= most else join_and([*items[:most], f"{len(items) - most} more"])


def ordinal(n: int) -> str:
    """A place in words up to tenth, then with its suffix.

    >>> ordinal(2), ordinal(3), ordinal(11), ordinal(22)
    ('second', 'third', '11th', '22nd')
    """
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    if 1 <= n <= len(words):
        return words[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def with_article(figure: str) -> str:
    """A figure as written, with "a" or "an" as it is said aloud: "an" before eight, eleven and eighteen (and their
    thousands), "a" before the rest.

    >>> with_article("85.7%"), with_article("18%"), with_article("11,000"), with_article("110%"), with_article("50%")
    ('an 85.7%', 'an 18%', 'an 11,000', 'a 110%', 'a 50%')
    """
    lead = re.split(r"[,.%\s]", figure.lstrip(), maxsplit=1)[0]
    said_with_a_vowel = lead.startswith("8") or lead in ("11", "18")
    return f"{'an' if said_with_a_vowel else 'a'} {figure}"


def times(n: int) -> str:
    """How often: times(1) -> "once", times(3) -> "3 times"."""
    return "once" if n == 1 else count(n, "time")


def sentence(text: str) -> str:
    """A sentence that does not start with a name: a capital first and one full stop at the end."""
    return capital(full_stop(text))


def possessive(owner: str, plural: bool = False) -> str:
    """"Brisk's", "team 2's", "the match's"; a plural ending in s takes the apostrophe alone
    (`possessive("the 10 players", plural=True)` -> "the 10 players'")."""
    return owner + "'" if plural and owner.endswith("s") else owner + "'s"
