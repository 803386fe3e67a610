"""Warehouse tables and their columns: the query surface, and the SQL validator's allow-list.

docs/warehouse.md describes what each table holds.
"""

from __future__ import annotations

WAREHOUSE_SCHEMA: dict[str, dict[str, str]] = {
    "matches": {
        "match_id": "VARCHAR", "started_at": "TIMESTAMP", "ended_at": "TIMESTAMP", "duration_s": "INTEGER",
        "winner_team": "INTEGER", "source_file": "VARCHAR", "source_sha256": "VARCHAR",
        "lines_total": "BIGINT", "lines_parsed": "BIGINT", "lines_quarantined": "BIGINT",
    },
    "players": {"match_id": "VARCHAR", "player": "VARCHAR", "team": "INTEGER", "role": "VARCHAR", "god": "VARCHAR"},
    "entities": {"match_id": "VARCHAR", "name": "VARCHAR", "kind": "VARCHAR", "team": "INTEGER"},
    "events": {
        "match_id": "VARCHAR", "line_no": "BIGINT", "event_type": "VARCHAR", "type": "VARCHAR",
        "time": "TIMESTAMP", "match_second": "INTEGER", "minute": "INTEGER", "source": "VARCHAR",
        "target": "VARCHAR", "item_id": "BIGINT", "item_name": "VARCHAR", "value1": "DOUBLE", "value2": "DOUBLE",
        "location_x": "DOUBLE", "location_y": "DOUBLE", "text": "VARCHAR", "raw": "VARCHAR",
    },
    "quarantine": {"match_id": "VARCHAR", "line_no": "BIGINT", "reason": "VARCHAR", "raw": "VARCHAR"},
    "damage": {
        "match_id": "VARCHAR", "line_no": "BIGINT", "match_second": "INTEGER", "minute": "INTEGER",
        "source": "VARCHAR", "source_kind": "VARCHAR", "source_team": "INTEGER", "target": "VARCHAR",
        "target_kind": "VARCHAR", "target_team": "INTEGER", "ability": "VARCHAR", "amount": "DOUBLE",
        "mitigated": "DOUBLE", "is_crit": "BOOLEAN", "location_x": "DOUBLE", "location_y": "DOUBLE",
    },
    "healing": {
        "match_id": "VARCHAR", "line_no": "BIGINT", "match_second": "INTEGER", "minute": "INTEGER",
        "source": "VARCHAR", "source_team": "INTEGER", "target": "VARCHAR", "target_kind": "VARCHAR",
        "ability": "VARCHAR", "amount": "DOUBLE",
    },
    "crowd_control": {
        "match_id": "VARCHAR", "line_no": "BIGINT", "match_second": "INTEGER", "minute": "INTEGER",
        "source": "VARCHAR", "source_team": "INTEGER", "target": "VARCHAR", "target_kind": "VARCHAR",
        "ability": "VARCHAR",
    },
    "kills": {
        "match_id": "VARCHAR", "line_no": "BIGINT", "match_second": "INTEGER", "minute": "INTEGER",
        "killer": "VARCHAR", "killer_kind": "VARCHAR", "killer_team": "INTEGER", "victim": "VARCHAR",
        "victim_kind": "VARCHAR", "victim_team": "INTEGER", "ability": "VARCHAR", "is_player_kill": "BOOLEAN",
        "assists": "VARCHAR[]", "location_x": "DOUBLE", "location_y": "DOUBLE",
    },
    "rewards": {
        "match_id": "VARCHAR", "line_no": "BIGINT", "match_second": "INTEGER", "minute": "INTEGER",
        "reward": "VARCHAR", "giver": "VARCHAR", "giver_kind": "VARCHAR", "recipient": "VARCHAR",
        "recipient_kind": "VARCHAR", "recipient_team": "INTEGER", "amount": "DOUBLE",
    },
    "purchases": {
        "match_id": "VARCHAR", "line_no": "BIGINT", "match_second": "INTEGER", "minute": "INTEGER",
        "player": "VARCHAR", "team": "INTEGER", "seq": "BIGINT", "item_id": "BIGINT", "item": "VARCHAR",
    },
    "objectives": {
        "match_id": "VARCHAR", "line_no": "BIGINT", "match_second": "INTEGER", "minute": "INTEGER",
        "target": "VARCHAR", "target_kind": "VARCHAR", "objective": "VARCHAR", "killer": "VARCHAR",
        "killer_kind": "VARCHAR", "team": "INTEGER",
    },
    "player_stats": {
        "match_id": "VARCHAR", "player": "VARCHAR", "team": "INTEGER", "role": "VARCHAR", "god": "VARCHAR",
        "damage_dealt": "DOUBLE", "damage_to_players": "DOUBLE", "damage_to_structures": "DOUBLE",
        "damage_to_minions": "DOUBLE", "damage_to_jungle": "DOUBLE", "damage_to_bosses": "DOUBLE",
        "damage_taken": "DOUBLE", "damage_mitigated": "DOUBLE", "healing_done": "DOUBLE",
        "healing_received": "DOUBLE", "crits": "BIGINT", "biggest_hit": "DOUBLE", "kills": "BIGINT",
        "deaths": "BIGINT", "assists": "BIGINT", "kda": "DOUBLE", "gold": "DOUBLE", "experience": "DOUBLE",
        "gpm": "DOUBLE", "dpm": "DOUBLE", "cc_applied": "BIGINT", "items_purchased": "BIGINT",
    },
    "timeline": {
        "match_id": "VARCHAR", "minute": "INTEGER", "player": "VARCHAR", "team": "INTEGER", "gold": "DOUBLE",
        "experience": "DOUBLE", "damage": "DOUBLE", "cum_gold": "DOUBLE", "cum_experience": "DOUBLE",
        "cum_damage": "DOUBLE",
    },
    "gold_diff": {
        "match_id": "VARCHAR", "minute": "INTEGER", "team1_gold": "DOUBLE", "team2_gold": "DOUBLE",
        "gold_diff": "DOUBLE",
    },
}

TABLES: tuple[str, ...] = tuple(WAREHOUSE_SCHEMA)
