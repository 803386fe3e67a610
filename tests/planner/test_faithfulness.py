"""Faithfulness: per intent, a question with a qualifier is answered with it applied, or answered with the
reading stated in the direct answer ("I read this as ..."), or refused. It never silently becomes a
different question, and a real-world question never gets a number."""

from __future__ import annotations

import re

import pytest

from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.formatting import percent
from combat_analysis.planner import plan_question
from tests.support.planner import sample_vocabulary
from tests.support.stages import ask_sample

VOCAB = sample_vocabulary()


def _filters(plan: QueryPlan) -> dict[str, tuple]:
    step = plan
    while step.then is not None:
        step = step.then
    return {f.dimension: f.values for f in step.filters}


def outcome(plan: QueryPlan) -> str:
    if plan.intent == Intent.REFUSE:
        return "refused"
    return "flagged" if plan.caveats else "answered"


# (question, intent it asks for, what must happen: applied(check) / flagged / refused)
CASES = [
    # ranking
    ("who died the most to the jungle camps", "applied", lambda p: _filters(p).get("source_kind") == ("jungle",)),
    ("who died to towers the most", "applied", lambda p: _filters(p).get("source") == ("Chaos Tower", "Order Tower")),
    ("who had the most kills while invisible", "flagged", None),
    ("who had the most kills with a pentakill", "refused", None),  # no multi-kill is defined: never plain kills
    ("which player did the most damage to godz", "applied", lambda p: p.metrics[0] == "damage_to_players"),
    # the log's killing blows on minions (the kills count only those on players)
    ("who killed the most minions", "applied", lambda p: p.metrics[0] == "minion_kills"),
    # lookup
    ("how much damage did Brisk deal while invisible", "flagged", None),
    ("how much damage did Brisk deal to VoidWalker", "applied", lambda p: _filters(p).get("target") == ("VoidWalker",)),
    ("how many times did Brisk kill VoidWalker", "applied", lambda p: _filters(p).get("victim") == ("VoidWalker",)),
    ("how much damage did LunaSol take from towers", "applied",
     lambda p: _filters(p).get("source_kind") == ("structure",)),
    ("how much damage did the Fire Giant do", "applied",
     lambda p: p.metrics == ("npc_damage",) and _filters(p).get("source") == ("Fire Giant",)),
    ("which player dealt the most damage with basic attacks", "applied",
     lambda p: all(a.endswith("Basic Attack") for a in _filters(p).get("ability", ("x",)))),
    # comparison
    ("compare the gold team 1 and team 2 got from jungle camps", "flagged", None),
    # breakdown
    ("break down VoidWalker's damage by ability while stealthed", "flagged", None),
    # timeline
    ("show gold over time for each team during the siege", "flagged", None),
    # event lists
    ("who got first blood in the jungle", "flagged", None),
    ("which team won the lottery", "refused", None),
    ("which team won the raffle", "refused", None),
    ("which team won the coin toss", "refused", None),
    # build order
    ("what did PapiTacos build after his second recall", "flagged", None),
    # real-world questions about things in the match
    ("what does the Fire Giant weigh", "refused", None),
    ("how tall is VoidWalker", "refused", None),
    ("what is VoidWalker's favourite food", "refused", None),
]


@pytest.mark.parametrize(("question", "want", "check"), CASES, ids=[c[0][:45] for c in CASES])
def test_a_qualifier_is_applied_flagged_or_refused(question, want, check):
    plan = plan_question(question, VOCAB)
    got = outcome(plan)
    if want == "applied":
        assert got in ("answered", "flagged") and check(plan), (got, plan.metrics, plan.filters, plan.caveats)
    else:
        assert got == want, (got, plan.metrics, plan.filters, plan.caveats, plan.refusal)


def test_every_intent_is_covered_by_a_case():
    intents = set()
    for question, _, _ in CASES:
        plan = plan_question(question, VOCAB)
        if plan.intent != Intent.REFUSE:
            intents.add(plan.intent)
    assert {Intent.RANKING, Intent.LOOKUP, Intent.COMPARISON, Intent.BREAKDOWN, Intent.TIMELINE, Intent.EVENT_LIST,
            Intent.BUILD_ORDER} <= intents


def test_a_flag_is_said_in_the_direct_answer_itself(stage_env):
    pkg = ask_sample(stage_env, "how much damage did Brisk deal while invisible")
    answer = pkg.response.direct_answer
    assert answer.startswith("Brisk dealt 138,223 damage.")
    assert "I read this as damage dealt per player for Brisk over the whole match" in answer
    assert "'invisible'" in answer


