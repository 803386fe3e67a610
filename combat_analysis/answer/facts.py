"""Typed facts: each kind of claim an answer makes is a small frozen model, worded by one function.

A share carries its base, a "first" says first of what, a list says how many it leaves out, took and lost name
the side, a count knows its plural. The analyst, the patterns and the composer build facts from rows; `say(fact)`
is the only way a fact becomes a sentence, through `formatting`. Each fact also says what it is about (`about()`:
the entities it names, the figures it states, the window it was computed in), so an answer keeps only the
insights that bear on its question (`bears_on`). A side (team 1 or 2) is what the match-level facts (objectives,
gold, the winner) are told for, not their subject: they bear on a question by their figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from combat_analysis import formatting as fmt
from combat_analysis.answer.results import metric_info
from combat_analysis.catalog import METRICS

# Entities named as the log spells them, never capitalised at the start of a sentence.
_PERIOD_PREPOSITIONS = ("before", "after", "between", "from", "during", "since", "up", "until")
# A figure of something that owns nothing (an ability, a target): the figure "with" or "against" it
EVENT_PREPOSITIONS = {"ability": "with", "item": "with", "target": "against", "target_kind": "against", "victim": "on",
                      "source": "from", "source_kind": "from", "minute": "in", "phase": "in"}


# the catalog's word for a figure done to a target, by the figure's label ("on" for healing done)
_TARGET_PREPOSITIONS = {m.label: m.target_preposition for m in METRICS.values()}


def event_preposition(kind: str, figure: str = "") -> str | None:
    """The preposition of a figure with, against or from something that owns nothing (`EVENT_PREPOSITIONS`); a
    target's is the figure's own (`Metric.target_preposition`): `event_preposition("target", "healing done")` -> "on"."""
    if kind == "target":
        return _TARGET_PREPOSITIONS.get(figure, EVENT_PREPOSITIONS["target"])
    return EVENT_PREPOSITIONS.get(kind)


NAMED_KINDS = frozenset({"player", "god", "ability", "item", "source", "target", "victim", "killer", "objective"})
_KIND_WORDS: dict[str, Callable[[str], str]] = {
    "period": lambda name: name if name.split(" ")[0] in _PERIOD_PREPOSITIONS else f"the {name}",
    "team": lambda name: f"team {name}",
    "role": lambda name: f"the {name} role",
    "minute": lambda name: f"minute {name}",
    "match": lambda _name: "the match",
}


@dataclass(frozen=True)
class Entity:
    """Something a figure belongs to: a player, a team, a role, the match, or a group ("the top three")."""

    kind: str
    name: str

    def words(self, start: bool = False) -> str:
        text = _KIND_WORDS.get(self.kind, str)(self.name)
        return fmt.capital(text) if start and self.kind not in NAMED_KINDS else text

    def possessive(self, start: bool = False) -> str:
        """"VoidWalker's", "team 2's", "the 10 players'" (a group named in the plural)."""
        return fmt.possessive(self.words(start), plural=self.kind == "group")

    @property
    def key(self) -> str:
        """How questions and facts are matched on their subjects: "team 2", "voidwalker"; a kill's side keeps
        its role ("victim:o'malley"), so kills on Y are not matched by Y's own kills."""
        role = f"{self.kind}:" if self.kind in ("killer", "victim") else ""
        return role + self.words().casefold()


MATCH = Entity("match", "match")
SwingShape = Literal["comeback", "stomp", "lead_changes"]


def entity(kind: str | None, name: object) -> Entity:
    """The entity of a result row's dimension column ("team", 2) -> team 2."""
    kind = {"winner_team": "team", "killer_team": "team", "victim_team": "team"}.get(kind or "", kind or "group")
    return Entity(kind, str(name))


# A figure whose label names who it belongs to, said shorter once its owner is named: a non-player's damage is
# "the 4,068 damage dealt by Archer", not "... damage dealt by non-players from Archer"
_OWNED_LABELS = {("npc_damage", "source"): "damage dealt"}


