"""Multi-part questions: "who got first blood and who won" is two questions, answered in turn.

A question is split where a new clause starts with a question word ("... and who won", "...; which team
...", "...? how many ..."), never inside a name. Each later clause then decides how it relates to the first:

- it points back with "it", "each", "that" ("what abilities did X use and how much damage did each do",
  "what was the biggest hit, and who landed it"): not a new question, the whole sentence is read as one;
- it points back at a person ("who had the most kills and what did they build"): a dependent step on the
  first clause's leader;
- a bare "when" after a ranking ("who carried the damage, and when?"): the leader's top minutes of that figure;
- it asks how many "of those" had a property ("xiao's deaths, and how many of those weren't to players"): the
  first clause read again with the property, a part after the whole;
- it names no figure of its own ("how many kills did team 1 get and team 2?"): read as a follow-up of the first
  clause, or as part of it when that adds nothing;
- otherwise it is its own question (a `part` of the plan).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher

from combat_analysis.catalog import metric
from combat_analysis.catalog.parts import is_part_of
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.planner.read.anchors import find_anchor
from combat_analysis.planner.read.causes import REST, complement, unwidened
from combat_analysis.planner.read.names import find_mentions, find_roles, find_teams
from combat_analysis.planner.read.reading import normalize, read_metrics
from combat_analysis.planner.read.timewords import parse_windows
from combat_analysis.planner.read.words import KILL_VERB
from combat_analysis.planner.vocabulary import Vocabulary

# a question word after "and" starts a clause, contracted too ("and what's", "and whats", "and hows")
_SPLIT = re.compile(r"(?:\s*[,;]\s*|\s+)(?:and|also|plus|&|\+|then)\s+(?=(?:(?:who|what|how|when|where|wat)(?:'?s)?|whom|whose|which|wich|did|"
                    r"does|was|were|is|are|list|show|give|tell|compare|rank|include|add)\b|name\s+(?:them|those|these|em|'em)\b)"
                    r"|\s*[?;]\s+(?=[^\s(])"  # a parenthesis after a question mark qualifies it
                    # "X's damage taken vs how much did she deal": a second question set against the first
                    r"|\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+(?=how\s+(?:much|many)\b)"
                    # "X was feeding, who got the most kills on him": a question of its own after a comma, pointing back
                    r"|\s*,\s+(?=(?:who|whom|what|which|how|when)\b[^,?.;]*\b(?:him|her|them|he|she|they)\b)"
                    # "kills in the match, how many of them by chaos", "X's damage - how much of it to gods": a subset
                    # after a comma or a dash
                    r"|(?:\s*[,:]\s*|\s+[-–—]\s*)(?=how\s+(?:many|much|often)\s+of\s+(?:those|these|them|that|it)\b)"
                    # "LunaSol's kills - who were they", "..., name them": the list of what was counted
                    r"|(?:\s*[,:]\s*|\s+[-–—]\s*)(?=(?:what|which|who|wat|wich)\s+(?:were|was|r)\s+(?:they|those|these|them|em)\b|"
                    r"(?:what|which|wich)\s+ones?\b|(?:name|list)\s+(?:them|those|these|em|'em)\b)"
                    # a new sentence that asks on ("... the match. Include the average damage per player")
                    r"|\.\s+(?=(?:who|what|which|how|when|where|list|show|give|tell|compare|rank|include|add|also)\b)",
                    re.IGNORECASE)
_POINTS_BACK = re.compile(r"\b(it|its|that|those|these|each(?!\s+(?:player|team|role|god|minute|one\s+of))|"
                          r"one|ones|them|then)\b\s*[?.!]*\s*$|\b(it|its|that\s+one|those|these|each\s+(?:do|did|deal|"
                          r"dealt|one|of\s+them))\b"
                          # "... and when did the first go down": the first of what the first clause counted
                          r"|\bthe\s+(?:first|last|earliest|latest)(?:\s+(?:one|ones|of\s+them|of\s+those))?\s*(?:[?.!]*\s*$|"
                          r"(?:go|goes|went|gone|fall|falls|fell|fallen|die|died|drop|dropped|come|came|get|got|was|were|"
                          r"happen|happened|lost|destroyed|taken|killed|down)\b)", re.IGNORECASE)
_PERSON = re.compile(r"\b(he|she|they|them|their|his|her|him)\b", re.IGNORECASE)
# "who carried the damage, and when?": the moment of the leader's figure, a step on the leader like a pronoun's
BARE_WHEN = re.compile(r"^\s*(?:and\s+)?when\s*[?.!]*\s*$", re.IGNORECASE)
# "... and how many of those were to towers": a subset of what the first clause counted
# "... and how many were after minute 20": the same count narrowed, said with no figure of its own
_OF_THOSE = re.compile(r"^\s*(?:and\s+)?(?:how\s+(?:many|much|often)\s+(?:of\s+(?:those|these|them|that|it)\b\s*|"
                       r"(?=(?:were|was)(?:n['’]?t)?\s+(?:not\s+)?(?:to|by|from|on|in|after|before|during|at)\b))"
                       # "what part of it was mitigated": an amount of it, said as a part
                       r"|(?:what|which)\s+(?:part|portion|amount|bit|chunk)\s+of\s+(?:those|these|them|that|it)\b\s*)",
                       re.IGNORECASE)
# "how many died to towers, and which players?": who the first clause counted, asked with no figure of its own
_BARE_WHO = re.compile(r"^\s*(?:and\s+)?(?:who|which\s+(?:players?|people|ones|guys|gods))"
                       r"(?:\s+(?:died|(?:was|were)\s+(?:it|they|those|killed)|got\s+killed))?\s*[?.!]*\s*$"
                       # "X's deaths to npcs? what got her": what dealt the deaths the first clause counted
                       r"|^\s*(?:and\s+)?(?:what|which\s+\w+|who)\s+(?:got|killed|did\s+it|took\s+(?:him|her|them)\s+out)"
                       r"(?:\s+(?:him|her|them|it))?\s*[?.!]*\s*$", re.IGNORECASE)
# The asker's impression, which frames a question and asks nothing: a clause of its own ("... ? seems close",
# "..., looks tight tbh") or a lead-in ("i feel like ...", "seems like ..."); a clause with a question word stays
_IMPRESSION_CLAUSE = re.compile(
    r"(?:^|(?<=[?!;:,.])|(?<=\s)(?=[-–—]\s))\s*(?:[-–—]\s*)?(?:(?:it|this|that|i|we|tbh|ngl|honestly|lowkey|kinda|but|though|and|so|to\s+me)\s+)*"
    r"(?:feels?|felt|seems?|seemed|looks?|looked|looking)\b(?![^?!;:,.]*\b(?:who|whom|whose|what|which|how|when|where)\b)"
    r"[^?!;:,.]*[?!.]*\s*$", re.IGNORECASE)
_IMPRESSION_LEAD = re.compile(r"^\s*(?:(?:i|we)\s+(?:feel|felt|think|thought|guess|reckon)|(?:it\s+)?(?:feels|felt|seems|seemed|"
                              r"looks|looked))\s+(?:like|as\s+if|that)\s+", re.IGNORECASE)


def without_impressions(question: str) -> str:
    """The question without the asker's impression of the answer ("which side healed more? seems tight": the
    comparison is asked, the feeling is not), or the question as it is when nothing else would be left."""
    text = _IMPRESSION_LEAD.sub("", _IMPRESSION_CLAUSE.sub("", question))
    if text == question:
        return question  # nothing said of an impression: the text stays as typed, trailing marks and all
    text = text.strip(" ,;-–—")
    return text if re.search(r"\w", text) else question


# A part that restates the one before it, sharper: "who popped off, like who dealt the most damage", "... i.e. who
# killed him most", "...? i mean ...", "... - as in ...", or a verbless fragment that names the figure meant ("the
# standouts? top 2 by kda"). The asker means the sharper reading, which is answered (`restated`).
_RESTATE = re.compile(r"(?:(?:[,;:?!(]|\s[-–—])\s*(?:(?:or|so)\s+)?(?:like|i\.?\s?e\.?|as\s+in|meaning|i\s+mean|i\s+meant|"
                      r"that\s+is(?:\s+to\s+say)?|aka|a\.k\.a\.?|in\s+other\s+words|specifically|namely|basically|"
                      r"essentially)"
                      # the unmistakable ones need no mark before them: "who got clapped aka most damage taken"
                      r"|\s(?:aka|a\.k\.a\.?|i\s+mean))(?:\s*[,:]\s*|\s+)(?=\w)", re.IGNORECASE)
_FRAGMENT = re.compile(r"(?:[,;:?!]|\s[-–—])\s*(?P<sharp>(?:(?:the\s+)?top\s+(?:\d+|one|two|three|four|five|ten)\s+)?"
                       r"(?:by|in\s+terms\s+of|on)\s+[^,;:?!()]+?"
                       # or a bare superlative of a figure ("...? highest kda"), read only after a slang clause
                       r"|(?:the\s+)?(?:most|highest|biggest|largest)\s+[^,;:?!()]+?)\s*[?.!)]*\s*$",
                       re.IGNORECASE)


# a bare list of figures after the question mark, which asks nothing of its own ("who went off? kills and assists")
_BARE_FIGURES = re.compile(r"\?\s*(?P<sharp>(?!(?:[^?]*\s)?(?:who|whom|whose|what|which|how|when|where|did|does|do|was|"
                           r"were|is|are|and\s+who)\b)[a-z][^,;:?!()]{0,60}?)\s*[?.!]*\s*$", re.IGNORECASE)


def restated(question: str, vocab: Vocabulary) -> tuple[str, str, bool] | None:
    """(the vaguer part, the sharper part that restates it, whether a word of restating led it: "like", "i mean",
    "aka") of a question that sharpens itself, else None; a pronoun of the sharper part ("who killed him most") is
    the vaguer part's one player, named."""
    names = [(m.start, m.end) for m in find_mentions(question, vocab)]
    bare = _BARE_FIGURES.search(question)
    found = [m for m in (*_RESTATE.finditer(question), *_FRAGMENT.finditer(question), *((bare,) if bare else ()))
             if not any(start < m.end() and m.start() < end for start, end in names)]
    if not found:
        return None
    cut = min(found, key=lambda m: m.start())
    vague = question[:cut.start()].strip(" ,;:-–—(")
    sharp = (cut.group("sharp") if "sharp" in cut.groupdict() else question[cut.end():]).strip(" ,;:)")
    if not vague or not sharp:
        return None
    players = {m.name for m in find_mentions(vague, vocab) if m.kind == "player"}
    if cut is bare and players:
        return None  # "was X any good? kda and healing": X's figures (`_of_first_player`), no ranking
    if len(players) == 1 and not find_mentions(sharp, vocab):
        name = next(iter(players))
        sharp = re.sub(r"\b(?:his|their)\b", f"{name}'s", sharp, flags=re.IGNORECASE)
        sharp = re.sub(r"\b(?:him|her|them|he|she|they)\b", name, sharp, flags=re.IGNORECASE)
    return vague, sharp, "sharp" not in cut.groupdict()


