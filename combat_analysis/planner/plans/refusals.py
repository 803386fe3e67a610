"""What the planner will not answer, and how it says so.

Hostile text (SQL, commands, prompt injection) and questions about things a combat log does not hold
(weather, ranks, chat, prices, the people behind the names...) are refused before any plan is made. A name
that is nobody in this match is refused rather than answered with match totals. Every refusal carries three
answerable suggestions with no digits, so a refusal never shows an invented number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from combat_analysis.contracts.plan import Intent, QueryPlan, Refusal
from combat_analysis.planner.read.names import COMMON_WORDS, fold
from combat_analysis.planner.read.reading import Reading, normalize
from combat_analysis.planner.vocabulary import Vocabulary

HOSTILE = re.compile(
    r"""
    \b(drop|truncate)\s+(table|view|database|schema|macro|secret)\b
    | \bdelete\s+from\b | \binsert\s+into\b | \bupdate\s+\w+\s+set\b | \balter\s+table\b
    | \bcreate\s+(or\s+replace\s+)?(table|view|macro|function|secret|schema|temp)\b
    | \b(attach|detach)\s+(database\b|['"])| \bcopy\s+\w+\s+(to|from)\b | \bpragma\s+\w+
    | \b(install|load)\s+(extension\b|httpfs\b|\w+\s*;) | \bexport\s+database\b
    | ;\s*(--|/\*|select\b|drop\b|delete\b|insert\b|update\b|alter\b|create\b|attach\b|copy\b|pragma\b|
           install\b|load\b|set\b|truncate\b|shutdown\b|exec\b)
    | --\s*$ | /\* | \bunion\s+(all\s+)?select\b | \bselect\s+\* | \bselect\s+.+\s+from\s+\w+\s*(where|limit|order|group|join|;|$)
    | \bread_(csv|csv_auto|parquet|json|json_auto|json_objects|text|blob|ndjson)\b | \bglob\s*\( | \bparquet_scan\b
    | \bsniff_csv\b | \bquery_table\b | \bgetenv\s*\( | /etc/ | \bpasswd\b | \b(file|https?|s3|gs)://
    | \bos\.system\b | \b__import__\b | \bsubprocess\b | \brm\s+-rf\b | <script | \$\{ | \{\{ | \bxp_cmdshell\b
    | \bsleep\s*\( | \b1\s*=\s*1\b | '\s*or\s*' | \bor\s+'?\w+'?\s*=\s*'?\w+ | \bignore\s+(all\s+|any\s+)?(previous|prior|above)\s+instructions\b
    | \bsystem\s+prompt\b | \bsql\s+injection\b
    """,
    re.IGNORECASE | re.VERBOSE,
)

# (pattern, what the log does not hold); checked on the question with names masked.
_OUT_OF_SCOPE_PATTERNS = [
    (r"\bweather\b|\brain(ing|y)?\b|\bsnow(ing)?\b|\btemperature\b|\bsunny\b|\bforecast\b", "the weather"),
    (r"\b(what|which)\s+rank\b|\brank(ed)?\s+(is|was|are|were|of)\b|\bcurrent\s+rank\b|\b(their|his|her|my|its)\s+rank\b"
     r"|\branked\s+(tier|division|ladder|points|rating|mode)\b|\bis\s+\S+\s+ranked\b|\b(elo|mmr|lp|ladder|division|"
     r"matchmaking|skill\s+rating|rating)\b|\btier\b", "ranks, ratings or matchmaking"),
    # The queue, mode and platform a match was played in: the log's start line holds only the match id. "Ranked" as
    # an order ("players ranked by damage", "in ranked order") stays a ranking.
    (r"\b(?:in|on|during|for|from|of|at)\s+(?:a\s+|the\s+|my\s+|our\s+|their\s+)?(?:un)?ranked\b(?!\s+(?:by|order|list))"
     r"|\b(?:un)?ranked\s+(?:games?|matches|match|queues?|play|lobb(?:y|ies)|conquest|joust|arena|modes?)\b"
     r"|\b(?:casual|normals?|quick\s*play|customs?|unranked|competitive|league)\s+(?:games?|matches|match|queues?|"
     r"lobb(?:y|ies)|modes?)\b|\bin\s+(?:casual|normals|quick\s*play|customs)\b"
     r"|\b(?:in|on|of)\s+(?:the\s+)?(?:conquest|joust|arena)(?:\s+(?:mode|map|games?|matches))?\b"
     r"|\b(?:game|queue)\s+(?:mode|type)\b"
     r"|\b(?:on|from)\s+(?:the\s+)?(?:console|consoles|pc|xbox|playstation|ps[45]|switch|controller|crossplay)\b"
     r"|\b(?:console|pc|xbox|playstation)\s+(?:players?|games?|matches|lobb(?:y|ies)|version)\b",
     "the queue, game mode or platform a match was played in (ranked or casual, Conquest or Arena, PC or console)"),
    (r"\bwin\s*rates?\b|\bwinrates?\b|\bwin\s+percentage\b|\bseasons?\b|\bcareer\b|\ball[-\s]time\b|\bother\s+(matches|games)\b"
     r"|\bprevious\s+(matches|games)\b|\blast\s+(week|month|year)\b|\bhistory\b|\bacross\s+(matches|games)\b"
     r"|\bmatch\s+history\b|\blifetime\b", "other matches or seasons; it holds this one match"),
    (r"\bchat(ted|ting)?\b|\bvoice\b|\bsaid\b|\bsay\b|\bmessages?\b|\btyped\b|\btalk(ed|ing)?\b|\bping(ed|s)?\b|\bemote",
     "chat, voice or pings"),
    (r"\blore\b|\bbackstory\b|\bback\s+story\b|\bmytholog|\bpantheon\b|\blegend\s+of\b|\bstory\s+of\b|\bwho\s+is\s+(the\s+)?god\b",
     "a god's lore"),
    (r"\blag\b|\blatency\b|\bfps\b|\bframe\s*rate\b|\bconnection\b|\bdisconnect|\bserver\s+(region|location)\b|\bhardware\b",
     "network or hardware details"),
    (r"\bpatch\b|\bnerf|\bbuff(ed|s)?\b|\bmeta\b|\btier\s+list\b|\bshould\s+(i|we|he|she|they)\b|\brecommend|\bcounter\s+pick"
     r"|\bwhat\s+should\b|\bbest\s+build\s+for\b|\bguide\b|\btips?\b", "advice, patches or the meta"),
    (r"\b(cost|costs|price|prices|priced)\b|\bhow\s+much\s+(is|was|does|did)\s+(a|an|the)?\s*\S+\s+cost\b",
     "item prices (the number in a purchase line is not a cost)"),
    (r"\breal\s+name\b|\bage\b|\bhow\s+old\b|\bcountry\b|\bnationality\b|\bwhere\s+(does|do|is)\s+\S+\s+(live|from)\b"
     r"|\bstream(er|s|ing)?\b|\btwitch\b|\bphone\b|\bemail\b|\baddress\b|\bsalary\b"
     r"|\b(good|bad|nice|kind|friendly|toxic|mean|rude|honest|smart|funny)\s+(person|guy|human|people|man|woman|"
     r"teammate|friend|player\s+to\s+play\s+with)\b|\b(personality|character\s+traits?)\b",
     "anything about the people behind the names"),
    (r"\bskins?\b|\bcosmetics?\b|\bwallpaper\b", "cosmetics"),
    (r"\bmood\b|\bangry\b|\btilted\b|\bhappy\b|\bfeel(ing|s)?\b|\bemotion", "how anyone felt"),
    (r"\bstock\b|\bbitcoin\b|\bpresident\b|\bcapital\s+of\b|\brecipe\b|\bjoke\b|\bpoem\b|\bsong\b|\bwrite\s+(me\s+)?(a|an)\b"
     r"|\btranslate\b|\bcode\b|\bpython\b|\bjavascript\b|\blottery\b|\belection\b|\bbet(s|ting)?\b|\bodds\b",
     "anything outside this match"),
    (r"\bweigh(s|t|ed)?\b|\bheight\b|\bhow\s+(tall|big|heavy|fast)\s+is\b|\bcolou?r\s+(is|was)\b|\bwhat\s+colou?r\b",
     "what things weigh, measure or look like; it holds numbers of the match"),
    (r"\bwhere\s+(is|was|were)\b.*\b(standing|positioned|located)\b|\bmap\s+position\b|\bwards?\b|\bvision\b",
     "positions in a form this planner can answer"),
    (r"\b(ability|skill)\s+(level|rank|order|points)\b|\blevel(ed)?\s+up\b|\bcooldowns?\b|\bhealth\s+bar\b|\bmana\b",
     "ability levels, cooldowns, mana or health"),
]
_OUT_OF_SCOPE = [(re.compile(p, re.IGNORECASE), what) for p, what in _OUT_OF_SCOPE_PATTERNS]

GENERIC_SUGGESTIONS = ("Who dealt the most damage?", "Which team won the match?", "Who got first blood?")


def suggestions(vocab: Vocabulary) -> tuple[str, ...]:
    """Three answerable questions with no digits in them (a refusal must not show invented numbers)."""
    plain = [p.player for p in vocab.players if not any(c.isdigit() for c in p.player)]
    if plain:
        return (f"How much damage did {plain[0]} deal?", "Which team won the match?", "Who got first blood?")
    return GENERIC_SUGGESTIONS


def refusal(question: str, reason: str, suggestions: Sequence[str], assumptions: Sequence[str] = (),
            options: Sequence[str] = ()) -> QueryPlan:
    """A REFUSE plan with its reason and suggestions (no vocabulary needed: the suggestions are given)."""
    return QueryPlan(question=question, intent=Intent.REFUSE,
                     refusal=Refusal(reason=reason, suggestions=tuple(suggestions), options=tuple(options)),
                     assumptions=tuple(assumptions), summary="Refused: " + reason)


def refuse(question: str, vocab: Vocabulary, reason: str, assumptions: Sequence[str] = (),
           options: Sequence[str] = ()) -> QueryPlan:
    return refusal(question, reason, suggestions(vocab), assumptions, options)


def no_digits(text: str) -> str:
    return re.sub(r"\s{2,}", " ", re.sub(r"\d+", "", text)).strip()


def hostile(masked: str) -> bool:
    return bool(HOSTILE.search(masked))


def out_of_scope(masked: str) -> str | None:
    """What the log does not hold that the question asks about, or None."""
    text = normalize(masked)
    return next((what for pattern, what in _OUT_OF_SCOPE if pattern.search(text)), None)


_NAME_SLOT = re.compile(
    r"\b(?:did|does|do|was|is|has|had|for|of|by|about|from)\s+([^\s?!,]+?)(?:'s)?\s+(?:deal|do|did|get|got|heal|earn|take|"
    r"have|had|build|buy|bought|die|kill|score|make|land|mitigate|use|play|perform|end|finish|KDA|kda|damage|dmg|gold|kills|"
    r"deaths|assists|healing|xp|experience|build|items)\b", re.IGNORECASE)
_NOT_NAMES = frozenset('''name the a an each every any anyone someone everyone team teams player players he she they it
his her their them him we you i me who which what that this both all enemy enemies jungle support mid middle carry adc solo
jungler hunter mage winners losers winning losing order chaos most top one two three first last total overall average
more less fewer much many some no enough high low best worst bottom biggest highest lowest least any all every
team's player's god gods role roles minions towers tower bosses structures jungle's support's carry's solo's mid's
npc everybody nobody somebody zero no none'''.split())
_GAMERTAG = re.compile(r"(?<![\w'])(?:[A-Za-z]+\d+[A-Za-z\d]*|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|\w+_\w+)(?![\w'])")
_NOT_GAMERTAGS = re.compile(r"^(?:team\s*\d|top\d+|k\d|q\d|NAME|\d+(?:st|nd|rd|th|s|m|k)|[a-z]+\d+s)$", re.IGNORECASE)


def unknown_name(masked: str, r: Reading) -> str | None:
    """A name that is nobody in this match: a word in a player's slot ("how much damage did Bob deal"), or
    anything shaped like a gamertag (digits, underscores, camel case) that matched no one."""
    for tag in _GAMERTAG.finditer(masked):
        if not _NOT_GAMERTAGS.match(tag.group(0)) and fold(tag.group(0)) not in _NOT_NAMES:
            return tag.group(0)
    if r.named or r.npcs or r.ambiguous:
        return None
    m = _NAME_SLOT.search(masked)
    if not m:
        return None
    word = m.group(1)
    if (fold(word) in _NOT_NAMES or fold(word).rstrip("s") in _NOT_NAMES or fold(word) in COMMON_WORDS
            or re.fullmatch(r"team\s*\d", word, re.I)):
        return None
    return word


def unknown_name_refusal(question: str, vocab: Vocabulary, word: str) -> QueryPlan:
    if any(c.isdigit() for c in word):
        return refuse(question, vocab, "No player of that name is in this match, so this cannot be answered from "
                      "its combat log.")
    return refuse(question, vocab, f"No player called '{no_digits(word)}' is in this match, so this cannot be "
                  "answered from its combat log.")


def ambiguity_refusal(question: str, vocab: Vocabulary, r: Reading) -> QueryPlan | None:
    """'night' fits nightOwl_77 and NightHawk: ask which one rather than guess."""
    if not r.ambiguous:
        return None
    m = r.ambiguous[0]
    options = m.candidates
    return refuse(question, vocab, f"'{no_digits(m.said)}' fits more than one player in this match, so I cannot "
                  "tell whose figures you want; please name the player.", options=options)
