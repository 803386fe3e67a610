"""Time phrases -> `TimeWindow`s in match seconds, exactly as ../shared/METRICS.md defines them.

| phrase | window |
|---|---|
| first N minutes | [0, 60N) |
| last N minutes | [duration - 60N, duration] (resolved at compile time via `from_end_s`) |
| after minute N / after N minutes / N min+ / N+ mins / N minutes and later | >= 60N |
| before minute N / by minute N | < 60N |
| between minute A and B | [60A, 60B) |
| during minute N | [60N, 60N+60) |
| at minute N | < 60(N+1), i.e. up to the end of minute N |
| early / mid / late game | [0, 600) / [600, 1200) / >= 1200 |
| at the end, whole match | no window |
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from combat_analysis.contracts.plan import TimeWindow
from combat_analysis.formatting import clock

_WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "twenty-five": 25, "twenty five": 25,
    "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60,
}
_NUM = r"(\d{1,4}(?:\.\d+)?|twenty[- ]five|forty[- ]five|" + "|".join(
    sorted((w for w in _WORD_NUMBERS if " " not in w and "-" not in w), key=len, reverse=True)) + r")"
# a point on the match clock ("7:59") or a number of minutes: either end of a window said with both ends
_CLOCK_OR_NUM = r"(\d{1,3}:[0-5]\d|" + _NUM[1:]
_MIN = r"(?:minutes?|mins?|m)\b"
_SEC = r"(?:seconds?|secs?|s)\b"
_UNIT = r"(minutes?|mins?|m|seconds?|secs?|s)\b"
_ORD = r"(?:st|nd|rd|th)?"
# A number that counts players or events is no time: "by one player", "after two deaths", "before 3 kills"
_NOT_COUNTED = (r"(?![\d.])(?!\s*(?:single\s+|lone\s+)?(?:players?|persons?|people|gods?|teams?|guys?|champions?|"
                r"heroes|hero|members?|kills?|deaths?|hits?|times?|assists?|towers?|objectives?|items?|buys?|purchases?|things?)\b)")


def _number(text: str) -> float:
    if re.match(r"\d", text):
        return float(text)
    return float(_WORD_NUMBERS[re.sub(r"[\s-]+", "-", text.lower())])


def _seconds(amount: str, unit: str | None) -> int:
    value = _number(amount)
    per = 1 if unit and unit.startswith("s") else 60
    return int(round(value * per))


def _point(said: str, unit: str | None) -> tuple[int, bool]:
    """(match second, said as a clock) of one end of a window: "7:59" is second 479, "15" is minute 15."""
    if ":" in said:
        minutes, seconds = said.split(":")
        return 60 * int(minutes) + int(seconds), True
    return _seconds(said, unit), False


def clock_span(start: str, end: str, unit: str | None) -> TimeWindow:
    """A window with both ends, either said on the match clock: "from 7:00 to 7:59", "between 12:30 and 15".

    A minute number is a minute boundary, so the window stops before it (METRICS.md: between minute A and B). A
    clock end with its seconds ("7:59") names the window's last second, which is then included; "15:00" is a
    boundary like "15"."""
    a, _ = _point(start, unit)
    b, b_clock = _point(end, unit)
    a, b = min(a, b), max(a, b)
    if b_clock and b % 60:
        return TimeWindow(label=f"from {clock(a)} through {clock(b)}", start_s=a, end_s=b + 1)
    return TimeWindow(label=f"from {clock(a)} up to {clock(b)}", start_s=a, end_s=b)


def _fmt(seconds: int) -> str:
    return f"minute {seconds // 60}" if seconds % 60 == 0 else f"second {seconds}"


def _minutes(seconds: int) -> str:
    if seconds % 60:
        return f"{seconds} seconds"
    n = seconds // 60
    return "minute" if n == 1 else f"{n} minutes"


@dataclass(frozen=True)
class TimeParse:
    window: TimeWindow | None
    rest: str  # the text with the time phrase removed
    assumption: str | None = None
    whole_match: bool = False  # the question said so explicitly ("at the end", "whole match")
    at_minute: int | None = None  # "at minute N": for per-minute series, that minute


APPROXIMATE_S = 120  # "around minute 19": from 17:00 up to 21:00


class _AroundMatch:
    """The approximate rule's match with its point in group 1 (a clock) or group 2 (minutes), whichever was said."""

    def __init__(self, m: re.Match) -> None:
        self._m = m

    def group(self, i: int) -> str | None:
        if i == 0:
            return self._m.group(0)
        clocked = self._m.group(1)
        minutes = self._m.group(2) or self._m.group(3)
        return clocked if i == 1 else (None if clocked else minutes)


