"""The cause of a death: who or what dealt the killing blow.

"Who got killed by the Fire Giant", "did anyone die to a tower", "deaths to minions, jungle camps or the fire giant",
"deaths not caused by enemy players", "who died to the titan": a death verb, a preposition of cause and a list of
causes, each a kind (enemy players, towers, minions, jungle camps, bosses, non-players) or a non-player of this
match named loosely ("the titan" is every Titan, "the fire giant" the Fire Giant). `read_causes` finds them;
`cause_filter` turns them into the one filter on a death's killer that the plans put on deaths and death lists.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from combat_analysis.catalog import WORD_CLASSES
from combat_analysis.catalog.kinds import entity_kind
from combat_analysis.contracts.plan import Filter
from combat_analysis.planner.read.names import fold
from combat_analysis.planner.vocabulary import Vocabulary

# Being beaten, said in the passive with its cause ("got stomped by minions"): a death; only before "by", since
# the same words say other things elsewhere ("farmed by" a player's kills, "farmed gold").
_BEATEN = "|".join(r"\s+".join(map(re.escape, words.split())) for words in WORD_CLASSES["beaten"])
# A death and the preposition of its cause: "killed by", "died to", "deaths from", "deaths not caused by",
# "slain at the hands of", "that were not dealt by"; a contraction typed without its apostrophe ("werent") too.
_HEAD = re.compile(
    rf"\b(?P<verb>(?:{_BEATEN})(?=\s+by\b)|"
    r"killed|slain|executed|murdered|taken\s+out|died|dying|die|dies|deaths?|(?P<slang>threw|thrown|throwing|"
    r"fed|feeding|inted|inting))(?:\s*,\s*(?=(?:not|never|rather|instead|other|except|besides|apart|and\s+not|but\s+not|how\s+many)\b)|\s+)"
    r"(?:(?:the\s+)?(?:most|least|more|less|fewest|often|the\s+most\s+times|\w+\s+times|times|count|total|tally)\s+)?"
    # "how many deaths did order have to npcs": the one whose deaths they are, between the noun and the cause
    r"(?:(?:did|do|does|have|has|had)\s+(?:[\w']+\s+){1,3}?(?:have|get|take|suffer)\s+)?"
    # "among X's deaths, how many weren't by players": the count asked between the deaths and their cause
    r"(?:how\s+many\s+(?:of\s+(?:them|those|these)\s+)?)?"
    r"(?:(?:that|which)\s+)?(?:(?:were|was|did|do|does)(?:\s+|(?=n'?t\s)))?(?P<neg>not\s+|never\s+|n'?t\s+|other\s+than\s+|"
    r"except(?:\s+for)?\s+|besides\s+|apart\s+from\s+|rather\s+than\s+|instead\s+of\s+|and\s+not\s+|but\s+not\s+)?"
    r"(?:(?:even|actually|really|ever|all|just|only)\s+)?"  # "weren't even to players"
    r"(?:(?P<dealt>caused|dealt|inflicted|made|done|landed|come|came|coming)\s+)?(?:(?P<prep>to|from|at\s+the\s+hands\s+of|by"
    # "deaths by god", "deaths by player": a split, not who dealt them; negated ("not by players", "weren't caused
    # by players") or with its verb ("caused by players") it is a cause, never a split
    r"(?(neg)|(?(dealt)|(?!\s+(?:god|player|champion|hero|role|team|side|ability|item|minute|phase|lane|position|"
    r"source|attacker|kind)s?\b)))))?"
    # "deaths other than players", "deaths besides minions": a contrast word needs no preposition after it
    r"(?:\s+|(?<=than\s)|(?<=instead\sof\s)|(?<=except\s)|(?<=besides\s)|(?<=except\sfor\s)|(?<=apart\sfrom\s))")
# "deaths to anything other than players": the negation after the preposition
_NEGATED_AFTER = re.compile(r"^\s*(?:(?:anything|anyone|something|stuff|things?)\s+)?(?:other\s+than|except(?:\s+for)?|besides|"
                            r"apart\s+from|but|rather\s+than|instead\s+of|and\s+not|but\s+not|not)\s+(?:(?:to|from|by)\s+)?")
# A cause said in contrast after the death words, or after causes of its own: "deaths to something rather than to
# players", "died to towers instead of to gods", "deaths, and not to players", "from towers (not players)", "to
# minions, i.e. not to gods": the kind named is left out
_CONTRAST = re.compile(r"(?:\s*\))?(?:\s*,)?(?:\s*\()?\s*(?:\b(?:so|i\.?e\.?|meaning|that\s+is|aka)\s*,?\s*)?\b(?:rather\s+than|instead\s+of|and\s+not|but\s+not|not|other\s+than)\s+"
                       r"(?:(?:to|from|by|at\s+the\s+hands\s+of)\s+)?")
_SEPARATOR = re.compile(r"^\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:or|and|nor)\s+|/|&)\s*")
_ARTICLE = re.compile(r"^(?:(?:the|a|an|any|enemy|enemies'|their|its|his|her|own|opposing|other)\s+)*")
# Whole kinds, as players say them; "None" is every non-player.
_KINDS: list[tuple[str | None, str]] = [
    ("player", r"(?:enemy\s+|other\s+|opposing\s+)?(?:players?|gods?|champions?|heroes|hero|enem(?:y|ies)|opponents?)"),
    ("minion", r"(?:lane\s+)?(?:minions?|creeps?|waves?)"),
    # the bosses live in the jungle too: "jungle bosses" are the bosses, never the camps
    ("boss", r"(?:jungle\s+|big\s+|neutral\s+)?(?:bosses|boss)"),
    ("jungle", r"jungle(?:\s+(?:camps?|monsters?|creeps?|mobs?))?|camps?|monsters?|mobs?"),
    ("structure", r"structures?|buildings?"),
    # every non-player, said generally: "pve", "npcs", "things that aren't a player", "not a player"
    (None, r"non[\s-]?(?:players?|gods?|champions?|heroes)|npcs?|pve|neutrals?|the\s+environment|objectives?"
           r"|(?:(?:any|some)?things?|stuff|anything|something|whatever)\s+(?:that\s+|which\s+)?(?:is|are|was|were|wasn'?t|"
           r"weren'?t|isn'?t|aren'?t)(?:\s+not|(?<=n't)|(?<=nt))\s+(?:an?\s+)?(?:enemy\s+)?(?:players?|gods?|champions?)"
           r"|not\s+(?:an?\s+)?(?:enemy\s+)?(?:players?|gods?)"),
]
_KIND = [(kind, re.compile(rf"^(?:{pattern})\b")) for kind, pattern in _KINDS]
# A non-player named loosely: one to three words, matched against the match's non-player names.
_WORDS = re.compile(r"^[a-z][a-z']*(?:\s+[a-z][a-z']*){0,2}")


@dataclass(frozen=True)
class Causes:
    """Who dealt the killing blows asked about: whole kinds, non-players of this match by name, or both; `negated`
    for "deaths not caused by ..."."""

    kinds: tuple[str, ...]
    names: tuple[str, ...]
    negated: bool
    said: str
    start: int
    end: int
    verb_start: int
    verb_end: int
    victims: bool = False  # "how many people did the towers kill": who died is asked, not only how often
    # where the same causes are said again: examples in brackets ("pve deaths per team (towers, jungle)"), a second
    # phrase ("... who threw more to non players")
    again: tuple[tuple[int, int], ...] = ()
    # non-players of these causes left out by a narrower kind said after them ("to structures but not the titan")
    left_out: tuple[str, ...] = ()

    def spans(self) -> tuple[tuple[int, int], ...]:
        """Where the question says its causes."""
        return ((self.start, self.end), *self.again)


def _forms(word: str) -> set[str]:
    """A word and its singular: "towers" also "tower", "phoenixes" also "phoenix"."""
    forms = {word}
    if word.endswith("es"):
        forms.add(word[:-2])
    if word.endswith("s"):
        forms.add(word[:-1])
    return forms


def _named(words: str, vocab: Vocabulary) -> tuple[str, ...]:
    """The non-players of this match whose names hold every word ("titan": Order Titan and Chaos Titan)."""
    wanted = [_forms(w) for w in words.split()]
    return tuple(sorted(npc for npc in vocab.npcs if all(set(fold(npc).split()) & forms for forms in wanted)))


_SIDE_ALONE = re.compile(r"(?:order|chaos)(?:\s+(?:side|team|players))?")


def _one_cause(text: str, vocab: Vocabulary) -> tuple[str | None, tuple[str, ...], int] | None:
    """(kind, names, length) of the cause at the start of `text`, or None. A kind names every killer of that kind
    (kind None: every non-player); names are the non-players a loose name fits."""
    article = _ARTICLE.match(text)
    at = article.end() if article else 0
    rest = text[at:]
    for kind, pattern in _KIND:
        m = pattern.match(rest)
        if m:
            return kind, (), at + m.end()
    m = _WORDS.match(rest)
    if not m:
        return None
    words = m.group(0).split()
    for size in range(len(words), 0, -1):  # the longest run of words that names someone
        said = " ".join(words[:size])
        if _SIDE_ALONE.fullmatch(said):
            continue  # "did chaos get": a side's players, never the one non-player whose name holds the side word
        names = _named(said, vocab)
        if names:
            return entity_kind(names[0], ()), names, at + len(said)
    return None


Cause = tuple[str | None, tuple[str, ...]]  # a whole kind (None: every non-player) with no names, or names


def _cause_list(text: str, vocab: Vocabulary) -> tuple[list[Cause], int]:
    """The causes listed at the start of `text` ("minions, jungle camps or the fire giant") and where they end."""
    found: list[Cause] = []
    at = 0
    while (one := _one_cause(text[at:], vocab)) is not None:
        found.append((one[0], one[1]))
        at += one[2]
        sep = _SEPARATOR.match(text[at:])
        if not sep or _one_cause(text[at + sep.end():], vocab) is None:
            break
        at += sep.end()
    return found, at


_EVERY_NPC = ("structure", "minion", "jungle", "boss", "unknown")


# "Every death, including those to towers and minions": the causes listed widen the count rather than narrow it.
_DEATH = re.compile(r"\b(?:deaths?|died|die|dies|dying)\b")
_INCLUDING = re.compile(r"(?<!\bnot\s)(?<!\bwithout\s)\b(?:including|incl|counting|as\s+well\s+as|along\s+with|together\s+with)\b"
                        r"[a-z0-9 ,/&'-]*")


# The same said after the causes or of every source: "towers and minions included", "minions counted too", "from any
# source", "everything counted", "all causes"
_CAUSE_WORDS = (r"(?:the|enemy|enemies|and|or|plus|&|/|,|towers?|turrets?|minions?|creeps?|camps?|jungle|monsters?|mobs?|"
                r"bosses|boss|structures?|buildings?|phoenix(?:es)?|titans?|npcs?|non[\s-]?players?|gods?|players?|"
                r"gold\s+fur(?:y|ies)|fire\s+giants?|everything|all|deaths?|to)")
_INCLUDED = re.compile(rf"(?:[,(]\s*|\s+)(?:with\s+)?(?:{_CAUSE_WORDS}\s*)+?\s*\b(?:included|counted(?:\s+too)?|incl)\b"
                       r"|\b(?:from|to|by|of)\s+(?:any|all|every)\s+(?:sources?|causes?|killers?|kinds?)\b"
                       r"|\b(?:any|every|all)\s+(?:sources?|causes?)\b|\beverything\s+(?:counted|included)\b")


def _widened(text: str) -> Causes | None:
    """Deaths with their causes listed after "including" (or before "included"), or of any source: every cause, players
    and non-players alike."""
    death = _DEATH.search(text)
    listed = _INCLUDING.search(text)
    if death is not None and (listed is None or listed.start() < death.start()):
        listed = _INCLUDED.search(text, death.end())
    if death is None or listed is None or listed.start() < death.start():
        return None
    return Causes(_KINDS_OF_KILLERS, (), False, listed.group(0).strip(), listed.start(), listed.end(),
                  listed.start(), listed.start())


def unwidened(text: str) -> str:
    """The text without the causes listed to widen a count of deaths (`_widened`): "deaths including pve" counts every
    death, which is what "deaths" counts; a property said after it ("and how many of those were to towers") narrows
    the plain count, and the widening must not stand beside it."""
    widened = _widened(text.lower())
    return text if widened is None else (text[:widened.start] + " " + text[widened.end:]).strip()


# Deaths named by their cause before the noun, as players say it: "pve deaths", "npc deaths", "environmental deaths",
# optionally followed by the causes meant, in brackets: "pve deaths (towers, minions, jungle)".
_PREFIXED = re.compile(r"\b(?:pve|pve?\s+only|npcs?|non[\s-]?players?|environment(?:al)?|neutral)\s+(?P<verb>deaths?)\b")
# Examples in brackets later in the same clause: "pve deaths (tower, minions, jungle)", "npc deaths per team (towers)"
_BRACKETS = re.compile(r"^[^()?;]*?\((?P<listed>[^)]*)\)")


def _prefixed(text: str, vocab: Vocabulary) -> Causes | None:
    """Deaths named by a non-player word before them (`_PREFIXED`): every non-player. Causes listed in brackets after
    them are examples of it ("pve deaths (tower, minions, jungle)": "jungle" a cause there, never the role); brackets
    that are not a list of non-players are not."""
    m = _PREFIXED.search(text)
    if m is None:
        return None
    again: list[tuple[int, int]] = []
    bracket = _BRACKETS.match(text[m.end():])
    if bracket:
        listed = bracket.group("listed").strip()
        causes, length = _cause_list(listed, vocab)
        if causes and length == len(listed) and all(kind != "player" for kind, _ in causes):
            again.append((m.end() + bracket.start("listed"), m.end() + bracket.end("listed")))
    heads = (_head_causes(h, text, vocab) for h in _HEAD.finditer(text, m.end()))
    again += [(c.start, c.end) for c in heads if c is not None and not c.negated and "player" not in c.kinds]
    return Causes(_EVERY_NPC, (), False, m.group(0), m.start(), m.end(), m.start("verb"), m.end("verb"),
                  again=tuple(again))


# Deaths with a cause left out, said after them: "deaths excluding the ones to towers", "X's deaths not counting
# minions", "how many times did chaos die, leaving out the ones caused by players"
_EXCLUDED = re.compile(
    r"\b(?P<verb>deaths?|died|die|dies|dying)\b[^?;.!]*?(?:\s*[,(]\s*|\s+-\s+|\s+)(?P<leave>(?:but\s+)?(?:excluding|excl|"
    r"(?:not|without)\s+(?:counting|including)|leaving\s+out|leave\s+out|except(?:\s+for)?|minus|ignoring|discounting|barring|"
    r"apart\s+from|aside\s+from))\s+(?:(?:the|any|all|those|these)\s+)?(?:(?:ones?|deaths?)\s+)?"
    r"(?:(?:that|which)\s+(?:were|was)\s+)?(?:(?:caused|dealt|done|made|inflicted)\s+)?(?:(?:to|by|from|at\s+the\s+hands\s+of)\s+)?")


def _kinds_and_names(causes: Sequence[Cause]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The whole kinds named (a kind-less cause, "npcs", stands for every non-player kind) and the names, each once."""
    kinds = (k for kind, names in causes if not names for k in ((kind,) if kind is not None else _EVERY_NPC))
    return tuple(dict.fromkeys(kinds)), tuple(dict.fromkeys(n for _, found in causes for n in found))


