"""Typos in the closed classes of a question's words: ranking words ("bigest", "higest"), figure words
("dmage", "asists") and grouping nouns ("abilty", "itmes", "rloe"), each read as the one word of the class it is a
single edit from.

Only a word the planner does not know is corrected, and only towards a word of these classes: names and open
text are never touched (names are masked before this runs), and a word a single edit from two class words is
left alone rather than guessed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache, partial

from combat_analysis.catalog import METRICS
from combat_analysis.planner.read.words import CHAT_WORDS, RECEIVING_VERBS, known_words, stems

# The words that rank: a question's superlatives and comparatives
RANKING = frozenset("""most least highest lowest fewest biggest largest smallest greatest hardest strongest
heaviest best worst more fewer higher lower bigger larger smaller""".split())
_SHORTEST = 5  # a shorter word has too many neighbours one edit away ("mots", "kils") to be read safely
# The nouns a question groups by ("which ability", "per role", "by minute"): a typo of one would leave the grouping
# unread and rank players instead, so they are corrected like figure words; a short one ("rloe", "godd", "itme")
# only by a letter dropped, doubled or swapped, and one of three letters ("gdo", "rol") only where a grouping noun
# stands (after "which", "what", "each", "per", "by", "every")
GROUPING = frozenset("""ability abilities item items role roles god gods player players objective objectives minute
minutes""".split())
_GROUPING_SLOT = re.compile(r"\b(?:which|what|each|per|by|every|whose)\s+$")


@lru_cache(maxsize=1)
def closed_words() -> frozenset[str]:
    """Ranking words, verbs of receiving and every word of the catalog's figure names (its strong synonyms and
    labels)."""
    words = set(RANKING) | GROUPING | {w for w in RECEIVING_VERBS if len(w) >= _SHORTEST}
    for m in METRICS.values():
        for phrase in (m.label, *m.synonyms):
            words.update(w for w in re.findall(r"[a-z]+", phrase.lower()) if len(w) >= _SHORTEST - 1)
    return frozenset(words)


# The kinds of one edit, likeliest first: a letter dropped while typing ("bigest"), two neighbours swapped
# ("wrost"), one letter hit for another, one letter too many
_DROPPED, _SWAPPED, _CHANGED, _ADDED = range(4)


def edit_kind(typed: str, word: str) -> int | None:
    """How `typed` is `word` after one slip (`_DROPPED`...), or None when it is not one edit away."""
    if typed == word or abs(len(typed) - len(word)) > 1:
        return None
    if len(typed) == len(word):
        diff = [i for i, (x, y) in enumerate(zip(typed, word, strict=True)) if x != y]
        if len(diff) == 1:
            return _CHANGED
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and typed[diff[0]] == word[diff[1]] \
            and typed[diff[1]] == word[diff[0]]
        return _SWAPPED if swapped else None
    short, long_ = (typed, word) if len(typed) < len(word) else (word, typed)
    if any(long_[:i] + long_[i + 1:] == short for i in range(len(long_))):
        return _DROPPED if short is typed else _ADDED
    return None


def _known(word: str) -> bool:
    """A known word, or a known word's form; a base of three letters is too short to vouch ("bigest" is no form
    of "big")."""
    return word in known_words() or any(f in known_words() for f in stems(word)[1:] if len(f) >= 4)


def correction(word: str, grouping_slot: bool = False) -> str | None:
    """The one closed-class word an unknown `word` is a typo of, else None; `grouping_slot`: the word stands where a
    grouping noun would (after "which", "per" ...), so one of three letters may be read too."""
    shortest = 3 if grouping_slot else 4
    if len(word) < shortest or not word.isalpha() or _known(word):
        return None
    if len(word) < _SHORTEST:
        near = sorted((kind, w) for w in GROUPING if w[0] == word[0]
                      and (kind := edit_kind(word, w)) is not None and kind != _CHANGED)
    else:
        near = sorted((kind, w) for w in closed_words() if w[0] == word[0]
                      and (kind := edit_kind(word, w)) is not None)
    likeliest = [w for kind, w in near if kind == near[0][0]] if near else []
    return likeliest[0] if len(likeliest) == 1 else None


# The question words, which every cue of a question's shape is written with ("what god", "which minute", "when did")
QUESTION_WORDS = frozenset({"what", "which", "when", "where", "who", "whose", "how"})
# Chat spellings of question words that are no single slip from them
_CHAT_SPELLINGS = {"wut": "what", "wot": "what", "wat": "what", "wht": "what", "hw": "how"}


# What "how" asks of: a degree ("how many", "how long") or, after an auxiliary, a manner ("how did X die")
_DEGREE = frozenset("many much long often far fast quick quickly soon big bad good well close come".split())
_AUXILIARY = frozenset("did does do was is were are has have had".split())


def question_word(word: str, rest: str = "") -> str | None:
    """The question word `word` is typed for ("wat", "wich", "wen"), else None: a chat spelling, or an unknown word
    one slip from exactly one question word with the same first letter. `rest` is what follows the word.

    A slip one swap from both "how" and "who" ("hwo") is read by what follows: "how" before a degree word, and
    before an auxiliary in a question that ranks nothing ("how did X die"); "who" otherwise ("who did X focus the
    most", "who killed X").

    >>> question_word("wich"), question_word("hwo", " many kills"), question_word("hwo", " did x hit the most")
    ('which', 'how', 'who')
    """
    if word in _CHAT_SPELLINGS:
        return _CHAT_SPELLINGS[word]
    if len(word) < 3 or word in QUESTION_WORDS or _known(word):
        return None
    near = [w for w in QUESTION_WORDS if w[0] == word[0] and edit_kind(word, w) is not None]
    swapped = {w for w in QUESTION_WORDS if edit_kind(word, w) == _SWAPPED}  # a swap may move the first letter
    if swapped == {"how", "who"}:
        following = re.findall(r"[a-z]+", rest)
        after = following[0] if following else ""
        ranks = any(w in RANKING for w in following)
        return "how" if after in _DEGREE or (after in _AUXILIARY and not ranks) else "who"
    return near[0] if len(near) == 1 else None


# The little words every question is built with: a typo of one ("teh", "adn", "wiht") is two neighbours swapped,
# the commonest slip of fast typing; only that slip is read, since a short word has many neighbours otherwise
FUNCTION_WORDS = frozenset("""the and with from that this have has had they their them than then were was are
for did does many much most who what""".split())


def function_word(word: str) -> str | None:
    """The little word `word` is typed for with two neighbouring letters swapped ("teh", "thier"), else None."""
    if len(word) < 3 or word in FUNCTION_WORDS or _known(word):
        return None
    near = [w for w in FUNCTION_WORDS if edit_kind(word, w) == _SWAPPED]
    return near[0] if len(near) == 1 else None


# A question word with its auxiliary run on ("how'd", "what're", "who've", "when's"), or with the apostrophe left out
# ("howd", "whatre", "whove"): the question word and the auxiliary written out, so neither is read as a name. "Who's",
# "what's", "how's" and "where's" are known words as they are; "who're" typed without its apostrophe is a word of its
# own and stays.
_AUXILIARIES = {"d": "did", "re": "are", "ve": "have", "ll": "will", "s": "is"}
_RUN_ON = re.compile(r"\b(how|what|who|where|when|why|which)(?:'(d|re|ve|ll|s)|(d|re|ve|ll|s))(?![\w'])")


def _auxiliary(m: re.Match) -> str:
    word, said = m.group(1), m.group(2) or m.group(3)
    if word in ("who", "what", "how", "where") and said == "s" or (m.group(3) and word == "who" and said == "re"):
        return m.group(0)  # a word the planner knows as it is ("whats", "who's") or another word ("whore")
    return f"{word} {'had' if word == 'who' and said == 'd' else _AUXILIARIES[said]}"


def question_contractions(text: str) -> str:
    """`text` (lower case) with its question words' contractions written out (`_RUN_ON`)."""
    return _RUN_ON.sub(_auxiliary, text)


def _question_words(text: str) -> str:
    text = question_contractions(text)
    return re.sub(r"(?<!')\b[a-z]+\b(?!')",
                  lambda m: question_word(m.group(0), m.string[m.end():]) or function_word(m.group(0)) or m.group(0),
                  text)


def corrected(text: str) -> tuple[str, tuple[str, ...]]:
    """`text` (normalized, names masked) with its closed-class typos corrected, and a note for each; question words
    and little words ("teh") are spelled out without a note, as a spelling changes no reading."""
    notes: list[str] = []
    text = _question_words(text)

    def fix(m: re.Match) -> str:
        word = m.group(0)
        right = past_tense(word) or plural_of_y(word) \
            or correction(word, bool(_GROUPING_SLOT.search(m.string, 0, m.start())))
        if right is None:
            return word
        notes.append(f"'{word}' read as '{right}'")
        return right
    # a contraction is one word ("weren't" is no typo of "were" plus a "t")
    return re.sub(r"[a-z]+(?:'[a-z]+)*", fix, text), tuple(dict.fromkeys(notes))


def plural_of_y(word: str) -> str | None:
    """The plural a "-ys" spelling stands for when its noun ends in a consonant and "y" ("furys" furies, "enemys"
    enemies): two slips from the word, so no single-edit correction finds it; only towards a figure word (the
    closed classes), since "-ys" is also a possessive typed without its apostrophe ("the carrys gold"). The typed
    form may pass as known (its stem is), so only the spelling decides."""
    if len(word) < 5 or not re.fullmatch(r"[a-z]*[^aeiou]ys", word) or word in known_words():
        return None
    plural = word[:-2] + "ies"
    return plural if plural in closed_words() else None


def past_tense(word: str) -> str | None:
    """The past tense a chat spelling with "'d" stands for ("int'd" inted, "kill'd" killed), when that form is a
    word the planner knows and the typed one is not."""
    if not word.endswith("'d") or _known(word):
        return None
    base = word[:-2]
    return next((f for f in (base + "ed", base + "d") if f in closed_words() or _known(f)), None)


# A chat word stands alone: "every1" but not "every10", "n" but not "n/a"; "w/" and "&" may touch their words
# ("w/autos", "kills&deaths")
_CHAT_WORD = re.compile(r"&|(?<![\w'/&])(?:" + "|".join(
    # "w/l" is a record (wins and losses), no "with": a slash before one lone letter is no chat word
    re.escape(w) + (r"(?![b-z](?![\w'/&])|[b-z]/)" if w.endswith("/") else r"(?![\w'/&])")
    for w in sorted(CHAT_WORDS, key=len, reverse=True) if w != "&") + ")", re.IGNORECASE)


def spelled_out(text: str, keep: Sequence[tuple[int, int]] = ()) -> str:
    """`text` with the chat spellings of little words written out ("every1" everyone, "n" and, "w/" with), outside
    the spans in `keep` (the names found in it: a player called "n" or "u&me" stays as typed)."""
    def word(m: re.Match) -> str:
        if any(start < m.end() and m.start() < end for start, end in keep):
            return m.group(0)
        out = CHAT_WORDS[m.group(0).lower()]
        return f" {out} " if m.group(0)[-1] in "/&" else out
    return _CHAT_WORD.sub(word, text)


def has_chat_words(text: str) -> bool:
    return bool(_CHAT_WORD.search(text))


# Contractions typed without their apostrophe ("didnt", "theyre", "havent") or with it in the wrong place ("did'nt",
# "they'r'e", "hav'ent"): each read as the contraction it is, never as an unknown name. The key is the contraction's
# letters. Words that are also plain words stay as typed: "ill", "were", "its", "shell", "well", "wed", "hell", "id"
# are no keys; "lets" is "let's" only where a sentence or clause starts with it ("lets see who ..."), since "who lets
# their carry die" is the verb; "whos", "whats", "thats" are read as they are by the question readers.
CONTRACTIONS: dict[str, str] = {w.replace("'", ""): w for w in """they're they've they'll they'd we've we're you're
you've you'll you'd he's she's i'm i've i'd who've who'll didn't don't doesn't isn't wasn't weren't aren't haven't
hasn't hadn't can't won't wouldn't couldn't shouldn't mustn't needn't ain't shouldn't've couldn't've would've
could've should've must've that'll there's there're here's let's""".split()}
CONTRACTIONS["wont"] = "will not"  # "won't" holds "won", which the readers of wins would take for a win
_KEEP_PLAIN = frozenset({"whos", "whats", "thats",  # read as typed (the question word or "that"), never "whose"
                         "were", "id"})  # plain words ("were" is no "we're" typed without its apostrophe)
# "let's" at the start of a sentence or clause, maybe after "ok", "so", "now" ...
_LETS_STARTS = re.compile(r"(?:^|[.,;:!?(]\s*|\b(?:ok|okay|so|now|and|then|alright|right|well|hey|pls|please)\s+)$")
_MAYBE_CONTRACTED = re.compile(r"(?<![\w'])[a-z]+(?:'[a-z]*)*(?![\w'])", re.IGNORECASE)


def _contraction(m: re.Match, keep: Sequence[tuple[int, int]]) -> str:
    typed = m.group(0)
    letters = typed.replace("'", "").lower()
    right = CONTRACTIONS.get(letters)
    if right is None or typed.lower() == right or letters in _KEEP_PLAIN and "'" not in typed \
            or any(start < m.end() and m.start() < end for start, end in keep):
        return typed
    if letters == "lets" and "'" not in typed and not _LETS_STARTS.search(m.string, 0, m.start()):
        return typed  # "who lets their carry die": the verb
    return right[0].upper() + right[1:] if typed[0].isupper() else right


def contractions(text: str, keep: Sequence[tuple[int, int]] = ()) -> str:
    """`text` with its contractions typed without an apostrophe, or with a misplaced one, written as contractions
    (`CONTRACTIONS`), outside the spans in `keep` (names found in it: a player called "Dont" stays as typed)."""
    if not _MAYBE_CONTRACTED.search(text):
        return text
    return _MAYBE_CONTRACTED.sub(partial(_contraction, keep=keep), text)
