"""Find the match's names in a question: players, gods, abilities, items, NPCs, teams and roles.

Names are found as people type them: case-, accent- and punctuation-insensitively ("leon" finds León0722,
"zoe rush" finds zoe.rush, "umit" finds ÜmitTR), by unambiguous prefix ("mateo" finds MateoUwU), by a
fragment, which is one word of the name or a run of its letters ("tuna" finds Big Tuna 7, "sleepy" finds
zzzSleepy), and, for longer words, by spelling similarity ("psychotic8bal", a dropped letter). A fragment
or prefix that fits several players is reported as ambiguous, so the planner can ask which one is meant.
Every match that is not exact is reported so the plan can state it as an assumption.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

from combat_analysis.catalog.kinds import entity_kind
from combat_analysis.planner.read.words import ROLE_WORDS, known_words, stems
from combat_analysis.planner.vocabulary import Vocabulary

# Words a question uses for its own sake; a prefix or fuzzy match on them would invent a name.
COMMON_WORDS = frozenset("""
a about after all an and any are as at be before best between biggest both build built by can compare
damage deal dealt did do does done each early end enemy ever every first for from game get gets got had has
have he healing heal healed her him his how in is it its item items kill kills killed last late least less
match me mid minute minutes more most much of on one only or order other over per player players show side so
team teams than that the their them they this those time to top total two vs was were what when where which
who whose why with won worst you your give tell list many highest lowest average each every chaos support
carry solo jungle jungler middle role roles gods god ability abilities gold experience assist assists death
deaths crit crits minion minions tower towers phoenix titan fury giant fire break down over time timeline
""".split())


_TOKEN = re.compile(r"\S+")


def common(word: str) -> bool:
    """An ordinary word of questions (or of the catalog): never read loosely as a name."""
    key = fold(word).strip("'’?!.,:;\"()")
    key = re.sub(r"['’]s$", "", key)
    return key in COMMON_WORDS or key in known_words() or key in ("basic", "attack", "attacks", "auto", "autos")
_EDGE_PUNCT = "?!,.:;\"()[]{}<>“”«»"
_POSSESSIVE = re.compile(r"['’]s\b|['’](?=\s|$)", re.IGNORECASE)


# Letters that carry no accent mark to remove, as people type them on a plain keyboard ("moose" for Møøse).
_PLAIN_LETTERS = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ł": "l",
                                "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i"})


def fold(text: str) -> str:
    """Lower-case, accents removed: 'ÁngelDeth' -> 'angeldeth', 'MøøseKnuckle' -> 'mooseknuckle'."""
    if text.isascii():  # nothing to decompose: the catalog's thousands of phrases and most questions
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN_LETTERS))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@lru_cache(maxsize=4096)
def squash(text: str) -> str:
    """The comparison key of a name: folded, possessives dropped, letters and digits only."""
    return re.sub(r"[\W_]+", "", _POSSESSIVE.sub("", fold(text)))


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int
    key: str  # squash(text)


@dataclass(frozen=True)
class Mention:
    kind: str  # player, god, ability, item, npc; "ambiguous" when a fragment fits several players
    name: str  # the canonical name in the data (for "ambiguous": the words in the question)
    said: str  # the words in the question
    how: str  # exact, prefix, fragment or fuzzy
    start: int
    end: int
    candidates: tuple[str, ...] = ()  # for "ambiguous": every player the words could mean


def tokenize(question: str) -> list[Token]:
    tokens = []
    for m in _TOKEN.finditer(question):
        raw, start = m.group(), m.start()
        stripped = raw.strip(_EDGE_PUNCT)
        if not stripped:
            continue
        start += raw.index(stripped)
        tokens.append(Token(stripped, start, start + len(stripped), squash(stripped)))
    return tokens


@dataclass(frozen=True)
class _Name:
    kind: str
    name: str
    key: str
    parts: tuple[str, ...] = ()  # the name's words: "Big Tuna 7" -> big, tuna, 7; "zzzSleepy" -> zzz, sleepy


_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_]+")


def name_parts(name: str) -> tuple[str, ...]:
    """The words of a name, split at spaces, punctuation, digits and camel case, folded."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name.translate(_PLAIN_LETTERS))
                    if not unicodedata.combining(c))
    return tuple(p.casefold() for p in _PART.findall(plain))