def _excluded(text: str, vocab: Vocabulary) -> tuple[Causes, int] | None:
    """Deaths with the causes after a word of leaving out (`_EXCLUDED`) left out (every other killer's), and where
    that word starts."""
    for m in _EXCLUDED.finditer(text):
        causes, length = _cause_list(text[m.end():], vocab)
        if not causes:
            continue
        kinds, names = _kinds_and_names(causes)
        end = m.end() + length
        return Causes(kinds, names, True, text[m.start():end].strip(),
                      m.start(), end, m.start("verb"), m.end("verb")), m.start("leave")
    return None


def read_causes(text: str, vocab: Vocabulary) -> Causes | None:
    """The causes of death the question names (`text` normalized, names masked), or None."""
    widened = _widened(text) or _prefixed(text, vocab)
    if widened is not None:
        return widened
    head = next((found for m in _HEAD.finditer(text) if (found := _head_causes(m, text, vocab)) is not None), None)
    excluded = _excluded(text, vocab)
    # causes named before the leaving out keep it as their narrower part ("died to structures, excluding titans"; "to
    # the camps, minus the gold fury" leaves out nothing of them); causes named after it are what it
    # leaves out ("died, excluding deaths to towers")
    if excluded is not None and (head is None or not head.left_out and head.start >= excluded[1]):
        return excluded[0]
    return head or _credited(text, vocab)


