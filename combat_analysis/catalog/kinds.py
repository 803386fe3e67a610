"""Who is who in a combat log: players, minions, jungle camps, bosses and structures, by name.

Real logs name non-players inconsistently ("Alpha Chimera", "Order Tower", "Champion Swordsman"), so kinds
come from name patterns and anything unmatched stays `unknown` rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Collection

STRUCTURE = re.compile(r"tower|phoenix|titan", re.I)
BOSS = re.compile(r"gold fury|fire giant|pyromancer|bull demon|oni fury", re.I)
MINION = re.compile(r"\b(archer|brute|swordsman|champion|minion|siege)\b", re.I)
JUNGLE = re.compile(
    r"satyr|chimera|harpy|cyclops|naga|manticore|centaur|wolf|harpies|gorgon|troll|oni|camp|buff|mercenar",
    re.I,
)
# Order structures and minions belong to team 1, Chaos to team 2: in real logs the Order Titan falls
# to team 2's players.
SIDE = {"order": 1, "chaos": 2}

KINDS = ("player", "minion", "jungle", "boss", "structure", "unknown")


def entity_kind(name: str, roster: Collection[str]) -> str:
    """The kind of a source or target name, per METRICS.md ("Entity kinds")."""
    if name in roster:
        return "player"
    if STRUCTURE.search(name):
        return "structure"
    if BOSS.search(name):
        return "boss"
    if MINION.search(name):
        return "minion"
    if JUNGLE.search(name):
        return "jungle"
    return "unknown"


def entity_team(name: str, kind: str, teams: dict[str, int]) -> int | None:
    """A player's team from the roster; a structure's or minion's from its Order/Chaos prefix."""
    if kind == "player":
        return teams.get(name)
    if kind in ("structure", "minion"):
        first = name.split(" ", 1)[0].lower()
        return SIDE.get(first)
    return None