@lru_cache(maxsize=64)
def _names(vocab: Vocabulary) -> tuple[_Name, ...]:
    out = []
    for kind, names in (("player", vocab.player_names), ("ability", vocab.abilities), ("item", vocab.items),
                        ("god", vocab.gods), ("npc", vocab.npcs)):
        # a player's words find it by a fragment, an item effect's by its last word ("the cudgel")
        out += [_Name(kind, n, squash(n) or fold(n), name_parts(n) if kind == "player" or (
            kind == "ability" and n in vocab.shared_abilities) else ()) for n in names if n]
        # a possessive typed without its apostrophe keeps its "s": "titans bane" for Titan's Bane
        out += [_Name(kind, n, bare, ()) for n in names if kind != "player" and n and _POSSESSIVE.search(n)
                and (bare := squash(re.sub(r"['’]", "", n))) != squash(n)]
    return tuple(out)


# Damage said, for a non-player's plural (narrower than `_DAMAGING`: "did" and "do" are in most questions)
_DEALING_DAMAGE = re.compile(r"\b(?:damage|dmg|deal|deals|dealt|dealing|hit|hits|hurt|output|put\s+out)\b", re.IGNORECASE)


def _exact(key: str, names: tuple[_Name, ...], question: str) -> list[_Name]:
    found = [n for n in names if n.key == key]
    if not found and key.endswith("s"):
        # items are counted in the plural: "healing potions", "two spectral armors"
        found = [n for n in names if n.kind == "item" and n.key in (key[:-1], key[:-2])]
    if not found and _DEALING_DAMAGE.search(question):
        # so are minions and camps dealing damage ("what did the archers deal", "harpies' dmg"); as the takers of
        # objectives a minion's plural is its kind and its fire variant ("did archers finish a tower", takers.py),
        # and structures and bosses in the plural are objectives of a kind ("order towers", "the gold furies")
        found = [n for n in names if n.kind == "npc" and n.key in singulars(key)
                 and entity_kind(n.name, ()) in ("minion", "jungle")]
    return found


def singulars(key: str) -> tuple[str, ...]:
    """The singulars an English plural of a name may stand for.

    >>> singulars("swordsmen"), singulars("harpies"), singulars("brutes")
    (('swordsman',), ('harpy', 'harpie'), ('brute', 'brut'))
    """
    if key.endswith("men"):
        return (key[:-3] + "man",)
    if key.endswith("ies"):
        return key[:-3] + "y", key[:-1]
    return (key[:-1], key[:-2]) if key.endswith("s") else ()


def name_or_plural(name: str) -> str:
    """A pattern for a non-player's name as typed (lower case, folded), one or several of them.

    >>> [bool(re.fullmatch(name_or_plural("Roaming Harpy"), w)) for w in ("roaming harpy", "roaming harpies")]
    [True, True]
    >>> [bool(re.fullmatch(name_or_plural("Swordsman"), w)) for w in ("swordsman", "swordsmen", "swordsmans")]
    [True, True, True]
    """
    said = re.escape(fold(name))
    if said.endswith("man"):
        return said[:-3] + "m(?:an|en|ans)"
    if said.endswith("y"):
        return said[:-1] + "(?:y|ies|ys)"
    return said + "(?:s|es)?"


_BOUGHT = re.compile(r"\b(?:buy|buys|bought|buying|purchas\w*|build|builds|built|building|get|gets|got|grab\w*|"
                     r"rush\w*|complet\w*|pick(?:s|ed|ing)?\s+up|cop(?:s|ped)?)\b", re.IGNORECASE)


def _item_head(key: str, names: tuple[_Name, ...], question: str) -> list[_Name]:
    """An item by the last word of its name ("potions" for Healing Potion) or the start of it ("deathbr") in a
    question about buying, when one item alone fits."""
    if not _BOUGHT.search(question):
        return _effect_head(key, names, question)
    found = [n for n in names if n.kind == "item" and (parts := name_parts(n.name))
             and parts[-1] in (key, key[:-1], key[:-2]) and len(parts) > 1]
    if not found and len(key) >= 4:
        # the start of an item's name: "deathbr", "gauntlet" for Gauntlet of Thebes
        found = [n for n in names if n.kind == "item" and n.key.startswith(key)]
    return found if len({n.name for n in found}) == 1 else []


_DAMAGING = re.compile(r"\b(?:damage|dmg|deal|deals|dealt|dealing|hit|hits|procs?|proc'?d|did|do|does|done)\b",
                       re.IGNORECASE)