def _head_causes(m: re.Match, text: str, vocab: Vocabulary) -> Causes | None:
    """The causes after one death phrase (`_HEAD`), or None. A slang verb ("threw to", "fed to") is a death only to
    non-players: "fed to the enemy" stays what the figure readers make of it."""
    rest = text[m.end():]
    negated = bool(m.group("neg"))
    other = _NEGATED_AFTER.match(rest)
    if other:
        negated, rest = True, rest[other.end():]
    causes, length = _cause_list(rest, vocab)
    if not causes or m.group("slang") and (negated or m.group("prep") != "to" or any(k == "player" for k, _ in causes)):
        return None
    end = len(text) - len(rest) + length
    bracket, again = _bracketed(text[end:], vocab, negated)
    causes += bracket
    kinds, names = _kinds_and_names(causes)
    if not negated:
        # the contrast may follow the causes' bracket: "to pve (towers, minions) rather than to players"
        closed = end + max((b for _, b in again), default=0)
        contrast = _contrasted(text[closed:], kinds, vocab)
        end = closed + contrast if contrast else end
    narrowed = None if negated else _narrowed(text[end:], kinds, names, vocab)
    left_out: tuple[str, ...] = ()
    if narrowed is not None:
        left_out, end = narrowed[0], end + narrowed[1]
    return Causes(kinds, names, negated, text[m.start():end].strip(),
                  m.start(), end, m.start("verb"), m.end("verb"),
                  again=tuple((end + a, end + b) for a, b in again), left_out=left_out)


