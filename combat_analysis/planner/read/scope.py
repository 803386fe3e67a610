"""Scope words: which matches a question is about, read as a slot of its own.

`read_scope(question, match_ids, latest)` finds the words that say which matches ("across all matches",
"this season", "over his last 10 games", "this week", "in March", "in match 5147276662", "compared with the
previous match") and returns them with the question minus those words, so the metric, entity, window and
shape readers see the same text they see for a one-match question.

Dates are relative to `latest`, the start of the warehouse's latest match, never the wall clock, so the same
warehouse always gives the same answer: "this week" is the Monday-to-Sunday week holding that start, "today"
its day, "in March" the March of its year (or the year before, for a month after it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Literal

from combat_analysis.contracts.selection import AllMatches, DateRange, MatchList
from combat_analysis.planner.read import compounds
from combat_analysis.planner.read.names import fold, name_parts
from combat_analysis.planner.read.spelling import contractions
from combat_analysis.planner.read.timewords import _WORD_NUMBERS
from combat_analysis.planner.read.words import KILL_VERB, ROLE_SAID, STORAGE, domain_words, known_words

ScopeKind = Literal["none", "match", "matches", "all"]

_MATCH = r"(?:matches|match|games|game|rounds|round)"
_NUMBER = r"(\d{1,5}|" + "|".join(sorted((w for w in _WORD_NUMBERS if " " not in w and "-" not in w),
                                         key=len, reverse=True)) + r")"
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_MONTH = r"(" + "|".join(m for m in _MONTHS) + "|" + "|".join(m[:3] for m in _MONTHS if m != "may") + r")\.?"

# The asker's own games, said with "we" or "our" and no identity ("the games we've had", "matches we played", "our
# games", "games we're in"): every loaded match, a scope word like "all matches". A won or lost game is a filter of
# its own ("the games we won"), not this; one game ("our game", "our last game") is one match; and "how many games
# we've had" counts the games (a scope by nature), so the counted noun stays.
_OURS = (r"(?<!how\smany\s)(?<!number\sof\s)(?:(?:the|all(?:\s+of)?(?:\s+the)?|every|those|these)\s+)?(?:games|matches|rounds)\s+(?:that\s+|which\s+)?"
         r"(?:we|us)\s+(?:have\s+|had\s+|ve\s+|'ve\s+)?(?:ever\s+|all\s+|already\s+)?"
         r"(?:played(?:\s+in)?|had|did|done|been\s+in|were\s+in|are\s+in|got|recorded|logged|uploaded|loaded)"
         r"|(?:all\s+(?:of\s+)?)?our\s+(?:(?:recorded|loaded|logged)\s+)?(?:games|matches|rounds)")
# The asker's contractions, spelled out so that each part is a word the readers know ("we've" is "we have").
_CONTRACTIONS = {"we've": "we have", "we're": "we are", "we'd": "we had", "we'll": "we will", "weve": "we have",
                 "ours": "our"}
_CONTRACTION = re.compile(r"\b(?:we['’](?:ve|re|d|ll)|weve|ours)\b")


# Every match the warehouse holds: the phrase, as a pattern over the lower-cased question.
_SEASON = r"(?:the\s+|this\s+|our\s+|all\s+|whole\s+|entire\s+|full\s+|the\s+whole\s+|the\s+entire\s+|the\s+full\s+)?season"
_ALL = re.compile(
    r"\b(?:(?:across|over|in|for|from|among|throughout|during|of)\s+)?"
    r"(?:(?:all|every|each)\s+(?:of\s+)?(?:the\s+|our\s+|his\s+|her\s+|their\s+|my\s+|these\s+)?(?:recorded\s+|loaded\s+)?"
    + _MATCH + r"(?:\s+(?:played|recorded|so far|on record|loaded))?"
    r"|" + _SEASON + r"(?:[- ](?:wide|long))?|season[- ]wide|(?:of\s+)?all[- ]time|ever"
    r"|(?:in\s+|over\s+|for\s+)?(?:his|her|their|the|a|my)?\s*careers?|overall|in\s+total\s+across\s+" + _MATCH +
    r"|across\s+(?:the\s+|his\s+|her\s+|their\s+|my\s+|these\s+|those\s+)?" + _MATCH + r"|so\s+far|to\s+date|on\s+record|"
    + _OURS + r")\b")
# The last N matches ("over his last ten games"); "the previous match" / "last game" alone is N = 1.
_LAST = re.compile(r"\b(?:(?:over|in|across|for|during|from)\s+)?(?:(?:his|her|their|the|my)\s+)?"
                   r"(?:last|past|previous|recent|latest|most\s+recent)\s+" + _NUMBER + r"\s+" + _MATCH + r"\b"
                   # the count first: "her 3 latest matches", "his five most recent games"
                   r"|\b(?:(?:over|in|across|for|during|from)\s+)?(?:his|her|their|the|my)\s+" + _NUMBER +
                   r"\s+(?:last|past|previous|recent|latest|most\s+recent)\s+" + _MATCH + r"\b")
_PREVIOUS = re.compile(r"\b(?:compared?\s+(?:with|to)|against|than|vs\.?|versus)\s+(?:the|his|her|their)\s+"
                       r"(?:previous|last|prior|preceding)\s+" + _MATCH + r"\b")
# "compare X's kills with the previous match": the comparison word comes first, the match after the figure.
_COMPARE_PREVIOUS = re.compile(r"\bcompar(?:e|ed|ing|ison)\b.*?\b((?:with|to|against)\s+(?:the|his|her|their)\s+"
                               r"(?:previous|last|prior|preceding)\s+" + _MATCH + r")\b")
_DAYS = re.compile(r"\b(?:(?:over|in|during|for)\s+)?(?:the\s+)?(?:last|past)\s+" + _NUMBER + r"\s+days?\b")
_RELATIVE = re.compile(r"\b(?:(?:in|during|for|over)\s+)?(this|last|the\s+previous)\s+(week|month|year)\b"
                       r"|\b(today|yesterday)\b")
_IN_MONTH = re.compile(r"\b(?:in|during|for|over|throughout)\s+" + _MONTH + r"(?:\s+(\d{4}))?\b")
_ISO = r"(\d{4}-\d{2}-\d{2})"
# The latest match as a selector ("who won the latest game", "her kills last match"); "the last 3" is _LAST.
_LATEST = re.compile(r"\b(?:(?:in|of|for|from|during)\s+)?(?:(?:the|our|his|her|their|my)\s+)?"
                     r"(?:latest|last|most\s+recent|newest)\s+(?:match|game|round)\b(?!\s*(?:s\b|es\b|\d))")
_DAY = r"(?P<day>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"
_MONTH_NAME = r"(?P<month>" + "|".join(_MONTHS) + "|" + "|".join(m[:3] for m in _MONTHS) + r"|sept)\.?"
# the word before a day: "on" it, or a bound of a range ("since", "after", "before", "until")
_BOUND_WORD = r"(?P<word>since|after|before|until|till)"
_ON_WORD = r"\b(?:(?:on|from|of|during|in|" + _BOUND_WORD + r")\s+)?(?:the\s+)?"
_MONTH_DAY = re.compile(_ON_WORD + _MONTH_NAME + r"\s+(?:the\s+)?" + _DAY + r"\b" + _YEAR)
_DAY_MONTH = re.compile(_ON_WORD + _DAY + r"\s+(?:of\s+)?" + _MONTH_NAME + r"\b" + _YEAR)
_ON_DAY = re.compile(r"\b(on|in|during|since|from|after|before|until)\s+" + _ISO + r"\b")
_BETWEEN = re.compile(r"\bbetween\s+" + _ISO + r"\s+and\s+" + _ISO + r"\b")
# Figures that only exist across matches: a question asking for them has a cross-match scope even without
# a scope word ("what is X's best match", "A vs B head to head", "which gods win most", "which game had the most
# kills", "the average game length", "how many wins", "how many matches are loaded").
_GAME = r"(?:match|game)"
# taking part in games, however said: "played", "shown up", "turned up", "took part", "appeared", "featured"
_TOOK_PART = (r"play(?:s|ed|ing)?|show(?:s|ed|n|ing)?\s+up|turn(?:s|ed|ing)?\s+up|(?:took|taken|take|takes|taking)\s+part"
              r"|participat(?:e|es|ed|ing)|featur(?:e|es|ed|ing)|appear(?:s|ed|ing)?|join(?:s|ed|ing)?")
_EXTREME_WORDS = r"biggest|largest|highest|best|greatest|top|lowest|smallest|fewest|least|worst|weakest|poorest"
# An event a match has once (first blood, "fb"), ranked or counted: one match gives one player one, so "who gets fb
# the most", "most first blood kills", "how often did X draw first blood" rank or count across matches.
_ONCE = r"(?:first[- ]?blood(?:ed)?|fb|first\s+kill)"
_RANKING_WORD = r"(?:most|least|fewest|more|fewer)(?:\s+(?:often|times|frequently))?"
_ONCE_RANKED = (r"\b" + _ONCE + r"\s+(?:(?!the\b)[a-z]+\s+)?(?:the\s+)?" + _RANKING_WORD + r"\b"
                r"|\b" + _RANKING_WORD + r"\s+(?:(?:number|amount)\s+of\s+)?" + _ONCE + r"\b"
                r"|\bhow\s+(?:many\s+times|often)\b(?:\s+[\w']+){0,4}?\s+" + _ONCE + r"\b")
# Head-to-head said any way: "head to head", kills "each way" / "on each other" / "killed one another", games "on opposite sides" / "as
# opponents": two players' figures against each other, both ways, over the games they shared.
# What a match has one of: its first blood, its first objective of a kind.
_FIRST_OF_MATCH = (r"first[- ]?(?:blood|objective|tower|phoenix|titan|gold\s+fury|fire\s+giant)\b")
_HEAD_TO_HEAD = (r"\b(head[- ]to[- ]head|h2h|(?:each|both|either)\s+ways?|(?:and\s+)?(?:the\s+)?other\s+way\s+a?round"
                 r"|(?:and\s+)?vice[- ]versa|(?:on|against|versus|vs\.?)\s+(?:each\s+other|one\s+another)"
                 # a kill verb on each other: "did they ever kill each other", "kill one another"
                 rf"|(?:{KILL_VERB})\s+(?:each\s+other|one\s+another)"
                 # each of two said apart, then the other: "did each of them ever slay the other"
                 rf"|\beach(?:\s+(?:one|of\s+them|of\s+the\s+two))?\s+(?:\w+\s+){{0,2}}?(?:{KILL_VERB})\s+the\s+other"
                 r"|(?:(?:when|while|where)\s+(?:they\s+(?:were|are|was)\s+|they're\s+)?)?(?:on\s+)?"
                 r"(?:opposite|opposing|different|rival)\s+(?:sides|teams)|as\s+(?:opponents|enemies|rivals))\b")
HEAD_TO_HEAD = re.compile(_HEAD_TO_HEAD, re.IGNORECASE)
_ACROSS_BY_NATURE = re.compile(_HEAD_TO_HEAD + "|"
    r"\b(?:best|worst|top|strongest|weakest|greatest)\s+(?:single\s+)?(?:match|game)\b|\bhead[- ]to[- ]head\b|\bh2h\b"
    r"|\bwin[- ]?rates?\b|\bwin\s+(?:the\s+)?most\b|\bwins?\s+(?:and|or)\s+loss(?:es)?\b|\brecords?\b"
    r"|\b(?:how\s+many|number\s+of)\s+(?:matches|games)\b|\b(?:matches|games)\s+played\b|\bform\b|\btrend(?:s|ed|ing)?\b"
    r"|\bmoved\b|\bprogress(?:ed)?\b|\bmatch\s+(?:by|after|to)\s+match\b|\bgame\s+(?:by|after|to)\s+game\b"
    r"|\bover\s+time\b|\bper[- ](?:match|game)\s+average\b|\baverage\s+per\s+(?:match|game)\b"
    # the best of an average: one match has one figure per player, so "best average KDA" ranks averages over many
    r"|\b(?:best|highest|top|biggest|greatest|lowest|worst)\s+(?:average|avg|mean)\b"
    r"|\b(?:each|every)\s+god\b|\bwhich\s+gods\b|\bgods?\s+(?:win|won|wins)\b"
    # matches ranked, or a match figure over several
    r"|\b(?:which|what)\s+(?:single\s+)?" + _GAME + r"(?:es|s)?\b(?!\s+(?:is|was)\s+(?:this|it)\b)"
    r"|\b(?:which|what)\s+(?:day|date)\b(?!\s+(?:is|was)\s+(?:this|it)\b)"
    r"|\b(?:longest|shortest|quickest|fastest|slowest|bloodiest|closest|tightest|most\s+one[- ]sided)\s+"
    + _GAME + r"(?:es|s)?\b"
    r"|\b(?:average|avg|mean|typical|usual)\s+(?:" + _GAME + r"\s+)?(?:length|duration|first\s+blood|gold\s+lead)\b"
    # a match has one first blood, one first tower: any average of it is over matches ("on average when does first
    # blood happen")
    r"|\b(?:average|avg|mean|typical(?:ly)?|usual(?:ly)?|normally)\b(?:\s+[\w']+){0,6}?\s+" + _FIRST_OF_MATCH +
    r"|" + _FIRST_OF_MATCH + r"(?:\s+[\w']+){0,6}?\s+(?:on\s+)?(?:average|avg|typically|usually|normally)\b"
    r"|\bhow\s+long\s+(?:do|does)\s+(?:our\s+|the\s+|a\s+)?" + _GAME + r"(?:es|s)?\s+(?:last|take|go|run)\b"
    # a single game among many
    r"|\bin\s+(?:one|a\s+single|any|a|one\s+single)\s+" + _GAME + r"\b|\bsingle[- ]" + _GAME + r"\b"
    # a game named by a superlative of its figure: "his highest-damage game", "the lowest kill games"
    r"|\b(?:" + _EXTREME_WORDS + r")[-\s]+"
    r"(?:(?!the\b|this\b|that\b|in\b|of\b|a\b|per\b|each\b|every\b|any\b|one\b)\w+[-\s]+){1,2}" + _GAME + r"s?\b"
    r"|\b" + _GAME + r"(?:es|s)?\s+(?:that\s+)?(?:with|had|has|saw|having)\s+the\s+(?:most|fewest|least|highest|lowest|"
    r"biggest|largest|longest|shortest)\b|\brecords?\s+for\b"
    # ... or picked by "where": "the game where he died the most"
    r"|\b" + _GAME + r"(?:es|s)?\s+where\b[^?.;]*\b(?:most|fewest|least|highest|lowest|biggest|largest|longest|"
    r"shortest)\b"
    # records and picks
    r"|\b(?:won|lost)\s+the\s+most\b(?!\s+(?:team\s*)?fights?\b)|\b(?:most|fewest|least|more|fewer)\s+(?:wins|losses|victories|defeats)\b"
    r"|\bhow\s+many\s+(?:wins|losses|victories|defeats)\b|\b(?:matches|games)\s+(?:won|lost)\b"
    r"|\bwins?\s+(?:more|most)\b|\b(?:most|least|less)\s+(?:often\s+)?(?:played|picked|chosen|popular)\b|\bgod\s+pool\b"
    r"|\b(?:play(?:s|ed)?|pick(?:s|ed)?|chose|chosen|choose[sn]?)\s+(?:(?!the\b)[a-z]+\s+)?(?:the\s+)?(?:most|least|more|less)"
    r"(?:\s+often)?\b"
    r"|\bw\s*/\s*l\b|\bwin\s*[-/]\s*loss(?:es)?\b"
    # a minimum of games is itself a count over matches ("with 3+ games", "min 5 matches")
    r"|\b(?:at\s+least|min(?:imum)?(?:\s+of)?|no\s+(?:fewer|less)\s+than|more\s+than)\s+\d+\s+(?:(?:" + ROLE_SAID
    + r")\s+)?" + _GAME + r"(?:es|s)?\b"
    r"|\b\d+\s*\+\s*" + _GAME + r"(?:es|s)?\b|\b\d+\s+or\s+more\s+" + _GAME + r"(?:es|s)?\b"
    # the minimum said after its games: "(3 game minimum)", "5 matches min"
    r"|\b\d+\s*" + _GAME + r"(?:es|s)?\s+(?:min(?:imum)?|at\s+least)\b"
    r"|\bpick\s+rates?\b|\b(?:which|what)\s+gods?\s+(?:does|do|has|have|is|are)\b|\bplays?\s+(?:the\s+)?most\b|\b(?:favou?rite|main|go[- ]to|comfort)\s+(?:gods?|picks?|characters?)\b"
    # a player's wins and losses, and the best of a kind by its record: one match has one result
    r"|\b(?<!fight\s)(?:wins|losses|victories|defeats)\s+(?:of|for|by)\b|(?<=\w)'s\s+(?:wins|losses|victories|defeats)\b"
    r"|\b(?:best|worst|strongest|weakest|most\s+successful|least\s+successful)\s+(?:gods?|roles?|picks?|characters?)\b"
    # who took part: a match has its ten players, a season its different ones
    r"|\b(?:how\s+many|number\s+of)\s+(?:different|diff|distinct|unique|individual)\s+(?:players|people|gods|characters|heroes)\b"
    # ... or said as taking part in the games: "how many people turned up in our matches"
    r"|\b(?:how\s+many|number\s+of)\s+(?:players|people|gods|characters|heroes)\s+(?:\w+\s+){0,2}?(?:"
    + _TOOK_PART + r")\b(?:\s+\w+){0,3}?\s+(?:these|those|all|the|our)\s+(?:games|matches)\b"
    # first bloods counted: one match has one ("most first bloods", "who dies first most often")
    r"|\bfirst[- ]?bloods\b|\bfbs\b|" + _ONCE_RANKED +
    r"|\b(?:die[sd]?|dying)\s+first\s+(?:the\s+)?(?:most|least|more)\b"
    # games counted per player: one match gives everyone one ("who played the fewest games", "most matches")
    r"|\b(?:most|fewest|least|more|fewer)\s+(?:games|matches)\b(?!\s+(?:with|had|has|saw|having)\b)"
    # the matches with no winner: one match has one result or none
    r"|\b(?:undecided|unfinished|unresolved)\s+(?:games|matches)\b"
    r"|\b(?:games|matches)\s+(?:\w+\s+){0,3}?(?:no|without\s+(?:a|any))\s+(?:results?|winners?)\b"
    # ... or how many had one: "how many games had a winner", "count the matches that were decided"
    r"|\b(?:games|matches)\s+(?:\w+\s+){0,3}?(?:(?:had|have|has|got|get|with)\s+(?:a|an|any)\s+(?:results?|winners?)"
    r"|(?:were|was|got)\s+decided)\b"
    # the warehouse itself
    rf"|\b(?:loaded|ingested|stored)\b|\b(?:in|into|on)\s+(?:the\s+|our\s+|this\s+)?{STORAGE}\b"
    # only the games a player won or lost: "in the games she won", "in his losses"
    r"|\b(?:games|matches)\s+(?:that\s+|which\s+)?(?:she|he|they|we|i|you)\s+(?:won|lost)\b"
    r"|\bin\s+(?:her|his|their|my|our)\s+(?:wins|losses|victories|defeats)\b")
# Career notions: a figure asked as a habit or a sum over time ("in total", "per game", "how many times has",
# "usually", "has ... played") is about every match, when no scope word says otherwise.
_NUMBER_WORDS = r"(?:ten|seven|eleven|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|seventeen)\b"
_PARTICIPLES = (r"been|won|lost|dealt|done|taken|had|gotten|gone|given|drawn|seen|made|"
                r"(?!" + _NUMBER_WORDS + r")[a-z]{2,}(?:ed|en)")
_CAREER = re.compile(
    r"\bin\s+total\b|\bper[- ]" + _GAME + r"\b|\ba\s+" + _GAME + r"\b|\bon\s+a\s+typical\s+" + _GAME + r"\b"
    r"|\b(?:usually|typically|normally|generally|habitually|tends?\s+to)\b"
    # a habit in the present: "how does X do on chaos", "how well do they perform as support"
    r"|\bhow\s+(?:well\s+)?(?:does|do)\s+(?:\S+\s+){1,4}?(?:do|perform|fare|play)\b"
    r"|\bhow\s+(?:many\s+times|often)\s+(?:has|have|does|do)\b"
    # "has X played", "have they won": a name may stand between, a figure may not ("has the most damage dealt")
    r"|\b(?:has|have|hasn't|haven't)\s+(?:(?!the\b|a\b|an\b|most\b|more\b|highest\b|lowest\b)\S+\s+){0,3}?"
    r"(?:" + _PARTICIPLES + r")\b"
    # "who's played", "who's been": the contraction right before its participle ("X's damage dealt" is a possessive)
    r"|(?<=\w)(?:'s|'ve)\s+(?:been\s+)?(?:" + _PARTICIPLES + r")\b"
    r"|\b(?:has|have)\s+\S+(?:\s+\S+){0,2}?\s+got\b")


# A habit said in the present ("who keeps dying to towers", "who always gets first blood", "who is constantly
# feeding", "who dies to minions all the time"): what players do is what the matches loaded show, not the latest
# match. A past tense ("who kept dying", "who was always ahead", "who always died first") tells of one match, and
# stays with the latest. "Usually", "tends to" and "every game" are career notions or scope words of their own.
HABIT = re.compile(r"\bkeeps?\s+(?:on\s+)?[a-z]{2,}ing\b|\bnever\s+fails?\s+to\b"
                    r"|\b(?:always|constantly|consistently|regularly|invariably|routinely|perpetually)\b"
                    r"|\ball\s+the\s+time\b|\btime\s+(?:after|and)\s+(?:time|again)\b"
                    r"|\b(?:usually|typically|normally|generally|habitually)\b|\bmost\s+of\s+the\s+time\b"
                    r"|\bmore\s+often\s+than\s+not\b|\btends?\s+to\b")
# The past tense of the clause the habit is said in: an auxiliary, "kept", or the verb right after the adverb.
_PAST_AUXILIARY = re.compile(r"\b(?:was|were|wasn't|weren't|did|didn't|kept|had)\b")
_PAST_VERB = re.compile(r"\s*(?:[a-z]{2,}ed|got|took|won|lost|went|came|made|dealt|gave|drew|ate|fell|led|ran|stole|"
                        r"threw|bought|built|left|held|caught|brought|fought|ended\s+up)\b")
_PRESENT_PERFECT = re.compile(r"\b(?:has|have|hasn't|haven't)\s+(?:\S+\s+){0,2}?$|(?<=\w)(?:'s|'ve)\s+$")


def _habit_said(text: str) -> str | None:
    """The words of a habit said in the present (`HABIT`), or None; a clause in the past is no habit across
    matches ("who was always ahead" tells of one match)."""
    for found in HABIT.finditer(text):
        clause = re.split(r"[,;?.!]|\b(?:and|but)\b", text[:found.start()])[-1]
        after = text[found.end():]
        perfect = bool(_PRESENT_PERFECT.search(clause))  # "who has always died first": a habit to this day
        verb_after = not found.group(0).startswith("keep")  # "keeps getting killed" holds its own verb
        if not perfect and (_PAST_AUXILIARY.search(clause) or (verb_after and (
                _PAST_AUXILIARY.match(after.lstrip()) or _PAST_VERB.match(after)))):
            continue
        return found.group(0)
    return None


@dataclass(frozen=True)
class ScopeReading:
    """What the scope words say. `kind`: "none" (no scope word), "match" (one named match), "matches" (a
    set: last N, dates, a list), "all". `last` is set for "the last N matches", resolved against the
    question's player later (a player's last N, else the warehouse's last N); `words` are the phrases read."""

    kind: ScopeKind
    match_id: str | None = None
    selection: AllMatches | DateRange | MatchList | None = None
    last: int | None = None
    previous: bool = False  # "compared with the previous match": the latest two of the player's matches
    words: tuple[str, ...] = ()
    rest: str = ""  # the question without the scope words
    by_nature: bool = False  # no scope word, but a figure that exists only across matches
    spelled: tuple[str, ...] = ()  # the words read another way: "'overal' read as 'overall'"
    one_day: bool = False  # the selection is one calendar day ("on mar 12", "on tuesday", "yesterday")
    habit: str = ""  # a habit said in the present ("keeps dying", "always"): every match, said as a reading
    number: int | None = None  # "game 4", "the 2nd match": the match's place among all matches in start order
    player: str | None = None  # "his last game", once resolved: the player whose latest match `match_id` is

    @property
    def cross_match(self) -> bool:
        return self.kind in ("matches", "all")