def _rules():
    # (pattern, builder(match) -> (window, assumption, at_minute)); the first rule that matches wins.
    def first(m):
        s = _seconds(m.group(1), m.group(2))
        return TimeWindow(label=f"first {_minutes(s)}", start_s=0, end_s=s), None, None

    def first_unsaid(m):
        # "in the first 10," with no unit: a window of the match is in minutes (a count has its noun after it)
        s = _seconds(m.group(1), None)
        return (TimeWindow(label=f"first {_minutes(s)}", start_s=0, end_s=s),
                f"'{m.group(0).strip()}' read as the first {_minutes(s)}", None)

    def last(m):
        s = _seconds(m.group(1), m.group(2))
        return TimeWindow(label=f"last {_minutes(s)}", from_end_s=s), None, None

    def between(m):
        unit = m.group(3)
        a, b = sorted((_seconds(m.group(1), unit), _seconds(m.group(2), unit)))
        return TimeWindow(label=f"between {_fmt(a)} and {_fmt(b)}", start_s=a, end_s=b), None, None

    def clocked(m):
        return clock_span(m.group(1), m.group(2), None), None, None

    def clock_after(m):
        s, _ = _point(m.group(1), None)
        return TimeWindow(label=f"from {clock(s)} on", start_s=s), None, None

    def clock_before(m):
        s, _ = _point(m.group(1), None)
        return TimeWindow(label=f"before {clock(s)}", end_s=s), None, None

    def after(m):
        s = _seconds(m.group(1), m.group(2))
        return TimeWindow(label=f"after {_fmt(s)}", start_s=s), None, None

    def before(m):
        s = _seconds(m.group(1), m.group(2))
        return TimeWindow(label=f"before {_fmt(s)}", end_s=s), None, None

    def during(m):
        n = int(_number(m.group(1)))
        return TimeWindow(label=f"during minute {n}", start_s=60 * n, end_s=60 * n + 60), None, n

    def at(m):
        n = int(_number(m.group(1)))
        return (TimeWindow(label=f"up to the end of minute {n}", end_s=60 * (n + 1)),
                f"'{m.group(0).strip()}' read as everything up to the end of minute {n}", n)

    def at_mark(m):
        # "the 15-minute mark" is match second 900: everything up to the end of minute 14 (METRICS.md)
        n = int(_number(m.group(1)))
        return (TimeWindow(label=f"the first {_minutes(60 * n)}", start_s=0, end_s=60 * n),
                f"'{m.group(0).strip()}' read as everything before minute {n}", max(n - 1, 0))

    def around(m):
        # a time said loosely: two minutes either side of it, so the event meant is in the window with its exact time
        point, _ = _point(m.group(1), None) if m.group(1) else _point(m.group(2), "m")
        start = max(point - APPROXIMATE_S, 0)
        return (TimeWindow(label=f"from {clock(start)} up to {clock(point + APPROXIMATE_S)} (around {clock(point)})",
                           start_s=start, end_s=point + APPROXIMATE_S),
                f"'{m.group(0).strip()}' read as {clock(start)} up to {clock(point + APPROXIMATE_S)}", None)

    def phase(start, end, label):
        return lambda m: (TimeWindow(label=label, start_s=start, end_s=end), None, None)

    return [
        (rf"\b(?:at\s+|by\s+|in\s+)?(?<!\bwhat\s)(?<!\bhow\s)(?:around|about|near|nearly|approximately|approx\.?|roughly|circa|~)\s*(?:the\s+)?"
         rf"(?:(\d{{1,3}}:[0-5]\d)(?:\s*mark)?|(?:minute\s+|min\s+){_NUM}\b|{_NUM}{_ORD}[\s-]*(?:{_MIN}(?:\s*mark)?|mark))",
         lambda m: around(_AroundMatch(m))),
        (rf"\b(?:in\s+|during\s+|over\s+|for\s+)?(?:the\s+)?(?:first|opening|initial)\s+{_NUM}\s*{_UNIT}", first),
        (rf"\b(?:in|during|within)\s+(?:the\s+)?(?:first|opening)\s+{_NUM}(?=\s*(?:[,?.!;]|$|and\b|of\s+the\s+(?:match|game)\b))",
         first_unsaid),
        (r"\b(?:in\s+|during\s+)?(?:the\s+)?(?:first|opening)\s+(minute)()\b", lambda m: (
            TimeWindow(label="first minute", start_s=0, end_s=60), None, None)),
        (r"\b(?:in\s+|during\s+)?(?:the\s+)?(?:last|final)\s+(minute)()\b", lambda m: (
            TimeWindow(label="last minute", from_end_s=60), None, None)),
        (rf"\b(?:in\s+|during\s+|over\s+|for\s+)?(?:the\s+)?(?:last|final|closing)\s+{_NUM}\s*{_UNIT}", last),
        (rf"\b(?:in\s+the\s+)?(?:between|from)\s+(?:minute\s+|min\s+|the\s+)?(?=[^?!;]*?\d:[0-5]\d)"
         rf"{_CLOCK_OR_NUM}(?:\s*{_MIN})?\s*(?:and|to|until|till|through|-)\s*(?:minute\s+|min\s+|the\s+)?{_CLOCK_OR_NUM}"
         rf"(?:\s*{_MIN})?", clocked),
        (rf"\b(?:in\s+the\s+)?(?:between|from)\s+(?:minutes?\s+|min\s+|the\s+)?{_NUM}{_ORD}\s*(?:{_MIN}\s*)?(?:and|to|until|till|-)\s*(?:minute\s+|min\s+|the\s+)?{_NUM}{_ORD}\s*(?:{_UNIT})?", between),
        (rf"\bminutes?\s+{_NUM}\s*(?:-|to|through|until)\s*{_NUM}\b()", between),
        (rf"\b{_NUM}\s*(?:-|to)\s*{_NUM}\s*({_MIN})", between),
        (r"\b(?:only\s+)?(?:after|past|since|beyond|from|following)\s+(?:the\s+)?(\d{1,3}:[0-5]\d)(?:\s*mark)?(?:\s+onwards?)?",
         clock_after),
        (r"\b(?:only\s+)?(?:before|until|till|up\s+to|prior\s+to|by)\s+(?:the\s+)?(\d{1,3}:[0-5]\d)(?:\s*mark)?", clock_before),
        (rf"\b(?:only\s+)?(?:after|past|since|beyond|from|following)\s+(?:the\s+)?(?:minute\s+|min\s+)?{_NUM}{_ORD}(?:\s*{_UNIT}(?:\s*mark)?|\s*mark|{_NOT_COUNTED})(?:\s+onwards?)?", after),
        (rf"\b(?:only\s+)?(?:before|until|till|up\s+to|prior\s+to|by)\s+(?:the\s+)?(?:minute\s+|min\s+)?{_NUM}{_ORD}(?:\s*{_UNIT}(?:\s*mark)?|\s*mark|{_NOT_COUNTED})", before),
        # minutes written short with a "+" or "and later": "20 min+", "15+ mins", "25 minutes and later" are after
        (rf"\b(?:(?:at|from|after)\s+)?(?:the\s+)?{_NUM}\s*\+\s*{_UNIT}(?:\s*mark)?", after),
        (rf"\b(?:(?:at|from|after)\s+)?(?:the\s+)?{_NUM}{_ORD}\s*{_UNIT}(?:\s*mark)?\s*(?:\+|(?:and|or)\s+(?:later|after|"
         rf"beyond|up|over|on)\b|onwards?\b)", after),
        (rf"\b(?:during|in|within)\s+(?:the\s+)?(?:minute|min\.?)\s+{_NUM}\b", during),
        (rf"\b(?:at|as\s+of)\s+(?:the\s+)?(?:end\s+of\s+)?(?:minute|min\.?)\s+{_NUM}\b", at),
        # a whole minute on the clock is its mark: "at 10:00", "as of the 15:00 mark"
        (r"\b(?:at|as\s+of)\s+(?:the\s+)?(\d{1,3}):00\b(?:\s*mark)?", at_mark),
        (rf"\b(?:at|as\s+of)\s+(?:the\s+)?{_NUM}{_ORD}?[\s-]*{_MIN}(?:\s*mark)?", at_mark),
        # a time into the match said as players do: "15 minutes in", "10 mins into the game", "in 20 min", and a
        # bare "20 min" ending the question: what there was at that mark (never dropped unread); a length compared
        # ("more than 30 minutes", "lasted 30 min") is no mark
        (rf"\b{_NUM}{_ORD}?[\s-]*(?:minutes?|mins?)\s+(?:in\b(?!\s+(?:total|a\s+row))|into\s+(?:the\s+)?(?:match|game)\b)",
         at_mark),
        (rf"\b(?:with)?in\s+(?:the\s+)?{_NUM}[\s-]*(?:minutes?|mins?)\b(?!\s+(?:or|of|and|to|-))", at_mark),
        (rf"(?<!\bthan\s)(?<!\bover\s)(?<!\bunder\s)(?<!\bleast\s)(?<!\bmost\s)(?<!\blast\s)(?<!\blasted\s)"
         rf"(?<!\bfor\s)(?<!\bevery\s)(?<!\bper\s)(?<!\beach\s)(?<!\bwas\s)(?<!\bit\s)(?<!\bmatch,\s)(?<!\bgame,\s)"
         rf"(?<![\d:])\b{_NUM}[\s-]*(?:minutes?|mins?)\s*[?.!]*\s*$", at_mark),
        (r"\b(?:in\s+|during\s+)?(?:the\s+)?early[\s-]*game\b|\bearly\s+on\b|\b(?:the\s+)?laning\s+phase\b", phase(0, 600, "early game")),
        (r"\b(?:in\s+|during\s+)?(?:the\s+)?mid[\s-]*game\b", phase(600, 1200, "mid game")),
        (r"\b(?:in\s+|during\s+)?(?:the\s+)?(?:late[\s-]*game|end[\s-]*game)\b", phase(1200, None, "late game")),
        # the phase said as an adverb ending its clause, or "in the game": "did he die a lot early?", "who scaled
        # late", "early in the match"; "how early" asks for a time, not a window
        (rf"{_NOT_HOW}\bearly(?:\s+in\s+the\s+(?:match|game))?{_CLAUSE_END}|\bearly\s+in\s+the\s+(?:match|game)\b",
         phase(0, 600, "early game")),
        (rf"{_NOT_HOW}\blate(?:\s+in\s+the\s+(?:match|game))?{_CLAUSE_END}|\blate\s+in\s+the\s+(?:match|game)\b",
         phase(1200, None, "late game")),
    ]


