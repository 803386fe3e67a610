"""What one match's data calls things: players (with team, role, god), abilities, items, duration, winner.

The planner resolves every name in a question against a `Vocabulary`, never against the warehouse directly,
so planning needs no database and takes milliseconds. Across matches, `SeasonVocabulary` holds the names of
every match.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class PlayerInfo:
    player: str
    team: int | None = None
    role: str | None = None
    god: str | None = None


@dataclass(frozen=True)
class Moment:
    """One event a time window may be anchored on ("before the first tower fell", "after first blood", "until Brisk's
    last death"): its kind (`first_blood`, `first_death`, the objective: tower, phoenix, titan, fire giant, gold fury,
    or a player's own `death`, `kill`, `assist` or `purchase`), what fell (or was bought), the side that took it, and its
    match second."""

    kind: str
    second: int
    target: str | None = None
    team: int | None = None
    by: str | None = None  # who dealt the blow: the killer, and for first blood its victim after it ("X on Y")


def _remembered_hash(vocab: Vocabulary) -> int:
    """The vocabulary's hash, computed once: the planner's caches are keyed on it, and hashing every moment of a
    match again on each look-up cost more than the look-ups saved."""
    known = vocab.__dict__.get("_hash")
    if known is None:
        known = hash(tuple(getattr(vocab, f.name) for f in fields(vocab)))
        object.__setattr__(vocab, "_hash", known)
    return known


def _state_without_hash(vocab: Vocabulary) -> dict[str, Any]:
    # a string's hash differs between processes, so a pickled vocabulary computes its own again
    return {k: v for k, v in vocab.__dict__.items() if k != "_hash"}


@dataclass(frozen=True)
class Vocabulary:
    players: tuple[PlayerInfo, ...] = ()
    abilities: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    npcs: tuple[str, ...] = ()  # non-player names seen in the match: Gold Fury, Order Tower...
    duration_s: int | None = None
    winner_team: int | None = None
    # abilities that are item effects, not a god's own: used by players of more than one god ("Bumba's Cudgel")
    shared_abilities: tuple[str, ...] = ()
    started_at: datetime | None = None  # the match's start, which says which match "the latest" read
    # first blood, the first death, every objective and every player's deaths, kills and assists, in time order
    moments: tuple[Moment, ...] = ()
    # every ability with the players who cast it (its damage, healing, crowd control or killing blows), by name
    casters: tuple[tuple[str, tuple[str, ...]], ...] = ()

    __hash__ = _remembered_hash
    __getstate__ = _state_without_hash

    @classmethod
    def from_connection(cls, con) -> Vocabulary:
        """Read the names of the (single) match a DuckDB connection's views are scoped to."""
        players = tuple(
            PlayerInfo(player=name, team=None if team is None else int(team), role=role, god=god)
            for name, team, role, god in con.execute(
                "SELECT player, team, role, god FROM players ORDER BY team, player").fetchall()
        )
        abilities = _column(con, "SELECT DISTINCT ability FROM damage WHERE ability IS NOT NULL UNION "
                                 "SELECT DISTINCT ability FROM healing WHERE ability IS NOT NULL UNION "
                                 "SELECT DISTINCT ability FROM crowd_control WHERE ability IS NOT NULL")
        items = _column(con, "SELECT DISTINCT item FROM purchases WHERE item IS NOT NULL")
        npcs = _column(con, "SELECT DISTINCT name FROM entities WHERE kind <> 'player' AND name IS NOT NULL")
        shared = _column(con, "SELECT ability FROM damage WHERE source_kind = 'player' AND ability IS NOT NULL "
                              "GROUP BY ability HAVING COUNT(DISTINCT source) > 1")
        row = con.execute("SELECT duration_s, winner_team, started_at FROM matches LIMIT 1").fetchone()
        duration, winner, started = (row if row else (None, None, None))
        return cls(players=players, abilities=abilities, items=items, npcs=npcs,
                   duration_s=None if duration is None else int(duration),
                   winner_team=None if winner is None else int(winner), shared_abilities=shared, started_at=started,
                   moments=_moments(con),
                   # who casts each ability is read of one match; across matches (a locked connection over every
                   # match) it would scan every match's damage for a reading no season figure uses
                   casters=() if getattr(con, "match_id", "") is None else _casters(con))

    @property
    def item_effects(self) -> tuple[str, ...]:
        """The abilities that are items' effects: named like an item of the match, or used by several gods."""
        return tuple(a for a in self.abilities if (a in self.items or a in self.shared_abilities)
                     and not a.lower().endswith("basic attack"))

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.players)

    @property
    def gods(self) -> tuple[str, ...]:
        return tuple(sorted({p.god for p in self.players if p.god}))

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(sorted({p.role for p in self.players if p.role}))

    @property
    def teams(self) -> tuple[int, ...]:
        found = sorted({p.team for p in self.players if p.team is not None})
        return tuple(found) or (1, 2)

    def cast_by(self, ability: str) -> tuple[str, ...]:
        """The players who cast `ability` in this match (its damage, healing, crowd control or killing blows)."""
        return next((who for name, who in self.casters if name == ability), ())

    def player(self, name: str) -> PlayerInfo | None:
        return next((p for p in self.players if p.player == name), None)

    def players_where(self, team: int | None = None, role: str | None = None, god: str | None = None):
        return tuple(p for p in self.players
                     if (team is None or p.team == team) and (role is None or p.role == role)
                     and (god is None or p.god == god))


