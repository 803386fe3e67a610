"""A deterministic SMITE 2 match simulator that writes logs in the real format (see ../shared/FORMAT.md).

Used for the demo's extra matches, benchmarks and property tests: `combat-analysis simulate --seed 7 --out m.log`.
`scale` multiplies the fight density, so `--scale 40` writes a 32-minute match of over a million lines.

Its defaults are as varied as real logs: numeric match ids (as the game writes them), and player names with
accents, apostrophes, spaces, CJK characters and emoji. Tests vary the id style, the names, the length and
the framing further.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

GODS = {
    "Loki": ("Vanish", "Agonizing Visions", "Flurry Strike", "Assassinate"),
    "Thor": ("Mjolnir's Attunement", "Tectonic Rift", "Berserker Barrage", "Anvil of Dawn"),
    "Zeus": ("Chain Lightning", "Aegis Assault", "Detonate Charge", "Lightning Storm"),
    "Athena": ("Preemptive Strike", "Confound", "Shield Wall", "Defender of Olympus"),
    "Anubis": ("Plague of Locusts", "Mummify", "Grasping Hands", "Death Gaze"),
    "Guan Yu": ("Conqueror", "Taolu Assault", "Warrior's Will", "Cavalry Charge"),
    "Neith": ("Spirit Arrow", "Unravel", "Back Flip", "World Weaver"),
    "Ymir": ("Ice Wall", "Glacial Strike", "Frost Breath", "Shards of Ice"),
    "Rama": ("Astral Strike", "Pick Me Up", "Rolling Assault", "Astral Barrage"),
    "Sobek": ("Charge Prey", "Tail Whip", "Sickening Strike", "Lurking in the Waters"),
    "Fenrir": ("Unchained", "Seething Howl", "Brutalize", "Ragnarok"),
    "Hercules": ("Driving Strike", "Earthbreaker", "Mitigate Wounds", "Excessive Strength"),
}
ITEMS = ["Blink Rune", "Purification Beads", "Axe", "Battle Axe", "Bumba's Cudgel", "Breastplate of Valor",
         "Book of Thoth", "Chronos' Pendant", "Deathbringer", "Demon Blade", "Divine Ruin", "Gauntlet of Thebes",
         "Heartseeker", "Hydra's Lament", "Jotunn's Revenge", "Obsidian Shard", "Qin's Blade", "Rage",
         "Soul Gem", "Spectral Armor", "Stone of Binding", "The Crusher", "Titan's Bane", "Healing Potion"]
PROCS = ("Bragi's Harp", "Bumba's Cudgel")
ROLES = ("Jungle", "Carry", "Solo", "Support", "Middle")
# Names are arbitrary text in real logs: accents, dots, apostrophes, spaces and emoji all occur.
NAMES = ["León0722", "O'Malley", "zoe.rush", "Psychotic8Ball", "MateoUwU", "Night Owl", "ÁngelDeth",
         "mid_or_feed", "🐉Drako", "LunaSol", "VoidWalker", "Tsunami88", "Brisk", "PapiTacos", "Kuro猫",
         "小龙Xiao", "ジン_jin", "강철Steel", "Nguyễn99", "D'Artagnan", "✨Stella✨", "Ørjan Ås"]
# How match ids look: the game writes numeric strings; other tools write text, JSON numbers, or worse.
ID_STYLES = ("numeric", "json-number", "text", "odd")


def simulated_match_id(seed: int, id_style: str = "numeric") -> str | int:
    """The matchID a simulated match's start event carries (a JSON number for "json-number")."""
    number = 4_000_000_000 + (seed * 2_654_435_761) % 5_000_000_000  # ten digits, like the game's
    if id_style == "numeric":
        return str(number)
    if id_style == "json-number":
        return number
    if id_style == "text":
        return f"sim-{seed:06d}"
    if id_style == "odd":  # separators, dots, case, accents and CJK: all data, never a path
        return ("../Scrim #{0} / Finals", "a/b_{0}", "A...b {0}", "Ünïcode 試合 {0}", "match_id={0}")[seed % 5].format(seed)
    raise ValueError(f"id_style must be one of {ID_STYLES}")