def _contrasted(after: str, kinds: Sequence[str], vocab: Vocabulary) -> int:
    """How far a contrast after positive causes runs ("died to towers rather than to players": the players are
    already left out by the causes named), or 0 when none follows or it names a kind the causes keep."""
    m = _CONTRAST.match(after)
    if m is None:
        return 0
    contrasted, length = _cause_list(after[m.end():], vocab)
    # only whole kinds the causes already leave out: a narrower kind or a name ("but not the titan") is `_narrowed`'s
    if not contrasted or any(names or kind in kinds or kind is None and set(kinds) & set(_EVERY_NPC)
                             for kind, names in contrasted):
        return 0
    return m.end() + length


# A narrower kind left out of the causes just listed: "deaths to towers but not to phoenixes", "died to structures
# but not the titan", "deaths to minions excluding the fire ones"
# (a few words may come between, up to a comma: "died to structures the most, excluding titans")
_LEAVING_OUT = re.compile(r"^(?:(?:\s+[a-z']+){1,4}?\s*,\s*|\s*(?:,\s*|\s-\s*|\(\s*)?)(?:but\s+not|(?:but\s+)?not\s+(?:counting|including)|excluding|"
                          r"except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|leaving\s+out|without|minus|"
                          r"ignoring)\s+(?:any\s+|all\s+)?")
