"""The sentence of a kill-chain plan in one match (`planner/plans/chains.py`), from its rows: one row per chain of
`catalog/kill_chains.sql` (player, team, role, god, kills, start_second, end_second, victims).

Who had the most (a player, or a side, role or god by its players' chains), how many a subject had with each chain
listed (its first and last kill's time, its victims), or every chain of the match; the chain's definition is said
after the answer, as the question gave it and as it was counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from combat_analysis import formatting as fmt
from combat_analysis.catalog import chains as chain_rule
from combat_analysis.contracts.plan import QueryPlan

SHOWN = 8  # chains listed before "and N more"
SIDES = {1: "Order (team 1)", 2: "Chaos (team 2)"}


def answer(plan: QueryPlan, rows: list[dict]) -> str | None:
    """The answer of a kill-chain plan; None for any other plan."""
    if plan.chain is None or not plan.metrics or plan.metrics[0] != "kill_chains":
        return None
    what = f"kill chains of at least {plan.chain.kills} kills"
    where = f" in the {plan.window.label}" if plan.window else " in the match"
    if plan.shape == "leader":
        said = _leader(plan, rows, what, where)
    else:
        said = _counted(plan, rows, what, where)
    return f"{said} ({fmt.capital(chain_rule.said(plan.chain))}.)"


def _entry_name(dim: str, value: Any) -> str:
    if dim == "team":
        return SIDES.get(int(value), f"team {value}") if fmt.is_number(value) else str(value)
    if dim == "role":
        return f"the {value} players"
    if dim == "god":
        return f"the {value} player"
    return str(value)


def _leader(plan: QueryPlan, rows: list[dict], what: str, where: str) -> str:
    dim = plan.group_by[0] if plan.group_by else "player"
    if not rows:
        return f"{'No. ' if plan.compare else ''}No {_subject(plan) or 'player'} had any {what}{where}."
    counts = Counter(r[dim] for r in rows)
    ranked = counts.most_common()
    top = ranked[0][1]
    tied = [name for name, n in ranked if n == top]
    lead = (f"{fmt.join_and([_entry_name(dim, t) for t in tied])} had the most {what}{where}: "
            f"{fmt.number(top)} each" if len(tied) > 1
            else f"{fmt.opening(_entry_name(dim, tied[0]))} had the most {what}{where}: {fmt.number(top)}")
    rest = [(name, n) for name, n in ranked if n != top]
    if rest:
        lead += f" (next: {_entry_name(dim, rest[0][0])} with {fmt.number(rest[0][1])})"
    named = [p for p in plan.focus if dim == "player" and p not in tied]
    if named:  # "did Brisk have the most": the one named said beside the leader
        lead += "; " + ", ".join(f"{p} had {fmt.number(counts.get(p, 0))}" for p in named)
    lead += f". In all, {fmt.count(len(rows), 'chain')}{where}"
    lead += f" by {fmt.count(len(counts), dim if dim != 'team' else 'side')}" if dim != "player" or len(counts) > 1 else ""
    return f"{_verdict(plan, tied)}{lead}: {_listed(rows, with_killer=True)}."


def _verdict(plan: QueryPlan, tied: list) -> str:
    """ "Yes. " or "No. " when the question asks whether the one player it names had the most; else nothing."""
    if plan.compare is None or len(plan.focus) != 1:
        return ""
    if plan.focus[0] not in tied:
        return "No. "
    return "Yes. " if len(tied) == 1 else f"Yes, {plan.focus[0]} shares it. "


def _subject(plan: QueryPlan) -> str | None:
    """Whose chains were counted, as the answer names them, or None for every player's."""
    said = []
    for f in plan.filters:
        names = [_entry_name(f.dimension, v) for v in f.values]
        said.append(("not " if f.op == "!=" else "") + fmt.join_and(names, "or" if f.op == "in" else "and"))
    return " on ".join(said) if said else None


def _counted(plan: QueryPlan, rows: list[dict], what: str, where: str) -> str:
    subject = _subject(plan)
    if not rows:
        return f"{fmt.opening(subject)} had no {what}{where}." if subject else f"There were no {what}{where}."
    several = len({r['player'] for r in rows}) > 1
    head = (f"{fmt.opening(subject)} had {fmt.count(len(rows), 'kill chain')} of at least {plan.chain.kills} kills"
            if subject and plan.chain is not None else
            f"There {'was' if len(rows) == 1 else 'were'} {fmt.count(len(rows), 'kill chain')} of at least "
            f"{plan.chain.kills if plan.chain else ''} kills")
    return f"{head}{where}: {_listed(rows, with_killer=several or subject is None)}."


def _chain(row: Mapping[str, Any], with_killer: bool) -> str:
    start, end = fmt.clock(row["start_second"]), fmt.clock(row["end_second"])
    when = start if start == end else f"{start} to {end}"
    victims = fmt.join_and([str(v) for v in row.get("victims") or []])
    who = f"{row['player']} " if with_killer else ""
    return f"{who}{when} ({fmt.count(int(row['kills']), 'kill')}: {victims})"


def _listed(rows: Sequence[Mapping[str, Any]], with_killer: bool) -> str:
    ordered = sorted(rows, key=lambda r: (r["start_second"], str(r["player"])))
    shown = [_chain(r, with_killer) for r in ordered[:SHOWN]]
    more = len(ordered) - len(shown)
    return "; ".join(shown) + (f"; and {more} more" if more else "")