# "of late" is lately, no phase of a match
_NOT_HOW = r"(?<!\bhow\s)(?<!\btoo\s)(?<!\bso\s)(?<!\bas\s)(?<!\bof\s)"
# ... or followed by the side it is asked of ("who popped off late for chaos", "early on the order side")
_CLAUSE_END = r"(?=\s*(?:[?.!,;]|$|\b(?:and|or|but|too|lol|tho|though|vs)\b)" \
    r"|\s+(?:for|on|of)\s+(?:the\s+)?(?:order|chaos|team\s*(?:1|2|one|two)|both\s+(?:teams|sides)|each\s+(?:team|side))\b)"
_COMPILED = [(re.compile(p, re.IGNORECASE), build) for p, build in _rules()]
_WHOLE = re.compile(r"\b(?:at|by)\s+the\s+end(?:\s+of\s+the\s+(?:match|game))?\b|\b(?:in\s+)?(?:the\s+)?(?:whole|entire|full)\s+(?:match|game)\b|\boverall\b|\bin\s+total\b", re.IGNORECASE)


def parse_time(text: str) -> TimeParse:
    for pattern, build in _COMPILED:
        m = pattern.search(text)
        if m:
            window, assumption, at_minute = build(m)
            rest = (text[:m.start()] + " " + text[m.end():]).strip()
            return TimeParse(window, rest, assumption, at_minute=at_minute)
    return _whole(text)