def test_a_refused_real_world_question_shows_no_number(stage_env):
    pkg = ask_sample(stage_env, "Which team won the lottery?")
    text = " ".join((pkg.response.direct_answer, *pkg.response.key_insights))
    assert pkg.is_refusal and not any(c.isdigit() for c in text)


# The queue, mode and platform a match was played in: generated from figures x question shapes x the words a
# player uses for them. None is in the log, so none may be answered as if it had been applied.
FIGURES = ("damage", "kills", "gold", "healing", "deaths")
SHAPES = ("who had the most {m} {q}?", "which player got the most {m} {q}", "how much {m} did Brisk get {q}",
          "show {m} by player {q}", "top 3 players by {m} {q}")
QUEUES = ("in ranked", "in ranked games", "in a ranked match", "in the ranked queue", "in unranked", "in casual",
          "in casual matches", "in normal games", "in quick play", "in conquest", "on the Arena map",
          "in joust", "on console", "on PC", "from xbox players", "in custom lobbies", "in ranked conquest")


@pytest.mark.parametrize("queue", QUEUES)
def test_a_queue_mode_or_platform_is_refused_never_dropped(queue):
    for i, shape in enumerate(SHAPES):
        question = shape.format(m=FIGURES[(i + len(queue)) % len(FIGURES)], q=queue)
        plan = plan_question(question, VOCAB)
        assert plan.intent == Intent.REFUSE, question
        assert "queue, game mode or platform" in plan.refusal.reason, question


@pytest.mark.parametrize("question", ["rank the players by damage", "players ranked by kills", "who ranked first in gold",
                                      "list everyone ranked by healing", "rank players by deaths, lowest first"])
def test_ranked_as_an_order_is_still_a_ranking(question):
    plan = plan_question(question, VOCAB)
    assert plan.intent != Intent.REFUSE and not plan.caveats, question


@pytest.mark.parametrize("place", ["in the Solo lane", "in the solo lane", "in the mid lane", "in the middle lane"])
def test_a_lane_read_as_its_role_is_not_also_called_unused(place):
    plan = plan_question(f"who dealt the most damage {place}", VOCAB)
    assert plan.intent != Intent.REFUSE and plan.focus and not plan.caveats, (place, plan.focus, plan.caveats)


LIST_SHAPES = ("list the players by {m}", "list the players in order of {m}", "list the players and their {m}",
               "show all players with their {m}", "list every player by {m}")
LIST_FIGURES = (("gold", "gold"), ("kills", "kills"), ("damage", "damage_dealt"), ("healing", "healing_done"),
                ("deaths", "deaths"), ("assists", "assists"))


@pytest.mark.parametrize("shape", LIST_SHAPES)
def test_a_list_of_players_by_a_figure_gives_that_figure_for_each(shape):
    # "list the players by gold" was answered with the line-up, gold dropped; "gold" was also read as a misspelt
    # "gods" after "by"
    for said, metric_id in LIST_FIGURES:
        question = shape.format(m=said)
        plan = plan_question(question, VOCAB)
        assert plan.metrics[0] == metric_id and "player" in plan.group_by and not plan.caveats, (question, plan)


@pytest.mark.parametrize("question", ["list the players", "who played", "show the lineup", "list the players and "
                                      "their gods", "what was the team composition"])
def test_the_line_up_is_still_the_roster(question):
    plan = plan_question(question, VOCAB)
    assert plan.metrics == ("roster",) and not plan.caveats, question


CONDITIONS = (("more than {n}", ">"), ("fewer than {n}", "<"), ("less than {n}", "<"), ("at least {n}", ">="),
              ("at most {n}", "<="), ("over {n}", ">"), ("under {n}", "<"), ("{n} or more", ">="), ("{n} or fewer", "<="),
              ("above {n}", ">"), ("below {n}", "<"), ("no more than {n}", "<="))
CONDITION_SHAPES = ("players with {c} {m}", "who had {c} {m}?", "which players got {c} {m}", "list everyone with {c} {m}")
# (words, truth key, thresholds that split the sample's players)
CONDITION_FIGURES = (("kills", "kills", (5, 10, 11)), ("deaths", "deaths", (3, 6)), ("assists", "assists", (8, 15)),
                     ("gold", "gold", ("8,000", "5,000")), ("damage", "damage_dealt", ("120,000", "100,000")))