def _effect_head(key: str, names: tuple[_Name, ...], question: str) -> list[_Name]:
    """An item's effect (an ability used by players of several gods) by the last word of its name in a question about
    damage ("what did the cudgel deal", "cudgel procs"), when one alone ends with it."""
    if not _DAMAGING.search(question):
        return []
    found = [n for n in names if n.kind == "ability" and len(n.parts) > 1 and n.parts[-1] in (key, key[:-1])]
    return found if len({n.name for n in found}) == 1 else []


def _fragment(key: str, names: tuple[_Name, ...]) -> list[_Name]:
    """Players the words are a fragment of: one of the name's words (3 letters or more), or a run of
    4 letters or more inside the name. Several players may fit; the caller decides."""
    players = [n for n in names if n.kind == "player"]
    found = [n for n in players if len(key) >= 3 and key in n.parts]
    if not found and len(key) >= 4:
        found = [n for n in players if key in n.key]
    if not found and len(key) >= 4 and key.endswith("s") and not _known_form(key):
        # a possessive typed without its apostrophe: "jins" for ジン_jin's, "lunas" for LunaSol's; but another form
        # of a word the planner knows is that word ("feeds" beside mid_or_feed), unless a name holds it whole
        stem = key[:-1]
        found = [n for n in players if stem in n.parts or (len(stem) >= 4 and stem in n.key)]
    return found


def _known_form(key: str) -> bool:
    """Another form of a word the planner knows ("feeds" for "feed")."""
    return any(form in known_words() for form in stems(key) if len(form) >= 4)


def _fuzzy_part(key: str, names: tuple[_Name, ...]) -> list[_Name]:
    """A misspelled fragment ("impler" for Vlad_the_Impaler): close to one word of one player's name."""
    best, best_score = [], 0.0
    for n in names:
        for part in n.parts:
            # one letter more or fewer: a typo; "lottery" holds "otter" but is another word
            if len(part) < 5 or abs(len(part) - len(key)) > 1:
                continue
            score = difflib.SequenceMatcher(None, key, part).ratio()
            if score > best_score:
                best, best_score = [n], score
            elif score == best_score and n not in best:
                best.append(n)
    return best if best_score >= 0.8 and len({n.name for n in best}) == 1 else []


def _fuzzy(key: str, names: tuple[_Name, ...], single_word: bool) -> list[_Name]:
    best, best_score = [], 0.0
    for n in names:
        if single_word and n.kind not in ("player", "god"):
            continue
        if abs(len(n.key) - len(key)) > 2:
            continue
        matcher = difflib.SequenceMatcher(None, key, n.key)
        if matcher.real_quick_ratio() < 0.8 or matcher.quick_ratio() < 0.8:
            continue
        score = matcher.ratio()
        if score > best_score:
            best, best_score = [n], score
        elif score == best_score:
            best.append(n)
    return best if best_score >= 0.8 and len({n.name for n in best}) == 1 else []


def _fuzzy_beside_own_words(span: list[Token], key: str, names: tuple[_Name, ...]) -> list[_Name]:
    """A misspelt name of several words whose ordinary word is said as the name says it ("chain lightening" for
    Chain Lightning): each ordinary word of the phrase must be the name's own word in its place, so an ordinary
    word is never bent into a name."""
    def beside_own_words(name: _Name) -> bool:
        own = [w for w in (squash(part) for part in name.name.split()) if w]
        return len(own) == len(span) and all(t.key == w for t, w in zip(span, own, strict=True) if common(t.text))

    return [n for n in _fuzzy(key, names, single_word=False) if beside_own_words(n)]


def _loose(how: str, key: str, size: int, names: tuple[_Name, ...]) -> tuple[list[_Name], bool]:
    """The names a loose match finds, and whether they are several players (an ambiguous fragment)."""
    if how == "prefix":
        # three letters are the start of a player's name ("tsu"), never of a god's: too many god names share them
        kinds = ("player", "god") if len(key) >= 4 else ("player",)
        found = [n for n in names if n.kind in kinds and n.key.startswith(key)]
        if len({n.name for n in found}) == 1:
            return found, False
        players = {n.name for n in found if n.kind == "player"}
        return ([n for n in found if n.kind == "player"], True) if len(players) > 1 and len(found) == len(
            players) else ([], False)
    if how == "fragment":
        found = _fragment(key, names)
        return found, len({n.name for n in found}) > 1
    if how == "fuzzy":
        return (_fuzzy(key, names, single_word=size == 1) if not key.isdigit() else []), False
    return (_fuzzy_part(key, names) if size == 1 and not key.isdigit() else []), False