def _number(text: str) -> int:
    return int(text) if text.isdigit() else _WORD_NUMBERS[text]


def _cut(text: str, match: re.Match) -> str:
    return " ".join((text[: match.start()] + " " + text[match.end():]).split())


def _month_range(year: int, month: int) -> DateRange:
    first = date(year, month, 1)
    after = date(year + (month == 12), month % 12 + 1, 1)
    return DateRange.days(first, after - timedelta(days=1))


def _month_number(word: str) -> int:
    return next(i for i, name in enumerate(_MONTHS, start=1) if name.startswith(word[:3]))


def _relative(which: str, unit: str, day: str | None, latest: date) -> tuple[DateRange, str]:
    if day:
        on = latest if day == "today" else latest - timedelta(days=1)
        return DateRange.days(on, on), day
    back = 0 if which == "this" else 1
    if unit == "week":
        monday = latest - timedelta(days=latest.weekday()) - timedelta(weeks=back)
        return DateRange.days(monday, monday + timedelta(days=6)), f"{which} week"
    if unit == "month":
        month, year = latest.month - back, latest.year
        if month == 0:
            month, year = 12, year - 1
        return _month_range(year, month), f"{which} month"
    year = latest.year - back
    return DateRange.days(date(year, 1, 1), date(year, 12, 31)), f"{which} year"


