"""The cue words of the intent families, as patterns over a reading's text (lower case, names masked as NAME).

Each pattern says what a question asks for in words: an event list ("first blood", "who won"), a build, a kill
list, objectives, a scoreboard, a breakdown, a dependent step ("the top damage dealer's ..."). `events`,
`figures` and `intents` read them; none of them decides anything by itself.
"""

from __future__ import annotations

import re

from combat_analysis.planner.read.words import CHAT_BUY_VERB, COUNT_SAID, PLACE_WORDS, ROLE_SAID

FIRST_BLOOD = re.compile(r"\bfirst\s+(blood|kill|takedown)\b|\bkilled\s+first\b"
                         r"|\bfirst\s+(?:player\s+|one\s+)?to\s+get\s+a\s+kill\b|\bfb\b|\bopened\s+the\s+scoring\b"
                         r"|\bdrew\s+first\s+blood\b")
# First blood by its own name ("first blood", "fb"): asked from either side, it is the first player kill, even where
# the words are a victim's ("who died first blood", "who was fb")
FIRST_BLOOD_NAMED = re.compile(r"\bfirst\s+blood\b|\bfb\b")
_FEW = r"(?:[^\s?.!,;]+\s+){0,4}?"  # a few words between an edge and its verb: "the first time the chaos mid died"
# The first or last death of any kind (METRICS.md: deaths from any source), not first blood: "who died first", "the
# first player to die", "the last death", "who got killed last".
# a count may come between the edge and the noun: "his last 3 deaths", "the first two kills" (`Shape.top` reads it)
_EDGE_COUNT = rf"(?:{COUNT_SAID}\s+)?"
DEATH_EDGE = re.compile(r"\b(?P<a>first|earliest|last|final|latest)\s+" + _EDGE_COUNT +
                        # the people who died, one or several ("the first three players to die", "first 2 ppl")
                        # of a side said between: "the first 3 chaos players to die"
                        r"(?:(?:order|chaos|team\s*(?:1|2|one|two))(?:'s)?\s+(?=(?:players?|people|ppl|guys?|gods?)\b))?"
                        r"(?:(?:players?|ones?|persons?|people|ppl|gods?|guys?|peeps)\s+)?"
                        # "to die" asks for people, each once (`dying`); "deaths" for deaths, a player's several
                        r"(?:(?P<dying>to\s+(?:die|be\s+killed|get\s+killed|fall|go\s+down))|death|deaths)\b"
                        r"|\b(?:died|die|dies|dying|(?:got|was|get)\s+killed)\s+(?:for\s+the\s+)?(?P<b>first|last)"
                        r"(?:\s+time)?\b"
                        # the edge before the verb: "when did Brisk first die", "when was she last killed"
                        r"|\b(?P<c>first|last)\s+(?:died|die|dies|(?:got|was|get)\s+killed)\b"
                        # "the first time Brisk died", "the last time she got killed"
                        rf"|\b(?P<d>first|last)\s+time\s+{_FEW}(?:died|die|dies|(?:got|was|get)\s+killed)\b")
# The first or last player kill ("the last kill of the game", "his first kill"): the match's first one is first blood.
# A kill word naming a count ("the final kill score", "final kill count", "kill tally") is no kill: the team kills.
KILL_EDGE = re.compile(r"\b(?P<a>first|earliest|last|final|latest)\s+" + _EDGE_COUNT + r"(?:kill|takedown|frag)s?\b"
                       r"(?![-\s]+(?:score|scores|scoreline|count|counts|tally|totals?|difference|split)\b)"
                       # the edge before the verb: "when did Brisk first get a kill", "when did she last score a kill"
                       r"|\b(?P<b>first|last)\s+(?:got|get|gets|scored|score|secured|secure|made|make|had)\s+"
                       r"(?:a\s+|an\s+|his\s+|her\s+|their\s+)?(?:kill|takedown|frag)\b"
                       # "the first time the zeus got a kill", "the last time she killed someone"
                       rf"|\b(?P<c>first|last)\s+time\s+{_FEW}(?:(?:got|get|scored|secured|made)\s+(?:a\s+)?kill|killed)\b")