_QUOTED = re.compile(r"(?:^|\s)['\"‘“]([^'\"’”]+)['\"’”](?=\s|$)")
# Words that set one player beside another ("tank vs dr mango", "kai or tank"): a word there is a person.
_BESIDE_A_PLAYER = frozenset("vs vs. versus against and or with h2h".split())


def _nickname(span: list[Token], tokens: list[Token], i: int, names: tuple[_Name, ...]) -> list[_Name]:
    """The player whose quoted nickname ("Nnamdi 'Tank' Eze") the one word is, though it is also an ordinary
    word: read as the player where the question is about a person, said as a possessive ("tank's k/d") or set
    beside another player ("tank vs dr mango"); elsewhere the word keeps its ordinary sense ("who tanked")."""
    if len(span) != 1:
        return []
    word = span[0]
    found = [n for n in names if n.kind == "player"
             and any(squash(q) == word.key for q in _QUOTED.findall(n.name))]
    if len({n.name for n in found}) != 1:
        return []
    near = {t.text.casefold() for t in tokens[max(i - 1, 0):i] + tokens[i + 1:i + 2]}
    possessive = bool(_POSSESSIVE.search(word.text))
    return found if possessive or near & _BESIDE_A_PLAYER else []


def _other_script(part: str) -> bool:
    """A name's word in a script the question's Latin letters cannot spell ("老王", "Иван")."""
    return any(c.isalpha() and not ("a" <= c.casefold() <= "z") and unicodedata.name(c, "").split()[0] != "LATIN"
               for c in part)


def _beside_other_script(m: Mention, tokens: list[Token]) -> tuple[int, ...]:
    """The tokens right beside a player's mention on the sides where the name has a word in another script."""
    words = m.name.split()
    place = next((k for k, w in enumerate(words) if squash(w) and squash(w) in squash(m.said)), None)
    at = next((k for k, t in enumerate(tokens) if t.start == m.start), None)
    end = next((k for k, t in enumerate(tokens) if t.end == m.end), None)
    if place is None or at is None or end is None:
        return ()
    sides = ((at - 1, place > 0 and _other_script(words[place - 1])),
             (end + 1, place < len(words) - 1 and _other_script(words[place + 1])))
    return tuple(k for k, other in sides if other and 0 <= k < len(tokens))


def _with_stand_in(m: Mention, tokens: list[Token], used: list[bool]) -> Mention:
    """A player's name read from its Latin word alone ("wang" of "老王 Wang"), with the word beside it that stands
    where the name has a word in another script ("lao wang": "lao" for "老王"): that word is the name's too, not
    an unread word. Only a word not otherwise read, on the side where the other-script word is."""
    if m.kind != "player":
        return m
    for k in _beside_other_script(m, tokens):
        word = tokens[k]
        if used[k] or common(word.text) or not word.key.isalpha():
            continue
        used[k] = True
        said = f"{m.said} {word.text}" if word.start > m.start else f"{word.text} {m.said}"
        return replace(m, said=said, start=min(m.start, word.start), end=max(m.end, word.end))
    return m


def _hits(how: str, tokens: list[Token], i: int, size: int, names: tuple[_Name, ...],
          question: str) -> tuple[list[_Name], bool]:
    """The names the words tokens[i:i+size] are, read the `how` way, and whether they are several players."""
    span = tokens[i:i + size]
    key = "".join(t.key for t in span)
    if how == "exact":
        return _exact(key, names, question), False
    if _objectives_in_plural(key, names):
        return [], False
    if how == "nickname":
        return _nickname(span, tokens, i, names), False
    if how == "fuzzy" and size > 1 and len(key) >= 8 and (common(span[0].text) or common(span[-1].text)):
        return _fuzzy_beside_own_words(span, key, names), False
    # a phrase that starts or ends with an ordinary word is not a loosely spelled name
    if common(span[0].text) or common(span[-1].text) or len(key) < 3 \
            or (how not in ("fragment", "prefix") and len(key) < 4):
        return [], False
    if how == "item head":
        return _item_head(key, names, question), False
    return _loose(how, key, size, names)


def _objectives_in_plural(key: str, names: tuple[_Name, ...]) -> bool:
    """"gold furys": a boss or a structure in a plural however spelt is the objectives of its kind (as `_exact` reads
    "the gold furies"), never a loosely spelt name."""
    forms = singulars(key)  # once: this is asked of every span each loose pass tries
    return bool(forms) and any(n.kind == "npc" and n.key in forms and entity_kind(n.name, ()) in ("structure", "boss")
                               for n in names)