def _named_matches(text: str, match_ids: tuple[str, ...]) -> list[tuple[str, re.Match]]:
    """Match ids written in the question, as whole words (ids such as "scrim-0005" or "Grand Final 5")."""
    found = []
    for match_id in match_ids:
        said = match_id.lower()
        if said not in text:  # a substring test first: a regex per id costs a compile per id, at 1,000 matches too
            continue
        hit = re.search(r"(?<![\w-])" + re.escape(said) + r"(?![\w-])", text)
        if hit:
            found.append((match_id, hit))
    # "Grand Final 5" inside "Grand Final 55" is excluded by the word boundary; a shorter id inside a longer
    # one that was also found (e.g. "Final 5" in "Grand Final 5") is dropped.
    return [(m, h) for m, h in found if not any(o != m and m.lower() in o.lower() for o, _ in found)]


# A player's average is a career notion: one match has one figure per player ("Rookie Ann average kills").
_PLAYER_AVERAGE = re.compile(r"\b(?:average[sd]?|avg|mean|on\s+average|typical|usual|normal)\b")
# A player's totals are sums over games: one match has one figure per player ("X's kills and deaths totals").
_PLAYER_TOTALS = re.compile(r"\btotals\b")
# A god's average is one too: a god is played about once a match ("which god deals the most damage on average").
_GOD = re.compile(r"\b(?:gods?|characters?|champions?|heroes)\b")
# So is the average of sides or roles set against each other ("does order or chaos average more kills", "mid vs
# jungle gold on average"): one match gives each side one game and each role two, a mean needs many.
_SIDE_OR_ROLE = r"(?:order|chaos|team\s*[12]|" + ROLE_SAID + r")"
_SET_AGAINST = re.compile(r"\b" + _SIDE_OR_ROLE + r"(?:'s)?\s*(?:,|or|vs\.?|versus|against|and)\s*(?:the\s+)?"
                          + _SIDE_OR_ROLE + r"\b")
