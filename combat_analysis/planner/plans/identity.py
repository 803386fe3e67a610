"""Who a subject was in the match: a player's (or a god's, a role's, a side's) row of the roster, with its team, role
and god, asked with a verb of playing or a word for the role or the god ("what did X play", "which god was X on",
"X's lane", "what position and god did the zeus have").

`asked` says whether a question asks only that (the roster, `events.roster`); `beside_figure` and `with_identity` give
the roster's row as a part after a figure asked with it ("X's role and kda": the KDA, then who X was).
"""

from __future__ import annotations

import re
from dataclasses import replace

from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.planner.plans.cues import IDENTITY, IDENTITY_NOUN
from combat_analysis.planner.plans.draft import (
    LIST_LIMIT,
    ROSTER_DIMS,
    Draft,
    Entities,
    entity_filters,
    finish,
)
from combat_analysis.planner.read.reading import Reading

# a lane opponent is someone else; how well a subject played is its figures
_OPPONENT = re.compile(r"\b(?:opponents?|against|versus|vs|matchups?|facing|faced)\b")
_NOT_IDENTITY = re.compile(rf"\bhow\b|{_OPPONENT.pattern}")


def asked(r: Reading, e: Entities) -> bool:
    """Who a named subject was, asked with a verb of playing or a word for the role or the god, and nothing else: no
    figure, no event, no grouping but the roster's, no ability or item, and not how well."""
    return bool(e.any and not r.metrics and set(r.groups) <= set(ROSTER_DIMS) and not (r.items or r.abilities)
                and IDENTITY.search(r.text) and not _NOT_IDENTITY.search(r.text))


# a word for the role or the god tied to the subject said: "name's lane", "name role", "the lane of name", "her god",
# "what lane was he", "..., kills and role", never a grouping ("damage by role", "per god", "which god dealt the most")
_OWNED_NOUN = re.compile(rf"\b(?:name(?:'s|s)?|his|her|their|its)\s+(?:own\s+)?{IDENTITY_NOUN}\b"
                         rf"|\b{IDENTITY_NOUN}\s+(?:of|for)\s+name\b"
                         rf"|\b(?:what|which)\s+{IDENTITY_NOUN}\s+(?:was|is|did|does)\s+(?:name|he|she|it|they|that)\b"
                         # one more item of a list of the subject's: "name's damage, kills and role"
                         rf"|(?:,|\band|&|\+)\s+(?:(?:his|her|their|the)\s+)?{IDENTITY_NOUN}\s*(?:[?.!]|$)")


def beside_figure(r: Reading, e: Entities) -> Reading | None:
    """A figure asked together with who its one subject was ("X's role and kda", "how much gold did the zeus earn and
    what lane was it"): the reading of the figure alone (the role or god said there is no grouping), after which the
    roster's row of the subject is a part (`with_identity`). None when the question asks no such thing."""
    owned = _OWNED_NOUN.search(r.text)
    if not r.metrics or not (len(e.players) == 1 or len(e.gods) == 1) or _OPPONENT.search(r.text) or not owned:
        return None
    if re.match(r"\S*\s*(?:\w+\s+)?positions?\b", owned.group(0).split(None, 1)[-1]) \
            and {"kills", "deaths"} & set(r.metrics):
        return None  # "what position did she die in": where on the map, which the kill positions say
    return replace(r, groups=tuple(g for g in r.groups if g not in ("role", "god")))


def with_identity(question: str, e: Entities, plan: QueryPlan) -> QueryPlan:
    """The plan of a figure, then the roster's row of its one subject as a part."""
    if plan.intent == Intent.REFUSE or plan.parts:
        return plan
    filters, focus = entity_filters(Entities(players=e.players, gods=e.gods), ROSTER_DIMS)
    who = finish(Draft(question, Intent.EVENT_LIST, ("roster",), filters=filters, order="asc", limit=LIST_LIMIT,
                       focus=focus))
    return plan.model_copy(update={"parts": (who,), "summary": f"{plan.summary} Part 2: {who.summary}"})
