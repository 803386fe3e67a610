"""Players' slang for killing another player: "how many times did Brisk smoke zoe", "has the zeus dunked on the
anubis", "whom did she clap the most".

A slang verb of killing (`KILL_SLANG`, every inflection: "clap", "clapped", "clapping"; with or without "up", "on",
"out", "off", "down") said between two players (or gods one player played), or after "who/whom did <player>", is
written as the plain verb ("kill", "killed", "killing"), so the kills of the first on the second are read. Only
there: the same words elsewhere keep their own readings ("farmed" gold, "got stomped" dying, "a stomp").

    plain("how many times did Brisk dunk on zoe.rush", vocab) -> "how many times did Brisk kill zoe.rush"

Said in the passive, with the killer after "by" ("how many times was zoe.rush killed by Brisk", "zoe got ganked by
the zeus", "has Thor ever been deleted by Brisk"), the two are turned round into the active, so the same kills are
read: "did Brisk kill zoe.rush", "Brisk killed zoe".
"""

from __future__ import annotations

import re

from combat_analysis.planner.read.names import find_mentions
from combat_analysis.planner.vocabulary import Vocabulary

# base form -> (past forms, -ing forms); the particles any of them may take are `_PARTICLE`
_VERBS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "murder": (("murdered",), ("murdering",)),
    "farm": (("farmed",), ("farming",)),
    "smoke": (("smoked",), ("smoking",)),
    "clap": (("clapped", "clapt"), ("clapping",)),
    "body": (("bodied",), ("bodying",)),
    "wreck": (("wrecked", "rekt"), ("wrecking",)),
    "destroy": (("destroyed",), ("destroying",)),
    "delete": (("deleted",), ("deleting",)),
    "dunk": (("dunked",), ("dunking",)),
    "stomp": (("stomped",), ("stomping",)),
    "dumpster": (("dumpstered",), ("dumpstering",)),
    "frag": (("fragged",), ("fragging",)),
    "gank": (("ganked",), ("ganking",)),
    "merc": (("merced", "merked", "mercd"), ("mercing", "merking")),
    "merk": (("merked",), ("merking",)),
    "snipe": (("sniped",), ("sniping",)),
    "erase": (("erased",), ("erasing",)),
    "eliminate": (("eliminated",), ("eliminating",)),
    "execute": (("executed",), ("executing",)),
    "assassinate": (("assassinated",), ("assassinating",)),
    "obliterate": (("obliterated",), ("obliterating",)),
    "demolish": (("demolished",), ("demolishing",)),
    "melt": (("melted",), ("melting",)),
    "smash": (("smashed",), ("smashing",)),
    "crush": (("crushed",), ("crushing",)),
    "own": (("owned",), ("owning",)),
    "pwn": (("pwned",), ("pwning",)),
    "eat": (("ate", "eaten"), ("eating",)),
    "pick": (("picked",), ("picking",)),  # only with "off": "picked off"
    "take": (("took", "taken"), ("taking",)),  # only with "out" or "down"
    "finish": (("finished",), ("finishing",)),  # only with "off"
    "shut": (("shut",), ("shutting",)),  # only with "down"
    "drop": (("dropped",), ("dropping",)),
    "pop": (("popped",), ("popping",)),
    "end": (("ended",), ("ending",)),
    "one shot": (("one shotted", "one shot"), ("one shotting",)),
    "one-shot": (("one-shotted", "one-shot"), ("one-shotting",)),
    "oneshot": (("oneshotted", "oneshot"), ("oneshotting",)),
    "slay": (("slew", "slain", "slayed"), ("slaying",)),
    "shoot": (("shot",), ("shooting",)),  # only with "down"
}
# the verbs that are slang for killing only with their particle ("pick off", never "pick")
_NEEDS: dict[str, str] = {"pick": "off", "take": "out|down", "finish": "off", "shut": "down", "shoot": "down"}
KILL_SLANG: frozenset[str] = frozenset(f for base, (past, ing) in _VERBS.items() for f in (base, *past, *ing))
_FORM = {f: ("killed" if f in past else "killing" if f in ing else "kill")
         for base, (past, ing) in _VERBS.items() for f in (base, *past, *ing)}
_BASE = {f: base for base, (past, ing) in _VERBS.items() for f in (base, *past, *ing)}

_ALTERNATIVES = "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in sorted(KILL_SLANG, key=len, reverse=True))
_PARTICLE = r"(?:\s+(?P<particle>up\s+on|up|on|out|off|down|over))?"
_AUX = r"(?:(?:has|have|had|did|does|do|was|is|kept|keeps|keep|got|get|gets|go|goes|went|been|just|ever|really)\s+)*"
# between two names: the words after the first one, up to the second ("did A clap the B": " clap the ")
_BETWEEN = re.compile(rf"\s+{_AUX}(?P<verb>{_ALTERNATIVES}){_PARTICLE}\s+(?:the\s+)?$", re.IGNORECASE)
# after "who/whom did <name>", before "the most", "most", "more", "how many", a time or the end
_AFTER_WHO = re.compile(rf"\s+(?P<verb>{_ALTERNATIVES}){_PARTICLE}(?=\s+(?:the\s+)?(?:most|more|often|times|"
                        r"how)\b|\s*[?.!,]|\s*$)", re.IGNORECASE)
