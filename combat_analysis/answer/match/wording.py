"""The sentences of an answer: one function per result shape, each reading the plan and its rows.

Every figure is stated exactly (METRICS.md formatting), every entity by its name in the log, every time on
the match clock (`m:ss`). Ties are named: "top 3" lists three rows and every row tied with the third, and
a shared lead names every leader. A list question ("for every player") names every row, in order.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from combat_analysis import formatting as fmt
from combat_analysis.answer import facts as F
from combat_analysis.answer import patterns as match_patterns
from combat_analysis.answer.match import chains
from combat_analysis.answer.results import (
    dimension_word,
    fmt_entity,
    metric_info,
    pair_name,
    pair_ranked,
    result_shape,
    window_phrase,
)
from combat_analysis.catalog import DIMENSIONS, metric
from combat_analysis.catalog.kinds import entity_kind
from combat_analysis.contracts.plan import Filter, Intent, QueryPlan, ValueCondition
from combat_analysis.formatting import clock, is_number
from combat_analysis.planner.plans.draft import gods_read_as_players
from combat_analysis.planner.plans.events import WHERE_READ
from combat_analysis.planner.plans.shares import group_share
from combat_analysis.planner.read.conditions import any_at_all, describe, none_at_all
from combat_analysis.planner.read.timewords import WHOLE_MATCH
from combat_analysis.planner.read.yesno import asked_whether_any

MAX_LISTED = 12  # rows named in one sentence; the table and the chart hold the rest
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth", 9: "ninth",
            10: "tenth"}

# How a leader is described: "<who> dealt the most damage".
MOST = {
    "damage_dealt": "dealt the most damage",
    "damage_to_players": "dealt the most damage to enemy gods",
    "damage_to_structures": "dealt the most damage to structures",
    "damage_to_minions": "dealt the most damage to minions",
    "damage_to_jungle": "dealt the most damage to jungle camps",
    "damage_to_bosses": "dealt the most damage to bosses",
    "npc_damage": "dealt the most damage",
    "damage_taken": "took the most damage",
    "damage_mitigated": "mitigated the most damage",
    "healing_done": "healed the most",
    "healing_received": "received the most healing",
    "crits": "landed the most critical hits",
    "biggest_hit": "landed the biggest single hit",
    "hits": "landed the most hits",
    "kills": "got the most kills",
    "deaths": "died the most",
    "assists": "had the most assists",
    "kda": "had the best KDA",
    "kd": "had the best K/D",
    "mvp_score": "was the MVP by the match report's rule, with a score of",
    "gold": "earned the most gold",
    "experience": "earned the most experience",
    "gpm": "had the highest gold per minute",
    "dpm": "had the highest damage per minute",
    "xpm": "had the highest experience per minute",
    "cc_applied": "applied the most crowd control",
    "items_purchased": "bought the most items",
    "objectives_taken": "took the most objectives",
    "towers": "destroyed the most towers",
    "bosses": "killed the most bosses",
    "minion_kills": "killed the most minions",
    "jungle_monster_kills": "killed the most jungle monsters",
    "npc_kills": "killed the most minions and jungle monsters",
}
# How one figure is stated: "<who> dealt 99,127 damage", "<who> got 1 kill". A count's noun is in the plural
# and is made singular for one (formatting.counted).
AMOUNT = {
    "damage_dealt": "{who} dealt {v} damage",
    "damage_to_players": "{who} dealt {v} damage to enemy gods",
    "damage_to_structures": "{who} dealt {v} damage to structures",
    "damage_to_minions": "{who} dealt {v} damage to minions",
    "damage_to_jungle": "{who} dealt {v} damage to jungle camps",
    "damage_to_bosses": "{who} dealt {v} damage to bosses",
    "npc_damage": "{who} dealt {v} damage",
    "damage_taken": "{who} took {v} damage",
    "damage_mitigated": "{who} mitigated {v} damage",
    "healing_done": "{who} did {v} healing",
    "healing_received": "{who} received {v} healing",
    "kills": "{who} got {n:kills}",
    "deaths": "{who} died {n:times}",
    "assists": "{who} had {n:assists}",
    "kda": "{who}'s KDA was {v}",
    "kd": "{who}'s K/D was {v}",
    "mvp_score": "{who}'s MVP score was {v}",
    "gold": "{who} earned {v} gold",
    "experience": "{who} earned {v} experience",
    "gpm": "{who}'s gold per minute was {v}",
    "dpm": "{who}'s damage per minute was {v}",
    "xpm": "{who}'s experience per minute was {v}",
    "crits": "{who} landed {n:critical hits}",
    "biggest_hit": "{who}'s biggest single hit was {v}",
    "hits": "{who} landed {n:hits}",
    "towers": "{who} destroyed {n:towers}",
    "phoenixes": "{who} destroyed {n:phoenixes}",
    "titans": "{who} destroyed {n:titans}",
    "objectives_taken": "{who} took {n:objectives}",
    "bosses": "{who} killed {n:bosses}",
    "minion_kills": "{who} killed {n:minions}",
    "jungle_monster_kills": "{who} killed {n:jungle monsters}",
    "npc_kills": "{who} killed {v} minions and jungle monsters",
}
_COUNTED = re.compile(r"\{n:([^}]+)\}")


def amount_said(metric_id: str, who_: str, row: Mapping[str, Any]) -> str:
    """One figure stated with its owner, its count's noun agreeing with it ("1 kill", "2 kills")."""
    figure = row.get(metric_id)
    template = AMOUNT[metric_id]
    if is_number(figure) and float(figure).is_integer():
        template = _COUNTED.sub(lambda m: fmt.counted(int(figure), m.group(1)).replace("{", "{{"), template)
    else:
        template = _COUNTED.sub(lambda m: "{v} " + m.group(1), template)
    return template.format(who=who_, v=value(row, metric_id))


# One of each entity kind, and (`KIND_NAMES`) all of them: "minion", "minions"
KIND_NOUNS = {"player": "player", "structure": "structure", "minion": "minion", "jungle": "jungle camp", "boss": "boss",
              "unknown": "unclassified source"}
KIND_NAMES = {kind: fmt.plural(noun) for kind, noun in KIND_NOUNS.items()}


# How a filter that leaves values out is said, by its dimension
_LEFT_OUT = {"source": "not from", "ability": "without", "item": "without"}


def _listed(dimension: str, values: list[str]) -> str:
    """Up to three values by name; more as their kind ("basic attacks", "the abilities asked about")."""
    if len(values) <= 3:
        return names(values)
    basic = [v for v in values if v.lower().endswith("basic attack")]
    others = [v for v in values if v not in basic]
    if basic and len(others) <= 3:  # "without basic attacks, Bragi's Harp and Bumba's Cudgel"
        return names(["basic attacks", *others])
    return f"the {fmt.plural(dimension_word(dimension))} asked about"


def _received(plan: QueryPlan) -> bool:
    """The headline is a figure its player receives (damage taken, deaths): an ability is what it came from."""
    source = metric(plan.metrics[0]).source if plan.metrics else None
    return source is not None and source.actor in ("target", "victim", "recipient")


def _figure_label(plan: QueryPlan) -> str:
    return metric_info(plan.metrics[0]).label if plan.metrics else ""


def _said_otherwise(f: Filter, values: list[str], plan: QueryPlan) -> bool:
    """A filter the answer says some other way: the subject ("the Fire Giant dealt ...", "Structures dealt ..."), or
    the rows ranked ("Order Tower: 20,281 (ahead of Chaos Tower ...)", never "... from Chaos Tower and Order Tower")."""
    return set(values) <= set(plan.focus) or (f.dimension == "source_kind" and not plan.group_by and not plan.focus) \
        or (f.op in ("=", "in") and f.dimension in plan.group_by and f.dimension != "ability")


def attacker_noun(plan: QueryPlan, plural: bool = False) -> str:
    """What non-players ranked by their damage are, by the kind the plan keeps: "minion", "jungle camp", else
    "non-player"; "minions" in the plural."""
    kinds = [str(v) for f in plan.filters if f.dimension == "source_kind" and f.op == "=" for v in f.values]
    noun = KIND_NOUNS.get(kinds[0], "non-player") if len(kinds) == 1 and kinds[0] != "player" else "non-player"
    return fmt.plural(noun) if plural else noun


def _left_out(dimension: str, values: list[str], listed: str, kinds: str) -> str:
    """What a "!=" filter leaves out, as words: "without basic attacks", "not from Order Tower", "from non-players"."""
    if dimension in _LEFT_OUT:  # "deaths other than to towers", "besides autos"
        return f"{_LEFT_OUT[dimension]} {listed}"
    side = "from" if dimension == "source_kind" else "against" if dimension == "target_kind" else "apart from"
    return f"{side} non-{kinds}" if values == ["player"] and dimension != "player" else f"not {side} {kinds}"


def qualifier_phrase(plan: QueryPlan) -> str:
    """The filters that are not the entity asked about, as words: " from jungle camps", " with Back Off!"."""
    bits = []
    for f in plan.filters:
        values = [str(v) for v in f.values if not str(v).startswith("$")]
        if f.op == "!=" and values and f.dimension in ("player", "team", "role", "god"):
            # "excluding the junglers": what the figures leave out
            left_out = [f"team {v}" for v in values] if f.dimension == "team" else \
                [f"the {v} players" for v in values] if f.dimension in ("role", "god") else values
            bits.append(f"without {names(left_out)}")
            continue
        if not values or _said_otherwise(f, values, plan):
            continue
        listed = _listed(f.dimension, values)
        kinds = names([KIND_NAMES.get(v, v) for v in values])
        if f.op == "!=":
            bits += [_left_out(f.dimension, values, listed, kinds)]
            continue
        if f.dimension == "source_kind" and "source" in plan.group_by and f.op == "=":
            continue  # the non-players ranked are named by their kind: "the 4 minions"
        phrase = {"source_kind": f"from {kinds}", "source": f"from {listed}", "target_kind": f"against {kinds}",
                  "target": f"{F.event_preposition('target', _figure_label(plan))} {listed}", "victim": f"on {listed}",
                  # several abilities grouped by ability are the ones ranked: "among A, B and C"
                  "ability": f"among {listed}" if "ability" in plan.group_by and len(values) > 1
                  else f"{'from' if _received(plan) else 'with'} {listed}",
                  "item": f"of {listed}" if "items_purchased" in plan.metrics else f"with {listed}"}.get(f.dimension)
        if phrase:
            bits.append(phrase)
    return "".join(f" {b}" for b in bits)


def scope(plan: QueryPlan) -> str:
    """The qualifiers, the condition on the figure and the window of a plan, to follow a figure's name."""
    return qualifier_phrase(plan) + condition_phrase(plan) + window_phrase(plan)


def condition_said(plan: QueryPlan) -> str:
    """"more than 10 kills": the condition on a figure, in the question's own number."""
    if plan.condition is None or not plan.metrics:
        return ""
    words, label = describe(plan.condition), metric_info(plan.condition.metric or plan.metrics[0]).label
    if plan.condition.value == 1 and words.endswith(" 1"):
        return f"{words[:-2]} {fmt.counted(1, label)}"  # "at least 1 kill", never "1 kills"
    return f"{words} {label}"


def condition_phrase(plan: QueryPlan) -> str:
    """" with more than 10 kills": the rows kept by a condition on a figure, to follow the headline's name;
    " among the players with more than 5 kills" when the condition is on another figure than the headline."""
    said = condition_said(plan)
    if not said:
        return ""
    if plan.condition is not None and plan.condition.metric not in (None, plan.metrics[0]):
        return f" among the {plan.group_by[0] if plan.group_by else 'player'}s with {said}"
    return f" with {said}"


def names(items: Sequence[str]) -> str:
    return fmt.join_and(items)


def who(dim: str | None, value: Any, start: bool = True) -> str:
    """How an entity is named; `start` capitalises it for the start of a sentence."""
    if dim == "team":
        return f"{'T' if start else 't'}eam {value}"
    if dim == "role":
        return f"{'T' if start else 't'}he {value} role" if value is not None else "the role"
    if dim == "minute":  # minute 0 is the first, as on the match clock's series
        return f"{'M' if start else 'm'}inute {value}"
    if dim == "period":
        text = str(value)
        return text[:1].upper() + text[1:] if start else text
    return fmt_entity(dim, value) if dim else str(value)


EVENT_DIMS = ("ability", "item", "target_kind", "objective", "source", "source_kind", "target", "victim", "phase", "minute")


def _singular(dim: str | None) -> str:
    return {"target_kind": "target kind", "source_kind": "attacker kind", "source": "attacker"}.get(dim or "", dim or "row")


def value(row: Mapping[str, Any], metric_id: str) -> str:
    info = metric_info(metric_id)
    said = fmt.number(row.get(metric_id), info.decimals)
    return said + "%" if info.unit == "%" and is_number(row.get(metric_id)) else said


def subject(plan: QueryPlan) -> str | None:
    """The entity a filter-only question is about: "team 2", "VoidWalker", "Structures"."""
    if plan.focus:
        return names([f for f in plan.focus])
    for f in plan.filters:
        if f.op == "=" and f.values and f.dimension == "source_kind":
            kind = KIND_NAMES.get(str(f.values[0]), str(f.values[0]))
            return kind[:1].upper() + kind[1:]
        if f.op == "=" and f.values and f.dimension in ("player", "team", "role", "god", "source"):
            return who(f.dimension, f.values[0])
    return None


def _figures(row: Mapping[str, Any], metrics: Sequence[str]) -> str:
    """"16 kills, 1 assist, 122,918 damage dealt": each figure with its label, a count's agreeing with it."""
    return ", ".join(F.quantity(m, float(row[m])) if is_number(row.get(m)) else f"{value(row, m)} {metric_info(m).label}"
                     for m in metrics)


# ---------------------------------------------------------------------------------------------- figures

def none_recorded(plan: QueryPlan, metric_id: str) -> str:
    """"No kills were recorded in the first 5 minutes"; "No damage dealt was recorded": a count's label is plural."""
    info = metric_info(metric_id)
    verb = "were" if info.aggregation == "count" else "was"
    return f"No {info.label} {verb} recorded{scope(plan)}."


