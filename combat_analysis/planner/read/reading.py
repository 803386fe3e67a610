"""The words of a question, read into independent slots: `read_question(question, vocab) -> Reading`.

Each slot has its own reader and none looks at another's result:

| slot | reader | what it holds |
|---|---|---|
| names | `entities.find_mentions` | players, gods, abilities, items, non-player names; ambiguous fragments |
| teams, roles | `entities.find_teams`, `find_roles` | team numbers, roles, and whether a role means its players |
| windows | `timewords.parse_windows` | zero, one or several time windows (several: side by side) |
| metrics | `read_metrics` | catalog metric ids, with how strongly the words named them |
| qualifiers | `read_qualifiers` | "to the jungle camps", "from towers", "to VoidWalker": who was hit or who hit |
| grouping | `group_cues` | the dimensions the question splits by ("which role", "by ability") |
| shape | `read_shape` | leader, top N, every row, a series, a comparison, a count, a rank position |
| scope | `SCOPE_READERS` | one match (the default); a reader for sets of matches plugs in here |

Only reading happens here; `intents` decides what plan a reading becomes, and `faithful` checks that no
word that carries meaning was left unread.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from combat_analysis.catalog import METRICS, metric
from combat_analysis.contracts.plan import PlanOrder, TimeWindow
from combat_analysis.planner.read import compounds
from combat_analysis.planner.read.anchors import Anchor, find_anchor
from combat_analysis.planner.read.casting import casting_players
from combat_analysis.planner.read.causes import Causes, read_causes
from combat_analysis.planner.read.conditions import THRESHOLD
from combat_analysis.planner.read.names import (
    SOLO_SET_AGAINST,
    Mention,
    TeamMention,
    find_mentions,
    find_roles,
    find_teams,
    fold,
    mask,
)
from combat_analysis.planner.read.spelling import RANKING, corrected, spelled_out
from combat_analysis.planner.read.timewords import parse_windows
from combat_analysis.planner.read.words import (
    CHAT_BUY_VERB,
    COUNT_SAID,
    COUNT_WORDS,
    NEUTRAL,
    PLACE_WORDS,
    PLACES,
    RECEIVING_VERBS,
    ROLE_SAID,
    STORAGE,
    known_words,
    stems,
    unknown_words,
)
from combat_analysis.planner.vocabulary import Vocabulary

# ------------------------------------------------------------------------------------------- metrics


# Structure and objective words joined by a slash ("towers/phoenixes") are both asked about; a slash elsewhere binds
# a figure's letters ("k/d", "gold/min")
_OBJECTIVE_WORD = r"(?:towers?|phoenix(?:es)?|titans?|structures?|buildings?|fire\s+giants?|gold\s+fur(?:y|ies)|bosses|boss)"
_OBJECTIVES_SLASHED = re.compile(rf"\b({_OBJECTIVE_WORD})\s*/\s*(?={_OBJECTIVE_WORD}\b)")


# A figure noun after slashed objective words is shared: "tower/structure dmg" is tower dmg and structure dmg
_OBJECTIVES_SHARING = re.compile(rf"\b({_OBJECTIVE_WORD})\s*/\s*({_OBJECTIVE_WORD})\s+(damage|dmg)\b")
# and a striking verb before them: "hit towers/structures" is hit towers and hit structures
_STRUCK_SHARING = re.compile(rf"\b(hit|hits|hitting|damaged|damaging|hurt|hurting)\s+(?:the\s+)?({_OBJECTIVE_WORD})\s*/\s*"
                             rf"({_OBJECTIVE_WORD})\b")


# A kind of non-player said with a word for kind ("which type of minion", "what minion type", "kinds of
# camps"): the kind itself, as the non-player slots read it
_NPC_KIND_WORD = r"(?:minions?|creeps?|jungle\s+(?:camps?|monsters?)|camps?|monsters?|mobs?|towers?|turrets?|structures?|bosses|boss|npcs?)"
_KIND_OF_NPC = re.compile(rf"\b(?:types?|kinds?|sorts?)\s+of\s+(?:the\s+)?(?={_NPC_KIND_WORD}\b)|\b({_NPC_KIND_WORD})\s+(?:types?|kinds?)\b")


_HYPHEN_IN_WORD = re.compile(r"(?<=\w)-(?=\w)")
_SPACES = re.compile(r"\s+")
_KIND_WORDS = ("type", "kind", "sort")


def normalize(text: str) -> str:
    """Folded, quotes straight, hyphens and runs of spaces one space, kinds and slashes spelt out.

    >>> normalize("Which  minion TYPE hit tower/phoenix dmg")
    'which minion hit tower dmg and phoenix dmg'
    """
    text = fold(text).replace("’", "'").replace("‘", "'")
    # Each rewrite needs a character or word the text may lack: testing for it first skips the regex scans for
    # nearly every one of the catalog's thousands of phrases, normalized at import.
    if "-" in text:
        text = _HYPHEN_IN_WORD.sub(" ", text)
    if any(word in text for word in _KIND_WORDS):
        text = _KIND_OF_NPC.sub(lambda m: m.group(1) or "", text)
    if "/" in text:
        text = _OBJECTIVES_SHARING.sub(r"\1 \3 and \2 \3", text)
        text = _STRUCK_SHARING.sub(r"\1 \2 and \1 \3", text)
        text = _OBJECTIVES_SLASHED.sub(r"\1 and ", text)
    return _SPACES.sub(" ", text)


_PLACEHOLDER = re.compile(r"\s*\bname\b\s*")  # where a masked name stands in a phrase


@functools.cache
def _phrase_pattern(phrase: str) -> re.Pattern:
    """The phrase as whole words, any spacing between them: compiled on first use, since a question names few of the
    catalog's thousands of synonyms and compiling them all at import cost a third of a second."""
    words = [re.escape(w) for w in phrase.split(" ")]
    return re.compile(r"(?<![\w/])" + r"\s+".join(words) + r"(?![\w/])")


@dataclass(frozen=True)
class _Synonym:
    phrase: str  # normalized
    metric_id: str
    strength: str  # strong, weak (only when nothing stronger is named) or noted (stated as a reading)
    words: tuple[str, ...] = field(init=False)  # the phrase's words, split once rather than per question

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", tuple(self.phrase.split(" ")))

    def finditer(self, text: str) -> Iterator[re.Match]:
        # every word must occur literally for the pattern to match, so this cheap test skips nearly all synonyms
        if not all(w in text for w in self.words):
            return iter(())
        return _phrase_pattern(self.phrase).finditer(text)


def _with_dmg(phrases: Iterable[str]) -> list[str]:
    """Each phrase, and its short form where it says damage: players write "tower dmg", "dmg taken"."""
    return [short for p in phrases for short in dict.fromkeys((p, re.sub(r"\bdamage\b", "dmg", p)))]


def _synonyms() -> tuple[_Synonym, ...]:
    out = []
    for m in METRICS.values():
        if m.generated:
            continue  # "kills per minute" is kills and the per-minute shape, which decides between rate and series
        for phrase in _with_dmg((m.id.replace("_", " "), m.label, *m.synonyms)):
            out.append(_Synonym(normalize(phrase), m.id, "strong"))
        out += [_Synonym(normalize(p), m.id, "weak") for p in m.weak_synonyms]
        out += [_Synonym(normalize(p), m.id, "noted") for p in m.noted_synonyms]
    return tuple(sorted(out, key=lambda s: -len(s.phrase)))


SYNONYMS = _synonyms()
_RUN = re.compile(r"[\w/]+")


def _by_first_run(synonyms: tuple[_Synonym, ...]) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
    """Synonyms (by position) under the first run of word characters of their phrase. A phrase matches only as
    whole words, so that run is one whole run of the question's: a question looks up its own few runs instead of
    testing every synonym. Phrases that start with another character are always tested."""
    index: dict[str, list[int]] = {}
    always = []
    for i, syn in enumerate(synonyms):
        first = _RUN.match(syn.phrase)
        if first is None:
            always.append(i)
        else:
            index.setdefault(first.group(), []).append(i)
    return {run: tuple(at) for run, at in index.items()}, tuple(always)


_SYNONYMS_BY_RUN, _SYNONYMS_ALWAYS = _by_first_run(SYNONYMS)
# Figure words joined by slashes ("kills/deaths/assists") are a list, unless the joined run is a figure of its own
# ("kill/death" is the K/D, "gold/min" the GPM)
_SLASHED_WORDS = re.compile(r"\b[a-z]{2,}(?:/[a-z]{2,})+\b")
_SLASHED_FIGURES = frozenset(w for syn in SYNONYMS for w in syn.phrase.split() if "/" in w)


def _slashes_as_lists(text: str) -> str:
    """`text` with each slash of a list of words made a space (the same length: hits keep their places)."""
    return _SLASHED_WORDS.sub(lambda m: m.group(0) if m.group(0) in _SLASHED_FIGURES else m.group(0).replace("/", " "), text)
_SINGLE_WORDS = {s.phrase: s.metric_id for s in SYNONYMS
                 if " " not in s.phrase and len(s.phrase) >= 4 and s.strength == "strong"}
# one-word synonyms by their base forms; strong synonyms win over weak ones ("farm" is gold, weakly)
_STEMS = {f: (s.metric_id, s.strength) for s in reversed(SYNONYMS) if " " not in s.phrase and len(s.phrase) >= 4
          and s.strength != "noted" for f in stems(s.phrase) if len(f) >= 3}
_STEMS.update({f: (mid, "strong") for phrase, mid in _SINGLE_WORDS.items() for f in stems(phrase) if len(f) >= 3})
SPECIFIC_DAMAGE = frozenset({"damage_taken", "damage_mitigated", "damage_to_players", "damage_to_structures",
                             "damage_to_minions", "damage_to_jungle", "damage_to_bosses", "dpm", "biggest_hit", "biggest_crit",
                             "crits", "npc_damage"})
# The figure that counts what an event list lists: "what percent of all kills" asks for kills.
EVENT_FIGURES = {"kill_events": "kills", "objective_events": "objectives_taken", "death_events": "deaths",
                 "assist_events": "assists"}
OBJECTIVE_METRICS = frozenset({"towers", "phoenixes", "titans", "structures", "gold_furies", "fire_giants", "bosses",
                               "objectives_taken"})
_BUY = re.compile(r"\b(buy|buys|bought|buying|purchas(?:e|es|ed|ing))\b")
_HOW_OFTEN = frozenset({"most often", "most frequently", "used most often", "how often", "times", "uses", "most used",
                        "used the most", "usage"})
# what the player took, not what they dealt ("who ate the most damage", "face-tanked")
RECEIVE = re.compile(r"\b(" + "|".join(sorted(RECEIVING_VERBS, key=len, reverse=True))
                     + r"|get\s+hit|got\s+hit|face\s*tank(?:s|ed|ing)?)\b")
_RECEIVE = RECEIVE
# what the one acted on received; hit the hardest in the passive is the most damage taken, as no figure holds the
# biggest hit a player received
_RECEIVED = {"damage_dealt": "damage_taken", "healing_done": "healing_received", "biggest_hit": "damage_taken"}


@dataclass(frozen=True)
class MetricHit:
    metric_id: str
    phrase: str
    start: int
    end: int
    strength: str


@dataclass(frozen=True)
class MetricsRead:
    ids: tuple[str, ...]
    hits: tuple[MetricHit, ...]
    notes: tuple[str, ...]
    evidence: str  # strong, noted, weak, fuzzy or none: how the words named the metrics


def _synonym_hits(text: str) -> tuple[list[MetricHit], list[MetricHit]]:
    taken = [False] * (len(text) + 1)
    strong: list[MetricHit] = []
    weak: list[MetricHit] = []
    candidates = {i for run in set(_RUN.findall(text)) for i in _SYNONYMS_BY_RUN.get(run, ())}
    for syn in (SYNONYMS[i] for i in sorted(candidates.union(_SYNONYMS_ALWAYS))):
        for m in syn.finditer(text):
            if any(taken[m.start():m.end()]):
                continue
            hit = MetricHit(syn.metric_id, syn.phrase, m.start(), m.end(), syn.strength)
            if syn.strength == "weak":
                weak.append(hit)
                continue
            for i in range(m.start(), m.end()):
                taken[i] = True
            strong.append(hit)
    return sorted(strong, key=lambda h: h.start), sorted(weak, key=lambda h: h.start)


# Non-players other than objectives killed, counted by their kind: the kill verb said with them is theirs
_NPCS_KILLED = frozenset({"npc_kills", "minion_kills", "jungle_monster_kills"})
# the verbs a kill and a destroyed objective share
_OBJECTIVE_VERBS = frozenset({"kill", "killed", "slain", "killing blows", "take down", "took down", "takes down",
                              "taking down", "take out", "took out", "takes out"})


