"""Yes or no questions of one match, read from their words.

- Two subjects set against each other on a figure: "did A out-damage B", "was A's KDA higher than B's", "did order get
  fewer deaths than chaos". `asked_comparison` says which way the question asks (the first subject more, or less);
  `out_verbs` spells an out-verb as the figure it names and a comparative ("out-kill" is "kill more than"), so the
  figure is read and the other subject is never read as whom the verb hit.
- A check after the question about the subject its answer names: "..., and is that one a support", "..., was that chaos",
  "..., and is he on order", "..., did she play Ymir", "..., was it Brisk". `trailing_check` cuts it off, so it never
  narrows the question, and says what it checks (a player, a role, a side or a god).
- Which way a side's gold lead is asked: "did order lead at some minute", "did chaos trail at any point" (`lead_asked`).
- Whether one subject holds a superlative: "did A deal the most damage", "was chaos the side with the fewest deaths",
  "did she out-heal everyone" (`asked_superlative`): the subject is checked against the leader of a ranking.
- Words that frame a claim to be checked: "is it true that ...", "am i right that ...", "correct me if i'm wrong but
  ...", "would you say ...", "..., right?" (`claim`): the claim is the question, and it asks yes or no.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from combat_analysis.contracts.plan import Filter
from combat_analysis.planner.read.names import find_mentions, find_roles, find_teams, fold
from combat_analysis.planner.read.reading import normalize, read_metrics
from combat_analysis.planner.vocabulary import Vocabulary

Way = Literal["more", "less"]

# A question answered yes or no: an auxiliary comes before any question word ("did A out-damage B", "at any point, was
# order ahead"); "who did the most damage" and "when was order ahead" are not
_ASKING = re.compile(r"\b(?P<aux>did|does|do|was|were|is|are|has|have|had)\b|\b(?:who|whom|whose|what|which|how|when|"
                     r"where|why|who's|whos|what's|whats)\b")


# Both ways offered, which asks which of them, not yes or no: "did A deal more than B or less", "more or fewer"
_COMPARATIVES = r"(?:more|less|fewer|higher|lower|greater|smaller|bigger|better|worse)"
_BOTH_WAYS = re.compile(rf"\bthan\b.*?\bor\s+{_COMPARATIVES}\b|\b{_COMPARATIVES}\s+or\s+{_COMPARATIVES}\b")


def _yes_no(text: str) -> bool:
    """Whether the words ask yes or no: an auxiliary before any question word, or a claim framed to be checked ("is it
    true that A won", "A got the most kills, right?") that is no question of its own ("correct me, but who won"); a
    question that offers both ways (`_BOTH_WAYS`) asks which."""
    if _BOTH_WAYS.search(text):
        return False
    said = claim(text)
    if said is not None:
        first = _ASKING.search(said)
        return first is None or first.group("aux") is not None
    first = _ASKING.search(text)
    return first is not None and first.group("aux") is not None


# a comparative said against a second subject: "more ... than B", "higher than B's"; "more than 10" is a threshold
_THAN = re.compile(r"\b(?P<word>more|higher|greater|bigger|larger|better|fewer|less|lower|smaller|worse)\b"
                   r"(?:\s+\S+){0,6}?\s+than\s+(?!\d|(?:a|one|two|three|four|five|six|seven|eight|nine|ten|twenty|"
                   r"fifty|hundred|thousand|a\s+(?:hundred|thousand))\b)")
_MORE = frozenset({"more", "higher", "greater", "bigger", "larger"})
# "out-damage", "outhealed", "out-farming": out, then a verb that names a figure
_OUT_VERB = re.compile(r"\bout-?(?P<verb>[a-z]{3,}?)(?P<ending>ed|d|s|ing)?\b", re.IGNORECASE)


def out_verbs(text: str) -> str:
    """"did A out-kill B" -> "did A kill more than B": an out-verb whose verb names a figure is that figure compared;
    any other word starting with out ("outside", "outplayed") is left as it was."""
    def spelled(m: re.Match) -> str:
        said = m.group("verb") + (m.group("ending") or "")
        for word in (said, m.group("verb")):
            if read_metrics(normalize(word.lower())).ids:
                return f"{said} more than"
        return m.group(0)

    return _OUT_VERB.sub(spelled, text)


def asked_comparison(question: str, lower_is_better: bool = False) -> Way | None:
    """Which way a yes or no question sets its first subject against its second: "more" ("did A out-damage B", "was
    A's gold higher than B's"), "less" ("did A die less than B"); None when it asks no yes or no comparison. "Better"
    is the fewer for a figure where less is better (`lower_is_better`: deaths)."""
    text = out_verbs(fold(question).replace("’", "'"))
    if not _yes_no(text):
        return None
    found = _THAN.search(text)
    if found is None:
        return None
    word = found.group("word")
    if word in ("better", "worse"):
        return "less" if (word == "better") == lower_is_better else "more"
    return "more" if word in _MORE else "less"


# ---------------------------------------------------------------------------------------------- a side's gold lead

_AHEAD = re.compile(r"\b(?:ahead|lead|leads|led|leading|up|winning|in\s+front|on\s+top)\b")
_BEHIND = re.compile(r"\b(?:behind|trail|trails|trailed|trailing|down|losing|deficit|deficits|in\s+the\s+red)\b")
# the lead said as a side's place on the gold difference, a few words from gold: "ahead on the gold graph", "behind in
# gold", "a gold lead", "trailing on networth"
_LEAD_ON_GOLD = re.compile(
    r"\b(?:ahead|behind|lead|leads|led|leading|trail|trails|trailed|trailing|deficit)\b(?:\s+\S+){0,5}?\s+"
    r"(?:gold|networth|net\s+worth|economy)\b"
    r"|\b(?:gold|networth|net\s+worth|economy)\b(?:\s+\S+){0,4}?\s+(?:ahead|behind|lead|leads|led|trail|trailed|deficit)\b")


def lead_on_gold(text: str) -> bool:
    """Whether the words set a side ahead or behind on gold ("was chaos behind on the gold graph")."""
    return bool(_LEAD_ON_GOLD.search(text))


def lead_words(text: str) -> bool:
    """Whether the words set one side ahead of or behind the other ("did order lead chaos at some minute")."""
    return bool(_AHEAD.search(text) or _BEHIND.search(text))


def lead_asked(question: str) -> Way | None:
    """Which way a yes or no question asks about a side's gold lead: "more" for ahead ("did order lead at some minute", "did
    chaos lead at any point"), "less" for behind; None when it is no yes or no question or says neither."""
    text = fold(question).replace("’", "'")
    if not _yes_no(text):
        return None
    ahead, behind = _AHEAD.search(text), _BEHIND.search(text)
    if ahead and behind:
        return "more" if ahead.start() < behind.start() else "less"
    return "more" if ahead else "less" if behind else None


# ------------------------------------------------------------------------------- a check of the answer's subject

# "..., and is that one a support", "- was that chaos?", "and is he on order", "did she play ymir": the check's own clause
# at the end of the question, about the subject the answer names (a pronoun or "the player")
_SUBJECT = (r"(?:(?:that|this|the)\s+(?:player|one|guy|person|god|side|team|leader|winner)|it|that|this|he|she|they|"
            r"him|her)")
# words that hedge or stress a check and say nothing more: "was he even mid", "did she really play solo"
_HEDGE = r"(?:even|ever|really|actually|just|truly|honestly)"
_CHECK = re.compile(
    r"(?P<cut>(?:\s*[,;:?!(]+\s*|\s+[-–—]\s*|\s+)(?:(?:and|so|but|also|plus|&)\s+)?)"
    rf"(?:(?:was|is|were|are)\s+{_SUBJECT}\s+(?P<said>[^,;:?!]+?)"
    rf"|(?:did|does|do)\s+{_SUBJECT}\s+(?:{_HEDGE}\s+)?(?:play|pick|run|main|use|go)\s+(?:as\s+)?(?P<god>[^,;:?!]+?))"
    r"\s*[?.!)]*\s*$", re.IGNORECASE)
# words beside the checked value that say nothing more: "a", "on the", "one of the", "playing", "player", "side"
_FILLER = re.compile(r"\b(?:a|an|the|on|for|from|in|of|one|with|playing|played|as|team|side|player|players|guy|"
                     r"one\s+of|someone|somebody|by\s+any\s+chance|actually|really|even|ever|just|truly|honestly|"
                     r"too|also|then|by|laner|main|"
                     r"lane|role|god)\b|'s\b|[^\w\s]", re.IGNORECASE)


@dataclass(frozen=True)
class Check:
    main: str  # the question without its check
    check: Filter  # what the answer's subject is checked for: a player, a role, a side (team) or a god
    about: str | None = None  # the player the check names as its subject ("was Brisk on order"), when it names one


def trailing_check(question: str, vocab: Vocabulary) -> Check | None:
    """The check a question ends with ("who died the most, and is he on order"): the question without it, and the one
    player, role, side or god it asks about; None when the question ends with no such check, or the check names
    anything else (a figure, an ability) or more than one thing."""
    m = _CHECK.search(question)
    if m is None or not question[:m.start()].strip():
        return None
    said = m.group("said") or m.group("god") or ""
    check = _checked_value(said, vocab)
    if check is None:
        return None
    return Check(question[:m.start()].rstrip(" ,;:-–—") + "?", check)


def _named_in(said: str, vocab: Vocabulary) -> dict[str, list] | None:
    """The players, gods, sides and roles a check's words name, each dimension's values in order; None when a word is
    left that names something else or says more."""
    found = find_mentions(said, vocab)
    mentions = [m for m in found if m.kind in ("player", "god")]
    if len(found) != len(mentions):
        return None
    rest = fold(said)
    for m in sorted(mentions, key=lambda m: -m.start):
        rest = rest[:m.start] + " " * (m.end - m.start) + rest[m.end:]
    teams = [t for t in find_teams(rest, vocab.winner_team) if t.team is not None]
    roles = find_roles(rest, vocab.roles)
    for start, length in [(t.start, len(t.said)) for t in teams] + [(r.start, len(r.said)) for r in roles]:
        rest = rest[:start] + " " * length + rest[start + length:]
    if _FILLER.sub(" ", rest).strip():
        return None
    return {"player": list(dict.fromkeys(m.name for m in mentions if m.kind == "player")),
            "god": list(dict.fromkeys(m.name for m in mentions if m.kind == "god")),
            "team": list(dict.fromkeys(int(t.team or 0) for t in teams)),
            "role": list(dict.fromkeys(r.role for r in roles))}


def _checked_value(said: str, vocab: Vocabulary) -> Filter | None:
    """The one player, role, side or god a check's words name, all of them read (a side and a role together are that
    side's one player: "was that the order support"); None otherwise."""
    named = _named_in(said, vocab)
    if named is None:
        return None
    if len(named["team"]) == len(named["role"]) == 1 and not named["player"]:
        # "the order support": that side's one player
        found = vocab.players_where(team=named["team"][0], role=named["role"][0])
        named = {"player": [found[0].player] if len(found) == 1 else [], "god": named["god"], "team": [], "role": []}
    said_values = [(dim, values[0]) for dim, values in named.items() if values]
    if len(said_values) != 1 or sum(map(len, named.values())) != 1:
        return None
    dim, value = said_values[0]
    return Filter(dimension=dim, values=(value,))


# ------------------------------------------------------------------------------ a named player's role, side or god

# "was <player> playing mid", "did <player> play solo", "is <player> on order", "<player> was the support?": a yes or no
# about one named player's role, side or god, alone or beside a question about the same player ("which god was <player>
# on, and was <player> mid"); the player is found as a name first, so a tag such as "mid_diff" is never the role
_CLAUSE_AUX = re.compile(r"(?:^|[,;:?!(]\s*|\s[-–—]\s*|\s)(?:(?:and|so|but|also|plus|&|n)\s+)?"
                         r"(?:was|is|were|are|did|does|do)\s+$", re.IGNORECASE)
_PLAY_VERB = re.compile(rf"^\s*(?:(?:{_HEDGE}|the\s+one)\s+)?(?:play(?:ed|ing|s)?|pick(?:ed|ing|s)?|ran|run(?:ning|s)?|"
                        r"main(?:ed|ing|s)?|go(?:ing|es)?|went|queue(?:d|ing)?|lock(?:ed)?\s+in(?:to)?|locked|fill(?:ed|ing)?)?"
                        r"(?:\s+(?:in|on|at|as))?\b", re.IGNORECASE)
_WH_AFTER = re.compile(r"(?:\s*[,;:?!]+\s*|\s+[-–—]\s*|\s+)(?:(?:and|so|but|also|plus|&|n)\s+)?(?=(?:what|which|who|how)\b)",
                       re.IGNORECASE)
# who the question after the check is about: the player ("what god was it" is the player's pick too)
_PERSON = re.compile(r"\b(?:he|she|him|her|they|them|it)\b|\b(?:his|their)\b", re.IGNORECASE)


_DECLARED = re.compile(r"\s+(?:was|is|were)(?=\s)|\s+(?=(?:play(?:ed|s)|ran|runs|main(?:ed|s)|picked|went|locked)\b)",
                       re.IGNORECASE)


def identity_check(question: str, vocab: Vocabulary) -> Check | None:
    """A yes or no on one named player's role, side or god: the question beside it (what the player played when it is
    asked alone), the check, and the player it is `about`; None when no such check is asked."""
    for m in reversed([m for m in find_mentions(question, vocab) if m.kind == "player"]):
        aux = _CLAUSE_AUX.search(question[:m.start])
        rest = question[m.end:]
        # the claim said the other way round, the player first: "<player> was playing mid", "<player> ran support"
        declared = _DECLARED.match(rest) if aux is None and not question[:m.start].strip(" ,;:-–—") else None
        if aux is not None:
            before = question[:aux.start()]
        elif declared is not None:
            before, rest = "", rest[declared.end():]
        else:
            continue
        wh = _WH_AFTER.search(rest)
        said, after = (rest[:wh.start()], rest[wh.end():]) if wh and not before.strip(" ,;:-–—?") else (rest, "")
        check = _checked_value(_PLAY_VERB.sub(" ", said.strip(" ?.!)"), count=1), vocab)
        if check is None or check.dimension == "player":
            continue
        main = before.rstrip(" ,;:-–—") if before.strip(" ,;:-–—?") else \
            _named(after, m.name) if after.strip() else f"what did {m.name} play"
        return Check(main.rstrip(" ?") + "?", check, about=m.name)
    return None


def _named(clause: str, name: str) -> str:
    """A clause with the player's name where its pronouns stand for them."""
    return _PERSON.sub(lambda p: f"{name}'s" if p.group(0).lower() in ("his", "their") else name, clause)


# ------------------------------------------------------------------------------------ a claim framed to be checked

_Q = r"['’]"
# the words before a claim that ask whether it holds; the claim follows, after "that", "but", "if" or "whether"
_FRAME_LEAD = re.compile(
    r"^\s*(?:(?:so|ok|okay|hey|quick\s+(?:question|q)|just\s+(?:to\s+)?(?:check|confirm)(?:ing)?|honest(?:ly)?|"
    r"real\s+quick)\s*[,:-]?\s+)*(?:"
    rf"(?:is|was|isn{_Q}?t|wasn{_Q}?t)\s+it\s+(?:really\s+)?(?:true|correct|right|accurate|a\s+fact|the\s+case|so|"
    r"fair\s+to\s+say|safe\s+to\s+say)"
    r"|(?:would|could|can)\s+(?:it\s+be|one|i|you|we)\s+(?:(?:true|correct|right|fair|accurate|safe)\s+to\s+)?say"
    rf"|(?:am|was)\s+i\s+(?:right|correct|wrong|mistaken)(?:\s+(?:in\s+)?(?:thinking|saying|believing|assuming))?"
    rf"|correct\s+me\s+if\s+(?:i{_Q}?m\s+|i\s+am\s+|i\s+was\s+)?(?:wrong|mistaken)"
    rf"|(?:would|do|did|could|don{_Q}?t)\s+you\s+(?:say|agree|think|reckon|believe)"
    r"|(?:can|could|would)\s+you\s+(?:please\s+)?(?:confirm|verify|check|tell\s+me|say)\s+(?=(?:if|whether|that)\b)"
    r"|(?:can|could|would)\s+you\s+(?:please\s+)?(?:confirm|verify)"
    r"|(?:please\s+)?(?:confirm|verify)(?:\s+for\s+me)?|(?:please\s+)?(?:check|tell\s+me)\s+(?=(?:if|whether)\b)"
    r"|true\s+or\s+false|fact[\s-]+check|yes\s+or\s+no"
    rf"|i{_Q}?m\s+(?:pretty\s+|fairly\s+|quite\s+|almost\s+)?(?:sure|certain|convinced)"
    r"|i\s+(?:heard|read|was\s+told|bet)"
    r"|(?:some(?:one|body)|my\s+(?:friend|mate|buddy|teammate|duo)|people|everyone|the\s+(?:scoreboard|stats))\s+"
    r"(?:said|says|told\s+me|claims?|claimed|reckons?|thinks?)"
    r")(?:\s*[,:;?–—-]+\s*|\s+)(?:(?:that|but|if|whether)\b\s*)*", re.IGNORECASE)
# a tag after a claim asking whether it holds: "..., right?", "... correct?", "..., no?", "... or not?", "- true?"
_FRAME_TAG = re.compile(
    rf"(?:\s*[,;]\s*|\s+[-–—]\s*|\s+)(?:right|correct|true|yeah|yea|yep|or\s+not|or\s+no|am\s+i\s+right|am\s+i\s+wrong|innit|"
    rf"(?:is|was)n{_Q}?t\s+(?:it|that\s+so)|is\s+that\s+(?:right|correct|true|so)|(?:true|right)\s+or\s+(?:false|wrong)|"
    r"yes\s+or\s+no|y/n)\s*\?+\s*$"
    r"|\s*[,;]\s*(?:right|correct|true|yes|yeah|yea|yep|no|or\s+not|yes\s+or\s+no|y/n|true\s+or\s+false)\s*[?.!]*\s*$",
    re.IGNORECASE)


def claim(text: str) -> str | None:
    """The claim a question frames to be checked ("is it true that chaos won" -> "chaos won", "brisk died least,
    right?" -> "brisk died least"), its own words as typed; None when no framing words are said, or nothing is left."""
    said = _FRAME_TAG.sub("", _FRAME_LEAD.sub("", text, count=1), count=1)
    if said == text or not re.search(r"\w", said):
        return None
    return said.strip(" ,;:-–—")


# ------------------------------------------------------------------------------------ a superlative held or not

# a superlative said of the subject ("the most", "top", "the fewest", "more than anyone"); a figure's own name is none
# ("his biggest hit"), nor a bound ("at most"), nor a lane ("top laner")
_HELD = re.compile(
    r"(?<!\bat\s)(?<!'s\s)(?<!’s\s)(?<!\bhis\s)(?<!\bher\s)(?<!\btheir\s)(?<!\bits\s)(?<!\bmy\s)(?<!\bour\s)"
    r"\b(?:most|highest|greatest|biggest|largest|top(?!\s+(?:lane|laner|laners|lanes|side)\b)|topped|tops|best|worst|"
    r"least|lowest|fewest|smallest|richest|poorest|deadliest|tankiest|strongest|hardest|weakest|mvp|number\s+one|"
    r"no\.?\s*1|#\s*1|first\s+place)\b"
    r"|\b(?:more|fewer|less|higher|lower|better|worse)\b(?:\s+\S+){0,5}?\s+than\s+(?:(?:any|every)(?:one|body|\s+other"
    r"(?:\s+\w+)?)|all\s+(?:the\s+)?(?:others|rest|other\s+\w+)|all\b|the\s+(?:rest|others)|anybody)")


# a clause that asks a question word ("we were order, who killed us the most"): the question is that, never yes or no;
# a relative "who" after a noun ("did the player who got first blood ...") starts no clause
_WH_CLAUSE = re.compile(r"(?:^|[,;:?!.(]\s*|\s[-–—]\s*|\b(?:and|but|so|then|also|plus)\s+)"
                        r"(?:who|whom|whose|what|which|how|when|where|why|who's|whos|what's|whats)\b")


def _only_yes_no(text: str) -> bool:
    """A yes or no question with no clause that asks a question word of its own."""
    return _yes_no(text) and not _WH_CLAUSE.search(claim(text) or text)


def asked_yes_no(question: str) -> bool:
    """Whether a question asks yes or no ("did A get first blood", "is it true that chaos won", "order won, right?")."""
    return _only_yes_no(fold(question).replace("’", "'"))


# of two (the sides), a comparative is the superlative: "was chaos the side with more kills"; "more than 10" is a bound
_OF_TWO = re.compile(r"\b(?:more|fewer|less|higher|lower|better|worse|bigger|larger|greater)\b(?!(?:\s+\S+){0,6}?\s+than\b)")


def asked_superlative(question: str, of_two: bool = False) -> bool:
    """Whether a yes or no question asks if one subject holds a superlative: "did A get the most kills", "was order the
    side with the fewest deaths", "is it true that A out-healed everyone"; a comparison with one other subject ("did A
    deal more than B") is none. Of two subjects (`of_two`: the sides), a comparative said alone is one too."""
    text = out_verbs(fold(question).replace("’", "'"))
    if not _only_yes_no(text):
        return False
    text = claim(text) or text
    held = _HELD.search(text) or (_OF_TWO.search(text) if of_two else None)
    if held is None:
        return False
    than = _THAN.search(text)
    return than is None or than.start() == held.start()


# Whether there was any at all, asked yes or no: "did X get any kills", "has she ever died", "did he even get a single
# assist"; a number in the question ("did X get 10 kills") asks something else
_ANY = re.compile(r"\b(?:any|anyone|anybody|a\s+single|at\s+all|ever|even)\b")
_NUMBER_SAID = re.compile(r"(?<![a-z_.\d])\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty)\b")


def asked_whether_any(question: str) -> bool:
    """Whether a yes or no question asks whether there was any of a figure at all."""
    said = fold(question).replace("’", "'")
    return _only_yes_no(said) and bool(_ANY.search(said)) and not _NUMBER_SAID.search(said)
