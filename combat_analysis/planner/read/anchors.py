"""A time window anchored on an event of the match instead of a clock: "before the first tower fell", "after first
blood", "since order lost its second phoenix", "right before the fire giant was taken", "until anyone died".

    find_anchor(question, vocab) -> Anchor | None

The event is read from the words (first blood, the first death, an objective with its place, its side and its kind,
or one player's own death, kill, assist or purchase of an item), and its time from the match (`Vocabulary.moments`:
the kills, objectives and purchases tables). Before an event is the
window up to its second, not including it (METRICS.md's "before minute N" is the same half-open window); after it,
the window from its second on, as "after minute N" is from 60N on; a list of events after it starts at the next
second, so the event itself is never listed as after itself (`Anchor.events`). The phrase is cut out of the
question, which is then read as any other question asked over that window ("which objective fell last before the fire
giant was killed": the last objective of the window). An event that never happened in this match is `Anchor.missing`: the
question is refused saying so, never answered over the whole match. A cross-match vocabulary has no moments, so no
anchor is read there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from combat_analysis.contracts.plan import TimeWindow
from combat_analysis.formatting import clock
from combat_analysis.planner.read.names import find_mentions, find_roles, find_teams
from combat_analysis.planner.vocabulary import Moment, Vocabulary

_BEFORE = (r"(?P<before>before|prior\s+to|until|till|til|up\s+(?:un)?to|leading\s+up\s+to|ahead\s+of|pre|"
           r"by\s+the\s+time(?:\s+that)?)")
_AFTER = r"(?P<after>after|since|following|post|once)"
_NEAR = r"(?:(?P<near>right|just|immediately|directly|shortly)\s+)?"
_PLACES = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
           "5th": 5, "sixth": 6, "6th": 6, "seventh": 7, "7th": 7, "eighth": 8, "8th": 8, "ninth": 9, "9th": 9,
           "tenth": 10, "10th": 10, "eleventh": 11, "11th": 11, "twelfth": 12, "12th": 12, "thirteenth": 13, "13th": 13,
           "fourteenth": 14, "14th": 14, "fifteenth": 15, "15th": 15, "last": -1, "final": -1}
_PLACE_WORDS = "|".join(sorted(_PLACES, key=len, reverse=True))
_PLACE = rf"(?P<place>{_PLACE_WORDS})"
_SIDE = r"(?P<side>order|chaos|team\s*[12]|team\s+(?:one|two))"
_OBJECTIVE = (r"(?P<obj>towers?|turrets?|phoenix(?:es)?|titans?|fire\s*giants?|gold\s*fur(?:y|ies)|objectives?|"
              r"structures?|buildings?|bosses|boss)")
# the event's own verb, said after it: "fell", "went down", "was taken", "got destroyed", "died"
_FELL = (r"(?:\s+(?:was|got|had|has|is|been|had\s+been|has\s+been|being)?\s*(?:fell|falls|fallen|falling|fall|"
         r"went\s+down|goes\s+down|going\s+down|came\s+down|come\s+down|coming\s+down|died|dies|dying|dropped|drops|"
         r"dropping|broke|broken|taken|taking|destroyed|killed|slain|secured|done|down|popped|lost|kill|take|"
         r"taken\s+down)(?![\w']))?")
_THE = r"(?:(?:the|a|an|their|its|his|her)\s+)?"
_TAKING = r"(?P<took>took|takes|take|got|gets|secured|secures|killed|kills|destroyed|destroys|slew|finished|took\s+down)"
_LOSING = r"(?P<lost>lost|loses|lose|gave\s+up|gives\s+up)"
# the events, each its own pattern, tried at the words after "before" or "after"
_FIRST_BLOOD = re.compile(rf"{_THE}(?:first\s+blood|fb|first\s+(?:kill|takedown)(?:\s+of\s+the\s+(?:match|game))?)"
                          r"(?:\s+(?:was\s+)?(?:drawn|taken|happened|got\s+taken|was\s+made))?", re.IGNORECASE)
_FIRST_DEATH = re.compile(r"(?:the\s+)?first\s+death|(?:anyone|anybody|someone|somebody)\s+(?:had\s+)?died|"
                          r"(?:the\s+)?first\s+(?:player|god|person|one)\s+(?:died|to\s+die)", re.IGNORECASE)
# "chaos took the first tower", "order lost its second phoenix"
_SIDE_DID = re.compile(rf"{_SIDE}\s+(?:{_TAKING}|{_LOSING})\s+{_THE}(?:{_PLACE}\s+)?{_OBJECTIVE}", re.IGNORECASE)
# "the first tower fell", "order's second phoenix", "the fire giant was taken", "the last objective"
_FELL_OBJECTIVE = re.compile(rf"{_THE}(?:{_PLACE}\s+)?(?:{_SIDE}(?:'s|s|')?\s+(?:(?:side|team)(?:'s|s|')?\s+)?)?"
                             rf"(?:(?P<place2>{_PLACE_WORDS})\s+)?{_OBJECTIVE}{_FELL}", re.IGNORECASE)
# one player's own event: "Brisk's first death", "his last kill", "zeus's 2nd assist", "she first died", "X died for
# the last time"; who is a name of the match (a player, or a god one player played) or a pronoun for the one named
_WORD = r"(?:[^\s,?!.;]|\.(?=[^\s,?!.;]))+"  # a dot inside a name ("zoe.rush") is its own
_WHO = rf"(?P<who>his|her|their|its|he|she|they|{_WORD}(?:\s+{_WORD}){{0,2}}?)"
_OWN = {"death": "death", "deaths": "death", "kill": "kill", "kills": "kill", "takedown": "kill", "takedowns": "kill",
        "assist": "assist", "assists": "assist", "died": "death", "got killed": "death", "was killed": "death",
        "got a kill": "kill", "got an assist": "assist", "killed someone": "kill", "killed anyone": "kill",
        "assisted": "assist", "scored a kill": "kill"}
_OWN_VERB = r"(?P<verb>died|got\s+killed|was\s+killed|got\s+a\s+kill|got\s+an\s+assist|killed\s+(?:someone|anyone)|assisted|scored\s+a\s+kill)"
_PLAYER_EVENT = re.compile(
    rf"(?:{_WHO}(?:'s|’s|s'|')?\s+{_PLACE}\s+(?P<noun>deaths?|kills?|takedowns?|assists?)"
    rf"|{_WHO.replace('who', 'who2')}\s+(?P<place2>first|last|final)\s+{_OWN_VERB.replace('verb', 'verb2')}"
    rf"|{_WHO.replace('who', 'who3')}\s+{_OWN_VERB.replace('verb', 'verb3')}\s+for\s+the\s+(?P<place3>{_PLACE_WORDS})\s+time)",
    re.IGNORECASE)
_PRONOUN = re.compile(r"his|her|their|its|he|she|they", re.IGNORECASE)
# each ends where a word does, so a longer reading gives way to a shorter one ("the first phoenix falling"); a player's
# own event is tried first, so "after his first kill" is never first blood
_EVENTS = tuple((kind, re.compile(rf"(?:{p.pattern})(?![\w'])", re.IGNORECASE)) for kind, p in (
    ("player", _PLAYER_EVENT), ("fb", _FIRST_BLOOD), ("death", _FIRST_DEATH), ("objective", _SIDE_DID),
    ("objective", _FELL_OBJECTIVE)))
_HEAD = re.compile(rf"\b{_NEAR}(?:{_BEFORE}|{_AFTER})\s+", re.IGNORECASE)
# One player's purchase of an item, said by the item's name: "after his blink rune", "before Brisk's first boots",
# "right after buying the soul gem"; the item itself is found by the name finder (`_purchase`)
_BOUGHT = r"(?:(?:buying|purchasing|getting|picking\s+up|completing|finishing)\s+)?"
_BUYER = rf"(?:(?P<who>his|her|their|{_WORD}(?:\s+{_WORD}){{0,2}}?)(?:'s|’s|s'|')?\s+)?"
_ITEM_PLACE = rf"(?:(?P<place>{_PLACE_WORDS})\s+)?"
_PURCHASE_WORDS = r"(?:\s+(?:purchase|buy|was\s+bought|got\s+bought|bought|was\s+done|finished|completed))?"
_PURCHASE_SAID = re.compile(_PURCHASE_WORDS, re.IGNORECASE)


def _purchase(question: str, at: int, vocab: Vocabulary) -> re.Match[str] | None:
    """The words at `at` naming one player's purchase of an item ("his blink rune"), whose buyer is a pronoun, one
    player, or unsaid; None when no item is named there."""
    for item in (m for m in find_mentions(question, vocab) if m.kind == "item" and m.start >= at):
        said = re.compile(rf"{_BOUGHT}(?:the\s+|a\s+|an\s+)?{_BUYER}{_ITEM_PLACE}(?P<item>{re.escape(item.said)})"
                          rf"{_PURCHASE_WORDS}(?![\w'])", re.IGNORECASE).fullmatch(question, at, _word_end(question, item.end))
        who = said.group("who") if said else None
        if said and (who is None or _PRONOUN.fullmatch(who) or _one_player(who, vocab) is not None):
            return said
    return None


def _word_end(question: str, end: int) -> int:
    """Where the words after an item's name that say it was bought end."""
    m = _PURCHASE_SAID.match(question, end)
    return m.end() if m else end