def without_time(text: str, vocab: Vocabulary) -> str:
    """The text without its time words: the event a window is anchored on ("after the first tower fell"), or the
    windows ("between minute 10 and 20")."""
    anchor = find_anchor(text, vocab)
    return anchor.rest if anchor is not None else parse_windows(text).rest


def with_time_of(vague: str, sharp: str, vocab: Vocabulary) -> str:
    """The sharper part with the time the vaguer part said ("who carried in the first 10 minutes, like who dealt the
    most damage": the damage of the first 10 minutes), unless it says a time of its own: the words of the windows
    (or of the event a window is anchored on), from the first to the last, said after it."""
    if find_anchor(sharp, vocab) is not None or parse_windows(sharp).windows:
        return sharp
    anchor = find_anchor(vague, vocab)
    if anchor is not None:
        return f"{sharp.rstrip(' ?.!')} {anchor.said}"
    rest = parse_windows(vague).rest.split()
    if rest == vague.split():
        return sharp
    words = vague.split()
    cut = [op for op in SequenceMatcher(a=words, b=rest, autojunk=False).get_opcodes() if op[0] in ("delete", "replace")]
    if not cut:
        return sharp
    return f"{sharp.rstrip(' ?.!')} {' '.join(words[cut[0][1]:cut[-1][2]])}"