# The players of one god set against each other ("which Loki player got the most assists", "best Thor main"): one match
# has one player on a god, so they are ranked over every match
_GODS_PLAYERS_RANKED = r"\b(?:which|what|whose|(?:the\s+)?(?:best|top|worst|strongest|weakest))\s+"
_ITS_PLAYERS = r"\s+(?:players?|mains?|users?|pilots?)\b"


# Kills or deaths asked of two players each way with no head-to-head word ("kills by A on B and by B on A", "A's
# deaths to B and B's to A"): a kill word and two parts; `read_scope` reads them as every match, as any
# head-to-head, once it finds two players each named in both parts.
_KILL_WORD = re.compile(r"\b(?:kill(?:s|ed|ing)?|deaths?|died|die[sd]?|slain|slew|slays?|slayed)\b")
_TWO_PARTS = re.compile(r"\b(?:and|&)\b|\+|,")


# Recent form ("how has X been lately", "X's kills recently"): a player's run of games, never the latest match
# alone; the words stay, as they also ask each game's value (the planner counts the games: its RECENT_GAMES)
RECENT_FORM = re.compile(r"\b(?:lately|recently|of\s+late|these\s+days)\b")


def asks_an_average(question: str) -> bool:
    """The words of a player's average (or totals), of their recent form, of kills asked each way, or of one god's
    players ranked; `read_scope` reads them as every match once it knows the players and gods named."""
    said = question.lower()
    return bool(_PLAYER_AVERAGE.search(said) or _PLAYER_TOTALS.search(said) or RECENT_FORM.search(said)
                or _kills_each_way(said)
                or re.search(_GODS_PLAYERS_RANKED + r"\S+(?:\s+\S+)?" + _ITS_PLAYERS, said))