_KIND_NOUN = re.compile(r"^\s+(?:variants?|versions?|ones?|types?|kinds?|minions?|creeps?)\b")


def _narrowed(after: str, kinds: Sequence[str], names: Sequence[str], vocab: Vocabulary) -> tuple[tuple[str, ...], int] | None:
    """The non-players of the causes that a narrower kind after them leaves out (none when it names no part of them:
    "towers but not phoenixes" keeps every tower), and how far the words run; None without one, or when it
    would leave out every cause."""
    m = _LEAVING_OUT.match(after)
    if m is None or "player" in kinds:
        return None
    left_out, length = _cause_list(after[m.end():], vocab)
    if not left_out or any(kind == "player" for kind, _ in left_out):
        return None
    noun = _KIND_NOUN.match(after[m.end() + length:])
    length += noun.end() if noun else 0
    kept = [n for n in vocab.npcs if n in names or entity_kind(n, ()) in kinds]
    gone = {n for kind, found in left_out for n in (found or [x for x in vocab.npcs if kind is None
                                                                or entity_kind(x, ()) == kind])}
    if not [n for n in kept if n not in gone]:
        return None
    return tuple(n for n in kept if n in gone), m.end() + length


# Causes said again in brackets right after a list of them: "to minions/camps (npcs)" names the kind the list
# was examples of, so both are kept (their union: every non-player there).
_BRACKET_AFTER = re.compile(r"^\s*\((?P<listed>[^)]*)\)")


_TURNED_AROUND = re.compile(r"(?:so\s+|i\.?e\.?\s*,?\s*)?(?:not|no|never)\b")