# The words that set a side or a role as whom a ranking is among: "for chaos", "on the order side", "among the supports"
_AMONG = re.compile(r"(?:\b(?:for|on|of|from|in|among|amongst)\s+(?:the\s+)?)?$", re.IGNORECASE)


def with_side_of(vague: str, sharp: str, vocab: Vocabulary) -> str:
    """The sharper part with the one side or role the vaguer part ranks among ("who went off on chaos? kills": the most
    kills on chaos), unless it names a player, side or role of its own."""
    roles = tuple(p.role for p in vocab.players if p.role)
    if find_teams(sharp, vocab.winner_team) or find_roles(sharp, roles) or find_mentions(sharp, vocab):
        return sharp
    said = [(m.start, m.said) for m in find_teams(vague, vocab.winner_team) if m.team is not None] \
        + [(m.start, m.said) for m in find_roles(vague, roles)]
    if len(said) != 1:
        return sharp
    start, words = said[0]
    lead = _AMONG.search(vague[:start].rstrip() + " ")
    among = (lead.group(0).strip() if lead else "") or "on"  # the vaguer part's own word for among, else "on"
    return f"{sharp.rstrip(' ?.!')} {among} {words}"


# A last clause that only restricts which figure counts ("who was the most fed? gold only", "who popped off. just
# damage"): no question of its own, it is read with the clause before it, as if said after a comma (`restricting`)
_RESTRICTING = re.compile(r"\s*(?:[?!;]|\.(?=\s)|\s[-–—])\s*(?P<frag>(?:(?:but|and)\s+)?(?:only|just)\s+[^?!;.]+?|"
                          r"[^?!;.]+?\s+(?:only|just))\s*[?.!]*\s*$", re.IGNORECASE)
_ASKS = re.compile(r"\b(?:who|whom|whose|what|which|how|when|where|did|does|was|were|is|are)\b", re.IGNORECASE)


def restricting(question: str) -> tuple[str, str] | None:
    """(the question with its restricting last clause joined by a comma, that clause) when the question ends with a
    clause of "only"/"just" and a figure's words that asks nothing of its own, else None (the caller checks it
    names a figure)."""
    m = _RESTRICTING.search(question)
    if m is None or _ASKS.search(m.group("frag")) or not question[:m.start()].strip():
        return None
    return f"{question[:m.start()].rstrip()}, {m.group('frag')}", m.group("frag")


# A last part that names only a new subject ("..., and the fire giant?", "what about Zeus", "LunaSol too?", "same for
# the order towers"): the part before it asked again with that subject in place of its own (`elided`)
_ELLIPSIS = re.compile(r"(?P<sep>\s*[,;?!]\s*|\s*\.\s+|\s+)(?:(?:and|also|plus|but|&)\s+)?(?P<lead>(?:what|how)\s+about|same\s+(?:for|with|"
                       r"goes\s+for)|ditto\s+for|and|now|then|vs\.?|versus)?\s*(?P<subject>[^,;?!.]+?)\s*(?P<tail>,?\s*(?:too|as\s+well|"
                       r"also|then|again))?\s*[?.!]*\s*$", re.IGNORECASE)
# Non-players said by kind, as the one a figure is about ("the chaos towers", "the fire giant", "minions")
_NPC_SUBJECT = re.compile(r"\b(?:towers?|turrets?|phoenix(?:es)?|titans?|minions?|fire\s+giants?|gold\s+fur(?:y|ies)|bosses|"
                          r"boss|jungle\s+camps?|camps?|structures?|buildings?)\b", re.IGNORECASE)
_SUBJECT_FILLER = re.compile(r"^(?:\s|the|their|our|its|side|team|players?|'s|s|')*$", re.IGNORECASE)
_TARGET_BEFORE = re.compile(r"\b(?:to|on|at|against|into|vs|versus|from)\s+(?:the\s+|their\s+|our\s+)?$", re.IGNORECASE)