def quantity(figure: str, value: float, owner_kind: str = "") -> str:
    """A figure's value and its label: "9 kills", "1 kill", "192,395 damage dealt", "3.5 KDA"."""
    info = metric_info(figure)
    label = _OWNED_LABELS.get((figure, owner_kind), info.label)
    if info.aggregation == "count" and float(value).is_integer():
        return fmt.counted(int(value), label)
    return f"{fmt.number(value, info.decimals)} {label}"


def _plural_figure(figure: str, value: float) -> bool:
    return metric_info(figure).aggregation == "count" and value != 1


@dataclass(frozen=True)
class Amount:
    """One owner's figure, with what narrows it: "GankMeSenpai's 5 kills on O'Malley"."""

    owner: Entity
    figure: str
    value: float
    qualifier: str = ""  # " on O'Malley", " in the first 10 minutes"

    def words(self, start: bool = False) -> str:
        """"GankMeSenpai's 5 kills on O'Malley"; "the 98,646 damage dealt with Cernunnos Basic Attack" (an
        ability owns no damage)."""
        prep = event_preposition(self.owner.kind, self.figure)
        if (self.figure, self.owner.kind) in _OWNED_LABELS:
            prep = "by"  # the non-player dealt it
        if prep is not None:
            the = "The" if start else "the"
            said = quantity(self.figure, self.value, self.owner.kind)
            return f"{the} {said} {prep} {self.owner.words()}{self.qualifier}"
        return f"{self.owner.possessive(start)} {quantity(self.figure, self.value)}{self.qualifier}"

    @property
    def verb(self) -> str:
        return "are" if _plural_figure(self.figure, self.value) else "is"


# ------------------------------------------------------------------------------------------------ about


@dataclass(frozen=True)
class About:
    """What a fact is about: the entities it names, the figures it states, the window it was computed in."""

    subjects: frozenset[str] = frozenset()
    figures: frozenset[str] = frozenset()
    window: str | None = None


@dataclass(frozen=True)
class Asked:
    """What a question is about, in the same terms: the entities it names or its answer leads with, its
    figures (the patterns it asks for too), its window, and what narrows its figure (a victim, an ability, a
    kind of objective: "kills on O'Malley", "the first Fire Giant")."""

    subjects: frozenset[str] = frozenset()
    figures: frozenset[str] = frozenset()
    window: str | None = None
    narrowed: frozenset[str] = frozenset()  # on a narrowed question, every entity it names


def bears_on(fact: Fact, asked: Asked) -> bool:
    """A pattern's fact bears on the question when it was computed in the question's window (the whole match for
    a question without one), states one of its figures, and, when both name someone, names one of the
    question's subjects: first blood bears on X's kills or deaths when X is in it, never on X's assists nor on
    the kills of someone else. On a narrowed question it must name every entity the question names (first blood
    of X on Y bears on "X's kills on Y", the last objective does not bear on "the first Fire Giant")."""
    about = fact.about()
    if about.window != asked.window:
        return False
    if asked.narrowed and not asked.narrowed <= about.subjects:
        return False
    named_apart = bool(about.subjects and asked.subjects) and not about.subjects & asked.subjects
    return bool(about.figures & asked.figures) and not named_apart


def _keys(entities: Iterable[Entity]) -> frozenset[str]:
    return frozenset(e.key for e in entities)


# ------------------------------------------------------------------------------------------------ facts


@dataclass(frozen=True, kw_only=True)
class Fact:
    """A claim; `window` is the label of the window it was computed in (None: the whole match), and
    `said_window` how its sentence says that window (" in the first 10 minutes"), so a windowed figure never
    reads as the whole match's."""

    window: str | None = None
    said_window: str = ""

    def about(self) -> About:
        return About(window=self.window)


@dataclass(frozen=True, kw_only=True)
class Leader(Fact):
    """The top (or bottom) row of a ranking: "VoidWalker has the highest damage dealt: 192,395."."""

    top: Amount
    lowest: bool = False

    def about(self) -> About:
        return About(_keys([self.top.owner]), frozenset({self.top.figure}), self.window)


@dataclass(frozen=True, kw_only=True)
class Tie(Fact):
    """The rows level at the top: "A and B are tied on kills at 9.", "A, B, C, D, E and 2 more are tied ..."."""

    owners: tuple[Entity, ...]
    figure: str
    value: float

    def about(self) -> About:
        return About(_keys(self.owners), frozenset({self.figure}), self.window)


