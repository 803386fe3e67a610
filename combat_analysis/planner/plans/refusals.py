"""What the planner will not answer, and how it says so.

Hostile text (SQL, commands, prompt injection) and questions about things a combat log does not hold
(weather, ranks, chat, prices, the people behind the names...) are refused before any plan is made. A name
that is nobody in this match is refused rather than answered with match totals. Every refusal carries three
answerable suggestions with no digits, so a refusal never shows an invented number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from combat_analysis.contracts.plan import Intent, QueryPlan, Refusal
from combat_analysis.planner.read.names import COMMON_WORDS, fold
from combat_analysis.planner.read.reading import Reading, normalize, read_question
from combat_analysis.planner.read.words import NPC_KIND_WORDS, POPULATION
from combat_analysis.planner.vocabulary import Vocabulary

HOSTILE = re.compile(
    r"""
    \b(drop|truncate)\s+(table|view|database|schema|macro|secret)\b
    | \bdelete\s+from\b | \binsert\s+into\b | \bupdate\s+\w+\s+set\b | \balter\s+table\b
    | \bcreate\s+(or\s+replace\s+)?(table|view|macro|function|secret|schema|temp)\b
    | \b(attach|detach)\s+(database\b|['"])| \bcopy\s+\w+\s+(to|from)\b | \bpragma\s+\w+
    | \b(install|load)\s+(extension\b|httpfs\b|\w+\s*;) | \bexport\s+database\b
    | ;\s*(--|/\*|select\b|drop\b|delete\b|insert\b|update\b|alter\b|create\b|attach\b|copy\b|pragma\b|
           install\b|load\b|set\b|truncate\b|shutdown\b|exec\b)
    | --\s*$ | /\* | \bunion\s+(all\s+)?select\b | \bselect\s+\* | \bselect\s+.+\s+from\s+\w+\s*(where|limit|order|group|join|;|$)
    | \bread_(csv|csv_auto|parquet|json|json_auto|json_objects|text|blob|ndjson)\b | \bglob\s*\( | \bparquet_scan\b
    | \bsniff_csv\b | \bquery_table\b | \bgetenv\s*\( | /etc/ | \bpasswd\b | \b(file|https?|s3|gs)://
    | \bos\.system\b | \b__import__\b | \bsubprocess\b | \brm\s+-rf\b | <script | \$\{ | \{\{ | \bxp_cmdshell\b
    | \bsleep\s*\( | \b1\s*=\s*1\b | '\s*or\s*' | \bor\s+'?\w+'?\s*=\s*'?\w+ | \bignore\s+(all\s+|any\s+)?(previous|prior|above)\s+instructions\b
    | \bsystem\s+prompt\b | \bsql\s+injection\b
    """,
    re.IGNORECASE | re.VERBOSE,
)

# The kinds of crowd control players name; the log records none of them
_CC_KIND = (r"(?:stun(?:s|ned|ning)?|root(?:s|ed|ing)?|slow(?:s|ed|ing)?|silence[ds]?|knock[\s-]*(?:ups?|ed\s+up|backs?)|"
            r"fear(?:s|ed)?|mesmeri[sz](?:e|es|ed)|taunt(?:s|ed)?|blind(?:s|ed)?|cripple[sd]?|disarm(?:s|ed)?)")

# (pattern, what the log does not hold, the figures it has nearest to it); checked on the question with names
# masked. The nearest figures make the suggestions of a refusal ("a player's rank": their KDA, the MVP score).
_OUT_OF_SCOPE_PATTERNS: list[tuple[str, str, tuple[str, ...]]] = [
    (r"\bweather\b|\brain(ing|y)?\b|\bsnow(ing)?\b|\btemperature\b|\bsunny\b|\bforecast\b", "the weather", ()),
    (r"\b(what|which)\s+rank\b|\brank(ed)?\s+(is|was|are|were|of)\b|\bcurrent\s+rank\b|\b(their|his|her|my|its)\s+rank\b"
     r"|'s\s+(?:rank|ranking|tier|elo|mmr)\b(?!\s+(?:in|on|by|for|among|at)\b)"
     # a player's name then a rank word, the possessive taken with the name: "what is X's rank", "X rank?"
     r"|\bname\s+(?:'s\s+)?(?:rank|ranking|tier|elo|mmr)\s*(?:[?.!]|$)"
     r"|\branked\s+(tier|division|ladder|points|rating|mode)\b|\bis\s+\S+\s+ranked\b|\b(elo|mmr|lp|ladder|division|"
     r"matchmaking|skill\s+rating|rating)\b|\btier\b", "ranks, ratings or matchmaking", ("kda", "mvp_score")),
    # The queue, mode and platform a match was played in: the log's start line holds only the match id. "Ranked" as
    # an order ("players ranked by damage", "in ranked order") stays a ranking.
    (r"\b(?:in|on|during|for|from|of|at)\s+(?:a\s+|the\s+|my\s+|our\s+|their\s+)?(?:un)?ranked\b(?!\s+(?:by|order|list))"
     r"|\b(?:un)?ranked\s+(?:games?|matches|match|queues?|play|lobb(?:y|ies)|conquest|joust|arena|modes?)\b"
     r"|\b(?:casual|normals?|quick\s*play|customs?|unranked|competitive|league)\s+(?:games?|matches|match|queues?|"
     r"lobb(?:y|ies)|modes?)\b|\bin\s+(?:casual|normals|quick\s*play|customs)\b"
     r"|\b(?:in|on|of)\s+(?:the\s+)?(?:conquest|joust|arena)(?:\s+(?:mode|map|games?|matches))?\b"
     r"|\b(?:game|queue)\s+(?:mode|type)\b"
     r"|\b(?:on|from)\s+(?:the\s+)?(?:console|consoles|pc|xbox|playstation|ps[45]|switch|controller|crossplay)\b"
     r"|\b(?:console|pc|xbox|playstation)\s+(?:players?|games?|matches|lobb(?:y|ies)|version)\b",
     "the queue, game mode or platform a match was played in (ranked or casual, Conquest or Arena, PC or console)", ()),
    (r"\bwin\s*rates?\b|\bwinrates?\b|\bwin\s+percentage\b|\bseasons?\b|\bcareer\b|\ball[-\s]time\b|\bother\s+(matches|games)\b"
     r"|\bprevious\s+(matches|games)\b|\blast\s+(week|month|year)\b|\bhistory\b|\bacross\s+(matches|games)\b"
     r"|\bmatch\s+history\b|\blifetime\b", "other matches or seasons; it holds this one match", ("winner", "kda")),
    # how long crowd control lasted: the log has one line per application, with no kind and no duration
    (r"\b(?:how\s+long|duration|length|seconds?|time\s+spent)\b[^.?!]*\b(?:stun(?:s|ned)?|cc|cc'd|crowd[\s-]+control|"
     r"root(?:s|ed)?|slow(?:s|ed)?|silence[ds]?|knock[\s-]*ups?|disabled?|feared|mesmeri[sz]ed?|"
     r"freez(?:e|es|ing)|froze|frozen|taunt(?:s|ed)?|charm(?:s|ed)?|petrif(?:y|ied|ies))\b"
     r"|\b(?:stun(?:s|ned)?|cc|crowd[\s-]+control|root(?:s|ed)?|slow(?:s|ed)?|freeze|taunt)\s+(?:duration|length|time|"
     r"lasted|last|uptime)\b",
     "how long crowd control lasted (it records each application, never its length)", ("cc_applied",)),
    # one kind of crowd control singled out or set against another: every application is one line with no kind
    (rf"\b{_CC_KIND}\b[^.?!]*\b(?:specifically|specific|only|exclusively|alone)\b"
     rf"|\b(?:specifically|only|just|exclusively)\s+(?:counting\s+|the\s+)?{_CC_KIND}\b"
     rf"|\b{_CC_KIND}\b[^.?!]*\b(?:not|vs\.?|versus|rather\s+than|as\s+opposed\s+to|compared\s+(?:to|with)|or|and|"
     rf"than)\s+(?:the\s+|by\s+|from\s+|any\s+)?{_CC_KIND}\b"
     r"|\b(?:what|which)\s+(?:kinds?|types?|sorts?)\s+of\s+(?:cc|crowd[\s-]+control)\b"
     r"|\b(?:cc|crowd[\s-]+control)\s+(?:kinds?|types?|breakdown\s+by\s+(?:kind|type))\b",
     "which kind of crowd control was applied (it records each application as one line, with no kind: a stun and a "
     "slow look the same)", ("cc_applied",)),
    (r"\bping(?:ed|s)?\s*(?:was|of|is|were|in\s+ms)?\b(?=.*\b(?:worst|best|highest|lowest|high|low|ms|lag|bad|good)\b)"
     r"|\blag(?:ging|gy|s)?\b|\blatency\b|\bfps\b|\bframe\s*rate\b|\bconnection\b|\bdisconnect|\bserver\s+(region|location)\b"
     r"|\bhardware\b|\bwhat\s+(?:was|is)\s+\S+\s+ping\b|\bping\s+of\b|\b(?:their|his|her|my|name's)\s+ping\b",
     "network or hardware details such as ping or lag", ("damage_dealt",)),
    (r"\bchat(ted|ting)?\b|\bvoice\b|\bsaid\b|\bsay\b|\bmessages?\b|\btyped\b|\btalk(ed|ing)?\b|\bping(ed|s)?\b|\bemote",
     "chat, voice or pings", ("first_blood", "kills")),
    (r"\blore\b|\bbackstory\b|\bback\s+story\b|\bmytholog|\bpantheon\b|\blegend\s+of\b|\bstory\s+of\b|\bwho\s+is\s+(the\s+)?god\b",
     "a god's lore", ("roster",)),
    (r"\bpatch\b|\bnerf|\bbuff(ed|s)?\b|\bmeta\b|\btier\s+list\b|\bshould\s+(i|we|he|she|they)\b|\brecommend|\bcounter\s+pick"
     r"|\bwhat\s+should\b|\bbest\s+build\s+for\b|\bguide\b|\btips?\b", "advice, patches or the meta", ("build",)),
    # what a player paid or spent for an item, in any words (METRICS.md: the log carries no item cost): a quantity asked
    # of spending or paying, gold said spent, or spending on something named; "what did X spend his gold on" asks for
    # the items (a build) and stays answerable
    (r"\b(?:expensive|pricey|pricier|cheap(?:er|est)?|afford\w*|overpriced)\b"
     r"|\bhow\s+much\b(?!\s+time\b)[^.?!]*?\b(?:spen[dt]|spends|spending|pa(?:y|ys|id|ying)|invest\w*|shell\w*\s+out"
     r"|fork\w*\s+out|cough\w*\s+up|set\s+\w+\s+back)\b(?!\s+off\b)"
     r"|\b(?:gold|money)\s+(?:\w+\s+)?(?:spent|paid|invested|sunk|blown)\b"
     r"|\b(?:gold|money)\b[^.?!]*\b(?:drop|dropped|dropping|blow|blew|sink|sank|put|throw|threw)\s+(?:\w+\s+){0,2}?(?:on|into)\s+\w"
     r"|\b(?:spen[dt]|spends|spending|pa(?:ys|id|ying)|pay)\s+(?:\w+\s+){0,3}?(?:on|for|into)\s+"
     r"(?!in\b|during\b|before\b|after\b|by\b|early\b|late\b|over\b|through\w*\b|at\b|the\s+match\b)\w",
     "what an item cost or what a player spent on items (it records each purchase and the gold earned, never a price)",
     ("build", "gold")),
    (r"\b(cost|costs|price|prices|priced)\b|\bhow\s+much\s+(is|was|does|did)\s+(a|an|the)?\s*\S+\s+cost\b",
     "item prices (the number in a purchase line is not a cost)", ("build", "gold")),
    # money outside the game: gold is the only currency the log records
    (r"\bprize(?:\s+money|\s+pool)?\b|\bpayouts?\b|\bwinnings\b|\breal[\s-]+(?:world\s+)?money\b|\b(?:dollars?|usd|euros?|"
     r"bucks|revenue|profit|salary|wages?|sponsors?(?:hip)?)\b|\$\s?\d|\bmake\s+from\s+this\b",
     "real money or prizes (gold, the game's currency, is all it records)", ("gold",)),
    (r"\breal\s+name\b|\bage\b|\bhow\s+old\b|\bcountry\b|\bnationality\b|\bwhere\s+(does|do|is)\s+\S+\s+(live|from)\b"
     r"|\bstream(er|s|ing)?\b|\btwitch\b|\bphone\b|\bemail\b|\baddress\b"
     r"|\b(good|bad|nice|kind|friendly|toxic|mean|rude|honest|smart|funny)\s+(person|guy|human|people|man|woman|"
     r"teammate|friend|player\s+to\s+play\s+with)\b|\b(personality|character\s+traits?)\b",
     "anything about the people behind the names", ("roster",)),
    (r"\bskins?\b|\bcosmetics?\b|\bwallpaper\b", "cosmetics", ("build",)),
    # how someone felt, asked about them; the asker's own impression ("seems tight", "i feel like", "it felt even")
    # frames the question and is no subject
    (r"\bmood\b|\bangry\b|\btilted\b|\bhappy\b|\bemotion|\b(?:how|what|who|which|did|does|do|was|were|is|are)\b"
     r"[^.?!;]*?(?<!\bit\s)(?<!\bi\s)(?<!\bthis\s)(?<!\bthat\s)(?<!\bwe\s)\b(?:feel|feels|felt|feeling)\b",
     "how anyone felt", ("deaths", "kills")),
    # what someone thought or meant, asked about them; the asker's own ("what do you think", "i think") frames it
    (r"\b(?:what|how|why)\s+(?:was|were|is|are|did|does|do)\b[^.?!;]*?(?<!\bi\s)(?<!\bwe\s)(?<!\byou\s)"
     r"(?<!\bu\s)(?<!\bya\s)\b(?:thinking|think|thought|planning|intending|meaning\s+to)\b"
     r"|\bmind[\s-]?set\b|\bintentions?\b|\bmotivat(?:ion|ed)\b|\bstate\s+of\s+mind\b|\bhead\s*space\b",
     "what anyone thought or meant", ("deaths", "kills")),
    (r"\bstock\b|\bbitcoin\b|\bpresident\b|\bcapital\s+of\b|\brecipe\b|\bjoke\b|\bpoem\b|\bsong\b|\bwrite\s+(me\s+)?(a|an)\b"
     r"|\btranslate\b|\bcode\b|\bpython\b|\bjavascript\b|\blottery\b|\belection\b|\bbet(s|ting)?\b|\bodds\b"
     r"|\bmeaning\s+of\s+life\b", "anything outside this match", ()),
    (r"\bweigh(s|t|ed)?\b|\bheight\b|\bhow\s+(tall|big|heavy|fast)\s+is\b|\bcolou?r\s+(is|was)\b|\bwhat\s+colou?r\b",
     "what things weigh, measure or look like; it holds numbers of the match", ("npc_damage",)),
    (r"\bwhere\s+(is|was|were)\b.*\b(standing|positioned|located)\b|\bmap\s+position\b|\bwards?\b|\bvision\b",
     "positions in a form this planner can answer", ("positions",)),
    # god and ability levels: the log records experience, not the level it buys
    (r"\b(?:what|which)\s+level\b|\blevel\s+(?:\d+|was|were|is|did|at|of)\b|\blevels\b|\blvl\b|\bmax(?:ed)?\s+level\b"
     r"|\blevel(?:l)?ed\b|\b(ability|skill)\s+(level|rank|order|points)\b|\blevel(ed)?\s+up\b",
     "god or ability levels (it records the experience earned, not the level)", ("experience", "xpm")),
    # time spent dead: the log has each death's moment, never a respawn or its timer
    (r"\brespawn\w*|\bdeath\s*timers?\b|\b(?:gr[ae]y|black)\s*screen\w*|\bdowntime\b|\btime\s+(?:spent\s+)?(?:being\s+)?dead\b"
     r"|\b(?:seconds|minutes|mins|secs|time|long)\s+(?:\w+\s+){0,3}?(?:spent\s+|stayed\s+|sat\s+|was\s+|were\s+)?dead\b"
     r"|\bdead\s+for\s+(?:how|the\s+(?:longest|most|least)|longer|\d)",
     "how long anyone was dead (it records each death's moment, never a respawn or its timer)", ("deaths",)),
    # several kills in a row: METRICS.md defines no multi-kill (the longest streak without dying is answered)
    (r"\b(?:double|triple|quadra|quad|penta|ultra|mega)[\s-]?kills?\b|\bmulti[\s-]?kills?\b|\b(?:pentas?|quadras?)\b",
     "multi-kills (no multi-kill is defined for the log; the longest kill streak without dying is)", ("kills",)),
    (r"\bcooldowns?\b|\bhealth\s+bar\b|\bmana\b", "cooldowns, mana or health", ("hits", "damage_taken")),
    # the kind of damage: each damage line has an amount and the ability, never physical or magical
    (r"\b(?:physical|magical|phys|mag)\b|\bmagic\s+(?:damage|dmg|power|hits?|prots?|protections?)\b"
     r"|\btrue\s+(?:damage|dmg)\b|\b(?:penetration|pen|prots?|protections?|lifesteal)\b",
     "whether damage was physical, magical or true, or protections and penetration (each damage line has an amount "
     "and an ability, never its kind)", ("damage_dealt", "hits")),
    # the draft's picks and bans: the log starts at the match, naming each player's god, never the order chosen
    # ("when did she first pick up boots" is a purchase)
    (r"\bban(?:s|ned|ning)?\b|\bbanned\b|\b(?:first|last|second|blind|counter)[\s-]+pick(?:s|ed)?\b(?!\s+up\b)"
     r"|\bpick(?:ed|s)?\s+(?:order|phase\s+order)\b|\bdraft\s+order\b|\b(?:picked|drafted|locked(?:\s+in)?)\s+"
     r"(?:first|last|second|early|late)\b|\bpicks?\s+(?:and|&|/)\s*bans?\b",
     "the draft's picks and bans (the log names each player's god, never the order they were chosen or what was "
     "banned)", ("roster",)),
    # gold that no reward line carries (METRICS.md: passive income is not in the log) and gold's fate after it was
    # earned (no item prices): passive or ticking income, spending as a sum, gold left unspent or banked
    (r"\bpassive(?:ly)?\s+(?:gold|income|gpm|currency|money|earnings?|generation|trickle|ticks?)\b"
     r"|\b(?:gold|income|currency|money|gpm|earn\w*|got|get|made|make)\b[^.?!]*?\b(?:from|by|through|via|of)\s+"
     r"(?:the\s+|their\s+|his\s+|her\s+)?passive(?:ly)?\b|\b(?:gold|income|earn\w*|made|got)\b[^.?!]*?\bpassively\b|\bgold\s+(?:per\s+)?(?:ticks?|trickle|generation)\b"
     r"|\b(?:total|overall|combined|whole|team'?s?|their|his|her)\s+spend(?:ing)?\b|\bspending\b"
     r"|\bspen[dt]\s+(?:in\s+total|overall|altogether|combined|all\s+game)\b"
     r"|\bgold\s+(?:was\s+|were\s+)?spent\b|\bunspent\b|\bbank(?:ed)?\s+gold\b|\bgold\s+(?:banked|left\s+over|leftover|remaining|in\s+the\s+bank|on\s+hand)\b"
     r"|\bleft\s*over\s+gold\b|\bgold\s+(?:was\s+|were\s+)?left\b",
     "passive gold income or what gold was spent or left unspent (it records the gold each reward gave, and each "
     "purchase without a price)", ("gold", "build")),
]

# The lane, side of the map or place of a structure or objective: the log names a tower or phoenix by its team alone
# (METRICS.md: "Order Tower", "Chaos Phoenix"), and a boss by its name. A lane asked of a player stays their role
# ("what lane was X in", "which lane dealt the most damage"), so a lane word refuses only where it is asked of an
# objective word: "which lane was <objective> in", "in what lane did <objective> fall", "<objective> ... mid or bot",
# "<objective> in the bot lane", "which side of the map", "where did <objective> fall", "the position of <objective>"
_OBJECTIVE = (r"(?:objectives?|towers?|turrets?|phoenix(?:es)?|titans?|structures?|buildings?|gold\s+fur(?:y|ies)|"
              r"fire\s+giants?|bosses|boss|t[123])")
_LANE = r"(?:mid|middle|top|bot|bottom|solo|duo|left|right|jungle)"
_SAID_OF = r"(?:(?:the|a|an|its|their|our|order|chaos|order's|chaos's|team\s+\w+(?:'s)?|first|last|final|second|third|" \
           r"fourth|fifth|sixth|earliest|latest|next|\d+(?:st|nd|rd|th)|outer|inner|\w+'s)\s+)*"
_STRUCTURE_PLACE = (
    rf"\b(?:which|what)\s+lanes?\s+(?:was|were|is|are)\b[^.?!;]*\b{_OBJECTIVE}\b"
    rf"|\b(?:which|what)\s+lanes?\s+(?:did|does|do|had|has)\s+{_SAID_OF}{_OBJECTIVE}\b"
    rf"|\b(?:which|what)\s+lanes?\s+(?:did|does|do|had|has)\b[^.?!;]*\b{_OBJECTIVE}\b[^.?!;]*\b(?:in|on|at|from)\s*[?.!]*$"
    rf"|\b(?:in|on|at|from)\s+(?:which|what)\s+(?:lanes?|side\s+of\s+(?:the\s+)?map)\b[^.?!;]*\b{_OBJECTIVE}\b"
    rf"|\b{_OBJECTIVE}\b[^.?!;]*\b(?:which|what)\s+(?:lanes?|side\s+of\s+(?:the\s+)?map)\b"
    rf"|\b{_OBJECTIVE}\b[^.?!;]*?(?<!\bby\s)(?<!\bby\sthe\s)\b{_LANE}(?:\s+lane)?\s+or\s+(?:the\s+)?{_LANE}\b(?!\s+(?:laner|player|role))"
    rf"|\b{_OBJECTIVE}\s+(?:\w+\s+){{0,3}}?(?:in|on|at)\s+(?:the\s+)?{_LANE}\s+(?:lane|side)\b"
    rf"|\b{_LANE}\s+(?:lane\s+)?{_OBJECTIVE}\b(?=[^.?!;]*\b(?:fell|fall|falls|taken|destroyed|lost|killed|down|when|where)\b)"
    rf"|\bside\s+of\s+(?:the\s+)?map\b[^.?!;]*\b{_OBJECTIVE}\b|\b{_OBJECTIVE}\b[^.?!;]*\bside\s+of\s+(?:the\s+)?map\b"
    rf"|\bmap\s+sides?\b[^.?!;]*\b{_OBJECTIVE}\b|\b{_OBJECTIVE}\b[^.?!;]*\bmap\s+sides?\b"
    rf"|\bwhere\s+(?:on\s+the\s+map\s+)?(?:was|were|is|are|did|does|do|had)\s+{_SAID_OF}{_OBJECTIVE}\b"
    rf"|\bwhere\s+on\s+the\s+map\b[^.?!;]*\b{_OBJECTIVE}\b"
    rf"|\b(?:locations?|positions?|coordinates|spots?|placement)\s+of\s+{_SAID_OF}{_OBJECTIVE}\b"
    rf"|\b{_OBJECTIVE}(?:'s|s')?\s+(?:locations?|positions?|coordinates|lanes?)\b"
)
_OUT_OF_SCOPE_PATTERNS.append((
    _STRUCTURE_PLACE,
    "the lane, side of the map or place of a structure or objective (it names towers and phoenixes by their team "
    "alone, Order or Chaos, and a boss by its name, never a lane or a position)", ("objective_events", "roster")))
_OUT_OF_SCOPE = [(re.compile(p, re.IGNORECASE), what, near) for p, what, near in _OUT_OF_SCOPE_PATTERNS]

GENERIC_SUGGESTIONS = ("Who dealt the most damage?", "Which team won the match?", "Who got first blood?")

# A suggestion near a figure, about a player (`{p}`) when the question names one, or about the match.
_ABOUT_PLAYER = {
    "kda": "What was {p}'s KDA?", "mvp_score": "Who was the MVP?", "cc_applied": "How much crowd control did {p} apply?",
    "gold": "How much gold did {p} earn?", "experience": "How much experience did {p} earn?",
    "xpm": "What was {p}'s experience per minute?", "build": "What did {p} build?", "kills": "How many kills did {p} get?",
    "deaths": "How did {p} die?", "damage_dealt": "How much damage did {p} deal?", "hits": "Which abilities did {p} use the most?",
    "damage_taken": "How much damage did {p} take?", "positions": "Where did {p} die?", "roster": "Which god did {p} play?",
    "objective_events": "Which objectives were taken, and when?",
    "winner": "Which team won the match?", "first_blood": "Who got first blood?",
    "npc_damage": "How much damage did the Fire Giant do?",
}
_ABOUT_MATCH = {
    "kda": "Who had the best KDA?", "mvp_score": "Who was the MVP?", "cc_applied": "Who applied the most crowd control?",
    "gold": "Who earned the most gold?", "experience": "Who earned the most experience?", "xpm": "Who had the highest XPM?",
    "build": "What did the top damage dealer build?", "kills": "Who got the most kills?", "deaths": "Who died the most?",
    "damage_dealt": "Who dealt the most damage?", "hits": "Which ability dealt the most damage?",
    "damage_taken": "Who took the most damage?", "positions": "Where did the kills happen?", "roster": "Who played which god?",
    "objective_events": "Which objectives were taken, and when?",
    "winner": "Which team won the match?", "first_blood": "Who got first blood?",
    "npc_damage": "How much damage did the Fire Giant do?",
}
_TEAM_WORD = {1: "Order", 2: "Chaos"}
_ABOUT_TEAM = {"gold": "How much gold did {t} earn?", "kills": "How many kills did {t} get?",
               "damage_dealt": "How much damage did {t} deal?", "winner": "Which team won the match?"}
_FILL = ("damage_dealt", "winner", "first_blood")


def _plain(name: str) -> bool:
    return not any(c.isdigit() for c in name)


def _asked(question: str, vocab: Vocabulary) -> tuple[list[str], list[int], list[str]]:
    """The players and teams a question names, and its figures, for suggestions about the same subject."""
    if not question.strip():
        return [], [], []
    try:  # a suggestion must never fail a refusal
        r = read_question(question[:500], vocab)
    except Exception:  # noqa: BLE001 - a question that cannot be read gets the general suggestions
        return [], [], []
    figures = [m for m in r.metrics if m in _ABOUT_MATCH]
    played = [p.player for god in r.gods for p in vocab.players_where(god=god)]  # "the ymir": its player
    return [*r.players, *played], list(r.teams), figures


def _one_suggestion(key: str, player: str | None, team: int | None) -> str | None:
    if player and key in _ABOUT_PLAYER:
        return _ABOUT_PLAYER[key].format(p=player)
    if team and key in _ABOUT_TEAM:
        return _ABOUT_TEAM[key].format(t=_TEAM_WORD[team])
    return _ABOUT_MATCH.get(key)


def suggestions(vocab: Vocabulary, question: str = "", near: Sequence[str] = ()) -> tuple[str, ...]:
    """Three answerable questions near the one asked: about the player or side it names, on the figures the log has
    nearest to what it asked (`near`) and the figures it named, then the general ones. None holds a digit (a
    refusal must not show an invented number), so a player whose name has digits is not named."""
    players, teams, figures = _asked(question, vocab)
    player = next((p for p in players if _plain(p)), None)
    team = teams[0] if len(teams) == 1 and not player else None
    if player is None and team is None and not near and not figures:
        plain = [p.player for p in vocab.players if _plain(p.player)]
        player = plain[0] if plain else None
    out: list[str] = []
    for key in (*near, *figures, *_FILL):
        one = _one_suggestion(key, player, team)
        if one and one not in out and _plain(one):
            out.append(one)
    return tuple(out[:3]) if len(out) >= 3 else GENERIC_SUGGESTIONS


def refusal(question: str, reason: str, suggestions: Sequence[str], assumptions: Sequence[str] = (),
            options: Sequence[str] = ()) -> QueryPlan:
    """A REFUSE plan with its reason and suggestions (no vocabulary needed: the suggestions are given)."""
    return QueryPlan(question=question, intent=Intent.REFUSE,
                     refusal=Refusal(reason=reason, suggestions=tuple(suggestions), options=tuple(options)),
                     assumptions=tuple(assumptions), summary="Refused: " + reason)


def refuse(question: str, vocab: Vocabulary, reason: str, assumptions: Sequence[str] = (),
           options: Sequence[str] = (), near: Sequence[str] = ()) -> QueryPlan:
    """A REFUSE plan whose suggestions are near the question: its subject, and `near` (the figures the log has
    closest to what it asked) before the figures it named."""
    return refusal(question, reason, suggestions(vocab, question, near), assumptions, options)


def no_digits(text: str) -> str:
    return re.sub(r"\s{2,}", " ", re.sub(r"\d+", "", text)).strip()


def hostile(masked: str) -> bool:
    return bool(HOSTILE.search(masked))


def out_of_scope(masked: str) -> str | None:
    """What the log does not hold that the question asks about, or None."""
    found = missing(masked)
    return found[0] if found else None


def missing(masked: str) -> tuple[str, tuple[str, ...]] | None:
    """What the log does not hold that the question asks about, and the figures it has nearest to it; or None."""
    text = normalize(masked)
    return next(((what, near) for pattern, what, near in _OUT_OF_SCOPE if pattern.search(text)), None)


_NAME_SLOT = re.compile(
    r"\b(?:did|does|do|was|is|has|had|for|of|by|about|from)\s+([^\s?!,]+?)(?:'s)?\s+(?:deal|do|did|get|got|heal|earn|take|"
    r"have|had|build|buy|bought|die|kill|score|make|land|mitigate|use|play|perform|end|finish|KDA|kda|damage|dmg|gold|kills|"
    r"deaths|assists|healing|xp|experience|build|items)\b", re.IGNORECASE)
# minions by the names the log gives them, said as the ones doing something ("did swordsmen finish a phoenix")
_MINION_WORDS = frozenset("archer archers swordsman swordsmen brute brutes".split())
_NOT_NAMES = frozenset('''name the a an each every any anyone someone everyone team teams player players he she they it
his her their them him we you i me who which what that this both all enemy enemies jungle support mid middle carry adc solo
jungler hunter mage winners losers winning losing order chaos most top one two three first last total overall average
avg avrg mean median typical usual normal per
more less fewer much many some no enough high low best worst bottom biggest highest lowest least any all every
team's player's god gods role roles jungle's support's carry's solo's mid's
pve environment everybody nobody somebody zero no none up down ahead behind leading trailing still even level
tied'''.split()) | POPULATION | _MINION_WORDS | NPC_KIND_WORDS
_GAMERTAG = re.compile(r"(?<![\w'])(?:[A-Za-z]+\d+[A-Za-z\d]*|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|\w+_\w+)(?![\w'])")
_NOT_GAMERTAGS = re.compile(r"^(?:team\s*\d|top\d+|k\d|q\d|NAME|\d+(?:st|nd|rd|th|s|m|k)|[a-z]+\d+s)$", re.IGNORECASE)


def unknown_name(masked: str, r: Reading) -> str | None:
    """A name that is nobody in this match: a word in a player's slot ("how much damage did Bob deal"), or
    anything shaped like a gamertag (digits, underscores, camel case) that matched no one."""
    for tag in _GAMERTAG.finditer(masked):
        if not _NOT_GAMERTAGS.match(tag.group(0)) and fold(tag.group(0)) not in _NOT_NAMES:
            return tag.group(0)
    if r.named or r.npcs or r.ambiguous:
        return None
    m = _NAME_SLOT.search(masked)
    if not m:
        return None
    word = m.group(1)
    if (fold(word) in _NOT_NAMES or fold(word).rstrip("s") in _NOT_NAMES or fold(word) in COMMON_WORDS
            or re.fullmatch(r"team\s*\d|\d+", word, re.I)):  # "did 0 damage": a number is no name
        return None
    return word


def unknown_name_refusal(question: str, vocab: Vocabulary, word: str) -> QueryPlan:
    if any(c.isdigit() for c in word):
        return refuse(question, vocab, "No player of that name is in this match, so this cannot be answered from "
                      "its combat log.")
    return refuse(question, vocab, f"No player called '{no_digits(word)}' is in this match, so this cannot be "
                  "answered from its combat log.")


def unreadable_refusal(question: str, vocab: Vocabulary, r: Reading) -> QueryPlan | None:
    """The refusal of a reading that names something unknown or someone ambiguous; None when it names neither."""
    unknown = unknown_name(r.masked, r)
    if unknown:
        return unknown_name_refusal(question, vocab, unknown)
    return ambiguity_refusal(question, vocab, r)


def ambiguity_refusal(question: str, vocab: Vocabulary, r: Reading) -> QueryPlan | None:
    """'night' fits nightOwl_77 and NightHawk: ask which one rather than guess."""
    if not r.ambiguous:
        return None
    m = r.ambiguous[0]
    options = m.candidates
    return refuse(question, vocab, f"'{no_digits(m.said)}' fits more than one player in this match, so I cannot "
                  "tell whose figures you want; please name the player.", options=options)