_DEALT_BY_NAME = frozenset({"damage dealt", "damage done", "dmg dealt", "dmg done"})


# A throw with a particle is another verb: "threw out the most cc" deals something out, it is no thrown lead
_THROW = frozenset({"throw", "throws", "threw", "throwing", "thrown"})
_PARTICLE = re.compile(r"\s+(?:out|around|down|in)\b")


def _without_phrasal_verbs(strong: list[MetricHit], text: str) -> list[MetricHit]:
    return [h for h in strong if not (h.phrase in _THROW and _PARTICLE.match(text, h.end))]


# The words that count hits as such; the catalog's other words for hits are doing-verbs ("spammed", "used the
# most"), which say how often only when no figure is named
_HIT_NOUNS = frozenset({"hits", "hits landed", "number of hits", "times hit"})


# plain damage said as the whole, beside a part of it: "her damage to gods against her total damage", "dmg overall"
_WHOLE_BEFORE = re.compile(r"\b(?:total|overall|whole|entire|all(?:\s+of)?(?:\s+(?:his|her|their|the|its))?)\s+$")
_WHOLE_AFTER = re.compile(r"\s+(?:overall|in\s+total|total|altogether|all\s+told|in\s+all)\b")


def _said_whole(h: MetricHit, text: str) -> bool:
    return bool(_WHOLE_BEFORE.search(text[:h.start]) or _WHOLE_AFTER.match(text, h.end)
                or re.match(r"(?:total|overall)\b", h.phrase))


def _narrowed(strong: list[MetricHit], text: str) -> list[MetricHit]:
    """Plain words that a more specific figure in the same question explains."""
    if any(h.metric_id != "hits" for h in strong):
        # "who spammed the most cc", "used the most heals": the verb's object is the figure, not hits landed
        strong = [h for h in strong if h.metric_id != "hits" or h.phrase in _HIT_NOUNS]
    if any(h.metric_id in SPECIFIC_DAMAGE for h in strong):
        # "damage taken", "dealt the most damage to the Fire Giant": plain damage is the specific figure, but
        # "damage dealt and damage taken" names both
        strong = [h for h in strong if h.metric_id != "damage_dealt" or h.phrase in _DEALT_BY_NAME or _said_whole(h, text)]
    if any(h.metric_id in OBJECTIVE_METRICS or h.metric_id in _NPCS_KILLED for h in strong):
        # "how many gold furies did team 1 kill", "how many minions did X kill": the verb is not a request for player kills
        strong = [h for h in strong if not (h.metric_id == "kills" and h.phrase in _OBJECTIVE_VERBS)]
    return strong


def _outside(text: str, hits: Sequence[MetricHit]) -> str:
    """`text` with the words of the figures already named blanked: "damage taken" has used its verb."""
    spans = [(h.start, h.end) for h in hits] + [m.span() for m in _SHARED_NOUN.finditer(text)]
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


# The blow that takes an objective, said right after it: "tower last hits", "phoenix kills", "titan last-hits"
_BLOW_AFTER = re.compile(r"\s*(?:last\s+)?")


def _without_blows_on_objectives(strong: list[MetricHit], text: str) -> list[MetricHit]:
    """Kills or hits said right after an objective word count that objective, not player kills or hits landed."""
    ends = [h.end for h in strong if h.metric_id in OBJECTIVE_METRICS]

    def blow(h: MetricHit) -> bool:
        return h.metric_id in ("kills", "hits") and any(
            end <= h.start and _BLOW_AFTER.fullmatch(text[end:h.start]) for end in ends)
    return [h for h in strong if not blow(h)]


# Damage or healing said in the passive or with "get", a name or a pronoun between: "how much was she healed", "was
# X healed for", "how much was she hit for", "did X get damaged": what the subject received. Not when "by" follows,
# which names the one who did it ("how much was healed by X" is X's healing).
_PASSIVE = r"\b(?:get|gets|got|gotten|getting|was|were|been|being|is|are)\s+(?:[\w.'’-]+\s+){0,2}?"
# (never a hit said as a noun: "what was X's best hit", "was that the biggest hit")
_NOUN_HIT = r"(?<!'s\s)(?<!best\s)(?<!biggest\s)(?<!largest\s)(?<!hardest\s)(?<!highest\s)(?<!single\s)(?<!top\s)"
_PASSIVE_TURN = {"damage_dealt": re.compile(_PASSIVE + _NOUN_HIT + r"(?:hit|damaged|dmged|dmg'd|hurt|nuked|chunked)\b"
                                            r"(?!\s+by\b)"),
                 "healing_done": re.compile(_PASSIVE + r"(?:healed|heald|healded)\b(?!\s+by\b)"),
                 "biggest_hit": re.compile(_PASSIVE + r"(?:hit|smacked|smashed|slapped|punished)\s+(?:the\s+)?"
                                           r"(?:hardest|most|harder|more)\b(?!\s+by\b)")}


# the figures a verb of receiving turns around (`_RECEIVED` less the biggest hit, which only the passive turns)
_TURNED = {f: _RECEIVED[f] for f in ("damage_dealt", "healing_done")}
_RECEIVED_AFTER = re.compile(r"\s*(?:received|recieved|taken|tanked|absorbed|soaked)\b")


def _one_turned(ids: list[str], hits: Sequence[MetricHit], text: str) -> list[str] | None:
    """Of like figures, the ones a verb of receiving follows right after, turned alone ("heal output, heal
    received"); None when no figure has one, or every one that can turn does."""
    if len(ids) != len(hits):
        return None
    own = [bool(_RECEIVED_AFTER.match(text, h.end)) for h in hits]
    if not any(own) or all(o for f, o in zip(ids, own, strict=True) if f in _TURNED):
        return None
    return [_TURNED[f] if o and f in _TURNED else f for f, o in zip(ids, own, strict=True)]


# healing said before a verb of getting in one clause: the healing is what the subject got ("healing did she get")
_HEALING_GOT = re.compile(r"\bheal(?:ing|s)?\b[^,.;?!]*?\b(?:get|got|gets|getting|gotten)\b(?!\s+(?:hit|off|out)\b)")


def _turned_by_verbs(ids: list[str], hits: Sequence[MetricHit], text: str) -> list[str]:
    """A figure the verbs turn around: damage or healing that was received, hits counted as purchases. A verb
    inside another figure's words ("damage taken and healing") is that figure's, not a turn of the others."""
    one_turned = _one_turned(ids, hits, text)
    if one_turned is not None:
        return one_turned
    ids = [_RECEIVED[f] if f in _PASSIVE_TURN and _PASSIVE_TURN[f].search(text) else f for f in ids]
    if _HEALING_GOT.search(text):  # healing named, then gotten: "how much healing did X get" is what X received
        ids = ["healing_received" if f == "healing_done" else f for f in ids]
    if _RECEIVE.search(_outside(text, hits)):
        ids = [_TURNED.get(f, f) for f in ids]
    if "hits" in ids and _BUY.search(text) and all(h.phrase in _HOW_OFTEN for h in hits if h.metric_id == "hits"):
        # "which item was bought most often": how often counts what the verb names, here purchases
        ids = ["items_purchased" if f == "hits" else f for f in ids]
    return ids


def _by_word_form(text: str) -> tuple[str, str, str] | None:
    """(metric, note, strength) of another form of a one-word synonym: "spam" for "spammed", "farming" for "farmed"."""
    for word in re.findall(r"[a-z][a-z']{2,}", text):
        if word in _COMMON_NON_METRIC or word in NEUTRAL:
            continue
        found = next((_STEMS[f] for f in stems(word) if f in _STEMS), None)
        if found:
            return found[0], f"'{word}' read as {metric(found[0]).label}", found[1]
    return None


# How many times something was done: "how many times did she hit", "how often does he hit"
_TIMES_COUNTED = re.compile(r"\b(?:how\s+many\s+times|how\s+often|(?:number|no\.?|#)\s+of\s+times)\b")


def _counted_blows(weak: MetricHit, text: str) -> MetricHit:
    """A striking verb counted in times is hits landed, not damage: "how often does she hit" counts the blows."""
    if weak.metric_id == "damage_dealt" and weak.phrase in HITTING and _TIMES_COUNTED.search(text, 0, weak.start):
        return MetricHit("hits", weak.phrase, weak.start, weak.end, "weak")
    return weak