@dataclass(frozen=True, kw_only=True)
class Margin(Fact):
    """How far the first is from the second: "A has 41,653 damage dealt (27.6%) more than B (150,742)."."""

    first: Amount
    second: Amount
    below: bool = False  # a ranking from the lowest: the first is below the second

    @property
    def difference(self) -> float:
        return abs(self.first.value - self.second.value)

    @property
    def percent(self) -> float | None:
        return self.difference / abs(self.second.value) * 100 if self.second.value else None

    def about(self) -> About:
        return About(_keys([self.first.owner, self.second.owner]), frozenset({self.first.figure}), self.window)


@dataclass(frozen=True, kw_only=True)
class Share(Fact):
    """A part of one or more wholes, each named with its value: "GankMeSenpai's 9 kills are 31.0% of team 2's
    29 kills and 15.8% of the match's 57 kills."."""

    part: Amount
    bases: tuple[Amount, ...]

    def percents(self) -> tuple[float, ...]:
        return tuple(self.part.value / base.value * 100 for base in self.bases if base.value)

    def about(self) -> About:
        owners = [self.part.owner, *(b.owner for b in self.bases)]
        return About(_keys(o for o in owners if o.kind != "group"), frozenset({self.part.figure}), self.window)


@dataclass(frozen=True, kw_only=True)
class Average(Fact):
    """The mean and median of a column: "Across the 10 players, the average kills is 6 and the median 5."."""

    figure: str
    rows: int
    noun: str  # singular: "player", "listed player"
    mean: float
    median: float

    def about(self) -> About:
        return About(figures=frozenset({self.figure}), window=self.window)


@dataclass(frozen=True, kw_only=True)
class Outlier(Fact):
    """A value far outside the others: "A is an outlier on healing done: 28,752 against a median of 536."."""

    value: Amount
    median: float

    def about(self) -> About:
        return About(_keys([self.value.owner]), frozenset({self.value.figure}), self.window)


@dataclass(frozen=True, kw_only=True)
class Totals(Fact):
    """The same figure for two owners, the larger first: "Team 2's players total 677,761 damage dealt against
    team 1's 557,313 (a difference of 120,448)."."""

    larger: Amount
    smaller: Amount

    def about(self) -> About:
        return About(_keys([self.larger.owner, self.smaller.owner]), frozenset({self.larger.figure}), self.window)


@dataclass(frozen=True, kw_only=True)
class Rank(Fact):
    """Where one owner stands among all: "A ranks 2 of 10 players on kills; the match median is 6 and the leader
    is B (10)."."""

    value: Amount
    rank: int
    of: int
    median: float
    leader: Amount

    def about(self) -> About:
        return About(_keys([self.value.owner, self.leader.owner]), frozenset({self.value.figure}), self.window)


@dataclass(frozen=True, kw_only=True)
class Values(Fact):
    """Several owners' values of one figure: "Damage dealt — team 1: 557,313; team 2: 677,761."."""

    figure: str
    values: tuple[Amount, ...]

    def about(self) -> About:
        return About(_keys(v.owner for v in self.values), frozenset({self.figure}), self.window)


@dataclass(frozen=True, kw_only=True)
class Peak(Fact):
    """The highest minute of a series: "Damage dealt peaks at minute 20 with 13,867."."""

    figure: str
    minute: int
    value: float

    def about(self) -> About:
        return About(figures=frozenset({self.figure}), window=self.window)


@dataclass(frozen=True, kw_only=True)
class Trend(Fact):
    """The first half of a series against the second: rising, falling or flat."""

    figure: str
    early: float
    late: float

    @property
    def direction(self) -> str:
        return "rising" if self.late > self.early * 1.1 else "falling" if self.late < self.early * 0.9 else "flat"

    def about(self) -> About:
        return About(figures=frozenset({self.figure}), window=self.window)


@dataclass(frozen=True, kw_only=True)
class GoldLead(Fact):
    """A team's gold lead at a minute: "Team 2 ends minute 31 ahead by 21,644 gold." (`biggest`: its biggest
    lead of the period)."""

    team: int
    minute: int
    lead: float
    biggest: bool = False

    def about(self) -> About:
        return About(figures=frozenset({"gold_diff", "gold_swing"}), window=self.window)