# the passive between the victim and the killer: " got ganked by the ", " has been killed by ", " was picked off by "
_KILLED = "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in sorted(
    {"killed", "slain", "executed", "murdered", *(f for past, _ in _VERBS.values() for f in past)}, key=len, reverse=True))
_PASSIVE = re.compile(rf"\s+(?:(?:has|have|had|was|were|is|got|gotten|get|gets|getting|being|been|ever|really|just|"
                      rf"actually)\s+)*(?P<verb>{_KILLED}){_PARTICLE}\s+by\s+(?:the\s+)?$", re.IGNORECASE)
# the auxiliary of a question said before the victim: "how many times WAS zoe killed by", "how often HAS thor been"
_AUX_BEFORE = re.compile(r"\b(?:was|were|is|has|have|had|did|does|do)\s+(?:the\s+)?$", re.IGNORECASE)
# the asker's "who" as the killer, the victim named after the verb: "who smoked zoe the most", "which enemy clapped B"
_WHO_VERB = re.compile(rf"\b(?:who|which\s+(?:enemy|enemies|player|players|god|gods|one|guy))\s+{_AUX}(?P<verb>{_ALTERNATIVES})"
                       rf"{_PARTICLE}\s+(?:the\s+)?$", re.IGNORECASE)
_WHO_DID = re.compile(r"\b(?:who|whom|which\s+(?:enemy|player|god|one))\s+(?:did|has|have)\s+(?:the\s+)?$", re.IGNORECASE)


def _taken(verb: str, particle: str | None) -> bool:
    """Whether the verb said with its particle is slang for killing."""
    need = _NEEDS.get(_BASE.get(re.sub(r"\s+", " ", verb.lower()), ""))
    return need is None or (particle is not None and re.fullmatch(need, particle.lower()) is not None)


def _plain(verb: str) -> str:
    return _FORM[re.sub(r"\s+", " ", verb.lower())]


def _one_player(m, vocab: Vocabulary) -> str | None:
    """The player a player's or god's mention names (a god one player played), else None."""
    if m.kind == "player":
        return m.name
    played = vocab.players_where(god=m.name)
    return played[0].player if len(played) == 1 else None


def active(question: str, vocab: Vocabulary) -> str:
    """The question with a kill said in the passive between two players turned round ("was B killed by A": "did A
    kill B"; "B got clapped by A": "A killed B"); the question as it was when there is none."""
    people = sorted((m for m in find_mentions(question, vocab) if m.kind in ("player", "god")), key=lambda m: m.start)
    for victim, killer in zip(people, people[1:], strict=False):
        said = _PASSIVE.match(question[victim.end:killer.start])
        if said is None or not _taken(said.group("verb"), said.group("particle")):
            continue
        # each named as the player (a god said is the one player who played it): "Zeus killed B" reads as no kills on B
        by, on = _one_player(killer, vocab), _one_player(victim, vocab)
        if by is None or on is None or by == on:
            continue
        aux = _AUX_BEFORE.search(question[:victim.start])
        start, words = (aux.start(), f"did {by} kill {on}") if aux else (victim.start, f"{by} killed {on}")
        return question[:start] + words + question[killer.end:]
    return question


# hitting said in the passive, the hitter after "by": "who got hit the hardest by A", "which enemy was damaged most by A"
_HIT_BY = re.compile(r"\b(?P<who>who|whom|which\s+(?:enemy|enemies|player|players|god|gods|one|opponent))\s+(?:got|get|gets|"
                     r"getting|was|were|is|are|has\s+been|had\s+been)\s+(?P<verb>hit|damaged|dmged|hurt|nuked|chunked)\s+"
                     r"(?P<how>(?:the\s+)?(?:hardest|most|harder|more))\s+by\s+(?:the\s+)?$", re.IGNORECASE)
_HIT_PLAIN = {"hit": "hit", "damaged": "damage", "dmged": "damage", "hurt": "hurt", "nuked": "hit", "chunked": "hit"}


def hits_active(question: str, vocab: Vocabulary) -> str:
    """The question with hitting said in the passive before its hitter turned round ("who got hit the hardest by A":
    "who did A hit the hardest"), so A is the one who hit; the question as it was when there is none."""
    for m in sorted((m for m in find_mentions(question, vocab) if m.kind in ("player", "god")), key=lambda m: m.start):
        said = _HIT_BY.search(question[:m.start])
        by = _one_player(m, vocab)
        if said is None or by is None:
            continue
        words = f"{said.group('who')} did {by} {_HIT_PLAIN[said.group('verb').lower()]} {said.group('how')}"
        return question[:said.start()] + words + question[m.end:]
    return question


