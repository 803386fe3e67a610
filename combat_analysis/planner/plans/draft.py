"""The pieces every intent family builds a plan from: who the question is about (`Entities`), the plan under
construction (`Draft`), and `finish`, which turns a draft into a frozen `QueryPlan` with its summary.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from combat_analysis.catalog import DIMENSIONS, metric
from combat_analysis.contracts.plan import Filter, Intent, PlanOrder, PlanShape, QueryPlan, TimeWindow
from combat_analysis.planner.plans.cues import TOGETHER
from combat_analysis.planner.read import exclusions
from combat_analysis.planner.read.reading import Reading
from combat_analysis.planner.vocabulary import Vocabulary

CORE_STATS = ("kda", "kills", "deaths", "assists", "damage_dealt", "gold")
PARAM_PLAYER = "$player"  # a player bound from an earlier query's first row
RATES = {"gpm": "gold", "dpm": "damage_dealt", "xpm": "experience", "kda": "kills", "kd": "kills",
         "mvp_score": "kills"}
ROSTER_DIMS = ("player", "team", "role", "god")
LIST_LIMIT = 500


# ------------------------------------------------------------------------------------------ entities

@dataclass(frozen=True)
class Entities:
    """Who the question is about, resolved against the roster."""

    players: tuple[str, ...] = ()
    teams: tuple[int, ...] = ()
    roles: tuple[str, ...] = ()
    gods: tuple[str, ...] = ()
    by_player: bool = False  # a role or god means its players, compared by name ("the supports")
    notes: tuple[str, ...] = ()

    @property
    def any(self) -> bool:
        return bool(self.players or self.teams or self.roles or self.gods)


_EACH = re.compile(r"\b(?:each|individually|separately|apiece|per\s+player|one\s+by\s+one)\b")


def resolve_entities(r: Reading, vocab: Vocabulary) -> Entities:
    """'The team 1 support' is one player; 'the supports' (a role, no team) are its players by name; 'the chaos
    support and the order carry' are those two players."""
    paired = _side_role_players(r, vocab)
    if paired is not None:
        return paired
    if not r.players and len(r.teams) == 1 and len(r.roles) == 1:
        found = vocab.players_where(team=r.teams[0], role=r.roles[0])
        if len(found) == 1:
            return Entities(players=(found[0].player,), notes=(
                f"the team {r.teams[0]} {r.roles[0].lower()} read as {found[0].player}",))
    # "the supports' gold combined": the role's total, not each support's; "each and combined": each support's, which
    # the answer sums
    role_totals = "role" in r.groups or "god" in r.groups or len(r.roles) > 1 or bool(
        TOGETHER.search(r.text) and not _EACH.search(r.text))
    # a role left out ("excluding the junglers") is no role whose players are compared
    left_out = {v for d, v in exclusions.excluded(r.question, r, vocab) if d == "role"} if r.roles else set()
    by_player = bool(set(r.roles) - left_out and not r.players and not role_totals)
    return Entities(players=r.players, teams=r.teams, roles=r.roles, gods=_gods_kept(r, vocab), by_player=by_player)


def _gods_kept(r: Reading, vocab: Vocabulary) -> tuple[str, ...]:
    """The gods named, unless a player is named too: a god is then that player's, said twice. A player named only as
    the one hit ("how much damage did neith deal to stella") leaves the god the subject, unless it is that player's."""
    hit = {q.name for q in r.qualifiers if q.name}
    if any(p not in hit for p in r.players):
        return ()
    theirs = {row.god for row in vocab.players if row.player in r.players}
    return tuple(g for g in r.gods if g not in theirs)


def _side_role_players(r: Reading, vocab: Vocabulary) -> Entities | None:
    """Two or more sides each said with a role ("did the chaos support out-kill our carry", "order mid vs chaos
    jungle gold"): each pair's one player, compared by name. None unless every pair is one player."""
    if r.players or len(r.side_roles) < 2:
        return None
    found = [vocab.players_where(team=team, role=role) for team, role in r.side_roles]
    if not all(len(players) == 1 for players in found):
        return None
    players = tuple(dict.fromkeys(p[0].player for p in found))
    notes = tuple(f"the team {team} {role.lower()} read as {p[0].player}"
                  for (team, role), p in zip(r.side_roles, found, strict=True))
    return Entities(players=players, notes=notes)