# The first or last assist of a player, a side, a role or the match: "her first assist", "when did he last assist",
# "when did the support first get an assist", "assisted for the last time". A count ("final assist count") is no edge.
ASSIST_EDGE = re.compile(r"\b(?P<a>first|earliest|last|final|latest)\s+assists?\b"
                         r"(?![-\s]+(?:score|count|counts|tally|totals?)\b)"
                         r"|\b(?P<b>first|last)\s+(?:(?:got|get|gets|had|earned|picked\s+up|made)\s+"
                         r"(?:an?\s+|his\s+|her\s+|their\s+)?assists?|assisted|assists?)\b"
                         r"|\bassist(?:ed|s)?\b[^?.!,;]*?\bfor\s+the\s+(?P<c>first|last)\s+time\b"
                         rf"|\b(?P<d>first|last)\s+time\s+{_FEW}(?:(?:got|get|had|earned)\s+(?:an\s+)?assist|assisted)\b")


def edge_said(m: re.Match[str]) -> str:
    """'first' or 'last': which end of a player's (side's, role's) events an edge cue asks for."""
    said = next((g for g in (m.groupdict().get(k) for k in "abcd") if g), "first")
    return "last" if said in ("last", "final", "latest") else "first"
WINNER = re.compile(r"\b(won|win|wins|winner|winners|winning|victory|victorious|lost|lose|loser|losers|outcome|result|beat)\b")
# A place in a build list ("his second item", "the 3rd thing she bought"): the purchase at that place.
PURCHASE_PLACE = re.compile(r"\b(?P<n>" + PLACE_WORDS + r")\s+(?:\w+\s+){0,2}?(?:purchases?|buys?|items?|things?|"
                            r"name|copy|one)\b")
BUILD = re.compile(r"\bbuild(s|ing)?\b|\bbuilt\b|\bbuild\s+order\b|\bitems?\b.*\b(buy|bought|purchas\w*|get|got|pick\w*|have|had|use[ds]?)\b|"
                   r"\b(buy|bought|purchas\w*)\b.*\bitems?\b|\bwhat\s+did\s+name\s+(buy|purchase)\b|\bwhat\s+did\s+.*\b(buy|purchase)\b|"
                   rf"\bwhat\s+did\s+.*\b{CHAT_BUY_VERB}\b|"
                   r"\bwho\s+(bought|purchased|built)\b|\bshopping\s+list\b|\binventory\b|\bname\s+items?\b"
                   r"|\b(?:first|last|final|latest|earliest|opening|starting|next|" + PLACE_WORDS + r")\s+"
                   r"(?:\d+\s+|\w+\s+)?(?:purchases?|buys?|items?|things?\s+(?:\w+\s+){0,2}(?:bought|purchased|got))\b"
                   r"|\bname's\s+purchases\b|\b(?:buyers?|purchasers?)\b"
                   # a place in the build with the item left unsaid: "when did she buy her second one"
                   rf"|\b(?:buy|bought|buys|buying|purchas\w*|{CHAT_BUY_VERB})\s+(?:\w+\s+){{0,2}}?(?:{PLACE_WORDS})\s+"
                   r"(?:one|thing)\b")
# What gold went on is the items bought, not a sum of gold: "what did X spend his gold on", "where did her gold go"
GOLD_WENT_ON = re.compile(r"\bwhat\s+(?:did|does|do|has|had)\s+.*\b(?:spend|spent|blow|blew|waste|wasted)\s+(?:\w+\s+)?"
                          r"(?:gold|money)\s+on\b|\bwhere\s+did\s+(?:\S+\s+){0,2}?(?:gold|money)\s+go\b")
# When a named item was bought: "when did X buy his first <item>", "what minute did X get <item>", "how early was
# <item> built" (with an item named: "when did X get his first kill" is no purchase)
ITEM_WHEN = re.compile(r"\b(?:when|what\s+time|what\s+minute|at\s+what\s+(?:time|minute|point)|how\s+(?:early|late|soon|fast))\b"
                       r".*\b(?:buy|buys|bought|buying|purchas\w*|get|gets|got|getting|grab\w*|pick\w*|build|builds|built|"
                       r"complet\w*|finish\w*|rush\w*)\b")