@dataclass(frozen=True, kw_only=True)
class Listing(Fact):
    """Items of one kind, in order, every one of them held: the sentence writes out `shown` and says how many
    more there are: "12 deaths: 2:58 ...; 4:08 ...; and 6 more."."""

    noun: str  # singular: "death", "objective", "kill"
    items: tuple[str, ...]
    shown: int = 12
    owner: Entity | None = None  # whose: "GankMeSenpai's 12 deaths"
    kind: str = ""  # what kind of the noun, after it: " to players" ("11 deaths to players")
    figures: tuple[str, ...] = ()

    @property
    def left_out(self) -> int:
        return max(len(self.items) - self.shown, 0)

    def about(self) -> About:
        return About(_keys([self.owner] if self.owner else []), frozenset(self.figures), self.window)


@dataclass(frozen=True, kw_only=True)
class Tally(Fact):
    """How many of a kind of objective a side took or lost, out of how many: "Team 1 took 8 of the 14
    objectives."; "Team 2 lost 3 towers."."""

    team: int
    verb: Literal["took", "lost"]
    noun: str  # singular: "objective", "tower"
    count: int
    of: int | None = None

    def about(self) -> About:
        return About(figures=OBJECTIVE_FIGURES, window=self.window)


@dataclass(frozen=True, kw_only=True)
class First(Fact):
    """The first (or last) of a kind of event, saying of what, the taking team first: "Team 2 took the first Fire
    Giant (at 23:47, last hit by VoidWalker42)."; "Team 2 took the first objective (the Order Tower, at 9:13, last
    hit by Brute)."."""

    ordinal: Literal["first", "last"] = "first"
    noun: str  # the kind it is the first of, singular: "objective", "Fire Giant", "tower"
    second: int
    thing: str = ""  # what it was, when the kind is wider ("Order Tower" for the first objective)
    taker: int | None = None  # the team that took it
    by: str | None = None  # who dealt the blow
    scope: str = ""  # whose kind it is the first of: "team 1's"
    player: str = ""  # the player (players) whose own first it is: "Brisk's"

    def about(self) -> About:
        return About(_keys([Entity("objective", self.thing or self.noun)]), OBJECTIVE_FIGURES, self.window)


@dataclass(frozen=True, kw_only=True)
class DeathCount(Fact):
    """Deaths by cause: "Players died to structures 4 times."; "GankMeSenpai died to the Fire Giant 1 time."."""

    victim: Entity | None  # a player or a team; None: every player
    cause: str  # "structures", "the Fire Giant"; "" for any cause
    count: int

    def about(self) -> About:
        return About(_keys([self.victim] if self.victim else []), frozenset({"deaths"}), self.window)


@dataclass(frozen=True, kw_only=True)
class KillDeathGap(Fact):
    """Why the match's deaths outnumber its kills (METRICS.md: kills are player kills, deaths come from any source, and
    the difference is the deaths to non-players): "173 deaths against 158 kills: the other 15 were to non-players"."""

    kills: int
    deaths: int

    def about(self) -> About:
        return About(frozenset({"match"}), frozenset({"kills", "deaths"}), self.window)


@dataclass(frozen=True, kw_only=True)
class Winner(Fact):
    """Who took the enemy Titan: "Team 1 won the match by destroying the enemy Titan." (None: no Titan fell)."""

    team: int | None

    def about(self) -> About:
        return About(figures=frozenset({"winner"}), window=self.window)


@dataclass(frozen=True, kw_only=True)
class FirstBlood(Fact):
    """The earliest player kill: "First blood: Tsunami88 (team 2) killed ÁngelDeth at 3:52."."""

    killer: str
    killer_team: int | None
    victim: str
    second: int

    def about(self) -> About:
        # the first player kill: one of the killer's kills and one of the victim's deaths
        return About(_keys([Entity("player", self.killer), Entity("player", self.victim),
                            Entity("killer", self.killer), Entity("victim", self.victim)]),
                     frozenset({"first_blood", "kills", "deaths"}), self.window)