def _ability_or_effect(plan: QueryPlan, dim: str) -> str:
    """What an ability ranking ranks, said as the plan read it: when the plan kept item effects in (METRICS.md counts
    them among the abilities, as the log names them), "ability or item effect", so the reading is in the answer."""
    kept = dim == "ability" and any("item effects" in a and "stay in" in a for a in plan.assumptions)
    return "ability or item effect" if kept else _singular(dim)


def _leader_head(plan: QueryPlan, top: dict, dim: str | None, metric_id: str) -> str:
    """"VoidWalker dealt the most damage: 192,395", "The top ability by damage dealt is ...", "X had the lowest
    ...": the leader of a ranking and its figure."""
    info = metric_info(metric_id)
    window = scope(plan)
    lowest = plan.order == "asc"
    if dim == "source" and metric_id == "npc_damage":  # non-players ranked: say it of them, as of players
        ranked = plan.focus or [str(v) for f in plan.filters if f.dimension == "source" and f.op != "!=" for v in f.values]
        ranked = sorted(ranked, key=lambda name: name != top.get(dim))  # the leader named first
        among = names(ranked) if ranked else "the " + attacker_noun(plan, plural=True)
        return (f"Of {among}, the {'least' if lowest else 'most'} damage{window} was dealt by "
                f"{who(dim, top.get(dim), False)}: {value(top, metric_id)}")
    if dim in EVENT_DIMS:
        for_whom = f" for {subject(plan)}" if plan.focus else ""
        return (f"The {'bottom' if lowest else 'top'} {_ability_or_effect(plan, dim)} by {info.label}{for_whom}{window} is "
                f"{who(dim, top.get(dim), False)}: {value(top, metric_id)}")
    if lowest:
        return f"{who(dim, top.get(dim))} had the {F.lowest(metric_id)} {info.label}{window}: {value(top, metric_id)}"
    phrase = MOST.get(metric_id, f"had the highest {info.label}")
    if metric_id.startswith("damage_to") and any(f.dimension == "target" for f in plan.filters):
        phrase = MOST["damage_dealt"]  # "dealt the most damage against Fire Giant"
    joiner = " " if phrase.endswith(" of") else ": "
    return f"{who(dim, top.get(dim))} {phrase}{window}{joiner}{value(top, metric_id)}"


def _tie_head(plan: QueryPlan, tied: list[dict], dim: str | None, metric_id: str) -> str:
    """"A and B are tied for the most kills: 9 each"."""
    leaders = names([who(dim, r.get(dim), i == 0) for i, r in enumerate(tied)])
    rank = F.lowest(metric_id) if plan.order == "asc" else "most" if metric_id not in ("kda", "kd", "gpm", "dpm", "xpm") else "best"
    for_whom = f" for {subject(plan)}" if dim in EVENT_DIMS and plan.focus else ""  # minute 9 ties for team 2
    return f"{leaders} are tied for the {rank} {metric_info(metric_id).label}{for_whom}{scope(plan)}: " \
           f"{value(tied[0], metric_id)} each"


def _tied_places(plan: QueryPlan, valued: list[dict], tied: list[dict], dim: str | None, metric_id: str) -> str:
    """"B and C are tied for second and third on kills: 11 each (behind A with 17)": a place asked for that a
    tie shares, named by the places the tied rows hold, not by the one asked for."""
    first = valued.index(tied[0]) + 1
    last = first + len(tied) - 1
    places = (f"{ORDINALS.get(first, first)} and {ORDINALS.get(last, last)}" if len(tied) == 2
              else f"places {first} to {last}")
    text = (f"{names([who(dim, r.get(dim), i == 0) for i, r in enumerate(tied)])} are tied for {places} on "
            f"{metric_info(metric_id).label}{scope(plan)}: {value(tied[0], metric_id)} each")
    if first > 1:
        above = valued[first - 2]
        text += f" (behind {who(dim, above.get(dim), False)} with {value(above, metric_id)})"
    return text


def _runner_up(valued: list[dict], tied: list[dict], dim: str | None, metric_id: str, lowest: bool) -> str:
    """" (ahead of B with 150,742)": the first row after the leaders."""
    rest = [r for r in valued if r not in tied]
    if not rest:
        return ""
    nxt = rest[0]
    if dim == "team" and len(valued) == 2:  # the other side, and by how much they differ
        gap = abs(float(tied[0][metric_id]) - float(nxt[metric_id]))
        return (f" ({who(dim, nxt.get(dim), False)}: {value(nxt, metric_id)}; a difference of "
                f"{fmt.number(gap, metric_info(metric_id).decimals)})")
    relation = "next lowest" if lowest else "ahead of"
    return f" ({relation} {who(dim, nxt.get(dim), False)} with {value(nxt, metric_id)})"