@dataclass(frozen=True)
class SeasonVocabulary(Vocabulary):
    """The names of every match, one entry per player name (team, role and god vary by match, so the
    entries carry none), with the roles and gods seen in any match. Cheap: it never reads abilities or
    items, which a cross-match plan does not use."""

    roles_seen: tuple[str, ...] = ()
    gods_seen: tuple[str, ...] = ()

    __hash__ = _remembered_hash  # a dataclass would otherwise write its own again
    __getstate__ = _state_without_hash

    @property
    def roles(self) -> tuple[str, ...]:
        return self.roles_seen

    @property
    def gods(self) -> tuple[str, ...]:
        return self.gods_seen

    @classmethod
    def from_connection(cls, con) -> SeasonVocabulary:
        """Read the names of every match a DuckDB connection's views read (opened across matches)."""
        def column(sql: str) -> tuple[str, ...]:
            return tuple(r[0] for r in con.execute(sql).fetchall())

        return cls(
            players=tuple(PlayerInfo(player=n) for n in column("SELECT DISTINCT player FROM players ORDER BY player")),
            roles_seen=column("SELECT DISTINCT role FROM players WHERE role IS NOT NULL ORDER BY role"),
            gods_seen=column("SELECT DISTINCT god FROM players WHERE god IS NOT NULL ORDER BY god"),
            # non-players are read so a question about one ("the Fire Giant") is recognised, and refused across
            # matches rather than answered about the players
            npcs=column("SELECT DISTINCT name FROM entities WHERE kind <> 'player' AND name IS NOT NULL ORDER BY name"))


def _column(con, sql: str) -> tuple[str, ...]:
    return tuple(sorted(r[0] for r in con.execute(sql).fetchall()))


def _casters(con) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every ability with the players who cast it: the sources on the roster of its damage, healing, crowd control
    or killing blows."""
    rows = con.execute(
        "SELECT e.ability, e.source FROM (SELECT ability, source FROM damage UNION SELECT ability, source FROM healing "
        "UNION SELECT ability, source FROM crowd_control UNION SELECT ability, killer FROM kills) AS e JOIN players AS p ON e.source = p.player "
        "WHERE e.ability IS NOT NULL ORDER BY e.ability, e.source").fetchall()
    found: dict[str, list[str]] = {}
    for ability, source in rows:
        found.setdefault(str(ability), []).append(str(source))
    return tuple((ability, tuple(who)) for ability, who in found.items())


def _moments(con) -> tuple[Moment, ...]:
    """The events a window may be anchored on: first blood (the first player kill), the first death of a player
    (from any source) and every objective, each with its match second."""
    found = [Moment(kind=str(objective), second=int(second), target=target, team=None if team is None else int(team),
                    by=killer)
             for objective, target, team, second, killer in con.execute(
                 "SELECT objective, target, team, match_second, killer FROM objectives WHERE match_second IS NOT NULL "
                 "ORDER BY match_second, line_no").fetchall()]
    for kind, where in (("first_blood", "is_player_kill"), ("first_death", "victim_kind = 'player'")):
        row = con.execute(f"SELECT match_second, killer, victim, killer_team FROM kills WHERE {where} "  # noqa: S608
                          "AND match_second IS NOT NULL ORDER BY match_second, line_no LIMIT 1").fetchone()
        if row is not None:
            found.append(Moment(kind=kind, second=int(row[0]), target=row[2], team=None if row[3] is None else int(row[3]),
                                by=row[1]))
    return tuple(sorted([*found, *_players_moments(con)], key=lambda m: m.second))


def _players_moments(con) -> list[Moment]:
    """Each player's own events, a window may be anchored on ("before Brisk's first death", "after his last kill"):
    `death` (a player's death from any source: `by` the player who died, `target` the killer), `kill` (a player kill:
    `by` the killer, `target` the victim) and `assist` (`by` the assister, `target` the victim), as METRICS.md counts
    deaths, kills and assists; and `purchase` (`by` the buyer, `target` the item: "after his blink rune")."""
    rows = con.execute(
        "SELECT 'death', victim, killer, match_second, line_no FROM kills WHERE victim_kind = 'player' "
        "AND match_second IS NOT NULL UNION ALL SELECT 'kill', killer, victim, match_second, line_no FROM kills "
        "WHERE is_player_kill AND match_second IS NOT NULL UNION ALL SELECT 'assist', a.assister, a.victim, "
        "a.match_second, a.line_no FROM (SELECT UNNEST(assists) AS assister, victim, match_second, line_no FROM kills "
        "WHERE is_player_kill AND match_second IS NOT NULL) AS a UNION ALL SELECT 'purchase', player, item, match_second, "
        "line_no FROM purchases WHERE match_second IS NOT NULL AND player IS NOT NULL ORDER BY 4, 5").fetchall()
    return [Moment(kind=kind, second=int(second), target=other, by=who) for kind, who, other, second, _ in rows]