def _kills_each_way(text: str) -> bool:
    return bool(_KILL_WORD.search(text) and _TWO_PARTS.search(text))


def _named_each_way(text: str, players: tuple[str, ...]) -> bool:
    """Two players each named at least twice beside a kill word ("A killed B and B killed A"): each is the other
    end of a kill, both ways."""
    twice = [name for name in players
             if len(re.findall(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)) >= 2]
    return _kills_each_way(text) and len(twice) >= 2


@dataclass(frozen=True)
class _Context:
    match_ids: tuple[str, ...]
    anchor: date  # the latest match's day: "this week" is its week
    players: tuple[str, ...] = ()  # every player's name, case-folded: a player's average is over every match
    gods: tuple[str, ...] = ()  # every god's name, case-folded: two gods' averages set against each other, too


def _by_name(text: str, context: _Context) -> ScopeReading | None:
    named = _named_matches(text, context.match_ids)
    if not named:
        return None
    rest = text
    for _, hit in named:
        rest = re.sub(r"\b(?:in|for|of|from)?\s*(?:matches|match|games|game)?\s*(?:id\s*)?" +
                      re.escape(hit.group(0)) + r"\b", " ", rest)
    rest = " ".join(re.sub(r"\s+(?:and|,)\s+(?=\s|$)", " ", rest).split())
    ids = tuple(m for m, _ in sorted(named, key=lambda pair: pair[1].start()))
    if len(ids) == 1:
        return ScopeReading(kind="match", match_id=ids[0], words=(ids[0],), rest=rest)
    return ScopeReading(kind="matches", selection=MatchList(match_ids=ids), words=ids, rest=rest)


def _previous(text: str, context: _Context) -> ScopeReading | None:
    found = _PREVIOUS.search(text)
    if found:
        return ScopeReading(kind="matches", last=2, previous=True, words=(found.group(0),), rest=_cut(text, found))
    found = _COMPARE_PREVIOUS.search(text)
    if found:
        return ScopeReading(kind="matches", last=2, previous=True, words=(found.group(1),),
                            rest=" ".join((text[:found.start(1)] + text[found.end(1):]).split()))
    return None


def _last(text: str, context: _Context) -> ScopeReading | None:
    found = _LAST.search(text)
    if found is None:
        return None
    return ScopeReading(kind="matches", last=max(_number(found.group(1) or found.group(2)), 1), words=(found.group(0),),
                        rest=_cut(text, found))


def _between(text: str, context: _Context) -> ScopeReading | None:
    found = _BETWEEN.search(text)
    if found is None:
        return None
    first, last = date.fromisoformat(found.group(1)), date.fromisoformat(found.group(2))
    if first > last:
        return None
    return ScopeReading(kind="matches", selection=DateRange.days(first, last), words=(found.group(0),),
                        rest=_cut(text, found))