def find_mentions(question: str, vocab: Vocabulary) -> list[Mention]:
    """Every name of the match the question mentions, longest phrases first, non-overlapping."""
    return list(_mentions(question, vocab))


# The reading asks for the names of the same text again and again (each clause, each rewrite, each check): about
# ten times per question, and the search is a third of planning, so a text's names are found once.
@lru_cache(maxsize=2048)
def _mentions(question: str, vocab: Vocabulary) -> tuple[Mention, ...]:
    names = _names(vocab)
    if not names:
        return ()
    tokens = tokenize(question)
    used = [False] * len(tokens)
    mentions: list[Mention] = []
    longest = min(5, len(tokens))
    # Exact phrases first (longest first), then unambiguous prefixes, fragments, and spelling similarity,
    # so a loose match never swallows a neighbouring word that an exact match would have left alone.
    # A misspelled name of several words ("lil rain" for lil_ra1n) is tried before single-word fragments, so
    # its first word alone does not claim the name and leave the rest to be misread.
    for how, sizes in (("exact", range(longest, 0, -1)), ("fuzzy", range(longest, 1, -1)), ("nickname", (1,)),
                       ("prefix", (1,)), ("fragment", (1,)), ("item head", (1,)), ("fuzzy", (1,)),
                       ("fuzzy part", (1,))):
        for size in sizes:
            for i in range(len(tokens) - size + 1):
                if any(used[i:i + size]):
                    continue
                span = tokens[i:i + size]
                key = "".join(t.key for t in span)
                if not key or not span[0].key or not span[-1].key:
                    continue  # a sign at either end ("gold fury +") is no part of the name: it joins the next one
                hits, ambiguous = _hits(how, tokens, i, size, names, question)
                if not hits:
                    continue
                for i_used in range(i, i + size):
                    used[i_used] = True
                said = question[span[0].start:span[-1].end]
                if ambiguous:
                    candidates = tuple(dict.fromkeys(h.name for h in hits))
                    mentions.append(Mention("ambiguous", said, said, how, span[0].start, span[-1].end, candidates))
                    continue
                label = {"fuzzy part": "fuzzy", "item head": "fragment", "nickname": "fragment"}.get(how, how)
                for hit in hits:
                    mentions.append(Mention(hit.kind, hit.name, said, label, span[0].start, span[-1].end))
    mentions = [_with_stand_in(m, tokens, used) for m in mentions]
    # Names that fold to nothing (only emoji or punctuation) can still be quoted verbatim.
    for n in names:
        if not squash(n.name) and n.name in question:
            at = question.index(n.name)
            mentions.append(Mention(n.kind, n.name, n.name, "exact", at, at + len(n.name)))
    return tuple(sorted(mentions, key=lambda m: m.start))


def mask(question: str, mentions: list[Mention]) -> str:
    """The question with every mentioned name replaced by a neutral word, for keyword rules."""
    out, last = [], 0
    for m in sorted({(m.start, m.end) for m in mentions}):
        if m[0] < last:
            continue
        out.append(question[last:m[0]])
        out.append(" NAME ")
        last = m[1]
    out.append(question[last:])
    return "".join(out)


_TEAM_NUMBER = re.compile(r"\bteam\s*[#]?\s*(1|2|one|two)\b")
# "orders" is the side's possessive typed without its apostrophe ("orders jungler"), as "build orders" is a sequence
_ORDER_CHAOS = re.compile(r"\b(orders?|chaos)(?:\s+(?:side|team))?\b")
# "order" is also an ordinary word: a sequence ("build order", "in order", "what order", "order by", "in the order
# they died", "in order to"). Anywhere else it is the side, as players say it ("did order take more towers", "the
# order jungler", "order vs chaos").
_SEQUENCE_WORDS = (r"build|item|items|purchase|purchases|buy|buying|skill|ability|abilities|level|leveling|levelling|"
                   r"kill|kills|death|deaths|pick|picks|draft|time|chronological|reverse|descending|ascending|"
                   r"alphabetical|numerical|sorted|sort|rank|ranked|what|which|same|right|correct|exact|in|into|this|"
                   r"that|an|any|some|its|his|her|their")