def _whole(text: str) -> TimeParse:
    m = _WHOLE.search(text)
    if m:
        said = m.group(0).strip()
        # "his overall damage": said before a figure, the whole of it, as "total" says ("dmg to gods vs overall dmg")
        whole = " total " if said.lower() == "overall" and re.match(r"\s+(?!and\b|or\b|vs\b)[a-z]", text[m.end():]) else " "
        rest = (text[:m.start()] + whole + text[m.end():]).strip()
        note = None if said.lower() in ("in total", "overall") else f"'{said}' read as the whole match"
        return TimeParse(None, rest, note, whole_match=True)
    return TimeParse(None, text)


# ------------------------------------------------------------------------------------ several windows

_PHASES = {"early": (0, 600, "early game"), "mid": (600, 1200, "mid game"), "late": (1200, None, "late game")}
_PHASE_WORD = r"(?:the\s+)?(early|mid|late)(?:[\s-]*game)?"
_JOIN = r"\s*(?:,|and|vs\.?|versus|against|compared\s+(?:to|with)|to|or|&|then|with)\s*(?:in\s+)?"
_PHASE_LIST = re.compile(rf"\b{_PHASE_WORD}(?:{_JOIN}{_PHASE_WORD})+\b(?:[\s-]*game)?", re.IGNORECASE)
# a time preposition just before "the first 10"
_TIME_PREPOSITION = re.compile(r"\b(?:in|during|within|over|for)\s+$", re.IGNORECASE)
_ELLIPTIC = re.compile(rf"\b(?:the\s+)?(first|opening|initial|last|final|closing)\s+{_NUM}\b(?!\s*{_UNIT})"
                       r"(?=\s*(?:$|[?.!,;)]|and\b|vs\b|versus\b|against\b|compared\b|or\b|of\s+the\s+(?:match|game)\b))",
                       re.IGNORECASE)