def _day_range(word: str, day: date) -> DateRange:
    start_of = datetime.combine(day, datetime.min.time())
    if word in ("on", "in", "during"):
        return DateRange.days(day, day)
    if word in ("since", "from"):
        return DateRange(since=start_of)
    if word == "after":
        return DateRange(since=start_of + timedelta(days=1))
    return DateRange(until=start_of)


def _on_day(text: str, context: _Context) -> ScopeReading | None:
    found = _ON_DAY.search(text)
    if found is None:
        return None
    selection = _day_range(found.group(1), date.fromisoformat(found.group(2)))
    return ScopeReading(kind="matches", selection=selection, words=(found.group(0),), rest=_cut(text, found),
                        one_day=found.group(1) in ("on", "in", "during"))


def _days(text: str, context: _Context) -> ScopeReading | None:
    found = _DAYS.search(text)
    if found is None:
        return None
    days = max(_number(found.group(1)), 1)
    return ScopeReading(kind="matches", selection=DateRange.days(context.anchor - timedelta(days=days - 1),
                                                                 context.anchor),
                        words=(found.group(0),), rest=_cut(text, found))


def _relative_dates(text: str, context: _Context) -> ScopeReading | None:
    found = _RELATIVE.search(text)
    if found is None:
        return None
    which = "this" if found.group(1) == "this" else "last"
    selection, _ = _relative(which, found.group(2) or "", found.group(3), context.anchor)
    return ScopeReading(kind="matches", selection=selection, words=(found.group(0),), rest=_cut(text, found),
                        one_day=found.group(3) is not None)


def _month(text: str, context: _Context) -> ScopeReading | None:
    found = _IN_MONTH.search(text)
    if found is None or re.match(r"may\b", found.group(1) or ""):
        return None
    month = _month_number(found.group(1))
    year = int(found.group(2)) if found.group(2) else context.anchor.year - (month > context.anchor.month)
    return ScopeReading(kind="matches", selection=_month_range(year, month), words=(found.group(0),),
                        rest=_cut(text, found))


def _every_match(text: str, context: _Context) -> ScopeReading | None:
    """Every match, said once or more ("in our games this season": both phrases are scope words)."""
    found = list(_ALL.finditer(text))
    if not found:
        return None
    rest = text
    for hit in reversed(found):
        rest = _cut(rest, hit)
    return ScopeReading(kind="all", selection=AllMatches(), words=tuple(f.group(0) for f in found), rest=rest)


def _spelled_out(text: str) -> str:
    """The asker's contractions as their words: "matches we've had" is "matches we have had"."""
    return _CONTRACTION.sub(lambda m: _CONTRACTIONS[m.group(0).replace("’", "'")], text)


def _by_nature(text: str, context: _Context) -> ScopeReading | None:
    """No scope word, but a figure that exists only across matches or a career notion: every match. The words
    stay in the question, as they also say what is asked ("per game" is an average); a closed compound is read
    as its phrase here too ("the average gamelength"), and the planner says so."""
    said, _ = compounds.split_joined(text)
    if _ACROSS_BY_NATURE.search(said) or _CAREER.search(said):
        return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True)
    return None


# A figure's verb in the simple present, its subject the one asked for ("who dies to towers the most", "which god
# does the most damage", "mid or carry, which one deals more"): what happens as a rule, so every match loaded. The
# latest match is told in the past ("who died the most") or named by a scope word, read before this.
_PRESENT_FIGURE = re.compile(
    r"\b(?:who|which(?:\s+(?!of\b)[a-z]+){0,2}?)\s+(?:(?:usually|really|actually|even)\s+)?(?P<verb>dies|does|deals|"
    r"gets|earns|takes|heals|kills|farms|feeds|carries|wins|loses|tanks|hits|makes|scores|secures|steals|outdamages|"
    r"out-?damages|mains|plays)\b")


# The same asked of a plural subject with "do" ("do supports deal more than solos", "do the junglers usually heal
# more"): a statement about a kind of player, so every match loaded; one match is asked with "did".
_PRESENT_PLURAL = re.compile(
    r"\bdo(?:n't|\s+not)?\s+(?:the\s+|our\s+|their\s+|your\s+)?(?:[a-z]+\s+){0,2}?[a-z]+s\s+"
    r"(?:(?:usually|really|actually|even|generally|typically|normally)\s+)?(?:tend\s+to\s+)?(?P<verb>die|deal|get|earn|"
    r"take|heal|kill|farm|feed|carry|win|lose|tank|hit|make|score|secure|steal|outdamage|out-?damage)\b")


def _habit(text: str, context: _Context) -> ScopeReading | None:
    """A habit said in the present (`HABIT`: the words stay, "keeps dying" is deaths), or a figure asked in the simple
    present (`_PRESENT_FIGURE`, `_PRESENT_PLURAL`), no scope word: every match loaded."""
    found = _PRESENT_FIGURE.search(text) or _PRESENT_PLURAL.search(text)
    said = _habit_said(text) or (found.group(0) if found else None)
    if said is None:
        return None
    return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True, habit=said)


def _recent_form(text: str, context: _Context) -> ScopeReading | None:
    if RECENT_FORM.search(text) and context.players and _names_a_player(text, context.players):
        return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True)
    return None


def _two_gods(text: str, gods: tuple[str, ...]) -> bool:
    """A god named whole: one god's average is over its games, as a player's is ("thor players average how many
    deaths", "average kills when someone is on loki"), and so is two gods' set against each other."""
    return any(re.search(r"(?<!\w)" + re.escape(god) + r"(?!\w)", text) for god in gods)


# Players ranked by an average of theirs ("who averages the most assists", "fewest deaths on average, who"): one
# match gives each player one figure, so the average is over their games. Never "above average", which is the
# match's own mean.
_RANKED_BY_AVERAGE = re.compile(
    r"\b(?:who|whose|which\s+[\w']+)\b(?:\s+[\w']+){0,3}?\s+(?:averages|averaged|averaging|avgs|avged)\b"
    r"|\b(?:who|whose|which\s+[\w']+)\b[^?.;]*\b(?:most|fewest|least|highest|lowest|more|fewer|top|best|worst)\b"
    r"[^?.;]*\bon\s+average\b")