# Who bought a named item, or when, with the buying verbs of chat: "who rushed <item> first and when", "who copped
# <item>", "who picked up <item> first"
BUY_VERB = rf"(?:buy|buys|bought|buying|purchas\w*|{CHAT_BUY_VERB}|get|gets|got|getting|build|builds|built|complet\w*)"
ITEM_BUYER = re.compile(rf"\bwho\b.*\b{BUY_VERB}\b|\b{BUY_VERB}\b.*\bwhen\b")
# A build's first or last purchases: "his first 3 items", "the last purchase", "who bought Blink Rune first"
BUILD_EDGE = re.compile(r"\b(?P<a>first|earliest|opening|starting|last|final|latest)\b")
# The purchases after the first one (the starter): "the next two after her starter", "his 3 buys after the first item"
AFTER_FIRST_BUY = re.compile(r"\bafter\s+(?:(?:his|her|their|the|its|my|your|that|name)(?:'s)?\s+|\S+'s\s+)?(?:starter|starting\s+item|start(?:ing)?\s+buy|"
                             r"first\s+(?:item|buy|purchase|thing))s?\b")
NEXT_N = re.compile(r"\b(?:next|following|other)\s+(?P<n>\d{1,2}|two|three|four|five|six)\b"
                    r"|\b(?P<m>\d{1,2}|two|three|four|five|six)\s+(?:\w+\s+)?(?:items?|buys?|purchases?|things?)\s+after\b")
KILL_LIST = re.compile(r"\b(kill\s*feed|kill\s+list|list\s+(?:of\s+|all\s+(?:the\s+)?|the\s+)?kills|every\s+kill|all\s+(?:the\s+)?kills|"
                       r"each\s+kill|who\s+killed|who\s+did\s+name\s+kill|when\s+did\s+name\s+die|whom\s+did|killed\s+by\s+whom|"
                       r"who\s+was\s+killed\s+by|kills?\s+timeline|show\s+(?:me\s+)?(?:the\s+)?kills)\b")
OBJECTIVE_WORDS = re.compile(r"\b(objectives?|towers?|phoenix(?:es)?|titans?|gold\s+fur(?:y|ies)|fire\s+giants?|bosses|structures?)\b"
                             r"|\bwhat\s+(?:was\s+|got\s+)?(?:fell|falls|fall|destroyed|taken|went\s+down|came\s+down)\b")
OBJECTIVE_LIST = re.compile(r"\b(when|list|show|which|what|who|timeline|order|sequence|took|destroyed|killed|fell|fall|"
                            r"taken|secured|go\s+down|went\s+down)\b")
# The kinds of objective a word for all of them covers: "structures", "bosses" (METRICS.md: entity kinds)
STRUCTURE_OBJECTIVES = ("tower", "phoenix", "titan")
BOSS_OBJECTIVES = ("gold fury", "fire giant")
# the bosses by their players' short names too ("fg", "gf"), as the catalog reads their figures
OBJECTIVE_VALUES = [("tower", r"towers?"), ("phoenix", r"phoenix(?:es)?"), ("titan", r"titans?"),
                    ("gold fury", r"gold\s+fur(?:y|ies)|gfs?"), ("fire giant", r"fire\s+giants?|fgs?")]
TOGETHER = re.compile(r"\b(combined|together|altogether|between\s+them|in\s+total|total)\b")
# A last hit is a killing blow, never the last of something: "the most tower last hits", "who last-hit the phoenixes"
LAST_HITS = re.compile(r"\blast[\s-]?hit(?:s|ting)?\b|\b(?:killing|final)\s+blows\b")
FIRST_OR_LAST = re.compile(r"\b(first|earliest|opening|last|final|latest)\b")
MATCH_FACTS = re.compile(r"\bhow\s+long\b|\b(match|game)\s+last(ed)?\b|\bhow\s+many\s+minutes\s+(did|was|were)\s+(the\s+)?(match|game)\b|\b(match|game)\s+(length|duration|time)\b|\bduration\b|"
                         r"\bwhen\s+did\s+the\s+(match|game)\s+(end|start|begin|finish)\b|\b(?:match|game)\s*id\b|\blength\s+of\s+the\s+(match|game)\b")