def _bracketed(after: str, vocab: Vocabulary, negated: bool) -> tuple[list[Cause], list[tuple[int, int]]]:
    m = _BRACKET_AFTER.match(after)
    if m is None or negated:
        return [], []
    listed = m.group("listed").strip()
    causes, length = _cause_list(listed, vocab)
    if not causes or length != len(listed) or any(kind == "player" for kind, _ in causes):
        return [], []
    if _TURNED_AROUND.match(listed) and any(kind is None for kind, _ in causes):
        # "to the titans (not players)": a bracket that only turns players away from causes that are non-players
        # already is a gloss on them, never more causes ("(npcs)" names every non-player: it widens them); read, so
        # nothing else takes it for a cause of its own
        return [], [(m.start("listed"), m.end("listed"))]
    return causes, [(m.start("listed"), m.end("listed"))]


# the verbs that credit a subject with kills, or with the deaths it dealt ("the deaths those towers caused")
_CREDIT_VERBS = (r"get|got|gotten|score|scored|kill|killed|secure|secured|claim|claimed|take|took|have|had|cause|caused|"
                 r"inflict|inflicted|deal|dealt")
# A non-player as the one credited with the kills: "how many kills did the order towers get", "how many players did
# the minions kill", "kills by jungle camps". These are the deaths it dealt.
_CREDITED = re.compile(
    r"\bhow\s+many\s+(?P<counted>kills|players|gods|people|ppl|peeps|folks|guys|victims|champions|champs|heroes|enemies|deaths|"
    r"times|(?:enemy\s+)?gods)\s+(?:did|do|does|have|has|had)\s+"
    rf"(?P<cause>(?:(?!\b(?:{_CREDIT_VERBS})\b)"
    rf"[a-z0-9'])+(?:\s+(?!(?:{_CREDIT_VERBS})\b)"
    rf"[a-z0-9']+)*)\s+(?P<verb>{_CREDIT_VERBS})\b"
    r"|\bkills\s+(?:made\s+|scored\s+|secured\s+)?(?:by|from|for)\s+(?P<cause2>(?:the\s+)?[a-z][a-z' ]*)"
    # whom it killed: "who did the titan kill", "which players did the fire giant take out", "the gold fury's victims"
    r"|\b(?:who|whom|which\s+(?:players?|gods?|people|ones|enemies|guys))\s+(?:did|do|does|has|had)\s+"
    r"(?P<cause3>(?:(?!\b(?:kill|killed|kills|get|got|take|took|murder|murdered|eat|ate|one\s*shot|delete|deleted)\b)[a-z0-9'])+"
    r"(?:\s+(?!(?:kill|killed|kills|get|got|take|took|murder|murdered|eat|ate|one\s*shot|delete|deleted)\b)[a-z0-9']+)*)"
    r"\s+(?:kill|killed|get|got|take\s+out|took\s+out|murder|murdered|eat|ate|one\s*shot|delete|deleted)\b"
    r"|\bvictims?\s+of\s+(?P<cause4>(?:the\s+)?[a-z][a-z' ]*)|\b(?P<cause5>(?:the\s+)?[a-z][a-z ]*?)'s\s+victims?\b"
    # a yes or no about any kill at all: "did the minions kill anyone", "have towers got any kills"
    r"|\b(?:did|do|does|have|has|had)\s+(?P<cause6>(?:(?!\b(?:kill|killed|get|got|take|took|ever)\b)[a-z0-9'])+"
    r"(?:\s+(?!(?:kill|killed|get|got|take|took|ever)\b)[a-z0-9']+)*)\s+(?:ever\s+)?"
    r"(?:kill|killed|get|got|take\s+out|took\s+out)\s+(?:any(?:one|body|\s+kills?|\s+players?|\s+gods?|(?=\s*(?:[?.!,;]|$)))|"
    r"some(?:one|body)|people|players|gods)\b"  # a bare "any" ends its clause: "did minions get any objectives" is no kill
    # whom it killed, said with the killer first: "minions killed whom", "the towers took out which players"
    r"|^\s*(?:(?:and|so|ok)\s+)?(?P<cause7>(?:the\s+)?[a-z][a-z' ]*?)\s+(?:killed|got|took\s+out|murdered|deleted|ate)\s+"
    r"(?:whom|who|which\s+(?:players?|gods?|people|ones|enemies|guys)|what\s+(?:players?|gods?))\b"
    # which of a kind killed anyone: "which minions killed someone", "what camps actually took out players"
    r"|\b(?:which|what)\s+(?P<cause8>[a-z][a-z' ]*?)\s+(?:(?:actually|ever|even|really|have|has|had|did)\s+)*"
    r"(?:killed|kill|got|took\s+out|take\s+out|murdered|deleted|ate|executed|slew)\s+(?:any(?:one|body)|some(?:one|body)|"
    r"people|ppl|players|gods|enem(?:y|ies)|(?:a|any)\s+(?:player|god))\b")