@dataclass(frozen=True, kw_only=True)
class Streak(Fact):
    """The longest run of kills without dying: "Longest kill streak: Brisk with 7 kills without dying (3:01 to
    9:40)."."""

    player: str
    kills: int
    start: int
    end: int

    def about(self) -> About:
        return About(_keys([Entity("player", self.player)]), frozenset({"kill_streaks", "kills"}), self.window)


@dataclass(frozen=True, kw_only=True)
class Fights(Fact):
    """Team fights: how many, who won how many, and the biggest."""

    fights: int
    won: tuple[int, int]  # by team 1, by team 2
    biggest: int  # its number
    biggest_second: int
    biggest_deaths: int
    gap_s: int
    min_deaths: int

    def about(self) -> About:
        return About(figures=frozenset({"team_fights"}), window=self.window)


@dataclass(frozen=True, kw_only=True)
class GoldSwing(Fact):
    """The gold story of a match, told for the winner (or, with none known, the team that finished ahead):
    its final lead (negative: it finished behind) and the other team's biggest lead and when."""

    team: int
    won: bool  # the team won the match (False: it only finished ahead on gold, no winner known)
    final_lead: float
    rival_lead: float
    rival_minute: int
    shape: SwingShape

    def about(self) -> About:
        return About(figures=frozenset({"gold_swing", "gold_diff", "winner"}), window=self.window)


@dataclass(frozen=True)
class Death:
    """One death of a player, with the damage it took in the recap window before it."""

    second: int
    killer: str
    damage_taken: float
    sources: int
    top_source: str | None
    top_source_damage: float


@dataclass(frozen=True, kw_only=True)
class Recap(Fact):
    """How a player died: every death held, the deadliest told in full, `shown` of the others listed."""

    player: str
    deaths: tuple[Death, ...]
    window_s: int
    shown: int = 0

    @property
    def deadliest(self) -> Death:
        return max(self.deaths, key=lambda d: (d.damage_taken, -d.second))

    def about(self) -> About:
        # every death of the player, the first blood they gave up among them
        return About(_keys([Entity("player", self.player)]), frozenset({"death_recap", "deaths", "first_blood"}),
                     self.window)


@dataclass(frozen=True, kw_only=True)
class Build(Fact):
    """A player's purchases in order: "PapiTacos bought 25 items, starting with Blink Rune and ending with
    Mana Potion."."""

    player: str
    items: tuple[str, ...]

    def about(self) -> About:
        return About(_keys([Entity("player", self.player)]), frozenset({"build", "items_purchased"}), self.window)


OBJECTIVE_FIGURES = frozenset({"objective_events", "objectives_taken", "towers", "phoenixes", "titans", "gold_furies",
                               "fire_giants", "winner"})

# ------------------------------------------------------------------------------------------------ wording


# a mean or median of whole numbers need not be whole: 30.9 assists on average is not 31 (trailing zeros go)
STAT_DECIMALS = 2


def _leader(f: Leader) -> str:
    best = lowest(f.top.figure) if f.lowest else "highest"
    info = metric_info(f.top.figure)
    return (f"{f.top.owner.words(True)} has the {best} {info.label}{f.said_window}: "
            f"{fmt.number(f.top.value, info.decimals)}")


TIED_NAMED = 5  # more rows level at the top than this are counted ("and 3 more")


def _tie(f: Tie) -> str:
    info = metric_info(f.figure)
    names = fmt.names_of([o.words(i == 0) for i, o in enumerate(f.owners)], TIED_NAMED)
    return f"{names} are tied on {info.label}{f.said_window} at {fmt.number(f.value, info.decimals)}"


def lowest(figure: str) -> str:
    """"fewest deaths", "lowest damage dealt": a count is few, an amount low."""
    return "fewest" if metric_info(figure).aggregation == "count" else "lowest"


def more_or_less(figure: str, below: bool) -> str:
    """How one value stands to another without judging it: more deaths is no lead, so never "ahead"."""
    if not below:
        return "more"
    return "fewer" if metric_info(figure).aggregation == "count" else "less"