# Who has done the most, in the perfect ("which of us has taken the most towers", "who's died the most"): a tally over
# the games so far, where one match says "who slew the most"
_PERFECT_TALLY = re.compile(r"\b(?:who|which\s+[\w']+)(?:'s|\s+has|\s+have)\s+(?:ever\s+)?(?:slain|killed|taken|"
                            r"secured|destroyed|won|lost|dealt|done|gotten|got|earned|healed|died|assisted|bought|"
                            r"played|racked\s+up)\b[^?.;]*\b(?:most|fewest|least)\b")
# Two roles or sides named, averaged ("does mid average more gold than jungle"): means of many games each
_SIDES_OR_ROLES = re.compile(r"\b" + _SIDE_OR_ROLE + r"\b")


def _player_average(text: str, context: _Context) -> ScopeReading | None:
    if _RANKED_BY_AVERAGE.search(text) or _PERFECT_TALLY.search(text):
        return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True)
    if _PLAYER_AVERAGE.search(text) and len({m.group(0) for m in _SIDES_OR_ROLES.finditer(text)}) > 1:
        return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True)
    if _PLAYER_AVERAGE.search(text) and (_GOD.search(text) or _SET_AGAINST.search(text)
                                         or _two_gods(text, context.gods)):
        return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True)
    if context.players and (_PLAYER_AVERAGE.search(text) or _PLAYER_TOTALS.search(text)) and _names_a_player(
            text, context.players):
        return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True)
    if _named_each_way(text, context.players):  # a head-to-head with no scope word reads every common game
        return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True)
    if _ranks_a_gods_players(text, context.gods):
        return ScopeReading(kind="all", selection=AllMatches(), rest=text, by_nature=True)
    return None

def _ranks_a_gods_players(text: str, gods: tuple[str, ...]) -> bool:
    """Whether `text` ranks the players of one god it names ("which thor player ...")."""
    return any(re.search(_GODS_PLAYERS_RANKED + re.escape(god) + _ITS_PLAYERS, text) for god in gods)


def _names_a_player(text: str, players: tuple[str, ...]) -> bool:
    """A player named whole, or by a word of their name that is no ordinary word, accents aside ("tung" for
    "Tùng Lâm", "emile" for "Émile St. Clair"); a word of the name is split off at digits and capitals too ("kestrel"
    for "Kestrel9")."""
    if any(re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text) for name in players):
        return True
    said = set(re.findall(r"[a-z0-9]+", fold(re.sub(r"['’]s\b", "", text))))
    known = known_words()
    return any(len(part) >= 3 and part not in known and part in said
               for name in players for part in {*re.findall(r"[a-z0-9]+", fold(name)), *name_parts(name)})


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
             "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12}
_COUNT_WORD = "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
# One match by its place among every match in start order ("game 4", "match #2", "game number three", "the 3rd game",
# "the second match"); not a player's ("her 2nd game"), a clock ("game 10 minutes"), nor a count ("the first 5 games")
_NUMBERED = re.compile(
    r"(?<!\bhis\s)(?<!\bher\s)(?<!\bmy\s)(?<!\btheir\s)(?<!\bour\s)(?<!\bits\s)"
    r"(?:\b(?:the\s+)?(?P<ord>\d{1,4}(?:st|nd|rd|th)|" + "|".join(_ORDINALS) + r")\s+(?:game|match)\b(?!\s+of\s+(?:his|her|their|my))"
    r"|\b(?:game|match)\s*(?:#\s*|no\.?\s*|number\s+)?(?P<n>\d{1,4}|" + _COUNT_WORD + r")\b"
    r"(?!\s*(?:minutes?|mins?|m\b|seconds?|secs?|s\b|:\d|games|matches|\.\d)))")


def _place(found: re.Match) -> int:
    said = found.group("ord") or found.group("n")
    return _ORDINALS.get(said) or (int(re.sub(r"\D", "", said)) if said[0].isdigit() else _WORD_NUMBERS[said])


def _numbered(text: str, context: _Context) -> ScopeReading | None:
    """"game 4", "the 2nd match": the match at that place among every match in start order, as if named; a place past
    the last match is a selection with no match (refused, never answered from another match)."""
    found = _NUMBERED.search(text)
    if found is None or not context.match_ids:
        return None
    place = _place(found)
    rest = _cut(text, found)
    if not 1 <= place <= len(context.match_ids):
        return ScopeReading(kind="matches", selection=AllMatches(), words=(found.group(0),), rest=rest, number=place)
    return ScopeReading(kind="match", match_id=context.match_ids[place - 1], words=(found.group(0),), rest=rest,
                        number=place)


def _latest(text: str, context: _Context) -> ScopeReading | None:
    """"the latest game", "last match", "the most recent game": the warehouse's latest match, as if named."""
    found = _LATEST.search(text)
    if found is None or not context.match_ids:
        return None
    if re.search(r"\b(?:his|her|their|my)\s", found.group(0)):  # a player's last game: resolved against the player
        return ScopeReading(kind="matches", last=1, words=(found.group(0),), rest=_cut(text, found))
    return ScopeReading(kind="match", match_id=context.match_ids[-1], words=(found.group(0),), rest=_cut(text, found))


def _month_day(text: str, context: _Context) -> ScopeReading | None:
    """A day named by its month and day ("on sept 7th", "3 september", "sep 7, 2025"): the matches of that day;
    without a year, the latest such day not after the latest match."""
    found = _MONTH_DAY.search(text) or _DAY_MONTH.search(text)
    if found is None:
        return None
    month, day, year = _month_number(found.group("month")), int(found.group("day")), found.group("year")
    anchor = context.anchor
    if year is None:
        year = anchor.year - ((month, day) > (anchor.month, anchor.day))
    try:
        on = date(int(year), month, day)
    except ValueError:
        return None
    return _dated(found, on, text)


def _dated(found: re.Match, on: date, text: str) -> ScopeReading:
    """The matches of the day `found` names, or of the range it bounds ("since the 10th", "before march 3")."""
    word = found.group("word")
    selection = _day_range(word, on) if word else DateRange.days(on, on)
    return ScopeReading(kind="matches", selection=selection, words=(found.group(0),), rest=_cut(text, found),
                        one_day=word is None)


# A day of the month alone, with its ordinal: "on the 12th" (of the latest match's month, or the month before
# when that day is still to come). Not "the 3rd minute", "the 2nd game": a count of something else.
_ON_NTH = re.compile(r"\b(?:on|from|during|" + _BOUND_WORD + r")\s+the\s+(?P<day>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)\b"
                     r"(?!\s*(?:of\b|minutes?|mins?|seconds?|secs?|place|time|try|wave|kill|death|blood|tower|game|"
                     r"match|round|pick|level|item|fight|objective|phoenix|titan)\b)")