COMPARE = {">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b}


def _condition_cases():
    for i, (condition, op) in enumerate(CONDITIONS):
        for j, shape in enumerate(CONDITION_SHAPES):
            said, key, numbers = CONDITION_FIGURES[(i + j) % len(CONDITION_FIGURES)]
            yield shape.format(c=condition.format(n=numbers[(i + j) % len(numbers)]), m=said), key, op


CONDITION_CASES = list(_condition_cases())


@pytest.mark.parametrize(("question", "key", "op"), CONDITION_CASES[::4], ids=[c[0][:45] for c in CONDITION_CASES[::4]])
def test_a_condition_on_a_figure_keeps_exactly_the_players_meeting_it(stage_env, truth, question, key, op):
    # "players with more than 10 kills" listed every player, the condition silently dropped
    from combat_analysis.warehouse.handles import rows_of
    pkg = ask_sample(stage_env, question)
    threshold = float(re.search(r"\d[\d,]*", question).group(0).replace(",", ""))
    want = {p for p, figures in truth["players"].items() if COMPARE[op](figures[key], threshold)}
    assert pkg.plan.condition is not None and pkg.plan.condition.op == op, question
    rows = rows_of(pkg.primary_result, None) if pkg.primary_result.result_summary.row_count else []
    assert {r["player"] for r in rows} == want, question
    if not want:
        assert pkg.response.direct_answer.startswith("No player had"), pkg.response.direct_answer


@pytest.mark.parametrize(("question", "key", "op"), CONDITION_CASES, ids=[c[0][:45] for c in CONDITION_CASES])
def test_every_condition_phrasing_is_read_as_a_condition(question, key, op):
    plan = plan_question(question, VOCAB)
    assert plan.condition is not None and plan.condition.op == op and not plan.caveats, (question, plan.caveats)


@pytest.mark.parametrize("question", ["who dealt more than 50% of the team's damage",
                                      "show gold over time for players with more than 8,000 gold"])
def test_a_condition_the_plan_cannot_apply_is_said_not_dropped(question):
    plan = plan_question(question, VOCAB)
    assert plan.condition is None
    assert plan.intent == Intent.REFUSE or any("was not applied: no player is left out for it" in c
                                               for c in plan.caveats), (question, plan.caveats)


@pytest.mark.parametrize("question", ["who dealt the most damage in the first 10 minutes", "kills over the last 5 minutes",
                                      "who had the most gold after minute 20", "damage in under 10 minutes",
                                      "top 3 damage dealers", "who had more kills than Brisk"])
def test_minutes_counts_and_comparisons_between_players_are_no_condition(question):
    plan = plan_question(question, VOCAB)
    assert not any("condition" in c for c in plan.caveats), (question, plan.caveats)


# Exclusions: "excluding supports" was read as the supports only (the role reader found them), the opposite.
CUES = ("excluding {x}", "except {x}", "except for {x}", "other than {x}", "apart from {x}", "not counting {x}",
        "leaving out {x}", "but not {x}")
LEFT_OUT = (("the supports", "role", ("Support",)), ("junglers", "role", ("Jungle",)), ("Brisk", "player", ("Brisk",)),
            ("team 1", "team", (1,)), ("VoidWalker and LunaSol", "player", ("VoidWalker", "LunaSol")))
EXCLUSION_SHAPES = ("top 5 damage dealers {c}", "rank the players by gold {c}", "who had the most kills, {c}?",
                    "show healing for every player {c}")


@pytest.mark.parametrize("cue", CUES)
def test_an_excluded_entity_is_left_out_never_the_only_one_kept(cue):
    for i, shape in enumerate(EXCLUSION_SHAPES):
        said, dimension, values = LEFT_OUT[(i + len(cue)) % len(LEFT_OUT)]
        question = shape.format(c=cue.format(x=said))
        plan = plan_question(question, VOCAB)
        flipped = [(f.dimension, f.op, tuple(f.values)) for _, step in plan.steps() for f in step.filters]
        assert (dimension, "!=", values) in flipped, (question, flipped)
        assert not any(op != "!=" and dim == dimension for dim, op, _ in flipped), (question, flipped)
        assert not plan.caveats, (question, plan.caveats)


def test_a_ranking_excluding_a_role_reads_only_the_other_players(stage_env):
    from combat_analysis.warehouse.handles import rows_of
    pkg = ask_sample(stage_env, "rank the players by healing, excluding the supports")
    rows = rows_of(pkg.primary_result, None)
    assert [r["player"] for r in rows][:3] == ["NightOwl07", "VoidWalker", "Kraken_Mid"]  # the Support players PapiTacos and LunaSol are out
    assert len(rows) == 8 and "PapiTacos" not in {r["player"] for r in rows}
    assert pkg.response.direct_answer.startswith("Healing done by player without the Support players, highest first: "
                                                 "NightOwl07: 28,399;")


def test_leaving_a_part_of_the_match_out_is_refused_not_turned_around():
    plan = plan_question("who had the most kills except in the first 10 minutes", VOCAB)
    assert plan.intent == Intent.REFUSE and "cannot be left out" in plan.refusal.reason


def test_teams_compared_without_a_role_sum_the_other_players(stage_env, truth):
    from combat_analysis.warehouse.handles import rows_of
    pkg = ask_sample(stage_env, "compare team 1 and team 2 damage excluding the junglers")
    rows = {r["team"]: r["damage_dealt"] for r in rows_of(pkg.primary_result, None)}
    want = {t: sum(p["damage_dealt"] for p in truth["players"].values() if p["team"] == t and p["role"] != "Jungle")
            for t in (1, 2)}
    assert rows == want == {1: 406_571, 2: 485_366}
    assert pkg.response.direct_answer.startswith("Damage dealt without the Jungle players — team 2: 485,366; team 1: 406,571.")


@pytest.mark.parametrize(("words", "order"), [("descending", "desc"), ("in descending order", "desc"),
                                              ("ascending", "asc"), ("in ascending order", "asc")])
def test_ascending_and_descending_set_the_order(words, order):
    for figure, _ in LIST_FIGURES:
        plan = plan_question(f"sort the players by {figure} {words}", VOCAB)
        assert plan.order == order and plan.shape == "all" and not plan.caveats, (figure, words, plan.caveats)


GOD_SHAPES = ("rank gods by {m}", "{m} by god", "list the gods by {m}", "gods ranked by {m}", "show {m} per god",
              "compare the gods by {m}", "which god had the most {m}")


@pytest.mark.parametrize("shape", GOD_SHAPES)
def test_figures_split_by_god_are_per_god(shape):
    # "rank gods by damage" ranked players, "damage by god" called its own grouping unused, "show kills per god"
    # became the kill feed
    for said, metric_id in LIST_FIGURES:
        question = shape.format(m=said)
        plan = plan_question(question, VOCAB)
        assert plan.metrics[0] == metric_id and plan.group_by[:1] == ("god",) and not plan.caveats, (question, plan)


def test_kills_per_god_are_each_gods_players_kills(stage_env, truth):
    from combat_analysis.warehouse.handles import rows_of
    pkg = ask_sample(stage_env, "show kills per god")
    got = {r["god"]: r["kills"] for r in rows_of(pkg.primary_result, None)}
    assert got == {p["god"]: p["kills"] for p in truth["players"].values()}
    assert got["Zeus"] == 17


@pytest.mark.parametrize("shape", ["players without a {m}", "who had zero {m}", "which players had no {m}",
                                   "players with no {m}", "list everyone with zero {m}"])
def test_none_at_all_is_a_condition_when_a_figure_follows(shape):
    for said in ("kills", "deaths", "assists", "gold"):
        question = shape.format(m=said.rstrip("s") if "without a" in shape else said)
        plan = plan_question(question, VOCAB)
        assert plan.condition is not None and (plan.condition.op, plan.condition.value) == ("<=", 0), question


def test_players_without_a_kill_are_the_ones_with_none(stage_env, truth):
    from combat_analysis.warehouse.handles import rows_of
    pkg = ask_sample(stage_env, "players without a kill")
    got = {r["player"] for r in rows_of(pkg.primary_result, None)}
    assert got == {p for p, f in truth["players"].items() if f["kills"] == 0} == {"Kraken_Mid", "zoe.rush"}
    assert not plan_question("who had the most kills without dying", VOCAB).condition  # no figure follows


# A condition on another figure than the one asked for: "the most damage among players with more than 5 kills"
# was answered for every player, with the condition only caveated.
OTHER_FIGURE_CASES = (
    ("who dealt the most damage among players with more than 5 kills", "damage_dealt", "kills", ">", 5, "leader"),
    ("of the players with at least 10 assists, who earned the most gold?", "gold", "assists", ">=", 10, "leader"),
    ("rank players with at least 10 assists by gold", "gold", "assists", ">=", 10, "list"),
    ("gold of players with more than 10 kills", "gold", "kills", ">", 10, "list"),
    ("top 3 damage dealers with fewer than 5 deaths", "damage_dealt", "deaths", "<", 5, "list"),
    ("most healing among players with fewer than 6 deaths", "healing_done", "deaths", "<", 6, "leader"),
    ("which player took the most damage among those with over 8 kills", "damage_taken", "kills", ">", 8, "leader"),
)


@pytest.mark.parametrize(("question", "figure", "on", "op", "n", "shape"), OTHER_FIGURE_CASES,
                         ids=[c[0][:45] for c in OTHER_FIGURE_CASES])
def test_a_condition_on_another_figure_ranks_the_headline_among_the_rows_kept(
        stage_env, truth, question, figure, on, op, n, shape):
    from combat_analysis.warehouse.handles import rows_of
    pkg = ask_sample(stage_env, question)
    plan = pkg.plan
    assert plan.metrics[0] == figure and plan.condition is not None, question
    assert (plan.condition.metric, plan.condition.op, plan.condition.value) == (on, op, n) and not plan.caveats
    kept = {p: f for p, f in truth["players"].items() if COMPARE[op](f[on], n)}
    rows = rows_of(pkg.primary_result, None)
    assert {r["player"] for r in rows} == set(kept), question
    assert all(r[figure] == kept[r["player"]][figure] and r[on] == kept[r["player"]][on] for r in rows)
    leader = max(kept, key=lambda p: kept[p][figure])
    direct = pkg.response.direct_answer
    assert direct.startswith(leader) if shape == "leader" else leader in direct, direct
    assert "among the players with" in direct and f"{int(kept[leader][figure]):,}" in direct, direct


def test_only_one_player_meeting_another_figures_condition_is_said_with_both_figures(stage_env, truth):
    pkg = ask_sample(stage_env, "who had the most gold among players with more than 15 kills")
    brisk = truth["players"]["Brisk"]
    assert [p for p, f in truth["players"].items() if f["kills"] > 15] == ["Brisk"]
    assert pkg.response.direct_answer == f"Only Brisk had more than 15 kills ({int(brisk['kills'])}); gold earned: {int(brisk['gold']):,}."


@pytest.mark.parametrize("question", ["players with at least 10 kills", "top 3 damage dealers with fewer than 5 deaths",
                                      "who had at least 8 assists", "list everyone with less than 100,000 damage"])
def test_the_words_of_a_condition_neither_order_the_list_nor_ask_for_a_leader(question):
    # "at least" held "least" and "fewer than" held "fewer": both turned the list to lowest first
    plan = plan_question(question, VOCAB)
    assert plan.condition is not None and plan.order == "desc", (question, plan.order)
    assert plan.shape in ("all", "top"), (question, plan.shape)


@pytest.mark.parametrize(("question", "statistic"), [("What is the median damage per player?", "median"),
                                                     ("median gold of each player", "median"),
                                                     ("what was the average damage per player", "average"),
                                                     ("mean and median kills per player", "average")])
def test_the_middle_asked_for_leads_the_answer(stage_env, truth, question, statistic):
    # "the median damage per player" was led by the mean, the median in brackets
    import statistics as stats

    pkg = ask_sample(stage_env, question)
    key = next(k for k in ("damage_dealt", "gold", "kills") if pkg.plan.metrics[0] == k)
    values = [f[key] for f in truth["players"].values()]
    middle = stats.median(values) if statistic == "median" else stats.fmean(values)
    assert pkg.plan.shape == statistic
    direct = pkg.response.direct_answer
    assert direct.startswith(f"The {statistic} ") and f"is {middle:,.2f}".rstrip("0").rstrip(".") in direct, direct


@pytest.mark.parametrize("question", ["What percent of team 2's kills did Brisk get?", "team 1's damage",
                                      "how much gold did team 2's players earn", "compare team 1's kills with team 2's"])
def test_a_team_numbers_possessive_is_no_unused_word(question):
    plan = plan_question(question, VOCAB)
    assert not any("not used" in c for c in plan.caveats), (question, plan.caveats)


@pytest.mark.parametrize(("question", "order", "limit"), [("Which minute had the most kills?", "desc", 1),
                                                          ("what minute saw the most kills", "desc", 1),
                                                          ("top 3 minutes for kills", "desc", 3),
                                                          ("in which minute were the most kills scored", "desc", 1)])
def test_which_minute_ranks_the_minutes_not_the_players(stage_env, truth, question, order, limit):
    # "which minute had the most kills" named the player with the most kills
    from collections import Counter

    from combat_analysis.warehouse.handles import rows_of
    pkg = ask_sample(stage_env, question)
    assert pkg.plan.group_by == ("minute",) and pkg.plan.metrics == ("kills",), pkg.plan
    per_minute = Counter(int(k["second"] // 60) for k in truth["kills"])
    ranked = sorted(per_minute.items(), key=lambda kv: (-kv[1], kv[0]))
    rows = rows_of(pkg.primary_result, None)
    assert [(r["minute"], r["kills"]) for r in rows[:limit]] == ranked[:limit]
    assert f"minute {ranked[0][0]}: {ranked[0][1]}" in pkg.response.direct_answer, pkg.response.direct_answer


def test_which_minute_for_a_team_names_the_team():
    plan = plan_question("in which minute did team 2 deal the most damage", VOCAB)
    assert plan.group_by == ("minute",) and plan.filters[0].dimension == "team" and plan.filters[0].values == (2,)


@pytest.mark.parametrize("question", ["Which item was bought most often?", "what was the most purchased item",
                                      "which item was purchased the most times", "which item got bought the most"])
def test_how_often_an_item_was_bought_counts_purchases_by_item(stage_env, truth, question):
    # "which item was bought most often" ranked players by hits landed: "most often" is how often the verb happened
    from collections import Counter

    pkg = ask_sample(stage_env, question)
    bought = Counter(item for f in truth["players"].values() for item in f["items"])
    (top, n), (second, m) = bought.most_common(2)
    assert pkg.plan.metrics[0] == "items_purchased" and pkg.plan.group_by == ("item",), pkg.plan
    assert n > m and pkg.response.direct_answer.startswith(f"The top item by items purchased is {top}: {n}")


@pytest.mark.parametrize(("question", "team"), [("What percent of all kills did team 2 get?", 2),
                                                ("what % of the match's gold did team 1 earn", 1),
                                                ("what share of the damage did team 1 deal", 1)])
def test_a_teams_share_of_the_match(stage_env, truth, question, team):
    # "what percent of all kills did team 2 get" was team 2's kill feed
    pkg = ask_sample(stage_env, question)
    key = pkg.plan.metrics[0]
    total = sum(f[key] for f in truth["players"].values())
    mine = sum(f[key] for f in truth["players"].values() if f["team"] == team)
    assert pkg.plan.shape == "share" and not pkg.plan.caveats, pkg.plan
    assert f"{percent(mine / total * 100)} of the match's" in pkg.response.direct_answer, pkg.response.direct_answer


def test_a_share_the_plan_cannot_compute_is_said():
    plan = plan_question("Which player dealt the highest percentage of their team's damage?", VOCAB)
    assert any("the share asked for ('percentage') was not computed" in c for c in plan.caveats), plan.caveats


@pytest.mark.parametrize(("question", "target"), [("how long did it take for the first tower to fall", "Tower"),
                                                  ("how long until the first phoenix went down", "Phoenix")])
def test_how_long_until_an_objective_fell_is_its_time_not_the_match_length(stage_env, truth, question, target):
    # answered with the length of the match
    pkg = ask_sample(stage_env, question)
    first = next(o for o in truth["objectives"] if o["target"].endswith(target))
    clock = f"{int(first['second']) // 60}:{int(first['second']) % 60:02d}"
    assert pkg.plan.metrics == ("objective_events",) and not pkg.plan.caveats, pkg.plan
    assert first["target"] in pkg.response.direct_answer and f"at {clock}" in pkg.response.direct_answer


@pytest.mark.parametrize(("question", "role", "key"), [("How much gold did the supports earn combined?", "Support", "gold"),
                                                       ("how much damage did the carries deal together", "Carry",
                                                        "damage_dealt"),
                                                       ("total kills of the junglers", "Jungle", "kills")])
def test_a_roles_figure_combined_is_its_total(stage_env, truth, question, role, key):
    # "the supports' gold combined" listed each support, the word 'combined' unused
    pkg = ask_sample(stage_env, question)
    total = int(sum(f[key] for f in truth["players"].values() if f["role"] == role))
    assert pkg.plan.group_by == ("role",) and not pkg.plan.caveats, pkg.plan
    assert pkg.response.direct_answer.startswith(f"The {role} role") and f"{total:,}" in pkg.response.direct_answer


def test_whom_a_player_killed_most_is_split_by_victim(stage_env, truth):
    # "who did Brisk kill the most" was Brisk's kill count
    from collections import Counter

    pkg = ask_sample(stage_env, "who did Brisk kill the most")
    (victim, n), (_, m) = Counter(k["victim"] for k in truth["kills"] if k["killer"] == "Brisk").most_common(2)
    assert pkg.plan.group_by == ("victim",) and n > m
    assert pkg.response.direct_answer.startswith(f"The top victim by kills for Brisk is {victim}: {n}")


@pytest.mark.parametrize(("question", "metric_id", "team"), [
    ("how many times did the order team kill the fire giant", "fire_giants", 1),
    ("how many times did team 2 kill the fire giant", "fire_giants", 2),
    ("how many times did team 1 take the gold fury", "gold_furies", 1)])
def test_killing_a_named_objective_counts_that_objective(stage_env, truth, question, metric_id, team):
    # read as no figure at all: the team's core stats with 'kill the fire giant' unused
    pkg = ask_sample(stage_env, question)
    target = {"fire_giants": "Fire Giant", "gold_furies": "Gold Fury"}[metric_id]
    n = sum(1 for o in truth["objectives"] if o["target"] == target and o["team"] == team)
    assert pkg.plan.metrics == (metric_id,) and not pkg.plan.caveats, pkg.plan
    assert pkg.response.direct_answer.endswith(f": {n}."), pkg.response.direct_answer


def test_killed_by_towers_is_who_killed_not_a_split_by_tower():
    plan = plan_question("which player got killed by towers the most", VOCAB)
    assert plan.group_by == ("player",) and plan.metrics == ("deaths",)
    assert [(f.dimension, f.values) for f in plan.filters] == [("source", ("Chaos Tower", "Order Tower"))]


@pytest.mark.parametrize(("question", "figure", "on", "op", "n"), [
    ("who had the most kills while dying fewer than 4 times", "kills", "deaths", "<", 4),
    ("most gold among players whose deaths were under 5", "gold", "deaths", "<", 5),
    ("which player with over 10 assists died the least", "deaths", "assists", ">", 10)])
def test_a_condition_reads_the_figure_named_before_it_when_none_follows(question, figure, on, op, n):
    # "while dying fewer than 4 times" kept the players with fewer than 4 kills and ranked their deaths
    plan = plan_question(question, VOCAB)
    assert plan.metrics[0] == figure and plan.condition is not None and not plan.caveats, plan
    assert (plan.condition.metric, plan.condition.op, plan.condition.value) == (on, op, n)


@pytest.mark.parametrize(("question", "rate"), [("who had the best kills/min", "kills_per_minute"),
                                                ("deaths/min for every player", "deaths_per_minute"),
                                                ("assists / minute by player", "assists_per_minute")])
def test_a_slash_minute_is_per_minute(question, rate):
    assert plan_question(question, VOCAB).metrics[0] == rate


@pytest.mark.parametrize("question", ["did anyone go deathless", "who never died", "players with no deaths",
                                      "which player didn't die"])
def test_deathless_is_zero_deaths_not_the_most_deaths(stage_env, truth, question):
    # "did anyone go deathless" named the player with the most deaths
    pkg = ask_sample(stage_env, question)
    assert pkg.plan.condition is not None and (pkg.plan.condition.op, pkg.plan.condition.value) == ("<=", 0)
    assert not [p for p, f in truth["players"].items() if f["deaths"] == 0]
    assert pkg.response.direct_answer == "No player had zero deaths.", pkg.response.direct_answer


def test_the_most_kills_without_a_single_death_ranks_kills_among_the_deathless():
    plan = plan_question("who had the most kills without a single death", VOCAB)
    assert plan.metrics[0] == "kills" and (plan.condition.metric, plan.condition.value) == ("deaths", 0)


def test_the_winning_team_read_as_a_team_is_no_unused_word():
    plan = plan_question("what is the average gold of the winning team", VOCAB)
    assert [(f.dimension, f.values) for f in plan.filters] == [("team", (2,))] and not plan.caveats