def _anchors(question: str, vocab: Vocabulary) -> list[tuple[re.Match[str], str, re.Match[str]]]:
    """(the preposition, the event's kind, the event's words) of each anchor said."""
    found = []
    for head in _HEAD.finditer(question):
        for kind, pattern in _EVENTS:
            m = pattern.match(question, head.end())
            if m and (kind != "player" or _said_who(m, vocab) is not None):
                found.append((head, kind, m))
                break
        else:
            bought = _purchase(question, head.end(), vocab)
            if bought is not None:
                found.append((head, "purchase", bought))
    return found


# "how long after first blood did the first tower fall": a time between two events, not a window
_HOW_LONG = re.compile(r"\bhow\s+(?:long|many\s+(?:minutes|seconds|mins|secs))\s*$", re.IGNORECASE)

_KINDS = {"tower": ("tower",), "turret": ("tower",), "phoenix": ("phoenix",), "titan": ("titan",),
          "fire giant": ("fire giant",), "gold fury": ("gold fury",), "boss": ("fire giant", "gold fury"),
          "structure": ("tower", "phoenix", "titan"), "building": ("tower", "phoenix", "titan"),
          "objective": ("tower", "phoenix", "titan", "fire giant", "gold fury")}
_NAMES = {"fire giant": "Fire Giant", "gold fury": "Gold Fury"}
_SIDE_TEAM = {"order": 1, "chaos": 2, "team 1": 1, "team1": 1, "team one": 1, "team 2": 2, "team2": 2, "team two": 2}
_SIDE_WORD = {1: "order", 2: "chaos"}


