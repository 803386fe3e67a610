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

from combat_analysis.planner.read.names import Mention, find_mentions
from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary

# Who the asker is: the clause runs to the first comma, full stop, colon, question mark, semicolon, dash or "and".
# "were" typed for "we're" only opens a clause: after a word it is the verb ("the kills that were on X").
_IDENTITY = re.compile(r"(?:^|(?<=[\s,.;!?(]))(?:i'?m|i\s+am|i\s+was(?:\s+playing)?|i\s+played|playing(?:\s+as)?|as|"
                       r"we\s+(?:were|are|was|played)(?:\s+as)?|we['’]re|(?<!\w\s)were|our\s+(?:team|side)\s+(?:was|is))"
                       r"\s+(?:on\s+|the\s+|team\s+(?=\d|one|two))?(?P<who>[^,.;:!?()]+?)\s*(?=[,.;:!?()]|\s+-\s|\s+and\s|$)",
                       re.IGNORECASE)
_SIDE_WORDS = {"order": 1, "team 1": 1, "team one": 1, "1": 1, "one": 1,
               "chaos": 2, "team 2": 2, "team two": 2, "2": 2, "two": 2}
# a role word right after a side's possessive: "our carry", "their jungler" (the side, then the role), or its
# members said as such: "every enemy player", "our guys"
_ROLE_AHEAD = (r"(?=\s+(?:own\s+)?(?:support|supp|sup|jungle|jungler|jg|mid|middle|midlaner|mage|carry|adc|hunter|solo|"
               r"sololaner|toplaner|player|guy|god|laner)s?\b)")
_MINE = re.compile(r"\b(?:my|our)\s+(?:own\s+)?(?:team|side|squad|teammates)\b|\bours\b|\bwe\b|\bus\b"
                   # one of our roles: "our carry", "my jungler"
                   rf"|\b(?:my|our){_ROLE_AHEAD}", re.IGNORECASE)
_THEIRS = re.compile(r"\b(?:their|the\s+enemy|enemy|the\s+enemy's|the\s+other|other|the\s+opposing|opposing)\s+"
                     r"(?:team|side|squad)\b|\btheirs\b|\bthem\b|\bthe\s+(?:enemy|enemies|opponents?)\b"
                     # one of their roles, said with a word that points away from the asker: "their jungler", "the
                     # opposing solo", "enemy mid", "the other team's carry", "the opponent's support"
                     r"|\b(?:their|enemy|(?:the\s+)?opposing|(?:the\s+)?opponents?(?:'s|s'|')?|(?:the\s+)?other\s+"
                     rf"(?:team|side)(?:'s|s'|')?){_ROLE_AHEAD}", re.IGNORECASE)

# The asker facing the other side: "what gods was I up against", "who were we facing", "who did we play against"
_FACING = re.compile(r"\b(?:was|were|am|are)\s+(?:i|we)\s+(?:up\s+against|against|facing|fighting|playing(?:\s+against)?|"
                     r"versus|vs\.?)(?=\s*[?.!,;]|\s*$)|\bdid\s+(?:i|we)\s+(?:face|fight|play\s+against|go\s+against|"
                     r"go\s+up\s+against|vs\.?)(?=\s*[?.!,;]|\s*$)|\b(?:i|we)\s+(?:was|were)\s+(?:up\s+against|against|"
                     r"facing|fighting)(?=\s*[?.!,;]|\s*$)", re.IGNORECASE)
_OURS = re.compile(r"\bour\b", re.IGNORECASE)
# "they", once the asker has said who they are, is the other side ("as order: what did they score"), unless a
# "who" before it asks for someone it then points back to ("who got first blood for us, and what did they finish with")
_THEY = re.compile(r"\bthey\b", re.IGNORECASE)
_WHO_BEFORE = re.compile(r"\b(?:who|whom|whose|which\s+(?:player|god|one|guy)s?)\b", re.IGNORECASE)
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
    info = _player_of(mentions[0], vocab)
    if info is None or info.team is None:
        return None
    return info.team, f"{info.player}'s side"


def _player_of(m: Mention, vocab: Vocabulary) -> PlayerInfo | None:
    """The player a mention names: the player itself, or the first player of the god named."""
    return vocab.player(m.name) if m.kind == "player" else next(iter(vocab.players_where(god=m.name)), None)


# "our loki", "my own zeus": a player of the asker's side, named by player or god
_OWNED_BY_US = re.compile(r"\b(?:our|my)\s+(?:own\s+)?$", re.IGNORECASE)


def _our_players(text: str, mine: int, vocab: Vocabulary) -> tuple[str, list[str]]:
    """The text with each player or god said as ours ("our loki") replaced by the player of our side it names, and
    how each was read; a name that is nobody on our side is left as it was."""
    out, last, notes = [], 0, []
    for m in sorted(find_mentions(text, vocab), key=lambda m: m.start):
        owned = _OWNED_BY_US.search(text[last:m.start])
        if m.kind not in ("player", "god") or owned is None:
            continue
        ours = [p for p in ([vocab.player(m.name)] if m.kind == "player" else vocab.players_where(god=m.name))
                if p is not None and p.team == mine]
        if len(ours) != 1:
            continue
        out.append(text[last:last + owned.start()] + ours[0].player)
        notes.append(f"'{text[last + owned.start():m.end].strip()}' read as {ours[0].player}, of team {mine}")
        last = m.end
    return "".join(out) + text[last:], notes