# the plain verb between two names: "did A kill B", "A killed the B"
_KILL_BETWEEN = re.compile(rf"\s+{_AUX}(?:kill|kills|killed|killing)\s+(?:the\s+)?$", re.IGNORECASE)


def as_players(question: str, vocab: Vocabulary) -> str:
    """The question with a god said on either side of a plain kill between two names written as the one player who
    played it ("did Zeus kill Kraken_Mid": "did Brisk kill Kraken_Mid"), so a god and a player said together read
    as the two players; the question as it was when there is none."""
    people = sorted((m for m in find_mentions(question, vocab) if m.kind in ("player", "god")), key=lambda m: m.start)
    for first, second in zip(people, people[1:], strict=False):
        if "god" not in (first.kind, second.kind) or not _KILL_BETWEEN.match(question[first.end:second.start]):
            continue
        by, on = _one_player(first, vocab), _one_player(second, vocab)
        if by is None or on is None or by == on:
            continue
        return (question[:first.start] + by + question[first.end:second.start].replace(" the ", " ")
                + on + question[second.end:])
    return question


def plain(question: str, vocab: Vocabulary) -> str:
    """The question with each slang verb of killing said between two players, or after "who did <player>", as the
    plain verb; the question as it was when there is none. A kill or a hit said in the passive is first turned round
    (`active`, `hits_active`), and a god on either side of the plain verb is its player (`as_players`); an objective
    last hit was taken (`objectives_last_hit`)."""
    return as_players(_slang_plain(_whom_first(active(hits_active(objectives_last_hit(question), vocab), vocab), vocab),
                                   vocab), vocab)


# "Last hit" as a verb with an objective after it: the blow that took it ("who last hit the fire giant")
_LAST_HIT_OBJECTIVE = re.compile(r"\blast[\s-]?hit(?:s|ted|ting)?\s+(?P<what>(?:the\s+|a\s+|any\s+|an\s+|(?:order|chaos)(?:'s)?\s+)*"
                                 r"(?:fire\s+giants?|gold\s+fur(?:y|ies)|towers?|phoenix(?:es)?|titans?|bosses|boss|"
                                 r"objectives?|structures?)\b)", re.IGNORECASE)


def objectives_last_hit(question: str) -> str:
    """The question with an objective "last hit" said as taken: "who last hit the fire giant" -> "who took the fire
    giant" (the objectives of that kind with who took each)."""
    return _LAST_HIT_OBJECTIVE.sub(lambda m: f"took {m.group('what')}", question)


# "X killed whom", "X took out who": the question word after the verb, as "who did X kill" says it
_WHOM_AFTER = re.compile(r"\s+(?:killed|murdered|took\s+out|deleted)\s+(?:whom|who)\b", re.IGNORECASE)


def _whom_first(question: str, vocab: Vocabulary) -> str:
    """The question with "<player> killed whom" said as "who did <player> kill"."""
    for m in find_mentions(question, vocab):
        after = _WHOM_AFTER.match(question, m.end)
        if m.kind in ("player", "god") and after is not None:
            return f"{question[:m.start]}who did {question[m.start:m.end]} kill{question[after.end():]}"
    return question


def _slang_plain(question: str, vocab: Vocabulary) -> str:
    mentions = find_mentions(question, vocab)
    people = sorted((m for m in mentions if m.kind in ("player", "god")), key=lambda m: m.start)
    # a word that is a name of this match (an ability called "Assassinate") is that name, never a verb
    named = [(m.start, m.end) for m in mentions if m.kind not in ("player", "god")]
    out, last = [], 0
    for i, m in enumerate(people):
        if m.start < last:
            continue
        nxt = people[i + 1] if i + 1 < len(people) else None
        between = _BETWEEN.match(question[m.end:nxt.start]) if nxt is not None else None
        who = _WHO_VERB.search(question, last, m.start)
        if between is not None and _taken(between.group("verb"), between.group("particle")):
            span = (m.end + between.start("verb"), m.end + between.end("particle" if between.group("particle") else "verb"))
        elif who is not None and who.end() == m.start and _taken(who.group("verb"), who.group("particle")):
            span = (who.start("verb"), who.end("particle" if who.group("particle") else "verb"))
        elif _WHO_DID.search(question[:m.start]) and (after := _AFTER_WHO.match(question, m.end)) is not None \
                and _taken(after.group("verb"), after.group("particle")):
            span = (after.start("verb"), after.end("particle" if after.group("particle") else "verb"))
        else:
            continue
        if any(start < span[1] and span[0] < end for start, end in named):
            continue
        verb = question[span[0]:span[1]]
        said = re.match(rf"(?:{_ALTERNATIVES})", verb, re.IGNORECASE)
        out.append(question[last:span[0]] + _plain(said.group(0) if said else verb))
        last = span[1]
    return "".join(out) + question[last:] if out else question