# The match's own clock edges (METRICS.md: its first and last combat, item or reward event), asked of the match, the
# game or the log with any word for a time: "what time did the game kick off", "when does the log stop"
_MATCH_NOUN = r"(?:match|game|log|combat\s+log|action|fighting)"
MATCH_START = re.compile(rf"\b(?:when|wh?at\s+time|at\s+wh?at\s+(?:time|hour))\b[^?.]*\b{_MATCH_NOUN}\s+(?:\w+\s+)?"
                         r"(?:start|started|starts|begin|began|begins|kick(?:ed|s)?\s+off|get\s+going|open|opened)\b"
                         rf"|\b(?:start|beginning|kick[\s-]?off)\s+(?:time\s+)?of\s+the\s+{_MATCH_NOUN}\b"
                         rf"|\b(?:first|earliest)\s+(?:event|thing|line|entry)\s+(?:in|of)\s+the\s+{_MATCH_NOUN}\b"
                         rf"|\b{_MATCH_NOUN}\s+start\s+time\b")
MATCH_END = re.compile(rf"\b(?:when|wh?at\s+time|at\s+wh?at\s+(?:time|hour))\b[^?.]*\b{_MATCH_NOUN}\s+(?:\w+\s+)?"
                       r"(?:end|ended|ends|finish|finished|finishes|stop|stopped|stops|close|closed|wrap(?:ped)?\s+up)\b"
                       rf"|\b(?:end|finish)\s+(?:time\s+)?of\s+the\s+{_MATCH_NOUN}\b"
                       r"|\b(?:last|final|latest)\s+(?:event|thing|line|entry)\b"
                       rf"|\b{_MATCH_NOUN}\s+end\s+time\b")
_ROLE = rf"(?:{ROLE_SAID})"
_SIDE_BARE = r"(?:order|chaos|team\s*[12]|team\s+(?:one|two)|blue|red)"
_SIDE = rf"(?:{_SIDE_BARE}(?:'s|s)?\s+(?:(?:side|team)(?:'s)?\s+)?)"
ROSTER = re.compile(r"\bwho\s+(played|was\s+playing|picked(?!\s+up))\b|\b(which|what)\s+(role|god|team)\s+(is|was|did|does|were)\b|"
                    r"\bwhat\s+(gods|roles)\s+were\b|\b(?:which|what)\s+(?:gods|roles|players)\s+(?:were|was)\s+(?:on|in|for)\b|\b(list|show)\s+(me\s+)?(the\s+|all\s+)?players\b|\broster\b|"
                    r"\bline\s*ups?\b|\bwho\s+(was|were|is|are)\s+(on|in)\s+team\b|\bwhich\s+players\s+(were|are)\s+on\b|"
                    r"\bplayed\s+(as\s+)?(which|what)\b|\bteam\s+compositions?\b|\bwho\s+were\s+the\s+players\b"
                    # a side's players: "who was on order", "who played for chaos", "names and gods"
                    r"|\bwho(?:'s|s|\s+(?:was|were|is|are|played))\s+(?:on|in|for)\s+(?:the\s+)?(?:order|chaos|winning|losing|"
                    r"winners|losers|blue|red)\b|\bnames?\s*(?:and|\+|&|,|with|n)\s*(?:their\s+|the\s+)?(?:gods|roles)\b"
                    # a side's names asked for with no figure: "list the order team", "chaos side names please"
                    rf"|\b(?:list|name)\s+(?:me\s+)?(?:the\s+)?{_SIDE_BARE}(?:'s|s)?\s+(?:side|team)\b"
                    rf"|\b{_SIDE}names\b|\bnames\s+(?:pls|plz|please)\b"
                    # the players of the side that won (lost): "which players won", "who was on the winning side"
                    r"|\b(which|what)\s+(players|people)\s+(who\s+|that\s+)?(won|lost)\b"
                    r"|\bwho\s+(was|were|is|are)\s+(on|in)\s+the\s+(winning|losing|victorious|defeated)\s+(side|team)\b"
                    r"|\b(list|name|show)\s+(me\s+)?the\s+(winners|losers|winning\s+players|losing\s+players"
                    r"|(players|people)\s+(who|that)\s+(won|lost))\b"
                    # a pick is a god: "what did the order mid pick", "what did name lock in"
                    r"|\b(?:what|which)\s+(?:did|does|do)\s+(?:the\s+)?(?:\w+\s+){1,3}?(?:pick|lock\s+in|lock)\b(?!\s+up)"
                    # a god asked for with no figure: "and what god", "the order support's god", "chaos's gods"
                    r"|\b(?:and|\+|&|with|n)\s+(?:(?:what|which|their|his|her)\s+)?gods?\b|'s?\s+gods?\b"
                    # the gods themselves, asked with no figure: "which gods was chaos running", "order's five gods"
                    r"|\bgods\b(?!\s+(?:abilit|skill|kit))|\bpicks\b(?!\s+up)"
                    r"|\b(?:what|which)\s+gods?\s*[?.!]*\s*$"
                    # who filled a role of a side: "who was chaos's mid", "who's the order jungler", "who is team 2 support"
                    rf"|\bwho(?:'s|s)?\s+(?:(?:was|is|were|are)\s+)?(?:the\s+)?{_SIDE}{_ROLE}\b"
                    rf"|\bwho\s+(?:was|is|were|are)\s+(?:the\s+)?{_ROLE}\s+(?:for|on|of|in)\s+(?:the\s+)?{_SIDE_BARE}\b")