MAX_WINDOWS = 4
WHOLE_MATCH = "whole match"  # the label of the whole match as one of several windows: the others are parts of it
# The whole match said as such, which can stand beside another window ("overall" and "in total" only sum)
_WHOLE_SAID = re.compile(r"\b(?:in\s+|over\s+|for\s+|during\s+)?(?:the\s+)?(?:whole|entire|full)\s+(?:match|game)\b"
                         r"|\b(?:all|the\s+whole)\s+game\s+long\b", re.IGNORECASE)


@dataclass(frozen=True)
class WindowsParse:
    """Every time window a question names, in its order: one for "after minute 20", several for "the first
    ten minutes against the last ten" or "early, mid and late game" (compared side by side)."""

    windows: tuple[TimeWindow, ...]
    rest: str
    assumptions: tuple[str, ...] = ()
    whole_match: bool = False
    at_minute: int | None = None

    @property
    def window(self) -> TimeWindow | None:
        return self.windows[0] if len(self.windows) == 1 else None


def _phase_list(text: str) -> tuple[list[tuple[int, TimeWindow]], str]:
    m = _PHASE_LIST.search(text)
    if not m:
        return [], text
    words = re.findall(r"\b(early|mid|late)\b", m.group(0), re.IGNORECASE)
    if len({w.lower() for w in words}) < 2:
        return [], text  # "mid vs mid" sets a role against itself: a matchup, not phases
    found = []
    for word in dict.fromkeys(w.lower() for w in words):
        start, end, label = _PHASES[word]
        found.append((m.start(), TimeWindow(label=label, start_s=start, end_s=end)))
    return found, text[:m.start()] + " " + text[m.end():]