def _margin(f: Margin) -> str:
    """A sum or a count is had: "A has 5 kills (20%) more than B (25)"; any other figure (a KDA, a rate, the
    biggest hit) is a level: "A's KDA is 0.50 (12.5%) higher than B's (4.00)"."""
    info = metric_info(f.first.figure)
    pct = f" ({fmt.percent(f.percent)})" if f.percent is not None else ""
    second = f"({fmt.number(f.second.value, info.decimals)}){f.said_window}"
    if not info.additive:
        relation = "lower" if f.below else "higher"
        gap = fmt.number(f.difference, info.decimals)
        if info.unit == "%":  # a gap between two percentages is in points: "6.72 percentage points higher"
            gap, second = f"{gap} percentage points", f"({fmt.number(f.second.value, info.decimals)}%){f.said_window}"
        return (f"{f.first.owner.possessive(True)} {info.label}{f.first.qualifier} is "
                f"{gap}{pct} {relation} than {f.second.owner.possessive()} {second}")
    return (f"{f.first.owner.words(True)} has {quantity(f.first.figure, f.difference, f.first.owner.kind)}"
            f"{f.first.qualifier}{pct} "
            f"{more_or_less(f.first.figure, f.below)} than {f.second.owner.words()} {second}")


def _share(f: Share) -> str:
    parts = [f"{fmt.percent(p)} of {base.words()}" for p, base in zip(f.percents(), f.bases, strict=False)]
    return f"{f.part.words(True)} {f.part.verb} {fmt.join_and(parts)}"


def _average(f: Average) -> str:
    info = metric_info(f.figure)
    label = f"number of {info.label}" if info.aggregation == "count" else info.label
    return (f"Across the {fmt.count(f.rows, f.noun)}, the average {label}{f.said_window} is "
            f"{fmt.number(f.mean, STAT_DECIMALS)} and the median {fmt.number(f.median, STAT_DECIMALS)}")


def _outlier(f: Outlier) -> str:
    info = metric_info(f.value.figure)
    return (f"{f.value.owner.words(True)} is an outlier on {info.label}{f.said_window}: "
            f"{fmt.number(f.value.value, info.decimals)} "
            f"against a median of {fmt.number(f.median, STAT_DECIMALS)}")


def _totals(f: Totals) -> str:
    info = metric_info(f.larger.figure)
    diff = f.larger.value - f.smaller.value
    return (f"{f.larger.owner.possessive(True)} players total {quantity(f.larger.figure, f.larger.value)}"
            f"{f.said_window}, {f.smaller.owner.possessive()} {fmt.number(f.smaller.value, info.decimals)} "
            f"(a difference of {fmt.number(diff, info.decimals)})")


def _rank(f: Rank) -> str:
    info = metric_info(f.value.figure)
    text = (f"{f.value.owner.words(True)} ranks {f.rank} of {fmt.count(f.of, 'player')} on {info.label}"
            f"{f.said_window}; the match median is {fmt.number(f.median, STAT_DECIMALS)}")
    if f.rank == 1:
        return text
    return f"{text} and the leader is {f.leader.owner.words()} ({fmt.number(f.leader.value, info.decimals)})"


def _values(f: Values) -> str:
    info = metric_info(f.figure)
    parts = "; ".join(f"{v.owner.words()}: {fmt.number(v.value, info.decimals)}" for v in f.values)
    return f"{fmt.capital(info.label)}{f.said_window} — {parts}"


def _peak(f: Peak) -> str:
    info = metric_info(f.figure)
    return f"{fmt.capital(info.label)} peaks at minute {f.minute} with {fmt.number(f.value, info.decimals)}"


def _trend(f: Trend) -> str:
    decimals = metric_info(f.figure).decimals
    return (f"The trend is {f.direction}: {fmt.number(f.early, decimals)} per minute on average in the first half "
            f"of the period against {fmt.number(f.late, decimals)} in the second")


def _gold_lead(f: GoldLead) -> str:
    if f.biggest:
        return f"Team {f.team}'s biggest lead: {fmt.number(abs(f.lead))} gold at minute {f.minute}"
    return f"Team {f.team} ends minute {f.minute} ahead by {fmt.number(abs(f.lead))} gold"


def items_said(f: Listing) -> str:
    """The items written out, and how many more there are: "a; b; c; and 6 more"."""
    shown = "; ".join(f.items[: f.shown])
    return shown + (f"; and {f.left_out} more" if f.left_out else "")