@dataclass(frozen=True)
class Anchor:
    """An event a window is anchored on: the words said, the window (None when the event never happened, with the
    reason in `missing`), what the event was (for the answer's note), the question without the words, and whether it
    was said as right next to the event ("just before": the one thing nearest it)."""

    said: str
    rest: str
    window: TimeWindow | None
    note: str = ""
    missing: str | None = None
    after: bool = False
    near: bool = False
    # the window of a list of events, which leaves the anchor's own event out: from the second after it ("the first
    # objective after the fire giant" is never that Fire Giant)
    events: TimeWindow | None = None
    # the event is a purchase: a build after it is the purchases of the `events` window, never that item itself
    purchase: bool = False


def _kind(obj: str) -> str:
    word = re.sub(r"\s+", " ", obj.lower())
    word = re.sub(r"(?:es|s)$", "", word) if not word.endswith("fury") else word
    word = {"fire giant": "fire giant", "firegiant": "fire giant", "gold furie": "gold fury", "goldfury": "gold fury",
            "bosse": "boss", "phoenix": "phoenix", "phoenixe": "phoenix", "gold furies": "gold fury"}.get(word, word)
    return "gold fury" if word.startswith("gold fur") else word


def _side(said: str | None) -> int | None:
    return None if said is None else _SIDE_TEAM.get(re.sub(r"\s+", " ", said.lower()))