def _they_as_theirs(text: str, other: int) -> str:
    """Each "they" with no "who" before it, as the other side."""
    return _THEY.sub(lambda m: m.group(0) if _WHO_BEFORE.search(text[:m.start()]) else f"team {other}", text)


def rewrite(question: str, vocab: Vocabulary) -> Perspective:
    """The question with "my team" and "theirs" as the teams they are, and "our <player or god>" as that player,
    when the asker said who they are."""
    for m in _IDENTITY.finditer(question):
        side = _side_of(m.group("who"), vocab)
        if side is None:
            continue
        # the clause may be said in brackets: "who were we facing (we were chaos)"
        rest = re.sub(r"\(\s*\)", " ", question[:m.start()] + question[m.end():]).strip(" ,;.:-")
        mine, whose = side
        other = 3 - mine
        rest, ours = _our_players(rest, mine, vocab)
        they_named = _they_as_theirs(rest, other)
        sides_said = bool(_MINE.search(rest) or _THEIRS.search(rest) or _OURS.search(rest)) or they_named != rest
        facing = bool(_FACING.search(rest))
        if not (sides_said or facing or ours):
            continue
        # facing first ("who were we facing" are the players of the other side; it holds no "they"), then theirs:
        # "their team" must not be read by the "team" of "my team"
        text = _FACING.sub(f"were on team {other}", they_named)
        text = _MINE.sub(f"team {mine}", _THEIRS.sub(f"team {other}", text))
        # what a side owns: "our towers", "their phoenixes"
        text = _OURS.sub(f"team {mine}'s", _THEIR_OWN.sub(f"team {other}'s", text))
        if facing and not sides_said:
            said = f"the asker read as on team {mine} ({whose}), facing team {other}"
        else:
            said = f"'my team' read as team {mine} ({whose}) and 'theirs' as team {other}"
        return Perspective(text, "; ".join((said, *ours)))
    return Perspective(question, None)


# A side named by one of its players or gods: "Brisk's team", "the zeus's side", "the team Brisk was on"
_SIDE_AFTER = re.compile(r"\s*(?:'s|’s|')?\s+(?:own\s+)?(?:team|side|squad)\b(?!\s*(?:mates?|fights?)\b)", re.IGNORECASE)
_SIDE_BEFORE = re.compile(r"\b(?:the\s+)?(?:team|side|squad)\s+(?:that\s+|which\s+)?$", re.IGNORECASE)
_ON_AFTER = re.compile(r"\s+(?:was|is|were|played|plays)\s+(?:on|for|in)\b", re.IGNORECASE)


def players_sides(question: str, vocab: Vocabulary) -> Perspective:
    """The question with each side said through one of its players ("Brisk's team", "the team LunaSol was on")
    named as that team, so it is read as the side, never as the player; a god one player played names that
    player's side. Across matches (no team per name) the question is left as it was."""
    out, last, notes = [], 0, []
    for m in sorted(find_mentions(question, vocab), key=lambda m: m.start):
        if m.kind not in ("player", "god") or m.start < last:
            continue
        info = _player_of(m, vocab)
        if info is None or info.team is None or (m.kind == "god" and len(vocab.players_where(god=m.name)) != 1):
            continue
        after = _SIDE_AFTER.match(question, m.end)
        before = _SIDE_BEFORE.search(question[last:m.start])
        on = _ON_AFTER.match(question, m.end) if before else None
        if after:
            out.append(question[last:m.start] + f"team {info.team}")
            last = after.end()
        elif before and on:
            out.append(question[last:last + before.start()] + f"team {info.team}")
            last = on.end()
        else:
            continue
        notes.append(f"'{m.said}'s side' read as team {info.team}, the side {info.player} played on")
    if not notes:
        return Perspective(question, None)
    return Perspective("".join(out) + question[last:], "; ".join(notes))


# A side's structures as what was hit: "damage to chaos's towers", "hit the order phoenixes" are the damage dealt to
# that side's Tower or Phoenix (by the other side), never the damage that side dealt
_OWNED_TARGET = re.compile(r"\b(?P<prep>to|against|on|into|at|hit|hitting|damaged|damaging)\s+(?:the\s+)?"
                           r"(?P<side>order|chaos)(?:'s|s'|')?\s+(?:(?:side|team)(?:'s|')?\s+)?"
                           r"(?P<kind>towers?|phoenix(?:es)?|titans?)\b", re.IGNORECASE)
_STRUCTURE = {"tower": "Tower", "phoenix": "Phoenix", "titan": "Titan"}


def owned_targets(question: str, vocab: Vocabulary) -> Perspective:
    """The question with each side's structures said as a target named as that structure ("to chaos's towers" ->
    "to the Chaos Tower"), when the match has it; the reading is stated."""
    notes: list[str] = []

    def named(m: re.Match) -> str:
        kind = next(v for k, v in _STRUCTURE.items() if m.group("kind").lower().startswith(k))
        name = f"{m.group('side').title()} {kind}"
        if name not in vocab.npcs:
            return m.group(0)
        notes.append(f"'{m.group(0)[len(m.group('prep')):].strip()}' read as the {name}, the structure hit")
        return f"{m.group('prep')} the {name}"

    text = _OWNED_TARGET.sub(named, question)
    return Perspective(text, "; ".join(notes) if notes else None)
