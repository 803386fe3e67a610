"""Generated questions in other words, over simulated matches the planner has never seen.

Templates are crossed with metric synonyms, name forms (exact, lower case, a fragment, a dropped letter,
accents left out, a possessive) and windows; each question's expectation is computed by the independent
reference calculator `../shared/tools/truth.py` over the same log, and judged by `../shared/tools/score.py`'s
own rules. Players are renamed to unusual names (accents, spaces, digits, CJK, apostrophes) so no name the
planner was tuned on appears.

Sets that never share a seed or a template: DEV (used while developing), HELD_OUT (written early and run
once, near the end; its failures were then fixed as kinds, so it is no longer held out), HELD_OUT_2 (written
after that run and before those fixes, run once after them; its failures were fixed as kinds too) and
HELD_OUT_3 (written after those fixes, run once). Run any in full with

    .venv/bin/python -m tests.support.paraphrases dev|held-out|held-out-2|held-out-3 [--verbose]

`tests/planner/test_paraphrases.py` runs a fixed sample of the dev set in the test suite.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.paths import SHARED

DEV_SEEDS = (101, 202, 303)
HELD_OUT_SEEDS = (4242, 5353, 6464)


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


truth_tool = _load("shared_truth", SHARED / "tools" / "truth.py")
score_tool = _load("shared_score", SHARED / "tools" / "score.py")

# ------------------------------------------------------------------------------------------- players

ADJECTIVES = ["Salty", "Crimson", "Lazy", "Frozen", "Silent", "Rusty", "Lucky", "Grumpy", "Hollow", "Velvet"]
NOUNS = ["Badger", "Comet", "Walrus", "Pixel", "Falcon", "Noodle", "Otter", "Raven", "Mango", "Thistle"]
ACCENTED = ["Ébène", "Jörmund", "Łukasz", "Søren", "Çelik", "Ñandú", "Zoë", "Åsa"]
CJK = ["熊", "龍", "星", "狐"]


def unusual_names(rng: random.Random, count: int = 10) -> list[str]:
    """Distinct player names in the shapes real logs have, none a word the planner knows."""
    styles: list[Callable[[], str]] = [
        lambda: f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {rng.randint(1, 9)}",
        lambda: f"xX{rng.choice(NOUNS)}Xx",
        lambda: f"{rng.choice(NOUNS).lower()}{rng.choice(ADJECTIVES)}_{rng.randint(10, 99)}",
        lambda: f"{rng.choice(ACCENTED)}{rng.choice(NOUNS)}",
        lambda: f"{rng.choice(NOUNS)}{rng.choice(CJK)}",
        lambda: f"{rng.choice(ADJECTIVES)}'{rng.choice(NOUNS).lower()}",
        lambda: f"zzz{rng.choice(ADJECTIVES)}",
        lambda: f"{rng.choice(ACCENTED)}_{rng.choice(ADJECTIVES)}",
    ]
    out: list[str] = []
    parts_seen: set[str] = set()
    while len(out) < count:
        name = rng.choice(styles)()
        parts = {p.lower() for p in re.findall(r"[A-Za-zÀ-ÿŁłØøÅåÇçÑñ]{4,}", name)}
        if name in out or parts & parts_seen:
            continue  # every word of a name is this name's own, so a fragment points at one player
        parts_seen |= parts
        out.append(name)
    return out


@dataclass(frozen=True)
class Match:
    seed: int
    log: Path
    truth: dict
    events: list
    names: tuple[str, ...]


def build_match(seed: int, folder: Path) -> Match:
    """A simulated match with its players renamed, and the truth figures of the renamed log."""
    from combat_analysis.ingest.simulate import NAMES, write_match

    raw = folder / f"raw_{seed}.log"
    write_match(raw, seed)
    text = raw.read_text(encoding="utf-8-sig")
    rng = random.Random(seed * 7 + 1)
    new = unusual_names(rng, len(NAMES))
    mapping = dict(zip(sorted(NAMES, key=len, reverse=True), new, strict=True))
    for old, renamed in mapping.items():
        text = text.replace(json.dumps(old, ensure_ascii=False)[1:-1], json.dumps(renamed, ensure_ascii=False)[1:-1])
    log = folder / f"match_{seed}.log"
    log.write_text("\ufeff" + text, encoding="utf-8", newline="")
    events, bad = truth_tool.load(log)
    figures = truth_tool.figures(events, bad)
    return Match(seed, log, figures, events, tuple(figures["players"]))


# --------------------------------------------------------------------------------------------- names

def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _parts(name: str) -> list[str]:
    return [p for p in re.findall(r"[A-Z]?[a-z\u00C0-\u024F]+|[A-Z]+(?![a-z])", _fold(name)) if len(p) >= 4]


def name_forms(name: str, players: tuple[str, ...], rng: random.Random) -> list[tuple[str, str]]:
    """(how, what a person types) for a player: exact, lower case, accents out, a fragment, a dropped letter."""
    forms = [("exact", name), ("lower", name.lower())]
    if _fold(name) != name:
        forms.append(("no accents", _fold(name)))
    others = [_fold(p).lower() for p in players if p != name]
    fragments = [p for p in _parts(name) if not any(p.lower() in o for o in others)]
    if fragments:
        fragment = rng.choice(fragments)
        forms.append(("fragment", fragment.lower()))
        if len(fragment) >= 6:
            i = rng.randint(1, len(fragment) - 2)
            forms.append(("dropped letter", (fragment[:i] + fragment[i + 1:]).lower()))
    return forms


# ------------------------------------------------------------------------------------------------ cases

@dataclass(frozen=True)
class Case:
    id: str
    question: str
    expect: dict
    kind: str
    previous: tuple[str, ...] = ()


@dataclass
class Gen:
    """What a template needs: the match, a random source, and helpers over the truth figures."""

    match: Match
    rng: random.Random
    counter: list[int] = field(default_factory=lambda: [0])

    @property
    def t(self) -> dict:
        return self.match.truth

    @property
    def players(self) -> dict:
        return self.t["players"]

    def form(self, name: str, how: str | None = None) -> str:
        forms = name_forms(name, self.match.names, self.rng)
        if how:
            chosen = [f for h, f in forms if h == how]
            if chosen:
                return chosen[0]
        return self.rng.choice(forms)[1]

    def ranked(self, key: str, reverse: bool = True) -> list[tuple[str, float]]:
        return sorted(((p, float(v[key])) for p, v in self.players.items()), key=lambda kv: (-kv[1] if reverse
                                                                                            else kv[1], kv[0]))

    def leaders(self, key: str, reverse: bool = True) -> tuple[list[str], float]:
        ranked = self.ranked(key, reverse)
        best = ranked[0][1]
        return [p for p, v in ranked if v == best], best

    def distinct(self, ranked: list[tuple[str, float]], n: int) -> bool:
        values = [v for _, v in ranked[: n + 1]]
        return len(set(values)) == len(values)

    def case(self, kind: str, question: str, expect: dict, previous: tuple[str, ...] = ()) -> Case:
        self.counter[0] += 1
        return Case(f"{self.match.seed}-{self.counter[0]:03d}-{kind}", question, expect, kind, previous)


# Per-player figures: (truth key, phrases a person would use, tolerance)
FIGURES = {
    "damage_dealt": (["damage", "dmg", "total damage", "damage output"], {}),
    "healing_done": (["healing", "heals"], {}),
    "kills": (["kills", "frags"], {}),
    "deaths": (["deaths"], {}),
    "assists": (["assists"], {}),
    "gold": (["gold", "money"], {}),
    "experience": (["xp", "experience"], {}),
    "damage_taken": (["damage taken", "damage received"], {}),
    "mitigated": (["damage mitigated", "mitigation"], {}),
    "crits": (["crits", "critical hits"], {}),
    "damage_to_players": (["damage to gods", "damage to enemy players"], {}),
    "kda": (["KDA", "k/d/a"], {"abs_tol": 0.011}),
    "kd": (["K/D", "kill death ratio", "kd ratio"], {"abs_tol": 0.011}),
    "gpm": (["GPM", "gold per minute"], {"abs_tol": 0.011}),
    "xpm": (["XPM", "xp per minute", "experience per minute"], {"abs_tol": 0.011}),
    "dpm": (["DPM", "damage per minute", "DPS"], {"abs_tol": 0.011}),
    "cc_applied": (["crowd control", "cc"], {}),
    "biggest_hit": (["biggest hit", "hardest hit", "biggest crit", "largest single hit", "burst"], {}),
}
# Window figures truth.window_stats computes
WINDOW_FIGURES = {"damage_dealt": ["damage", "dmg"], "kills": ["kills"], "gold": ["gold"], "deaths": ["deaths"],
                  "healing_done": ["healing"]}
WINDOWS = [  # (phrase, lo, hi or None, from_end)
    ("in the first 10 minutes", 0, 600, False), ("during the first five minutes", 0, 300, False),
    ("after minute 20", 1200, None, False), ("before minute 15", 0, 900, False),
    ("between minute 5 and 15", 300, 900, False), ("in the last 10 minutes", 600, None, True),
    ("in the early game", 0, 600, False), ("in the late game", 1200, None, False),
]


def _window_stats(g: Gen, lo: int, hi: int | None, from_end: bool) -> dict:
    if from_end:
        lo = g.t["duration_seconds"] - lo
    return truth_tool.window_stats(g.match.events, lo, hi)


def _value_expect(metric: str, value: float) -> dict:
    return {"value": round(value, 4), **FIGURES.get(metric, ([], {}))[1]}


# ------------------------------------------------------------------------------------- dev templates

def dev_leader(g: Gen) -> Iterator[Case]:
    templates = ["Who had the most {m}?", "which player racked up the most {m}", "most {m} in the game?",
                 "Who was top in {m}?", "highest {m} this match"]
    for metric, (phrases, _) in FIGURES.items():
        leaders, best = g.leaders(metric)
        q = g.rng.choice(templates).format(m=g.rng.choice(phrases))
        yield g.case("leader", q, {"any_entity": leaders, **_value_expect(metric, best)})


def dev_lookup(g: Gen) -> Iterator[Case]:
    templates = ["How much {m} did {p} have?", "what was {p}'s {m}", "{p} {m}?", "tell me the {m} of {p}"]
    for metric, (phrases, _) in FIGURES.items():
        player = g.rng.choice(list(g.players))
        q = g.rng.choice(templates).format(m=g.rng.choice(phrases), p=g.form(player))
        yield g.case("lookup", q, _value_expect(metric, float(g.players[player][metric])))


def dev_lists(g: Gen) -> Iterator[Case]:
    templates = ["{m} for every player", "list each player's {m}", "rank all the players by {m}",
                 "show everyone's {m}, highest first"]
    for metric in ("damage_dealt", "gold", "healing_done", "experience", "damage_taken"):
        ranked = g.ranked(metric)
        if not g.distinct(ranked, len(ranked) - 1):
            continue
        phrase = g.rng.choice(FIGURES[metric][0])
        yield g.case("list", g.rng.choice(templates).format(m=phrase), {"entities_in_order": [p for p, _ in ranked]})
    for n, word in ((3, "3"), (3, "three"), (5, "five")):
        metric = g.rng.choice(["damage_dealt", "gold", "experience"])
        ranked = g.ranked(metric)
        if g.distinct(ranked, n):
            q = g.rng.choice(["top {n} players by {m}", "who were the top {n} in {m}?"]).format(
                n=word, m=g.rng.choice(FIGURES[metric][0]))
            yield g.case("top", q, {"entities_in_order": [p for p, _ in ranked[:n]]})


def dev_teams(g: Gen) -> Iterator[Case]:
    teams = g.t["teams"]
    for metric, phrase in (("kills", "kills"), ("gold", "gold"), ("deaths", "deaths"), ("damage_dealt", "damage")):
        q = g.rng.choice(["How many {m} did each team get?", "compare the {m} of the two teams",
                          "team 1 vs team 2 {m}"]).format(m=phrase)
        yield g.case("teams", q, {"values": [teams["1"][metric], teams["2"][metric]]})
    team = g.rng.choice(["1", "2"])
    yield g.case("team", f"how much gold did team {team} earn?", {"value": teams[team]["gold"]})


def dev_roles(g: Gen) -> Iterator[Case]:
    for role in ("Support", "Jungle", "Carry"):
        members = [p for p, v in g.players.items() if v["role"] == role]
        word = {"Support": "supports", "Jungle": "junglers", "Carry": "adcs"}[role]
        yield g.case("role group", f"how did the {word} do", {"entities": members})
        metric = g.rng.choice(["gpm", "damage_dealt", "kills"])
        ranked = sorted(members, key=lambda p: -float(g.players[p][metric]))
        if g.players[ranked[0]][metric] != g.players[ranked[1]][metric]:
            single = word[:-1]
            q = f"which {single} had the better {g.rng.choice(FIGURES[metric][0])}"
            yield g.case("role best", q, {"entity": ranked[0], **_value_expect(metric, float(g.players[ranked[0]][metric]))})


def dev_windows(g: Gen) -> Iterator[Case]:
    for phrase, lo, hi, from_end in g.rng.sample(WINDOWS, 5):
        stats = _window_stats(g, lo, hi, from_end)
        metric = g.rng.choice(list(WINDOW_FIGURES))
        ranked = sorted(stats.items(), key=lambda kv: -kv[1][metric])
        best = ranked[0][1][metric]
        leaders = [p for p, v in ranked if v[metric] == best]
        word = g.rng.choice(WINDOW_FIGURES[metric])
        q = g.rng.choice(["Who had the most {m} {w}?", "{w}, who got the most {m}?"]).format(m=word, w=phrase)
        yield g.case("window", q[0].upper() + q[1:], {"any_entity": leaders, "value": best})
    player = g.rng.choice(list(g.players))
    first = _window_stats(g, 0, 600, False)[player]["damage_dealt"]
    last = _window_stats(g, 600, None, True)[player]["damage_dealt"]
    yield g.case("window compare", f"{g.form(player)}'s damage in the first ten minutes against the last ten",
                 {"values": [first, last]})
    early = sum(v["damage_dealt"] for v in _window_stats(g, 0, 600, False).values())
    late = sum(v["damage_dealt"] for v in _window_stats(g, 1200, None, False).values())
    yield g.case("phases", "how did total damage shift between early, mid and late game", {"values": [early, late]})


def dev_events(g: Gen) -> Iterator[Case]:
    fb = g.t["first_blood"]
    yield g.case("first blood", g.rng.choice(["Who drew first blood, and at what time?", "when was first blood and who got it"]),
                 {"entity": fb["killer"], "time_s": fb["second"]})
    question = g.rng.choice(["who won the game?", "which side took the win"])
    if g.t["winner"]:
        yield g.case("winner", question, {"team": g.t["winner"]})
    else:  # no Titan fell: the answer must say the winner is unknown, not guess
        yield g.case("winner", question, {"text_any": ["cannot be determined", "not known", "unknown"]})
    yield g.case("length", g.rng.choice(["How long did the game last?", "what was the match duration"]),
                 {"time_s": g.t["duration_seconds"]})
    first, last = g.t["first_objective"], g.t["last_objective"]
    yield g.case("first objective", "when was the first objective taken?", {"time_s": first["second"]})
    yield g.case("last objective", "what was the last objective to fall", {"entity": last["target"], "time_s": last["second"]})
    yield g.case("deaths total", "how many deaths were there in total?", {"value": g.t["total_deaths"]})


def dev_abilities(g: Gen) -> Iterator[Case]:
    player = g.rng.choice(list(g.players))
    abilities = list(g.players[player]["abilities"].items())
    if len(abilities) >= 4 and len({v for _, v in abilities[:4]}) == 4:
        q = f"which abilities did {g.form(player, 'fragment')} use, and how much damage did each do?"
        yield g.case("abilities", q, {"entities_in_order": [a for a, _ in abilities[:3]], "value": abilities[0][1]})
    top = g.t["top_abilities"]
    if len({v for _, v in top[:4]}) == 4:
        yield g.case("top abilities", "top 3 abilities by damage", {"entities_in_order": [a for a, _ in top[:3]]})
    hits = g.players[player]["ability_hits"]
    most = max(hits.values())
    yield g.case("most used", f"what was {g.form(player)}'s most used ability",
                 {"any_entity": [a for a, v in hits.items() if v == most]})
    killers = [(p, v["kills_by_ability"]) for p, v in g.players.items() if v["kills_by_ability"]]
    if killers:
        p, by = g.rng.choice(killers)
        best = max(by.values())
        yield g.case("kills by ability", f"which ability got {g.form(p)} the most kills",
                     {"any_entity": [a for a, v in by.items() if v == best], "value": best})


def dev_builds(g: Gen) -> Iterator[Case]:
    player = g.rng.choice(list(g.players))
    items = list(dict.fromkeys(g.players[player]["items"]))[:3]
    q = g.rng.choice(["what did {p} build?", "{p}'s build order", "which items did {p} buy"]).format(p=g.form(player))
    yield g.case("build", q, {"entities_in_order": items})


def dev_mvp(g: Gen) -> Iterator[Case]:
    from combat_analysis.answer.mvp import mvp_ranking

    taken: dict[str, int] = {}
    for o in g.t["objectives"]:
        if o["killer_is_player"]:
            taken[o["killer"]] = taken.get(o["killer"], 0) + 1
    stats = {p: {"kills": v["kills"], "assists": v["assists"], "deaths": v["deaths"],
                 "damage_to_players": v["damage_to_players"], "healing_done": v["healing_done"],
                 "damage_mitigated": v["mitigated"], "objectives_taken": taken.get(p, 0)} for p, v in g.players.items()}
    ranking = mvp_ranking(stats)
    if ranking[0][1] != ranking[1][1]:
        yield g.case("mvp", g.rng.choice(["who was the MVP?", "who was the most valuable player"]),
                     {"entity": ranking[0][0], "value": ranking[0][1], "abs_tol": 0.011})


def dev_series(g: Gen) -> Iterator[Case]:
    player = g.rng.choice(list(g.players))
    series = g.players[player]["per_minute"]["gold"]
    yield g.case("series", f"{g.form(player)}'s gold per minute over time", {"value": max(series)})


def dev_parts(g: Gen) -> Iterator[Case]:
    fb = g.t["first_blood"]
    if g.t["winner"]:
        yield g.case("two parts", "who got first blood and which team won?",
                     {"entity": fb["killer"], "team": g.t["winner"]})
    else:
        yield g.case("two parts", "who got first blood, and how long was the match?",
                     {"entity": fb["killer"], "time_s": g.t["duration_seconds"]})
    leaders, best = g.leaders("kills")
    if len(leaders) == 1:
        items = list(dict.fromkeys(g.players[leaders[0]]["items"]))[:2]
        yield g.case("dependent", "who had the most kills and what did they build?",
                     {"entity": leaders[0], "entities_in_order": items})


def dev_refusals(g: Gen) -> Iterator[Case]:
    player = g.rng.choice(list(g.players))
    for q in ("Which team won the lottery?", "What does the Gold Fury weigh?", f"What rank is {g.form(player)}?",
              f"how tall is {g.form(player)}", "who had the best ping", "what's the weather like on the map"):
        yield g.case("refuse", q, {"refuse": True})


def dev_followups(g: Gen) -> Iterator[Case]:
    a, b = g.rng.sample(list(g.players), 2)
    yield g.case("follow-up", f"and {g.form(b)}?", {"value": g.players[b]["gold"]},
                 previous=(f"How much gold did {g.form(a)} earn?",))
    first = _window_stats(g, 0, 600, False)[a]["damage_dealt"]
    yield g.case("follow-up window", "only in the first 10 minutes", {"value": first},
                 previous=(f"how much damage did {g.form(a)} deal",))
    leaders, best = g.leaders("kills", reverse=False)
    yield g.case("follow-up order", "and the fewest?", {"any_entity": leaders, "value": best},
                 previous=("who had the most kills",))


def dev_shapes(g: Gen) -> Iterator[Case]:
    ranked = g.ranked("gold")
    if g.distinct(ranked, 2):
        yield g.case("second", "who earned the second most gold?", {"entity": ranked[1][0], "value": ranked[1][1]})
    values = [float(v["kills"]) for v in g.players.values()]
    yield g.case("average", "what was the average number of kills per player?",
                 {"value": round(sum(values) / len(values), 2), "abs_tol": 0.011})
    player = g.rng.choice(list(g.players))
    team = g.players[player]["team"]
    team_total = sum(v["damage_dealt"] for v in g.players.values() if v["team"] == team)
    yield g.case("share", f"what share of their team's damage did {g.form(player)} deal?",
                 {"value": round(g.players[player]["damage_dealt"] / team_total * 100, 2), "abs_tol": 0.006})


RATE_FIGURES = ("kills", "deaths", "assists", "healing_done", "damage_taken", "crits", "damage_to_players", "gold",
                "damage_dealt")


def dev_rates(g: Gen) -> Iterator[Case]:
    """'Per minute' of any figure, asked of a leader, a player or a top N: the figure over the match's minutes."""
    minutes = g.t["duration_seconds"] / 60
    leader_shapes = ["who had the most {m} per minute?", "which player had the highest {m} per minute",
                     "highest {m} per minute?", "best {m} a minute of anyone"]
    lookup_shapes = ["what were {p}'s {m} per minute?", "{m} per minute for {p}", "how many {m} per min did {p} get"]
    for metric in g.rng.sample(RATE_FIGURES, 5):
        phrase = g.rng.choice(FIGURES[metric][0])
        leaders, best = g.leaders(metric)
        yield g.case("rate leader", g.rng.choice(leader_shapes).format(m=phrase),
                     {"any_entity": leaders, "value": round(best / minutes, 2), "abs_tol": 0.011})
        player = g.rng.choice(list(g.players))
        yield g.case("rate lookup", g.rng.choice(lookup_shapes).format(m=phrase, p=g.form(player)),
                     {"value": round(g.players[player][metric] / minutes, 2), "abs_tol": 0.011})