def _subject_spans(text: str, vocab: Vocabulary) -> list[tuple[int, int]]:
    """Where `text` names a player, god, non-player, side or role (a side and a role said together are one)."""
    mentions = [(m.start, m.end) for m in find_mentions(text, vocab) if m.kind in ("player", "god", "npc")]
    masked = "".join("x" if any(a <= i < b for a, b in mentions) else c for i, c in enumerate(text))
    spans = [*mentions, *((t.start, t.start + len(t.said)) for t in find_teams(masked, vocab.winner_team)),
             *((r.start, r.start + len(r.said)) for r in find_roles(masked, vocab.roles)),
             *(m.span() for m in _NPC_SUBJECT.finditer(masked))]
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and _SUBJECT_FILLER.match(text[merged[-1][1]:start]):
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def elided(question: str, vocab: Vocabulary) -> tuple[str, str] | None:
    """(the first part, the first part asked of the new subject) of a question whose last part names only a new
    subject, else None. The first part's one subject (not one it hit: "damage to structures") is swapped for the
    new one, so its figure and shape are kept."""
    m = _ELLIPSIS.search(question)
    # a subject alone needs a mark before it ("..., and Brisk?", "...? Brisk?"): "kills for Brisk and LunaSol" is one
    if m is None or not (m.group("lead") or m.group("tail") or m.group("sep").strip()):
        return None
    subject = m.group("subject")
    first = question[:m.start()].strip(" ,;")
    said = _subject_spans(subject, vocab)
    if not first or len(said) != 1 or not _SUBJECT_FILLER.match(subject[:said[0][0]] + subject[said[0][1]:]):
        return None
    own = [(a, b) for a, b in _subject_spans(first, vocab) if not _TARGET_BEFORE.search(first[:a])]
    if len(own) != 1:
        return None
    new = subject.strip()
    start, end = own[0]
    # the new subject brings its own article: "did the gold fury do" -> "did Brisk do"
    before = re.sub(r"\bthe\s+$", "", first[:start], flags=re.IGNORECASE)
    if re.search(r"'s?$", first[start:end]) and not re.search(r"'s?$", new):
        new += "'" if new.endswith("s") else "'s"  # "Brisk's damage" -> "the fire giant's damage", "the carries' kda"
    return first, before + new + first[end:]


MAX_PARTS = 6  # clauses: any number of parts, within the plan's limit
# "which side won, and the kills for each team", "the winner and kills per team": after a clause that asks who
# won (a winner word among its last words, not one a figure belongs to: "kills of the winner"), "and ..." names a
# second thing asked (the kill score), not more of the winner; it is a clause of its own.
_WON = re.compile(r"(?<!of the )(?<!by the )(?<!for the )(?<!to the )\b(?:won|win|winner|winners)\b"
                  r"(?:\s+\S+){0,4}?\s*[,:;-]?\s*$", re.IGNORECASE)
_AND_THE = re.compile(r"(?:\s*,\s*|\s+)and\s+(?!(?:by|how|when|why|where|with|who|whom|what|which|lost|lose|loses|"
                      r"it|its|that|those|them|then)\b)", re.IGNORECASE)


# A clause that asks who won the match the question is about ("who won it", "which side took it", "did we win", "was it
# a win"): a question of its own about the match, never a step on a leader the first clause named
_WINNER_SAID = (r"(?:(?:so\s+)?(?:who|which\s+(?:side|team)|what\s+(?:side|team))\s+(?:won|took|win|wins|got\s+the\s+w(?:in)?|"
                r"came\s+out\s+on\s+top)(?:\s+(?:it|that(?:\s+one)?|(?:the|that)\s+(?:game|match|one)))?"
                r"|(?:did|do)\s+(?:we|they|i|order|chaos|team\s*[12])\s+win(?:\s+(?:it|that(?:\s+one)?|(?:the|that)\s+"
                r"(?:game|match|one)))?|was\s+it\s+a\s+(?:win|w)|who\s+was\s+the\s+winner|the\s+winner|winner|"
                r"what\s+was\s+the\s+result|result)")
WINNER_ASKED = re.compile(r"^\s*(?:and\s+|&\s*|plus\s+|also\s+)?" + _WINNER_SAID + r"\s*[?.!]*\s*$", re.IGNORECASE)
# one said after a comma, a colon or a dash ("how many kills, who won"): a clause of its own
_WINNER_AFTER = re.compile(r"\s*[,:;]\s*|\s+[-–]\s+")


# Words that only say which match ("the game on 2025-03-05: winner"): before a winner, no clause of their own
_MATCH_ONLY = re.compile(r"\b(?:the|a|this|that|our|game|match|on|in|of|for|from|at|last|latest|recent|most|\d[\d./-]*)\b"
                         r"|[^\w]", re.IGNORECASE)


def _winner_cut(piece: str) -> list[str]:
    """The piece with a winner clause said after a comma, colon or dash cut off as its own clause, when what comes
    before it asks something (not only which match)."""
    for cut in _WINNER_AFTER.finditer(piece):
        if WINNER_ASKED.match(piece[cut.end():]) and _MATCH_ONLY.sub("", piece[:cut.start()]):
            return [piece[:cut.start()], piece[cut.end():]]
    return [piece]


def _after_a_winner(piece: str) -> list[str]:
    """The piece cut at "and the ..." after a clause that asks who won (see `_AND_THE`)."""
    cut = _AND_THE.search(piece)
    if cut is None or not _WON.search(piece[:cut.start()]):
        return [piece]
    return [piece[:cut.start()].strip(" ,;"), *_after_a_winner(piece[cut.end():])]


def clauses(question: str, vocab: Vocabulary) -> list[str]:
    """The question cut at the starts of new clauses, never inside a name of this match."""
    names = [(m.start, m.end) for m in find_mentions(question, vocab)]
    cuts, last = [], 0
    for m in _SPLIT.finditer(question):
        if any(start < m.end() and m.start() < end for start, end in names):
            continue
        piece = question[last:m.start()].strip(" ,;")
        if piece:
            cuts.append(piece)
        last = m.end()
    tail = question[last:].strip(" ,;")
    if tail:
        cuts.append(tail)
    if not any(start < end for start, end in names if _AND_THE.search(question, start, end)):
        cuts = [part for cut in cuts for part in _after_a_winner(cut) if part]
    cuts = [part for cut in cuts for part in _winner_cut(cut)]
    return _predicates_shared(cuts[:MAX_PARTS]) if len(cuts) > 1 else [question]


