"""The offline planner: a deterministic reading of a question into a `QueryPlan`, in a few milliseconds.

Reading order: names (players, gods, abilities, items, NPCs) are found and masked first, so a player called
"mid_or_feed" is never read as the mid role and a name full of SQL is never read as an attack; then hostile
text, out-of-scope topics, follow-ups, unknown names, dependent questions, and finally the intent, metrics,
grouping and filters of the reading (`reading.read_question`). Every reading that is not literal goes into `plan.assumptions`.

`plan_question` never raises for user text: anything it cannot answer becomes a REFUSE plan with a reason
and three answerable suggestions (which hold no digits, so a refusal never shows an invented number).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from combat_analysis.catalog import DIMENSIONS, metric
from combat_analysis.plan import Filter, Intent, QueryPlan, Refusal, TimeWindow
from combat_analysis.planner.entities import (
    COMMON_WORDS,
    fold,
)
from combat_analysis.planner.reading import (
    ASCENDING,
    BREAKDOWN,
    BUILD,
    COMPARE,
    DEPENDENT,
    FIRST_BLOOD,
    FOLLOW_UP_START,
    HOW_MANY,
    KILL_LIST,
    MATCH_FACTS,
    OBJECTIVE_LIST,
    OBJECTIVE_VALUES,
    OBJECTIVE_WORDS,
    PER_MINUTE,
    POSITIONS,
    PRONOUN,
    QUESTION_WORD,
    ROSTER,
    SCOREBOARD,
    SUPERLATIVE,
    TIMELINE,
    TOP_N,
    VICTIM,
    WHAT_HAPPENED,
    WINNER,
    Reading,
    find_metrics,
    group_cues,
    normalize,
    read_question,
)
from combat_analysis.planner.vocabulary import Vocabulary

MAX_QUESTION_CHARS = 500
MAX_HISTORY = 4
CORE_STATS = ("kda", "kills", "deaths", "assists", "damage_dealt", "gold")
PARAM_PLAYER = "$player"  # a player bound from an earlier query's first row

# ------------------------------------------------------------------------------------------ refusals

_HOSTILE = re.compile(
    r"""
    \b(drop|truncate)\s+(table|view|database|schema|macro|secret)\b
    | \bdelete\s+from\b | \binsert\s+into\b | \bupdate\s+\w+\s+set\b | \balter\s+table\b
    | \bcreate\s+(or\s+replace\s+)?(table|view|macro|function|secret|schema|temp)\b
    | \b(attach|detach)\s+(database\b|['"])| \bcopy\s+\w+\s+(to|from)\b | \bpragma\s+\w+
    | \b(install|load)\s+(extension\b|httpfs\b|\w+\s*;) | \bexport\s+database\b
    | ;\s*(--|/\*|select\b|drop\b|delete\b|insert\b|update\b|alter\b|create\b|attach\b|copy\b|pragma\b|
           install\b|load\b|set\b|truncate\b|shutdown\b|exec\b)
    | --\s*$ | /\* | \bunion\s+(all\s+)?select\b | \bselect\s+\* | \bselect\s+.+\s+from\s+\w+\s*(where|limit|order|group|join|;|$)
    | \bread_(csv|csv_auto|parquet|json|json_auto|json_objects|text|blob|ndjson)\b | \bglob\s*\( | \bparquet_scan\b
    | \bsniff_csv\b | \bquery_table\b | \bgetenv\s*\( | /etc/ | \bpasswd\b | \b(file|https?|s3|gs)://
    | \bos\.system\b | \b__import__\b | \bsubprocess\b | \brm\s+-rf\b | <script | \$\{ | \{\{ | \bxp_cmdshell\b
    | \bsleep\s*\( | \b1\s*=\s*1\b | '\s*or\s*' | \bor\s+'?\w+'?\s*=\s*'?\w+ | \bignore\s+(all\s+|any\s+)?(previous|prior|above)\s+instructions\b
    | \bsystem\s+prompt\b | \bsql\s+injection\b
    """,
    re.IGNORECASE | re.VERBOSE,
)

# (pattern, what the log does not hold); checked on the question with names masked.
_OUT_OF_SCOPE = [
    (r"\bweather\b|\brain(ing|y)?\b|\bsnow(ing)?\b|\btemperature\b|\bsunny\b|\bforecast\b", "the weather"),
    (r"\b(what|which)\s+rank\b|\brank(ed)?\s+(is|was|are|were|of)\b|\bcurrent\s+rank\b|\b(their|his|her|my|its)\s+rank\b"
     r"|\branked\s+(tier|division|ladder|points|rating|mode)\b|\bis\s+\S+\s+ranked\b|\b(elo|mmr|lp|ladder|division|"
     r"matchmaking|skill\s+rating|rating)\b|\btier\b", "ranks, ratings or matchmaking"),
    (r"\bwin\s*rates?\b|\bwinrates?\b|\bwin\s+percentage\b|\bseasons?\b|\bcareer\b|\ball[-\s]time\b|\bother\s+(matches|games)\b"
     r"|\bprevious\s+(matches|games)\b|\blast\s+(week|month|year)\b|\bhistory\b|\bacross\s+(matches|games)\b"
     r"|\bmatch\s+history\b|\blifetime\b", "other matches or seasons; it holds this one match"),
    (r"\bchat(ted|ting)?\b|\bvoice\b|\bsaid\b|\bsay\b|\bmessages?\b|\btyped\b|\btalk(ed|ing)?\b|\bping(ed|s)?\b|\bemote",
     "chat, voice or pings"),
    (r"\blore\b|\bbackstory\b|\bback\s+story\b|\bmytholog|\bpantheon\b|\blegend\s+of\b|\bstory\s+of\b|\bwho\s+is\s+(the\s+)?god\b",
     "a god's lore"),
    (r"\blag\b|\blatency\b|\bfps\b|\bframe\s*rate\b|\bconnection\b|\bdisconnect|\bserver\s+(region|location)\b|\bhardware\b",
     "network or hardware details"),
    (r"\bpatch\b|\bnerf|\bbuff(ed|s)?\b|\bmeta\b|\btier\s+list\b|\bshould\s+(i|we|he|she|they)\b|\brecommend|\bcounter\s+pick"
     r"|\bwhat\s+should\b|\bbest\s+build\s+for\b|\bguide\b|\btips?\b", "advice, patches or the meta"),
    (r"\b(cost|costs|price|prices|priced)\b|\bhow\s+much\s+(is|was|does|did)\s+(a|an|the)?\s*\S+\s+cost\b",
     "item prices (the number in a purchase line is not a cost)"),
    (r"\breal\s+name\b|\bage\b|\bhow\s+old\b|\bcountry\b|\bnationality\b|\bwhere\s+(does|do|is)\s+\S+\s+(live|from)\b"
     r"|\bstream(er|s|ing)?\b|\btwitch\b|\bphone\b|\bemail\b|\baddress\b|\bsalary\b", "anything about the people behind the names"),
    (r"\bskins?\b|\bcosmetics?\b|\bwallpaper\b", "cosmetics"),
    (r"\bmood\b|\bangry\b|\btilted\b|\bhappy\b|\bfeel(ing|s)?\b|\bemotion", "how anyone felt"),
    (r"\bstock\b|\bbitcoin\b|\bpresident\b|\bcapital\s+of\b|\brecipe\b|\bjoke\b|\bpoem\b|\bsong\b|\bwrite\s+(me\s+)?(a|an)\b"
     r"|\btranslate\b|\bcode\b|\bpython\b|\bjavascript\b", "anything outside this match"),
    (r"\bwhere\s+(is|was|were)\b.*\b(standing|positioned|located)\b|\bmap\s+position\b|\bwards?\b|\bvision\b",
     "positions in a form this planner can answer"),
    (r"\b(ability|skill)\s+(level|rank|order|points)\b|\blevel(ed)?\s+up\b|\bcooldowns?\b|\bhealth\s+bar\b",
     "ability levels, cooldowns, mana or health"),
]
_OUT_OF_SCOPE = [(re.compile(p, re.IGNORECASE), what) for p, what in _OUT_OF_SCOPE]

GENERIC_SUGGESTIONS = ("Who dealt the most damage?", "Which team won the match?", "Who got first blood?")


def _suggestions(vocab: Vocabulary) -> tuple[str, ...]:
    """Three answerable questions with no digits in them (a refusal must not show invented numbers)."""
    plain = [p.player for p in vocab.players if not any(c.isdigit() for c in p.player)]
    if plain:
        return (f"How much damage did {plain[0]} deal?", "Which team won the match?", "Who got first blood?")
    return GENERIC_SUGGESTIONS


def _refuse(question: str, vocab: Vocabulary, reason: str, assumptions: Sequence[str] = ()) -> QueryPlan:
    return QueryPlan(question=question, intent=Intent.REFUSE, refusal=Refusal(reason=reason, suggestions=_suggestions(vocab)),
                     assumptions=tuple(assumptions), summary="Refused: " + reason)


def _no_digits(text: str) -> str:
    return re.sub(r"\s{2,}", " ", re.sub(r"\d+", "", text)).strip()


# ------------------------------------------------------------------------------------------ planning

def plan_question(question: str, vocab: Vocabulary, previous: Sequence[str] = ()) -> QueryPlan:
    """The plan for one question, given the earlier questions of the session (oldest first)."""
    question = question if isinstance(question, str) else str(question)
    try:
        # a follow-up re-plans the questions before it; the last few are all a reading can lean on
        plan = _checked(_plan(question, vocab, tuple(str(p) for p in previous)[-MAX_HISTORY:]), vocab)
        if len(question.strip()) > MAX_QUESTION_CHARS and plan.intent != Intent.REFUSE:
            plan = plan.model_copy(update={"assumptions": (
                *plan.assumptions, "the question was very long; only its start was read")})
        return plan
    except Exception as error:  # noqa: BLE001 - user text must never crash the planner
        return _refuse(question, vocab, "This question cannot be answered from the combat log: "
                       + _no_digits(type(error).__name__ + " while planning") + ".")


def _checked(plan: QueryPlan, vocab: Vocabulary) -> QueryPlan:
    """Compile once so a plan that cannot become valid SQL turns into an honest refusal here."""
    from combat_analysis.planner.compile import PlanError, compile_plan

    if plan.intent == Intent.REFUSE:
        return plan
    try:
        compile_plan(plan, vocab)
    except PlanError as error:
        return _refuse(plan.question, vocab, "This question cannot be answered from the combat log as asked: "
                       + _no_digits(str(error)) + ".", plan.assumptions)
    return plan


def _plan(question: str, vocab: Vocabulary, previous: tuple[str, ...]) -> QueryPlan:
    text = question.strip()
    if not text:
        return _refuse(question, vocab, "The question is empty, so I cannot answer it.")
    if len(text) > MAX_QUESTION_CHARS:
        text = text[:MAX_QUESTION_CHARS]
    reading, mentions, masked = read_question(text, vocab)
    if _HOSTILE.search(masked):
        return _refuse(question, vocab, "This looks like SQL or a command rather than a question; I can't run "
                       "commands and only answer questions about the match.")
    for pattern, what in _OUT_OF_SCOPE:
        if pattern.search(normalize(masked)):
            return _refuse(question, vocab, f"The combat log does not record {what}, so this cannot be answered "
                           "from it.")
    if previous and _is_follow_up(reading, masked):
        followed = _follow_up(question, reading, vocab, previous)
        if followed is not None:
            return followed
    unknown = _unknown_name(masked, reading)
    if unknown:
        return _refuse(question, vocab, f"No player called '{_no_digits(unknown)}' is in this match, so this cannot be "
                       "answered from its combat log." if not any(c.isdigit() for c in unknown) else
                       "No player of that name is in this match, so this cannot be answered from its combat log.")
    if any("winner is unknown" in a for a in reading.assumptions):
        return _refuse(question, vocab, "No Titan fell in this match, so the combat log does not record a winner and "
                       "the winning or losing team cannot be named.", reading.assumptions)
    dependent = _dependent(question, reading, vocab)
    if dependent is not None:
        return dependent
    return _plan_reading(question, reading, vocab)


_NAME_SLOT = re.compile(
    r"\b(?:did|does|do|was|is|has|had|for|of|by|about|from)\s+([^\s?!,]+?)(?:'s)?\s+(?:deal|do|did|get|got|heal|earn|take|"
    r"have|had|build|buy|bought|die|kill|score|make|land|mitigate|use|play|perform|end|finish|KDA|kda|damage|dmg|gold|kills|"
    r"deaths|assists|healing|xp|experience|build|items)\b", re.IGNORECASE)
_NOT_NAMES = frozenset('''name the a an each every any anyone someone everyone team teams player players he she they it
his her their them him we you i me who which what that this both all enemy enemies jungle support mid middle carry adc solo
jungler hunter mage winners losers winning losing order chaos most top one two three first last total overall average
more less fewer much many some no enough high low best worst bottom biggest highest lowest least any all every
team's player's god gods role roles minions towers tower bosses structures jungle's support's carry's solo's mid's'''.split())


_GAMERTAG = re.compile(r"(?<![\w'])(?:[A-Za-z]+\d+[A-Za-z\d]*|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|\w+_\w+)(?![\w'])")
_NOT_GAMERTAGS = re.compile(r"^(?:team\s*\d|top\d+|k\d|q\d|NAME)$", re.IGNORECASE)


def _unknown_name(masked: str, reading: Reading) -> str | None:
    """A name that is nobody in this match: a word in a player's slot ("how much damage did Bob deal"), or
    anything shaped like a gamertag (digits, underscores, camel case) that matched no one."""
    for m in _GAMERTAG.finditer(masked):
        if not _NOT_GAMERTAGS.match(m.group(0)) and fold(m.group(0)) not in _NOT_NAMES:
            return m.group(0)
    if reading.players or reading.gods or reading.teams or reading.roles:
        return None
    m = _NAME_SLOT.search(masked)
    if not m:
        return None
    word = m.group(1)
    if (fold(word) in _NOT_NAMES or fold(word).rstrip("s") in _NOT_NAMES or fold(word) in COMMON_WORDS
            or re.fullmatch(r"team\s*\d", word, re.I)):
        return None
    return word


def _player_filter(names: Sequence[str]) -> Filter:
    return Filter(dimension="player", op="=" if len(names) == 1 else "in", values=tuple(names))


def _team_role_players(reading: Reading, vocab: Vocabulary) -> list[str]:
    """'the team 1 support' names one player; resolve it so the plan is about that player."""
    if len(reading.teams) == 1 and len(reading.roles) == 1:
        found = vocab.players_where(team=reading.teams[0], role=reading.roles[0])
        if len(found) == 1:
            return [found[0].player]
    return []


def _plan_reading(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan:
    text = r.text
    assumptions = list(r.assumptions)
    filters: list[Filter] = []
    focus: list[str] = []

    resolved = [] if r.players else _team_role_players(r, vocab)
    if resolved:
        assumptions.append(f"the team {r.teams[0]} {r.roles[0].lower()} read as {resolved[0]}")
    players = r.players or resolved
    teams, roles = ([], []) if resolved else (r.teams, r.roles)

    def entity_filters(allowed: Sequence[str]) -> None:
        if players and "player" in allowed:
            filters.append(_player_filter(players))
            focus.extend(players)
        if teams and "team" in allowed:
            filters.append(Filter(dimension="team", op="=" if len(teams) == 1 else "in", values=tuple(teams)))
            focus.extend(f"team {t}" for t in teams)
        if roles and "role" in allowed:
            filters.append(Filter(dimension="role", op="=" if len(roles) == 1 else "in", values=tuple(roles)))
            focus.extend(roles)
        if r.gods and not players and "god" in allowed:
            filters.append(Filter(dimension="god", op="=" if len(r.gods) == 1 else "in", values=tuple(r.gods)))
            focus.extend(r.gods)

    # ---- event lists
    figures = [m for m in r.metrics if metric(m).is_figure]
    if "match_info" in r.metrics or (MATCH_FACTS.search(text) and not figures):
        return _finish(question, Intent.EVENT_LIST, ("match_info",), (), [], None, "asc", 1, [], assumptions)
    if "roster" in r.metrics or (ROSTER.search(text) and not figures):
        entity_filters(("player", "team", "role", "god"))
        return _finish(question, Intent.EVENT_LIST, ("roster",), (), filters, None, "asc", 500, focus, assumptions)
    if WHAT_HAPPENED.search(text) and not figures:
        window = r.window
        if r.at_minute is not None:
            window = TimeWindow(label=f"during minute {r.at_minute}", start_s=60 * r.at_minute, end_s=60 * r.at_minute + 60)
            assumptions = [a for a in assumptions if not a.startswith("'at")]
        assumptions.append("'what happened' read as the player kills")
        entity_filters(("player", "team"))
        return _finish(question, Intent.EVENT_LIST, ("kill_events",), (), filters, window, "asc", 500, focus, assumptions)
    if FIRST_BLOOD.search(text) and not HOW_MANY.search(text):
        return _finish(question, Intent.EVENT_LIST, ("first_blood",), (), [], r.window, "desc", 1, [], assumptions)
    if _winner_question(text, r):
        return _finish(question, Intent.EVENT_LIST, ("winner",), (), [], None, "desc", 1, [], assumptions)
    objective_values = [v for v, pat in OBJECTIVE_VALUES if re.search(rf"\b{pat}\b", text)]
    damage_metric = any(m.startswith("damage") for m in r.metrics)
    # "towers by team" / "items bought per role" ask for counts per group, not the event rows
    per_group = bool({"team", "role", "god"} & set(r.groups))
    if (OBJECTIVE_WORDS.search(text) and OBJECTIVE_LIST.search(text) and not HOW_MANY.search(text)
            and not SUPERLATIVE.search(text) and not damage_metric and not per_group):
        entity_filters(("player", "team"))
        if objective_values:
            filters.append(Filter(dimension="objective", op="=" if len(objective_values) == 1 else "in",
                                  values=tuple(objective_values)))
        return _finish(question, Intent.EVENT_LIST, ("objective_events",), (), filters, r.window, "asc", 500, focus,
                       assumptions)
    if POSITIONS.search(text) and not HOW_MANY.search(text) and not SUPERLATIVE.search(text):
        entity_filters(("player", "team"))
        assumptions.append("'where' read as the map positions of the player kills")
        return _finish(question, Intent.EVENT_LIST, ("kill_events",), (), filters, r.window, "asc", 500, focus, assumptions)
    if KILL_LIST.search(text) and not HOW_MANY.search(text) and not SUPERLATIVE.search(text):
        entity_filters(("player", "team"))
        return _finish(question, Intent.EVENT_LIST, ("kill_events",), (), filters, r.window, "asc", 500, focus, assumptions)
    metrics = list(r.metrics)
    item_breakdown = ("item" in r.groups and not players) or (per_group and "items_purchased" in r.metrics)
    if (BUILD.search(text) and not HOW_MANY.search(text) and not SUPERLATIVE.search(text) and not item_breakdown
            and not [m for m in metrics if m not in ("items_purchased", "build")]):
        entity_filters(("player", "team", "role", "god"))
        if r.items:
            filters.append(Filter(dimension="item", op="=" if len(r.items) == 1 else "in", values=tuple(r.items)))
            focus.extend(r.items)
        return _finish(question, Intent.BUILD_ORDER, ("build",), (), filters, r.window, "asc", 500, focus, assumptions)

    # ---- figures
    metrics = [m for m in metrics if metric(m).is_figure or metric(m).kind == "gold_diff"]
    if not metrics and {"ability", "target_kind", "phase"} & set(r.groups):
        metrics = ["damage_dealt"]
        assumptions.append("no figure named: showing damage dealt")
    if not metrics and "item" in r.groups:
        metrics = ["items_purchased"]
    if not metrics:
        if (players or teams or roles or r.gods) or SCOREBOARD.search(text):
            metrics = list(CORE_STATS)
            assumptions.append("no figure named: showing the core stats (KDA, kills, deaths, assists, damage, gold)")
        elif (r.abilities or {"ability", "target_kind", "phase"} & set(r.groups)) and not r.metrics:
            metrics = ["damage_dealt"]
            assumptions.append("no figure named: showing damage dealt")
        elif "item" in r.groups:
            metrics = ["items_purchased"]
        else:
            return _refuse(question, vocab, "I can't find a figure from the combat log in this question; it records "
                           "damage, healing, kills, gold, experience, crowd control, purchases and objectives.",
                           assumptions)
    if "gold_diff" in metrics:
        return _gold_diff_plan(question, r, assumptions)
    if re.search(r"\b(average|avg|mean|median)\b", text):
        assumptions.append("averages are not computed: the figures are totals (ratios stay ratios)")

    timeline = bool(TIMELINE.search(text)) or bool(PER_MINUTE.search(text)) and not ({"gpm", "dpm"} & set(metrics))
    if timeline:
        metrics = [{"gpm": "gold", "dpm": "damage_dealt", "kda": "kills"}.get(m, m) for m in metrics]
        metrics = list(dict.fromkeys(metrics))

    head = metric(metrics[0])
    allowed = head.dimensions
    groups = [g for g in r.groups if g in allowed]
    superlative = bool(SUPERLATIVE.search(text)) or head.aggregation == "max" and not (players or teams or roles)
    order = "asc" if ASCENDING.search(text) else "desc"
    limit = _top_n(text)
    compare = bool(COMPARE.search(text))

    if r.abilities and "ability" in allowed:
        filters.append(Filter(dimension="ability", op="=" if len(r.abilities) == 1 else "in", values=tuple(r.abilities)))
        focus.extend(r.abilities)
    if r.items and "item" in allowed:
        filters.append(Filter(dimension="item", op="=" if len(r.items) == 1 else "in", values=tuple(r.items)))
        focus.extend(r.items)
    elif r.items and "ability" in allowed:
        procs = [i for i in r.items if i in vocab.abilities]
        if procs:
            filters.append(Filter(dimension="ability", op="=" if len(procs) == 1 else "in", values=tuple(procs)))
            focus.extend(procs)
    objective_filter = [v for v in objective_values if head.id == "objectives_taken"]
    if objective_filter:
        filters.append(Filter(dimension="objective", op="=" if len(objective_filter) == 1 else "in",
                              values=tuple(objective_filter)))

    victim = _victim(text, players, r)
    if victim and "victim" in allowed:
        players = [p for p in players if p != victim]
        filters.append(Filter(dimension="victim", values=(victim,)))
        assumptions.append(f"{victim} read as the victim of the kills")
    if timeline:
        series = []
        if len(players) > 0 or "player" in groups and not (teams or roles):
            series = ["player"] if "player" in allowed else []
        elif "role" in groups or roles:
            series = ["role"]
        elif "god" in groups or r.gods:
            series = ["god"]
        elif "team" in allowed:
            series = ["team"]
        series = [d for d in series if d in allowed] or (["team"] if "team" in allowed else [])
        entity_filters(allowed)
        group_by = tuple(["minute"] + series) if "minute" in allowed else ()
        if not group_by:
            return _refuse(question, vocab, f"The combat log cannot give {head.label} minute by minute.", assumptions)
        return _finish(question, Intent.TIMELINE, tuple(metrics), group_by, filters, r.window, "asc", 500, focus,
                       assumptions)

    event_groups = [g for g in groups if DIMENSIONS[g].level == "event" and g != "minute"]
    roster_groups = [g for g in groups if g in ("role", "god", "team")]
    many_players, many_teams = len(players) > 1, len(teams) > 1

    if event_groups:
        group_by = (event_groups[0],)
        entity_filters(allowed)
        breakdown = bool(BREAKDOWN.search(text)) and not superlative
        intent = Intent.BREAKDOWN if breakdown or not superlative else Intent.RANKING
        return _finish(question, intent, tuple(metrics), group_by, filters, r.window, order,
                       limit or (10 if intent == Intent.RANKING else 500), focus, assumptions)
    if compare or many_players or many_teams or (roster_groups and not superlative):
        if many_players or (players and compare):
            group_by = ("player",)
        elif many_teams or "team" in roster_groups or (compare and teams):
            group_by = ("team",)
            teams = [t for t in teams] if len(teams) > 1 else []
        elif roster_groups:
            group_by = (roster_groups[0],)
        elif compare and roles:
            group_by = ("player",)
        else:
            group_by = ("player",)
        if group_by == ("team",) and not teams:
            entity_filters(tuple(d for d in allowed if d != "team"))
        else:
            entity_filters(allowed)
        if len(group_by) == 1 and group_by[0] not in allowed:
            return _refuse(question, vocab, f"The combat log cannot split {head.label} by {group_by[0]}.", assumptions)
        return _finish(question, Intent.COMPARISON, tuple(metrics), group_by, filters, r.window, order, 500, focus,
                       assumptions)
    if superlative:
        dim = roster_groups[0] if roster_groups else "player"
        if dim not in allowed:
            dim = "player"
        if players and dim == "player":
            # "what was LunaSol's highest hit" asks for one figure, not a ranking
            entity_filters(allowed)
            return _finish(question, Intent.LOOKUP, tuple(metrics), ("player",), filters, r.window, order, 10, focus,
                           assumptions)
        entity_filters(tuple(d for d in allowed if d != dim))
        return _finish(question, Intent.RANKING, tuple(metrics), (dim,), filters, r.window, order, limit or 10, focus,
                       assumptions)
    # lookup: one figure for one entity or the whole match
    group_by: tuple[str, ...] = ()
    if players:
        group_by = ("player",)
    elif r.gods and "god" in allowed:
        group_by = ("god",)
    elif roles and "role" in allowed:
        group_by = ("role",) if not teams else ("team", "role")
    elif teams:
        group_by = ("team",)
    elif "player" in groups and not HOW_MANY.search(text) and "player" in allowed:
        return _finish(question, Intent.RANKING, tuple(metrics), ("player",), filters, r.window, order, limit or 10, focus,
                       assumptions)
    entity_filters(allowed)
    if metrics == list(CORE_STATS) and not group_by:
        return _finish(question, Intent.RANKING, tuple(metrics), ("player",), filters, r.window, order, 10, focus,
                       assumptions)
    return _finish(question, Intent.LOOKUP, tuple(metrics), group_by, filters, r.window, order, 10, focus, assumptions)


def _victim(text: str, players: list[str], r: Reading) -> str | None:
    """'how many times did Brisk kill VoidWalker': the name right after the kill verb is the victim."""
    m = VICTIM.search(text)
    if not m or not r.players:
        return None
    index = len(re.findall(r"\bname\b", text[:m.end()])) - 1
    return r.players[index] if 0 <= index < len(r.players) else None


def _winner_question(text: str, r: Reading) -> bool:
    if not WINNER.search(text):
        return False
    if r.metrics and any(metric(m).is_figure for m in r.metrics):
        return False  # "which team won more fights"/"gold of the winning team" are figures
    return not re.search(r"\b(won|win|wins)\s+(?:the\s+)?(most|more)\b", text)


def _top_n(text: str) -> int | None:
    m = TOP_N.search(text)
    if not m:
        return None
    words = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}
    n = words.get(m.group(1)) or int(m.group(1))
    return max(1, min(n, 100))


def _gold_diff_plan(question: str, r: Reading, assumptions: list[str]) -> QueryPlan:
    if r.at_minute is not None:
        filters = [Filter(dimension="minute", values=(r.at_minute,))]
        assumptions = [a for a in assumptions if not a.startswith("'at")]
        return _finish(question, Intent.LOOKUP, ("gold_diff",), ("minute",), filters, None, "asc", 1, [], assumptions)
    return _finish(question, Intent.TIMELINE, ("gold_diff",), ("minute",), [], r.window, "asc", 500, [], assumptions)


def _fit(metrics: tuple[str, ...], group_by: tuple[str, ...], filters: list[Filter], assumptions: list[str]):
    """Keep only what the headline metric can be filtered by, and the extra metrics that fit the grouping."""
    head = metric(metrics[0])
    if not head.is_figure:
        return metrics, filters
    kept_filters = []
    for f in filters:
        if f.dimension in head.dimensions:
            kept_filters.append(f)
        else:
            assumptions.append(f"{head.label} cannot be narrowed by {DIMENSIONS[f.dimension].label}; that part was ignored")
    dims = set(group_by) | {f.dimension for f in kept_filters}
    kept_metrics = [metrics[0]]
    for extra in metrics[1:]:
        m = metric(extra)
        if m.is_figure and dims <= set(m.dimensions):
            kept_metrics.append(extra)
        else:
            assumptions.append(f"{m.label} left out: it cannot be split or filtered the same way")
    return tuple(kept_metrics), kept_filters


def _finish(question: str, intent: Intent, metrics: tuple[str, ...], group_by: tuple[str, ...], filters: list[Filter],
            window: TimeWindow | None, order: str, limit: int, focus: list[str], assumptions: list[str]) -> QueryPlan:
    assumptions = list(assumptions)
    metrics, filters = _fit(metrics, group_by, list(filters), assumptions)
    plan = QueryPlan(question=question, intent=intent, metrics=metrics, group_by=group_by, filters=tuple(filters),
                     window=window, order=order, limit=limit, focus=tuple(dict.fromkeys(focus)),
                     assumptions=tuple(dict.fromkeys(assumptions)))
    return plan.model_copy(update={"summary": summarize(plan)})


def summarize(plan: QueryPlan) -> str:
    """The plan in plain words, for the report's methodology section."""
    if plan.intent == Intent.REFUSE:
        return "Refused: " + (plan.refusal.reason if plan.refusal else "")
    labels = ", ".join(metric(m).label for m in plan.metrics)
    where = "; ".join(f"{DIMENSIONS[f.dimension].label} {'is' if f.op == '=' else f.op} "
                      + " or ".join(str(v) for v in f.values) for f in plan.filters)
    when = f" in the {plan.window.label}" if plan.window else " over the whole match"
    by = " by " + " and ".join(DIMENSIONS[g].label for g in plan.group_by) if plan.group_by else ""
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
    if plan.then is not None:
        text += " Then, for its first row: " + summarize(plan.then)
    return text


# ------------------------------------------------------------------------------- dependent questions

def _dependent(question: str, r: Reading, vocab: Vocabulary) -> QueryPlan | None:
    """'what abilities did the top damage dealer use': rank first, then ask about the leader."""
    m = DEPENDENT.search(r.text)
    if not m:
        return None
    phrase = next(g for g in m.groups() if g is not None)
    leader_metrics, notes = find_metrics(normalize(m.group(0)))
    if phrase == "mvp":
        leader_metrics, notes = ["kda"], ["'the MVP' read as the player with the best KDA"]
    if not leader_metrics or not metric(leader_metrics[0]).is_figure:
        return None
    rest_text = (r.text[:m.start()] + " NAME " + r.text[m.end():]).strip()
    rest_metrics, rest_notes = find_metrics(rest_text)
    child_reading = replace(r, text=normalize(rest_text), players=[PARAM_PLAYER], metrics=rest_metrics,
                            groups=[g for g in group_cues(normalize(rest_text)) if g != "player"],
                            assumptions=list(r.assumptions) + rest_notes)
    if not rest_metrics and not BUILD.search(rest_text) and not child_reading.groups:
        return None  # "who is the top damage dealer" is a plain ranking
    child = _plan_reading(question, child_reading, vocab)
    if child.intent == Intent.REFUSE:
        return None
    leader = metric(leader_metrics[0])
    parent = _finish(question, Intent.RANKING, (leader.id,), ("player",), [], r.window, "desc", 1, [],
                     list(r.assumptions) + notes + [f"'{m.group(0).strip()}' read as the player with the most {leader.label}"])
    parent = parent.model_copy(update={"then": child, "bind": {"player": "player"}})
    return parent.model_copy(update={"summary": summarize(parent)})


# --------------------------------------------------------------------------------------- follow-ups

def _is_follow_up(r: Reading, masked: str) -> bool:
    words = r.text.split()
    if FOLLOW_UP_START.search(r.text) or PRONOUN.search(r.text):
        return True
    has_subject = bool(r.metrics) and bool(QUESTION_WORD.search(r.text))
    return len(words) <= 4 and not has_subject


def _follow_up(question: str, r: Reading, vocab: Vocabulary, previous: tuple[str, ...]) -> QueryPlan | None:
    try:
        base = _plan(previous[-1], vocab, previous[:-1])  # unchecked: only its reading is reused
    except Exception:  # noqa: BLE001 - an earlier question that cannot be read leaves this one standalone
        return None
    if base.intent == Intent.REFUSE:
        return None
    primary = base
    while primary.then is not None:
        primary = primary.then
    note = f"follow-up to '{_clip(base.question)}'"
    pronoun = bool(PRONOUN.search(r.text))
    changes: dict = {}
    filters = list(primary.filters)
    assumptions = list(primary.assumptions) + [note] + list(r.assumptions)

    new_players = [p for p in r.players if p != PARAM_PLAYER]
    if pronoun and not new_players and base.then is not None and base.bind:
        # "and his KDA?" after "what did the top fragger build": same leader, new question about them
        child = _plan_reading(question, replace(r, players=[PARAM_PLAYER]), vocab)
        if child.intent != Intent.REFUSE:
            leader = base.model_copy(update={"question": question, "then": child,
                                             "assumptions": tuple(dict.fromkeys((*base.assumptions, note)))})
            return leader.model_copy(update={"summary": summarize(leader)})
    if pronoun and not new_players:
        # "he/his" is the previous question's one player, or the leader of its ranking
        previous_players = [f.values for f in primary.filters if f.dimension == "player"]
        if previous_players and len(previous_players[0]) == 1:
            new_players = [str(previous_players[0][0])]
        elif primary.intent == Intent.RANKING and primary.group_by == ("player",):
            child = _plan_reading(question, replace(r, players=[PARAM_PLAYER]), vocab)
            if child.intent == Intent.REFUSE or not child.metrics:
                child = _rebase(primary, players=[PARAM_PLAYER])
            leader = primary.model_copy(update={"limit": 1, "then": child, "bind": {"player": "player"},
                                                "assumptions": tuple(assumptions + ["'he/she' read as the leader of the "
                                                                                    "previous ranking"])})
            return leader.model_copy(update={"summary": summarize(leader)})

    metrics = tuple(m for m in r.metrics if metric(m).is_figure) or primary.metrics
    if r.metrics and metrics != primary.metrics and primary.intent not in (Intent.EVENT_LIST, Intent.BUILD_ORDER):
        changes["metrics"] = metrics
        assumptions.append("same question with " + ", ".join(metric(m).label for m in metrics))
    plan = primary
    adding = (bool(COMPARE.search(r.text)) or bool(re.match(r"\s*(vs\.?|versus|compare)\b", r.text))) and \
        len(new_players) + len(r.teams) == 1
    if adding:
        # "compare with team 2": the new entities join the previous ones
        previous_players = [v for f in primary.filters if f.dimension == "player" for v in f.values]
        previous_teams = [v for f in primary.filters if f.dimension == "team" for v in f.values]
        if new_players:
            new_players = list(dict.fromkeys([*map(str, previous_players), *new_players]))
        elif r.teams:
            r = replace(r, teams=list(dict.fromkeys([*previous_teams, *r.teams])))
    if new_players:
        filters = [f for f in filters if f.dimension not in ("player", "team", "role", "god")]
        filters.append(_player_filter(new_players))
        changes["focus"] = tuple(new_players)
        if len(new_players) > 1:
            changes.update(intent=Intent.COMPARISON, group_by=("player",), limit=500)
        elif plan.intent == Intent.RANKING and plan.group_by == ("player",):
            changes["intent"] = Intent.LOOKUP
        elif plan.intent in (Intent.RANKING, Intent.LOOKUP, Intent.COMPARISON) and plan.group_by != ("player",) and \
                plan.group_by and plan.group_by[0] in ("team", "role", "god"):
            changes["group_by"] = ("player",)
            changes["intent"] = Intent.LOOKUP if len(new_players) == 1 else Intent.COMPARISON
    elif r.teams:
        filters = [f for f in filters if f.dimension not in ("team", "player")]
        filters.append(Filter(dimension="team", op="=" if len(r.teams) == 1 else "in", values=tuple(r.teams)))
        changes["focus"] = tuple(f"team {t}" for t in r.teams)
        if plan.group_by == ("player",) and plan.intent == Intent.LOOKUP:
            changes["group_by"] = ("team",)
        if len(r.teams) > 1:
            changes.update(intent=Intent.COMPARISON, group_by=("team",), limit=500)
    elif r.roles:
        filters = [f for f in filters if f.dimension not in ("role", "player")]
        filters.append(Filter(dimension="role", values=(r.roles[0],)))
        changes["focus"] = (r.roles[0],)
        if plan.intent == Intent.LOOKUP and plan.group_by == ("player",):
            changes["group_by"] = ("role",)
    if r.window is not None:
        changes["window"] = r.window
    elif re.search(r"\b(whole|entire|full)\s+(match|game)\b|\boverall\b", r.text):
        changes["window"] = None
    changes["filters"] = tuple(filters)
    if PER_MINUTE.search(r.text) or TIMELINE.search(r.text):
        base_metrics = changes.get("metrics", plan.metrics)
        timeline_metrics = tuple(dict.fromkeys({"gpm": "gold", "dpm": "damage_dealt", "kda": "kills"}.get(m, m)
                                               for m in base_metrics))
        series = [g for g in plan.group_by if g in ("player", "team", "role", "god")][:1]
        if not series:
            series = ["team"]
        changes.update(intent=Intent.TIMELINE, metrics=timeline_metrics, group_by=("minute", *series), order="asc",
                       limit=500)
    if ASCENDING.search(r.text):
        changes["order"] = "asc"
    elif re.search(r"\b(most|highest|best|top)\b", r.text):
        changes["order"] = "desc"
    if TOP_N.search(r.text):
        changes["limit"] = _top_n(r.text)
    if not changes.keys() - {"filters"} and tuple(filters) == primary.filters:
        return None  # nothing to carry over: plan the question on its own
    fitted_metrics, fitted_filters = _fit(changes.get("metrics", plan.metrics), changes.get("group_by", plan.group_by),
                                          list(changes["filters"]), assumptions)
    changes.update(metrics=fitted_metrics, filters=tuple(fitted_filters))
    changes["assumptions"] = tuple(dict.fromkeys(assumptions))
    changes["question"] = question
    changes["then"] = None
    changes["bind"] = {}
    plan = plan.model_copy(update=changes)
    plan = QueryPlan.model_validate(plan.model_dump())
    return plan.model_copy(update={"summary": summarize(plan)})


def _rebase(plan: QueryPlan, players: list[str]) -> QueryPlan:
    filters = [f for f in plan.filters if f.dimension != "player"] + [_player_filter(players)]
    return plan.model_copy(update={"intent": Intent.LOOKUP, "filters": tuple(filters), "limit": 10})


def _clip(text: str, size: int = 60) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"