# A word between is of the same kind ("in what order", "the kill order"), never a verb: "kills did order get" names
# the side. A side's people after it ("which order player", "order jungler") make it the side as well.
_ORDER_WORD = re.compile(
    rf"\b(?:{_SEQUENCE_WORDS})\s+(?:(?:the|{_SEQUENCE_WORDS})\s+)?orders?\b"
    r"(?!\s+(?:side|team|players?|gods?|guys|jungler|jg|jungle|mid|midlaner|adc|carry|support|supp|solo|solo\s+laner)\b)"
    # a side doing something after it: "the first time order died", "the last time order got a kill"
    r"(?!\s+(?:died|got|took|killed|assisted|lost|won|destroyed|secured|scored)\b)"
    r"|\borders?\s+(?:of|by|in\s+which|that\s+(?:they|he|she|it)|they|he|she|it|things|events|to)\b")
# the side that won (lost), also said as its players: "which players won", "the people who lost"
_WINNERS = re.compile(r"\b(?:the\s+)?(winners|winning\s+(?:team|side)|victors|victorious\s+(?:team|side)|team\s+that\s+won"
                      r"|(?<=players\s)(?:who\s+|that\s+)?won|(?<=people\s)(?:who\s+|that\s+)?won)\b")
_LOSERS = re.compile(r"\b(?:the\s+)?(losers|losing\s+(?:team|side)|defeated\s+(?:team|side)|team\s+that\s+lost"
                     r"|(?<=players\s)(?:who\s+|that\s+)?lost|(?<=people\s)(?:who\s+|that\s+)?lost)\b")


@dataclass(frozen=True)
class TeamMention:
    team: int | None  # None when "the winners" and the match has no winner
    said: str
    start: int


def find_teams(text: str, winner_team: int | None) -> list[TeamMention]:
    low = fold(text)
    found: list[TeamMention] = []
    for m in _TEAM_NUMBER.finditer(low):
        found.append(TeamMention({"1": 1, "one": 1, "2": 2, "two": 2}[m.group(1)], m.group(0), m.start()))
    sequences = [m.span() for m in _ORDER_WORD.finditer(low)]
    for m in _ORDER_CHAOS.finditer(low):
        side = 2 if m.group(1) == "chaos" else 1
        if side == 1 and any(start <= m.start() < end for start, end in sequences):
            continue  # "build order", "in order", "order by": a sequence, not the side
        found.append(TeamMention(side, m.group(0), m.start()))
    for m in _WINNERS.finditer(low):
        found.append(TeamMention(winner_team, m.group(0), m.start()))
    for m in _LOSERS.finditer(low):
        found.append(TeamMention(None if winner_team is None else 3 - winner_team, m.group(0), m.start()))
    # "team 1 and 2" names two teams
    for m in re.finditer(r"\bteams?\s*(1|one)\s*(?:and|&|vs\.?|versus|,)\s*(?:team\s*)?(2|two)\b", low):
        found.append(TeamMention(2, m.group(0), m.start() + 1))
    seen, unique = set(), []
    for t in sorted(found, key=lambda t: t.start):
        if t.team not in seen:
            seen.add(t.team)
            unique.append(t)
    return unique


@dataclass(frozen=True)
class RoleMention:
    role: str
    said: str
    start: int


# "solo v solo kills": after "v" the word is the role set against the one before it, and the figure is the kills
SOLO_SET_AGAINST = re.compile(r"(?:\bv|\bvs|versus)\.?\s+(?P<solo>solo)(?=\s+kill)", re.IGNORECASE)


def find_roles(text: str, roles: tuple[str, ...]) -> list[RoleMention]:
    low = fold(text)
    found = []
    for m in re.finditer(r"\b(solo\s*laners?|mid\s*laners?|top\s*laners?|[a-z]+)\b", low):
        word = re.sub(r"\s+", "", m.group(1))
        # the plural and possessive forms of a role word too: "supps", "carries", "junglers'"
        # a short role word's plural too, which `stems` leaves whole: "jgs", "jgs'"
        forms = (word, *stems(word), re.sub(r"(?:'s|s'|s)$", "", word))
        role = next((ROLE_WORDS[f] for f in forms if f in ROLE_WORDS), None)
        word = next((f for f in forms if f in ROLE_WORDS), word)
        if role is None or (roles and role not in roles):
            continue
        if word == "top" and not re.match(r"\s*(lane|laner)", low[m.end():]):
            continue  # "top" is a superlative far more often than a lane
        if word == "solo" and re.match(r"\s*kill", low[m.end():]) and \
                m.start() not in {s.start("solo") for s in SOLO_SET_AGAINST.finditer(low)}:
            continue  # "solo kills" are the kills nobody assisted (the figure), not the solo's
        found.append(RoleMention(role, m.group(0), m.start()))
    return found
