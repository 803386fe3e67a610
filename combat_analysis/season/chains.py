"""Kill chains across matches (docs/season.md), as the question defined them (`SeasonFigure.chain`): every chain of
every selected match found by `catalog/kill_chains.sql` (its values bound as parameters), then laid out as rows:

- board: a player's (side's, role's, god's) chains over the matches, with their games, the games with a chain and the
  longest chain; ranked by chains, the entries with none last;
- profile: one player's chains, games, games with a chain and the match with the most;
- matches: every selected match ranked by its chains;
- season: the chains of every selected match together, the matches and players that had one.

`sentence` words the rows, the chain's definition said after.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from combat_analysis.catalog import chains as chain_rule
from combat_analysis.contracts.plan import QueryPlan, SeasonFigure
from combat_analysis.formatting import capital, count, join_and, number
from combat_analysis.season.boards import side_name
from combat_analysis.season.figures import MatchInfo

Row = dict[str, Any]
SHOWN = 5  # entries named before "and N more"
_KEYS = {"player": "player", "side": "team", "role": "role", "god": "god"}


def _rows(con, sql: str, params: dict[str, Any] | None = None) -> list[Row]:
    cursor = con.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _kept(figure: SeasonFigure, row: Row) -> bool:
    """A player-game (or its chain) inside the board's filters: the side, role or god asked."""
    return ((figure.side is None or row["team"] == figure.side) and (figure.role is None or row["role"] == figure.role)
            and (figure.god is None or row["god"] == figure.god)
            and (not figure.players or row["player"] in figure.players))


def chain_rows(con, figure: SeasonFigure, matches: Sequence[MatchInfo]) -> list[Row]:
    """The figure's rows (see the module docstring) over the selected `matches`."""
    assert figure.chain is not None
    ids = {m.match_id for m in matches}
    found = [c for c in _rows(con, chain_rule.CHAIN_SQL, chain_rule.parameters(figure.chain))
             if c["match_id"] in ids and _kept(figure, c)]
    games = [g for g in _rows(con, "SELECT match_id, player, team, role, god FROM players ORDER BY match_id, player")
             if g["match_id"] in ids and _kept(figure, g)]
    if figure.figure == "matches":
        return _by_match(found, matches)
    if figure.figure == "season":
        return [{"kill_chains": len(found), "matches": len(matches),
                 "matches_with_chains": len({c["match_id"] for c in found}),
                 "players_with_chains": len({c["player"] for c in found}),
                 "longest_chain": max((c["kills"] for c in found), default=None)}]
    if figure.figure == "profile":
        return [_profile(figure.players[0], found, games, matches)]
    return _board(figure.subject, found, games)


def _entry(subject: str, row: Row) -> Any:
    value = row[_KEYS[subject]]
    return side_name(value) if subject == "side" else value


def _board(subject: str, found: list[Row], games: list[Row]) -> list[Row]:
    played: dict[Any, set[tuple[str, str]]] = defaultdict(set)
    for g in games:
        played[_entry(subject, g)].add((g["match_id"], g["player"]))
    chains = Counter(_entry(subject, c) for c in found)
    out = []
    for name, seen in played.items():
        mine = [c for c in found if _entry(subject, c) == name]
        out.append({subject: name, "kill_chains": chains.get(name, 0), "matches": len({m for m, _ in seen}),
                    "matches_with_chains": len({c["match_id"] for c in mine}),
                    "longest_chain": max((c["kills"] for c in mine), default=None)})
    out.sort(key=lambda r: (-r["kill_chains"], str(r[subject])))
    for row in out:
        row["rank"] = 1 + sum(1 for other in out if other["kill_chains"] > row["kill_chains"])
    return [{"rank": r.pop("rank"), **r} for r in out]


def _profile(player: str, found: list[Row], games: list[Row], matches: Sequence[MatchInfo]) -> Row:
    mine = [c for c in found if c["player"] == player]
    per_match = Counter(c["match_id"] for c in mine)
    best = max(per_match.items(), key=lambda item: (item[1], item[0]), default=None)
    started = {m.match_id: m.started_at for m in matches}
    return {"player": player, "kill_chains": len(mine),
            "matches": len({g["match_id"] for g in games if g["player"] == player}),
            "matches_with_chains": len(per_match), "longest_chain": max((c["kills"] for c in mine), default=None),
            "most_in_a_match": best[1] if best else 0, "most_match_id": best[0] if best else None,
            "most_started_at": str(started.get(best[0]) or "")[:10] if best else None}