def _listing(f: Listing) -> str:
    owner = f.owner.possessive(True) + " " if f.owner else ""
    head = f"{owner}{fmt.count(len(f.items), f.noun)}{f.kind}"
    return fmt.capital(f"{head}: {items_said(f)}") if f.items else fmt.capital(head)


def _tally(f: Tally) -> str:
    if f.of is None:
        return f"Team {f.team} {f.verb} {fmt.count(f.count, f.noun)}{f.said_window}"
    if f.of == 1:
        return f"Team {f.team} {f.verb} {'the only' if f.count else 'no'} {f.noun}{f.said_window}"
    how_many = "all" if f.count == f.of else "none of the" if f.count == 0 else f"{f.count} of the"
    return f"Team {f.team} {f.verb} {how_many} {fmt.count(f.of, f.noun)}{f.said_window}"


def _first(f: First) -> str:
    if f.player:  # a player's own first (last) one: "Brisk's last tower was the Order Tower, at 25:00"
        what = f"the {f.thing}, " if f.thing and f.thing.casefold() != f.noun.casefold() else ""
        return f"{f.player} {f.ordinal} {f.noun}{f.said_window} was {what}at {fmt.clock(f.second)}"
    if f.taker is not None:  # the taking team leads, so the owner's side word in the thing's name never reads as it
        thing = [f"the {f.thing}"] if f.thing and f.thing.casefold() != f.noun.casefold() else []
        said = ", ".join([*thing, f"at {fmt.clock(f.second)}", *([f"last hit by {f.by}"] if f.by else [])])
        return f"Team {f.taker} took {f.scope or 'the'} {f.ordinal} {f.noun}{f.said_window} ({said})"
    scope = f"{f.scope} " if f.scope else ""
    took = "taken by no known team"
    blow = f" (the blow came from {f.by})" if f.by else ""
    if f.thing and f.thing.casefold() != f.noun.casefold():
        return f"The {f.ordinal} {scope}{f.noun}{f.said_window} was the {f.thing}, {took} at {fmt.clock(f.second)}{blow}"
    return f"The {f.ordinal} {scope}{f.noun}{f.said_window} was {took} at {fmt.clock(f.second)}{blow}"


def _death_count(f: DeathCount) -> str:
    cause = f" to {f.cause}" if f.cause else ""
    if f.count == 0:  # "0 times" is not how anyone says it
        return f"{f.victim.words(True)} never died{cause} (0 deaths)" if f.victim else f"No player died{cause} (0 deaths)"
    who = f.victim.words(True) if f.victim else "Players"
    return f"{who} died{cause} {fmt.times(f.count)}"


def _kill_death_gap(f: KillDeathGap) -> str:
    gap = f.deaths - f.kills
    if gap == 0:
        return (f"Kills and deaths match{f.said_window} ({fmt.number(f.kills)} each): kills count only players killing "
                "players, deaths count every source, and no player died to a non-player")
    return (f"They differ by {fmt.number(gap)}{f.said_window}: kills count only players killing players, deaths count "
            f"every killing blow on a player, so {fmt.count(gap, 'death')} of the {fmt.number(f.deaths)} "
            f"{'was' if gap == 1 else 'were'} to non-players (towers, phoenixes, Titans, minions, jungle camps or bosses)")


def _winner(f: Winner) -> str:
    if f.team is None:
        return "No Titan fell in this log, so the winner is not recorded"
    return f"Team {f.team} won the match by destroying the enemy Titan"


def _first_blood(f: FirstBlood) -> str:
    team = f" (team {f.killer_team})" if f.killer_team is not None else ""
    return f"First blood: {f.killer}{team} killed {f.victim} at {fmt.clock(f.second)}"


def _streak(f: Streak) -> str:
    return (f"Longest kill streak: {f.player} with {fmt.count(f.kills, 'kill')} without dying "
            f"({fmt.clock(f.start)} to {fmt.clock(f.end)})")


