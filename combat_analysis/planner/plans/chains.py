"""Kill chains in one match, defined in the question (`read.chains`): who had the most, a subject's count, the list
with times and victims, the match's total. One plan, metric `kill_chains`, with the chain in `QueryPlan.chain`; its
SQL is `catalog/kill_chains.sql` (compiled by `compile._kill_chains`) and its sentence `answer/match/chains.py`.

A question that names a multi-kill but gives no definition is left to `refusals`, which says how to ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from combat_analysis.catalog import chains as chain_rule
from combat_analysis.catalog import metric
from combat_analysis.contracts.plan import (
    Filter,
    Intent,
    KillChain,
    ManyMatches,
    PlanShape,
    QueryPlan,
    SeasonFigure,
)
from combat_analysis.contracts.selection import MatchSelection, describe
from combat_analysis.planner.plans import refusals
from combat_analysis.planner.read.chains import ChainReading, has_multi_word, read_chain
from combat_analysis.planner.read.reading import Reading, read_question
from combat_analysis.planner.read.yesno import asked_yes_no
from combat_analysis.planner.vocabulary import Vocabulary

# the subject with the most chains
_MOST = re.compile(r"\b(?:most|top|leaders?|leaderboard|board|leads?|led|highest|max(?:imum)?|best|more\s+than\s+anyone|"
                   r"rank(?:s|ed|ing|ings)?|(?:by|per|each|every)\s+player)\b", re.IGNORECASE)
# how many: a count, its chains listed after it
_COUNT = re.compile(r"\b(?:how\s+many|number\s+of|count|total|tally|in\s+all|altogether)\b", re.IGNORECASE)
_GROUPS = {"team": re.compile(r"\b(?:which|what|each|per|by|every)\s+(?:team|side)s?\b|\bteams?\s+with\s+the\s+most\b",
                              re.IGNORECASE),
           "role": re.compile(r"\b(?:which|what|each|per|by|every)\s+(?:role|position|lane)s?\b", re.IGNORECASE),
           "god": re.compile(r"\b(?:which|what|each|per|by|every)\s+(?:god|character|champion)s?\b", re.IGNORECASE)}


def _defined(question: str, text: str, vocab: Vocabulary) -> tuple[ChainReading, Reading] | QueryPlan | None:
    """The chain `text` defines and the reading of the rest of it; or the refusal of a multi-kill it leaves
    undefined, or of a rest that cannot be read; or None when it speaks of no chain."""
    found = read_chain(text)
    if found is None:
        return undefined_refusal(question, vocab) if has_multi_word(text) else None
    r = read_question(found.rest or "kills", vocab)
    refused = _refused(question, r, vocab)
    return (found, r) if refused is None else refused


def chain_plan(question: str, vocab: Vocabulary) -> QueryPlan | None:
    """The plan of a question about kill chains it defines, or None when it defines none."""
    read = _defined(question, question, vocab)
    if not isinstance(read, tuple):
        return read
    found, r = read
    filters = _filters(r)
    shape, group = _shape(found.rest)
    if shape == "leader":  # "did Brisk have the most": everyone ranked, the player named said beside the leader
        filters = tuple(f for f in filters if f.dimension != "player")
    plan = QueryPlan(question=question, intent=Intent.EVENT_LIST, metrics=("kill_chains",),
                     group_by=(group,) if group else (), filters=filters,
                     focus=tuple(dict.fromkeys([*r.players, *(str(v) for f in filters for v in f.values)])),
                     window=r.window, shape=shape,
                     limit=500, chain=found.chain, assumptions=(*r.assumptions, _read_as(found)),
                     # "did Brisk have the most chains ...": answered Yes or No first
                     compare="more" if shape == "leader" and len(r.players) == 1 and asked_yes_no(question) else None)
    return plan.model_copy(update={"summary": summary(plan, found.chain)})


# how to ask for kill chains, in words (a refusal shows no digit)
HOW_TO_ASK = ("how many kills by one player, each within how many seconds of the one before ('who had the most chains "
              "of three kills, each within ten seconds of the one before'), or all within that many seconds of the "
              "first ('three kills in ten seconds')")
CHAIN_SUGGESTIONS = ("Who had the most chains of three kills, each within ten seconds of the one before?",
                     "Who had the longest kill streak?")


def undefined_refusal(question: str, vocab: Vocabulary) -> QueryPlan:
    """A multi-kill asked with no definition: refused, saying the log defines none and how to ask."""
    near = refusals.suggestions(vocab, question, ("kills",))
    return refusals.refusal(question, "The combat log defines no multi-kill, so I will not guess what counts as one; "
                            f"multi-kills are answered when the question defines them: {HOW_TO_ASK}.",
                            tuple(dict.fromkeys((*CHAIN_SUGGESTIONS, *near)))[:3], (), ())


# figure words a chain question says anyway ("kills", "sprees", "kill list")
_CHAIN_FIGURES = frozenset({"kills", "kill_streaks", "kill_events"})


def _refused(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan | None:
    unread = refusals.unreadable_refusal(question, vocab, r)
    if unread is not None:
        return unread
    # a figure named outright beside the chains ("who got first blood and ..."); a loose word ("bursts") is no figure
    others = [h.metric_id for h in r.metric_hits if h.strength == "strong" and h.metric_id not in _CHAIN_FIGURES]
    if others:
        return refusals.refuse(question, vocab, "Kill chains are answered in a question of their own; ask about "
                               f"{metric(others[0]).label} separately, so no part of the question goes unanswered.",
                               r.assumptions)
    if len(r.windows) > 1:
        return refusals.refuse(question, vocab, "Kill chains are counted over one stretch of the match at a time; "
                               "ask about each window on its own.", r.assumptions)
    return None


def _filters(r: Reading) -> tuple[Filter, ...]:
    out = []
    players = tuple(dict.fromkeys(r.players))
    if players:
        out.append(Filter(dimension="player", op="=" if len(players) == 1 else "in", values=players))
    if r.gods and not players:
        out.append(Filter(dimension="god", op="=" if len(r.gods) == 1 else "in", values=tuple(r.gods)))
    teams = tuple(dict.fromkeys([*r.teams, *(t for t, _ in r.side_roles)]))
    roles = tuple(dict.fromkeys([*r.roles, *(role for _, role in r.side_roles)]))
    if teams and not players:
        out.append(Filter(dimension="team", op="=" if len(teams) == 1 else "in", values=teams))
    if roles and not players:
        out.append(Filter(dimension="role", op="=" if len(roles) == 1 else "in", values=roles))
    return tuple(out)


def _shape(rest: str) -> tuple[PlanShape, str | None]:
    """Who had the most (the leader, by player unless a team, role or god is asked for), how many (a count, its
    chains listed), or every chain listed."""
    group = next((dim for dim, words in _GROUPS.items() if words.search(rest)), None)
    if _MOST.search(rest) or group is not None:
        return "leader", group or "player"
    if _COUNT.search(rest):
        return "count", None
    return "all", None


def _read_as(found: ChainReading) -> str:
    words = "', '".join(found.said)
    return f"'{words}' read as kill chains: {chain_rule.said(found.chain)}"


def summary(plan: QueryPlan, chain: KillChain) -> str:
    who = ", ".join(f"{f.dimension} {'not ' if f.op == '!=' else ''}{'/'.join(map(str, f.values))}"
                    for f in plan.filters)
    what = {"leader": f"the {plan.group_by[0] if plan.group_by else 'player'} with the most", "all": "every one of",
            "count": "how many"}.get(plan.shape, "how many")
    return (f"Kill chains ({chain_rule.said(chain)}): {what} {chain_rule.name(chain)}"
            f"{' of ' + who if who else ''}"
            f"{' in the ' + plan.window.label + ' (chains wholly inside it)' if plan.window else ''}, with their times "
            "and victims.")


# --- across matches ---------------------------------------------------------------------------------------------

# the match with the most chains
_WHICH_MATCH = re.compile(r"\b(?:which|what)\s+(?:match|game)(?:es|s)?\b|\b(?:match|game)(?:es|s)?\s+with\s+the\s+most\b"
                          r"|\bmost\s+in\s+(?:one|a\s+single|a)\s+(?:match|game)\b|\b(?:per|by|each)\s+(?:match|game)\b",
                          re.IGNORECASE)
_BOARD_SUBJECTS = {"side": "team", "role": "role", "god": "god"}


def across(question: str, rest: str, vocab: Vocabulary,
           selection_of: Callable[[tuple[str, ...]], MatchSelection], words: tuple[str, ...] = ()) -> QueryPlan | None:
    """The cross-match plan of a question about kill chains it defines (`rest`: the question without its scope words):
    a board of players (sides, roles, gods) with their totals and games, a player's total, the match with the most,
    or the season's total; None when it defines none. `selection_of` gives the matches for the players named."""
    read = _defined(question, rest, vocab)
    if not isinstance(read, tuple):
        return read
    found, r = read
    if r.windows:
        return refusals.refusal(question, "Kill chains across matches are counted over whole matches; a time window "
                                "inside the matches is answered for one match at a time.",
                                ("Who had the most chains of three kills, each within ten seconds of the one before, "
                                 "across all matches?",), r.assumptions)
    players = tuple(dict.fromkeys(r.players))
    figure = _season_figure(found, r, players)
    intent = Intent.LOOKUP if figure.figure in ("profile", "season") else Intent.RANKING
    selection = selection_of(players)
    plan = QueryPlan(question=question, intent=intent, metrics=("kill_chains",), focus=players, chain=found.chain,
                     assumptions=(*r.assumptions, *(f"'{w}' read as the scope: which matches are counted" for w in words),
                                  _read_as(found)), season=figure,
                     scope=ManyMatches(selection=selection, words=words))
    return plan.model_copy(update={"summary": f"Kill chains across matches ({chain_rule.said(found.chain)}): "
                                              f"{_season_what(figure)}, over {describe(selection)}."})