def _objectives(m: re.Match[str], vocab: Vocabulary) -> tuple[list[Moment], str, str]:
    """The objectives of the kind (and side) said, in time order, and how the answer names them: whose, and what."""
    kind = _kind(m.group("obj"))
    kinds = _KINDS.get(kind, (kind,))
    team = _side(m.group("side"))
    found = [o for o in vocab.moments if o.kind in kinds]
    noun = _NAMES.get(kind, kind)
    if team is None:
        return found, "the", noun
    # a side's structures are its own ("order's first tower", "order lost its tower"); what a side took, killed or
    # secured is the one it took ("chaos took the first tower", "order's first fire giant")
    took = "took" in m.re.groupindex and m.group("took") is not None
    lost = "lost" in m.re.groupindex and m.group("lost") is not None
    if lost or (not took and set(kinds) <= {"tower", "phoenix", "titan"}):
        return [o for o in found if (o.target or "").lower().startswith(_SIDE_WORD[team])], \
            f"{_SIDE_WORD[team]}'s", noun
    return [o for o in found if o.team == team], f"team {team}'s", noun


def _ordinal(place: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth",
            9: "ninth", 10: "tenth", 11: "eleventh", 12: "twelfth", 13: "thirteenth", 14: "fourteenth",
            15: "fifteenth", -1: "last"}[place]


def _place(m: re.Match[str]) -> tuple[int, bool]:
    """The place said ("the second tower": 2; "the last": -1), 1 when none is, and whether one was said."""
    said = m.group("place") or ("place2" in m.re.groupindex and m.group("place2")) or None
    return (_PLACES[said.lower()], True) if said else (1, False)


def _event(kind: str, m: re.Match[str], vocab: Vocabulary) -> tuple[Moment | None, str, str]:
    """(the event, how it is named, what it was) for the words matched; the event None when it never happened."""
    if kind == "fb":
        blood = next((o for o in vocab.moments if o.kind == "first_blood"), None)
        return blood, "first blood", f"{blood.by} on {blood.target}" if blood else ""
    if kind == "death":
        death = next((o for o in vocab.moments if o.kind == "first_death"), None)
        return death, "the first death", f"{death.target}, killed by {death.by}" if death else ""
    found, whose, noun = _objectives(m, vocab)
    place, said = _place(m)
    named = f"{whose} {_ordinal(place)} {noun}" if said or len(found) > 1 else f"{whose} {noun}"
    if not found or place > len(found):
        return None, named, ""
    event = found[place - 1] if place > 0 else found[-1]
    return event, named, f"the {event.target}, taken by team {event.team}" if event.team else f"the {event.target}"


def _said_who(m: re.Match[str], vocab: Vocabulary) -> str | None:
    """The words naming whose event it is, when they are a pronoun or name one player of the match (a god one player
    played), else None."""
    who = next(m.group(g) for g in ("who", "who2", "who3") if m.group(g) is not None)
    if _PRONOUN.fullmatch(who):
        return who
    return who if _one_player(who, vocab) is not None else None


def _one_player(words: str, vocab: Vocabulary) -> str | None:
    """The one player the words name wholly (a player, or a god one player played), else None."""
    said = re.sub(r"(?:'s|’s|s'|')$", "", words.strip())
    mentions = [x for x in find_mentions(said, vocab) if x.kind in ("player", "god")]
    if len(mentions) != 1 or mentions[0].start > 0 or mentions[0].end < len(said.rstrip("'’")):
        return None
    one = mentions[0]
    played = [p.player for p in vocab.players_where(god=one.name)] if one.kind == "god" else [one.name]
    return played[0] if len(played) == 1 else None