MINIONS = ("Archer", "Brute", "Swordsman", "Champion Swordsman")
JUNGLE = ("Satyr", "Chimera", "Alpha Chimera", "Roaming Harpy", "Cyclops")
BOSSES = ("Gold Fury", "Fire Giant")
# How often, per fight event, the map itself hits a player (a tower, a phoenix, minions, a camp, a boss), and how
# often such a hit kills: real players die to towers, minions and camps as well as to each other.
HAZARD_SHARE = 0.04
HAZARD_KILL = 0.015


@dataclass(frozen=True)
class Player:
    name: str
    team: int
    role: str
    god: str


def _event(**fields) -> str:
    return json.dumps({k: str(v) if not isinstance(v, str) else v for k, v in fields.items()}, ensure_ascii=False)


class MatchWriter:
    def __init__(self, rng: random.Random, start: datetime, emit: Callable[[str], None]):
        self.rng = rng
        self.start = start
        self.emit = emit

    def stamp(self, second: float) -> str:
        return (self.start + timedelta(seconds=int(second))).strftime("%Y.%m.%d-%H.%M.%S")

    def where(self) -> dict:
        return {"locationx": f"{self.rng.uniform(-11000, 11000):.6f}", "locationy": f"{self.rng.uniform(-11000, 11000):.6f}"}

    def combat(self, kind, second, source, target, ability, value1, value2="0", text=""):
        self.emit(_event(eventType="CombatMsg", type=kind, **self.where(), itemid="0", itemname=ability,
                                 time=self.stamp(second), sourceowner=source, targetowner=target,
                                 value1=value1, value2=value2, text=text))

    def reward(self, second, giver, recipient, gold, xp):
        for kind, itemid, name, amount in (("Currency", "2", "gold", gold), ("Experience", "1", "experience", xp)):
            if amount > 0:
                self.emit(_event(
                    eventType="RewardMsg", type=kind, **self.where(), itemid=itemid, itemname=name,
                    time=self.stamp(second), sourceowner=giver, targetowner=recipient, value1=amount, value2="0",
                    text=f"{giver}  awarded {recipient} with {amount} {name}"))