def _season_figure(found: ChainReading, r: Reading, players: tuple[str, ...]) -> SeasonFigure:
    side = r.teams[0] if len(r.teams) == 1 else None
    role = r.roles[0] if len(r.roles) == 1 else None
    god = r.gods[0] if len(r.gods) == 1 and not players else None
    base: dict = {"metric": "kill_chains", "chain": found.chain, "side": side, "role": role, "god": god}
    if _WHICH_MATCH.search(found.rest):
        return SeasonFigure(figure="matches", players=players, **base)
    if len(players) == 1:
        return SeasonFigure(figure="profile", players=players, **base)
    group = next((dim for dim, words in _GROUPS.items() if words.search(found.rest)), None)
    subject = {"team": "side", "role": "role", "god": "god"}.get(group or "", "player")
    if players or group or _MOST.search(found.rest) or re.search(r"^\s*(?:who|whom|whose)\b|\bwho\b", found.rest,
                                                                 re.IGNORECASE):
        return SeasonFigure(figure="board", subject=subject, players=players, **base)  # type: ignore[arg-type]
    return SeasonFigure(figure="season", **base)


def _season_what(figure: SeasonFigure) -> str:
    return {"matches": "the matches ranked by their chains", "profile": f"{', '.join(figure.players)}'s chains",
            "board": f"a board of {figure.subject}s by their chains, with their games",
            "season": "every chain counted"}.get(figure.figure, "chains")
