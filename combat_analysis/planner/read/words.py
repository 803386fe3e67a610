"""The words the planner knows, so it can tell which words of a question it did not read.

Two kinds: neutral words, which carry no meaning a plan must honour (articles, pronouns, auxiliaries, light
verbs, fillers: "who managed to get the most kills" means "most kills"), and domain words, which the slot
readers interpret (every catalog synonym, dimension, role and team word, and the cue words of times, shapes
and events). A content word that is neither, such as "lottery", "weigh" or "invisible", is a qualifier the
plan did not apply: the faithfulness check (`faithful.py`) flags it in the answer or refuses.
"""

from __future__ import annotations

import re
from functools import lru_cache

from combat_analysis.catalog import DIMENSIONS, METRICS
from combat_analysis.formatting import ordinal

NEUTRAL = frozenset("""
a an the this that these those there here it its it's itself one ones some any all each every both either neither
i me my mine we us our you your yours he him his she her hers they them their theirs who whom whose which what
whats what's when where why how whos who's how's hows wheres where's wat wut
am is are was were be been being do does did done doing have has had having get gets got gotten getting
can could would should will shall may might must let lets let's
and or plus but nor so yet also too as than then if else just only even still already ever never again while whilst
ascending descending
of in on at by for with from to into onto over under about above below after before between during through
across against among around up down out off per via within without till until upon
not no yes please pls plz thanks thank hey hi ok okay well oh really actually actual basically exactly overall
specifically specific terms particular particularly precisely literally essentially honestly seriously simply truly
generally general exact precise
quite very much many more most less least lot lots bit kind sort like
tell show give list display find see know want need looking look check name say select pick choose identify
lock locked locking picked picks
thing things stuff number numbers amount amounts figure figures value values stat stats statistic statistics total
totals count counts sum score scores result results data info information
player players person people guy guys someone somebody anyone anybody everyone everybody nobody one
match matches game games round log combat session overall whole entire full end
make makes made making take takes took taken put puts puts manage managed managing end ended ending finish
finished finishing rack racked racking pile piled pump pumped pumping dish dished rack up secure secured
land landed landing do pull pulled rake raked bring brought record recorded register registered
apply applies applied applying inflict inflicts inflicted inflicting
rank ranked ranking order ordered sort sorted highest lowest top bottom best worst biggest largest greatest
smallest fewest least most more fewer less high low higher lower better worse big bigger small smaller
difference differ compare compared comparison versus vs against side sides by matchup matchups duel duels
team teams squad squads side order chaos winners losers winning losing
first second third fourth fifth sixth seventh eighth ninth tenth 2nd 3rd 4th 5th 6th last final opening closing early mid late minute minutes min mins
second seconds sec secs time times timeline point mark phase stage half
zero two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred
other others another often frequently regularly usually mostly describe explain detail details breakdown
topped tops topping rely relied relies relying depend depended depends
use used uses using deal deals dealing dish dishes inflict inflicted cause caused earn earns earning
gain gained gains collect collected accumulate gather gathered happen happened come came went go goes going had been something anything everything
ahead behind lead leads leading led trail trailing trailed margin gap edge
they're they've they'll they'd we've we're you're you've you'll you'd he's she's i'm i've i'd didn't don't doesn't
isn't wasn't weren't aren't haven't hasn't hadn't can't won't wouldn't couldn't shouldn't mustn't needn't ain't
would've could've should've must've that'll there's there're here's
""".split())

# The buying verbs of chat, beside buy and purchase: "who rushed <item>", "copped", "grabbed", "picked up"
CHAT_BUY_VERB = (r"(?:rush(?:es|ed|ing)?|grab(?:s|bed|bing)?|cop|cops|copped|copping|snag(?:s|ged|ging)?|"
                 r"pick(?:s|ed|ing)?\s+up)")

# Words for a population of players, never one player's name nor a qualifier: "did people die to towers", "how
# often did the guys feed", "anyone die to the fire giant".
POPULATION = frozenset("""people peoples ppl peeps person persons guys guy folks folk dudes gamers anybody anyone
everyone everybody someone somebody teammates allies opponents members humans users""".split())
# The words for the kinds of non-player the log holds ("the monster", "which turret"): never a player's name
NPC_KIND_WORDS = frozenset("""minion minions creep creeps wave waves monster monsters mob mobs camp camps neutral
neutrals npc npcs boss bosses tower towers turret turrets structure structures building buildings phoenix phoenixes
titan titans""".split())