_COUNT_ALONE = re.compile(r"^\s*how\s+many\s+(?P<noun>(?:(?!(?:did|do|does|has|have|had|were|was|are|is)\b)\w+\s*){1,3}?)"
                          r"\s*[?.!]*\s*$", re.IGNORECASE)
_COUNT_SAID = re.compile(r"^\s*(?:and\s+)?how\s+many\s+(?:\w+\s+){1,3}?(?P<said>(?:did|do|does|has|have|had|were|was|are|is)"
                         r"\b.+)$", re.IGNORECASE)


def _predicates_shared(cuts: list[str]) -> list[str]:
    """Counts said bare before the one that says of whom and how ("how many kills and how many assists has X got"):
    each bare count is asked with that clause's words."""
    for i in reversed(range(len(cuts) - 1)):  # from the last, so a run of bare counts all take the words
        bare, said = _COUNT_ALONE.match(cuts[i]), _COUNT_SAID.match(cuts[i + 1])
        if bare and said:
            cuts[i] = f"how many {bare.group('noun').strip()} {said.group('said')}"
    return cuts


PlanFn = Callable[[str, tuple[str, ...]], QueryPlan]


def _already_answered(plan: QueryPlan, first: QueryPlan) -> bool:
    """A clause that asks only for a figure the first clause's answer already gives, for no one in particular, or
    for the same list ("who was on order? names and gods": the roster already names them)."""
    if plan.intent == Intent.EVENT_LIST and first.intent == Intent.EVENT_LIST and plan.metrics == first.metrics \
            and not plan.filters and plan.window is None:
        return True
    return (plan.intent == Intent.LOOKUP and not plan.filters and not plan.group_by and plan.window is None
            and bool(plan.metrics) and set(plan.metrics) <= set(first.metrics) and first.intent == Intent.RANKING)


def _subset(head: str, piece: str, first: QueryPlan, plan_one: PlanFn) -> QueryPlan | None:
    """"how many of those weren't to players" after a count: the first clause with the property said after it, or
    None when the clause is no such subset or the property adds nothing the plan can apply."""
    m = _OF_THOSE.match(piece)
    if m is None or not piece[m.end():].strip(" ?.!"):
        return None
    # "how many deaths were there, and how many of those were not to players": the count said without "were there"
    head = _THERE.sub("", unwidened(head))
    if not _ASKING.match(head):  # "deaths including pve, how many of them ...": the first clause said as a bare count
        head = f"how many {head}"
    plan = plan_one(f"{head} {piece[m.end():]}", ())
    narrowed = (plan.filters, plan.window, plan.windows, plan.condition) != \
        (first.filters, first.window, first.windows, first.condition)  # by a cause, a side, a window or a condition
    # a caveat of its own says the property was not read; one the first clause has too is about the first clause
    if plan.intent == Intent.REFUSE or not (narrowed or _part_figure(plan, first) or _other_figure(plan, first)) \
            or set(plan.caveats) - set(first.caveats):
        return None
    return plan


def _part_figure(plan: QueryPlan, first: QueryPlan) -> bool:
    """"X's damage, and how much of it hit gods": the clause's one figure is a part of the
    first clause's one figure (`is_part_of`: the same rows with a target or kind added), for the same subjects."""
    return len(plan.metrics) == 1 == len(first.metrics) and plan.filters == first.filters \
        and is_part_of(plan.metrics[0], first.metrics[0])


def _other_figure(plan: QueryPlan, first: QueryPlan) -> bool:
    """"X's damage received, and what part of that was mitigated": the clause names a figure of its own about the same
    subjects and time, asked beside the first clause's (both are answered, neither as a share of the other)."""
    return plan.intent == first.intent == Intent.LOOKUP and len(plan.metrics) == 1 == len(first.metrics) \
        and plan.metrics != first.metrics and plan.filters == first.filters and plan.window == first.window


_ASKING = re.compile(r"\s*(?:(?:and|so|ok|okay)\s+)?(?:how|what|which|who|whose|when|where|did|does|do|was|were|is|are)\b",
                     re.IGNORECASE)
# words that end a count and say only that it is the whole match's: "were there", "in the match", "in total"
_THERE = re.compile(r"(?:\s+(?:(?:were|was|are|is)\s+there|in\s+(?:the|this)\s+(?:match|game)|in\s+(?:total|all)|total|"
                    r"overall))+\s*[?.!]*\s*$", re.IGNORECASE)


_HOW_MANY = re.compile(r"^\s*(?:and\s+)?how\s+(?:many|often)\b", re.IGNORECASE)
# "how often was X killed by a tower, plus how many by the titan", "X's deaths: how many came from camps": a
# later clause that names only a cause leaves its death unsaid
_CAUSE_ONLY = re.compile(r"^(?P<ask>\s*(?:and\s+|&\s*|plus\s+|but\s+)?how\s+(?:many|often)(?:\s+(?:times|of\s+(?:them|those|these)))?)"
                         r"(?:\s+(?:were|was|came))?\s+(?=(?:to|by|from|at\s+the\s+hands\s+of)\s)", re.IGNORECASE)


def death_said(piece: str) -> str:
    """A clause after one about deaths, with its unsaid death put back: "plus how many by the titan" -> "plus how
    many died by the titan"; any other clause as it is."""
    return _CAUSE_ONLY.sub(lambda m: f"{m.group('ask')} died ", piece, count=1)