def _misspelt_beside(text: str, hits: Sequence[MetricHit]) -> list[MetricHit]:
    """Misspelt one-word figures (`_by_spelling`) outside the figures already read."""
    taken = [(h.start, h.end) for h in hits]
    slips = []
    for m in re.finditer(r"[a-z][a-z']{3,}", text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        found = _by_spelling(m.group(0))
        forms = {_STEMS[f][0] for f in stems(m.group(0)) if f in _STEMS}
        if found is not None and not forms - {found[0]}:  # a form of another figure's word ("thrower") is no slip
            slips.append(MetricHit(found[0], m.group(0), m.start(), m.end(), "fuzzy"))
    return slips


def _by_spelling(text: str) -> tuple[str, str, str] | None:
    """(metric, note, "fuzzy") of a misspelt one-word synonym ("kils", "healling")."""
    for word in re.findall(r"[a-z][a-z']{3,}", text):
        if word in _COMMON_NON_METRIC or word in known_words():
            continue  # a word the planner knows is no slip of another ("stop" is not "stomp")
        close = difflib.get_close_matches(word, _SINGLE_WORDS, n=1, cutoff=0.8)
        # a slip keeps the word's first letter: "boots" is not "roots", nor "hills" "kills"
        if close and close[0][0] == word[0]:
            return _SINGLE_WORDS[close[0]], f"'{word}' read as '{close[0]}'", "fuzzy"
    return None


# A list of figures that shares its noun: "damage dealt, taken and mitigated" is three damage figures.
_SHARED_NOUN = re.compile(r"\b(?P<noun>damage|dmg|healing|heals|gold|xp|experience)\s+(?P<first>dealt|done|taken|received|"
                          r"mitigated|earned|given)(?P<rest>(?:\s*(?:,|/|&|\band\b|\bor\b|\bplus\b)\s*(?:dealt|done|"
                          r"taken|received|mitigated|earned|given)\b)+)")
# Stat letters joined by slashes list one figure each: "k/d/a" is the kills, the deaths and the assists.
_STAT_LETTERS = {"k": "kills", "d": "deaths", "a": "assists"}
_SLASHED = re.compile(r"(?<![\w/])([kda])\s*/\s*([kda])\s*/\s*([kda])(?![\w/])")
# A KDA "line" is its three counts, as a scoreboard shows them: "her kda line", "kda (kills deaths assists)"
_KDA_LINE = re.compile(r"\bkda\s+(?:line|statline|stat\s+line|numbers|breakdown|split)\b"
                       r"|\bkda\b[^?.!]*\(\s*kills?[\s,/&]+deaths?[\s,/&]+(?:and\s+)?assists?\s*\)")


_STRONG = {s.phrase: s.metric_id for s in SYNONYMS if s.strength == "strong"}


def _after(ids: list[str], anchor: str | None, extra: Sequence[str]) -> list[str]:
    at = ids.index(anchor) + 1 if anchor in ids else len(ids)
    return list(dict.fromkeys([*ids[:at], *extra, *ids[at:]]))


def _listed(ids: list[str], text: str) -> list[str]:
    """Figures a list names beyond its words' own hits, each beside the figure it came with: an elided noun's
    figures ("damage dealt, taken"), slash-joined stat letters beside the ratio they spell ("k/d/a")."""
    for m in _SHARED_NOUN.finditer(text):
        extra = [_STRONG[f"{m.group('noun')} {verb}"] for verb in re.findall(r"[a-z]+", m.group("rest"))
                 if f"{m.group('noun')} {verb}" in _STRONG]
        ids = _after(ids, _STRONG.get(f"{m.group('noun')} {m.group('first')}"), extra)
    for m in _SLASHED.finditer(text):
        ids = _after(ids, "kda", [_STAT_LETTERS[letter] for letter in m.groups()])
    if _KDA_LINE.search(text):
        ids = _after(ids, "kda", ["kills", "deaths", "assists"])
    return ids


# "gold wise", "dmg-wise" (normalized to "dmg wise"): the figures said just before it are the ones ranked
_WISE = re.compile(r"\s*\bwise\b")
_LIST_JOIN = re.compile(r"\s*(?:\+|&|/|\band\b|\bor\b|\bplus\b)?\s*")


def _said_wise(hits: Sequence[MetricHit], text: str) -> list[MetricHit]:
    """The figures a "<figure> wise" names: the figure right before "wise" and those listed with it ("kills +
    dmg wise"). They name what is ranked, over any slang elsewhere ("most fed, gold wise" is gold); a comma ends
    the list, as it sets the "wise" apart."""
    said: list[MetricHit] = []
    for m in _WISE.finditer(text):
        end = m.start()
        for h in sorted(hits, key=lambda h: -h.start):
            gap = text[h.end:end]
            # the figure right before "wise", then each one joined to it by a word or a sign ("kills + dmg")
            if h.end <= end and (not gap.strip() if end == m.start() else bool(_LIST_JOIN.fullmatch(gap))
                                 and bool(gap.strip())):
                said.append(h)
                end = h.start
    return sorted(said, key=lambda h: h.start)


_RANKED_BEFORE = re.compile(r"\b(?:" + "|".join(RANKING) + r")\s+(?:the\s+)?$")


def _ranked_after(said: Sequence[MetricHit], hits: Sequence[MetricHit], text: str) -> list[MetricHit]:
    """The figures ranked again after a "<figure> wise", past a comma ("dmg wise, highest dpm"): a strong figure
    with its own ranking word is asked as plainly as the one before "wise"."""
    last = max(h.end for h in said)
    comma = text.find(",", last)
    return [h for h in hits if h.strength == "strong" and h not in said and comma != -1 and h.start > comma
            and _RANKED_BEFORE.search(text[:h.start])]


# "gold only", "just kills", "only counting damage": the figure said with it is the one asked for, alone
_ONLY_AFTER = re.compile(r"\s*\b(?:only|just)\b")
_ONLY_BEFORE = re.compile(r"\b(?:only|just|purely|solely)\s+(?:(?:counting|count|looking\s+at|by|on|in\s+terms\s+of|"
                          r"the|their|his|her|total)\s+)*$")


def _said_only(hits: Sequence[MetricHit], text: str) -> list[MetricHit]:
    """The figures a clause restricts the question to: a figure followed by "only" or "just", or after "only" or
    "just" ("most fed, gold only", "who popped off? just damage"), and those listed with it ("kills and deaths
    only"). They are the figures asked for, over any slang or loose figure elsewhere."""
    ordered = sorted(hits, key=lambda h: h.start)
    said: set[int] = set()
    for i, h in enumerate(ordered):
        if _ONLY_AFTER.match(text, h.end) or _ONLY_BEFORE.search(text[:h.start]):
            said.add(i)
            # the figures joined to it by a word or a sign, either way
            for step in (-1, 1):
                j = i
                while 0 <= j + step < len(ordered):
                    a, b = sorted((ordered[j], ordered[j + step]), key=lambda x: x.start)
                    gap = text[a.end:b.start]
                    # joined by a word or a sign, or said right beside it as one name: a participle before its
                    # noun ("mitigated damage only" is damage mitigated, read below as without "only")
                    if not (_LIST_JOIN.fullmatch(gap) and (gap.strip() or gap)):
                        break
                    j += step
                    said.add(j)
    return [ordered[i] for i in sorted(said)]


# "carry" after a side or an article is the role, no figure: "the order carry", "chaos's carry", "their carry"
_CARRY_ROLE = re.compile(r"\b((?:the|their|our|my|your|enemy|both|each|(?:order|chaos|team\s*[12]|blue|red)(?:'s|s)?"
                         r"(?:\s+(?:side|team)(?:'s)?)?)\s+)carry\b")


# What is loaded into the warehouse is a match stored, not players loading into a lobby ("games we stored in
# the lake")
_STORED = re.compile(rf"\s+(?:the\s+|our\s+|this\s+|your\s+)?{STORAGE}\b")


def _not_stored(hits: list[MetricHit], text: str) -> list[MetricHit]:
    return [h for h in hits if not ("load" in h.phrase and _STORED.match(text, h.end))]


def read_metrics(text: str) -> MetricsRead:
    """Metric ids named in `text` (normalized), in order of appearance, and the readings made."""
    text = _CARRY_ROLE.sub(lambda m: m.group(1) + "     ", text)  # the same length: the hits keep their places in the text
    text = _slashes_as_lists(text)
    strong, weak = _synonym_hits(text)
    strong = _not_stored(strong, text)
    wise = _said_wise([*strong, *weak], text)
    wise = [*wise, *_ranked_after(wise, strong, text)] if wise else _said_only([*strong, *weak], text)
    if wise:
        strong, weak = [h for h in wise if h.strength != "weak"], [h for h in wise if h.strength == "weak"]
    strong = _without_blows_on_objectives(_narrowed(_without_phrasal_verbs(strong, text), text), text)
    notes: list[str] = []
    hits = list(strong)
    evidence = "strong" if strong else "none"
    if any(h.strength == "noted" for h in strong):
        evidence = "noted" if all(h.strength == "noted" for h in strong) else "strong"
        # a phrase said around a player's name is stated without the placeholder: "'was fed' read as kills"
        notes += [f"'{_PLACEHOLDER.sub(' ', h.phrase).strip()}' read as {metric(h.metric_id).label}"
                  for h in strong if h.strength == "noted"]
    if hits:  # a slip beside a figure spelt right: "kils and gold" asks for both
        slips = _misspelt_beside(text, hits)
        hits = sorted([*hits, *slips], key=lambda h: h.start)
        notes += [f"'{h.phrase}' read as {metric(h.metric_id).label}" for h in slips]
    if not hits and weak:
        hits = [_counted_blows(weak[0], text)]
        evidence = "weak"
        notes.append(f"'{weak[0].phrase}' read as {metric(hits[0].metric_id).label}")
    ids = _listed(_turned_by_verbs([h.metric_id for h in hits], hits, text), text)
    # a loose word's literal reading beside it: "fattest crit" is the biggest hit, and the biggest critical hit
    ids += [also for h in hits if h.strength == "noted" for also in metric(h.metric_id).noted_with]
    if not ids:
        loose = _by_word_form(text) or _by_spelling(text)
        if loose is not None:
            ids, evidence = [loose[0]], loose[2]
            notes.append(loose[1])
    return MetricsRead(tuple(dict.fromkeys(ids)), tuple(hits), tuple(notes), evidence)


_COMMON_NON_METRIC = frozenset("""which what whos with that this then than them they their there where when were
team teams match game player players most more many much have most team's about show tell give list each every
both against during after before between first last early late role roles gods ability abilities item items
compare versus total overall entire whole winners losers best worst highest lowest least fewest top fight
fights streak three four five seven eight nine twenty thirty forty fifty""".split())

# -------------------------------------------------------------------------------------- qualifiers

EVERY_NPC = "npc"  # the qualifier kind of every non-player at once
KIND_WORDS = [
    # a god word before an ability word says whose ability it is, not who was hit ("top damaging god ability")
    ("player", r"(?:gods?|champions?|heroes|heros|hero)(?!'?s?\s+(?:abilit(?:y|ies)|skills?|spells?|kits?)\b)|players?|"
               r"enem(?:y|ies)|opponents?|enemy\s+(?:gods?|players?)"),
    ("structure", r"towers?|turrets?|structures?|buildings?|phoenix(?:es)?|titans?"),
    ("minion", r"(?:minion\s+)?waves?|(?:lane\s+)?minions?|creeps?"),
    # before the camps: "the jungle bosses" are the bosses
    ("boss", r"(?:jungle\s+)?(?:bosses|boss)|objectives?\s+bosses|gold\s+fur(?:y|ies)|fire\s+giants?"),
    ("jungle", r"jungle(?:\s+(?:camps?|monsters?|creeps?|mobs?))?|camps?|monsters?|mobs?|neutrals?"),
    # every non-player at once ("from npcs", "non-gods"; never "npc", the masked name of one)
    (EVERY_NPC, r"non[\s-]?(?:players?|gods?|champions?|heroes|humans)|npcs|pve"),
]
_KIND_ALT = "|".join(f"(?P<{kind}>(?:{pattern})\\b)" for kind, pattern in KIND_WORDS)
# The verbs whose object is who was hit: striking verbs, and the crowd-control verbs (their object is its target)
HITTING = ("hit", "hits", "hitting", "hurt", "hurts", "hurting", "damaged", "damaging", "attacked", "attacking")
CROWD_CONTROLLING = ("cc'd", "cc'ed", "ccd", "stunned", "rooted", "slowed")
# healing's object is who was healed ("who healed Brisk the most")
HEALING = ("healed", "healing", "heal", "heals")
_TO = (r"(?<!compared\s)(?<!compare\s)(?<!compares\s)(?<!comparing\s)(?<!relative\s)(?<!next\s)(?<!up\s)(?<!due\s)to|"
       r"against|on|into|at|" + "|".join((*HITTING, *CROWD_CONTROLLING, *HEALING)))
# a side word may start a name; "actual", "real" only stress the kind ("damage to actual gods")
_ARTICLES = r"(?:(?:the|enemy|other|opposing|their|all|any|a|an|order|chaos|actual|real)\s+)*"
# how many a kill verb's object counts comes before it: "killed the most jungle monsters", "slew fewer minions"
_HOW_MANY_KILLED = r"(?:(?<=kill\s)|(?<=killed\s)|(?<=slew\s))(?:the\s+)?(?:most|fewest|least|more|fewer)\s+"
_QUALIFIER = re.compile(rf"\b(?P<prep>{_TO}|from|by|kill|kills|killed|killing|slay|slew|slain|score\s+on|scored\s+on)\s+"
                        rf"(?:{_HOW_MANY_KILLED})?{_ARTICLES}(?:{_KIND_ALT}|(?P<name>name|npc)\b|(?P<word>[a-z]{{3,}}))")
# a verb of having after "kills NAME", which makes the name the one who got the kills
_DOER_AFTER = re.compile(r"\s+(?:has|have|had|got|gets|gotten|scored|racked|managed|did|ever|(?:'s|s)\s+(?:got|had|gotten|"
                         r"scored))\b")
# Places the log cannot tell apart (it has coordinates, not lanes): read, so they are flagged, not ignored.
LOCATION = re.compile(r"\b(?:in|at|near|inside|under)\s+(?:the\s+|their\s+|enemy\s+|our\s+)?(jungle|lanes?|river|base|fountain|"
                      r"(?:mid|top|solo|duo|carry|middle|bottom|bot)\s+lane|tower\s+range)\b")
_KIND_FUZZY = {"gods": "player", "players": "player", "enemies": "player", "towers": "structure",
               "structures": "structure", "minions": "minion", "creeps": "minion", "camps": "jungle",
               "monsters": "jungle", "jungle": "jungle", "bosses": "boss"}


@dataclass(frozen=True)
class Qualifier:
    """Who was hit or who did the hitting: "to the jungle camps", "from towers", "to VoidWalker"."""

    preposition: str  # to, against, on, from, by...
    kind: str | None  # player, structure, minion, jungle or boss
    name: str | None  # a player or a non-player of this match
    said: str
    note: str | None = None  # a reading made on the way ("'godz' read as 'gods'")
    start: int = 0
    end: int = 0
    bare: bool = False  # a name before the figure with no word for how ("fire giant dmg"): hit, unless no person is asked


def read_qualifiers(text: str, names: Sequence[str | None], npcs: Sequence[tuple[str, str]]) -> tuple[Qualifier, ...]:
    """Qualifiers in `text`; `names` are the players behind its NAME placeholders in order, `npcs` the
    non-player names mentioned as (what was said, canonical name)."""
    found: list[Qualifier] = []
    for m in _QUALIFIER.finditer(text):
        prep = m.group("prep")
        said = m.group(0)
        if m.group("name"):
            index = len(re.findall(r"\bname\b", text[:m.start("name")]))
            if prep in ("kill", "kills") and _DOER_AFTER.match(text, m.end()):
                continue  # "the most kills X has gotten": X's own kills, X said before the verb
            if m.group("name") == "name" and index < len(names) and (player := names[index]) is not None:
                found.append(Qualifier(prep, "player", player, said, None, m.start(), m.end()))
            continue
        kind = next((k for k, _ in KIND_WORDS if m.group(k)), None)
        if kind is not None and re.fullmatch(r"by\s+(?:god|player|enemy|opponent)", said):
            continue  # "damage by god" splits by god, like "by role"; "damage by the gods" is who dealt it
        if kind is not None and any(text.startswith(fold(spoken), m.start(kind)) and fold(spoken) != m.group(kind)
                                    for spoken, _ in npcs):
            continue  # the kind word starts a non-player's name: "by the champion swordsman" is no player
        if kind is not None:
            npc = next((canon for spoken, canon in npcs if fold(spoken) in said), None)
            found.append(Qualifier(prep, kind, npc, said, None, m.start(), m.end()))
            continue
        word = m.group("word")
        close = difflib.get_close_matches(word, _KIND_FUZZY, n=1, cutoff=0.75)
        # a misspelt kind ("by the towrs"), never a word the planner knows ("by gold" is no misspelt "gods")
        if close and word not in _KIND_FUZZY and unknown_words(word):
            found.append(Qualifier(prep, _KIND_FUZZY[close[0]], None, said, f"'{word}' read as '{close[0]}'",
                                   m.start(), m.end()))
    found += _joined(text, names, npcs, found)
    return (*found, *_named_before_damage(text, npcs, found), *_kinds_taking(text, npcs))


# more of what a qualifier names, joined to it: "to the fire giant and the gold fury", "to NAME, NAME or NAME"
_JOINED = re.compile(rf"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|\+)\s+){_ARTICLES}(?:{_KIND_ALT}|(?P<name>name)\b)")


def _joined(text: str, names: Sequence[str | None], npcs: Sequence[tuple[str, str]],
            found: Sequence[Qualifier]) -> list[Qualifier]:
    """The names or kinds joined to a qualifier's, each a qualifier of the same word: what was hit is any of them."""
    out: list[Qualifier] = []
    for q in found:
        end = q.end
        while (m := _JOINED.match(text, end)) is not None:
            said = m.group(0).strip()
            if m.group("name"):
                index = len(re.findall(r"\bname\b", text[:m.start("name")]))
                if index >= len(names) or names[index] is None or q.name is None:
                    break  # a name joins a name: "to players, A or B" sets A and B against each other
                out.append(Qualifier(q.preposition, "player", names[index], said, None, m.start("name"), m.end()))
            else:
                kind = next(k for k, _ in KIND_WORDS if m.group(k))
                npc = next((canon for spoken, canon in npcs if fold(spoken) in said), None)
                if q.kind == "player" or (npc is None) != (q.name is None):
                    break  # a name joined to a kind, or a kind to a name: two things, not a list of one
                out.append(Qualifier(q.preposition, kind, npc, said, None, m.end() - len(said), m.end()))
            end = m.end()
    return out


def _named_before_damage(text: str, npcs: Sequence[tuple[str, str]], found: Sequence[Qualifier]) -> tuple[Qualifier, ...]:
    """A non-player named as a bare noun before the damage ("fire giant dmg", "the gold fury damage"): what was hit,
    as "tower damage" is damage to towers. Whether a question that asks no person means its own damage instead is
    the damage plans' to say (`plans/figures._npc_as_source`); a name already qualified is left alone."""
    if any(q.kind is not None and q.preposition not in ("from", "by") for q in found):
        return ()  # the kind was named as what was hit ("the bosses (fury/giant damage)"): a gloss
    out = []
    # as said, and as the log spells it
    said = {canon: sorted({fold(spoken), fold(canon)}, key=len, reverse=True) for spoken, canon in npcs}
    # each of several joined before the figure: "the fury and the giant dmg"
    any_named = "|".join(re.escape(s) for forms in said.values() for s in forms)
    joined = rf"(?:\s*(?:,|and|or|&|/)\s*(?:the\s+)?(?:{any_named}))*"
    for canon, forms in said.items():
        one = "|".join(re.escape(s) for s in forms)
        for m in re.finditer(rf"(?<!\bby\s)(?<!\bfrom\s)(?<!\bof\s)\b({one}){joined}\s+(?:damage|dmg)\b", text):
            if not any(q.start <= m.start(1) < q.end for q in found):
                out.append(Qualifier("to", None, canon, m.group(1), None, m.start(1), m.end(1), bare=True))
    return tuple(out)


# A kind of non-player as the subject of taking an objective, said with no "by": "did the minions finish a tower
# off", "any camps that secured an objective" (read as "by minions", "by jungle camps")
_TAKERS = {kind: pattern for kind, pattern in KIND_WORDS if kind in ("minion", "jungle", "boss")}
_KIND_TAKES = re.compile(
    r"\b(?:" + "|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _TAKERS.items()) + r")\s+"
    r"(?:that\s+|which\s+|who\s+|ever\s+|even\s+)?(?:finish\w*|took|take[ns]?|taking|secur\w*|got|get|gets|"
    r"last[\s-]*hit\w*|st[oe]al\w*|snip\w*|destroy\w*|br[eo]k\w*)\b")