def _nth_day(text: str, context: _Context) -> ScopeReading | None:
    found = _ON_NTH.search(text)
    if found is None:
        return None
    day, anchor = int(found.group("day")), context.anchor
    year, month = (anchor.year, anchor.month) if day <= anchor.day else (
        (anchor.year, anchor.month - 1) if anchor.month > 1 else (anchor.year - 1, 12))
    try:
        on = date(year, month, day)
    except ValueError:
        return None
    return _dated(found, on, text)


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = r"(?P<weekday>" + "|".join(_WEEKDAYS) + r")"
# A day of the week: "on tuesday", "from last friday", "sunday's game"; the latest such day not after the latest
# match's. A bare weekday word is left alone (it may be part of a name).
_ON_WEEKDAY = re.compile(r"\b(?:on|from|during)\s+(?:last\s+|this\s+|the\s+)?" + _WEEKDAY + r"\b"
                         r"|\b(?:last\s+)?" + _WEEKDAY.replace("weekday", "weekday2") + r"(?:'s|s)?\s+(?:game|match)\b")


def _weekday(text: str, context: _Context) -> ScopeReading | None:
    found = _ON_WEEKDAY.search(text)
    if found is None:
        return None
    wanted = _WEEKDAYS.index(found.group("weekday") or found.group("weekday2"))
    on = context.anchor - timedelta(days=(context.anchor.weekday() - wanted) % 7)
    return ScopeReading(kind="matches", selection=DateRange.days(on, on), words=(found.group(0),),
                        rest=_cut(text, found), one_day=True)


def one_match_of_a_day(scope: ScopeReading) -> bool:
    """A question about one day's matches that asks what one match has ("who drew first blood on 2026-06-03"): it is
    answered as that day's match when the day has exactly one; a figure across matches by nature stays one."""
    return scope.one_day and not (_ACROSS_BY_NATURE.search(scope.rest) or _CAREER.search(scope.rest))


def matches_in(selection: DateRange, matches: Sequence[tuple[str, datetime | None]]) -> list[str]:
    """The ids of `matches` (id, start) that started inside the date range, in the order given."""
    return [m for m, started in matches if started is not None
            and (selection.since is None or started.replace(tzinfo=None) >= selection.since)
            and (selection.until is None or started.replace(tzinfo=None) < selection.until)]


# The readers in order: the first that finds its words decides (a named match beats everything).
_READERS = (_by_name, _numbered, _previous, _last, _latest, _between, _on_day, _month_day, _weekday, _nth_day, _days, _relative_dates, _month,
            _every_match, _recent_form, _by_nature, _habit, _player_average)

# Scope and match-figure words a typist gets wrong: a letter left out, one doubled, two swapped ("overal",
# "thsi", "lenght", "gmaes"). A substituted letter is not read, as it often makes another word ("reason", "gamer"),
# nor a slip that is itself a word ("game" is no slip of "games", "ever" none of "every").
_SPELLED = ("overall", "season", "across", "this", "length", "average", "total", "latest", "duration", "games",
            "matches", "game", "match")
_WISE = re.compile(r"\b([a-z/]+)-wise\b")
# The suffix written onto its figure ("killwise", "goldwise"): read only when the stem is a figure word, so
# "otherwise" and "likewise" stay words. "In terms of kills" says the same as "by kills".
_JOINED_WISE = re.compile(r"\b([a-z]{3,})wise\b")
_IN_TERMS_OF = re.compile(r"\bin\s+terms\s+of\b")


def _near_misses(word: str) -> frozenset[str]:
    """Every word one typing slip away from `word`: one letter left out, one added twice, two neighbours swapped."""
    left_out = {word[:i] + word[i + 1:] for i in range(len(word))}
    doubled = {word[:i] + word[i] + word[i:] for i in range(len(word))}
    swapped = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
    return frozenset((left_out | doubled | swapped) - {word})


_MISSPELT = {slip: word for word in _SPELLED for slip in _near_misses(word)
             if len(slip) >= 4 and slip not in known_words() and slip not in _SPELLED}
_MISSPELT["dmg"] = "damage"  # the one figure word shortened so often that it reads as a word of its own


def _respelled(text: str) -> tuple[str, tuple[str, ...]]:
    """The text with slips of scope and match-figure words mended and "kda-wise" read as "by kda", and what was
    read so: a qualifier suffix says which figure, it is not a name."""
    said: list[str] = []

    def mend(found: re.Match) -> str:
        word = found.group(0)
        if word in _MISSPELT:
            said.append(f"'{word}' read as '{_MISSPELT[word]}'")
            return _MISSPELT[word]
        return word

    text = re.sub(r"[a-z]+", mend, text)
    text = _JOINED_WISE.sub(lambda m: f"{m.group(1)}-wise" if _figure_stem(m.group(1)) else m.group(0), text)
    for found in _WISE.finditer(text):
        said.append(f"'{found.group(0)}' read as 'by {found.group(1)}'")
    for found in _IN_TERMS_OF.finditer(text):
        said.append(f"'{found.group(0)}' read as 'by'")
    return _IN_TERMS_OF.sub("by", _WISE.sub(r"by \1", text)), tuple(said)


def _figure_stem(stem: str) -> bool:
    """A word a figure is said by ("kill", "gold", "dmg"), before a joined "wise"."""
    return stem in domain_words() or stem in _MISSPELT.values() or stem == "dmg"


def _contracted(text: str, players: tuple[str, ...]) -> str:
    """The text with its contractions typed without an apostrophe written out ("didnt", "theyre":
    `spelling.contractions`), a player's name kept as typed."""
    kept = [(m.start(), m.end()) for p in players if p.replace("'", "").isalpha()
            for m in re.finditer(rf"(?<!\w){re.escape(p.lower())}(?!\w)", text)]
    return contractions(text, kept)


def read_scope(question: str, match_ids: tuple[str, ...] = (), latest: datetime | None = None,
               players: tuple[str, ...] = (), gods: tuple[str, ...] = ()) -> ScopeReading:
    """The question's scope words (see the module docstring) and the question without them; `players` (every
    player's name) lets a player's average read as every match, `gods` (every god's) two gods' averages."""
    text, spelled = _respelled(_spelled_out(_contracted(" ".join(question.lower().split()), players)))
    context = _Context(match_ids, (latest or datetime(1970, 1, 1)).date(), tuple(p.lower() for p in players),
                       tuple(g.lower() for g in gods))
    for reader in _READERS:
        found = reader(text, context)
        if found is not None:
            return replace(found, spelled=spelled)
    return ScopeReading(kind="none", rest=text, spelled=spelled)