# A clause asking the time of what the clause before counted: "when", "what time(s)", "at what minute", "their times"
_TIME_ASKED = re.compile(r"\bwhen\b|\bwhat\s+(?:times?|minutes?)\b|\bat\s+what\b|\btimes\b|\btimestamps?\b",
                         re.IGNORECASE)
# ... of which it asks through a pronoun, or a first or last one: "it", "them", "the first one", "his last"
_LEANING = re.compile(r"\b(?:it|them|they|those|these|one|ones|his|her|their|its|first|last|earliest|latest|final)\b",
                      re.IGNORECASE)


def _times_of_counted(first: QueryPlan, piece: str) -> bool:
    """Whether `piece` asks the time (or times) of the objectives the first clause counted, leaning on them with a
    pronoun or a first or last one ("and when did he take the first one", "at what times did she get them")."""
    head = metric(first.metrics[0]) if first.metrics and first.intent != Intent.EVENT_LIST else None
    counted = head is not None and head.source is not None and head.source.table == "objectives"
    return counted and bool(_TIME_ASKED.search(piece)) and bool(_LEANING.search(piece))


# "..., and which one fell last", "... and who took the final one": one end of what the first clause counted
_ONE_END = re.compile(r"\bthe\s+(?P<end>first|last|earliest|latest|final)(?:\s+(?:one|of\s+(?:them|those|these)))?\b"
                      r"(?!\s+(?:minutes?|mins?|seconds?|\d|hits?|hitters?|hitting))|\b(?P<adverb>first|last)\s*[?.!]*\s*$", re.IGNORECASE)


def _end_of_counted(first_text: str, piece: str, first: QueryPlan, plan_one: PlanFn) -> QueryPlan | None:
    """The first or last of what a count counted, when the clause asks for it by that end ("how many fire giants
    fell, and who took the final one"): the count's list (`_listed`), its earliest or latest one alone; None when the
    clause asks no end, asks its time (the list answers that, `_times_of_counted`), or the count has no list."""
    said = _ONE_END.search(piece)
    if said is None or _TIME_ASKED.search(piece):
        return None
    listed = _listed(first_text, "what were they", first, plan_one)
    if listed is None:
        return None
    end = (said.group("end") or said.group("adverb")).lower()
    return listed.model_copy(update={"question": piece, "order": "asc" if end in ("first", "earliest") else "desc",
                                     "limit": 1, "shape": "auto"})


_IT = re.compile(r"\b(it|its)\b", re.IGNORECASE)


def _it_named(piece: str, first: QueryPlan, vocab: Vocabulary) -> str:
    """`piece` with "it" said as the one non-player the first clause is about ("the gold fury's damage taken, and
    when was it killed": the Gold Fury was killed), else `piece` as it is."""
    npcs = {str(v) for f in first.filters if f.op in ("=", "in") for v in f.values if v in vocab.npcs}
    if len(npcs) != 1 or not _IT.search(piece):
        return piece
    (npc,) = npcs
    return _IT.sub(lambda m: f"the {npc}" if m.group(1).lower() == "it" else f"the {npc}'s", piece)


def _of_one(first: QueryPlan, piece: str) -> bool:
    """"how many times did X die and who killed him": a bare "who" about the first clause's one player, whose count
    named no cause, asks who did it to that player (a question of its own), not who the first clause counted."""
    players = {v for f in first.filters if f.dimension == "player" and f.op == "=" for v in f.values}
    return bool(_PERSON.search(piece)) and len(players) == 1 and complement(first.filters) is None


def _rest(piece: str, first: QueryPlan, summarize: Callable[[QueryPlan], str]) -> QueryPlan | None:
    """"... how many by gods and how many by the rest": the first clause's count with its cause turned
    around, or None when the clause asks for no rest or the first clause counted by no cause."""
    if REST.search(piece) is None or first.parts or first.then is not None:
        return None
    filters = complement(first.filters)
    if filters is None:
        return None
    plan = first.model_copy(update={"question": piece, "filters": filters})
    return plan.model_copy(update={"summary": summarize(plan)})


# "..., and what were they", "which ones?", "name them", "list em": the things the clause before counted, by name
_LIST_THEM = re.compile(r"^\s*(?:and\s+|so\s+|also\s+|plus\s+)?(?:(?:what|which|who|wat|wich)\s+(?:were|was|are|r)\s+"
                        r"(?:they|those|these|them|em|'em)|(?:what|which|wich)\s+ones?(?:\s+(?:were\s+they|were\s+those))?|"
                        r"(?:can\s+you\s+|pls\s+|please\s+)?(?:name|list|show)\s+(?:me\s+)?(?:them|those|these|em|'em)"
                        r"(?:\s+(?:all|out|off))?)\s*(?:pls|please)?\s*[?.!]*\s*$", re.IGNORECASE)
# the listing question of a count, by its figure: the subject said as the first clause's one player or side
_LISTING = {"kills": {"player": "who did {s} kill", "team": "who killed team {o}"},
            "deaths": {"player": "who killed {s}"},  # a side's deaths to non-players have no kill of a side
            "items_purchased": {"player": "what items did {s} buy"},
            "match": {"kills": "list every kill", "deaths": "list every death"}}  # the match's, said of no one