_OBJECTIVE_NOUN = re.compile(r"\b(?:objectives?|towers?|turrets?|phoenix(?:es)?|titans?|structures?|buildings?|"
                             r"gold\s+fur(?:y|ies)|fire\s+giants?|bosses|boss)\b")


def _kinds_taking(text: str, npcs: Sequence[tuple[str, str]]) -> tuple[Qualifier, ...]:
    found = []
    for m in _KIND_TAKES.finditer(text):
        if not _OBJECTIVE_NOUN.search(text[:m.start()] + " " + text[m.end():]):
            continue  # "did minions get kills": deaths to minions, read by the causes
        kind = next(k for k, value in m.groupdict().items() if value)
        npc = next((canon for spoken, canon in npcs if fold(spoken) in m.group(kind)), None)
        found.append(Qualifier("by", kind, npc, m.group(kind), None, m.start(kind), m.end(kind)))
    return tuple(found)


# Non-players dealing damage, by kind: "how much damage did the towers do", "which jungle monster dealt the most".
NPC_KINDS = [("structure", r"towers?|turrets?|structures?|buildings?|phoenix(?:es)?|titans?"),
              ("minion", r"minions?|creeps?|(?:minion\s+)?waves?"),
              ("jungle", r"jungle\s+(?:camps?|monsters?|creeps?|mobs?)|camps?|monsters?|mobs?|neutrals?"),
              ("boss", r"bosses|boss(?:es)?"), (None, r"(?:npcs?|non[\s-]?players?)(?:\s+(?:things?|units?|entit(?:y|ies)|sources?|characters?|"
                                     r"creatures?|enemies|enemy))?|neutral\s+objectives")]
# a side named as the owner of the non-players: "the order towers", "which side's towers", "chaos's phoenixes"
_OWNER = r"(?:(?:order|chaos|team\s*[12]|(?:which|what|each|either|both)\s+(?:side|team)s?)(?:'s?)?\s+)?"
_KIND_SUBJECT = re.compile(
    r"\b(?:did|do|does|have|had)\s+(?:the\s+|all\s+(?:the\s+)?)?{o}(?P<a>{k})\s+(?:do|deal|dish|inflict|cause|hit|hurt)\b"
    r"|\b(?:damage|dmg)\s+(?:(?:was|were|got|is|being)\s+)?(?:dealt\s+|done\s+)?(?:by|from)\s+(?:the\s+|all\s+(?:the\s+)?)?{o}(?P<b>{k})\b"
    r"|\b(?:which|what)\s+{o}(?P<c>{k})\s+(?:dealt|deals|did|had|hit|hits|does|do|caused|hurt|dished|inflicted|put\s+out)\b"
    r"|\b(?P<d>{k})(?:'s?\s+(?:damage|dmg)|\s+dealt)\b"
    # "each side's phoenixes: which hit harder": a side's non-players doing damage to someone
    r"|\b(?:whose|(?:which|what|each|either|both)\s+(?:side|team)s?(?:'s?)?)\s+(?P<e>{k})\s+(?:hurt|hit|damaged|dealt|did|do)\b"
    # "chaos towers or order towers: which dealt more", "did the order towers or the chaos towers hit hardest": both
    # sides' non-players, then who dealt the damage
    r"|\b(?:order|chaos)(?:'s?)?\s+(?P<f>{k})\s+(?:or|vs\.?|versus|and|against)\s+(?:the\s+)?(?:order|chaos)(?:'s?)?\s+(?:{k})\b"
    r"(?=[^?]*\b(?:which|who|what|how|did|does)\b[^?]*\b(?:deal|dealt|hurt|hit|damage|dmg)\b|\s+(?:damage|dmg|hit|hits|hurt|dealt)\b)"
    # the same pair after the question of who dealt more: "who hit harder, the order towers or the chaos ones"
    r"|\b(?:which|who|what)\b[^?]*?\b(?:deal|dealt|hurt|hit|damage|dmg)\b[^?]*?\b(?:order|chaos)(?:'s?)?\s+(?P<g>{k})"
    r"\s+(?:or|vs\.?|versus|against)\s+(?:the\s+)?(?:order|chaos)(?:'s?)?\s+(?:{k}|ones?)\b"
    .replace("{k}", "|".join(f"(?:{p})" for _, p in NPC_KINDS)).replace("{o}", _OWNER))



# Non-player kinds: a question that names one must have it read by some slot ("killed the most minions" is
# not player kills).
_STRAY_KINDS = re.compile(r"\b(minions?|creeps?|jungle\s+(?:camps?|monsters?|creeps?|mobs?)|camps?|monsters?|mobs?|"
                          r"bosses|boss|towers?|turrets?|structures?|buildings?|phoenix(?:es)?|titans?|gold\s+fur(?:y|ies)|"
                          r"fire\s+giants?|wards?)\b")


def _stray_kinds(text: str, spans: Sequence[tuple[int, int]]) -> list[str]:
    return [m.group(0) for m in _STRAY_KINDS.finditer(text)
            if not any(start <= m.start() and m.end() <= end for start, end in spans)]


# ------------------------------------------------------------------------------------------- groups

# Going after one enemy, in players' words ("who was X focusing / diving / hunting / targeting", "who did she tunnel",
# "X's main target"): the enemy player X dealt the most damage to, a leader even with no superlative said
_CHASE = (r"(?:focus(?:ed|ing|sed|sing)?|div(?:e|es|ed|ing)|dove|hunt(?:s|ed|ing)?|target(?:s|ed|ing|ted|ting)?|"
          r"chas(?:e|es|ed|ing)|tunnel(?:s|ed|ing|led|ling)?|go(?:ing)?\s+after|went\s+after|goes\s+after|gone\s+after|"
          r"pick(?:s|ed|ing)?\s+on|harass(?:es|ed|ing)?|pok(?:e|es|ed|ing))")
TARGETING = re.compile(
    rf"\b(?:who|whom|which\s+(?:(?:enemy|opposing)\s+)?(?:player|enemy|god|one|opponent|guy))\s+(?:did|was|were|is|does|has|had)"
    rf"\s+name\s+(?:been\s+|mostly\s+|mainly\s+|always\s+|really\s+)?{_CHASE}\b"
    rf"|\bname(?:'s)?\s+(?:main|top|primary|favou?rite|biggest|number\s+one|#1|usual)\s+(?:target|victim\s+of\s+damage)\b"
    rf"|\bname\s+(?:was\s+|kept\s+)?{_CHASE}\s+(?:who|whom)\b")
RANKED_VICTIM = (r"\b(?:most|favou?rite|fav|fave|top|main|usual|regular|biggest|number\s+one|#1|"
                 r"most\s+(?:frequent|common|regular|killed))\s+victims?\b")
# A group named at the head of what ranks it: "the role with the best average", "the side that took more towers"
_HEAD_OF = r"\s+(?:with|that|which|whose)\s+(?:the\s+|had\s+|has\s+|got\s+|took\s+|dealt\s+|did\s+)*(?:most|more|highest|best|" \
           r"biggest|largest|least|fewest|lowest|worst|less|fewer|top)\b"
# "which enemy", "what enemy god", "which opposing player": the interrogative and the noun for one of the other side
_WHICH_ENEMY = (r"(?:which|what)\s+(?:(?:enemy|opposing|other)\s+)?(?:player|enemy|enemies|god|gods|one|opponent|opponents|"
                r"victims?)"
                r"(?:\s+(?:player|god))?")
