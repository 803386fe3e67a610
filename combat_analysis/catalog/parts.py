"""Which figure is a part of which: a figure is part of another when both sum the same value of the same rows for the
same actor and the part only adds conditions ("damage to players" is damage dealt where the target is a player).
"How much of X's damage went into gods" is then the part over X's own whole, a base the catalog can prove."""

from __future__ import annotations

from functools import cache

from combat_analysis.catalog import METRICS, metric


def _conditions(where: str | None) -> frozenset[str]:
    return frozenset(c.strip() for c in (where or "").split(" AND ") if c.strip())


def is_part_of(part_id: str, whole_id: str) -> bool:
    """Whether every row `part_id` sums is a row `whole_id` sums, with the same value for the same actor."""
    part, whole = metric(part_id), metric(whole_id)
    if part_id == whole_id or part.source is None or whole.source is None or part.aggregation != "sum" \
            or whole.aggregation != "sum":
        return False
    p, w = part.source, whole.source
    same = (p.table, p.from_sql, p.actor, p.value, p.players_only) == (w.table, w.from_sql, w.actor, w.value,
                                                                       w.players_only)
    return same and p.table is not None and _conditions(w.where) < _conditions(p.where)


@cache
def widest_whole(part_id: str) -> str | None:
    """The figure every whole of `part_id` is itself part of ("damage dealt" for "damage to structures"), or None
    when the part is part of nothing, or of two figures neither of which holds the other.

    >>> widest_whole("damage_to_structures")
    'damage_dealt'
    """
    wholes = [w for w in METRICS if is_part_of(part_id, w)]
    widest = [w for w in wholes if not any(is_part_of(w, other) for other in wholes)]
    return widest[0] if len(widest) == 1 else None
