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
    if names is not None and len(set(names)) != 10:
        raise ValueError("a match needs ten distinct player names")
    chosen = list(names) if names is not None else roster
    gods = rng.sample(sorted(GODS), 10)
    players = [Player(chosen[i], 1 + i // 5, ROLES[i % 5], gods[i]) for i in range(10)]
    lobby = datetime(2025, 3, 2, 19, 0, 0) + timedelta(days=seed % 300, minutes=seed % 600)
    w = MatchWriter(rng, lobby, emit)
    _lobby(w, players, simulated_match_id(seed, id_style))
    w.start = lobby + timedelta(minutes=5)
    _Fights(w, rng, players, minutes * 60, scale).run()


def _lobby(w: MatchWriter, players: list[Player], match_id: str | int) -> None:
    """The start line, the roles and the god picks."""
    w.emit(json.dumps({"eventType": "start", "matchID": match_id, "logMode": "JSON"}, ensure_ascii=False))
    for p in players:
        w.emit(_event(eventType="playermsg", type="RoleAssigned", itemid="0", itemname="E" + p.role,
                      time=w.stamp(0), sourceowner=p.name, value1=p.team, text="<MISSING STRING TABLE ENTRY>"))
    for i, p in enumerate(players):
        w.emit(_event(eventType="playermsg", type="GodPicked", itemid=100 + i, itemname=p.god,
                      time=w.stamp(20 + 9 * i), sourceowner=p.name, value1=p.team,
                      text=f"{{SourceName}} picked {p.god} in the match lobby"))


class _Fights:
    """The match after the lobby: one event at a time until the clock ends or a Titan falls. Each kind of event
    is a method, drawing from the one random stream in a fixed order (a seed always gives the same log)."""

    def __init__(self, w: MatchWriter, rng: random.Random, players: list[Player], end: int, scale: float):
        self.w, self.rng, self.players, self.end, self.scale = w, rng, players, end, scale
        self.alive_at = {p.name: 0.0 for p in players}
        self.strength = {p.name: rng.uniform(0.7, 1.3) * (1.25 if p.team == 2 else 1.0) for p in players}
        self.structures = {1: ["Order Tower"] * 4 + ["Order Phoenix"] * 2 + ["Order Titan"],
                           2: ["Chaos Tower"] * 4 + ["Chaos Phoenix"] * 2 + ["Chaos Titan"]}
        self.fallen = {1: 0, 2: 0}
        self.last_boss = 0.0

    def run(self) -> None:
        w, rng = self.w, self.rng
        for p in self.players:
            w.emit(_event(eventType="itemmsg", type="ItemPurchase", **w.where(), itemid=1894,
                          itemname=rng.choice(ITEMS[:2]), time=w.stamp(rng.randint(0, 5)), sourceowner=p.name,
                          value1="0", text=f"{p.name} purchased starter (894)"))
        fights_per_second = 1.3 * self.scale
        second = 5.0
        while second < self.end:
            second += rng.expovariate(fights_per_second * 12)
            if second >= self.end:
                break
            attacker = rng.choice(self.players)
            if second < self.alive_at[attacker.name]:
                continue
            if rng.random() < HAZARD_SHARE:
                _hazard(w, rng, second, attacker, self.structures, self.alive_at, self.end)
                continue
            if self.act(second, attacker):
                return  # the Titan fell
            self.purchase(second, attacker)

    def act(self, second: float, attacker: Player) -> bool:
        """One event by `attacker`; True when it ended the match."""
        rng = self.rng
        roll = rng.random()
        ability = rng.choice(GODS[attacker.god]) if roll < 0.45 else f"{attacker.god} Basic Attack"
        if rng.random() < 0.05:
            ability = rng.choice(PROCS)
        enemies = [p for p in self.players if p.team != attacker.team and second >= self.alive_at[p.name]]
        target_roll = rng.random()
        if target_roll < 0.3 and enemies:
            self.hit_player(second, attacker, ability, rng.choice(enemies))
        elif target_roll < 0.7:
            self.hit_creep(second, attacker, ability, target_roll)
        elif target_roll < 0.8:
            self.heal(second, attacker, ability)
        elif target_roll < 0.83 and second > 420 + 230 * self.fallen[3 - attacker.team] and rng.random() < 0.05:
            return self.push(second, attacker, ability)
        elif second - self.last_boss > 300 and rng.random() < 0.01:
            self.boss_fight(second, attacker, ability)
        return False

    def hit_player(self, second: float, attacker: Player, ability: str, victim: Player) -> None:
        w, rng = self.w, self.rng
        amount = max(int(rng.gauss(150, 60) * self.strength[attacker.name]) + 20, 1)  # damage is never negative
        crit = attacker.role == "Carry" and rng.random() < 0.2
        w.combat("CritDamage" if crit else "Damage", second, attacker.name, victim.name, ability, amount,
                 int(amount * 0.25), f"{attacker.name} hit {victim.name} for {amount} damage.")
        if rng.random() < 0.12:
            w.combat("CrowdControl", second, attacker.name, victim.name, ability, "0", "0",
                     f"{attacker.name} None {victim.name}.")
        if rng.random() < 0.02 * self.strength[attacker.name]:
            w.combat("KillingBlow", second, attacker.name, victim.name, ability, rng.randint(1, 5), "0",
                     f"{attacker.name} killed {victim.name} with {ability}.")
            self.alive_at[victim.name] = second + 10 + second / 60
            w.reward(second, victim.name, attacker.name, 200 + int(second / 10), 150 + int(second / 12))

    def hit_creep(self, second: float, attacker: Player, ability: str, target_roll: float) -> None:
        w, rng = self.w, self.rng
        creep = rng.choice(MINIONS if target_roll < 0.55 else JUNGLE)
        amount = max(int(rng.gauss(120, 40)) + 10, 1)
        w.combat("Damage", second, attacker.name, creep, ability, amount, int(amount * 0.1),
                 f"{attacker.name} hit {creep} for {amount} damage.")
        if rng.random() < 0.25:
            w.combat("KillingBlow", second, attacker.name, creep, ability, "1", "0",
                     f"{attacker.name} killed {creep} with {ability}.")
            w.reward(second, creep, attacker.name, rng.randint(8, 40), rng.randint(10, 50))

    def heal(self, second: float, attacker: Player, ability: str) -> None:
        target = self.rng.choice([p for p in self.players if p.team == attacker.team])
        amount = max(int(self.rng.gauss(60, 20)), 1)
        self.w.combat("Healing", second, attacker.name, target.name, ability, amount, "", "")

    def push(self, second: float, attacker: Player, ability: str) -> bool:
        """The stronger team pushes; the Titan only falls in the last minutes. True when the Titan fell."""
        w, rng, side = self.w, self.rng, 3 - attacker.team
        standing = self.structures[side]
        if not (standing and rng.random() < self.strength[attacker.name] - 0.6 and (
                not standing[0].endswith("Titan") or second > self.end * 0.9)):
            return False
        structure = standing.pop(0)
        self.fallen[side] += 1
        w.combat("Damage", second, attacker.name, structure, ability, rng.randint(300, 600), "0")
        # now and then the attacker's minions land the last hit: the side still takes it
        killer, how = (rng.choice(MINIONS), "Minion Attack") if rng.random() < 0.2 else (attacker.name, ability)
        w.combat("KillingBlow", second, killer, structure, how, "1", "0", f"{killer} killed {structure} with {how}.")
        return structure.endswith("Titan")

    def boss_fight(self, second: float, attacker: Player, ability: str) -> None:
        """The team on the boss, the boss on them, then the kill."""
        w, rng = self.w, self.rng
        self.last_boss = second
        boss = rng.choice(BOSSES)
        team = [p for p in self.players if p.team == attacker.team and second >= self.alive_at[p.name]]
        for hit in range(rng.randint(4, 10)):
            hitter = rng.choice(team)
            amount = max(int(rng.gauss(300, 80)), 1)
            w.combat("Damage", second - 10 + hit, hitter.name, boss, f"{hitter.god} Basic Attack", amount,
                     int(amount * 0.2), f"{hitter.name} hit {boss} for {amount} damage.")
            taken = max(int(rng.gauss(220, 60)), 1)
            w.combat("Damage", second - 10 + hit, boss, hitter.name, f"{boss} Slam", taken, int(taken * 0.3),
                     f"{boss} hit {hitter.name} for {taken} damage.")
        w.combat("KillingBlow", second, attacker.name, boss, ability, "1", "0", f"{attacker.name} killed {boss} with {ability}.")

    def purchase(self, second: float, attacker: Player) -> None:
        rng, w = self.rng, self.w
        if rng.random() < 0.01 / max(self.scale, 1.0):
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