_GROUP_PATTERNS = [
    ("role", r"\b(which|what|each|every|per|by|all|the)\s+(roles?|positions?|lanes?)\b|\broles\b|\brole\s+(?:dealt|did|had|got|healed|took)\b"
             rf"|\b(?:roles?|positions?){_HEAD_OF}"),
    # "which god" ranks gods, "which god ability" abilities: a god word before an ability word only says what kind
    ("god", r"\b(which|what|each|every|per|by)\s+(gods?|characters?|champions?|heroes)\b"
            r"(?!'?s?\s+(?:abilit(?:y|ies)|skills?|spells?|moves?|kits?)\b)|(?<!many\s)(?<!enemy\s)(?<!opposing\s)(?<!other\s)\bgods\s+(?:dealt|did|had)\b"
            r"|\b(?:rank|list|sort|order|show|compare)\s+(?:the\s+|all\s+(?:the\s+)?)?gods\b"
            r"|\bgods\s+(?:ranked|sorted|ordered|listed|by)\b"),
    ("team", r"\b(which|what|each|every|per|by|both|the\s+two)\s+(teams?|sides?)\b(?!\s*(?:\d|one\b|two\b))|\bteam\s+totals?\b|"
             # "team deaths", "side kills": a figure said of the teams with no team named is per team
             r"(?<!my\s)(?<!our\s)(?<!their\s)(?<!his\s)(?<!her\s)(?<!its\s)(?<!same\s)(?<!enemy\s)(?<!other\s)(?<!order\s)(?<!chaos\s)"
             r"\b(?:team|side)\s+(?:deaths|kills|assists|gold|damage|healing|experience|xp|kda)\b|\bteams\b|\bsides\b|\b(?:final\s+)?score(?:line)?\b"
             rf"|(?<!my\s)(?<!our\s)(?<!their\s)(?<!his\s)(?<!her\s)(?<!on\sthe\s)(?<!of\sthe\s)\b(?:team|side){_HEAD_OF}"),
    ("ability", r"\b(which|what|each|every|per|by|top|most\s+\w+)\s+(?:god'?s?\s+)?(abilit(?:y|ies)|skills?|spells?|moves?|attacks?)\b"
                r"|\babilit(?:y|ies)\b|\bskills\b|\bspells\b"
                # items' effects are abilities in the log: "which item proc", "damage by item effect"
                r"|\b(?:which|what|each|every|per|by|top|most\s+\w+)\s+item\s+(?:procs?|effects?|actives?|passives?)\b"
                r"|\bitem\s+(?:procs|effects)\b"
                # "what did she get her kills with": the instrument asked for is the ability
                r"|\bwhat\s+(?:did|does|do|has|have)\s+name\s+(?:\w+\s+){0,4}?(?:kills?|killing\s+blows?|damage|dmg|"
                r"healing|heals?|crits?|hits?)\s+(?:\w+\s+)?with\b"
                r"|\bwhat\s+(?:did|does|do|has|have)\s+name\s+(?:kill|killed|heal|healed|hit|damage|damaged)\s+"
                r"(?:\w+\s+)?with\b"
                # "what dealt the most damage", "what does the most healing": a thing, not a person, did it
                r"|\bwhat\s+(?:did|does|do|dealt|deals|was\s+doing|has\s+done)\s+(?:the\s+)?(?:most|highest|biggest|more)\s+"
                r"(?:damage|dmg|healing|heals?)\b"
                # "... and with which ability": the instrument of what was done
                r"|\bwith\s+(?:what|which)(?:\s+(?:abilit(?:y|ies)|skills?|spells?|moves?|attacks?))?\s*[?.!]*\s*$"
                # the log's "types of damage" are the abilities and items that dealt it
                r"|\b(?:types?|kinds?|sorts?|sources?)\s+of\s+(?:damage|dmg|healing|heals?|kills?)\b"
                r"|\b(?:damage|dmg|healing|heal)\s+sources?\b"),
    ("item", r"\b(which|what|each|every|per|by)\s+items?\b|\bitems?\s+(?:was|were)\s+(?:bought|purchased)\b"
             r"|\b(?:most|least)\s+(?:often\s+)?(?:purchased|bought|popular|common)\s+items?\b"),
    ("target_kind", r"\b(which|what|each|every|per|by)\s+(?:kinds?\s+of\s+|types?\s+of\s+)?targets?(?:\s+kinds?|\s+types?)?\b"
                    r"|\bwhere\s+did\b.*\b(damage|dmg)\b.*\bgo\b|\bwhat\s+did\s+name\s+(?:hit|damage|attack)\b"),
    ("phase", r"\b(each|every|per|by|which)\s+(?:game\s+)?phases?\b"
              r"|\b(?:through|throughout|across|over|in|during|between)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:match\s+|game\s+)?"
              r"(?:phases|stages)\b|\b(?:phases|stages)\s+of\s+the\s+(?:match|game)\b"),
    # "who did Brisk kill the most": Brisk's kills split by whom they killed, said with any killing verb, or as kills
    # got on someone ("which enemy did the zeus get the most kills on")
    ("victim", r"\b(?:who|whom|" + _WHICH_ENEMY + r")\s+did\s+(?:the\s+)?{subject}\s+(?:(?:kill|murder|farm|eat|delete|"
               r"one\s*shot|pick\s+off|take\s+out|hunt\s+down)\b(?!\s+(?:with|using)\b)|(?:[a-z]+\s+){1,2}?(?:the\s+)?(?:most\s+)?"
               r"kills?\s+(?:on|off|against)\b)|\bname(?:'s)?\s+victims\b"
               # the one killed the most, said as a ranked victim: "her top victim", "his most frequent victim"
               r"|" + RANKED_VICTIM + r"|\bfavou?rite\s+(?:target|enemy|person|player|god)\s+to\s+"
               r"(?:kill|farm|murder|hunt)\b"),
    # "who was Brisk focusing / diving / hunting": whom one player went after is whom they hit the most
    ("target", TARGETING.pattern),
    # "who did Brisk hit the most", "Brisk's damage to each enemy": one player's damage split by whom it hit
    ("target", r"\b(?:who|whom|" + _WHICH_ENEMY + r")\s+"
               r"did\s+{subject}\s+"
               r"(?:hit|damage|dmg|attack|hurt|focus|deal|do|chunk|nuke|heal"
               # a striking verb with its particle: "beat on", "pick on", "go after"
               r"|(?:beat|pick)\s+on|go\s+after)\b"
               # "which enemy did Brisk dump / put / pour the most damage into": any verb, the damage, its target
               r"|\b(?:who|whom|" + _WHICH_ENEMY + r")\s+did\s+{subject}\s+[a-z]+"
               r"\s+(?:the\s+)?(?:most\s+)?(?:damage|dmg)\s+(?:in|into|on|onto|to|at|against)\b"
               r"|\b(?:to|on|against|into)\s+(?:each|every|every\s+single)\s+(?:enemy|opponent|enemy\s+(?:player|god))\b"
               r"|\b(?:per|by)\s+(?:the\s+)?(?:enemy|enemies|opponent|opponents|enemy\s+(?:players?|gods?))\b"
               r"(?:\s+(?:it|they|he|she)\s+hit)?"),
    # "which minute had the most kills": the minutes ranked, not a series and not the players
    # "what minute of the match did X die" asks when; "which minute of the match saw the most deaths" ranks minutes
    ("minute", r"\b(?:which|what)\s+(?:single\s+)?minute\b(?!\s+mark\b)"
               r"(?!\s+of\b(?![^?.!;]*\b(?:most|least|highest|lowest|fewest|biggest|busiest|bloodiest)\b))"
               r"|\b(?:top|best|worst|busiest|bloodiest|deadliest)\s+(?:\d{1,2}\s+|two\s+|three\s+|five\s+)?minutes?\b"
               # "when did X deal the most damage": the moment of a figure's most is its top minute
               r"|\bwhen\b(?=[^?.!;]*?\b(?:the\s+)?(?:most|highest|hardest|biggest|peak(?:ed|s)?)\b)"),
    ("objective", r"\b(which|what|each|every|per|by)\s+objectives?\b"),
    # "by towers" groups by tower, but "killed by towers" names who killed: a qualifier
    ("source", r"\b(which|what|each|every|per|(?<!killed\s)(?<!slain\s)(?<!hit\s)(?<!damaged\s)(?<!died\s)by)\s+(?:non[\s-]?players?|npcs?|monsters?|bosses|boss|camps?|"
               r"jungle\s+(?:camps?|monsters?)|minions?|structures?|towers?|sources?|attackers?)\b"),
    ("player", r"\bwho(?:s|'s|se|m)?\b|\bwhich\s+(?:player|person|one|guy|god\s+player|people|persons|guys|folks|dudes)\b|\bwhat\s+player\b|"
               r"\b(?:each|every|all(?:\s+the)?|all\s+(?:ten|10))\s+(?:(?:order|chaos|team\s*[12]|enemy|our|their)\s+)?players?\b|"
               r"\bper\s+player\b|\bby\s+player\b(?!\s+name\b)|\bplayers\b|\bfragger\b|\bmvp\b|\bleaderboard\b|\bscoreboard\b|\bwhom\b|\banyone\b|\banybody\b|\bany\s+players?\b"
               r"|\beveryone\b|\beverybody\b|\ball\s+(?:ten|10)\b"
               # people ranked or listed, never counted ("rank people by gold", not "how many people died")
               r"|\b(?:rank|list|sort|order|show|compare)\s+(?:the\s+|all\s+(?:the\s+)?)?people\b|\bpeople\s+(?:ranked|sorted|by)\b"
               # and people picked out by what they did ("people with more than 10 deaths", "folks who never died")
               r"|\b(?:people|guys|folks)\s+(?:with|who|that|whose|having)\b"),
]
# Whose figure is split by whom it hit: a player's name, a pronoun for the one the question is about ("our mid
# (chaos): whom did she hit hardest"), or a side's role ("did the chaos jungler hit")
_SPLIT_SUBJECT = (r"(?:name|he|she|they|(?:the\s+)?(?:order|chaos|team\s*[12]|our|my|their|enemy)(?:'s)?\s+"
                  r"(?:(?:side|team)(?:'s)?\s+)?(?:" + ROLE_SAID + r"))")
_GROUP_RULES = [(dim, re.compile(p.replace("{subject}", _SPLIT_SUBJECT))) for dim, p in _GROUP_PATTERNS]


def group_cues(text: str) -> list[str]:
    return [dim for dim, pattern in _GROUP_RULES if pattern.search(text)]


# -------------------------------------------------------------------------------------------- shape

SUPERLATIVE = re.compile(
    r"\b(most|highest|best|top|biggest|largest|greatest|hardest|strongest|least|lowest|fewest|worst|smallest|minimum|maximum|"
    r"max|(?<!\d)(?<!\d\s)(?<!\d\+)(?<!\d\+\s)min|bottom|leaderboard|leader|leaders|led|leading|rank|ranking|ranked|order\s+by|sort(?:ed)?\s+by|more\s+than\s+anyone|"
    r"richest|poorest|busiest|bloodiest|deadliest|carried|mvp|fragger|more|fewer|less|better|worse|top\d+|higher|lower|topped|tops|topping|"
    r"number\s+one|no\.?\s*1|first\s+place|#\s*1)(?!\w)"
    # a thing done again and again is a ranking by how often: "who kept dying to minions", "who was always feeding"
    r"|\b(?:kept|keeps|keep|repeatedly|constantly|always|over\s+and\s+over|again\s+and\s+again)\b")
# "min" is the minimum unless it is the unit of a rate ("gold per min", "damage a min", "xp/min") or of a time, after a
# number ("20 min", "15min+"): a number followed by min is a time.
ASCENDING = re.compile(r"\b(least|lowest|fewest|worst|smallest|minimum|(?<!per\s)(?<!a\s)(?<!/)(?<!\d)(?<!\d\s)(?<!\d\+)(?<!\d\+\s)min|bottom|poorest|fewer|less|"
                       r"worse|lower|ascending)\b")
_N = f"({COUNT_SAID})"
_ENTITIES = r"(?:players?|gods?|abilities|skills|spells|items|roles|people|guys|teams|kills|deaths|purchases|buys|hits)"
_RANKED = (r"(?:highest|most|biggest|best|largest|top|strongest|hardest|deadliest|richest|lowest|least|worst|fewest|"
           r"smallest|weakest|poorest|leading)")
# Any N: "top 3", "the four players with the most kills", "the 3 abilities that dealt the most damage", "the 3 highest
# damage abilities", "5 most used items", "his first 3 items", "the last two kills".
TOP_N = re.compile(rf"\b(?:top|best|bottom|worst|first|last|final|latest|earliest|leading|highest|lowest)\s*{_N}\b"
                   rf"|\b(?:the\s+)?{_N}\s+{_ENTITIES}\s+(?:with|who|that|by)\b"
                   rf"|\b(?:the\s+|my\s+|his\s+|her\s+|their\s+|name's\s+)?{_N}\s+{_RANKED}\b")
POSITION = re.compile(r"\b(" + PLACE_WORDS + r")\s*[- ]?\s*(?:most|highest|best|biggest|largest|"
                      r"greatest|least|lowest|fewest|worst|place|ranked|richest)\b")
# A place in a ranking said as a place: "who's 2nd in damage", "which god came third on kills", "who finished in
# 4th place for gold". A who-word must come first: "died second in the fight" is an order of events.
_ORDINAL = rf"({PLACE_WORDS})"
PLACE = re.compile(rf"\b(?:who(?:'s|s)?|which\s+\w+(?:'s)?)\s+(?:(?:is|was|were|came|comes|come|finished|finishes|placed|"
                   rf"places|ranked|ranks|ended\s+up|ends\s+up|sits|sat|went)\s+)?(?:in\s+)?(?:the\s+)?{_ORDINAL}"
                   rf"(?:\s+place)?\s+(?:in|on|for|by|at|with)\b")
EVERY = re.compile(r"\b(each|every|all|everyone|everybody|everyone's|per\s+player|by\s+player(?!\s+name\b)|list|rank|ranking|ranked|"
                   r"leaderboard|scoreboard|sorted|sort|order(?:ed)?\s+by|across\s+(?:all\s+)?(?:the\s+)?players|"
                   r"for\s+(?:all|everyone|each)|breakdown|break\s+down|full)\b")
