"""A season of simulated matches for cross-match tests, and its oracle: `../shared/tools/truth.py` per match.

The simulator writes each match; this module then varies what a season varies, straight in the log text:
a fixed roster of 14 names (accents, CJK, emoji, an apostrophe, two names that differ only in case) spread
over the matches so every player plays many of them; match ids in several styles; lengths (a match cut at
14 to 31 minutes); and outcomes (a Titan kill for either team appended at the end, or none: winner unknown).
Two seeds 600 apart start at the same second, so ties in start order occur. The oracle reads the
rewritten log, so it never sees the simulator's choices, only what the log says.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from combat_analysis.season.figures import PLAYER_METRICS
from tests.support.asking import Sessions
from tests.support.paths import SHARED


def _load_truth_tool():
    spec = importlib.util.spec_from_file_location("shared_truth", SHARED / "tools" / "truth.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


truth_tool = _load_truth_tool()

ROSTER = ("VoidWalker", "voidwalker", "Kraken_Mid", "O'Brien", "José Ñúñez", "张伟", "Night Owl",
          "mid_or_feed", "🐉Drako", "Zoë", "x", "a.b", "LunaSol", "Psychotic8Ball")
# 24 matches; lengths and scales vary by seed. Seed 605 starts at the same second as seed 5.
TIED = {605: 5}
SEEDS = (5, 605, 11, 17, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107)
TIME_FORMAT = "%Y.%m.%d-%H.%M.%S"
SESSIONS = Sessions(keep=8)  # the sessions `ask_across` answers on, kept open between its questions
FIRST, LATER = slice(0, 4), 4  # the Dagster season tests: four matches land first, a fifth one later
IN_GAME = ("itemmsg", "CombatMsg", "RewardMsg")


@dataclass(frozen=True)
class SeasonMatch:
    path: Path
    match_id: str
    truth: dict  # truth.figures of the rewritten log


def _match_id(seed: int, rng: random.Random) -> str:
    style = rng.randrange(3)
    if style == 0:
        return str(5_100_000_000 + rng.randrange(99_999_999))  # numeric, as the game writes them
    if style == 1:
        return f"scrim-{seed:04d}"
    return f"Grand Final {seed}"


def _line(**fields) -> str:
    return json.dumps(fields, ensure_ascii=False)


def _shift(event: dict, by: timedelta) -> None:
    if "time" in event:
        event["time"] = (datetime.strptime(event["time"], TIME_FORMAT) + by).strftime(TIME_FORMAT)


def season_log(source: Path, out: Path, seed: int, start_at: datetime | None = None) -> None:
    """Rewrite one simulated log as a season match: new names, id, length and outcome (see module doc);
    with `start_at`, every time moves so that the match starts then."""
    rng = random.Random(f"season-{seed}")
    text = source.read_text(encoding="utf-8-sig")
    events = [json.loads(s.rstrip(",")) for s in (line.strip() for line in text.splitlines()) if s]
    old = [e["sourceowner"] for e in events if e.get("eventType") == "playermsg" and e.get("type") == "RoleAssigned"]
    names = dict(zip(old, rng.sample(ROSTER, len(old)), strict=True))
    start = min(datetime.strptime(e["time"], TIME_FORMAT) for e in events if e.get("eventType") in IN_GAME)
    if start_at is not None:
        for e in events:
            _shift(e, start_at - start)
        start = start_at
    cut = start + timedelta(minutes=rng.choice((14, 20, 26, 31)))
    kept = []
    for e in events:
        if e.get("eventType") in IN_GAME and datetime.strptime(e["time"], TIME_FORMAT) > cut:
            continue
        if e.get("eventType") == "start":
            e["matchID"] = _match_id(seed, rng)
        for field in ("sourceowner", "targetowner"):
            if e.get(field) in names:
                if e.get("text"):
                    e["text"] = e["text"].replace(e[field], names[e[field]])
                e[field] = names[e[field]]
        kept.append(e)
    titan_fell = any(e.get("type") == "KillingBlow" and "titan" in e.get("targetowner", "").lower() for e in kept)
    if not titan_fell:
        winner = rng.choice((1, 2, 1, 2, None))
        if winner is not None:
            roster = [e for e in kept if e.get("type") == "RoleAssigned"]
            killer = rng.choice([e["sourceowner"] for e in roster if e["value1"] == str(winner)])
            last = max(datetime.strptime(e["time"], TIME_FORMAT) for e in kept if "time" in e)
            titan = "Chaos Titan" if winner == 1 else "Order Titan"
            kept.append({"eventType": "CombatMsg", "type": "KillingBlow", "locationx": "0.000000",
                         "locationy": "0.000000", "itemid": "0", "itemname": "Basic Attack",
                         "time": (last + timedelta(seconds=1)).strftime(TIME_FORMAT), "sourceowner": killer,
                         "targetowner": titan, "value1": "1", "value2": "0", "text": f"{killer} killed {titan}."})
    # the real framing: BOM, CRLF, a comma after every line but the last
    out.write_text(",\r\n".join(_line(**e) for e in kept) + "\r\n", encoding="utf-8-sig", newline="")


def write_season(folder: Path) -> list[SeasonMatch]:
    """Write the season's logs into `folder` and compute each one's truth."""
    from combat_analysis.ingest.simulate import write_match

    folder.mkdir(parents=True, exist_ok=True)
    matches: list[SeasonMatch] = []
    starts: dict[int, datetime] = {}
    for seed in SEEDS:
        raw = folder / f"raw-{seed}.log"
        write_match(raw, seed, scale=(0.1, 0.14, 0.18)[seed % 3])
        path = folder / f"season-{seed}.log"
        season_log(raw, path, seed, start_at=starts.get(TIED.get(seed)))
        raw.unlink()
        figures = truth_tool.figures(*truth_tool.load(path))
        starts[seed] = datetime.fromisoformat(figures["match_start"])
        matches.append(SeasonMatch(path=path, match_id=str(figures["match_id"]), truth=figures))
    return matches



_WRITTEN: dict[str, list[SeasonMatch]] = {}


def ingest_season(matches: list[SeasonMatch], root: Path) -> Path:
    """Every match of the season ingested into the warehouse at `root` in one folder run (as `ingest FOLDER` does);
    returns `root`. Any file that fails fails the fixture."""
    from combat_analysis.ingest.run import ingest_logs

    outcomes = ingest_logs([match.path for match in matches], root)
    failed = [(o.path, o.error) for o in outcomes if o.error is not None]
    assert not failed, failed
    return root


_INGESTED: dict[str, Path] = {}


def season_home_once(tmp_path_factory, name: str, matches: list[SeasonMatch]) -> Path:
    """A data home whose `warehouse` holds `matches`, ingested once per test run however many modules and
    pytest-xdist workers ask for it (the first one, under a file lock, in the run's shared temporary folder): the
    season tests and the answer tests only read its lake, so their fixtures share it instead of ingesting the same
    season in every worker. What answers write there (charts, handles) is named per answer."""
    if name not in _INGESTED:
        from filelock import FileLock  # pytest-xdist's own dependency

        base = _shared_temp(tmp_path_factory) / f"{name}-home"
        ready = base.with_name(f"{name}-home.ready")
        with FileLock(str(ready) + ".lock"):
            if not ready.exists():
                ingest_season(matches, base / "warehouse")
                ready.touch()
        _INGESTED[name] = base
    return _INGESTED[name]


def _shared_temp(tmp_path_factory) -> Path:
    """The folder every pytest-xdist worker of this run shares (the run's own temporary folder without xdist)."""
    return tmp_path_factory.getbasetemp().parent if os.environ.get("PYTEST_XDIST_WORKER") else \
        tmp_path_factory.getbasetemp()


def _written_once(tmp_path_factory, name: str, write) -> list[SeasonMatch]:
    """`write(folder)`'s season, written once per test run however many modules and pytest-xdist workers ask for it:
    the first worker writes it into the run's shared temporary folder (under a file lock) with an index of each
    match's truth, and every other one reads that index. The logs are only read by the tests."""
    if name in _WRITTEN:
        return _WRITTEN[name]
    from filelock import FileLock  # pytest-xdist's own dependency

    shared = _shared_temp(tmp_path_factory)
    folder, index = shared / f"{name}-logs", shared / f"{name}-logs.json"
    with FileLock(str(index) + ".lock"):
        if index.exists():
            rows = json.loads(index.read_text(encoding="utf-8"))
            matches = [SeasonMatch(path=Path(r["path"]), match_id=r["match_id"], truth=r["truth"]) for r in rows]
        else:
            matches = write(folder)
            rows = [{"path": str(m.path), "match_id": m.match_id, "truth": m.truth} for m in matches]
            index.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    _WRITTEN[name] = matches
    return matches


def season_once(tmp_path_factory) -> list[SeasonMatch]:
    """The season, written once per test run however many test modules and workers ask for it."""
    return _written_once(tmp_path_factory, "season", write_season)


# --- the oracle, aggregated in plain Python (docs/season.md) ------------------------------------------------


def per_match_figure(row: dict, metric: str, duration_s: int):
    """A per-match figure from the truth file's exact counts and sums (its ratios are rounded to 4 places)."""
    minutes = duration_s / 60
    derived = {
        "damage_mitigated": row["mitigated"],
        "items_purchased": len(row["items"]),
        "kda": (row["kills"] + row["assists"]) / max(row["deaths"], 1),
        "gpm": row["gold"] / minutes,
        "dpm": row["damage_dealt"] / minutes,
    }
    return derived[metric] if metric in derived else row[metric]


# truth.py lumps minions and jungle monsters together as npcs; those two figures are checked as a sum.
ORACLE_METRICS = tuple(m for m in PLAYER_METRICS if m not in ("damage_to_minions", "damage_to_jungle"))


def _once_per_season(oracle):
    """`oracle(matches)` computed once per set of matches (the truth files never change during a run); each call
    gets its own copies of the rows, so a test may change what it was given."""
    found: dict[tuple, list[dict]] = {}

    def cached(matches) -> list[dict]:
        key = tuple((str(m.path), m.match_id) for m in matches)
        if key not in found:
            found[key] = oracle(matches)
        return [dict(row) for row in found[key]]

    cached.__doc__ = oracle.__doc__
    return cached


@_once_per_season
def games(matches) -> list[dict]:
    """One dict per player per match: what the oracle says, with the match's id, start and result."""
    out = []
    for m in matches:
        t = m.truth
        winner = t["winner"]
        for player, row in t["players"].items():
            result = "unknown" if winner is None else "win" if winner == row["team"] else "loss"
            game = {"player": player, "match_id": m.match_id, "started_at": datetime.fromisoformat(t["match_start"]),
                    "team": row["team"], "role": row["role"], "god": row["god"], "result": result,
                    "npc_damage": row["damage_to_npcs"]}
            game.update({k: per_match_figure(row, k, t["duration_seconds"]) for k in ORACLE_METRICS})
            out.append(game)
    return out


def expected_record(rows: list[dict]) -> dict:
    wins = sum(r["result"] == "win" for r in rows)
    losses = sum(r["result"] == "loss" for r in rows)
    return {"games": len(rows), "wins": wins, "losses": losses, "unknown_results": len(rows) - wins - losses,
            "win_rate": wins / (wins + losses) if wins + losses else None}


def start_order(matches) -> list:
    return sorted(matches, key=lambda m: (datetime.fromisoformat(m.truth["match_start"]), m.match_id))


def same(actual, expected) -> bool:
    """Sums and counts exactly; means and ratios to the last few bits (summation order may differ)."""
    if expected is None or actual is None:
        return actual is expected
    if not isinstance(expected, (int, float)) or isinstance(expected, bool):
        return actual == expected
    if float(expected).is_integer() and float(actual).is_integer():
        return actual == expected
    return actual == pytest.approx(expected, rel=1e-12, abs=1e-12)


def assert_same(actual: dict, expected: dict, what: str) -> None:
    wrong = {k: (actual[k], v) for k, v in expected.items() if not same(actual[k], v)}
    assert not wrong, f"{what}: (got, expected) {wrong}"


def expected_h2h(matches, a: str, b: str) -> dict:
    both = [m for m in start_order(matches) if a in m.truth["players"] and b in m.truth["players"]]
    mates = [m for m in both if m.truth["players"][a]["team"] == m.truth["players"][b]["team"]]
    rivals = [m for m in both if m not in mates]

    def team_won(m, p):
        return m.truth["winner"] == m.truth["players"][p]["team"]

    return {
        "matches_together": len(both), "as_teammates": len(mates),
        "teammate_wins": sum(team_won(m, a) for m in mates),
        "teammate_losses": sum(m.truth["winner"] is not None and not team_won(m, a) for m in mates),
        "as_opponents": len(rivals), "wins_a": sum(team_won(m, a) for m in rivals),
        "wins_b": sum(team_won(m, b) for m in rivals),
        "opponent_unknown_results": sum(m.truth["winner"] is None for m in rivals),
        "kills_a_on_b": sum(k["killer"] == a and k["victim"] == b for m in both for k in m.truth["kills"]),
        "kills_b_on_a": sum(k["killer"] == b and k["victim"] == a for m in both for k in m.truth["kills"]),
        "match_ids": tuple(m.match_id for m in both),
        # an assist on a player: an assist in a player kill whose victim was that player (docs/season.md)
        "assists_a_on_b": sum(k["victim"] == b and a in k["assists"] for m in both for k in m.truth["kills"]),
        "assists_b_on_a": sum(k["victim"] == a and b in k["assists"] for m in both for k in m.truth["kills"]),
    }


# --- a second season: one roster kept across matches ---------------------------------------------------------------
#
# `simulate.write_match(names=...)` keeps the roster: twelve regulars, ten a match, two sitting out in turn, and a
# newcomer who plays only two matches (so averages and rates meet the default minimum of games). Lengths vary;
# each match gets an outcome (a Titan killed by a player or by a minion, or none) and a few deaths to non-players
# (a tower, a boss, a minion, a jungle monster), written into the log as the game writes them. The oracle reads
# the logs with truth.py, as for the first season.

REGULARS = ("León0722", "O'Malley", "zoe.rush", "Night Owl", "Kuro猫", "✨Stella✨", "Ørjan Ås", "D'Artagnan",
            "小龙Xiao", "Brisk", "PapiTacos")
NEWCOMER = "Rookie Ann"
ROSTER_SEEDS = (201, 202, 203, 204, 205, 206, 207, 208, 209)
NEWCOMER_PLAYS = (2, 5)  # the matches (by index) the newcomer plays
KILLERS = ("Chaos Tower", "Order Tower", "Fire Giant", "Brute", "Satyr")


def _lineup(index: int) -> list[str]:
    rng = random.Random(f"lineup-{index}")
    regulars = list(REGULARS)
    out = [regulars[(index + k) % len(regulars)] for k in range(len(regulars))]
    names = out[:9] + [NEWCOMER] if index in NEWCOMER_PLAYS else out[:10]
    rng.shuffle(names)
    return names


def _blow(time: datetime, killer: str, target: str) -> dict:
    return {"eventType": "CombatMsg", "type": "KillingBlow", "locationx": "0.000000", "locationy": "0.000000",
            "itemid": "0", "itemname": "Basic Attack", "time": time.strftime(TIME_FORMAT), "sourceowner": killer,
            "targetowner": target, "value1": "1", "value2": "0", "text": f"{killer} killed {target}."}


def _decide(path: Path, index: int) -> None:
    """Deaths to non-players and an outcome appended at the end of the match (see the section comment)."""
    text = path.read_text(encoding="utf-8-sig")
    events = [json.loads(s.rstrip(",")) for s in (line.strip() for line in text.splitlines()) if s]
    rng = random.Random(f"decide-{index}")
    roster = {e["sourceowner"]: int(e["value1"]) for e in events if e.get("type") == "RoleAssigned"}
    last = max(datetime.strptime(e["time"], TIME_FORMAT) for e in events if "time" in e)
    added = [_blow(last + timedelta(seconds=1 + k), killer, rng.choice(sorted(roster)))
             for k, killer in enumerate(rng.sample(KILLERS, 2 + index % 3))]
    if not any(e.get("type") == "KillingBlow" and "Titan" in e.get("targetowner", "") for e in events):
        winner = (1, 2, None, 2, 1, 2, 1, 1, 2)[index % 9]
        if winner is not None:
            titan = "Chaos Titan" if winner == 1 else "Order Titan"
            killer = "Brute" if index % 4 == 0 else rng.choice(sorted(p for p, t in roster.items() if t == winner))
            added.append(_blow(last + timedelta(seconds=10), killer, titan))
    kept = events + added
    path.write_text(",\r\n".join(_line(**e) for e in kept) + "\r\n", encoding="utf-8-sig", newline="")


def write_roster_season(folder: Path) -> list[SeasonMatch]:
    """The second season's logs in `folder`, with each one's truth."""
    from combat_analysis.ingest.simulate import write_match

    folder.mkdir(parents=True, exist_ok=True)
    matches = []
    for index, seed in enumerate(ROSTER_SEEDS):
        path = folder / f"roster-{seed}.log"
        write_match(path, seed, scale=0.25, minutes=(16, 19, 22, 25)[index % 4], names=_lineup(index))
        _decide(path, index)
        figures = truth_tool.figures(*truth_tool.load(path))
        matches.append(SeasonMatch(path=path, match_id=str(figures["match_id"]), truth=figures))
    return matches


def roster_season_once(tmp_path_factory) -> list[SeasonMatch]:
    """The second season, written once per test run (`_written_once`)."""
    return _written_once(tmp_path_factory, "roster", write_roster_season)


# --- events and match figures of the oracle --------------------------------------------------------------------------

_OBJECTIVE_WORDS = {"towers": "tower", "phoenixes": "phoenix", "titans": "titan", "gold_furies": "gold fury",
                    "fire_giants": "fire giant"}


def _objective_counts(objectives: list[dict]) -> dict:
    out = {"objectives_taken": len(objectives)}
    out.update({name: sum(word in o["target"].lower() for o in objectives) for name, word in _OBJECTIVE_WORDS.items()})
    out["bosses"] = out["gold_furies"] + out["fire_giants"]  # METRICS.md: the bosses are the Gold Fury and Fire Giant
    return out


@_once_per_season
def event_games(matches) -> list[dict]:
    """`games(matches)` with each player-game's events: first bloods, objectives taken (by the player's own blow),
    deaths by cause (the oracle tells players, structures and bosses from the rest: minions and jungle monsters
    are one kind there) and every kill on each other player."""
    out = []
    by_game = {(g["match_id"], g["player"]): g for g in games(matches)}
    for m in matches:
        t = m.truth
        fb = t["first_blood"] or {}
        for player in t["players"]:
            g = dict(by_game[(m.match_id, player)])
            g["first_bloods"] = int(fb.get("killer") == player)
            g["first_blood_deaths"] = int(fb.get("victim") == player)
            g.update(_objective_counts([o for o in t["objectives"] if o["killer"] == player and o["killer_is_player"]]))
            npc_kinds = [truth_tool.entity_kind(d["killer"], t["players"]) for d in t["deaths_to_npcs"]
                         if d["victim"] == player]
            g["deaths_to_players"] = sum(k["victim"] == player for k in t["kills"])
            g["deaths_to_npcs"] = len(npc_kinds)
            g["deaths_to_structures"] = npc_kinds.count("structure")
            g["deaths_to_bosses"] = npc_kinds.count("boss")
            # one kind of structure, by the word in its name (METRICS.md: tower, phoenix, titan)
            g["deaths_to_towers"] = sum("tower" in (d["killer"] or "").lower() for d in t["deaths_to_npcs"]
                                        if d["victim"] == player)
            g["kills_on"] = {v: sum(k["killer"] == player and k["victim"] == v for k in t["kills"])
                             for v in t["players"]}
            g["duration_s"] = t["duration_seconds"]
            out.append(g)
    return out


def side_games(matches) -> list[dict]:
    """One dict per side per match: the side's result, its players' figures added up, and the objectives METRICS.md
    says it took (a minion's blow counts for its side)."""
    out = []
    for m in matches:
        t = m.truth
        for team in (1, 2):
            rows = [r for r in t["players"].values() if r["team"] == team]
            result = "unknown" if t["winner"] is None else "win" if t["winner"] == team else "loss"
            side = {"side": team, "match_id": m.match_id, "result": result,
                    "kills": sum(r["kills"] for r in rows), "deaths": sum(r["deaths"] for r in rows),
                    "assists": sum(r["assists"] for r in rows), "gold": sum(r["gold"] for r in rows),
                    "damage_dealt": sum(r["damage_dealt"] for r in rows), "duration_s": t["duration_seconds"]}
            side.update(_objective_counts([o for o in t["objectives"] if o["team"] == team]))
            out.append(side)
    return out


def match_figures(matches) -> list[dict]:
    """One dict per match: its id, start, length, player kills, first blood, objectives, largest gold lead and biggest
    hit."""
    out = []
    for m in matches:
        t = m.truth
        row = {"match_id": m.match_id, "started_at": datetime.fromisoformat(t["match_start"]),
               "duration_s": t["duration_seconds"], "kills": t["total_kills"], "deaths": t["total_deaths"],
               "first_blood_s": t["first_blood"]["second"] if t["first_blood"] else None,
               "first_blood_killer": (t["first_blood"] or {}).get("killer"),
               "largest_gold_lead": max(abs(d) for d in t["team_gold_difference_by_minute"]),
               "final_gold_difference": abs(sum(r["gold"] * (1 if r["team"] == 1 else -1)
                                                for r in t["players"].values())),
               "damage_dealt": sum(r["damage_dealt"] for r in t["players"].values())}
        hit = t["biggest_hit"] or {}  # the match's single largest hit: its value, who, with what, on whom
        row.update({"biggest_hit": hit.get("value"), "hit_by": hit.get("player"), "hit_with": hit.get("ability"),
                    "hit_target": hit.get("target")})
        row.update(_objective_counts(t["objectives"]))
        out.append(row)
    return out


def ask_across(home: Path, question: str, match_id: str | None = None):
    """A question answered as `combat-analysis ask` answers it on a data home (the match chosen by
    `pipeline.choose_match`), text only (no charts, report files or follow-ups): the package and its primary rows.
    The answer reads the lake through a session kept open for its warehouse, match and snapshot (`SESSIONS`), and
    the match is chosen on the session open across every match (`pipeline.choose_on`, which `choose_match` runs
    after opening the lake): the homes these tests ask are never written once asked."""
    from combat_analysis.answer.pipeline import MatchChoice, choose_on, run_stages
    from combat_analysis.warehouse.handles import rows_of

    if match_id:
        choice = MatchChoice(match_id, "named")
    else:
        every_match = SESSIONS.env(home / "warehouse", None, None, home / "artifacts")
        choice = choose_on(question, every_match.shared)
    session = SESSIONS.env(home / "warehouse", choice.match_id, choice.snapshot, home / "artifacts")
    pkg = run_stages(question, replace(session, scope_how=choice.how, scope=choice.scope))
    result = pkg.primary_result
    rows = rows_of(result, None) if result is not None and result.status == "ok" else []
    return pkg, rows


# Roster names another roster name equals case-insensitively, or that read as something else ("x", "a.b"): tests
# that ask by name leave them out.
AMBIGUOUS_NAMES = frozenset({"x", "a.b", "voidwalker"})


def named_players(matches, least: int = 1) -> list[str]:
    """The season's players with at least `least` games whose names read as one player, sorted."""
    counts: dict[str, int] = {}
    for g in event_games(matches):
        counts[g["player"]] = counts.get(g["player"], 0) + 1
    return sorted(p for p, n in counts.items() if p.lower() not in AMBIGUOUS_NAMES and n >= least)


def games_of(matches, player: str) -> list[dict]:
    """`event_games` of one player."""
    return [g for g in event_games(matches) if g["player"] == player]


def answered_across(pkg) -> str:
    """The direct answer of a package that answered across matches with no unhandled error."""
    from combat_analysis.contracts.plan import ManyMatches

    assert not pkg.is_refusal, pkg.response.direct_answer
    assert isinstance(pkg.plan.scope, ManyMatches), pkg.plan
    assert not [e for e in pkg.errors if not e.handled], pkg.errors
    return pkg.response.direct_answer


# --- the checks' own aggregation, shared by the season test files -----------------------------------------------

def totals(games: list[dict], metric: str, key: str = "player") -> dict:
    """Each `key`'s sum of `metric` over the player-games."""
    out: dict = {}
    for g in games:
        out[g[key]] = out.get(g[key], 0) + g[metric]
    return out


def leaders(values: dict, lowest: bool = False) -> list:
    """Every key holding the highest (lowest) value, sorted: ties counted."""
    best = (min if lowest else max)(values.values())
    return sorted(k for k, v in values.items() if v == best)


def ranked_first(rows: list[dict], column: str) -> list:
    """The `column` of every row a board ranked first, sorted."""
    return sorted(r[column] for r in rows if r["rank"] == 1)