def _listed(first_text: str, piece: str, first: QueryPlan, plan_one: PlanFn) -> QueryPlan | None:
    """A count, then "what were they": the list of the counted things with their times (a kill's victims, a death's
    killers, the objectives with who took them, a player's items in order), which says the count too; None when the
    clause asks no such list, or the count has no list of its own (a cause or a condition it cannot keep)."""
    if _LIST_THEM.match(piece) is None or first.intent != Intent.LOOKUP or len(first.metrics) != 1 \
            or first.condition is not None or first.windows or first.parts or first.then is not None:
        return None
    head = metric(first.metrics[0])
    listed: QueryPlan | None
    if head.source is not None and head.source.table == "objectives":
        listed = plan_one(f"{first_text.rstrip(' ?.!,')} and when", ())  # the objectives counted, with their times
    else:
        listed = _list_of(first, head.id, plan_one)
    if listed is None or listed.intent not in (Intent.EVENT_LIST, Intent.BUILD_ORDER) or listed.window != first.window:
        return None
    return listed.model_copy(update={"question": f"{first_text} {piece}"})


def _asked_list(first_text: str, piece: str, first: QueryPlan, plan_one: PlanFn) -> QueryPlan | None:
    """The count's list when the clause asks for it (`_listed`), which says the count; a count with no list of its
    own, with a caveat saying so; None when the clause asks no list."""
    if _LIST_THEM.match(piece) is None or first.intent != Intent.LOOKUP:
        return None
    listed = _listed(first_text, piece, first, plan_one)
    if listed is None and _BARE_WHO.match(piece):
        return None  # "how many players died to towers, and who were they": who was counted, named (one question)
    return listed or first.model_copy(update={"caveats": (
        *first.caveats, "Only the count is given: these are not listed one by one")})


def _list_of(first: QueryPlan, figure: str, plan_one: PlanFn) -> QueryPlan | None:
    """The listing question of a count of kills, deaths or items of one player or side (`_LISTING`), asked of the same
    window; a player's deaths keep who dealt them ("deaths to towers": those deaths listed)."""
    subjects = [(f.dimension, f.values[0]) for f in first.filters
                if f.dimension in ("player", "team") and f.op == "=" and len(f.values) == 1]
    causes = [f for f in first.filters if f.dimension in ("source", "source_kind")]
    said = _LISTING.get(figure, {}).get(subjects[0][0]) if len(subjects) == 1 else \
        _LISTING["match"].get(figure) if not first.filters else None
    if said is None or len(subjects) + len(causes) != len(first.filters) or (causes and figure != "deaths") \
            or (first.window is not None and figure == "items_purchased"):
        return None
    value = subjects[0][1] if subjects else ""
    window = f" {first.window.label}" if first.window is not None else ""
    listed = plan_one(said.format(s=value, o=3 - int(value) if isinstance(value, int) else value) + window, ())
    if causes and [f.dimension for f in listed.filters] != ["player"]:
        return None
    return listed.model_copy(update={"filters": (*listed.filters, *causes)}) if causes else listed


def _of_first_player(piece: str, first: QueryPlan, alone: QueryPlan, vocab: Vocabulary, plan_one: PlanFn) -> QueryPlan:
    """A clause that lists figures for no one after a clause about one player is about that player: "was Brisk fed?
    kills, gold and gpm" asks for Brisk's kills, gold and gpm, not the match's."""
    players = [f for f in first.focus if f in vocab.player_names]
    # split by what the player used or hit ("kills per ability") it is still theirs; split by who, it is everyone's
    if len(players) != 1 or len(first.focus) != 1 or alone.intent not in (Intent.LOOKUP, Intent.RANKING, Intent.BREAKDOWN) \
            or alone.filters or set(alone.group_by) & {"player", "team", "role", "god"} or find_mentions(piece, vocab):
        return alone
    return plan_one(f"{players[0]}'s {piece}", ())


# After a count of objectives, "the kills" (or last hits) of the next clause are those objectives' takes: "how many
# times did the fire giant fall, and who had the last hits" asks who took them
_THE_TAKES = re.compile(r"\b(?:the|those|these)\s+(?:kills?|last[\s-]*hits?|secures?|takes?|finishes?)\b", re.IGNORECASE)


def _takes_said_as_kills(piece: str, first: QueryPlan) -> str:
    objectives = first.metrics and (head := metric(first.metrics[0])).source is not None \
        and head.source.table == "objectives"
    return _THE_TAKES.sub("them", piece) if objectives and first.intent == Intent.LOOKUP else piece


def _own_clause(piece: str, first_text: str, first: QueryPlan, vocab: Vocabulary,
                plan_one: PlanFn) -> tuple[str, QueryPlan | None]:
    """A clause that neither narrows nor leans on the first: ("part", its plan), read as a follow-up of the first when
    it names no figure; ("skip", None) when the first's answer already gives it ("the richest player on each team and
    how much gold"); ("one", None) when the first clause already answers it ("... and when"); ("listed", None) when
    the first clause's list says the count asked."""
    piece = _takes_said_as_kills(piece, first)
    alone = _of_first_player(piece, first, plan_one(piece, ()), vocab, plan_one)
    if _already_answered(alone, first):
        return "skip", None
    if alone.intent == Intent.REFUSE or any(a.startswith("no figure named") for a in alone.assumptions):
        followed = plan_one(piece, (first_text,))
        adds_nothing = followed.intent == Intent.REFUSE or followed.summary == first.summary or _same_ask(followed, first)
        if adds_nothing and first.intent == Intent.EVENT_LIST and _HOW_MANY.match(piece):
            return "listed", None  # "which players did the towers kill, and how often": the list says how many
        if adds_nothing:
            return "one", None
        return "part", followed
    return "part", alone


_WORDING = {"question", "summary", "check", "compare", "caveats", "assumptions"}


def _same_ask(plan: QueryPlan, first: QueryPlan) -> bool:
    """Whether a clause read as a follow-up asks the first clause's figure again, its yes or no aside ("were we up
    gold at 15? by how much": the yes or no already says by how much)."""
    return plan.model_dump(exclude=_WORDING) == first.model_dump(exclude=_WORDING)