# Chat spellings of the little words of a sentence, each the word it stands for: everyone and people ("every1",
# "evry1", "ppl"), and ("n", "&"), with ("w/"), you ("u", "ur"). They are spelled out after names are masked and
# before the sentence is cut into clauses, so "every1" is no gamertag and "... n who won" is a clause of its own.
CHAT_WORDS: dict[str, str] = {
    "every1": "everyone", "evry1": "everyone", "evr1": "everyone", "every1s": "everyone's", "evry1s": "everyone's",
    "every1's": "everyone's", "evry1's": "everyone's", "evryone": "everyone", "evrybody": "everybody",
    "any1": "anyone", "any1's": "anyone's", "some1": "someone", "some1's": "someone's", "no1": "nobody",
    "ppl": "people", "ppls": "people's", "ppl's": "people's", "peeps": "people",
    "n": "and", "&": "and", "nd": "and", "w/": "with", "w/o": "without", "wo/": "without",
    "u": "you", "ur": "your", "urs": "yours", "ya": "you",
}

# Places after the first, as words and digits ("the 3rd buy", "who came second in damage"); "first" is left out
# because it means many things besides a place (first blood, first kill, at first).
PLACES = {word: n for n in range(2, 11) for word in (ordinal(n), f"{n}{'nd' if n == 2 else 'rd' if n == 3 else 'th'}")}
PLACE_WORDS = "|".join(sorted(PLACES, key=len, reverse=True))
# Where the matches are kept, as people call it ("loaded into the db", "in the warehouse")
# A verb of killing in its forms ("killed", "slew", "murdering"), as a pattern to place between others
KILL_VERB = r"kill(?:s|ed|ing)?|slain|slay(?:s|ed)?|slew|murder(?:s|ed)?"
STORAGE = r"(?:warehouse|lake|data\s*base|db)"
# A count said before what is counted ("top 3", "the four players", "his last twelve deaths"), as digits or a word;
# one table, so every pattern that reads a count reads the same ones. COUNT_SAID does not capture.
COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
               "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}
COUNT_SAID = r"(?:\d{1,2}|" + "|".join(COUNT_WORDS) + ")"
# Words that frame the conversation rather than narrow the figure: what players call the match they are asking about
# ("this one", "the scrim", "in the lobby") and the fillers of chat ("lol", "bro", "tbh"). They are neither scope nor
# a qualifier, so a question that uses them is neither refused nor flagged for them.
FRAME_NOUNS = frozenset("match game games round one scrim scrims lobby lobbies set series map".split())
# Verbs of receiving: damage or healing named beside one is what the player took, not what they dealt ("who ate the
# most damage", "soaked", "tanked"); a slip in one is corrected like a figure word ("recieve")
RECEIVING_VERBS = frozenset("""take takes took taken taking receive receives received receiving absorb absorbs absorbed
absorbing tank tanks tanked tanking suffer suffers suffered suffering ate eat eats eaten eating soak soaks soaked
soaking sponge sponges sponged""".split())

FILLERS = frozenset("""lol lmao lmfao rofl haha hahaha bro bruh dude fr ngl tbh imo imho btw yo hmm hmmm gg ggs wp ez
u ur pls plz thx ty bois boys yall y'all dawg fam wait um umm uh uhh huh ah omg welp anyway anyways
asking friend curious curiosity wondering thanks thank please smh smdh idk idc jk rip wtf ffs omfg oof yikes sheesh istg
kek xd bruv lul kekw pog poggers""".split())  # asides: "asking for a friend", "just curious"

# Cue words of the slot readers that the catalog does not list (times, shapes, events, groups).
CUES = frozenset("""
unit units entity entities creature creatures
most least top bottom leader leaders leaderboard led leading scoreboard summary summarize overview recap busiest
kept keeps keep repeatedly constantly always next following
steal steals stole stolen stealing snipe snipes sniped sniping secure secures secured securing
perform performed performance play played playing played do did doing go went
each every all everyone everybody per by list rank compare versus vs against between difference
enemy enemies opponent opponents foe foes
including include includes incl counting
over time minute minutes trend trends progress progression evolution evolve evolved graph chart plot curve
throughout went along breakdown break broken split distribution distributed composition
first blood fb win won wins winner victory victorious lose lost loser beat beaten defeat defeated
objective objectives tower towers phoenix phoenixes titan titans fury furies giant giants boss bosses
structure structures building buildings jungle camps camp monster monsters minion minions creep creeps wave
god gods player players role roles position positions lane lanes ability abilities skill skills spell spells
item items build builds built buy bought purchase purchased purchases inventory rush rushed rushing
grab grabbed grabbing cop copped copping snag snagged snagging
problem problems weak weakest link links liability liabilities anchor passenger passengers
kill kills killed slay slays slew slain
death deaths died die dies alive mvp carried carry hard hardest highest biggest average avg mean median
how many much combined together altogether total long length duration lasted start started begin began end ended finish finished
kick kicked stop stopped wrap wrapped
separately respectively individually apart
happened happen key moment moments events event where heatmap map location locations position
shift shifted shifts change changed changes differ differed compare split
lane lanes laner laners laning percent percentage share proportion fraction portion
grow grew grown growth climb climbed increase increased decrease decreased rise rose rising develop developed
accumulate accumulated ramp ramped trend trending over course evolve evolved progress progressed
recent recently lately
once twice thrice
basic attack attacks auto autos fall fell falls fallen drop dropped destroy destroyed destroying down gone
fight fights fighting decided decide decisive deciding key important mattered matter turning swing swings
good bad well poorly great strong weak solid
avrg averages analyze analyse analyzing analysing analysis assess assessment evaluate
evaluation review stage stages phases proc procs effect effects besides aa didn't didnt come came coming
wise throw throws threw thrown throwing
pve pvp npc npcs environmental rest else rather instead
pass passed passes elapsed
dump dumped dumping pour poured pouring unload unloaded unloading
far weren't werent wasn't wasnt aren't arent isn't isnt doesn't doesnt don't dont
ate eat eats eaten eating soak soaks soaked soaking sponge sponged tank tanks tanked tanking absorb absorbing face
focus focused focusing focussed focussing focuses dive dives dived diving dove hunt hunts hunted hunting
target targets targeted targeting targetted targetting chase chases chased chasing tunnel tunnels tunneled tunneling
tunnelled tunnelling harass harassed harassing poke poked poking main primary favorite favourite fav fave usual regular frequent
fast faster fastest quick quicker quickest slow slower slowest soon sooner soonest earlier earliest later latest
right straight immediately directly shortly quickly afterwards afterward prior
run runs running ran mains mained maining queue queued queues character characters champ champs hero heroes spot spots
""".split())