def _named_in(question: str, vocab: Vocabulary) -> tuple[str, str] | None:
    """The one player a question names (players, and gods one player played), the one a pronoun points back to, with
    the words that name it."""
    found: dict[str, str] = {}
    for x in find_mentions(question, vocab):
        if x.kind == "player":
            found.setdefault(x.name, x.said)
        elif x.kind == "god":
            for p in vocab.players_where(god=x.name):
                found.setdefault(p.player, x.said)
    return next(iter(found.items())) if len(found) == 1 else None


def _player_event(m: re.Match[str], rest: str, vocab: Vocabulary) -> tuple[Moment | None, str, str, str | None]:
    """(the event, how it is named, what it was, why it cannot be read) of one player's own death, kill or assist.
    The reason names the player with the question's own words, so it says no figure the question did not."""
    who = _said_who(m, vocab) or ""
    named_in = _named_in(rest, vocab) if _PRONOUN.fullmatch(who) else (_one_player(who, vocab), who)
    if named_in is None or named_in[0] is None:
        return None, "", "", (f"'{who}' in '{m.group(0)}' points back to no one player: the rest of the question names "
                              "none or several, so whose event it is cannot be told.")
    player, words = named_in
    words = re.sub(r"(?:'s|’s|s'|')$", "", words)
    said = m.group("noun") or m.group("verb2") or m.group("verb3")
    kind = _OWN[re.sub(r"\s+", " ", said.lower())]
    place = _PLACES[(m.group("place") or m.group("place2") or m.group("place3")).lower()]
    own = [x for x in vocab.moments if x.kind == kind and x.by == player]
    named = f"{player}'s {_ordinal(place)} {kind}"
    if place > len(own):
        of = f"{'' if not own else _ordinal(place) + ' '}{kind} {'of' if kind == 'death' else 'by'} {words}"
        return None, named, "", (f"The combat log of this match records no {of} ('{m.group(0)}' never happened), so "
                                 "there is no time before or after it to read.")
    event = own[place - 1] if place > 0 else own[-1]
    what = {"death": f"killed by {event.target}", "kill": f"on {event.target}", "assist": f"on {event.target}"}[kind]
    return event, named, what, None


def _buyer(m: re.Match[str], rest: str, item: str, vocab: Vocabulary) -> str | None:
    """Whose purchase the words name: the player said, the one player a pronoun points back to, or, unsaid, the one
    player the question names or else the item's one buyer."""
    who = m.group("who")
    if who is not None and not _PRONOUN.fullmatch(who):
        return _one_player(who, vocab)
    named = _named_in(rest, vocab) or _role_player(rest, vocab)
    if named is not None or who is not None:
        return named[0] if named else None
    buyers = {x.by for x in vocab.moments if x.kind == "purchase" and x.target == item}
    return buyers.pop() if len(buyers) == 1 else None


def _role_player(question: str, vocab: Vocabulary) -> tuple[str, str] | None:
    """The one player a question names by role, with a side when both sides have one ("the order jungler")."""
    roles = {r.role: r.said for r in find_roles(question, vocab.roles)}
    teams = {t.team for t in find_teams(question, vocab.winner_team) if t.team is not None}
    if len(roles) != 1 or len(teams) > 1:
        return None
    (role, said), = roles.items()
    players = vocab.players_where(team=next(iter(teams), None), role=role)
    return (players[0].player, said) if len(players) == 1 else None


def _purchase_event(m: re.Match[str], rest: str, vocab: Vocabulary) -> tuple[Moment | None, str, str, str | None]:
    """(the purchase, how it is named, what it was, why it cannot be read) of one player's purchase of an item, the
    first unless a place is said ("his second boots", "her last potion")."""
    item = next(x.name for x in find_mentions(m.string, vocab) if x.kind == "item" and x.start == m.start("item"))
    player = _buyer(m, rest, item, vocab)
    if player is None:
        return None, "", "", (f"'{m.group(0)}' names no one buyer: whose purchase of {item} it is cannot be told, so "
                              "there is no time before or after it to read.")
    place = _PLACES[m.group("place").lower()] if m.group("place") else 1
    own = [x for x in vocab.moments if x.kind == "purchase" and x.by == player and x.target == item]
    named = f"{player}'s {_ordinal(place) + ' ' if m.group('place') else ''}{item} purchase"
    if place > len(own):
        return None, named, "", (f"The combat log of this match records no {_ordinal(place) + ' ' if own else ''}"
                                 f"purchase of {item} by {player} ('{m.group(0)}' never happened), so there is no time "
                                 "before or after it to read.")
    return (own[place - 1] if place > 0 else own[-1]), named, f"bought by {player}", None