def _fights(f: Fights) -> str:
    rule = f"at least {f.min_deaths} deaths within {f.gap_s} s of each other"
    if f.won[0] == f.won[1]:
        head = f"{fmt.count(f.fights, 'team fight')} ({rule}), split evenly between the teams"
    else:
        lead = 1 if f.won[0] > f.won[1] else 2
        head = f"{fmt.count(f.fights, 'team fight')} ({rule}); team {lead} won {f.won[lead - 1]} of them"
    lives = "1 life" if f.biggest_deaths == 1 else f"{f.biggest_deaths} lives"
    return f"{head}. The biggest, fight {f.biggest} at {fmt.clock(f.biggest_second)}, cost {lives}"


def _ahead_or_behind(lead: float) -> str:
    return f"{fmt.number(abs(lead))} gold {'ahead' if lead >= 0 else 'behind'}"


def _gold_swing(f: GoldSwing) -> str:
    rival = 3 - f.team
    outcome = "won the match, finishing" if f.won else "finished"
    if f.shape == "comeback":
        return (f"Team {f.team} came back: it was behind by {fmt.number(f.rival_lead)} gold at minute {f.rival_minute} "
                f"and {outcome} {_ahead_or_behind(f.final_lead)}")
    if f.shape == "stomp":
        won = " and won the match" if f.won else ""
        return (f"Team {f.team} led on gold from start to finish (a stomp){won}, ending "
                f"{_ahead_or_behind(f.final_lead)}; team {rival} never led")
    return (f"Team {f.team} {outcome} {_ahead_or_behind(f.final_lead)}; team {rival}'s biggest lead was "
            f"{fmt.number(f.rival_lead)} gold at minute {f.rival_minute}")


def death_said(d: Death) -> str:
    return f"{fmt.clock(d.second)} (killed by {d.killer}, {fmt.number(d.damage_taken)} damage taken)"


def _recap(f: Recap) -> str:
    worst = f.deadliest
    source = (f", most of it from {worst.top_source} ({fmt.number(worst.top_source_damage)})"
              if worst.top_source else "")
    text = (f"{f.player} died {fmt.times(len(f.deaths))}. The deadliest death came at "
            f"{fmt.clock(worst.second)}: {fmt.number(worst.damage_taken)} damage from {fmt.count(worst.sources, 'source')} "
            f"in the {f.window_s} s before dying{source}; {worst.killer} dealt the killing blow")
    if not f.shown:
        return text
    others = Listing(noun="death", items=tuple(death_said(d) for d in f.deaths if d is not worst), shown=f.shown)
    return f"{text}. The other deaths: {items_said(others)}" if others.items else text


def _build(f: Build) -> str:
    return (f"{f.player} bought {fmt.count(len(f.items), 'item')}{f.said_window}, starting with {f.items[0]} and "
            f"ending with {f.items[-1]}") if f.items else f"{f.player} bought no items{f.said_window}"


SAY: dict[type, Callable] = {
    Leader: _leader, Tie: _tie, Margin: _margin, Share: _share, Average: _average, Outlier: _outlier,
    Totals: _totals, Rank: _rank, Values: _values, Peak: _peak, Trend: _trend, GoldLead: _gold_lead,
    Listing: _listing, Tally: _tally, First: _first, DeathCount: _death_count, Winner: _winner,
    KillDeathGap: _kill_death_gap,
    FirstBlood: _first_blood, Streak: _streak, Fights: _fights, GoldSwing: _gold_swing, Recap: _recap,
    Build: _build,
}


def say(fact: Fact) -> str:
    """The fact as one sentence (or, for a recap, a few), ending in a full stop. Each kind's function starts it
    with a capital, but for a name, which keeps the log's spelling."""
    return fmt.full_stop(SAY[type(fact)](fact))


def say_all(facts: Iterable[Fact]) -> str:
    return " ".join(say(f) for f in facts)


__all__ = ["About", "Amount", "Asked", "Average", "Build", "Death", "DeathCount", "Entity", "Fact", "Fights", "First",
           "FirstBlood", "GoldLead", "GoldSwing", "KillDeathGap", "Leader", "Listing", "MATCH", "Margin", "OBJECTIVE_FIGURES",
           "Outlier", "Rank", "Recap", "Share", "Streak", "SwingShape", "Tally", "Tie", "Totals", "Trend", "Values", "Winner",
           "bears_on", "death_said", "entity", "items_said", "lowest", "more_or_less", "quantity", "say", "say_all"]