# How a question names a role: "the junglers", "adc", "top" (the entity reader finds them; here they are known words).
ROLE_WORDS: dict[str, str] = {
    "support": "Support", "supports": "Support", "supp": "Support", "sup": "Support",
    "jungle": "Jungle", "jungler": "Jungle", "junglers": "Jungle", "jungles": "Jungle", "jg": "Jungle",
    "jgl": "Jungle", "jung": "Jungle",
    "mid": "Middle", "middle": "Middle", "mids": "Middle", "midlaner": "Middle", "midlaners": "Middle",
    "mage": "Middle", "mages": "Middle",
    "carry": "Carry", "carries": "Carry", "adc": "Carry", "adcs": "Carry", "hunter": "Carry", "hunters": "Carry",
    "solo": "Solo", "solos": "Solo", "sololaner": "Solo", "sololaners": "Solo", "top": "Solo", "toplaner": "Solo",
}
# The role words as one regex alternation, longest first so "junglers" is read whole before "jungle"
ROLE_SAID = "|".join(sorted(map(re.escape, ROLE_WORDS), key=len, reverse=True))
# The role words that name the one who plays it ("which jungler", "what support"), never the place or the role
# itself ("jungle", "middle", "top"), with the laners said in two words
_ROLE_PLACES = frozenset({"jungle", "jungles", "jung", "jgl", "middle", "top", "sup"})
ROLE_PERSON_SAID = "|".join(sorted([*map(re.escape, set(ROLE_WORDS) - _ROLE_PLACES), "toplaners",
                                    r"mid\s+laners?", r"solo\s+laners?", r"top\s+laners?"], key=len, reverse=True))


def _words(phrase: str) -> list[str]:
    return [w.strip("'") for w in re.findall(r"[a-z0-9']+", phrase.lower()) if w.strip("'")]


@lru_cache(maxsize=1)
def domain_words() -> frozenset[str]:
    """Every word of every catalog synonym, label and dimension, plus role, team and cue words."""
    words: set[str] = set(CUES) | set(ROLE_WORDS)
    for m in METRICS.values():
        for phrase in (m.id.replace("_", " "), m.label, *m.synonyms, *m.weak_synonyms, *m.noted_synonyms):
            words.update(_words(phrase))
    for d in DIMENSIONS.values():
        for phrase in (d.id.replace("_", " "), d.label, *d.synonyms):
            words.update(_words(phrase))
    # the base forms of catalog words count too: "spam" is read when the catalog says "spammed"
    return frozenset(words | {f for w in words for f in stems(w)})


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    return NEUTRAL | POPULATION | FRAME_NOUNS | FILLERS | domain_words()


def stems(word: str) -> list[str]:
    """The word and its plain English base forms, so "healers", "tanked" and "topped" count as known."""
    forms = [word, re.sub(r"([b-df-hj-np-tv-z])\1(ed|ing|er|ers|est)$", r"\1", word)]
    for suffix, repl in (("'s", ""), ("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""),
                         ("ing", "e"), ("er", ""), ("ers", ""), ("est", ""), ("ly", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            forms.append(word[: len(word) - len(suffix)] + repl)
    return forms


def unknown_words(text: str) -> list[str]:
    """The content words of `text` (normalized, names masked) that the planner has no reading for."""
    known = known_words()
    out = []
    for word in _words(text):
        if word == "name" or word.isdigit() or len(word) <= 2 or re.fullmatch(r"\d+(st|nd|rd|th|s|m|k|'s)?", word):
            continue
        if any(form in known for form in stems(word)):
            continue
        out.append(word)
    return list(dict.fromkeys(out))