def _missing(named: str, said: str) -> str:
    return (f"The combat log of this match records no {re.sub(r'^the ', '', named)} ('{said}' never happened), so "
            "there is no time before or after it to read.")


def _one(question: str, head: re.Match[str], kind: str, m: re.Match[str], vocab: Vocabulary) -> Anchor:
    """The window one anchor said ("after the first tower fell"), or what never happened."""
    rest = (question[:head.start()] + " " + question[m.end():]).strip()
    said = question[head.start():m.end()].strip()
    event, named, what, why = _player_event(m, rest, vocab) if kind == "player" else _purchase_event(m, rest, vocab) \
        if kind == "purchase" else (*_event(kind, m, vocab), None)
    after = head.group("after") is not None
    if event is None:
        return Anchor(said=said, rest=rest, window=None, missing=why or _missing(named, said), after=after)
    at = clock(event.second)
    near = head.group("near") is not None
    if not after:
        window = TimeWindow(label=f"before {named} at {at}", end_s=event.second)
        note = f"'{said}' read as the window before {named} at {at} ({what}), up to but not including its second"
        return Anchor(said=said, rest=rest, window=window, note=note, near=near, events=window)
    # from the event's time on (its own second included); a list of events starts after the event itself
    window = TimeWindow(label=f"from {named} at {at} on", start_s=event.second)
    note = f"'{said}' read as the window from {named} at {at} ({what}) on, its own second included"
    return Anchor(said=said, rest=rest, window=window, note=note, after=True, near=near,
                  events=TimeWindow(label=f"after {named} at {at}", start_s=event.second + 1), purchase=kind == "purchase")


def _meet(first: TimeWindow, second: TimeWindow) -> TimeWindow | None:
    """The time two windows share, or None when they share none."""
    start = max(first.start_s or 0, second.start_s or 0)
    ends = [w.end_s for w in (first, second) if w.end_s is not None]
    if ends and min(ends) <= start:
        return None
    return TimeWindow(label=f"{first.label} and {second.label}", start_s=start or None, end_s=min(ends) if ends else None)


def _both(first: Anchor, second: Anchor, rest: str) -> Anchor:
    """Two anchors said together ("after first blood and before the first tower fell"): the time between them."""
    if first.window is None or second.window is None:
        return first if first.window is None else second
    said = f"{first.said} and {second.said}"
    window = _meet(first.window, second.window)
    events = _meet(first.events or first.window, second.events or second.window)
    if window is None or events is None:
        return Anchor(said=said, rest=rest, window=None, after=first.after,
                      missing=f"'{first.said}' and '{second.said}' leave no time between them in this match, so there "
                              "is nothing to read in it.")
    return Anchor(said=said, rest=rest, window=window, note=f"{first.note}; {second.note}",
                  after=first.after and second.after, near=first.near or second.near, events=events)


def find_anchor(question: str, vocab: Vocabulary) -> Anchor | None:
    """The event (or the two events) the question anchors a window on, or None: none said, more than two, or a time
    between two events asked ("how long after first blood did ...")."""
    if vocab.duration_s is None or not vocab.players:
        return None  # across matches: no one match's events
    found = _anchors(question, vocab)
    if not found or len(found) > 2 or _HOW_LONG.search(question[:found[0][0].start()]):
        return None
    anchors = [_one(question, *f, vocab) for f in found]
    if len(anchors) == 1:
        return anchors[0]
    (h1, _, m1), (h2, _, m2) = found
    rest = re.sub(r"\s+(?:and|but|&)\s*$", " ", question[:h1.start()] + " " + question[m1.end():h2.start()]).strip()
    return _both(anchors[0], anchors[1], f"{rest} {question[m2.end():]}".strip())
