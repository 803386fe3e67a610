"""The words of a question: metric synonyms, intent and grouping cues, and `read_question`, which turns a
question into a `Reading` (names found and masked, time window, teams, roles, metrics, groupings).

Only reading happens here; `offline` decides what plan a reading becomes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from combat_analysis.catalog import METRICS, metric
from combat_analysis.plan import TimeWindow
from combat_analysis.planner.entities import Mention, find_mentions, find_roles, find_teams, fold, mask
from combat_analysis.planner.timewords import parse_time
from combat_analysis.planner.vocabulary import Vocabulary

# ------------------------------------------------------------------------------------------- metrics

def normalize(text: str) -> str:
    text = fold(text).replace("’", "'").replace("‘", "'")
    text = re.sub(r"(?<=\w)-(?=\w)", " ", text)
    return re.sub(r"\s+", " ", text)


def _phrase_pattern(phrase: str) -> re.Pattern:
    words = [re.escape(w) for w in normalize(phrase).split(" ")]
    return re.compile(r"(?<![\w/])" + r"\s+".join(words) + r"(?![\w/])")


@dataclass(frozen=True)
class _Synonym:
    phrase: str
    metric_id: str
    weak: bool
    pattern: re.Pattern


def _synonyms() -> tuple[_Synonym, ...]:
    out = []
    for m in METRICS.values():
        for phrase in (m.id.replace("_", " "), m.label, *m.synonyms):
            out.append(_Synonym(normalize(phrase), m.id, False, _phrase_pattern(phrase)))
        for phrase in m.weak_synonyms:
            out.append(_Synonym(normalize(phrase), m.id, True, _phrase_pattern(phrase)))
    return tuple(sorted(out, key=lambda s: -len(s.phrase)))


SYNONYMS = _synonyms()
_SINGLE_WORDS = {s.phrase: s.metric_id for s in SYNONYMS if " " not in s.phrase and len(s.phrase) >= 4 and not s.weak}

_DAMAGE_TARGET = re.compile(
    r"\b(?:to|against|on|into|hit|hitting|damaged|damaging|attacked|attacking)\s+(?:the\s+|enemy\s+|other\s+|opposing\s+)*(gods?|players?|champions?|heroes|heros|enemies|"
    r"towers?|structures?|buildings?|phoenix(?:es)?|titans?|minions?|creeps?|waves?|jungle(?:\s+camps|\s+monsters)?|camps?|"
    r"monsters?|bosses|boss|gold\s+fur(?:y|ies)|fire\s+giants?)\b")
_RECEIVE = re.compile(r"\b(take|takes|took|taken|taking|receive|received|receiving|absorb|absorbed|tank|tanked|suffer|"
                      r"suffered|get\s+hit|got\s+hit)\b")
_TARGET_METRIC = [
    (r"god|player|champion|hero|enem", "damage_to_players"), (r"tower|structure|building|phoenix|titan", "damage_to_structures"),
    (r"minion|creep|wave", "damage_to_minions"), (r"jungle|camp|monster", "damage_to_jungle"),
    (r"boss|fury|furies|giant", "damage_to_bosses"),
]


def find_metrics(text: str) -> tuple[list[str], list[str]]:
    """Metric ids named in `text` (normalized), in order of appearance, and the readings made."""
    taken = [False] * (len(text) + 1)
    strong: list[tuple[int, str, str]] = []
    weak: list[tuple[int, str, str]] = []
    for syn in SYNONYMS:
        for m in syn.pattern.finditer(text):
            if any(taken[m.start():m.end()]):
                continue
            if syn.weak:
                weak.append((m.start(), syn.metric_id, syn.phrase))
                continue
            for i in range(m.start(), m.end()):
                taken[i] = True
            strong.append((m.start(), syn.metric_id, syn.phrase))
    notes: list[str] = []
    specific = {"damage_taken", "damage_mitigated", "damage_to_players", "damage_to_structures", "damage_to_minions",
                "damage_to_jungle", "damage_to_bosses", "dpm", "biggest_hit", "crits"}
    if any(mid in specific for _, mid, _ in strong):
        strong = [s for s in strong if not (s[1] == "damage_dealt" and s[2] in ("damage", "dmg"))]
    objectives = {"towers", "phoenixes", "titans", "gold_furies", "fire_giants", "objectives_taken"}
    if any(mid in objectives for _, mid, _ in strong):
        # "how many gold furies did team 1 kill": the verb is not a request for player kills
        strong = [s for s in strong if not (s[1] == "kills" and s[2] in ("kill", "killed", "slain", "killing blows"))]
    found = [mid for _, mid, _ in sorted(strong)]
    if not found and weak:
        start, mid, phrase = sorted(weak)[0]
        found = [mid]
        notes.append(f"'{phrase}' read as {metric(mid).label}")
    if "damage_dealt" in found and _RECEIVE.search(text):
        found = ["damage_taken" if f == "damage_dealt" else f for f in found]
    if "healing_done" in found and _RECEIVE.search(text):
        found = ["healing_received" if f == "healing_done" else f for f in found]
    damage = {"damage_dealt", "damage_to_players"}
    target = _DAMAGE_TARGET.search(text)
    if target and any(f in damage for f in found):
        kind = next(mid for pat, mid in _TARGET_METRIC if re.search(pat, target.group(1)))
        objectives = {"towers", "phoenixes", "titans", "gold_furies", "fire_giants", "objectives_taken"}
        found = [kind if f == "damage_dealt" else f for f in found if f not in objectives]
    if not found:
        for word in re.findall(r"[a-z][a-z']{3,}", text):
            close = difflib.get_close_matches(word, _SINGLE_WORDS, n=1, cutoff=0.8)
            if close and word not in _COMMON_NON_METRIC:
                found.append(_SINGLE_WORDS[close[0]])
                notes.append(f"'{word}' read as '{close[0]}'")
                break
    unique: list[str] = []
    for f in found:
        if f not in unique:
            unique.append(f)
    return unique, notes


_COMMON_NON_METRIC = frozenset("""which what whos with that this then than them they their there where when were
team teams match game player players most more many much have most team's about show tell give list each every
both against during after before between first last early late role roles gods ability abilities item items
compare versus total overall entire whole winners losers best worst highest lowest least fewest top""".split())

# ------------------------------------------------------------------------------------- the reading

SUPERLATIVE = re.compile(
    r"\b(most|highest|best|top|biggest|largest|greatest|hardest|strongest|least|lowest|fewest|worst|smallest|minimum|maximum|"
    r"max|min|bottom|leaderboard|leader|leaders|led|leading|rank|ranking|order\s+by|sort(?:ed)?\s+by|more\s+than\s+anyone|"
    r"richest|poorest|carried|mvp|fragger|more|fewer|less|top\d+)\b")
ASCENDING = re.compile(r"\b(least|lowest|fewest|worst|smallest|minimum|min|bottom|poorest)\b")
TOP_N = re.compile(r"\b(?:top|best|bottom|worst|first)\s*(\d{1,2}|three|five|ten|two|four)\b")
COMPARE = re.compile(r"\b(compare|compared|comparison|versus|vs\.?|against\s+each\s+other|difference\s+between|head\s+to\s+head)\b")
TIMELINE = re.compile(
    r"\b(over\s+time|each\s+minute|every\s+minute|minute\s+by\s+minute|by\s+minute|per\s+minute\s+(?:breakdown|chart|graph)|"
    r"timeline|time\s+line|time\s+series|trend|progress(?:ion)?|evolution|evolve[ds]?|graph|chart|plot|curve|"
    r"as\s+the\s+(?:match|game)\s+went\s+on|throughout\s+the\s+(?:match|game))\b")
PER_MINUTE = re.compile(r"\bper\s+min(?:ute)?\b|\ba\s+minute\b")
BREAKDOWN = re.compile(r"\b(break\s*down|broken\s+down|breakdown|split|distribution|distributed|composition|made\s+up|"
                        r"by\s+(?:ability|abilities|skill|item|target|source|phase)|per\s+(?:ability|skill|item|target|phase)|"
                        r"where\s+did\b.*\bgo|which\s+sources?|what\s+sources?|use[ds]?|using)\b")

_GROUP_RULES = [
    ("role", r"\b(which|what|each|every|per|by|all|the)\s+(roles?|positions?|lanes?)\b|\broles\b|\brole\s+(?:dealt|did|had|got|healed|took)\b"),
    ("god", r"\b(which|what|each|every|per|by)\s+(gods?|characters?|champions?|heroes)\b|\bgods\s+(?:dealt|did|had)\b"),
    ("team", r"\b(which|what|each|every|per|by|both|the\s+two)\s+(teams?|sides?)\b(?!\s*(?:\d|one\b|two\b))|\bteam\s+totals?\b|\bteams\b|\bsides\b|\b(?:final\s+)?score(?:line)?\b"),
    ("ability", r"\b(which|what|each|every|per|by|top|most\s+\w+)\s+(abilit(?:y|ies)|skills?|spells?|moves?|attacks?)\b"
                r"|\babilit(?:y|ies)\b|\bskills\b|\bspells\b"),
    ("item", r"\b(which|what|each|every|per|by)\s+items?\b|\bitems?\s+(?:was|were)\s+(?:bought|purchased)\b"),
    ("target_kind", r"\b(which|what|each|every|per|by)\s+(?:kinds?\s+of\s+|types?\s+of\s+)?targets?(?:\s+kinds?|\s+types?)?\b"
                    r"|\bwhere\s+did\b.*\b(damage|dmg)\b.*\bgo\b|\bwhat\s+did\s+name\s+(?:hit|damage|attack)\b"),
    ("phase", r"\b(each|every|per|by|which)\s+(?:game\s+)?phases?\b|\bearly,?\s+mid,?\s+(?:and|&)\s+late\b"),
    ("objective", r"\b(which|what|each|every|per|by)\s+objectives?\b"),
    ("player", r"\bwho(?:s|'s|se|m)?\b|\bwhich\s+(?:player|person|one|guy|god\s+player)\b|\bwhat\s+player\b|\beach\s+player\b|"
               r"\bper\s+player\b|\bby\s+player\b|\bplayers\b|\bfragger\b|\bmvp\b|\bleaderboard\b|\bscoreboard\b|\bwhom\b|\banyone\b"),
]
_GROUP_RULES = [(dim, re.compile(p)) for dim, p in _GROUP_RULES]


def group_cues(text: str) -> list[str]:
    return [dim for dim, pattern in _GROUP_RULES if pattern.search(text)]


FIRST_BLOOD = re.compile(r"\bfirst\s+(blood|kill|death|takedown)\b|\b(died|killed|die)\s+first\b|\bfirst\s+(?:player\s+|one\s+)?to\s+(die|be\s+killed|get\s+a\s+kill)\b|\bfb\b|\bopened\s+the\s+scoring\b|\bdrew\s+first\s+blood\b")
WINNER = re.compile(r"\b(won|win|wins|winner|winners|winning|victory|victorious|lost|lose|loser|losers|outcome|result|beat)\b")
BUILD = re.compile(r"\bbuild(s|ing)?\b|\bbuilt\b|\bbuild\s+order\b|\bitems?\b.*\b(buy|bought|purchas\w*|get|got|pick\w*|have|had|use[ds]?)\b|"
                    r"\b(buy|bought|purchas\w*)\b.*\bitems?\b|\bwhat\s+did\s+name\s+(buy|purchase)\b|\bwhat\s+did\s+.*\b(buy|purchase)\b|"
                    r"\bwho\s+(bought|purchased|built)\b|\bshopping\s+list\b|\binventory\b|\bname\s+items?\b")
HOW_MANY = re.compile(r"\bhow\s+(many|much)\b|\bnumber\s+of\b|\bcount\b|\btotal\b|\bin\s+total\b")
KILL_LIST = re.compile(r"\b(kill\s*feed|kill\s+list|list\s+(?:of\s+|all\s+(?:the\s+)?|the\s+)?kills|every\s+kill|all\s+(?:the\s+)?kills|"
                        r"each\s+kill|who\s+killed|who\s+did\s+name\s+kill|when\s+did\s+name\s+die|whom\s+did|killed\s+by\s+whom|"
                        r"who\s+was\s+killed\s+by|deaths?\s+of\s+name|kills?\s+timeline|show\s+(?:me\s+)?(?:the\s+)?kills)\b")
OBJECTIVE_WORDS = re.compile(r"\b(objectives?|towers?|phoenix(?:es)?|titans?|gold\s+fur(?:y|ies)|fire\s+giants?|bosses|structures?)\b")
OBJECTIVE_LIST = re.compile(r"\b(when|list|show|which|what|who|timeline|order|sequence|took|destroyed|killed|fell|taken|secured)\b")
OBJECTIVE_VALUES = [("tower", r"towers?"), ("phoenix", r"phoenix(?:es)?"), ("titan", r"titans?"),
                     ("gold fury", r"gold\s+fur(?:y|ies)"), ("fire giant", r"fire\s+giants?")]
MATCH_FACTS = re.compile(r"\bhow\s+long\b|\b(match|game)\s+last(ed)?\b|\bhow\s+many\s+minutes\s+(did|was|were)\s+(the\s+)?(match|game)\b|\b(match|game)\s+(length|duration|time)\b|\bduration\b|"
                          r"\bwhen\s+did\s+the\s+(match|game)\s+(end|start|begin|finish)\b|\bmatch\s+id\b")
ROSTER = re.compile(r"\bwho\s+(played|was\s+playing|picked)\b|\b(which|what)\s+(role|god|team)\s+(is|was|did|does|were)\b|"
                     r"\bwhat\s+(gods|roles)\s+were\b|\b(list|show)\s+(me\s+)?(the\s+|all\s+)?players\b|\broster\b|"
                     r"\bline\s*ups?\b|\bwho\s+(was|were|is|are)\s+(on|in)\s+team\b|\bwhich\s+players\s+(were|are)\s+on\b|"
                     r"\bplayed\s+(as\s+)?(which|what)\b|\bteam\s+compositions?\b|\bwho\s+were\s+the\s+players\b")
# "where did players die", "death heatmap": positions come from the kill feed's locations
POSITIONS = re.compile(r"\bwhere\b.*\b(die|died|dying|death|deaths|kill|kills|killed|fights?|fought|ganks?)\b|"
                       r"\bheat\s*maps?\b|\b(kill|death)\s+(positions?|locations?|map)\b")
WHAT_HAPPENED = re.compile(r"\bwhat\s+happened\b|\bkey\s+moments\b|\bkey\s+events\b")
VICTIM = re.compile(r"\b(?:kill|kills|killed|killing|slay|slew|slain)\s+name\b|\bkills?\s+(?:on|against)\s+name\b|"
                     r"\b(?:get|got|had|have|score|scored)\s+(?:on|against)\s+name\b")
PRONOUN = re.compile(r"\b(him|her|he|she|his|hers|they|them|their|that\s+player|this\s+player|that\s+guy|the\s+same\s+player)\b")
FOLLOW_UP_START = re.compile(r"^\s*(and|what\s+about|how\s+about|same\s+(?:for|but|with)|now|only|just|also|but|ok(?:ay)?|then|"
                              r"what\s+if|for|in|during|per|by|versus|vs)\b")
QUESTION_WORD = re.compile(r"\b(who|whos|what|which|how|when|where|list|show|compare|did|does|was|were|give|tell|rank)\b")
SCOREBOARD = re.compile(r"\b(scoreboard|summary|summari[sz]e|overview|stats|statistics|stat\s+line|box\s+score|how\s+did\s+.+\s+(do|play|perform)|"
                         r"performance|recap|tell\s+me\s+about|how\s+was|how\s+did\s+the\s+(match|game)\s+go)\b")
DEPENDENT = re.compile(
    r"\b(?:the\s+)?(?:player|one|person|guy|god|someone|whoever)\s+(?:with|who\s+(?:had|got|dealt|did|earned|took|landed|made))\s+"
    r"(?:the\s+)?(?:most|highest|best|biggest|largest|top)\s+([a-z' /]+?)(?=\s+(?:use|used|build|built|buy|bought|get|got|deal|"
    r"dealt|do|did|earn|earned|take|took|have|had|heal|healed|make|made|purchase|purchased)\b|[?.!,]|$)"
    r"|\b(?:the\s+)?(?:top|biggest|best|highest|leading|main)\s+([a-z' ]*?)\s*(?:dealer|earner|fragger|healer|killer|carry|"
    r"scorer|tank|player|leader|assister)\b"
    r"|\b(?:the\s+)?([a-z' ]+?)\s+leader\b|\bthe\s+(mvp)\b")


@dataclass
class Reading:
    """What a question's words say, before they become a plan."""

    question: str
    text: str  # normalized, names masked, time phrase removed
    players: list[str] = field(default_factory=list)
    gods: list[str] = field(default_factory=list)
    abilities: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    npcs: list[str] = field(default_factory=list)
    teams: list[int | None] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    window: TimeWindow | None = None
    at_minute: int | None = None
    metrics: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)