COMPARE = re.compile(r"\b(compare|compared|comparison|versus|vs\.?|against\s+each\s+other|difference\s+between|head\s+to\s+head|"
                     r"side\s+by\s+side|stack\s+up|matchups?|match[\s-]+ups?|duels?)\b")
TIMELINE = re.compile(
    r"\b(over\s+time|each\s+minute|every\s+minute|minute\s+by\s+minute|by\s+minute|per\s+minute\s+(?:breakdown|chart|graph)|"
    r"timeline|time\s+line|time\s+series|trend|trends|trending|progress(?:ion)?|evolution|evolve[ds]?|graph|chart|plot|curve|"
    r"as\s+the\s+(?:match|game)\s+went\s+on|grow|grew|growth|climb(?:ed)?|"
    r"develop(?:ed)?|accumulate[ds]?|build\s+up|built\s+up|ramp(?:ed)?\s+up|per\s+minute\s+over|"
    r"how\s+(?:did|does|has|had|do)\b[^?.!;]*?\bchang(?:e|ed|es|ing)|chang(?:e|ed|es|ing)\s+over)\b")
# "over the game", "across the match", "throughout the match", "for the game": the whole match, a total, never a series
# by themselves (METRICS.md: a figure of the match is its whole-match sum); a series needs a time word of its own
PER_MINUTE = re.compile(r"\bper\s+min(?:ute)?\b|/\s*min(?:ute)?\b|\ba\s+minute\b|\beach\s+minute\b|\bevery\s+minute\b")
QUESTION_WORD = re.compile(r"\b(who|whos|what|which|how|when|where|list|show|compare|did|does|was|were|give|tell|rank)\b")
# Whose own figure a share is of: "of X's damage", "of her damage", "of order's gold", "of the chaos jungler's
# healing" (a side's role is one player)
OF_OWN = re.compile(r"\bof\s+(?:name|his|her|their|its|(?:order|chaos|team\s*\d)'?s)\b(?:'s)?"
                    rf"|\bof\s+(?:the\s+|our\s+|their\s+)?(?:(?:order|chaos|team\s*\d|enemy)\s+)?(?:{ROLE_SAID})['’]s?(?!\w)")
# "how much of X's damage went into gods" asks a part of X's own figure, as a share does
SHARE = re.compile(rf"\b(percent(?:age)?|share|proportion|fraction|portion)\b|%|\bhow\s+much\s+(?:{OF_OWN.pattern})")
HOW_MANY = re.compile(r"\bhow\s+(many|much)\b|\bnumber\s+of\b|\bcount\b|\btotal\b|\bin\s+total\b|\bsum\b|\bcombined\b")
# "Who did over 300k damage total": a question about who, where "total" only says the figure is a sum
_WHO_ASKED = re.compile(r"\b(?:who|whos|who's|which\s+(?:player|players|one|god|gods|role|roles))\b")
_HOW_MANY_ASKED = re.compile(r"\bhow\s+(many|much)\b|\bnumber\s+of\b|\bcount\b")


@dataclass(frozen=True)
class Shape:
    superlative: bool = False
    order: PlanOrder = "desc"
    top: int | None = None  # "top 3"
    position: int = 1  # "the second most"
    every: bool = False  # the whole list: "for every player", "rank the players"
    series: bool = False  # "over time", "throughout the match"
    per_minute: bool = False  # "per minute": a series, unless the figure is itself a rate
    compare: bool = False
    count: bool = False  # "how many", "in total"
    share: bool = False  # "what percentage of the team's damage"


_CHART_ONLY = re.compile(r"\b(graph|chart|charts|plot|curve)\b|\bper\s+minute\s+(chart|graph)\b")


def _series(text: str, superlative: bool) -> bool:
    """A series is asked for by time words; "chart" alone is one only without a leader ("who topped the
    kills chart" is a ranking, "chart the gold" a series)."""
    cues = {m.group(0) for m in TIMELINE.finditer(text)}
    if not cues:
        return False
    return not (superlative and all(_CHART_ONLY.fullmatch(c) for c in cues))


# A lane is a role, not a ranking: "top lane gold diff" sets the solo players side by side
_LANE_NAMES = re.compile(r"\b(?:top|bot|bottom)\s+(?:lane|laner|laners|lanes|side)\b")


# "the least damage of all", "the most kills out of everyone": after a superlative, everyone is whom the leader is
# taken from, not a list asked for
_OF_EVERYONE = re.compile(r"\b(?:of|out\s+of|among|amongst)\s+(?:them\s+)?(?:all|everyone|everybody|every\s+player)"
                          r"(?:\s+(?:the\s+)?(?:players|gods|ten|10))?\b")


def read_shape(text: str) -> Shape:
    top = TOP_N.search(text)
    position = POSITION.search(text) or PLACE.search(text)
    n = None
    if top:
        said = next(g for g in top.groups() if g)
        n = COUNT_WORDS.get(said) or int(said)
        n = max(1, min(n, 100))
    # "with at least 10 assists" and "more than 5 deaths" are conditions, neither a leader nor the list's order
    ordering = _LANE_NAMES.sub(" ", THRESHOLD.sub(" ", text))
    superlative = bool(SUPERLATIVE.search(ordering)) or bool(position) or bool(TARGETING.search(text)) \
        or bool(re.search(RANKED_VICTIM, text))
    return Shape(superlative=superlative, order="asc" if ASCENDING.search(ordering)
                 else "desc", top=n, position=PLACES[position.group(1).lower()] if position else 1,
                 every=bool(EVERY.search(_OF_EVERYONE.sub(" ", text) if superlative else text)),
                 series=_series(text, superlative),
                 per_minute=bool(PER_MINUTE.search(text)), compare=bool(COMPARE.search(text)),
                 count=bool(_HOW_MANY_ASKED.search(text) or HOW_MANY.search(text) and not _WHO_ASKED.search(text)), share=bool(SHARE.search(text)))


# -------------------------------------------------------------------------------------------- scope


@dataclass(frozen=True)
class Scope:
    """Which matches a question is about. Today always this one match; the season work adds readers for
    a set of matches or all of them, and plans for those scopes."""

    kind: str = "match"
    said: str = ""


# Each reader returns a Scope when the question names one, else None; the first answer wins.
SCOPE_READERS: list[Callable[[str], Scope | None]] = []


def read_scope(text: str) -> Scope:
    for reader in SCOPE_READERS:
        found = reader(text)
        if found is not None:
            return found
    return Scope()


# ------------------------------------------------------------------------------------- the reading


@dataclass(frozen=True)
class Reading:
    """What a question's words say, slot by slot, before they become a plan."""

    question: str
    text: str  # normalized, names masked, time phrases removed
    masked: str = ""  # the question with names masked (time phrases kept)
    players: tuple[str, ...] = ()
    gods: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    npcs: tuple[str, ...] = ()
    ambiguous: tuple[Mention, ...] = ()
    teams: tuple[int, ...] = ()
    roles: tuple[str, ...] = ()
    windows: tuple[TimeWindow, ...] = ()
    at_minute: int | None = None
    whole_match: bool = False
    metrics: tuple[str, ...] = ()
    metric_hits: tuple[MetricHit, ...] = ()
    evidence: str = "none"
    qualifiers: tuple[Qualifier, ...] = ()
    groups: tuple[str, ...] = ()
    shape: Shape = field(default_factory=Shape)
    scope: Scope = field(default_factory=Scope)
    unread: tuple[str, ...] = ()  # content words no reader has a meaning for
    assumptions: tuple[str, ...] = ()
    winner_unknown: bool = False  # "the winners" named, but no Titan fell
    kind_subject: str | None = None  # a kind of non-player named as the one dealing damage ("the towers")
    owner_sides: tuple[int, ...] = ()  # sides named as the owners of what fell ("the towers order lost")
    side_roles: tuple[tuple[int, str], ...] = ()  # a side and a role said together ("the chaos support", "mid on order")
    causes: Causes | None = None  # who dealt the killing blows asked about ("killed by the Fire Giant")
    anchor: Anchor | None = None  # the event a window is anchored on ("before the first tower fell")

    @property
    def window(self) -> TimeWindow | None:
        return self.windows[0] if len(self.windows) == 1 else None

    @property
    def named(self) -> bool:
        """The question names an entity: a player, god, team or role."""
        return bool(self.players or self.gods or self.teams or self.roles)


def _spelling(text: str) -> str:
    # case, spaces, punctuation and a possessive don't change a name; accents do (worth stating)
    return re.sub(r"[\W_]+", "", re.sub(r"['’]s$", "", text.casefold()))


def _mention_notes(mentions: Sequence[Mention]) -> list[str]:
    notes = []
    for m in mentions:
        if m.kind == "ambiguous":
            continue
        if m.how != "exact" or _spelling(m.said) != _spelling(m.name):
            notes.append(f"'{m.said}' read as {m.name}" + ("" if m.kind == "player" else f" ({m.kind})"))
    return notes


_NPC_KINDS = r"(?:minions?|creeps?|waves?|towers?|turrets?|structures?|buildings?|camps?|monsters?|mobs?|bosses|npcs?)"
_LISTING = r"(?:/|,|&|\bor\b|\band\b|\bnor\b)"
# Role words that are not roles here: "mid game", "early, mid and late", "the jungle camps", "died to the jungle".
_NOT_ROLES = re.compile(r"\bmid[\s-]*(game|match)\b(?![\s-]*ups?\b)|\b(early|late)[\s,]+(?:and\s+|vs\.?\s+|or\s+)?mid\b|"
                        r"\bmid[\s,]+(?:and\s+|vs\.?\s+|or\s+)?(late|early)\b|"
                        r"\bjungle\s+(camps?|monsters?|creeps?|mobs?|bosses|boss|buffs?)\b|"
                        r"\b(?:to|from|by|against|in|into|on)\s+(?:the\s+)?jungle\b(?!\s+(?:role|player|laner|position))|"
                        # listed among other non-players' kinds: "not minions/jungle", "jungle or towers"
                        rf"\b{_NPC_KINDS}\s*{_LISTING}\s*(?:the\s+)?(jungle)\b(?!\s+(?:role|player|laner|position))|"
                        rf"\b(jungle)\s*{_LISTING}\s*(?:the\s+)?{_NPC_KINDS}\b",
                        re.IGNORECASE)
BUILDING = re.compile(rf"\bbuild(s|ing)?\b|\bbuilt\b|\b(buy|bought|purchas\w*)\b|\b{CHAT_BUY_VERB}\b")


# A side named as the owner of what fell rather than the side that took it: "how many towers did order lose", "chaos
# gave up", "order's towers", "the chaos phoenixes", "towers lost by order". The log counts an objective for the side
# that took it, so such a side is read as the other one (`intents.as_taker`).
_OWNED = r"(?:towers?|phoenix(?:es)?|titans?|structures?|buildings?|turrets?)"
_LOSING = (r"(?:lose|loses|lost|losing|gave\s+up|give\s+up|gives\s+up|giving\s+up|given\s+up|concede[ds]?|"
           r"conceding|surrender(?:ed|s)?)")
_OWNER_AFTER = re.compile(rf"(?:\s+(?:side|team))?(?:'s|')?\s+(?:(?:first|last|final|\w+est|own|outer|inner|"
                          rf"\w+)\s+)?{_OWNED}\b|\s+(?:\w+\s+)?{_LOSING}\b")
_OWNER_BEFORE = re.compile(rf"\b(?:{_OWNED}|objectives?)\s+(?:(?:that|which)\s+)?(?:(?:were|was|got)\s+)?"
                           rf"(?:of|owned\s+by|belonging\s+to|{_LOSING}\s+by)\s+(?:the\s+)?$")


def owner_sides(text: str, mentions: Sequence[TeamMention]) -> tuple[int, ...]:
    """The sides named as the owners of what fell (see `_OWNED`), in `text` as `find_teams` read it."""
    low = fold(text)
    return tuple(t.team for t in mentions if t.team is not None and (
        _OWNER_AFTER.match(low, t.start + len(t.said)) or _OWNER_BEFORE.search(low[:t.start])))


def _bucket(mentions: Sequence[Mention], kind: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.name for m in mentions if m.kind == kind))