# A subject's identity in the match, asked with a verb of playing or a word for the role or the god: "what did name
# play", "which god was name on", "name's lane", "what position and god did the zeus have", "what was name running".
# It is the roster's row of that subject (team, role and god) when the question names a subject and no figure
# (`events.roster`); "how did name play" asks how well, and stays a figure.
_PLAYING = (r"(?:play(?:s|ed|ing)?|main(?:s|ed|ing)?|run(?:s|ning)?|ran|pick(?:s|ed|ing)?|lock(?:s|ed)?\s+in|"
            r"queue[ds]?\s+(?:as|up\s+as)|go|went|on)(?:\s+as)?")
IDENTITY_NOUN = r"(?:roles?|lanes?|positions?|spots?|gods?|characters?|champs?|heroe?s?|picks?(?!\s+up\b))"
IDENTITY = re.compile(rf"\b(?:what|which|wat|wut)\b(?:\s+\S+){{0,4}}?\s+{_PLAYING}\s*[?.!]*(?:\s+(?:this|that|in\s+the|"
                      r"last)\s+(?:match|game|round|one))?\s*[?.!]*$"
                      rf"|\b{IDENTITY_NOUN}\b(?!\s+(?:damage|dmg|kills?|deaths?|gold|healing|abilit\w*|skills?|items?))")
POSITIONS = re.compile(r"\bwhere\b.*\b(die|died|dying|death|deaths|kill|kills|killed|fights?|fought|ganks?)\b|"
                       r"\bheat\s*maps?\b|\b(kill|death)\s+(positions?|locations?|map)\b")
WHAT_HAPPENED = re.compile(r"\bwhat\s+happened\b|\bkey\s+moments\b|\bkey\s+events\b")
_WHOM = r"(?:(?:the\s+)?name|he|she|they|him|her)"  # "the name": a god said with its article ("the loki")
DEATH_RECAP = re.compile(rf"\bhow\s+did\s+{_WHOM}\s+die\b|\bwhat\s+killed\s+{_WHOM}\b|\bwhy\s+did\s+{_WHOM}\s+(?:die|keep\s+dying)\b|"
                         rf"\bhow\s+(?:was|did)\s+{_WHOM}\s+(?:get\s+)?killed\b|\b(?:name|his|her|their)\s*(?:'s\s+)?death\s+recaps?\b")
SCOREBOARD = re.compile(r"\b(scoreboard|summary|summari[sz]e|overview|stats|statistics|stat\s+line|box\s+score|"
                        r"analy[sz]e|analy[sz]ing|analysis|assess|assessment|evaluate|evaluation|review|report\s+card|how\s+did\s+.+\s+(do|play|perform|fare)|"
                        r"performance|perform|recap|tell\s+me\s+about|how\s+was|how\s+did\s+the\s+(match|game)\s+go|how\s+.+\s+(did|went))\b")
BREAKDOWN = re.compile(r"\b(break\s*down|broken\s+down|breakdown|split|distribution|distributed|composition|made\s+up|"
                       r"by\s+(?:ability|abilities|skill|item|target|source|phase)|per\s+(?:ability|skill|item|target|phase)|"
                       r"where\s+did\b.*\bgo|which\s+sources?|what\s+sources?|use[ds]?|using|each|every|all|list)\b")