def _by_match(found: list[Row], matches: Sequence[MatchInfo]) -> list[Row]:
    per_match = Counter(c["match_id"] for c in found)
    out: list[Row] = [{"match_id": m.match_id, "started_at": str(m.started_at or "")[:10] or None,
            "kill_chains": per_match.get(m.match_id, 0),
            "players_with_chains": len({c["player"] for c in found if c["match_id"] == m.match_id})} for m in matches]
    out.sort(key=lambda r: (-r["kill_chains"], str(r["match_id"])))
    return [{"rank": 1 + sum(1 for o in out if o["kill_chains"] > r["kill_chains"]), **r} for r in out]


# --- the sentence -------------------------------------------------------------------------------------------------

def sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    """The answer from the rows of `chain_rows`; `lead` says which matches ("Across all 24 matches")."""
    assert figure.chain is not None
    what = f"kill chains of at least {figure.chain.kills} kills"
    said = {"matches": _matches_said, "season": _season_said, "profile": _profile_said}.get(figure.figure, _board_said)(
        figure, rows, lead, what)
    return f"{said} ({capital(chain_rule.said(figure.chain))}.)"


def _games(n: int) -> str:
    return count(n, "game")


def _tied_top(valued: list[Row], name: Callable[[Row], str]) -> tuple[int, str, str]:
    """The most chains, the rows tied at it named (at most SHOWN, then "and N more"), and " each" when several tie."""
    top = valued[0]["kill_chains"]
    tied = [r for r in valued if r["kill_chains"] == top]
    more = f" and {len(tied) - SHOWN} more" if len(tied) > SHOWN else ""
    return top, join_and([name(r) for r in tied[:SHOWN]]) + more, " each" if len(tied) > 1 else ""


def _board_said(figure: SeasonFigure, rows: list[Row], lead: str, what: str) -> str:
    key = figure.subject
    valued = [r for r in rows if r["kill_chains"]]
    if not valued:
        return f"{lead}, no {key} had any {what}{_among(figure, rows)}."
    top, named, each = _tied_top(valued, lambda r: f"{r[key]} ({_games(r['matches'])})")
    head = f"{lead}, {named} had the most {what}: {number(top)}{each}"
    others = [r for r in valued if r["kill_chains"] < top]
    if others:
        shown = ", ".join(f"{r[key]} {number(r['kill_chains'])} in {_games(r['matches'])}" for r in others[:SHOWN])
        rest = len(others) - SHOWN
        head += f". Next: {shown}{f' and {rest} more' if rest > 0 else ''}"
    total = sum(r["kill_chains"] for r in rows)
    return f"{head}. In all, {count(total, 'chain')} by {count(len(valued), key)}{_among(figure, rows)}"


def _among(figure: SeasonFigure, rows: list[Row]) -> str:
    return f" of the {count(len(rows), figure.subject)} who played" if figure.subject == "player" and rows else ""


def _profile_said(figure: SeasonFigure, rows: list[Row], lead: str, what: str) -> str:
    row: Row = rows[0] if rows else {"player": figure.players[0], "kill_chains": 0, "matches": 0}
    head = f"{lead}, {row['player']} had {number(row['kill_chains'])} {what} in {_games(row['matches'])}"
    if not row["kill_chains"]:
        return head
    most = row["most_in_a_match"]
    day = row.get("most_started_at")
    where = f"{row['most_match_id']} ({day})" if day else str(row["most_match_id"])
    return (f"{head}, with at least one in {number(row['matches_with_chains'])} of them"
            f"; the most in one match: {number(most)}, in {where}; the longest chain: "
            f"{count(row['longest_chain'], 'kill')}")


def _matches_said(figure: SeasonFigure, rows: list[Row], lead: str, what: str) -> str:
    valued = [r for r in rows if r["kill_chains"]]
    whose = f" by {join_and(list(figure.players))}" if figure.players else ""
    if not valued:
        return f"{lead}, no match had any {what}{whose}."
    top, named, each = _tied_top(valued, lambda r: f"{r['match_id']} ({r['started_at'] or 'date unknown'})")
    head = f"{lead}, the most {what}{whose} in one match: {number(top)}{each}, in {named}"
    others = [r for r in valued if r["kill_chains"] < top]
    if others:
        head += f" (next: {others[0]['match_id']} with {number(others[0]['kill_chains'])})"
    total = sum(r["kill_chains"] for r in rows)
    return f"{head}. In all, {count(total, 'chain')}, in {len(valued)} of the {count(len(rows), 'match')}"


def _season_said(figure: SeasonFigure, rows: list[Row], lead: str, what: str) -> str:
    row = rows[0]
    if not row["kill_chains"]:
        return f"{lead}, there were no {what}."
    return (f"{lead}, there were {number(row['kill_chains'])} {what}, in {row['matches_with_chains']} of the "
            f"{count(row['matches'], 'match')}, by {count(row['players_with_chains'], 'player')}; the longest: "
            f"{count(row['longest_chain'], 'kill')}")