def gods_as_players(r: Reading, e: Entities, vocab: Vocabulary) -> Entities:
    """'How much healing did the Anubis put out': a god played by exactly one player of this match is that player,
    whose figure it is and whose name the answer gives. A god with several players stays a group, like a role. A
    role said with the gods ("which adc, the anubis or the hercules") says who they are when every one of them is
    played in it: the players, by name."""
    if e.players or not e.gods or "god" in r.groups:
        return e
    found = [vocab.players_where(god=god) for god in e.gods]
    if not all(len(players) == 1 for players in found):
        return e
    if e.roles and not all(players[0].role in e.roles for players in found):
        return e
    players = tuple(players[0].player for players in found)
    notes = tuple(_GOD_AS_PLAYER.format(god=god, player=player) for god, player in zip(e.gods, players, strict=True))
    return replace(e, players=players, gods=(), roles=(), notes=(*e.notes, *notes))


_GOD_AS_PLAYER = "{god} read as its player, {player}"
_GOD_AS_PLAYER_READ = re.compile(r"^(?P<god>.+) read as its player, (?P<player>.+)$")


def gods_read_as_players(assumptions: Sequence[str]) -> dict[str, str]:
    """player -> the god the question named them by (the notes `gods_as_players` wrote), so an answer can say both."""
    return {m["player"]: m["god"] for a in assumptions if (m := _GOD_AS_PLAYER_READ.match(a))}


def as_taker(r: Reading, e: Entities) -> tuple[Entities, tuple[str, ...]]:
    """'How many towers did order lose', 'chaos's towers that fell': the log counts an objective for the side that
    took it, so a side named as the owner of what fell is read as the other side; the reading is stated."""
    owners = [t for t in e.teams if t in r.owner_sides]
    if not owners:
        return e, ()
    teams = tuple(3 - t if t in owners else t for t in e.teams)
    notes = tuple(f"what team {t} lost read as what team {3 - t} took" for t in owners)
    return replace(e, teams=teams), notes


def _in(dimension: str, values: Sequence) -> Filter:
    return Filter(dimension=dimension, op="=" if len(values) == 1 else "in", values=tuple(values))


def entity_filters(e: Entities, allowed: Sequence[str]) -> tuple[list[Filter], list[str]]:
    filters: list[Filter] = []
    focus: list[str] = []
    if e.players and "player" in allowed:
        filters.append(_in("player", e.players))
        focus += e.players
    if e.teams and "team" in allowed:
        filters.append(_in("team", e.teams))
        focus += [f"team {t}" for t in e.teams]
    if e.roles and "role" in allowed:
        filters.append(_in("role", e.roles))
        focus += e.roles
    if e.gods and "god" in allowed:
        filters.append(_in("god", e.gods))
        focus += e.gods
    return filters, focus


# ---------------------------------------------------------------------------------------- the draft

@dataclass
class Draft:
    """A plan under construction; `finish` turns it into a frozen QueryPlan."""

    question: str
    intent: Intent
    metrics: tuple[str, ...]
    group_by: tuple[str, ...] = ()
    filters: list[Filter] = field(default_factory=list)
    window: TimeWindow | None = None
    windows: tuple[TimeWindow, ...] = ()
    order: PlanOrder = "desc"
    limit: int = 10
    focus: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    shape: PlanShape = "auto"
    position: int = 1


def finish(d: Draft) -> QueryPlan:
    assumptions = list(d.assumptions)
    metrics, filters = fit(d.metrics, d.group_by, list(d.filters), assumptions)
    plan = QueryPlan(question=d.question, intent=d.intent, metrics=metrics, group_by=d.group_by,
                     filters=tuple(filters), window=d.window, windows=d.windows, order=d.order, limit=d.limit,
                     focus=tuple(dict.fromkeys(d.focus)), assumptions=tuple(dict.fromkeys(assumptions)),
                     caveats=tuple(dict.fromkeys(d.caveats)), shape=d.shape, position=d.position)
    return plan.model_copy(update={"summary": summarize(plan)})