def dev_conditions(g: Gen) -> Iterator[Case]:
    """A condition on one figure and the leader or list of another: 'the most damage among players with more
    than 5 kills'. The threshold splits the players, and the leader kept is not always the overall one."""
    shapes = ["who had the most {m} among players with more than {n} {c}?",
              "of the players with at least {n} {c}, who had the most {m}?",
              "most {m} among players with fewer than {n} {c}"]
    pairs = [("damage_dealt", "kills"), ("gold", "assists"), ("healing_done", "deaths"), ("damage_taken", "kills"),
             ("experience", "deaths")]
    for metric, on in g.rng.sample(pairs, 4):
        shape = g.rng.choice(shapes)
        values = sorted(float(v[on]) for v in g.players.values())
        n = int(values[len(values) // 2])
        op = ">" if "more than" in shape else ">=" if "at least" in shape else "<"
        kept = [(p, float(v[metric])) for p, v in g.players.items()
                if (float(v[on]) > n if op == ">" else float(v[on]) >= n if op == ">=" else float(v[on]) < n)]
        if not kept:
            continue
        best = max(v for _, v in kept)
        yield g.case("condition other", shape.format(m=g.rng.choice(FIGURES[metric][0]), n=n,
                                                      c=g.rng.choice(FIGURES[on][0])),
                     {"any_entity": [p for p, v in kept if v == best], "value": best})


DEV_TEMPLATES = (dev_leader, dev_lookup, dev_lists, dev_teams, dev_roles, dev_windows, dev_events, dev_abilities,
                 dev_builds, dev_mvp, dev_series, dev_parts, dev_refusals, dev_followups, dev_shapes, dev_rates,
                 dev_conditions)


# -------------------------------------------------------------------------------- held-out templates

def held_leader(g: Gen) -> Iterator[Case]:
    templates = ["Which player ended with the highest {m}?", "who topped the {m} chart", "biggest {m} of anyone?",
                 "Whose {m} was the highest?", "who led the game in {m}"]
    for metric, (phrases, _) in FIGURES.items():
        leaders, best = g.leaders(metric)
        q = g.rng.choice(templates).format(m=phrases[-1])
        yield g.case("leader", q, {"any_entity": leaders, **_value_expect(metric, best)})
    leaders, best = g.leaders("deaths", reverse=False)
    yield g.case("fewest", "who died the fewest times?", {"any_entity": leaders, "value": best})


def held_lookup(g: Gen) -> Iterator[Case]:
    templates = ["What {m} did {p} end the match with?", "give me {p}'s {m}", "how many {m} for {p}?",
                 "{p} - {m}"]
    for metric, (phrases, _) in FIGURES.items():
        player = g.rng.choice(list(g.players))
        q = g.rng.choice(templates).format(m=phrases[0], p=g.form(player))
        yield g.case("lookup", q, _value_expect(metric, float(g.players[player][metric])))


def held_lists(g: Gen) -> Iterator[Case]:
    for metric in ("damage_dealt", "gold", "kills", "experience"):
        ranked = g.ranked(metric)
        if g.distinct(ranked, len(ranked) - 1):
            q = g.rng.choice(["give me the {m} of all ten players", "{m} leaderboard", "what did everybody get in {m}?"])
            yield g.case("list", q.format(m=FIGURES[metric][0][0]), {"entities_in_order": [p for p, _ in ranked]})
    ranked = g.ranked("healing_done")
    if g.distinct(ranked, 2):
        yield g.case("top", "name the two best healers", {"entities_in_order": [p for p, _ in ranked[:2]]})


def held_windows(g: Gen) -> Iterator[Case]:
    for phrase, lo, hi, from_end in (("over the opening 10 minutes", 0, 600, False),
                                     ("from minute 10 to minute 20", 600, 1200, False),
                                     ("in the final five minutes", 300, None, True), ("since minute 25", 1500, None, False)):
        stats = _window_stats(g, lo, hi, from_end)
        ranked = sorted(stats.items(), key=lambda kv: -kv[1]["damage_dealt"])
        best = ranked[0][1]["damage_dealt"]
        yield g.case("window", f"top damage dealer {phrase}?",
                     {"any_entity": [p for p, v in ranked if v["damage_dealt"] == best], "value": best})
    player = g.rng.choice(list(g.players))
    early = _window_stats(g, 0, 600, False)[player]["kills"]
    late = _window_stats(g, 1200, None, False)[player]["kills"]
    yield g.case("window compare", f"compare {g.form(player)}'s kills early game vs late game", {"values": [early, late]})


def held_events(g: Gen) -> Iterator[Case]:
    fb = g.t["first_blood"]
    yield g.case("first blood", "who got the first kill of the game", {"entity": fb["killer"]})
    yield g.case("first blood time", "at what time did first blood happen?", {"time_s": fb["second"]})
    if g.t["winner"]:
        yield g.case("winner", "which team destroyed the enemy titan and won?", {"team": g.t["winner"]})
    yield g.case("length", "how many minutes was the game?", {"time_s": g.t["duration_seconds"]})
    towers = {t: sum(1 for o in g.t["objectives"] if o["team"] == int(t) and "Tower" in o["target"]) for t in "12"}
    yield g.case("towers", "how many towers did each team take down?", {"values": [towers["1"], towers["2"]]})


def held_groups(g: Gen) -> Iterator[Case]:
    for role, word in (("Middle", "mids"), ("Solo", "solo laners")):
        members = [p for p, v in g.players.items() if v["role"] == role]
        yield g.case("role group", f"compare the {word}' damage", {"entities": members,
                                                                   "values": [g.players[p]["damage_dealt"] for p in members]})


def held_abilities(g: Gen) -> Iterator[Case]:
    player = g.rng.choice(list(g.players))
    abilities = list(g.players[player]["abilities"].items())
    if len({v for _, v in abilities[:3]}) == 3:
        yield g.case("abilities", f"break down {g.form(player, 'fragment')}'s damage by ability",
                     {"entities_in_order": [a for a, _ in abilities[:2]]})
    leaders, _ = g.leaders("damage_dealt")
    if len(leaders) == 1:
        top_ability = next(iter(g.players[leaders[0]]["abilities"]))
        yield g.case("dependent", "which ability did the top damage dealer rely on most?",
                     {"entity": top_ability})


def held_refusals(g: Gen) -> Iterator[Case]:
    for q in ("who won the coin toss before the match", "how much does the Fire Giant weigh",
              "what is the team's win rate this season", "what was chat saying during the fight"):
        yield g.case("refuse", q, {"refuse": True})


HELD_OUT_TEMPLATES = (held_leader, held_lookup, held_lists, held_windows, held_events, held_groups, held_abilities,
                      held_refusals)


# ------------------------------------------------------------ second held-out set (written after the first ran)

def fresh_leader(g: Gen) -> Iterator[Case]:
    templates = ["Which player finished first in {m}?", "who was number one for {m}", "{m}: who had the most?",
                 "who put up the highest {m} numbers?", "best {m} in the whole match?"]
    for metric, (phrases, _) in FIGURES.items():
        leaders, best = g.leaders(metric)
        q = g.rng.choice(templates).format(m=g.rng.choice(phrases))
        yield g.case("leader", q, {"any_entity": leaders, **_value_expect(metric, best)})


def fresh_lookup(g: Gen) -> Iterator[Case]:
    templates = ["How many {m} does {p} have?", "I'd like to know {p}'s {m}", "{m} for {p} please",
                 "what {m} did {p} finish with?"]
    for metric, (phrases, _) in FIGURES.items():
        player = g.rng.choice(list(g.players))
        q = g.rng.choice(templates).format(m=g.rng.choice(phrases), p=g.form(player))
        yield g.case("lookup", q, _value_expect(metric, float(g.players[player][metric])))


def fresh_lists_and_groups(g: Gen) -> Iterator[Case]:
    ranked = g.ranked("damage_taken")
    if g.distinct(ranked, len(ranked) - 1):
        yield g.case("list", "sort the players by damage taken", {"entities_in_order": [p for p, _ in ranked]})
    for role, word in (("Carry", "carries"), ("Support", "support players")):
        members = [p for p, v in g.players.items() if v["role"] == role]
        yield g.case("role group", f"compare the {word} on kills and deaths",
                     {"entities": members, "values": [g.players[p]["kills"] for p in members]})
    teams = g.t["teams"]
    yield g.case("teams", "team totals for assists", {"values": [teams["1"]["assists"], teams["2"]["assists"]]})


def fresh_windows(g: Gen) -> Iterator[Case]:
    stats = _window_stats(g, 0, 300, False)
    ranked = sorted(stats.items(), key=lambda kv: -kv[1]["gold"])
    best = ranked[0][1]["gold"]
    yield g.case("window", "who farmed the most gold in the opening 5 minutes?",
                 {"any_entity": [p for p, v in ranked if v["gold"] == best], "value": best})
    early = sum(v["kills"] for v in _window_stats(g, 0, 600, False).values())
    late = sum(v["kills"] for v in _window_stats(g, 1200, None, False).values())
    yield g.case("phases", "how many kills happened in the early game compared with the late game?",
                 {"values": [early, late]})


def fresh_events_and_more(g: Gen) -> Iterator[Case]:
    fb = g.t["first_blood"]
    yield g.case("first blood", "Which player opened the scoring, and on whom?", {"entities": [fb["killer"], fb["victim"]]})
    last = g.t["last_objective"]
    yield g.case("last objective", "what fell last, and when?", {"entity": last["target"], "time_s": last["second"]})
    leaders, best = g.leaders("gpm")
    yield g.case("rate", "who had the best gold per min", {"any_entity": leaders, "value": round(best, 4), "abs_tol": 0.011})
    player = g.rng.choice(list(g.players))
    hits = g.players[player]["ability_hits"]
    most = max(hits.values())
    yield g.case("most used", f"which skill did {g.form(player)} spam the most?",
                 {"any_entity": [a for a, v in hits.items() if v == most]})


def fresh_refusals(g: Gen) -> Iterator[Case]:
    player = g.rng.choice(list(g.players))
    for q in (f"what is {g.form(player)}'s favourite snack", "which team had the better fans",
              "how heavy is the Fire Giant", f"what is {g.form(player)}'s elo"):
        yield g.case("refuse", q, {"refuse": True})


FRESH_SEEDS = (7777, 8888, 9999)
FRESH_TEMPLATES = (fresh_leader, fresh_lookup, fresh_lists_and_groups, fresh_windows, fresh_events_and_more,
                   fresh_refusals)


# --------------------------------------- third held-out set (written after the fixes of the second, run once)

def third_figures(g: Gen) -> Iterator[Case]:
    templates = ["in terms of {m}, who came out on top?", "who racked up the biggest {m} total",
                 "which player led everyone in {m}?", "highest {m} - who?"]
    for metric, (phrases, _) in FIGURES.items():
        leaders, best = g.leaders(metric)
        q = g.rng.choice(templates).format(m=g.rng.choice(phrases))
        yield g.case("leader", q, {"any_entity": leaders, **_value_expect(metric, best)})
    for metric, (phrases, _) in g.rng.sample(list(FIGURES.items()), 8):
        player = g.rng.choice(list(g.players))
        q = g.rng.choice(["can you tell me {p}'s {m}?", "{m} of {p}?", "what's the {m} number for {p}"]).format(
            m=g.rng.choice(phrases), p=g.form(player))
        yield g.case("lookup", q, _value_expect(metric, float(g.players[player][metric])))


def third_kinds(g: Gen) -> Iterator[Case]:
    ranked = g.ranked("kills")
    leaders, best = g.leaders("deaths")
    yield g.case("ties", "who died more than anyone else?", {"entities": leaders, "value": best})
    if g.distinct(ranked, 4):
        yield g.case("top", "the four players with the most kills?", {"entities_in_order": [p for p, _ in ranked[:4]]})
    player = g.rng.choice(list(g.players))
    early = _window_stats(g, 0, 600, False)[player]["gold"]
    late = _window_stats(g, 600, None, True)[player]["gold"]
    yield g.case("window compare", f"{g.form(player)}: gold in the first ten minutes vs the final ten",
                 {"values": [early, late]})
    fb = g.t["first_blood"]
    yield g.case("first blood", "first blood - who and at what time?", {"entity": fb["killer"], "time_s": fb["second"]})
    yield g.case("length", "total game time?", {"time_s": g.t["duration_seconds"]})
    leaders, _ = g.leaders("healing_done")
    if len(leaders) == 1:
        items = list(dict.fromkeys(g.players[leaders[0]]["items"]))[:2]
        yield g.case("dependent", "what did the top healer build?", {"entities_in_order": items})
    for role, word in (("Middle", "mid players"), ("Jungle", "jungle players")):
        members = [p for p, v in g.players.items() if v["role"] == role]
        yield g.case("role group", f"how did the {word} compare?", {"entities": members})
    series = g.players[player]["per_minute"]["damage_dealt"]
    yield g.case("series", f"plot {g.form(player)}'s damage minute by minute", {"value": max(series)})
    for q in ("what music was playing", f"is {g.form(player)} a good person", "who had the highest winrate this year"):
        yield g.case("refuse", q, {"refuse": True})


THIRD_SEEDS = (1111, 2222, 3333)
THIRD_TEMPLATES = (third_figures, third_kinds)


def generate(match: Match, templates) -> list[Case]:
    g = Gen(match, random.Random(match.seed))
    return [case for template in templates for case in template(g)]


# ------------------------------------------------------------------------------------------ the runner

@dataclass(frozen=True)
class Outcome:
    case: Case
    passed: bool
    note: str
    answer: str
    unsupported: tuple[str, ...] = ()  # numbers the fidelity check could not trace to the data


def answer_cases(match: Match, cases: list[Case], work: Path) -> list[Outcome]:
    """Ingest the match once and answer every case through the real five stages, as the product answers a
    follow-up (`StageEnv.answer_only`): the same plan, figures and words, without drawing charts or writing
    report files, which these cases do not judge and which took half their time."""
    import dataclasses

    from combat_analysis.answer.env import StageEnv
    from combat_analysis.answer.pipeline import run_stages
    from combat_analysis.ingest.run import ingest_log

    warehouse = work / f"warehouse_{match.seed}"
    match_id = ingest_log(match.log, warehouse).match_id
    env = dataclasses.replace(StageEnv.build(warehouse_root=warehouse, match_id=match_id,
                                             artifacts_dir=work / "artifacts", followups=False), answer_only=True)
    with env.session() as session:  # one locked connection for every case (tests/support/asking.py says why)
        return [_outcome(case, run_stages(case.question, session, previous_queries=case.previous)) for case in cases]


def _outcome(case: Case, pkg) -> Outcome:
    """The shared scorer's judgement of one case's package."""
    payload = json.loads(pkg.to_json())
    try:
        ok, note = score_tool.judge({"question": case.question, "expect": case.expect}, payload)
    except ValueError as error:  # the scorer cannot read a number of the answer: count it as failed
        ok, note = False, f"scorer could not read the answer: {error}"
    unsupported = tuple(e.description for e in pkg.errors if e.error_type == "unsupported_number")
    return Outcome(case, ok, note, score_tool.answer_text(payload), unsupported)


def run(which: str, work: Path, verbose: bool = False, limit: int | None = None) -> tuple[int, int, list[Outcome]]:
    seeds, templates = {"dev": (DEV_SEEDS, DEV_TEMPLATES), "held-out": (HELD_OUT_SEEDS, HELD_OUT_TEMPLATES),
                        "held-out-2": (FRESH_SEEDS, FRESH_TEMPLATES),
                        "held-out-3": (THIRD_SEEDS, THIRD_TEMPLATES)}[which]
    outcomes: list[Outcome] = []
    for seed in seeds:
        match = build_match(seed, work)
        cases = generate(match, templates)[:limit]
        outcomes += answer_cases(match, cases, work)
    passed = sum(o.passed for o in outcomes)
    if verbose:
        for o in outcomes:
            if not o.passed:
                print(f"FAIL {o.case.id}: {o.case.question}  <- {o.note}\n      {o.answer[:300]}")
            for problem in o.unsupported:
                print(f"UNTRACED {o.case.id}: {o.case.question}  <- {problem[:200]}")
    return passed, len(outcomes), outcomes


def main(argv=None) -> int:
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", choices=("dev", "held-out", "held-out-2", "held-out-3"))
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--work", type=Path, help="folder for the matches and warehouses (default: a temporary one)")
    a = ap.parse_args(argv)
    work = a.work or Path(tempfile.mkdtemp(prefix="paraphrases-"))
    work.mkdir(parents=True, exist_ok=True)
    passed, total, outcomes = run(a.set, work, a.verbose)
    by_kind: dict[str, list[bool]] = {}
    for o in outcomes:
        by_kind.setdefault(o.case.kind, []).append(o.passed)
    for kind, results in sorted(by_kind.items()):
        print(f"  {kind:18s} {sum(results)}/{len(results)}")
    print(f"score: {passed}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