def _once_each(windows: tuple[TimeWindow, ...]) -> tuple[TimeWindow, ...]:
    """Each window once: by its words, and by its stretch of the match, since one stretch said twice ("the late
    game fights, so after minute 20") is a restatement, kept as first said."""
    by_label = tuple({w.label: w for w in windows}.values())
    return tuple({(w.start_s, w.end_s, w.from_end_s): w for w in reversed(by_label)}.values())[::-1]


def parse_windows(text: str) -> WindowsParse:
    """All the time phrases of a question; `rest` is the text without them."""
    found, rest = _phase_list(text)
    assumptions: list[str] = []
    at_minute = None
    offset_rest = rest
    unit_minutes = False
    while len(found) < MAX_WINDOWS:
        hit = None
        for pattern, build in _COMPILED:
            m = pattern.search(offset_rest)
            if m and (hit is None or m.start() < hit[0].start()):
                hit = (m, build)
        if hit is None:
            break
        m, build = hit
        window, assumption, minute = build(m)
        found.append((m.start(), window))
        unit_minutes |= bool(re.search(r"\bmin", m.group(0), re.IGNORECASE)) or window.label.endswith("minutes")
        if assumption:
            assumptions.append(assumption)
        at_minute = minute if at_minute is None else at_minute
        # keep positions comparable: blank the phrase out instead of cutting it
        offset_rest = offset_rest[:m.start()] + " " * (m.end() - m.start()) + offset_rest[m.end():]
    said_whole = _WHOLE_SAID.search(offset_rest)
    if said_whole is not None and (found or _ELLIPTIC.search(offset_rest)):
        # "kills over the full match and in the last 10": the whole match is one of the windows side by side, and
        # a bare number beside it counts minutes like it
        found.append((said_whole.start(), TimeWindow(label=WHOLE_MATCH, start_s=0)))
        offset_rest = (offset_rest[:said_whole.start()] + " " * (said_whole.end() - said_whole.start())
                       + offset_rest[said_whole.end():])
        unit_minutes = True
    carried = bool(found and unit_minutes)
    for m in list(_ELLIPTIC.finditer(offset_rest))[: MAX_WINDOWS - len(found)]:
        # "the first ten minutes against the last ten": the unit carries over; "in the first 10" at the end of a
        # question is a stretch of the match, so minutes too (a count of things would name them: "the first 10 kills")
        if carried or _TIME_PREPOSITION.search(offset_rest, 0, m.start()):
            if not carried:
                assumptions.append(f"'{m.group(0).strip()}' read as minutes of the match")
            seconds = 60 * int(_number(m.group(2)))
            first = m.group(1).lower() in ("first", "opening", "initial")
            label = f"{'first' if first else 'last'} {_minutes(seconds)}"
            found.append((m.start(), TimeWindow(label=label, start_s=0, end_s=seconds) if first
                          else TimeWindow(label=label, from_end_s=seconds)))
            offset_rest = offset_rest[:m.start()] + " " * (m.end() - m.start()) + offset_rest[m.end():]
    rest = re.sub(r"\s{2,}", " ", offset_rest).strip()
    windows = tuple(w for _, w in sorted(found, key=lambda f: f[0]))
    windows = _once_each(windows)
    if windows:
        return WindowsParse(windows, rest, tuple(assumptions), at_minute=at_minute if len(windows) == 1 else None)
    whole = _whole(rest)
    return WindowsParse((), whole.rest, (whole.assumption,) if whole.assumption else (), whole.whole_match)