def _spelling(text: str) -> str:
    # case, spaces, punctuation and a possessive don't change a name; accents do (worth stating)
    return re.sub(r"[\W_]+", "", re.sub(r"['’]s$", "", text.casefold()))


def _mention_notes(mentions: Sequence[Mention]) -> list[str]:
    notes = []
    for m in mentions:
        if m.how != "exact" or _spelling(m.said) != _spelling(m.name):
            notes.append(f"'{m.said}' read as {m.name}" + ("" if m.kind == "player" else f" ({m.kind})"))
    return notes


def read_question(question: str, vocab: Vocabulary) -> tuple[Reading, list[Mention], str]:
    mentions = find_mentions(question, vocab)
    named = [m for m in mentions if m.kind != "npc"]
    masked = mask(question, named)
    time = parse_time(masked)
    text = normalize(time.rest)
    reading = Reading(question=question, text=text, window=time.window, at_minute=time.at_minute)
    if time.assumption:
        reading.assumptions.append(time.assumption)
    reading.assumptions += _mention_notes(named)
    for m in mentions:
        bucket = {"player": reading.players, "god": reading.gods, "ability": reading.abilities, "item": reading.items,
                  "npc": reading.npcs}[m.kind]
        if m.name not in bucket:
            bucket.append(m.name)
    # An item proc is also an ability: one name matched as both stays one thing, chosen by the verbs.
    both = [n for n in reading.items if n in reading.abilities]
    if both:
        buying = bool(BUILD.search(text))
        for n in both:
            (reading.abilities if buying else reading.items).remove(n)
    for t in find_teams(time.rest, vocab.winner_team):
        if t.team is None:
            reading.assumptions.append(f"'{t.said}' cannot be resolved: no Titan fell, so the winner is unknown")
            continue
        reading.teams.append(t.team)
        if not re.match(r"team\s*\d", t.said):
            reading.assumptions.append(f"'{t.said}' read as team {t.team}")
    roles_text = re.sub(r"\bmid[\s-]*(game|match)\b", " ", time.rest, flags=re.IGNORECASE)
    reading.roles = list(dict.fromkeys(r.role for r in find_roles(roles_text, vocab.roles)))
    reading.metrics, notes = find_metrics(text)
    reading.assumptions += notes
    reading.groups = group_cues(text)
    return reading, mentions, masked