def _abilities_and_items(mentions: Sequence[Mention], text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The abilities and items named. An item proc is also an ability: one name matched as both stays one thing,
    chosen by the verbs ("who bought Bumba's Cudgel" is the item, "damage with Bumba's Cudgel" the ability)."""
    abilities, items = _bucket(mentions, "ability"), _bucket(mentions, "item")
    both = [n for n in items if n in abilities]
    if both:
        buying = bool(BUILDING.search(text))
        abilities = tuple(n for n in abilities if not (buying and n in both))
        items = tuple(n for n in items if buying or n not in both)
    return abilities, items


@dataclass(frozen=True)
class _Sides:
    teams: tuple[int, ...]
    winner_unknown: bool
    notes: tuple[str, ...]
    owners: tuple[int, ...]


def _in_a_name(text: str, t: TeamMention, npcs: Sequence[str]) -> bool:
    """The side word starts the name of a non-player this match has and the question names ("the Order Tower"): part
    of that name, not a team."""
    low = fold(text)
    return any(re.match(rf"{re.escape(fold(npc))}s?\b(?!')", low[t.start:]) for npc in npcs
               if fold(npc).startswith(fold(t.said) + " "))


def _role_after(low: str, t: TeamMention) -> bool:
    """The side is said of a role right after it ("killed the chaos jungler"): that side's player was killed, so the
    side is no victims' side to read as its killers'."""
    rest = low[t.start + len(t.said):]
    joint = _SIDE_THEN_ROLE.match(rest)
    after = rest[joint.end():] if joint and joint.end() else None
    return after is not None and any(r.start == 0 for r in find_roles(after[:24], ()))


def _sides(text: str, winner_team: int | None, npcs: Sequence[str] = ()) -> _Sides:
    """The teams named ("order", "team 2", "the winners"), and the sides named as owners of what fell; a side word
    that starts a non-player's name ("the Order Tower") is part of that name."""
    mentions = [t for t in find_teams(text, winner_team) if not _in_a_name(text, t, npcs)]
    victims = [t for t in mentions if t.team is not None and _KILLED_SIDE.search(fold(text)[:t.start])
               and not _OWNED_AFTER.match(fold(text), t.start + len(t.said)) and not _role_after(fold(text), t)]
    teams = tuple(dict.fromkeys(3 - t.team if t in victims else t.team for t in mentions if t.team is not None))
    notes = tuple(f"'{t.said}' read as team {t.team}" for t in mentions
                  if t.team is not None and not re.match(r"team\s*\d", t.said) and t not in victims)
    notes += tuple(f"the killers of team {t.team}'s players read as team {3 - t.team}, the side that kills them"
                   for t in victims if t.team is not None)
    return _Sides(teams, any(t.team is None for t in mentions), notes, owner_sides(text, mentions))


# A side said right before its role ("chaos's support", "the order side jungler", "team 1 carry") or after it ("the
# mid on order", "support of team 2")
_SIDE_THEN_ROLE = re.compile(r"(?:'s|')?\s+(?:(?:side|team)(?:'s|')?\s+)?")
_ROLE_THEN_SIDE = re.compile(r"(?:'s|')?(?:\s*\(\s*|\s+(?:on|of|from|for|in)\s+(?:the\s+)?)")  # "our mid (order)"


def _side_role_spans(text: str, vocab: Vocabulary) -> list[tuple[int, int, int, str]]:
    """(start, end, team, role) of each side said together with a role, in the order said."""
    low = fold(text)
    teams = [t for t in find_teams(text, vocab.winner_team) if t.team is not None]
    roles = find_roles(_NOT_ROLES.sub(lambda m: " " * len(m.group(0)), text), vocab.roles)
    found: list[tuple[int, int, int, str]] = []
    for t in teams:
        for r in roles:
            before = _SIDE_THEN_ROLE.fullmatch(low[t.start + len(t.said):r.start]) if r.start >= t.start else None
            after = _ROLE_THEN_SIDE.fullmatch(low[r.start + len(r.said):t.start]) if t.start > r.start else None
            if (before or after) and t.team is not None:
                found.append((min(t.start, r.start), max(t.start + len(t.said), r.start + len(r.said)), t.team, r.role))
    return sorted(found)


def side_roles(text: str, vocab: Vocabulary) -> tuple[tuple[int, str], ...]:
    """Each side said together with a role, in the order said: (team, role)."""
    return tuple(dict.fromkeys((team, role) for _, _, team, role in _side_role_spans(text, vocab)))


def _side_roles_as_names(text: str, players: Sequence[str | None],
                         vocab: Vocabulary) -> tuple[str, list[str | None]]:
    """The text with each side's role that is one player of the match ("the chaos jungler") written NAME, as a
    player's name is, and that player put among the placeholders' players in its place: "kills on the chaos
    jungler" names its victim as "kills on Brisk" does."""
    out = list(players)
    for start, end, team, role in reversed(_side_role_spans(text, vocab)):
        found = vocab.players_where(team=team, role=role)
        if len(found) != 1 or len(fold(text)) != len(text):
            continue
        out.insert(len(re.findall(r"\bname\b", text[:start])), found[0].player)
        # padded to the words' length: qualifiers found in this text are placed by offsets into the question's
        text = f"{text[:start]}{' ' * max(end - start - 4, 0)}name{text[end:]}"
    return text, out


# A side killed ("who was killing team 1 the most", "who killed order the most"): its killers are the other side,
# since a player kill is always of an enemy. A side's things ("killed chaos's towers") are not its players.
_KILLED_SIDE = re.compile(r"\b(?:kill|kills|killed|killing|slay|slays|slew|slaying|murder\w*|destroy\w*|farm\w*)\s+"
                          r"(?:the\s+)?$")
_OWNED_AFTER = re.compile(r"(?:'s?)?\s*(?:towers?|phoenix\w*|titans?|structures?|buildings?|objectives?|gold|jungle|"
                          r"camps?|minions?)\b")




def _within(hit: MetricHit, q: Qualifier) -> bool:
    return q.start <= hit.start and hit.end <= q.end


_KIND_WORD = "|".join(f"(?:{pattern})" for _, pattern in KIND_WORDS)
# kinds set against a qualifier's kind, which its kind already leaves out: "into real players rather than towers"
_CONTRASTED_KINDS = re.compile(
    rf"\s*,?\s*(?:but\s+)?(?:not|rather\s+than|instead\s+of|other\s+than|excluding)\s+(?:(?:to|on|at|into)\s+)?"
    rf"{_ARTICLES}(?:{_KIND_WORD})\b(?:\s*(?:,|/|&|\bor\b|\band\b|\bnor\b)\s*{_ARTICLES}(?:{_KIND_WORD})\b)*")


def _contrasted_after(q: Qualifier, text: str) -> tuple[int, int]:
    m = _CONTRASTED_KINDS.match(text, q.end) if q.kind else None
    return (q.end, m.end()) if m else (q.end, q.end)


def _beside_qualifiers(found: MetricsRead, qualifiers: Sequence[Qualifier], text: str) -> MetricsRead:
    """The figures once the objective counts named inside a qualifier, or in kinds set against it, are dropped;
    when they were all the figure words and the qualifier's verb is a hit, the words left are read again."""
    against = [_contrasted_after(q, text) for q in qualifiers]
    inside = [h for h in found.hits if h.metric_id in OBJECTIVE_METRICS and (
        any(_within(h, q) for q in qualifiers) or any(a <= h.start < b for a, b in against))]
    found = MetricsRead(tuple(m for m in found.ids if m not in {h.metric_id for h in inside}),
                        tuple(h for h in found.hits if h not in inside), found.notes, found.evidence)
    if found.ids or not any(q.preposition in HITTING and any(_within(h, q) for h in inside) for q in qualifiers):
        return found
    for h in inside:
        text = text[:h.start] + " " * (h.end - h.start) + text[h.end:]
    return read_metrics(text)


def _metrics_beside(found: MetricsRead, qualifiers: Sequence[Qualifier], subject: re.Match | None,
                    text: str) -> MetricsRead:
    """The figures once the objective counts named inside a qualifier ("damage to the towers") or inside a
    non-player subject ("how much damage did the towers do") are dropped: those words say who, not what. When
    they were all the figure words and the qualifier's verb is a hit, the words left are read again ("who hit the fire
    giant": its damage; "the last hit on the tower" stays its taking)."""
    if qualifiers:
        found = _beside_qualifiers(found, qualifiers, text)
    if subject:
        # the subject's kind said again in brackets ("(both sides, towers only)") is still who, not what
        spans = [subject.span(), *(m.span() for m in _BRACKETED.finditer(text))]
        found = MetricsRead(tuple(m for m in found.ids if m not in OBJECTIVE_METRICS or not any(
            h.metric_id == m and any(a <= h.start < b for a, b in spans) for h in found.hits)),
            found.hits, found.notes, found.evidence)
    return found


_BRACKETED = re.compile(r"\([^()]*\)")

# An objective as the one who died: "how many times did the fire giant die", "has the fury died yet". Its death
# is its taking, counted by the objective's own figure, never the players' deaths.
_OBJECTIVE_DIED = re.compile(r"\b(?:(?:fire\s+)?giants?|gold\s+fur(?:y|ies)|towers?|turrets?|phoenix(?:es)?|titans?|bosses|boss|"
                             r"fg|gf)(?:'s)?\s+(?:(?:ever|even|actually|get|got)\s+)?(?P<verb>die[sd]?|dying|deaths?)\b")


def _objective_deaths(found: MetricsRead, text: str) -> MetricsRead:
    """The figures without the players' deaths where the death said is an objective's (`_OBJECTIVE_DIED`), when the
    objective's own figure is read."""
    spans = [m.span("verb") for m in _OBJECTIVE_DIED.finditer(text)]
    if not spans or "deaths" not in found.ids or not set(found.ids) & OBJECTIVE_METRICS:
        return found
    said = [h for h in found.hits if h.metric_id == "deaths"]
    if not all(any(a <= h.start < b for a, b in spans) for h in said):
        return found  # the players' deaths are said elsewhere too ("did the titan die before anyone's deaths")
    return MetricsRead(tuple(m for m in found.ids if m != "deaths"), tuple(h for h in found.hits if h not in said),
                       found.notes, found.evidence)


_KILL_WORD = re.compile(r"\b(?:kill\w*|slay\w*|slew|slain|farm\w*|cs|creep\s+score|last[\s-]?hit\w*|clear\w*)\b")
_KINDS_ONLY = re.compile(r"^(?:minions|jungle\s+camps|camps|jungle\s+monsters|monsters)\s+and\s+"
                         r"(?:minions|jungle\s+camps|camps|jungle\s+monsters|monsters)$")


def _kinds_hit_not_killed(found: MetricsRead, text: str) -> MetricsRead:
    """"Damage to the camps and minions": the two kinds said together are what was hit, not the npc kills, when
    another figure is named and no word says they were killed (the kinds are then read as qualifiers)."""
    said = [h for h in found.hits if h.metric_id == "npc_kills" and _KINDS_ONLY.match(h.phrase)]
    if not said or len(found.ids) < 2 or _KILL_WORD.search(text):
        return found
    return MetricsRead(tuple(m for m in found.ids if m != "npc_kills"), tuple(h for h in found.hits if h not in said),
                       found.notes, found.evidence)


def _build_counted(found: MetricsRead, text: str) -> MetricsRead:
    """A build counted is the items in it: "how many items did X build" asks items purchased, not the build order."""
    if found.ids != ("build",) or not _HOW_MANY_ASKED.search(text):
        return found
    hits = tuple(replace(h, metric_id="items_purchased") for h in found.hits)
    return MetricsRead(("items_purchased",), hits, found.notes, found.evidence)


def _without(text: str, causes: Causes | None) -> str:
    """The text with the causes of death blanked: "deaths not caused by enemy players" groups by no one."""
    if causes is None:
        return text
    return text[:causes.verb_end] + " " * (causes.end - causes.verb_end) + text[causes.end:]


def _as_deaths(found: MetricsRead, qualifiers: Sequence[Qualifier], causes: Causes
               ) -> tuple[MetricsRead, tuple[Qualifier, ...]]:
    """A cause of death names who dealt the blow, not a figure of its own: "killed by the fire giant" counts deaths
    (not kills, not Fire Giant kills), and the qualifiers inside it are the cause's."""
    inside = [h for h in found.hits if any(start <= h.start < end for start, end in causes.spans())]
    kept = [h for h in found.hits if h not in inside or h.metric_id in ("deaths",)]
    ids = [m for m in found.ids if m not in {h.metric_id for h in inside} or m == "deaths"]
    if "deaths" not in ids:
        ids.insert(0, "deaths")
    metrics = MetricsRead(tuple(ids), tuple(kept), found.notes, "strong")
    return metrics, tuple(q for q in qualifiers if not any(start <= q.start < end for start, end in causes.spans()))


# Who killed a player the most, in a word: "Brisk's nemesis", "the bully of Brisk"
_KILLER_OF = re.compile(r"\bname(?:'s)?\s+(?:nemesis|bully|daddy|worst\s+enemy|kryptonite|killer|hunter)\b"
                        r"|\b(?:nemesis|bully|worst\s+enemy|kryptonite)\s+(?:of|for)\s+name\b")
_OBJECT_PRONOUN = re.compile(r"\b(?:him|her)\b")
# A question word and its noun are the clause's subject ("which player", "what enemy god"), so the word after
# them is its verb, even where a figure's name holds it ("player kills").
_ASKED_SUBJECT = re.compile(r"\b(?:which|what|whichever)\s+(?:[a-z]+\s+){1,2}$")


def _figure_words(q: Qualifier, hits: Sequence[MetricHit], text: str) -> bool:
    """A qualifier begun inside a figure's words is that figure's own ("the biggest hit Brisk landed" is Brisk's
    biggest hit, not hits on Brisk), unless its word is the verb of an asked subject ("which player kills Brisk")."""
    inside = any(h.start < q.start < h.end for h in hits)
    return inside and not _ASKED_SUBJECT.search(text[:q.start])


def _placeholder_players(named: Sequence[Mention], vocab: Vocabulary) -> list[str | None]:
    """The player behind each NAME placeholder of the masked question, in order (`mask` keeps the first of
    overlapping names): a player's own name, a god played by exactly one player of the match ("how many times did
    Thor kill Zeus": Zeus's player is the victim), and None for any other name (an ability, an item)."""
    out: list[str | None] = []
    last = 0
    for m in sorted(named, key=lambda m: (m.start, m.end)):
        if m.start < last:
            continue
        last = m.end
        played = [p.player for p in vocab.players_where(god=m.name)] if m.kind == "god" else []
        out.append(m.name if m.kind == "player" else played[0] if len(played) == 1 else None)
    return out


def _qualifiers(text: str, players: Sequence[str | None], npcs: Sequence[tuple[str, str]]) -> tuple[Qualifier, ...]:
    """The qualifiers, where "him" or "her" is the one player the question names ("who was Brisk's nemesis, the
    one who killed him the most"), and a player's nemesis is who killed them."""
    one = list(dict.fromkeys(p for p in players if p is not None))
    if len(one) == 1:  # each pronoun is that player; a placeholder keeps its own (an ability's stays no player)
        own = iter(players)
        players = [next(own, None) if m.group(0) == "name" else one[0]
                   for m in re.finditer(rf"\bname\b|{_OBJECT_PRONOUN.pattern}", text)]
        text = _OBJECT_PRONOUN.sub("name", text)
    found = list(read_qualifiers(text, players, npcs))
    nemesis = _KILLER_OF.search(text)
    if nemesis and len(one) == 1 and not any(q.name == one[0] for q in found):
        found.append(Qualifier("on", "player", one[0], nemesis.group(0), None, nemesis.start(), nemesis.end()))
    return tuple(found)


def read_question(question: str, vocab: Vocabulary) -> Reading:
    """Every slot of one question, each read on its own; a window anchored on an event of the match ("after the first
    tower fell") is read first, and the rest of the question over it (`anchors`)."""
    anchor = find_anchor(question, vocab)
    if anchor is None:
        return _read_question(question, vocab)
    r = _read_question(anchor.rest, vocab)
    windows = (anchor.window,) if anchor.window is not None and not r.windows else r.windows
    if anchor.window is not None and len(r.windows) == 1:
        windows = (_anchored_within(anchor.window, r.windows[0]),)
    return replace(r, question=question, windows=windows, anchor=anchor,
                   assumptions=(*r.assumptions, anchor.note) if anchor.note else r.assumptions)


def _anchored_within(anchored: TimeWindow, said: TimeWindow) -> TimeWindow:
    """The anchored window narrowed by a clock window said with it ("after first blood, in the first 10 minutes")."""
    if said.from_end_s is not None:
        return anchored
    start = max(anchored.start_s or 0, said.start_s or 0)
    ends = [e for e in (anchored.end_s, said.end_s) if e is not None]
    return TimeWindow(label=f"{anchored.label}, {said.label}", start_s=start or None, end_s=min(ends) if ends else None)


def _npc_slips_mended(question: str, mentions: Sequence[Mention]) -> tuple[str, tuple[str, ...]]:
    """The question with each non-player's name typed with a slip ("fire gaint") written as logged, so every reader
    of the text finds it where the name is; and the readings said."""
    slips = sorted((m for m in mentions if m.kind == "npc" and m.how == "fuzzy"), key=lambda m: -m.start)
    for m in slips:
        question = question[:m.start] + m.name + question[m.end:]
    return question, tuple(f"'{m.said}' read as {m.name}" for m in reversed(slips))


def _read_question(question: str, vocab: Vocabulary) -> Reading:
    """Every slot of one question, each read on its own."""
    mentions = find_mentions(question, vocab)
    question, mended = _npc_slips_mended(question, mentions)
    if mended:
        mentions = find_mentions(question, vocab)
    named = [m for m in mentions if m.kind != "npc"]
    masked = spelled_out(mask(question, named))  # names masked first: a player called "n" stays a name
    times = parse_windows(masked)
    text, compounded = compounds.read(normalize(times.rest))  # "killcount", "tower deaths"
    text, typos = corrected(text)
    abilities, items = _abilities_and_items(mentions, text)
    sides = _sides(times.rest, vocab.winner_team, [m.name for m in mentions if m.kind == "npc"])
    roles = tuple(dict.fromkeys(r.role for r in find_roles(_NOT_ROLES.sub(" ", masked), vocab.roles)))
    found = _kinds_hit_not_killed(read_metrics(SOLO_SET_AGAINST.sub(
        lambda m: m.group(0)[:m.start("solo") - m.start()] + "    ", text)), text)
    npc_said = [(m.said, m.name) for m in mentions if m.kind == "npc"]
    qualifiers = _qualifiers(*_side_roles_as_names(text, _placeholder_players(named, vocab), vocab), npc_said)
    qualifiers = tuple(q for q in qualifiers if not _figure_words(q, found.hits, text))
    qualifiers, casting = casting_players(qualifiers, abilities, found.ids, text, vocab)  # "on <god>": playing it
    subject = _KIND_SUBJECT.search(text)
    assumptions = [*mended, *times.assumptions, *compounded, *typos, *_mention_notes(named), *sides.notes, *found.notes,
                   *(q.note for q in qualifiers if q.note), *casting]
    found = _build_counted(_objective_deaths(_metrics_beside(found, qualifiers, subject, text), text), text)
    causes = read_causes(text, vocab)
    teams = sides.teams
    if causes is not None:
        found, qualifiers = _as_deaths(found, qualifiers, causes)
        teams, roles = _outside_causes(text, causes, teams, roles)
    return Reading(
        question=question, text=text, masked=masked, players=_bucket(mentions, "player"), gods=_bucket(mentions, "god"),
        abilities=abilities, items=items, npcs=_bucket(mentions, "npc"),
        ambiguous=tuple(m for m in mentions if m.kind == "ambiguous"), teams=teams, roles=roles,
        windows=times.windows, at_minute=times.at_minute, whole_match=times.whole_match, metrics=found.ids,
        metric_hits=found.hits, evidence=found.evidence, qualifiers=qualifiers, groups=tuple(group_cues(_without(text, causes))),
        shape=_done_badly(read_shape(text), found.ids, text), scope=read_scope(text),
        unread=_unread(text, npc_said, qualifiers, found, causes),
        causes=causes,
        assumptions=tuple(dict.fromkeys(assumptions)), winner_unknown=sides.winner_unknown, owner_sides=sides.owners,
        kind_subject=next((g for g in subject.groups() if g), None) if subject else None,
        side_roles=side_roles(times.rest, vocab),
    )


_SIDE_WORDS = {1: "order", 2: "chaos"}
# Doing badly on purpose or by blunder, in players' words: the most of it, said of another figure ("who inted the
# hardest k/d wise"), is the lowest of that figure; of deaths or of damage taken, the most of them
_DID_BADLY = re.compile(r"\b(?:int|inted|inting|inter|threw|throwing|thrower|trolled|trolling|griefed|griefing)\b"
                        r"(?!\s+(?:out|around|down|up)\b)")  # "threw out the most cc" dealt it
_MORE_IS_WORSE = frozenset({"deaths", "damage_taken", "damage_taken_from_players"})


def _done_badly(shape: Shape, ids: Sequence[str], text: str) -> Shape:
    if not (shape.superlative and shape.order == "desc" and ids and not set(ids) & _MORE_IS_WORSE
            and _DID_BADLY.search(text)):
        return shape
    return replace(shape, order="asc")


def _outside_causes(text: str, causes: Causes, teams: tuple[int, ...], roles: tuple[str, ...]
                    ) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The sides and roles named outside the causes of death: "the chaos towers" owns the killer, "died to jungle
    camps" names no jungler."""
    teams = tuple(t for t in teams if not _owns_cause(t, causes))
    outside = text
    for start, end in causes.spans():
        outside = outside[:start] + " " * (end - start) + outside[end:]
    said = " ".join(text[start:end] for start, end in causes.spans())
    if "jungle" in causes.kinds and re.search(r"\bjungle\b", said) and not re.search(r"\bjungl|\bjg\b", outside):
        roles = tuple(r for r in roles if r != "Jungle")
    return teams, roles


def _owns_cause(team: int, causes: Causes) -> bool:
    """A side named only as the owner of a killer ("the chaos towers"): part of the cause, not whose deaths."""
    word = _SIDE_WORDS.get(team)
    return bool(word and causes.names and re.search(rf"\b{word}\b", causes.said)
                and all(fold(n).startswith(word) for n in causes.names))


def _unread(text: str, npcs: Sequence[tuple[str, str]], qualifiers: Sequence[Qualifier],
            found: MetricsRead, causes: Causes | None = None) -> tuple[str, ...]:
    """Content words no reader used: not a name, not a known word, not a misspelling a reader resolved."""
    for said, _ in npcs:
        text = text.replace(fold(said), " ")
    if causes is not None and (causes.left_out or causes.negated):
        # "but not the titan", "excluding the fire ones", "leaving out the ones to towers": read by the causes
        text = text[:causes.start] + " " * (causes.end - causes.start) + text[causes.end:]
    resolved = {w for note in (*found.notes, *(q.note for q in qualifiers if q.note))
                for w in re.findall(r"'([^']+)' read as", note)}
    places = [m.group(0) for m in LOCATION.finditer(text)]
    spans = [(h.start, h.end) for h in found.hits] + [(q.start, q.end) for q in qualifiers]
    # "to gods, not minions", "dmg to gods not jungle": kinds the qualifier or the figure's own target leaves out
    spans += [_contrasted_after(q, text) for q in qualifiers]
    spans += [(h.end, m.end()) for h in found.hits if h.metric_id.startswith("damage_to_")
              and (m := _CONTRASTED_KINDS.match(text, h.end))]
    spans += list(causes.spans()) if causes is not None else []
    spans += [m.span() for dim, pattern in _GROUP_RULES if dim in ("source", "target_kind", "objective")
              for m in pattern.finditer(text)]
    spans += [m.span() for m in _EVENT_KINDS.finditer(text)] + [m.span() for m in _KIND_SUBJECT.finditer(text)]
    return tuple(dict.fromkeys([*places, *_stray_kinds(text, spans),
                                *(w for w in unknown_words(text) if w not in resolved)]))


# One attacker's figure on one enemy ("top dmg from anybody onto a single enemy", "most kills on the same
# victim"): the plan ranks pairs of a player and a target (plans.figures)
ONE_ENEMY = re.compile(r"\b(?:to|on|against|into|at|vs|heal(?:ed|s|ing)?|hit(?:s|ting)?|damag(?:ed|es|ing)|kill(?:ed|s|ing)?|"
                       r"stun(?:ned|s)?|cc'?d|focus(?:ed|es)?)\s+(?:a\s+single|one\s+single|one|the\s+same|a\s+particular|"
                       r"one\s+particular|a\s+specific|one\s+specific|any\s+one|any\s+single)\s+"
                       r"(?:enemy|enemies|opponent|foe|target|player|victim|god|person|guy)\b"
                       # the one hit, however it is reached: "got the same victim", "one single target"
                       r"|\b(?:the\s+same|a\s+single|one\s+single|a\s+particular|one\s+particular|one\s+specific)\s+"
                       r"(?:victim|target)\b")


# Kind words an event reader takes: "which towers fell", "who killed the titan", "when was the fire giant taken".
_EVENT_KINDS = re.compile(r"\b(?:when|which|what|who|list|show|first|last|timeline)\b.*?\b(towers?|phoenix(?:es)?|titans?|"
                          r"gold\s+fur(?:y|ies)|fire\s+giants?|structures?|objectives?)\b|\b(towers?|phoenix(?:es)?|titans?|"
                          r"gold\s+fur(?:y|ies)|fire\s+giants?|structures?)\s+(?:fell|destroyed|taken|killed|secured|died)\b")
