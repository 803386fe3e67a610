"""Words that frame a question and ask nothing: who asks or how ("analyst here:", "quick one -", "asking for my
team", a speaker's label before a colon, "Coach: ..."), and asking for the ties ("with ties", "count the tied ones",
"tied players too"), which every board lists anyway (a tie shares its rank and is named). Both are cut before the
slot readers run, so neither is refused nor read as a name, and the reading is said.

A label before a colon is framing only when it names nothing the planner reads: no player, god, role or side, and
no word the planner knows other than the framing words below ("kills: who leads" or "first 10 minutes: ..." keep
their label, which is part of the question)."""

from __future__ import annotations

import re

from combat_analysis.planner.read.names import find_mentions, find_roles, find_teams
from combat_analysis.planner.read.words import unknown_words
from combat_analysis.planner.vocabulary import Vocabulary

# Who asks: a person's part in the game or around it ("analyst here", "a coach here")
_ASKER = (r"(?:analyst|analysts|coach|coaches|caster|manager|captain|capt|fan|viewer|streamer|observer|admin|mod|"
          r"scout|sub|noob|newbie|player|dev|developer|organi[sz]er|ref|referee|shoutcaster|commentator)")
# How it is asked: "quick one", "simple question", "random q"
_MANNER = r"(?:quick|short|simple|small|random|dumb|silly|easy|fast|real)\s+(?:one|q|question|query|check|ask)"
# For whom: "asking for my team", "asking on behalf of the squad"
_FOR_WHOM = (r"asking\s+(?:for|on\s+behalf\s+of)\s+(?:my|our|a|the)\s+"
             r"(?:team|squad|friends?|coach|captain|mates?|teammates?|group|clan|guild|crew|boys|org)")
_FRAME = rf"(?:(?:an?\s+|the\s+|your\s+)?{_ASKER}\s+here|(?:a\s+|one\s+)?{_MANNER}|{_FOR_WHOM})"
_LEAD = re.compile(rf"^\s*(?:(?:hey|hi|hello|yo|ok|okay|so)\b[\s,!]*)?{_FRAME}\s*(?:[:,;!.?]+|\s[-–—]|\s*$)\s*",
                   re.IGNORECASE)
_TAIL = re.compile(rf"(?:\s*[,;(]|\s+[-–—]|\s*[?!.])\s*{_FRAME}\s*\)?\s*[?!.]*\s*$", re.IGNORECASE)

# Ties asked for: an inclusion word before ("with ties", "count the tied ones", "including tied players") or after
# ("tied players too", "ties counted")
_TIED = r"(?:ties|tied(?:\s+(?:ones|players|people|gods|roles|sides|teams|entries|spots|ranks|places))?)"
_TIES = re.compile(
    r"(?:\s*[,;(]|\s+[-–—])?\s*\b(?:"
    r"(?:(?:and|plus|but)\s+)?(?:with|including|include|incl\.?|counting|count|list|listing|show|showing|keep|keeping)"
    rf"\s+(?:in\s+)?(?:the\s+|any\s+|all\s+)?{_TIED}(?:\s+(?:too|as\s+well|also|included|counted|listed))?"
    rf"|(?:(?:and|plus)\s+)?(?:the\s+|any\s+|all\s+)?{_TIED}\s+(?:too|as\s+well|also|included|counted|listed)"
    r")\b\s*\)?", re.IGNORECASE)

# Words a speaker's label may hold besides unknown ones ("analyst here:", "Q:", "quick one:")
_LABEL_WORDS = frozenset("here quick one q question query hey hi hello yo ok okay from the a an my our your team "
                         "asking for real random simple short".split())
_LABEL = re.compile(r"^\s*(?P<label>[^\s:?!,][^:?!,]{0,40}?)\s*:\s+(?=\S)")


def _is_label(label: str, vocab: Vocabulary) -> bool:
    words = label.lower().split()
    if not words or len(words) > 4 or find_mentions(label, vocab) or find_roles(label, vocab.roles) \
            or find_teams(label, vocab.winner_team):
        return False
    unknown = set(unknown_words(label.lower()))
    return all(w in unknown or w in _LABEL_WORDS for w in words)


def without_framing(question: str, vocab: Vocabulary) -> tuple[str, tuple[str, ...]]:
    """`question` without the words that frame it (module docstring), and the readings to say; the question as it
    is when nothing else would be left."""
    notes: list[str] = []
    text = question
    label = _LABEL.match(text)
    if label and _is_label(label.group("label"), vocab):
        notes.append(f"'{label.group('label').strip()}:' read as who asks, not as part of the question")
        text = text[label.end():]
    for pattern in (_LEAD, _TAIL):
        found = pattern.search(text)
        if found and re.search(r"\w", text[:found.start()] + text[found.end():]):
            notes.append(f"'{found.group(0).strip(' ,;:!.?()-–—')}' read as who asks, not as part of the question")
            text = text[:found.start()] + (" " if pattern is _LEAD else "") + text[found.end():]
    ties = [m for m in _TIES.finditer(text)]
    if ties:
        kept = _TIES.sub(" ", text)
        if re.search(r"\w", kept):
            notes.append(f"'{ties[0].group(0).strip(' ,;:!.?()-–—')}' read as listing the entries tied, which every "
                         "ranking does")
            text = kept
    if text == question:
        return question, ()
    text = " ".join(text.split()).strip(" ,;-–—")
    return (text, tuple(notes)) if re.search(r"\w", text) else (question, ())