def ranking(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str:
    metric_id = metrics[0]
    info = metric_info(metric_id)
    valued = [r for r in rows if is_number(r.get(metric_id))]
    if not valued:
        return none_recorded(plan, metric_id)
    if plan.shape == "all" or (plan.shape == "top" and plan.limit > 1):
        return listing(plan, valued, dim, metrics)
    position = min(plan.position, len(valued))
    top = valued[position - 1]
    tied = [r for r in valued if r.get(metric_id) == top.get(metric_id)]
    lowest = plan.order == "asc"
    if len(tied) == len(valued) > 2:
        return (f"All {fmt.count(len(valued), dimension_word(dim))} are tied on {info.label}{scope(plan)}: "
                f"{value(top, metric_id)} each.")
    if position > 1 and len(tied) == 1:
        above = valued[position - 2]
        return (f"{who(dim, top.get(dim))} had the {ORDINALS.get(position, f'number {position}')} "
                f"{F.lowest(metric_id) if lowest else 'highest'} {info.label}{scope(plan)}: {value(top, metric_id)} "
                f"(behind {who(dim, above.get(dim), False)} with {value(above, metric_id)}).")
    if position > 1 and len(tied) > 1:
        return _tied_places(plan, valued, tied, dim, metric_id) + "."
    text = _tie_head(plan, tied, dim, metric_id) if len(tied) > 1 else _leader_head(plan, top, dim, metric_id)
    text += _runner_up(valued, tied, dim, metric_id, lowest)
    extra = [m for m in metrics[1:] if is_number(top.get(m))]
    if extra and dim in ("target", "victim"):
        # the figures beside are the subject's on that target, never the target's own
        text += "".join(f"; {metric_info(m).label} against {who(dim, top.get(dim), False)}: {value(top, m)}"
                        for m in extra)
    elif extra:
        text += f"; {who(dim, top.get(dim), False)} also had {_figures(top, extra)}"
    return text + "."


def _users_of(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str | None:
    """"Damage dealt with Bumba's Cudgel: 39,508 in all, from 10 players: ...": an item's effect (one ability) over
    every player with more than 0 of the figure, the total first and how many players it came from."""
    effect = [f for f in plan.filters if f.dimension == "ability" and f.op == "=" and len(f.values) == 1]
    c = plan.condition
    if dim != "player" or len(metrics) != 1 or len(effect) != 1 or c is None or c.metric not in (None, metrics[0]) \
            or (c.op, c.value) != (">", 0) or plan.shape != "all" or not metric_info(metrics[0]).additive:
        return None
    info = metric_info(metrics[0])
    shown = rows[:MAX_LISTED]
    items = "; ".join(f"{who(dim, r.get(dim), False)}: {value(r, metrics[0])}" for r in shown)
    more = f"; and {len(rows) - len(shown)} more" if len(rows) > len(shown) else ""
    total = sum(float(r[metrics[0]]) for r in rows if is_number(r.get(metrics[0])))
    head = f"{info.label[:1].upper() + info.label[1:]}{qualifier_phrase(plan)}{window_phrase(plan)}"
    if not rows:
        return f"{head}: none; no player used {effect[0].values[0]}."
    players = fmt.plural("player") if len(rows) != 1 else "player"
    return f"{head}: {fmt.number(total, info.decimals)} in all, from {len(rows)} {players}: {items}{more}."


def listing(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str:
    """Every row in order ("for every player"), or the top N with every row tied with the Nth."""
    metric_id = metrics[0]
    info = metric_info(metric_id)
    users = _users_of(plan, rows, dim, metrics)
    if users is not None:
        return users
    window = scope(plan)
    for_whom = f" for {subject(plan)}" if plan.focus and dim not in ("player",) else ""
    shown = rows[:MAX_LISTED]
    if _none_at_all(plan, metric_id) and len(metrics) == 1 and plan.shape != "top" and dim:
        # "who didn't get a kill": every row is a zero, so the names are the answer
        named = [who(dim, r.get(dim), False) for r in rows]
        # the condition before the qualifier: "players with zero deaths from towers", never "players from towers"
        kept = f"{condition_phrase(plan)}{qualifier_phrase(plan)}{window_phrase(plan)}"
        return f"{fmt.count(len(rows), dimension_word(dim))}{for_whom}{kept}: {fmt.names_of(named, MAX_LISTED)}."
    if len(metrics) == 1:
        items = "; ".join(f"{who(dim, r.get(dim), False)}: {value(r, metric_id)}" for r in shown)
    else:
        items = "; ".join(f"{who(dim, r.get(dim), False)}: {_figures(r, metrics)}" for r in shown)
    more = f"; and {len(rows) - len(shown)} more" if len(rows) > len(shown) else ""
    order = "lowest first" if plan.order == "asc" else "highest first"
    if plan.shape == "top":
        head = f"Top {plan.limit} {fmt.plural(dimension_word(dim))} by {info.label}{for_whom}{window}"
        nth = rows[min(plan.limit, len(rows)) - 1].get(metric_id)
        tied = [r for r in rows if r.get(metric_id) == nth] if len(rows) > plan.limit else []
        tie = (f" ({names([who(dim, r.get(dim), False) for r in tied])} are tied at {value(tied[0], metric_id)})"
               if len(tied) > 1 else "")
        return f"{head}: {items}{more}{tie}."
    return f"{_listing_lead(plan, len(rows), dim, metrics, for_whom + window)}, {order}: {items}{more}."


def _listing_lead(plan: QueryPlan, count: int, dim: str | None, metrics: Sequence[str], said: str) -> str:
    """What a listing lists: "Kills by player ...", "K/D of team 1's players ...", "6 players with any items
    purchased of X" (who did, for "did anyone buy X")."""
    label = metric_info(metrics[0]).label if len(metrics) == 1 else names([metric_info(m).label for m in metrics])
    if _any_at_all(plan, metrics[0]) and len(metrics) == 1 and dim:
        return f"{fmt.count(count, dimension_word(dim))} with any {label}{qualifier_phrase(plan)}{window_phrase(plan)}"
    side = _one_side(plan, dim)
    by = f"of {who('team', side, False)}'s players" if side is not None else f"by {dim or 'row'}"
    return f"{label[:1].upper() + label[1:]} {by}{said}"


def _one_side(plan: QueryPlan, dim: str | None) -> Any:
    """The side whose players are listed, when they are one side's ("assists of all the chaos players"), else None."""
    sides = [f.values[0] for f in plan.filters if f.dimension == "team" and f.op == "=" and len(f.values) == 1]
    people = [f for f in plan.filters if f.dimension in ("player", "role", "god")]
    return sides[0] if dim == "player" and len(sides) == 1 and not people else None


def _any_at_all(plan: QueryPlan, metric_id: str) -> bool:
    """Whether the plan keeps only the rows with any of the figure it lists ("did anyone buy X")."""
    c = plan.condition
    return c is not None and any_at_all(c) and (c.metric or metric_id) == metric_id


def _none_at_all(plan: QueryPlan, metric_id: str) -> bool:
    """Whether the plan keeps only the rows with none of the figure it lists."""
    c = plan.condition
    return c is not None and none_at_all(c) and (c.metric or metric_id) == metric_id


def breakdown(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str:
    metric_id = metrics[0]
    info = metric_info(metric_id)
    valued = [r for r in rows if is_number(r.get(metric_id))]
    if not valued:
        return none_recorded(plan, metric_id)
    owner = f"{subject(plan)}'s " if plan.focus else ""
    total = sum(float(r[metric_id]) for r in valued)
    shown = valued[:MAX_LISTED]
    share = info.additive and total > 0 and all(float(r[metric_id]) >= 0 for r in valued)
    items = []
    for i, r in enumerate(shown):
        part = f"{who(dim, r.get(dim), False)}: {value(r, metric_id)}"
        if share and i == 0:
            # the base named: "of VoidWalker's damage dealt", "of all kills", "of X's kills on Y" (the rows listed:
            # the plan's qualifiers and window are the base's too)
            base = (f"{owner}{info.label}" if owner else f"all {info.label}") + scope(plan)
            part += f" ({fmt.share(float(r[metric_id]) / total * 100, base)})"
        items.append(part)
    more = f"; and {len(valued) - len(shown)} more" if len(valued) > len(shown) else ""
    text = f"{owner}{info.label} by {dim.replace('_', ' ') if dim else 'row'}{scope(plan)}: " \
           f"{'; '.join(items)}{more}"
    text = fmt.capital(text) if not owner or owner.startswith("team ") else text  # a name keeps its spelling
    text += _two_named_apart(plan, valued, dim, metric_id)
    cause = death_cause(plan) if metric_id == "deaths" and not plan.focus else None
    if cause is not None:  # "deaths caused by towers": how many in all first, then by whom
        return F.say(F.DeathCount(victim=None, cause=cause, count=int(total))) + " " + fmt.full_stop(text)
    return fmt.full_stop(text)


def _two_named_apart(plan: QueryPlan, valued: list[dict], dim: str | None, metric_id: str) -> str:
    """Two named things split side by side ("X's damage with A vs B") also say how far apart they are."""
    named = [f for f in plan.filters if f.dimension == dim and f.op == "in" and len(f.values) == 2]
    if dim is None or len(valued) != 2 or not named or metric_id not in AMOUNT:
        return ""
    first, second = (F.Amount(F.entity(dim, r.get(dim)), metric_id, float(r[metric_id])) for r in valued)
    return ". " + F.say(F.Margin(first=first, second=second))[:-1]


def _subject_key(dim: str, value: Any) -> str:
    """How a row's subject is named in the plan's focus: "team 2", a role, a god or a player by name."""
    return f"team {value}" if dim == "team" else str(value)


def verdict(plan: QueryPlan, rows: list[dict], dim: str | None, metric_id: str) -> str | None:
    """The opening of a yes or no comparison of two subjects (`QueryPlan.compare`), from the figures: "Yes." or "No."
    ("did A out-damage B": A's figure more than B's); level figures are neither. None when the plan asks none."""
    by_key = {_subject_key(dim, r.get(dim)): r for r in rows} if dim else {}
    if plan.compare is None or dim is None or len(plan.focus) != 2 or not all(f in by_key for f in plan.focus):
        return None
    a, b = (by_key[f].get(metric_id) for f in plan.focus)
    if not (is_number(a) and is_number(b)):
        return None
    if a == b:
        return f"They were level on {metric_info(metric_id).label}{scope(plan)}, so neither had more."
    return "Yes." if ((a > b) if plan.compare == "more" else (a < b)) else "No."


def against_sum(plan: QueryPlan, rows: list[dict], dim: str | None, metric_id: str) -> str | None:
    """One subject against the sum of a group (`QueryPlan.summed`): each figure, the group's sum and which side is
    larger, opened by Yes or No when the question asks it. None when the rows lack a subject."""
    by_key = {_subject_key(dim, r.get(dim)): r for r in rows} if dim else {}
    ones = [f for f in plan.focus if f not in plan.summed]
    if dim is None or len(ones) != 1 or not all(is_number(by_key.get(f, {}).get(metric_id)) for f in plan.focus):
        return None
    info = metric_info(metric_id)
    gods = gods_read_as_players(plan.assumptions) if dim == "player" else {}
    name = {f: who(dim, by_key[f].get(dim), False) + _as_god(gods, by_key[f].get(dim)) for f in plan.focus}
    one, total = float(by_key[ones[0]][metric_id]), sum(float(by_key[f][metric_id]) for f in plan.summed)
    figures = "; ".join(f"{name[f]}: {value(by_key[f], metric_id)}" for f in plan.focus)
    against = "as much as" if one == total else \
        f"{fmt.number(abs(total - one), info.decimals)} {'more' if total > one else 'less'} than"
    said = (f"{info.label[:1].upper() + info.label[1:]}{scope(plan)} — {figures}. Together, "
            f"{fmt.join_and([name[f] for f in plan.summed])} have {fmt.number(total, info.decimals)}, {against} "
            f"{name[ones[0]]}'s {fmt.number(one, info.decimals)}.")
    if plan.compare is None:
        return said
    first = total if plan.focus[0] in plan.summed else one
    second = one if plan.focus[0] in plan.summed else total
    return f"{'Yes' if (first > second) == (plan.compare == 'more') else 'No'}. {said}"


def comparison(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str:
    """The figures of the subjects side by side and how far apart they are; a yes or no comparison opens with its
    answer."""
    summed = against_sum(plan, rows, dim, metrics[0]) if plan.summed else None
    if summed is not None:
        return summed
    opening = verdict(plan, rows, dim, metrics[0])
    said = _side_by_side(plan, rows, dim, metrics)
    return f"{opening} {said}" if opening else said


def _side_by_side(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str:
    metric_id = metrics[0]
    info = metric_info(metric_id)
    many = len(metrics) > 1
    gods = gods_read_as_players(plan.assumptions) if dim == "player" else {}
    parts = "; ".join(f"{who(dim, r.get(dim), i == 0 and many)}{_as_god(gods, r.get(dim))}: " + ", ".join(
        (_figures(r, [m]) if many else value(r, m)) for m in metrics)  # a count agrees with its noun: "1 Fire Giant kill"
        for i, r in enumerate(rows[:MAX_LISTED]))
    parts += f"; and {len(rows) - MAX_LISTED} more" if len(rows) > MAX_LISTED else ""
    window = _lookup_scope(plan, metric_id)  # "which gods got assists": who had any is said once, in the head
    head = (f"{fmt.count(len(rows), dimension_word(dim))} with any {info.label}{window}"
            if _any_at_all(plan, metric_id) and dim else f"{info.label[:1].upper() + info.label[1:]}{window}")
    text = f"{parts}." if many else f"{head} — {parts}."
    valued = [r for r in rows if is_number(r.get(metric_id))]
    if len(valued) >= 2:
        hi = max(valued, key=lambda r: r[metric_id])
        lo = min(valued, key=lambda r: r[metric_id])
        diff = float(hi[metric_id]) - float(lo[metric_id])
        if diff > 0 and dim:  # the analyst's "difference" fact, so the insight does not repeat it
            text += " " + F.say(F.Margin(first=F.Amount(F.entity(dim, hi.get(dim)), metric_id, float(hi[metric_id])),
                                         second=F.Amount(F.entity(dim, lo.get(dim)), metric_id, float(lo[metric_id])),
                                         said_window=window))
        elif diff == 0:
            # "tied" is the word every reader knows; the figure each is said again
            text += f" They are tied{f' on {info.label}' if many else ''}, {value(hi, metric_id)} each."
    return text


def _as_god(gods: Mapping[str, str], player: object) -> str:
    """' (Ymir)' after a player the question named by their god ("did the zeus out-damage the ymir")."""
    return f" ({gods[player]})" if isinstance(player, str) and player in gods else ""


def _the(label: str) -> str:
    """'the first 10 minutes', but 'before minute 10' as it is."""
    return label if label.split()[0] in ("before", "after", "between", "during", "since", "up", "from") else f"the {label}"


def _part_of_whole(a_label: str, x: Any, b_label: str, y: Any, info: Any) -> str:
    """A window beside the whole match is a part of it, never a change from it: "; 12 of the 23 (52.2%) in the
    first 15 minutes". Only an additive figure has parts."""
    whole, (part_label, part) = (x, (b_label, y)) if a_label == WHOLE_MATCH else (y, (a_label, x))
    if not (info.additive and is_number(whole) and is_number(part) and whole):
        return ""
    return (f"; {fmt.number(part, info.decimals)} of the {fmt.number(whole, info.decimals)} "
            f"({fmt.percent(part / whole * 100)}) came in {_the(part_label)}")


def periods(plan: QueryPlan, rows: list[dict], metrics: Sequence[str]) -> str:
    """Windows side by side: "O'Malley's damage dealt — first 10 minutes: 15,657; last 10 minutes: 28,088"."""
    entity = next((c for c in ("player", "team", "role", "god") if c in (rows[0] if rows else {})), None)
    info = metric_info(metrics[0])
    owner = f"{subject(plan)}'s " if plan.focus and not entity else ""
    by_period: dict[str, list[dict]] = {}
    for r in rows:
        by_period.setdefault(str(r.get("period")), []).append(r)
    label = info.label if len(metrics) == 1 else names([metric_info(m).label for m in metrics])
    pieces = []
    for period, members in by_period.items():
        if entity:
            figures = ", ".join(f"{who(entity, r.get(entity), False)}: {value(r, metrics[0])}" for r in members)
        elif len(metrics) == 1:
            figures = value(members[0], metrics[0])
        else:
            figures = _figures(members[0], metrics)
        pieces.append(f"{period}: {figures}")
    text = f"{owner}{label} — {'; '.join(pieces)}"
    text = fmt.capital(text) if not owner or owner.startswith("team ") else text  # a name keeps its spelling
    if not entity and len(by_period) == 2 and len(metrics) >= 1:
        text += _two_periods(by_period, metrics, info)
    return text + "."


def _two_periods(by_period: dict[str, list[dict]], metrics: Sequence[str], info: Any) -> str:
    """How the second of two windows stands to the first: a change ("; up 5 (20%) from A to B"), or a part of the
    whole match when one of them is the whole match."""
    (a_label, (a,)), (b_label, (b,)) = [(k, v[:1]) for k, v in by_period.items()]
    x, y = a.get(metrics[0]), b.get(metrics[0])
    if WHOLE_MATCH in (a_label, b_label):
        return _part_of_whole(a_label, x, b_label, y, info)
    if not (is_number(x) and is_number(y) and x != y):
        return ""
    change = "up" if y > x else "down"
    pct = f" ({fmt.percent(abs(y - x) / abs(x) * 100)})" if x else ""
    which = f"{info.label} " if len(metrics) > 1 else ""  # of several figures, which one changed
    return f"; {which}{change} {fmt.number(abs(y - x), info.decimals)}{pct} from {_the(a_label)} to {_the(b_label)}"


def _lookup_scope(plan: QueryPlan, metric_id: str) -> str:
    """The scope a looked-up figure is said with. "Did anyone on order die": the figure itself answers whether there
    was any, so "with any deaths" would say nothing."""
    condition = plan.condition
    asked_any = condition is not None and any_at_all(condition) and condition.metric in (None, metric_id)
    return scope(plan.model_copy(update={"condition": None}) if asked_any else plan)


def lookup(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str:
    row = rows[0]
    metric_id = metrics[0]
    info = metric_info(metric_id)
    window = _lookup_scope(plan, metric_id)
    if metric_id == "gold_diff" and "minute" in row and is_number(row.get(metric_id)):
        sided = _side_gold_at(plan, row)
        if sided is not None:
            return sided
        diff = float(row[metric_id])
        if diff == 0:
            return f"By the end of minute {row['minute']} the teams were level on gold."
        return (f"By the end of minute {row['minute']}, team {1 if diff > 0 else 2} led on gold by "
                f"{fmt.number(abs(diff))} (team 1 minus team 2: {value(row, metric_id)}).")
    if dim == "minute":
        return f"At minute {row['minute']}, {info.label}{window}: {value(row, metric_id)}."
    name = who(dim, row.get(dim)) if dim else subject(plan)
    if len(rows) > 1 and dim:
        return comparison(plan, rows, dim, metrics)
    god = _as_god(gods_read_as_players(plan.assumptions), row.get(dim)) if dim == "player" else ""
    cause = death_cause(plan)
    if metric_id == "deaths" and cause is not None and is_number(row.get(metric_id)):
        return F.say(death_count(plan, row, dim, cause))
    if len(metrics) > 1:
        about = name or "The match"
        return f"{about}{window}: " + ", ".join(f"{metric_info(m).label} {value(row, m)}" for m in metrics
                                                   if m in row) + "." + _objectives_summed(plan, row, metrics) \
            + _kill_death_gap(plan, row, name)
    if dim in F.EVENT_PREPOSITIONS and metric_id in AMOUNT and row.get(dim) is not None:
        return event_amount(plan, row, dim, metric_id)
    if name and metric_id in AMOUNT:  # "how much did the fenrir deal": "Nguyễn99 (Fenrir) dealt ..."
        return amount_said(metric_id, name + god, row) + f"{window}."
    if name:
        return f"{name}'s {info.label}{window}{god}: {value(row, metric_id)}."
    return f"{info.label[:1].upper() + info.label[1:]} in the match{window}: {value(row, metric_id)}."


def _kill_death_gap(plan: QueryPlan, row: Mapping[str, Any], name: str | None) -> str:
    """The match's kills and deaths side by side say why they differ (the deaths to non-players); a player's or a
    team's do not (their kills are on the other side's deaths), nor any narrowed by a filter."""
    if name or plan.filters or not all(is_number(row.get(m)) for m in ("kills", "deaths")):
        return ""
    return " " + F.say(F.KillDeathGap(kills=int(row["kills"]), deaths=int(row["deaths"]), window=plan.window.label if plan.window else None,
                                      said_window=window_phrase(plan)))


_OBJECTIVE_COUNTS = {"towers": "towers", "phoenixes": "phoenixes", "titans": "Titans", "gold_furies": "Gold Furies",
                     "fire_giants": "Fire Giants"}
_LOST = re.compile(r"what team (\d) lost read as what team (\d) took")


def _objectives_summed(plan: QueryPlan, row: Mapping[str, Any], metrics: Sequence[str]) -> str:
    """Several kinds of objective counted for one side ("towers/phoenixes"): their sum, and whose they were when
    the question asked what a side lost (the log credits them to the side that took them)."""
    if len(metrics) < 2 or not all(m in _OBJECTIVE_COUNTS and is_number(row.get(m)) for m in metrics):
        return ""
    total = sum(int(row[m]) for m in metrics)
    lost = next((m for a in plan.assumptions if (m := _LOST.match(a))), None)
    kinds = names([fmt.counted(int(row[m]), _OBJECTIVE_COUNTS[m]) for m in metrics])
    if lost is None:
        return f" {fmt.number(total)} in all."
    return (f" So team {lost.group(1)} lost {fmt.number(total)} in all ({kinds}), each credited to team "
            f"{lost.group(2)}, the side that took it.")


def event_amount(plan: QueryPlan, row: Mapping[str, Any], dim: str, metric_id: str) -> str:
    """A figure of a player (or of every player) with, against or from something that owns nothing: "quietkid
    got 3 kills with Janus Basic Attack", never "Janus Basic Attack got 3 kills". The filter on that dimension
    is said by the row's value, so it is not said again."""
    owner = subject(plan) if plan.focus else "Players"
    rest = plan.model_copy(update={"filters": tuple(f for f in plan.filters if f.dimension != dim)})
    said = f" {F.event_preposition(dim, metric_info(metric_id).label)} {who(dim, row[dim], False)}"
    return amount_said(metric_id, owner or "Players", row) + f"{said}{scope(rest)}."


def death_cause(plan: QueryPlan) -> str | None:
    """What the deaths counted were caused by, from the plan's filters on the attacker: "structures",
    "Order Tower"; None when the deaths are of any cause."""
    for f in plan.filters:
        values = [str(v) for v in f.values if not str(v).startswith("$")]
        if f.op == "=" and values and f.dimension == "source_kind":
            return names([KIND_NAMES.get(v, v) for v in values])
        if f.op == "=" and values and f.dimension == "source":
            return names(values)
    return None


def death_count(plan: QueryPlan, row: Mapping[str, Any], dim: str | None, cause: str) -> F.DeathCount:
    """Deaths by cause, for whom they were counted: a player, a team, or every player."""
    victim = None
    if dim in ("player", "team", "role", "god") and row.get(dim) is not None:
        victim = F.entity(dim, row[dim])
    else:
        owners = [f for f in plan.filters if f.op == "=" and f.dimension in ("player", "team") and f.values]
        victim = F.entity(owners[0].dimension, owners[0].values[0]) if owners else None
    return F.DeathCount(victim=victim, cause=cause, count=int(row["deaths"]))


SIDE_NAMES = {1: "Order", 2: "Chaos"}
GOLD_DIFF_SAID = "the gold difference by minute is team 1's gold earned up to the end of each minute minus team 2's"


def _minutes_said(minutes: Sequence[int]) -> str:
    """"minute 4", "minutes 4-6, 10-22 and 27": minutes of the match, runs joined."""
    runs: list[list[int]] = []
    for m in sorted(minutes):
        if runs and m == runs[-1][-1] + 1:
            runs[-1].append(m)
        else:
            runs.append([m])
    said = [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs]
    return f"minute{'s' if len(minutes) > 1 else ''} {names(said)}"


def _asked_side(plan: QueryPlan) -> int | None:
    """The one side a gold difference is read from ("did order lead at some minute"): its team number, or None."""
    sides = [f for f in plan.focus if re.fullmatch(r"team [12]", f)]
    return int(sides[0][-1]) if len(plan.focus) == 1 and sides else None


def _of_window(window: str) -> str:
    """" of the first 10 minutes" for " in the first 10 minutes"; " after minute 20" as it is."""
    return f" of {window[4:]}" if window.startswith(" in ") else window


def _side_place(found: Sequence[tuple[int, float]], ahead: bool, total: int, window: str) -> str:
    """"was ahead on gold in 5 of the 32 minutes (minutes 4-8), its largest lead 1,244 at minute 12"; "was never ahead
    on gold in any minute"."""
    place = "ahead" if ahead else "behind"
    of_window = _of_window(window)
    if not found:
        return f"was never {place} on gold in any minute{of_window}"
    minute, most = max(found, key=lambda mv: (mv[1], -mv[0]))
    return (f"was {place} on gold in {len(found)} of the {fmt.count(total, 'minute')}{of_window} "
            f"({_minutes_said([m for m, _ in found])}), its largest {'lead' if ahead else 'deficit'} {fmt.number(most)} "
            f"at minute {minute}")


def side_gold(plan: QueryPlan, rows: list[dict]) -> str | None:
    """One side's place on the gold difference minute by minute ("did order lead at some minute", "when did chaos trail"): the
    minutes it led and trailed, its largest lead and deficit and their minutes, opening with Yes or No when the
    question asked whether it was ever ahead (behind)."""
    side = _asked_side(plan)
    leads = [(int(r["minute"]), float(r["gold_diff"]) * (1 if side == 1 else -1)) for r in rows
             if is_number(r.get("gold_diff")) and is_number(r.get("minute"))]
    if side is None or not leads:
        return None
    ahead = [(m, v) for m, v in leads if v > 0]
    behind = [(m, -v) for m, v in leads if v < 0]
    level = [m for m, v in leads if v == 0]
    window = window_phrase(plan)
    first_ahead = plan.compare != "less"
    said = [_side_place(ahead, True, len(leads), window), _side_place(behind, False, len(leads), window)]
    if not first_ahead:
        said.reverse()
    text = f"team {side} ({SIDE_NAMES[side]}) {said[0]}; it {said[1].replace(' on gold', '', 1)}"
    if level:
        text += f"; the sides were level in {_minutes_said(level)}"
    last, end = leads[-1]
    text += (f"; at minute {last}, the last{'' if window else ' of the match'}, it was "
             f"{'level' if not end else ('ahead by ' if end > 0 else 'behind by ') + fmt.number(abs(end))}")
    text += f" ({GOLD_DIFF_SAID})."
    if plan.compare is None:
        return fmt.capital(text)
    yes = bool(ahead if plan.compare == "more" else behind)
    return f"{'Yes' if yes else 'No'}: {text}"


def _side_gold_at(plan: QueryPlan, row: Mapping[str, Any]) -> str | None:
    """"Was order ahead in gold at minute 10": the difference at that minute, read from the side asked about."""
    side = _asked_side(plan)
    if side is None or plan.compare is None:
        return None
    diff = float(row["gold_diff"]) * (1 if side == 1 else -1)
    place = "ahead" if diff > 0 else "behind" if diff < 0 else "level"
    yes = place == ("ahead" if plan.compare == "more" else "behind")
    by = f" by {fmt.number(abs(diff))}" if diff else ""
    return (f"{'Yes' if yes else 'No'}: by the end of minute {row['minute']}, team {side} ({SIDE_NAMES[side]}) was "
            f"{place} on gold{by} (team 1 minus team 2: {value(row, 'gold_diff')}).")


def timeline(plan: QueryPlan, rows: list[dict], dims: Sequence[str], metric_id: str) -> str:
    info = metric_info(metric_id)
    sided = side_gold(plan, rows) if metric_id == "gold_diff" else None
    if sided is not None:
        return sided
    if metric_id == "gold_diff":
        last = rows[-1]
        diff = float(last[metric_id])
        if diff == 0:
            return f"The teams are level on gold at minute {last['minute']}."
        lead = 1 if diff > 0 else 2
        best = max(rows, key=lambda r: r[metric_id]) if lead == 1 else min(rows, key=lambda r: r[metric_id])
        text = f"Team {lead} leads on gold: {fmt.number(abs(diff))} ahead at minute {last['minute']}"
        if best["minute"] == last["minute"]:
            return text + ", its biggest lead of the period."
        return text + (f" (its biggest lead, {fmt.number(abs(float(best[metric_id])))}, came at minute "
                       f"{best['minute']}).")
    series = next((d for d in dims if d != "minute"), None)
    per_minute: dict[int, float] = {}
    for r in rows:
        if is_number(r.get(metric_id)):
            per_minute[r["minute"]] = per_minute.get(r["minute"], 0.0) + float(r[metric_id])
    if not per_minute:
        return "No values were recorded in that period."
    peak = max(per_minute, key=lambda m: per_minute[m])
    focus = f" for {subject(plan)}" if plan.focus else ""
    several = series and len({r.get(series) for r in rows}) > 1
    over = f" (all {series}s summed)" if several else ""
    text = (f"{info.label[:1].upper() + info.label[1:]} per minute{focus}{scope(plan)} peaked at minute "
            f"{peak} with {fmt.number(per_minute[peak], info.decimals)}{over}")
    if metric(metric_id).aggregation in ("sum", "count"):  # an additive figure's minutes sum to its total
        total = sum(per_minute.values())
        text += (f"; {fmt.number(total, info.decimals)} {info.label} in total"
                 f"{window_phrase(plan) or ' over the whole match'}{over}")
    minutes = sorted(per_minute)
    if len(minutes) >= 4:
        half = len(minutes) // 2
        early = sum(per_minute[m] for m in minutes[:half]) / half
        late = sum(per_minute[m] for m in minutes[half:]) / (len(minutes) - half)
        trend = "rising" if late > early * 1.1 else "falling" if late < early * 0.9 else "flat"
        text += (f"; the trend is {trend}, from {fmt.number(early, info.decimals)} per minute on average in the "
                 f"first half to {fmt.number(late, info.decimals)} in the second")
    return text + "."


# ---------------------------------------------------------------------------------------------- events

def _match_edge(plan: QueryPlan, row: Mapping[str, Any]) -> str:
    """When the match began (its first combat, item or reward event) or ended (its last event): the date-time and
    the match clock, then the other edge for context."""
    started, ended, duration = row.get("started_at"), row.get("ended_at"), row.get("duration_s")
    if plan.order == "asc":
        return (f"The match started at {started} (0:00 on the match clock), its first combat, item or "
                f"reward event; any lobby time before it is not the match. It ended at {ended}, {clock(duration)} later.")
    return (f"The log's last event, the end of the match, was at {ended}, {clock(duration)} on the match clock "
            f"(the match started at {started}).")

def _lobby(row: Mapping[str, Any]) -> str:
    """The lobby's length: the log's first event to the match start."""
    if not row.get("lobby_s"):
        return (f"This log records no lobby before the match: its first event is at the match start, "
                f"{row.get('started_at')}, so the lobby's length is not recorded.")
    return (f"The lobby (roles, god hovers and picks) lasted {clock(row['lobby_s'])} "
            f"({fmt.count(int(row['lobby_s'] or 0), 'second')}), from the log's first event at "
            f"{row.get('lobby_started_at')} to the match start at {row.get('started_at')} (its earliest item, "
            "combat or reward event).")


def _winner_said(rows: list[dict]) -> str:
    winner = rows[0].get("winner_team") if rows else None
    if winner is None:
        return ("The winner is unknown: no Titan fell in this match (the log does not record a Titan kill, and the "
                "winner is the team that takes the enemy Titan), so I cannot say who won without guessing.")
    when = f" at {clock(rows[0]['match_second'])}" if is_number(rows[0].get("match_second")) else ""
    by = f" ({rows[0]['killer']} dealt the final blow{when})" if rows[0].get("killer") else ""
    return f"Team {winner} won the match: team {winner} destroyed the enemy Titan{by}."


# The match's id asked for ("what's the match id", "game ID?"): said first, as the log gives it
_ID_ASKED = re.compile(r"\b(?:match|game)\s*(?:id|identifier|number|#)|\bid\b", re.IGNORECASE)


def _match_fact(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    """The match's own facts: an edge, the lobby, the duration, the winner; None for any other list."""
    if "duration_s" in columns and rows and plan.shape == "leader":
        return _match_edge(plan, rows[0])
    if "lobby_s" in columns and rows:
        return _lobby(rows[0])
    if "duration_s" in columns and rows:
        first = rows[0]
        lasted = (f"lasted {clock(first['duration_s'])} ({fmt.number(first['duration_s'])} seconds on the "
                  f"match clock, from {first.get('started_at')} to {first.get('ended_at')})")
        if _ID_ASKED.search(plan.question) and first.get("match_id") is not None:
            return f"The match id is {first['match_id']}; the match {lasted}."
        return f"The match {lasted}."
    if "winner_team" in columns:
        return _winner_said(rows)
    return None


def event(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str:
    fact = _match_fact(plan, rows, columns)
    if fact is not None:
        return fact
    if not rows and "objective_events" in plan.metrics:
        return objectives(plan, rows)
    if not rows:
        return "No matching events were found in this match."
    first = rows[0]
    if "role" in columns and "god" in columns and "player" in columns:
        listed = "; ".join(f"{r['player']} (team {r['team']} {r['role']}, {r['god']})" for r in rows)
        return f"{fmt.count(len(rows), 'player')}: {listed}." if len(rows) > 1 else f"{listed}."
    if {"killer", "victim", "match_second"} <= set(columns) and "objective" not in columns:
        if "first_blood" in plan.metrics:
            assists = first.get("assists") or []
            helped = f", assisted by {names(assists)}" if assists else ""
            ability = first.get("ability")
            with_ability = f" with {ability}" if ability and str(ability) != "0" else ""
            return (f"{first['killer']} got first blood, killing {first['victim']}{with_ability} at "
                    f"{clock(first['match_second'])} "
                    f"(match second {first['match_second']}){helped}.")
        return kill_list(plan, rows)
    if "objective" in columns:
        return objectives(plan, rows)
    return f"{fmt.count(len(rows), 'event')} match the question." if len(rows) != 1 else "1 event matches the question."


def kill_list(plan: QueryPlan, rows: list[dict]) -> str:
    """Player kills, in order; for a player asked about, their kills (naming each victim) and then their deaths
    to players (naming each killer), which the same rows hold. Asked where, each says its map coordinates, and a
    player's deaths come first: where someone died is what "where did X die" asks."""
    where = WHERE_READ in plan.assumptions

    def at(r: Mapping[str, Any]) -> str:
        place = f" (x {fmt.number(r['location_x'])}, y {fmt.number(r['location_y'])})" \
            if where and r.get("location_x") is not None and r.get("location_y") is not None else ""
        return f"at {clock(r['match_second'])}{place}"

    players = [str(v) for f in plan.filters if f.dimension == "player" and f.op == "=" for v in f.values]
    coordinates = " The log places them by map coordinates, not by lane." if where else ""
    if len(players) != 1:
        return F.say(F.Listing(noun="kill", items=tuple(f"{r['killer']} on {r['victim']} {at(r)}" for r in rows),
                               shown=MAX_LISTED)) + coordinates
    player = F.Entity("player", players[0])
    kills = F.Listing(noun="kill", owner=player, shown=MAX_LISTED, items=tuple(
        f"{r['victim']} {at(r)}" for r in rows if r["killer"] == players[0]))
    deaths = F.Listing(noun="death", kind=" to players", owner=player, shown=MAX_LISTED, items=tuple(
        f"by {r['killer']} {at(r)}" for r in rows if r["victim"] == players[0]))
    said = (deaths, kills) if where and _ASKS_DEATHS.search(plan.question) else (kills, deaths)
    return F.say_all(fact for fact in said if fact.items or fact is kills) + coordinates


# the blow's ability asked of an objective: "what did X kill the titan with", "which ability took the tower"
_ASKS_WITH_WHAT = re.compile(r"\bwith\s*(?:what|which)?\W*$|\bwith\s+(?:what|which)\b|\b(?:what|which)\s+(?:ability|"
                             r"abilities|skill|skills|move|spell|attack)\b|\bhow\s+(?:did|was|were)\b", re.IGNORECASE)
_ASKS_DEATHS = re.compile(r"\b(?:die[sd]?|dying|deaths?|killed|got\s+killed)\b", re.IGNORECASE)


MAX_OBJECTIVES = 20  # a match has about 15; every one is named


def objectives(plan: QueryPlan, rows: list[dict]) -> str:
    """The first or last objective (of the kind asked, for the team asked), or every objective listed."""
    if plan.limit == 1 and rows:
        return F.say(first_objective(plan, rows[0]))
    with_what = _ASKS_WITH_WHAT.search(plan.question) is not None

    def one(r: Mapping[str, Any]) -> str:
        team = f", team {r['team']}" if r.get("team") is not None else ""
        ability = f" with {r['ability']}" if with_what and r.get("ability") else ""
        return f"the {r.get('target') or r['objective']} at {clock(r.get('match_second'))} " \
            f"(by {r.get('killer')}{ability}{team})"

    noun = objective_kind(plan) or "objective"
    in_time = sorted(rows, key=lambda r: r.get("match_second") or 0) if plan.order == "desc" else rows
    listed = F.Listing(noun=noun, items=tuple(one(r) for r in in_time), shown=MAX_OBJECTIVES)
    who_took = subject(plan)
    lead = f"{who_took} took {fmt.count(len(rows), noun)}" if who_took else \
        f"{fmt.count(len(rows), noun)} {'was' if len(rows) == 1 else 'were'} taken"
    # a player's name is said as the log spells it, never capitalised ("mid_or_feed took ...")
    capital = (lambda text: text) if _filtered(plan, "player") else fmt.capital
    if not rows:
        return f"{capital(who_took)} took no {fmt.plural(noun)}{window_phrase(plan)}." if who_took else \
            f"No {fmt.plural(noun)} were taken{window_phrase(plan)}."
    return f"{capital(lead)}{window_phrase(plan)}{_by_killer(plan, rows)}{_edge_of_list(plan, rows, who_took)}: " \
        f"{F.items_said(listed)}."


def _edge_of_list(plan: QueryPlan, rows: list[dict], who_took: str | None) -> str:
    """The first (or last) of a list of objectives said with its time: a side's or player's first, or the one a
    question asked for (`leader`: the first in the plan's order, so the last when it is latest first)."""
    if len(rows) < 2 or not (who_took or plan.shape == "leader"):
        return ""
    if plan.shape == "leader":
        one = rows[0]
        return f", the {'last' if plan.order == 'desc' else 'first'} at {clock(one.get('match_second'))}"
    return f", the first at {clock(rows[0].get('match_second'))}" if plan.order != "desc" else ""


def _by_killer(plan: QueryPlan, rows: list[dict]) -> str:
    """Objectives taken by non-players, counted by the killer's name as the log gives it ("last hit by Swordsman 4
    times, Archer once"), most first; empty for any other list."""
    if not any(f.dimension in ("source", "source_kind") and f.op in ("=", "in") for f in plan.filters):
        return ""
    counts: dict[str, int] = {}
    for r in rows:
        counts[str(r.get("killer"))] = counts.get(str(r.get("killer")), 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    return f" (last hit by {fmt.join_and([f'{killer} {fmt.times(n)}' for killer, n in ranked])})"


def objective_kind(plan: QueryPlan) -> str | None:
    """The kind of objective a plan asks about ("Fire Giant", "tower"), from its filter, or None for any; one structure
    named in full is that name ("Chaos Phoenix": the side's phoenixes)."""
    named = [str(v) for f in plan.filters if f.dimension == "target" and f.op in ("=", "in") for v in f.values]
    if len(named) == 1:
        return named[0]
    kinds = [str(v) for f in plan.filters if f.dimension == "objective" and f.op in ("=", "in") for v in f.values]
    if set(kinds) == {"tower", "phoenix", "titan"}:
        return "structure"
    if len(kinds) != 1:
        return None
    return OBJECTIVE_NAMES.get(kinds[0], kinds[0])


OBJECTIVE_NAMES = {"fire giant": "Fire Giant", "gold fury": "Gold Fury"}


def first_objective(plan: QueryPlan, r: Mapping[str, Any]) -> F.First:
    """The first (or last) objective, saying of what: the kind asked about, and whose when a team was named."""
    teams = [v for f in plan.filters if f.dimension == "team" and f.op == "=" for v in f.values]
    players = _filtered(plan, "player")
    if players:  # a player's (several players') own first or last, not the match's: "Brisk's last tower"
        scope = f"{names(players)}'s"
        return F.First(ordinal="last" if plan.order == "desc" else "first", noun=objective_kind(plan) or "objective",
                       second=int(r.get("match_second") or 0), thing=str(r.get("target") or r.get("objective") or ""),
                       by=r.get("killer"), window=plan.window.label if plan.window else None,
                       said_window=window_phrase(plan), player=scope)
    return F.First(ordinal="last" if plan.order == "desc" else "first", noun=objective_kind(plan) or "objective",
                   second=int(r.get("match_second") or 0), thing=str(r.get("target") or r.get("objective") or ""),
                   taker=r.get("team"), by=r.get("killer"), window=plan.window.label if plan.window else None,
                   said_window=window_phrase(plan),
                   # the team asked about took it: "Team 2 took its first phoenix", never "team 2's" after "Team 2"
                   scope=("its" if teams[0] == r.get("team") else f"team {teams[0]}'s") if len(teams) == 1 else "")


def _filtered(plan: QueryPlan, dimension: str) -> list[str]:
    return [str(v) for f in plan.filters if f.dimension == dimension and f.op in ("=", "in") for v in f.values]


def no_purchases(plan: QueryPlan) -> str:
    """No purchase matched: "No purchase of Soul Gem by Brisk was recorded in this match."."""
    players, items = _filtered(plan, "player"), _filtered(plan, "item")
    of = f" of {fmt.join_and(items)}" if items else ""
    by = f" by {fmt.join_and(players)}" if players else ""
    return f"No purchase{of}{by} was recorded{window_phrase(plan) or ' in this match'}."


def item_buyers(plan: QueryPlan, rows: list[dict]) -> str:
    """Who bought the items a plan names, how often and when: "Soul Gem was bought 9 times, by 5 players: PapiTacos
    4 times (at 5:07, 17:51, 19:23 and 20:46), ..."."""
    sentences = []
    for item in dict.fromkeys(str(r.get("item")) for r in rows):
        times: dict[str, list[int]] = {}
        for r in rows:
            if str(r.get("item")) == item:
                times.setdefault(str(r.get("player")), []).append(int(r.get("match_second") or 0))
        ranked = sorted(times.items(), key=lambda kv: (-len(kv[1]), min(kv[1])))
        each = "; ".join(f"{player} {fmt.times(len(at))} (at {fmt.join_and([clock(t) for t in sorted(at)])})"
                         for player, at in ranked)
        bought = sum(len(at) for at in times.values())
        sentences.append(f"{item} was bought {fmt.times(bought)}{window_phrase(plan)}, by "
                         f"{fmt.count(len(times), 'player')}: {each}")
    return ". ".join(sentences) + "."


def builds(plan: QueryPlan, rows: list[dict], roster: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return no_purchases(plan)
    if _filtered(plan, "item"):
        return item_buyers(plan, rows)
    by_player: dict[str, list[str]] = {}
    for r in rows:
        by_player.setdefault(str(r.get("player")), []).append(str(r.get("item")))
    sentences = []
    for player, items in by_player.items():
        info = next((r for r in roster if r["player"] == player), None)
        about = f" (team {info['team']} {info['role']}, {info['god']})" if info else ""
        sentences.append(f"{player}{about} built {fmt.count(len(items), 'item')}{window_phrase(plan)} in this order: "
                         f"{', '.join(items)}")
    return ". ".join(sentences) + "."


# -------------------------------------------------------------------------------------------- patterns

def _team_fights(plan: QueryPlan, rows: list[dict]) -> str:
    when = window_phrase(plan)  # the analyst kept the fights that began in it
    if not rows:
        return f"No team fight (three or more deaths close together) happened{when or ' in this match'}."
    won = {t: sum(1 for f in rows if f.get("won_by_team") == t) for t in (1, 2)}
    decisive = sorted(rows, key=lambda f: (-f["deaths"], f["start_second"]))[:3]
    listed = "; ".join(f"{clock(f['start_second'])}–{clock(f['end_second'])}, {fmt.count(f['deaths'], 'death')}, "
                       + (f"won by team {f['won_by_team']}" if f.get("won_by_team") else "even")
                       for f in decisive)
    return (f"{fmt.count(len(rows), 'team fight')}{when}; team 1 won {won[1]} and team 2 won {won[2]}. "
            f"The biggest: {listed}.")


def _kill_streaks(plan: QueryPlan, rows: list[dict]) -> str:
    if not rows:
        return "Nobody got three or more kills without dying in this match."
    return F.say(match_patterns.streak_of(rows[0]))


def _gold_swing(plan: QueryPlan, rows: list[dict]) -> str:
    if not rows:
        return "The gold curve of this match could not be read."
    fact = match_patterns.swing_of(rows[0])
    verdict = {"comeback": "Yes, a comeback.", "stomp": "No comeback."}.get(
        fact.shape, "No comeback: the other team's lead never grew big enough to call it one.")
    return f"{verdict} {F.say(fact)}"


def _death_recap(plan: QueryPlan, rows: list[dict]) -> str:
    if not rows:
        return f"{subject(plan) or 'That player'} did not die in this match."
    return F.say(match_patterns.recap_of(rows, shown=MAX_LISTED))


PATTERN_ANSWERS = {"team_fights": _team_fights, "kill_streaks": _kill_streaks, "gold_swing": _gold_swing,
                   "death_recap": _death_recap}


def pattern(plan: QueryPlan, found: Mapping[str, list[dict]]) -> str:
    """Team fights, kill streaks, gold swings and death recaps, from the analyst's pattern tables."""
    head = plan.metrics[0]
    answer = PATTERN_ANSWERS.get(head)
    return answer(plan, found.get(head) or []) if answer else "The match pattern could not be read."


# ------------------------------------------------------------------------------------------- dispatch

def average(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str:
    """'The average gold earned of the 10 players is 6,172 (median 6,557)', then the rows themselves."""
    metric_id = metrics[0]
    info = metric_info(metric_id)
    values = [float(r[metric_id]) for r in rows if is_number(r.get(metric_id))]
    if not values:
        return none_recorded(plan, metric_id)
    mean = fmt.number(statistics.fmean(values), max(info.decimals, 2))
    median = fmt.number(statistics.median(values), max(info.decimals, 2))
    if plan.shape == "median":  # the statistic asked for comes first
        head = (f"The median {info.label}{scope(plan)} across the {fmt.count(len(values), dimension_word(dim))} is {median} "
                f"(average {mean}). ")
    else:
        head = (f"The average {info.label}{scope(plan)} across the {fmt.count(len(values), dimension_word(dim))} is {mean} "
                f"(median {median}). ")
    return head + listing(plan.model_copy(update={"shape": "all"}), rows, dim, metrics)


def only_one(plan: QueryPlan, only: dict, dim: str, headline: str) -> str:
    """The one row meeting a condition: "Only X had fewer than 3 deaths: 2"; "Only X had more than 15 kills (16);
    gold earned: 9,000" when the condition is on another figure than the headline."""
    compared, said = plan.condition.metric or plan.metrics[0] if plan.condition else headline, condition_said(plan)
    said += qualifier_phrase(plan)  # "any damage dealt with Chain Lightning": the figure as the question narrowed it
    if compared != headline:
        return (f"Only {who(dim, only.get(dim), False)} had {said}{window_phrase(plan)} ({value(only, compared)}); "
                f"{metric_info(headline).label}: {value(only, headline)}.")
    return f"Only {who(dim, only.get(dim), False)} had {said}{window_phrase(plan)}: {value(only, headline)}."


def _events_answer(plan: QueryPlan, rows: list[dict], columns: list[str], roster, found=None) -> str | None:
    """A pattern, a build order or an event list; None for a figure."""
    if plan.metrics and metric(plan.metrics[0]).kind == "pattern":
        return pattern(plan, found or {})
    if plan.intent == Intent.BUILD_ORDER:
        return builds(plan, rows, roster)
    if plan.intent == Intent.EVENT_LIST or "winner_team" in columns:
        return event(plan, rows, columns)
    return None


def direct_answer(plan: QueryPlan, rows: list[dict], columns: list[str], roster, found=None) -> str:
    """The answer to one step of a plan, from that step's rows (and the analyst's pattern tables)."""
    listed = shaped_answer(plan, rows, columns) or _events_answer(plan, rows, columns, roster, found)
    if listed is not None:
        return listed
    intent = plan.intent
    shape = result_shape(rows, columns, plan)
    if not shape.metrics:
        return f"{fmt.count(len(rows), 'row')} match the question." if len(rows) != 1 else "1 row matches the question."
    dims = [d for d in shape.dimensions if d != "period"]
    dim = dims[0] if dims else None
    if plan.windows and rows and "period" in rows[0]:
        return periods(plan, rows, shape.metrics)
    if intent == Intent.TIMELINE:
        return timeline(plan, rows, shape.dimensions, shape.metrics[0])
    if plan.shape in ("average", "median"):
        return average(plan, rows, dim, shape.metrics)
    return _with_sum(plan, rows, dim, shape.metrics[0], _figure_answer(plan, rows, dim, shape.metrics))


def _figure_answer(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str:
    """A figure's answer by the plan's intent: side by side, a breakdown, a lookup or a ranking."""
    intent = plan.intent
    if intent == Intent.COMPARISON and len(rows) >= 2:
        return comparison(plan, rows, dim, metrics)
    if intent == Intent.BREAKDOWN:
        return breakdown(plan, rows, dim, metrics)
    # "who had fewer than 3 deaths": one did; but not "did anyone on order die", where the one row is the one asked
    if plan.condition is not None and len(rows) == 1 and dim and len(_filtered(plan, dim)) != 1:
        return only_one(plan, rows[0], dim, metrics[0])
    if intent == Intent.LOOKUP or len(rows) == 1:
        return lookup(plan, rows, dim, metrics)
    return ranking(plan, rows, dim, metrics)


# Words that ask for a sum: "together", "in total", "combined", "added up"; "total" and "overall" only when nothing is
# being ranked ("which side earned more gold overall" asks no sum); of sides, also "both teams", "each side"
_SUMMED = re.compile(r"\b(?:together|altogether|in\s+total|combined|sum|summed|added\s+up|all\s+told)\b", re.IGNORECASE)
_BOTH_SIDES = re.compile(r"\b(?:both|(?:the\s+)?(?:two|2)\s+(?:teams|sides)|each\s+(?:side|team))\b", re.IGNORECASE)
_TOTAL = re.compile(r"\b(?:total|overall)\b", re.IGNORECASE)


def _asks_sum(plan: QueryPlan, dim: str | None) -> bool:
    question = plan.question or ""
    return bool(_SUMMED.search(question) or dim == "team" and _BOTH_SIDES.search(question)
                or _TOTAL.search(question) and plan.intent != Intent.RANKING)


def _with_sum(plan: QueryPlan, rows: list[dict], dim: str | None, metric_id: str, said: str) -> str:
    """A count or sum asked of both sides, or of named players each and together ("the carries' gold, each
    and combined"): the answer, then the sum, with whose it is ("Both teams together: 81 kills ... (team 1 and
    team 2 summed).")."""
    valued = [r for r in rows if is_number(r.get(metric_id))]
    if metric(metric_id).aggregation not in ("sum", "count") or not _asks_sum(plan, dim):
        return said
    named = any(f.dimension in ("player", "role", "team", "god") and f.op in ("=", "in") for f in plan.filters)
    if dim == "team" and len(valued) == 2 and len({r.get("team") for r in valued}) == 2:
        lead, whose = "Both teams together", "team 1 and team 2"
    elif dim == "player" and len(valued) >= 2 and plan.intent != Intent.RANKING and named:
        lead, whose = "Together", names([str(r["player"]) for r in valued])
    else:
        return said
    info = metric_info(metric_id)
    total = sum(float(r[metric_id]) for r in valued)
    return f"{said} {lead}: {fmt.number(total, info.decimals)} {info.label}{scope(plan)} ({whose} summed)."


def _checked_subjects(plan: QueryPlan, rows: list[dict]) -> tuple[str, list[Any]] | None:
    """Whom a check after the question is about: the leaders a ranking named (every one tied at the place asked), the
    one player, side, role or god looked up, or the one an event names (first blood's killer, the winning side); None
    when the step names no such subject."""
    if plan.intent == Intent.EVENT_LIST and rows:
        # the event's one subject: first blood's killer, the side that won
        takers = {"first_blood": ("killer", "player"), "winner": ("winner_team", "team"),
                  # one objective's taker: its side, or the one who last hit it, as the check asks
                  "objective_events": ("team", "team") if plan.check and plan.check.dimension == "team"
                  else ("killer", "player")}
        if plan.metrics == ("roster",) and len(rows) == 1:
            takers["roster"] = ("player", "player")  # one player's row: who they were
        column, dimension = takers.get(plan.metrics[0] if plan.metrics else "", (None, None))
        return (dimension, [rows[0][column]]) if column and dimension and rows[0].get(column) is not None else None
    dim = plan.group_by[0] if plan.group_by and plan.group_by[0] in ("player", "team", "role", "god") else None
    head = plan.metrics[0] if plan.metrics else None
    valued = [r for r in rows if head and is_number(r.get(head))]
    if dim is None or not valued:
        return None
    if plan.intent == Intent.RANKING and plan.shape in ("leader", "auto"):
        place = valued[min(plan.position, len(valued)) - 1]
        return dim, list(dict.fromkeys(r.get(dim) for r in valued if r.get(head) == place.get(head)))
    if plan.intent == Intent.LOOKUP and len(valued) == 1:
        return dim, [valued[0].get(dim)]
    return None


def _checked_value(dimension: str, value: Any) -> str:
    """How a checked value is said: "team 1 (Order)", "Support", "Zeus", a player by name."""
    return f"team {value} ({SIDE_NAMES.get(int(value), '')})" if dimension == "team" else str(value)


def _has(dim: str, subject: Any, check: Filter, roster: Sequence[Mapping[str, Any]]) -> tuple[str, str] | None:
    """Whether one subject is the player checked or has the role, side or god checked, and what it is or has: ("yes",
    "Support"), ("no", "team 1 (Order)"); a god's players' sides or roles all together, "partly" when only some of
    them have it. None when the roster does not say."""
    if dim == check.dimension:
        actual = [subject]
    elif dim in ("player", "god"):
        actual = list(dict.fromkeys(r.get(check.dimension) for r in roster if r.get(dim) == subject))
    else:
        actual = []
    if not actual or None in actual:
        return None
    yes = [str(a) == str(check.values[0]) for a in actual]
    return ("yes" if all(yes) else "partly" if any(yes) else "no"), names([_checked_value(check.dimension, a)
                                                                          for a in actual])


def check_said(plan: QueryPlan, rows: list[dict], roster: Sequence[Mapping[str, Any]], check: Filter) -> str | None:
    """The yes or no asked after the question about its answer's subject ("..., and is that one a support"): "Yes: PapiTacos
    played Support."; "No: Kraken_Mid was on team 1 (Order), not team 2 (Chaos)."; "No: it was Brisk, not LunaSol.";
    None when this step names no one subject."""
    found = _checked_subjects(plan, rows)
    if found is None:
        return None
    dim, subjects = found
    asked = _checked_value(check.dimension, check.values[0])
    verb = {"team": "was on", "role": "played", "god": "played", "player": "was"}[check.dimension]
    said = []
    for subject in subjects:
        has = _has(dim, subject, check, roster)
        if has is None:
            return None
        state, actual = has
        yes = state == "yes"
        if dim == check.dimension:
            said.append((state, f"it was {actual}" + ("" if yes else f", not {asked}")))
        else:
            owner, doing = who(dim, subject, False), verb
            if dim == "god":  # "Loki's player was on team 2 (Chaos)", "Ymir's players were on team 1 and team 2"
                many = sum(1 for r in roster if r.get("god") == subject) > 1
                owner = f"{fmt.possessive(owner)} player{'s' if many else ''}"
                doing = verb.replace("was", "were") if many else verb
            said.append((state, f"{owner} {doing} {actual}" + ("" if state != "no" else f", not {asked}")))
    states = {state for state, _ in said}
    opening = "Yes" if states == {"yes"} else "No" if states == {"no"} else \
        "Partly" if len(said) == 1 else "Not all of them"
    return f"{opening}: " + "; ".join(text for _, text in said) + "."


def whether_any(plan: QueryPlan, rows: list[dict]) -> str:
    """ "Yes: " or "No: " before a count of one subject that the question asks whether there was any of at all ("did X
    get any kills": "No: X got 0 kills."); "" for any other question."""
    if plan.intent != Intent.LOOKUP or len(plan.metrics) != 1 or len(rows) != 1 or plan.parts or plan.then is not None \
            or plan.check is not None or plan.compare is not None or metric_info(plan.metrics[0]).aggregation != "count" \
            or not asked_whether_any(plan.question):
        return ""
    count = rows[0].get(plan.metrics[0])
    return ("Yes: " if float(count) > 0 else "No: ") if is_number(count) else ""


def held_said(plan: QueryPlan, rows: list[dict]) -> str | None:
    """Whether the subject checked holds the most (`compare` "more") or the least ("less") of the ranking's figure, the
    answer first: "Yes. Brisk got the most kills: 17 (ahead of ...)."; "Yes, Brisk shares it. Brisk and LunaSol are
    tied for ..."; "No. Brisk got 12 kills. Tsunami88 got the most kills: 20 (...)." None when the plan asks no such
    thing or its rows lack the subject."""
    check = plan.check
    if check is None or plan.compare is None or plan.intent != Intent.RANKING or not plan.metrics \
            or plan.group_by[:1] != (check.dimension,):
        return None
    dim, metric_id = check.dimension, plan.metrics[0]
    valued = [r for r in rows if is_number(r.get(metric_id))]
    mine = next((r for r in valued if str(r.get(dim)) == str(check.values[0])), None)
    if mine is None:
        return None
    top = valued[0].get(metric_id)
    if plan.compare == "more" and not float(top or 0) and all(float(r[metric_id]) >= 0 for r in valued):
        return f"No. {none_recorded(plan, metric_id)}"  # nobody had any, so nobody had the most
    board = _held_board(plan, valued, dim, metric_id)
    if mine.get(metric_id) == top:
        shared = sum(1 for r in valued if r.get(metric_id) == top) > 1
        said = f"Yes, {who(dim, mine.get(dim), False)} shares it. {board}" if shared else f"Yes. {board}"
    else:
        own = lookup(plan.model_copy(update={"intent": Intent.LOOKUP, "check": None, "compare": None}), [mine], dim,
                     [metric_id])
        said = f"No. {own} {board}"
    for player, god in (gods_read_as_players(plan.assumptions) if dim == "player" else {}).items():
        said = said.replace(player, f"{player} ({god})", 1)  # "LunaSol (Ymir)": the player the question named by god
    return said


def _held_board(plan: QueryPlan, valued: list[dict], dim: str, metric_id: str) -> str:
    """Who held the end of a ranking and with how much, whom they were ranked among first ("On team 2, ...")."""
    board = ranking(plan.model_copy(update={"shape": "leader", "position": 1}), valued, dim, [metric_id])
    lead, _ = among_players(plan) if dim == "player" else ("", "")
    return f"{lead}, " + ("all" + board[3:] if board.startswith("All ") else board) if lead else board


def leader_sentence(plan: QueryPlan, rows: list[dict]) -> str:
    """The first step of a dependent plan, said briefly: "VoidWalker dealt the most damage (192,395)"."""
    if not rows or not plan.metrics:
        return ""
    metric_id = plan.metrics[0]
    top = rows[0]
    phrase = MOST.get(metric_id, f"had the highest {metric_info(metric_id).label}")
    if phrase.endswith(" of"):
        return f"{top.get('player')} {phrase} {value(top, metric_id)}{scope(plan)}."
    return f"{top.get('player')} {phrase}{scope(plan)} ({value(top, metric_id)})."


# --------------------------------------------------------------------------- newer plan shapes (the question planner)
# Deaths from any source and who dealt them, one player's kills, the last kill, deaths by cause: each sentence reads
# only its plan and rows, and names what its figures are (deaths "to towers", kills "by" or "on" a player).

_KILLER_KINDS = {"player": "enemy players", "structure": "structures", "minion": "minions", "jungle": "jungle camps",
                 "boss": "bosses", "unknown": "unclassified non-players"}


def _either(words: Sequence[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1] if words else ""


def _named_killers(names: Sequence[str]) -> list[str]:
    """Non-players by name, several of a kind said once: "towers" for Order Tower and Chaos Tower; a name of no
    non-player kind (a player) as it is."""
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(entity_kind(name, ()), []).append(name)
    words = []
    for kind, members in groups.items():
        last = {m.split()[-1].lower() for m in members}
        if len(members) == 1:  # a player who dealt the blows is named bare ("died to Brisk")
            words.append(f"the {members[0]}" if kind != "unknown" else members[0])
        elif len(last) == 1 and kind != "unknown":
            words.append(fmt.plural(last.pop()))
        else:
            words.append(_KILLER_KINDS.get(kind, kind) if kind != "unknown" else fmt.names_of(members))
    return words


def killers_said(plan: QueryPlan) -> str | None:
    """Who dealt the blows a plan keeps, in words ("towers", "the Fire Giant", "minions, jungle camps or the Fire
    Giant", "anything but enemy players"); None when the plan keeps every killer."""
    f = next((f for f in plan.filters if f.dimension in ("source", "source_kind")), None)
    if f is None:
        return None
    values = [str(v) for v in f.values]
    words = [_KILLER_KINDS.get(v, v) for v in values] if f.dimension == "source_kind" else _named_killers(values)
    if f.op == "!=":
        return f"anything but {_either(words)}"
    # a narrower kind left out of them ("structures but not the titan"): said, so the count is not the whole kind's
    left_out = [str(v) for g in plan.filters if g is not f and g.dimension == "source" and g.op == "!=" for v in g.values]
    return _either(words) + (f" other than {fmt.names_of(left_out)}" if left_out else "")


_A_KIND = {"structure": "a structure", "minion": "a minion", "boss": "a boss", "jungle": "a jungle monster"}


def _blow(row: Mapping[str, Any]) -> str:
    """"killed by Brisk", "killed by the Order Tower, a structure"."""
    kind = _A_KIND.get(str(row.get("cause_kind")))
    return f"killed by the {row.get('cause')}, {kind}" if kind else f"killed by {row.get('cause')}"


def _first_death_kind(plan: QueryPlan, row: Mapping[str, Any], narrowed: bool) -> str:
    """What the match's first death also was: first blood when a player dealt the blow (METRICS.md: first blood is
    the first player kill), else a death that came before first blood. Said only of the whole match's first death."""
    if plan.order == "desc" or narrowed:
        return ""
    if str(row.get("cause_kind")) == "player":
        return "; a player kill, so it was also first blood"
    return " (the first death of any kind; first blood, the first player kill, came later)"


def death_list(plan: QueryPlan, rows: list[dict]) -> str:
    """Deaths from any source: "2 deaths to towers: Brisk at 4:10 (killed by Order Tower (a structure)); ..."."""
    killers = killers_said(plan)
    to = f" to {killers}" if killers else ""
    whose = [f for f in plan.focus if not f.startswith("$")]
    who = names(whose) if whose else None
    window = window_phrase(plan)
    if not rows:
        return f"{fmt.opening(who)} did not die{to}{window}." if who else f"No player died{to}{window}."
    if plan.limit == 1:
        r = rows[0]
        which = "last" if plan.order == "desc" else "first"
        if who and whose == [str(r["victim"])]:  # one player's own first (last) death: said once, not "of X was X's"
            return (f"{who}'s {which} death{to}{window} was at {clock(r['match_second'])}, {_blow(r)}"
                    f"{_first_death_kind(plan, r, True)}.")
        of = f" of {who}" if who else ""
        return (f"The {which} death{of}{to}{window} was {r['victim']}'s, at {clock(r['match_second'])}, {_blow(r)}"
                f"{_first_death_kind(plan, r, bool(killers or who or window))}.")
    shown = in_time_order(rows[:MAX_LISTED])
    more = f"; and {len(rows) - len(shown)} more" if len(rows) > len(shown) else ""
    if who and len(rows) == 1 and at_a_clock(plan):
        return f"{fmt.opening(who)} died at {clock(rows[0]['match_second'])}{to}, {_blow(rows[0])}."  # the clock asked
    if who:
        listed = "; ".join(f"at {clock(r['match_second'])} ({_blow(r)})" for r in shown)
        return (f"{fmt.opening(who)} died {fmt.times(len(rows))}{to}{window}, {_tally(rows, 'cause', 'the ')}: "
                f"{listed}{more}.")
    listed = "; ".join(f"{r['victim']} at {clock(r['match_second'])} ({_blow(r)})" for r in shown)
    victims = list(dict.fromkeys(str(r["victim"]) for r in rows))
    return (f"{fmt.count(len(rows), 'death')}{to}{window}, of {fmt.count(len(victims), 'player')} "
            f"({_tally(rows, 'victim', '')}): {listed}{more}.")


def _tally(rows: Sequence[Mapping[str, Any]], column: str, article: str) -> str:
    """Who died, or what killed them, each with how often, first seen first: "by the Order Tower 3 times and the
    Swordsman 1 time"; "zoe.rush 3 times and Brisk 1 time". Every name is said, so the counts add up to the list."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[str(r[column])] = counts.get(str(r[column]), 0) + 1
    said = names([f"{article if column == 'cause' and _killer_kind(rows, name) != 'player' else ''}{name} "
                  f"{fmt.times(n)}" for name, n in counts.items()])
    return f"by {said}" if column == "cause" else said


def _killer_kind(rows: Sequence[Mapping[str, Any]], name: str) -> str:
    """The kind of the killer `name` in these death rows ("player", "structure", ...)."""
    return next((str(r.get("cause_kind")) for r in rows if str(r.get("cause")) == name), "")


def at_a_clock(plan: QueryPlan) -> bool:
    """Whether the plan's window is the one second a clock in the question named ("what killed X at 31:45"), so the
    event's own time says it and the window is not said again."""
    return plan.window is not None and plan.window.label.startswith("at ")


def kills_between(plan: QueryPlan, rows: list[dict]) -> str | None:
    """One player's kills of another, each with when and who assisted it: "小龙Xiao killed Night Owl 2 times: at 0:28,
    assisted by A, B and C; at 5:02, with no assist"; None unless the plan names both the killer and the victim."""
    one = {f.dimension: str(f.values[0]) for f in plan.filters
           if f.dimension in ("source", "victim") and f.op == "=" and len(f.values) == 1}
    if len(one) != 2:
        return None
    killer, victim, window = one["source"], one["victim"], window_phrase(plan)
    if not rows:
        return f"{killer} never killed {victim}{window}."
    helped = [f"assisted by {names([str(a) for a in r['assists']])}" if r.get("assists") else "with no assist"
              for r in in_time_order(rows)]
    if len(rows) == 1:  # a clock said with the question is the one kill's time, said once
        once = "" if at_a_clock(plan) else f" once{window},"
        return f"{killer} killed {victim}{once} at {clock(rows[0]['match_second'])}, {helped[0]}."
    each = [f"at {clock(r['match_second'])}, {h}" for r, h in zip(in_time_order(rows), helped, strict=True)]
    shown = each[:MAX_LISTED]
    more = f"; and {len(each) - len(shown)} more" if len(each) > len(shown) else ""
    return f"{killer} killed {victim} {fmt.times(len(rows))}{window}: {'; '.join(shown)}{more}."


def kill_list_of(plan: QueryPlan, rows: list[dict]) -> str | None:
    """One player's kills ("kills by Brisk": whom they killed, how often and when) or the kills on them; None for
    any other kill list."""
    side = next((f for f in plan.filters if f.dimension in ("source", "victim") and len(f.values) == 1
                 and f.op == "="), None)
    if side is None:
        return None
    player, window = str(side.values[0]), window_phrase(plan)
    by = side.dimension == "source"
    if not rows:
        return f"{player} got no kills{window}." if by else f"No player killed {player}{window}."
    if plan.limit == 1:
        r = rows[0]
        which = "last" if plan.order == "desc" else "first"
        return (f"{player}'s {which} kill{window} was on {r['victim']} at {clock(r['match_second'])}." if by else
                f"The {which} player to kill {player}{window} was {r['killer']}, at {clock(r['match_second'])}.")
    other = "victim" if by else "killer"
    counts: dict[str, list[int]] = {}
    for r in rows:
        counts.setdefault(str(r[other]), []).append(int(r["match_second"]))
    each = "; ".join(f"{name} {fmt.times(len(times))} (at {', '.join(clock(t) for t in times[:6])}"
                     f"{f' and {len(times) - 6} more' if len(times) > 6 else ''})" for name, times in counts.items())
    if by:
        return f"{player} got {fmt.count(len(rows), 'kill')}{window}, on {fmt.count(len(counts), 'player')}: {each}."
    return f"{player} was killed by players {fmt.times(len(rows))}{window}, by {fmt.count(len(counts), 'player')}: {each}."


def last_kill(plan: QueryPlan, rows: list[dict]) -> str | None:
    """"The last player kill was X on Y at 31:53"; "The first player kill after the first Fire Giant at 20:22 was
    ..."; None unless the plan asks for the latest kill of the match, or the first or last of a window."""
    if plan.limit != 1 or (plan.order != "desc" and plan.window is None) or plan.filters:
        return None
    if not rows:
        return f"No player was killed{window_phrase(plan)}."
    r = rows[0]
    edge = "last" if plan.order == "desc" else "first"
    return f"The {edge} player kill{window_phrase(plan)} was {r['killer']} on {r['victim']} at {clock(r['match_second'])}."


def _edge_whose(plan: QueryPlan, dims: Sequence[str]) -> str | None:
    """Whose events a first or last one is of, in words: "team 2", "PapiTacos and LunaSol"; None for the match's."""
    said = [f"team {v}" if f.dimension == "team" else str(v) for f in plan.filters if f.dimension in dims
            and f.op in ("=", "in") for v in f.values]
    return names(said) if said else None


def edge_list(plan: QueryPlan, rows: list[dict], noun: str) -> str | None:
    """The first or last N kills (deaths) of a subject or of the match, told in the order they happened: "Brisk's
    last 3 deaths: at 24:54 (killed by ...); ..."; None for any other list."""
    if not rows or not 1 < plan.limit < 500 or plan.order not in ("asc", "desc"):
        return None
    which = "last" if plan.order == "desc" else "first"
    players = _edge_whose(plan, ("player" if noun == "death" else "source",))  # their names need not be said again
    whose = players or _edge_whose(plan, ("team",))
    if noun == "death":
        said = [f"{'' if players else str(r['victim']) + ' '}at {clock(r['match_second'])} ({_blow(r)})"
                for r in in_time_order(rows)]
        killers = killers_said(plan)
        to = f" to {killers}" if killers else ""
    else:
        said = [f"{'' if players else str(r['killer']) + ' '}on {r['victim']} at {clock(r['match_second'])}"
                for r in in_time_order(rows)]
        on = _edge_whose(plan, ("victim",))
        to = f" on {on}" if on else ""
    counted = f"{which} {len(rows)} {fmt.plural(noun)}"
    if noun == "death" and plan.group_by == ("player",):  # one row per player, each at their first (last) death
        counted = f"{which} {fmt.count(len(rows), 'player')} to die" + (", each at their last death" if which == "last" else "")
    head = (f"{whose}'s {counted}" if players else fmt.capital(f"{whose}'s {counted}")) if whose else f"The {counted}"
    fewer = f" (only {len(rows)} in all)" if len(rows) < plan.limit else ""
    return f"{head}{to}{window_phrase(plan)}{fewer}: {'; '.join(said)}."


def kill_edge_of(plan: QueryPlan, rows: list[dict]) -> str | None:
    """The first or last kill made by a side or several players (a role's, a god's): "The first kill by team 2 was
    Tsunami88's, on ÁngelDeth at 3:52"; None for any other kill list."""
    whose = _edge_whose(plan, ("source", "team"))
    if plan.limit != 1 or whose is None or any(f.dimension == "victim" for f in plan.filters):
        return None
    window = window_phrase(plan)
    if not rows:
        return f"{whose} got no kills{window}."
    r = rows[0]
    edge = "last" if plan.order == "desc" else "first"
    return f"The {edge} kill by {whose}{window} was {r['killer']}'s, on {r['victim']} at {clock(r['match_second'])}."


def assist_edge(plan: QueryPlan, rows: list[dict]) -> str:
    """The first or last assist of a player, several players, a side or the match: "Brisk's first assist was at 7:12,
    on Tsunami88's kill of ÁngelDeth"; "The last assist of team 1 was zoe.rush's, at ..."."""
    whose = _edge_whose(plan, ("player", "team"))
    window = window_phrase(plan)
    if not rows:
        return f"{whose} had no assists{window}." if whose else f"No kill was assisted{window}."
    edge = "last" if plan.order == "desc" else "first"
    if plan.shape != "leader":
        said = "; ".join(f"{r['assister']}'s at {clock(r['match_second'])}, on {r['killer']}'s kill of {r['victim']}"
                         for r in rows[:MAX_LISTED])
        more = f"; and {len(rows) - MAX_LISTED} more" if len(rows) > MAX_LISTED else ""
        return f"{fmt.count(len(rows), 'assist')}{f' by {whose}' if whose else ''}{window}: {said}{more}."
    r = rows[0]
    kill = f"on {r['killer']}'s kill of {r['victim']}"
    # every assister of that one kill: they share the edge
    who = names([str(x["assister"]) for x in rows if (x["match_second"], x["killer"], x["victim"]) ==
                 (r["match_second"], r["killer"], r["victim"])])
    if whose == who:
        return f"{whose}'s {edge} assist{window} was at {clock(r['match_second'])}, {kill}."
    of = f" of {whose}" if whose else ""
    return f"The {edge} assist{of}{window} came at {clock(r['match_second'])}, {kill}, by {who}."


def deaths_by_cause(plan: QueryPlan, rows: list[dict], dim: str | None, metrics: Sequence[str]) -> str | None:
    """"No player died to minions or the Fire Giant (0 deaths)", "Brisk died 2 times to towers"; None unless the
    plan counts the deaths a cause dealt, for one player or the whole match."""
    killers = killers_said(plan)
    if not metrics or metrics[0] != "deaths" or killers is None or len(rows) != 1 or plan.intent != Intent.LOOKUP:
        return None
    n = rows[0].get("deaths")
    if not is_number(n):
        return None
    name = who(dim, rows[0].get(dim)) if dim else None
    window = window_phrase(plan)
    if not window:  # the typed fact (answer/facts.py); it says no window, so a windowed count is worded here
        return F.say(death_count(plan, rows[0], dim, killers))
    if name:
        return (f"{name} never died to {killers}{window} (0 deaths)." if n == 0 else
                f"{name} died {fmt.times(int(n))} to {killers}{window}.")
    return (f"No player died to {killers}{window} (0 deaths)." if n == 0 else
            f"{fmt.count(int(n), 'player death')} came from {killers}{window}.")


def in_time_order(rows: list[dict]) -> list[dict]:
    """Events told in the order they happened: "the last 3 purchases" are picked from the end of the match, then said
    as they were made, as a build is read."""
    return sorted(rows, key=lambda r: (r.get("match_second") is None, r.get("match_second") or 0))


def purchases_edge(plan: QueryPlan, rows: list[dict]) -> str:
    """The first or last purchases in time: "Brisk's last purchase was Battle Axe at 31:00", "the first purchase of
    Blink Rune was by Brisk at 0:40"."""
    which = "last" if plan.order == "desc" else "first"
    players = [str(v) for f in plan.filters if f.dimension == "player" and f.op == "=" for v in f.values]
    items = [str(v) for f in plan.filters if f.dimension == "item" and f.op != "!=" for v in f.values]
    whose = f"{players[0]}'s " if len(players) == 1 else ""
    of = f" of {names(items)}" if items else ""
    window = window_phrase(plan)
    if not rows:
        return f"No purchase{of}{' by ' + players[0] if len(players) == 1 else ''} was recorded{window}."
    by = "" if whose else " by {player}"

    def one(r: Mapping[str, Any]) -> str:
        what = "" if items and len(items) == 1 else str(r.get("item"))
        return " ".join(p for p in (what, by.format(player=r.get("player")).strip(),
                                    f"at {clock(r.get('match_second'))}") if p)

    if plan.position > 1:
        return _purchase_at(plan, rows, whose, of + window)
    head = f"{whose}{which} purchase" if len(rows) == 1 else f"{whose}{which} {len(rows)} purchases"
    head = head[:1].upper() + head[1:] if whose else f"The {head}"
    listed = names([one(r) for r in in_time_order(rows)])
    return f"{head}{of}{window} {'was' if len(rows) == 1 else 'were'} {listed}."


def _purchase_at(plan: QueryPlan, rows: list[dict], whose: str, of: str) -> str:
    """The purchase at a place in time order ("Brisk's second purchase of Soul Gem was at 12:22"), or how many
    there were when the list is shorter."""
    place = fmt.ordinal(plan.position)
    one_item = of.startswith(" of ")  # the place among the purchases of the item named
    if plan.limit > plan.position and len(rows) >= plan.position:
        return _purchases_from(plan, rows, whose, of)
    if len(rows) < plan.position:
        who = whose[:-3] if whose.endswith("'s ") else "The match"
        return f"{who} made only {fmt.count(len(rows), 'purchase')}{of}: there is no {place}."
    r = rows[plan.position - 1]
    what = "" if one_item else f"{r.get('item')} "
    by = "" if whose else f"by {r.get('player')} "
    head = f"{whose}{place} purchase{of}" if whose else f"The {place} purchase{of}"  # a name is kept as written
    return f"{head} was {what}{by}at {clock(r.get('match_second'))}."


def _purchases_from(plan: QueryPlan, rows: list[dict], whose: str, of: str) -> str:
    """The purchases from a place on, in time order ("Brisk's 2 purchases after the first one, in order: Soul Gem at 3:10 and Rage at
    5:02"); fewer when the list ends sooner, said."""
    after = rows[plan.position - 1:plan.limit]
    asked = plan.limit - plan.position + 1
    listed = names([" ".join(p for p in (str(r.get("item")), "" if whose else f"by {r.get('player')}",
                                          f"at {clock(r.get('match_second'))}") if p) for r in after])
    short = f" (only {fmt.count(len(after), 'purchase')} came after it)" if len(after) < asked else ""
    head = f"{whose or 'The '}{fmt.count(asked, 'purchase')}{of} after the {fmt.ordinal(plan.position - 1)} one"
    return f"{head}, in order: {listed}{short}."


def series_side_by_side(plan: QueryPlan, rows: list[dict], series: str, metric_id: str) -> str | None:
    """Two or more named entities minute by minute ("how did A's damage compare to B's throughout the match"): each
    one's total over the period and its peak minute, and who finished ahead; None with fewer than two."""
    info = metric_info(metric_id)
    per: dict[Any, dict[int, float]] = {}
    for r in rows:
        if is_number(r.get(metric_id)):
            per.setdefault(r.get(series), {})[r["minute"]] = float(r[metric_id])
    if len(per) < 2 or not info.additive:
        return None
    totals = {k: sum(v.values()) for k, v in per.items()}
    pieces = []
    for key, minutes in per.items():
        peak = max(minutes, key=lambda m: minutes[m])
        pieces.append(f"{who(series, key, False)}: {fmt.number(totals[key], info.decimals)} in total, peaking at minute "
                      f"{peak} with {fmt.number(minutes[peak], info.decimals)}")
    ranked = sorted(totals, key=lambda k: -totals[k])
    gap = totals[ranked[0]] - totals[ranked[1]]
    ahead = (f"{who(series, ranked[0])} finished ahead by {fmt.number(gap, info.decimals)}" if gap else
             "They finished level")
    label = info.label[:1].upper() + info.label[1:]
    return f"{label} minute by minute{scope(plan)} — {'; '.join(pieces)}. {ahead}."


def among_players(plan: QueryPlan) -> tuple[str, str]:
    """The players a ranking is narrowed to by their team or role, as a lead and as a noun: ("On team 2", "team 2
    player"), ("Among the Support players", "Support player"), ("Among team 2's Jungle players", "team 2 Jungle
    player"); ("", "") when not narrowed so. The lead keeps "X had the most assists" true of whom it ranks."""
    team = [f.values[0] for f in plan.filters if f.dimension == "team" and f.op == "=" and len(f.values) == 1]
    roles = [str(v) for f in plan.filters if f.dimension == "role" and f.op == "=" for v in f.values]
    said_roles = fmt.join_and(roles) if roles else ""
    if team and roles:
        return f"Among team {team[0]}'s {said_roles} players", f"team {team[0]} {said_roles} player"
    if team:
        return f"On team {team[0]}", f"team {team[0]} player"
    if roles:
        return f"Among the {said_roles} players", f"{said_roles} player"
    return "", ""


def _narrowed_leader(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    """A leader among one team's or one role's players ("the richest player on each team", "which support had the
    most assists"): "On team 1, X earned the most gold: ...", "Among the Support players, X had ..."."""
    if plan.intent != Intent.RANKING or plan.group_by != ("player",) or plan.shape not in ("leader", "top") or not rows:
        return None
    lead, _ = among_players(plan)
    shape = result_shape(rows, columns, plan)
    if not (lead and shape.metrics):
        return None
    body = ranking(plan, rows, "player", shape.metrics)
    # a sentence of our own words goes on in lower case after the lead ("On team 1, all 5 players are tied ...");
    # a name keeps its case
    for own in ("All ", "Top "):
        if body.startswith(own):
            body = own.lower() + body[len(own):]
    return f"{lead}, {body}"


def _named_series(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    named = [f for f in plan.focus if not f.startswith("$")]
    if plan.intent != Intent.TIMELINE or len(plan.group_by) != 2 or len(named) < 2 or not plan.metrics:
        return None
    return series_side_by_side(plan, rows, plan.group_by[1], plan.metrics[0])


def _cause_count(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    if plan.intent != Intent.LOOKUP or not plan.metrics or plan.metrics[0] != "deaths":
        return None
    shape = result_shape(rows, columns, plan)
    dims = [d for d in shape.dimensions if d != "period"]
    return deaths_by_cause(plan, rows, dims[0] if dims else None, shape.metrics)


def _event_rows(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    head = plan.metrics[0] if plan.metrics else None
    if plan.intent == Intent.BUILD_ORDER and plan.limit < 500:
        return purchases_edge(plan, rows)
    if head == "kill_chains":
        return chains.answer(plan, rows)
    if head == "death_events":
        return edge_list(plan, rows, "death") or death_list(plan, rows)
    if head == "kill_events":
        return edge_list(plan, rows, "kill") or kills_between(plan, rows) or kill_list_of(plan, rows) \
            or last_kill(plan, rows) \
            or kill_edge_of(plan, rows)
    if head == "assist_events":
        return assist_edge(plan, rows)
    return None


def _participated(row: Mapping[str, Any], dim: str) -> str:
    """What a kill participation is worked out from, its base named: "a part in 24 of their team's 41 kills, with 7 kills
    and 17 assists)"; a team's is the mean of its players' shares of its kills."""
    kills, assists, base = (int(row.get(m) or 0) for m in ("kills", "assists", "team_kills"))
    made = f"{fmt.count(kills, 'kill')} and {fmt.count(assists, 'assist')}"
    if dim == "team":
        players = round(base / kills) if kills else 5
        return (f"the mean of its {fmt.count(players, 'player')}' shares of its {fmt.count(kills, 'kill')}, "
                f"with {made} between them")
    whose = "their team's" if dim == "player" else "their teams'"
    return f"a part in {fmt.number(kills + assists)} of {whose} {fmt.count(base, 'kill')}, with {made}"


def _kill_participation(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    """Kill participation, each figure with its base: one row, the leader and the next, or every row listed."""
    if not plan.metrics or plan.metrics[0] != "kill_participation" or len(plan.group_by) != 1 \
            or plan.group_by[0] not in ("player", "team", "role", "god") or len(plan.windows) > 1:
        return None
    dim, head = plan.group_by[0], "kill_participation"
    valued = [r for r in rows if is_number(r.get(head))]
    if not valued:
        return None
    if len(valued) == 1:
        only = valued[0]
        return (f"{fmt.possessive(who(dim, only.get(dim)))} kill participation{scope(plan)} was {value(only, head)}: "
                f"{_participated(only, dim)}.")
    if plan.intent == Intent.RANKING and plan.shape in ("leader", "auto"):
        top, rest = valued[0], valued[1:]
        end = "lowest" if plan.order == "asc" else "highest"
        text = (f"{who(dim, top.get(dim))} had the {end} kill participation{scope(plan)}: {value(top, head)} "
                f"({_participated(top, dim)})")
        nxt = rest[0]
        return text + f"; next: {who(dim, nxt.get(dim), False)} with {value(nxt, head)} ({_participated(nxt, dim)})."
    shown = valued[:plan.limit] if plan.shape == "top" else valued
    listed = "; ".join(f"{who(dim, r.get(dim), i == 0)} {value(r, head)} ({_participated(r, dim)})"
                       for i, r in enumerate(shown))
    more = f"; and {len(valued) - len(shown)} more" if len(shown) < len(valued) else ""
    return f"Kill participation{scope(plan)}: {listed}{more}."


HIT_GROUPS = ("player", "ability", "target")  # one hit, named by who landed it, with what and on whom


def _hit_how(rows: Sequence[Mapping[str, Any]]) -> str:
    """"with Loki Basic Attack on Kraken_Mid": what one player's hit (or hits of the same size) was done with, on whom."""
    return " and ".join(dict.fromkeys(f"with {r.get('ability')} on {r.get('target')}" for r in rows))


def _hits_tied(plan: QueryPlan, tied: list[dict], players: list[str], lead: str) -> str:
    """"A and B are tied for the biggest single hit: 500 each (A with X on Y; B with Z on W)"."""
    head = plan.metrics[0]
    each = "; ".join(f"{p} {_hit_how([r for r in tied if r.get('player') == p])}" for p in players)
    return (f"{lead}{names(players)} are tied for the {metric_info(head).label}{scope(plan)}: "
            f"{value(tied[0], head)} each ({each}).")


def _one_hit(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    """The biggest single hit (or crit) as the one event it is, its ability and target beside the player and the
    amount: "VoidWalker landed the biggest single hit: 608, with Loki Basic Attack on Kraken_Mid (ahead of ÁngelDeth
    with 508)"; one player's: "Brisk's biggest single hit was 392, with ... on ..."."""
    if plan.group_by != HIT_GROUPS or plan.intent != Intent.RANKING or not plan.metrics or not rows:
        return None
    head = plan.metrics[0]
    valued = [r for r in rows if is_number(r.get(head))]
    if not valued:
        return none_recorded(plan, head)
    tied = [r for r in valued if r.get(head) == valued[0].get(head)]
    players = list(dict.fromkeys(str(r.get("player")) for r in tied))
    lead, _ = among_players(plan)
    lead = f"{lead}, " if lead else ""
    if len(players) > 1:
        return _hits_tied(plan, tied, players, lead)
    one = [f.values[0] for f in plan.filters if f.dimension == "player" and f.op == "=" and len(f.values) == 1]
    if one and str(one[0]) == players[0]:  # one player's biggest hit, asked of that player
        return f"{amount_said(head, players[0], tied[0])}{scope(plan)}, {_hit_how(tied)}."
    text = f"{lead}{players[0]} {MOST[head]}{scope(plan)}: {value(tied[0], head)}, {_hit_how(tied)}"
    nxt = next((r for r in valued if str(r.get("player")) not in players), None)
    if nxt is not None:
        text += f" (ahead of {nxt.get('player')} with {value(nxt, head)})"
    return text + "."


def _one_pair(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    """The largest pair: "The most kills by one player on one victim: Kuro on Zeus, 7 (next: Ana on Bo,
    6)"; pairs tied at the top are each named."""
    if not pair_ranked(plan) or not rows:
        return None
    head, other = plan.metrics[0], plan.group_by[1]
    valued = [r for r in rows if is_number(r.get(head))]
    if not valued:
        return none_recorded(plan, head)
    tied = [r for r in valued if r.get(head) == valued[0].get(head)]
    said = f"The most {metric_info(head).label} by one player on one {DIMENSIONS[other].label}{scope(plan)}: "
    if len(tied) > 1:
        text = f"{said}{value(tied[0], head)} each, {fmt.join_and([pair_name(r, other) for r in tied])}"
    else:
        text = f"{said}{pair_name(tied[0], other)}, {value(tied[0], head)}"
    after = valued[len(tied):]
    if not after:
        return text + "."
    nxt = [r for r in after if r.get(head) == after[0].get(head)]
    each = " each" if len(nxt) > 1 else ""
    return f"{text} (next: {fmt.join_and([pair_name(r, other) for r in nxt])}, {value(nxt[0], head)}{each})."


def member(dim: str, value: object) -> str:
    """A row's group as a plan's focus names it: "team 2", "Support", a player's name."""
    return f"team {value}" if dim == "team" else str(value)


def group_owner(dim: str, members: Sequence[str]) -> F.Entity:
    """Whose a group's figure is: "team 2", "the Support role", "the Support and Carry players", "A and B"."""
    if len(members) == 1:
        return F.Entity(dim, members[0].removeprefix("team ") if dim == "team" else members[0])
    if dim == "role":
        return F.Entity("group", f"the {fmt.join_and(list(members))} players")
    return F.Entity("group", fmt.join_and(list(members)))


def group_share_fact(plan: QueryPlan, rows: list[dict]) -> tuple[F.Share, list[int], list[int]] | None:
    """A group's share of the match's total (`shares.group_share`): its members' rows summed over every row's sum (the
    match's total of the same figure, window and qualifiers), both named; with the rows of the group and every row
    counted. None unless the plan asks one, or when no row has a value."""
    asked = group_share(plan)
    if asked is None or not plan.metrics or not metric_info(plan.metrics[0]).additive:
        return None
    dim, members = asked
    metric_id = plan.metrics[0]
    valued = [i for i, r in enumerate(rows) if is_number(r.get(metric_id))]
    mine = [i for i in valued if member(dim, rows[i].get(dim)) in members]
    total = sum(float(rows[i][metric_id]) for i in valued)
    if not total:
        return None
    part = sum(float(rows[i][metric_id]) for i in mine)
    said = scope(plan)
    fact = F.Share(part=F.Amount(group_owner(dim, members), metric_id, part, said),
                   bases=(F.Amount(F.MATCH, metric_id, total, said),))
    return fact, mine, valued


def _group_share(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    """"The Support role's 177,500 damage dealt is 14.4% of the match's 1,235,074 damage dealt."; None for any plan
    that asks no group's share."""
    if group_share(plan) is None:
        return None
    found = group_share_fact(plan, rows)
    if found is None:
        return f"No {metric_info(plan.metrics[0]).label} was recorded{scope(plan)}, so there is no share to give."
    return F.say(found[0])


# the players a count names, at most
COUNTED_SHOWN = 8


def _counted(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    """How many players a condition kept, with their names and figures: "3 players had more than 10 deaths: A (12),
    B (12) and C (11)"; "Among the Support players, 1 player had ..."; a few named, then "and N more"."""
    if plan.shape != "count" or plan.condition is None or not plan.group_by or not rows:
        return None
    dim = plan.group_by[0]
    shape = result_shape(rows, columns, plan)
    compared = plan.condition.metric or (shape.metrics[0] if shape.metrics else None)
    if compared is None:
        return None
    lead, _ = among_players(plan)
    said = fmt.names_of([f"{who(dim, r.get(dim), False)} ({value(r, compared)})" for r in rows], COUNTED_SHOWN)
    head = (f"{fmt.count(len(rows), _singular(dim))} had {condition_said(plan)}{qualifier_phrase(plan)}{window_phrase(plan)}"
            f"{_in_all(plan.condition, compared, rows)}: {said}.")
    return f"{lead}, {head}" if lead else head[:1].upper() + head[1:]


def _in_all(condition: ValueCondition, figure: str, rows: list[dict]) -> str:
    """" (10 in all)": the figure summed over the players who had any of it, which is the whole of it, so a count of
    players ("how many players died to minions") also says how many times it happened."""
    values = [r.get(figure) for r in rows]
    if not any_at_all(condition) or metric_info(figure).aggregation not in ("sum", "count") \
            or not all(is_number(v) for v in values):
        return ""
    return f" ({fmt.number(sum(values))} in all)"


NEWER_SHAPES = (_counted, _event_rows, _named_series, _one_hit, _one_pair, _narrowed_leader, _cause_count, _kill_participation,
                _group_share)


def shaped_answer(plan: QueryPlan, rows: list[dict], columns: Sequence[str]) -> str | None:
    """The sentence of a newer plan shape, or None to let `direct_answer` choose as before."""
    return next((said for shape in NEWER_SHAPES if (said := shape(plan, rows, columns)) is not None), None)


# the figures the catalog added for the planner, in the same two forms as the rest
MOST.update({"biggest_crit": "landed the biggest critical hit", "structures": "destroyed the most structures"})
AMOUNT.update({"biggest_crit": "{who}'s biggest critical hit was {v}", "structures": "{who} destroyed {v} structures"})