def fit(metrics: Sequence[str], group_by: Sequence[str], filters: list[Filter], assumptions: list[str]):
    """Keep only what the headline metric can be filtered by, and the extra metrics that fit the grouping."""
    head = metric(metrics[0])
    if not head.is_figure:
        return tuple(metrics), filters
    kept_filters = []
    for f in filters:
        if f.dimension in head.dimensions:
            kept_filters.append(f)
        else:
            assumptions.append(f"{head.label} cannot be narrowed by {DIMENSIONS[f.dimension].label}; that part was ignored")
    kept_filters = either_of_disjoint(kept_filters, assumptions)
    dims = (set(group_by) - {"period"}) | {f.dimension for f in kept_filters}
    kept_metrics = [metrics[0]]
    for extra in metrics[1:]:
        m = metric(extra)
        if m.is_figure and dims <= set(m.dimensions):
            kept_metrics.append(extra)
        else:
            assumptions.append(f"{m.label} left out: it cannot be split or filtered the same way")
    # the parts and base the headline is worked out from, so its sentence can name them
    kept_metrics += [b for b in head.shown_with if b not in kept_metrics and dims <= set(metric(b).dimensions)]
    return tuple(kept_metrics), kept_filters


def either_of_disjoint(filters: Sequence[Filter], assumptions: list[str]) -> list[Filter]:
    """Two readings that keep values of one dimension with none in common ("died to minions, or to gods": killer
    kind minion, and killer kind player) would keep no row at all, and the answer would be a zero nobody asked
    for: they are read as either, and said so.

    >>> either_of_disjoint([Filter(dimension="source_kind", values=("minion",)),
    ...                     Filter(dimension="source_kind", values=("player",))], [])
    [Filter(dimension='source_kind', op='in', values=('minion', 'player'))]
    """
    kept: list[Filter] = []
    for f in filters:
        twin = next((i for i, g in enumerate(kept) if g.dimension == f.dimension and g.op != "!=" and f.op != "!="
                     and not set(g.values) & set(f.values)), None)
        if twin is None:
            kept.append(f)
            continue
        values = tuple(dict.fromkeys((*kept[twin].values, *f.values)))
        kept[twin] = Filter(dimension=f.dimension, op="in", values=values)
        assumptions.append(f"{DIMENSIONS[f.dimension].label} {' or '.join(map(str, values))}: both were named and "
                           "no row can be both, so either is counted")
    return kept


def summarize(plan: QueryPlan) -> str:
    """The plan in plain words, for the report's methodology section and "I read this as"."""
    if plan.intent == Intent.REFUSE:
        return "Refused: " + (plan.refusal.reason if plan.refusal else "")
    labels = ", ".join(metric(m).label for m in plan.metrics)
    where = "; ".join(f"{DIMENSIONS[f.dimension].label} {'is' if f.op == '=' else f.op} "
                      + " or ".join(str(v) for v in f.values) for f in plan.filters)
    if plan.windows:
        when = " in " + " against ".join(f"the {w.label}" for w in plan.windows)
    else:
        when = f" in the {plan.window.label}" if plan.window else " over the whole match"
    by = " by " + " and ".join(DIMENSIONS[g].label for g in plan.group_by if g != "period") if [
        g for g in plan.group_by if g != "period"] else ""
    texts = {
        Intent.RANKING: f"Rank {labels}{by}{when}, {'highest' if plan.order == 'desc' else 'lowest'} first, top {plan.limit}",
        Intent.LOOKUP: f"Look up {labels}{by}{when}",
        Intent.COMPARISON: f"Compare {labels}{by}{when}",
        Intent.BREAKDOWN: f"Break down {labels}{by}{when}",
        Intent.TIMELINE: f"Show {labels} minute by minute{when}",
        Intent.EVENT_LIST: f"List {labels}{when}",
        Intent.BUILD_ORDER: f"List purchases in build order{when}",
    }
    text = texts[plan.intent] + (f" (where {where})" if where else "") + "."
    if plan.compare is not None and plan.focus:
        # the yes or no asked: "was team 1 ever ahead", "did Brisk have more than LunaSol"
        ahead, more = ("ahead", "more") if plan.compare == "more" else ("behind", "less")
        text += (f" Say yes or no: was {plan.focus[0]} ever {ahead}." if plan.metrics[:1] == ("gold_diff",) else
                 f" Say yes or no: did {plan.focus[0]} have {more} than {plan.focus[-1]}.")
    if plan.then is not None:
        text += " Then, for its first row: " + summarize(plan.then)
    return text