RECEIVED = re.compile(r"\b(take|takes|took|taken|taking|receive|received|absorb|absorbed|suffer|suffered)\b")
BASIC_ATTACKS = re.compile(r"\bbasic\s+attacks?\b|\bauto\s*attacks?\b|\bautos\b")
# Basic attacks set against the other abilities: "with abilities or basic attacks", "autos vs skills"
_ABILITY_WORDS = r"(?:abilities|ability|skills?|spells?|ults?|ultimates?)"
_BASIC_WORDS = r"(?:basic\s+attacks?|auto\s*attacks?|autos?|basics|aa)"
_VERSUS = r"\s+(?:or|vs\.?|versus|against|and|compared\s+(?:to|with)|than|over)\s+(?:(?:with|from|by|using|the|his|her|their)\s+)*"
# the rest of a figure beside basic attacks: "autos and everything else", "basic attacks vs the rest"
_OTHER_WORDS = rf"(?:{_ABILITY_WORDS}|everything\s+else|anything\s+else|the\s+rest|other\s+(?:stuff|things|sources)|" \
               r"non[\s-]*(?:basic|auto)s?(?:\s+attacks?)?|not\s+autos|everything\s+besides)"
# a few words may come between the two kinds ("how many came from autos and how many from abilities"), within a clause
# ("other than basic attacks" leaves them out: exclusions.py)
_BETWEEN = r"(?:\s+[^\s.?!;]+){0,6}?\s+(?:or|vs\.?|versus|and|(?<!other\s)than|against|compared\s+(?:to|with))\s+(?:[^\s.?!;]+\s+){0,5}?"
ATTACK_KINDS = re.compile(rf"\b{_ABILITY_WORDS}{_VERSUS}{_BASIC_WORDS}\b|\b{_BASIC_WORDS}{_VERSUS}{_OTHER_WORDS}\b"
                          rf"|\b{_BASIC_WORDS}{_BETWEEN}{_OTHER_WORDS}\b|\b{_ABILITY_WORDS}{_BETWEEN}{_BASIC_WORDS}\b"
                          # "were most of her kills autos": the share of one kind, answered with both
                          rf"|\b(?:most|majority|half|share|percent(?:age)?|proportion)\s+of\b[^.?!;]*\b(?:{_BASIC_WORDS})\b")
AVERAGE = re.compile(r"\b(?:average|averages|avg|avrg|avrage|averge|avarage|averag|mean|median)\b|\bon\s+avg\b")
DEPENDENT = re.compile(
    r"\b(?:the\s+)?(?:player|one|person|guy|god|someone|whoever)\s+(?:with|who\s+(?:had|got|dealt|did|earned|took|landed|made))\s+"
    r"(?:the\s+)?(?:most|highest|best|biggest|largest|top)\s+([a-z' /]+?)(?=\s+(?:use|used|build|built|buy|bought|get|got|deal|"
    r"dealt|do|did|earn|earned|take|took|have|had|heal|healed|make|made|purchase|purchased)\b|[?.!,]|$)"
    r"|\b(?:the\s+)?(?:top|biggest|best|highest|leading|main)\s+([a-z' ]*?)\s*(?:dealer|earner|fragger|healer|killer|carry|"
    r"scorer|tank|player|leader|assister)\b"
    r"|\b(?:the\s+)?([a-z' ]+?)\s+leader\b|\bthe\s+(mvp)\b")
PRONOUN = re.compile(r"\b(him|her|he|she|his|hers|they|them|their|that\s+player|this\s+player|that\s+guy|the\s+same\s+player)\b")
# A leader asked for on each side: "the richest player on each team", "top damage dealer per side"
PER_TEAM = re.compile(r"\b(?:on|of|from|in|for)\s+(?:each|every|both|either)\s+(?:teams?|sides?)\b|\bper\s+(?:team|side)\b"
                      r"|\b(?:each|every|both)\s+(?:teams?|sides?)'s?\b")
PERSON = re.compile(r"\b(?:who|whos|player|players|dealer|earner|fragger|killer|healer|carry|guy|one|person|mvp)\b")
