"""Kill chains worked out in plain Python from truth.py's kill list and its parse of a log, for the kill-chain tests
(tests/planner/test_classes_kill_chains.py, tests/answer/test_season_kill_chains.py): the oracle the product's SQL
(`catalog/kill_chains.sql`) is checked against."""

from __future__ import annotations

from collections import defaultdict
from functools import cache

from tests.support.truth_checks import truth_tool


def player_deaths(log) -> list[tuple[int, int, str]]:
    """Every death of a player, from any source: (match second, line, victim), from truth.py's parse of the log.
    Parsed once per log: truth.py's parse of a whole match takes most of a second."""
    return list(_player_deaths(str(log)))


@cache
def _player_deaths(log: str) -> tuple[tuple[int, int, str], ...]:
    events, _ = truth_tool.load(log)
    players = truth_tool.roster(events)
    truth_tool.match_clock(events)
    return tuple((e["_s"], e["_line"], e["targetowner"]) for e in events
                 if e.get("eventType") == "CombatMsg" and e.get("type") == "KillingBlow" and e.get("targetowner") in players)


def expected_chains(kills: list[dict], deaths: list[tuple[int, int, str]], n: int, s: int, window: bool,
                    deaths_break: bool = True) -> list[list[dict]]:
    """The chains of at least n kills: each kill within s seconds of the one before (of the chain's first with
    `window`); a death of the killer between two kills ends the chain when `deaths_break`."""
    by_killer: dict[str, list[dict]] = defaultdict(list)
    for k in sorted(kills, key=lambda k: (k["second"], k["line"])):
        by_killer[k["killer"]].append(k)
    died: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for second, line, victim in deaths:
        died[victim].append((second, line))
    out = []
    for killer, own in by_killer.items():
        run: list[dict] = []
        for k in own:
            if run:
                anchor = run[0] if window else run[-1]
                between = any((run[-1]["second"], run[-1]["line"]) < d < (k["second"], k["line"]) for d in died[killer])
                if k["second"] - anchor["second"] > s or (deaths_break and between):
                    out.append(run)
                    run = []
            run.append(k)
        out.append(run)
    return sorted((c for c in out if len(c) >= n), key=lambda c: (c[0]["second"], c[0]["killer"]))