_CAUSE_GROUPS = tuple(f"cause{n}" for n in ("", *range(2, 9)))


def _credited(text: str, vocab: Vocabulary) -> Causes | None:
    """A non-player credited with kills (`_CREDITED`): its kills are the deaths it dealt. Players are not causes here:
    "kills by Brisk" or "kills by the enemy gods" are ordinary kills."""
    for m in _CREDITED.finditer(text):
        group = next(g for g in _CAUSE_GROUPS if m.group(g))
        said = m.group(group)
        causes, length = _cause_list(said, vocab)
        if not causes or any(kind == "player" for kind, _ in causes):
            continue
        if group in ("cause", "cause3", "cause5", "cause6", "cause7", "cause8") and said[length:].strip():
            continue  # the whole subject must be the cause: "how many kills did team 1 get" is no cause
        kinds, names = _kinds_and_names(causes)
        end = m.start(group) + length
        return Causes(kinds, names, False, text[m.start():end].strip(),
                      m.start(), max(end, m.end()), m.start(group), m.start(group),
                      victims=group in ("cause3", "cause4", "cause5", "cause7", "cause8")
                      or bool(m.group("counted")) and m.group("counted") not in ("kills", "deaths", "times"))
    return None


_KINDS_OF_KILLERS = ("player", "structure", "minion", "jungle", "boss", "unknown")


def cause_filter(causes: Causes, vocab: Vocabulary) -> Filter:
    """One filter on the killer: by kind when only whole kinds are named, else by name (a kind then stands for every
    name of that kind in this match, players included). "Not caused by" keeps every other killer, so the filter
    says what it keeps."""
    if not causes.names:
        kinds = [k for k in _KINDS_OF_KILLERS if (k in causes.kinds) != causes.negated]
        return Filter(dimension="source_kind", op="=" if len(kinds) == 1 else "in", values=tuple(kinds))
    every = [*vocab.player_names, *vocab.npcs]
    named = {*causes.names, *(n for n in every if entity_kind(n, vocab.player_names) in causes.kinds)}
    names = tuple(n for n in every if n in named)
    if causes.negated:  # "deaths other than to towers": every killer but these
        return Filter(dimension="source", op="!=", values=names)
    return Filter(dimension="source", op="=" if len(names) == 1 else "in", values=names)


def cause_filters(causes: Causes, vocab: Vocabulary) -> list[Filter]:
    """`cause_filter`, and the killers a narrower kind left out of it ("died to structures but not the titan")."""
    kept = cause_filter(causes, vocab)
    return [kept, Filter(dimension="source", op="!=", values=causes.left_out)] if causes.left_out else [kept]


# What is left of a count by cause: "... and how many to everything else", "the rest", "other stuff"
REST = re.compile(r"\b(?:to|from|by)\s+(?:all\s+)?(?:the\s+)?(?:other\s+(?:stuff|things|sources|causes|killers)|"
                  r"everything\s+else|anything\s+else|something\s+else|the\s+rest|rest|else|whatever\s+else)\b")


def complement(filters: tuple[Filter, ...]) -> tuple[Filter, ...] | None:
    """The filters with their one cause of death turned around ("to players" -> to everything else), or None when
    they hold no cause. A cause by kind keeps the other kinds; a cause by name keeps every other killer."""
    causes = [f for f in filters if f.dimension in ("source_kind", "source")]
    if len(causes) != 1:
        return None
    cause = causes[0]
    if cause.dimension == "source_kind" and cause.op != "!=":
        kinds = tuple(k for k in _KINDS_OF_KILLERS if k not in cause.values)
        turned = Filter(dimension="source_kind", op="=" if len(kinds) == 1 else "in", values=kinds)
    elif cause.dimension == "source" and cause.op != "!=":
        turned = Filter(dimension="source", op="!=", values=cause.values)
    else:
        return None
    return tuple(turned if f is cause else f for f in filters)
