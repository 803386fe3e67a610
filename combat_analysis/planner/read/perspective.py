"""The asker's own side: "I'm Brisk, did my team out-farm theirs", "as chaos, how many kills did we get".

A question that says who the asker is ("I'm X", "im X", "I was X", "as X", "playing X", "I was on chaos", "we were
order") and then
speaks from that side ("my team", "our side", "we", "us", "their team", "theirs", "them", "the enemy") is rewritten
with the sides named: my team is X's team, theirs the other one. The clause that says who the asker is goes, so
the question is not read as one about X's own figures. Without both, the question is left as it was.

    rewrite("im Brisk, did my team earn more gold than theirs", vocab)
      -> Perspective("did team 2 earn more gold than team 1", "'my team' read as team 2, Brisk's side; ...")
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from combat_analysis.planner.read.names import find_mentions
from combat_analysis.planner.vocabulary import Vocabulary

# Who the asker is: the clause runs to the first comma, full stop, question mark, semicolon, dash or "and".
_IDENTITY = re.compile(r"(?:^|(?<=[\s,.;!?(]))(?:i'?m|i\s+am|i\s+was(?:\s+playing)?|i\s+played|playing(?:\s+as)?|as|"
                       r"we\s+(?:were|are|was|played)(?:\s+as)?|we'?re|our\s+(?:team|side)\s+(?:was|is))"
                       r"\s+(?:on\s+|the\s+|team\s+(?=\d|one|two))?(?P<who>[^,.;!?]+?)\s*(?=[,.;!?]|\s+-\s|\s+and\s|$)",
                       re.IGNORECASE)
_SIDE_WORDS = {"order": 1, "team 1": 1, "team one": 1, "1": 1, "one": 1,
               "chaos": 2, "team 2": 2, "team two": 2, "2": 2, "two": 2}
_MINE = re.compile(r"\b(?:my|our)\s+(?:own\s+)?(?:team|side|squad|teammates)\b|\bours\b|\bwe\b|\bus\b"
                   # one of our roles: "our carry", "my jungler" (the side, then the role)
                   r"|\b(?:my|our)(?=\s+(?:own\s+)?(?:support|supp|sup|jungle|jungler|jg|mid|middle|midlaner|mage|carry|"
                   r"adc|hunter|solo|sololaner|toplaner)s?\b)", re.IGNORECASE)
_THEIRS = re.compile(r"\b(?:their|the\s+enemy|enemy|the\s+enemy's|the\s+other|other|the\s+opposing|opposing)\s+"
                     r"(?:team|side|squad)\b|\btheirs\b|\bthem\b|\bthe\s+(?:enemy|enemies|opponents?)\b", re.IGNORECASE)

_OURS = re.compile(r"\bour\b", re.IGNORECASE)
_THEIR_OWN = re.compile(r"\b(?:their|the\s+enemy's|the\s+enemies')(?=\s)", re.IGNORECASE)


@dataclass(frozen=True)
class Perspective:
    text: str  # the question with the sides named and the asker's clause gone
    note: str | None  # how "my team" and "theirs" were read; None when nothing was rewritten


def _side_of(who: str, vocab: Vocabulary) -> tuple[int, str] | None:
    """The team of the asker's words: a side word, a player, or a god one player played."""
    said = re.sub(r"\s+", " ", who.strip(" ()[]").lower())  # "(we're order)": the brackets are no part of it
    if said in _SIDE_WORDS:
        return _SIDE_WORDS[said], said.title() if said in ("order", "chaos") else f"team {_SIDE_WORDS[said]}"
    mentions = [m for m in find_mentions(who, vocab) if m.kind in ("player", "god")]
    if len(mentions) != 1:
        return None
    m = mentions[0]
    info = vocab.player(m.name) if m.kind == "player" else next(iter(vocab.players_where(god=m.name)), None)
    if info is None or info.team is None:
        return None
    return info.team, f"{info.player}'s side"


def rewrite(question: str, vocab: Vocabulary) -> Perspective:
    """The question with "my team" and "theirs" as the teams they are, when the asker said who they are."""
    for m in _IDENTITY.finditer(question):
        side = _side_of(m.group("who"), vocab)
        rest = (question[:m.start()] + question[m.end():]).strip(" ,;.:-")
        if side is None or not (_MINE.search(rest) or _THEIRS.search(rest)):
            continue
        mine, whose = side
        other = 3 - mine
        # theirs first: "their team" must not be read by the "team" of "my team"
        text = _MINE.sub(f"team {mine}", _THEIRS.sub(f"team {other}", rest))
        # what a side owns: "our towers", "their phoenixes"
        text = _OURS.sub(f"team {mine}'s", _THEIR_OWN.sub(f"team {other}'s", text))
        return Perspective(text, f"'my team' read as team {mine} ({whose}) and 'theirs' as team {other}")
    return Perspective(question, None)