def simulate_match(seed: int, emit: Callable[[str], None], *, scale: float = 1.0, minutes: int = 32,
                   id_style: str = "numeric", names: Sequence[str] | None = None) -> None:
    """Emit the log lines of one simulated match, in order, without separators. `names` (ten distinct) replaces
    the default roster drawn from NAMES."""
    rng = random.Random(seed)
    roster = rng.sample(NAMES, 10)
    if names is not None:
        if len(set(names)) != 10:
            raise ValueError("a match needs ten distinct player names")
        names = list(names)
    else:
        names = roster
    gods = rng.sample(sorted(GODS), 10)
    players = [Player(names[i], 1 + i // 5, ROLES[i % 5], gods[i]) for i in range(10)]
    lobby = datetime(2025, 3, 2, 19, 0, 0) + timedelta(days=seed % 300, minutes=seed % 600)
    w = MatchWriter(rng, lobby, emit)
    match_id = simulated_match_id(seed, id_style)
    w.emit(json.dumps({"eventType": "start", "matchID": match_id, "logMode": "JSON"}, ensure_ascii=False))
    for p in players:
        w.emit(_event(eventType="playermsg", type="RoleAssigned", itemid="0", itemname="E" + p.role,
                              time=w.stamp(0), sourceowner=p.name, value1=p.team, text="<MISSING STRING TABLE ENTRY>"))
    for i, p in enumerate(players):
        w.emit(_event(eventType="playermsg", type="GodPicked", itemid=100 + i, itemname=p.god,
                              time=w.stamp(20 + 9 * i), sourceowner=p.name, value1=p.team,
                              text=f"{{SourceName}} picked {p.god} in the match lobby"))
    w.start = lobby + timedelta(minutes=5)
    alive_at = {p.name: 0.0 for p in players}
    strength = {p.name: rng.uniform(0.7, 1.3) * (1.25 if p.team == 2 else 1.0) for p in players}
    structures = {1: ["Order Tower"] * 4 + ["Order Phoenix"] * 2 + ["Order Titan"],
                  2: ["Chaos Tower"] * 4 + ["Chaos Phoenix"] * 2 + ["Chaos Titan"]}
    end = minutes * 60
    for p in players:
        w.emit(_event(eventType="itemmsg", type="ItemPurchase", **w.where(), itemid=1894,
                              itemname=rng.choice(ITEMS[:2]), time=w.stamp(rng.randint(0, 5)), sourceowner=p.name,
                              value1="0", text=f"{p.name} purchased starter (894)"))
    fights_per_second = 1.3 * scale
    fallen = {1: 0, 2: 0}
    last_boss = 0.0
    second = 5.0
    while second < end:
        second += rng.expovariate(fights_per_second * 12)
        if second >= end:
            break
        attacker = rng.choice(players)
        if second < alive_at[attacker.name]:
            continue
        if rng.random() < HAZARD_SHARE:
            _hazard(w, rng, second, attacker, structures, alive_at, end)
            continue
        roll = rng.random()
        ability = rng.choice(GODS[attacker.god]) if roll < 0.45 else f"{attacker.god} Basic Attack"
        if rng.random() < 0.05:
            ability = rng.choice(PROCS)
        enemies = [p for p in players if p.team != attacker.team and second >= alive_at[p.name]]
        target_roll = rng.random()
        if target_roll < 0.3 and enemies:
            victim = rng.choice(enemies)
            amount = max(int(rng.gauss(150, 60) * strength[attacker.name]) + 20, 1)  # damage is never negative
            crit = attacker.role == "Carry" and rng.random() < 0.2
            w.combat("CritDamage" if crit else "Damage", second, attacker.name, victim.name, ability, amount,
                     int(amount * 0.25), f"{attacker.name} hit {victim.name} for {amount} damage.")
            if rng.random() < 0.12:
                w.combat("CrowdControl", second, attacker.name, victim.name, ability, "0", "0",
                         f"{attacker.name} None {victim.name}.")
            if rng.random() < 0.02 * strength[attacker.name]:
                w.combat("KillingBlow", second, attacker.name, victim.name, ability, rng.randint(1, 5), "0",
                         f"{attacker.name} killed {victim.name} with {ability}.")
                alive_at[victim.name] = second + 10 + second / 60
                w.reward(second, victim.name, attacker.name, 200 + int(second / 10), 150 + int(second / 12))
        elif target_roll < 0.7:
            creep = rng.choice(MINIONS if target_roll < 0.55 else JUNGLE)
            amount = max(int(rng.gauss(120, 40)) + 10, 1)
            w.combat("Damage", second, attacker.name, creep, ability, amount, int(amount * 0.1),
                     f"{attacker.name} hit {creep} for {amount} damage.")
            if rng.random() < 0.25:
                w.combat("KillingBlow", second, attacker.name, creep, ability, "1", "0",
                         f"{attacker.name} killed {creep} with {ability}.")
                w.reward(second, creep, attacker.name, rng.randint(8, 40), rng.randint(10, 50))
        elif target_roll < 0.8:
            target = rng.choice([p for p in players if p.team == attacker.team])
            heal = max(int(rng.gauss(60, 20)), 1)
            w.combat("Healing", second, attacker.name, target.name, ability, heal, "", "")
        elif target_roll < 0.83 and second > 420 + 230 * fallen[3 - attacker.team] and rng.random() < 0.05:
            side = 3 - attacker.team
            # the stronger team pushes; the Titan only falls in the last minutes
            if structures[side] and rng.random() < strength[attacker.name] - 0.6 and (
                    not structures[side][0].endswith("Titan") or second > end * 0.9):
                structure = structures[side].pop(0)
                fallen[side] += 1
                w.combat("Damage", second, attacker.name, structure, ability, rng.randint(300, 600), "0")
                # now and then the attacker's minions land the last hit: the side still takes it
                killer, how = (rng.choice(MINIONS), "Minion Attack") if rng.random() < 0.2 else (attacker.name, ability)
                w.combat("KillingBlow", second, killer, structure, how, "1", "0",
                         f"{killer} killed {structure} with {how}.")
                if structure.endswith("Titan"):
                    return
        elif second - last_boss > 300 and rng.random() < 0.01:
            last_boss = second
            boss = rng.choice(BOSSES)
            team = [p for p in players if p.team == attacker.team and second >= alive_at[p.name]]
            for hit in range(rng.randint(4, 10)):  # the fight: the team on the boss, the boss on them
                hitter = rng.choice(team)
                amount = max(int(rng.gauss(300, 80)), 1)
                w.combat("Damage", second - 10 + hit, hitter.name, boss, f"{hitter.god} Basic Attack", amount,
                         int(amount * 0.2), f"{hitter.name} hit {boss} for {amount} damage.")
                taken = max(int(rng.gauss(220, 60)), 1)
                w.combat("Damage", second - 10 + hit, boss, hitter.name, f"{boss} Slam", taken, int(taken * 0.3),
                         f"{boss} hit {hitter.name} for {taken} damage.")
            w.combat("KillingBlow", second, attacker.name, boss, ability, "1", "0",
                     f"{attacker.name} killed {boss} with {ability}.")
        if rng.random() < 0.01 / max(scale, 1.0):
            item = rng.choice(ITEMS)
            w.emit(_event(eventType="itemmsg", type="ItemPurchase", **w.where(), itemid=1000 + ITEMS.index(item),
                                  itemname=item, time=w.stamp(second), sourceowner=attacker.name, value1="0",
                                  text=f"{attacker.name} purchased {item} ({ITEMS.index(item)})"))


def _hazard(w: MatchWriter, rng: random.Random, second: float, player: Player, structures: dict[int, list[str]],
            alive_at: dict[str, float], end: int) -> None:
    """The map hits a player: an enemy tower or phoenix still standing, minions, a jungle camp or a boss; now
    and then the hit kills (a death to a non-player, with no reward for anyone)."""
    standing = [s for s in structures[3 - player.team] if not s.endswith("Titan")]
    source = rng.choice([*standing[:1], rng.choice(MINIONS), rng.choice(MINIONS), rng.choice(JUNGLE),
                         rng.choice(BOSSES)])
    amount = max(int(rng.gauss(260 if source in standing else 110, 40)), 1)
    ability = f"{source} Attack"
    w.combat("Damage", second, source, player.name, ability, amount, int(amount * 0.3),
             f"{source} hit {player.name} for {amount} damage.")
    if rng.random() < HAZARD_KILL * (3 if source in standing else 1):
        w.combat("KillingBlow", second, source, player.name, ability, "1", "0",
                 f"{source} killed {player.name} with {ability}.")
        alive_at[player.name] = second + 10 + second / 60


def write_match(path: Path, seed: int, *, scale: float = 1.0, minutes: int = 32, id_style: str = "numeric",
                names: Sequence[str] | None = None, bom: bool = True, crlf: bool = True) -> int:
    """Write a simulated match in the real framing: BOM, CRLF, trailing commas (`bom`/`crlf` turn the first
    two off, as some real files have them). Returns the line count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    newline = "\r\n" if crlf else "\n"
    with open(path, "w", encoding="utf-8-sig" if bom else "utf-8", newline="") as f:
        def emit(line: str) -> None:
            nonlocal count
            # every line but the last ends in a comma: write the separator before each later line
            f.write("," + newline + line if count else line)
            count += 1

        simulate_match(seed, emit, scale=scale, minutes=minutes, id_style=id_style, names=names)
        f.write(newline)
    return count