def _narrowed_or_caused(piece: str, first_text: str, first: QueryPlan, plan_one: PlanFn,
                        summarize: Callable[[QueryPlan], str]) -> QueryPlan | None:
    """A clause that narrows the first (`_rest`, `_subset`), that names only another cause of the first clause's
    deaths ("..., plus how many by the titan"), or that asks one end of what it counted (`_end_of_counted`); None for
    any other clause."""
    narrowed = _rest(piece, first, summarize) or _subset(first_text, piece, first, plan_one)
    by_cause = "deaths" in first.metrics and death_said(piece) != piece
    if narrowed is not None and not (by_cause and "deaths" not in narrowed.metrics):
        return narrowed
    if by_cause:
        caused = plan_one(piece, (first_text,))  # the first clause's deaths, by the cause this one names
        return caused if caused.intent != Intent.REFUSE else None
    return _end_of_counted(first_text, piece, first, plan_one)


# Two players' kills on each other, however said: "kill each other", "on one another", "each kill the other",
# "and vice versa", "both ways"
_RECIPROCAL = re.compile(r"\b(?:each\s+other|one\s+another|vice[- ]versa|(?:both|each)\s+ways?|the\s+other\s+way\s+a?round"
                         r"|each(?:\s+(?:one|of\s+them|of\s+the\s+two))?\s+(?:\w+\s+){0,2}?\w+\s+the\s+other)\b",
                         re.IGNORECASE)
# the figure of one player on another, by the figure the question names
_ONE_ON_ANOTHER = {"kills": "how many times did {x} kill {y}", "damage_dealt": "how much damage did {x} deal to {y}",
                   "damage_to_players": "how much damage did {x} deal to {y}", "healing_done": "how much did {x} heal {y}"}
_KILLED = re.compile(rf"\b(?:{KILL_VERB}|frag(?:s|ged)?)\b", re.IGNORECASE)


def each_other(question: str, vocab: Vocabulary, plan_one: PlanFn) -> QueryPlan | None:
    """Two players' figures on each other in one match ("did A and B kill each other", "A vs B: did each one slay the
    other"): A's kills (damage, healing) on B, then B's on A as a part, in the time said; None for any other
    question."""
    said = _RECIPROCAL.search(question)
    players = list(dict.fromkeys(m.name for m in find_mentions(question, vocab) if m.kind == "player"))
    asked = _ONE_ON_ANOTHER.get(next(iter(read_metrics(normalize(question)).ids), ""), "") or \
        (_ONE_ON_ANOTHER["kills"] if _KILLED.search(question) else "")
    if said is None or len(players) != 2 or not asked:
        return None
    a, b = players
    on_b, on_a = (plan_one(with_time_of(question, asked.format(x=x, y=y), vocab), ()) for x, y in ((a, b), (b, a)))
    if on_b.intent == Intent.REFUSE or on_a.intent == Intent.REFUSE:
        return None
    return on_b.model_copy(update={"question": question, "parts": (on_a,),
                                   "assumptions": (*on_b.assumptions, f"'{said.group(0)}' read as the figure of each "
                                                   "on the other")})


def plan_parts(question: str, vocab: Vocabulary, plan_one: PlanFn, dependent: Callable[[QueryPlan, str], QueryPlan | None],
               summarize: Callable[[QueryPlan], str] = lambda plan: plan.summary) -> QueryPlan | None:
    """The plan of a multi-part question, or None when it is one question. `plan_one(text, previous)` plans
    a clause (as a follow-up of `previous`); `dependent(first, clause)` plans a clause about the leader of
    `first`, or returns None when `first` has no leader."""
    pieces = clauses(question, vocab)
    if len(pieces) < 2:
        return None
    first = plan_one(pieces[0], ())
    if first.intent == Intent.REFUSE:
        return None
    parts: list[QueryPlan] = []
    head = first
    answered_list = False  # a clause asked for the list of what the first counted
    for piece in pieces[1:]:
        listing = _asked_list(pieces[0], piece, first, plan_one) if head is first and not parts else None
        if listing is not None:
            first = head = listing
            answered_list = True
            continue
        narrowed = _narrowed_or_caused(piece, pieces[0], first, plan_one, summarize)
        if narrowed is not None:
            parts.append(narrowed)
            continue
        if WINNER_ASKED.match(piece):  # "..., and who won it": the match's winner, a question of its own
            parts.append(plan_one("who won the match", ()))
            continue
        if _times_of_counted(first, piece):
            return None  # "how many towers did X take, and when did he get the first one": one question, the list
        piece = _it_named(piece, first, vocab)  # "the fire giant's damage, and when was it slain"
        if _POINTS_BACK.search(piece) and not _PERSON.search(piece) or _BARE_WHO.match(piece) and not _of_one(first, piece):
            return None  # "... and how much damage did each do", "... and who": one question
        if _PERSON.search(piece) or BARE_WHEN.match(piece):
            step = dependent(head, piece)
            if step is None:
                return None
            if step.then is None:
                # the pronoun was the first clause's one player: a question of its own, answered after the first
                parts.append(step)
                continue
            head = step
            continue
        how, own = _own_clause(piece, pieces[0], first, vocab, plan_one)
        if how == "one":
            return None  # "... and when": the first clause already answers it
        answered_list |= how == "listed"
        parts += [own] if own is not None else []
    if not parts and head is first and not answered_list:
        return None
    plan = head.model_copy(update={"question": question, "parts": tuple(p.model_copy(update={"question": p.question})
                                                                        for p in parts)})
    return plan
