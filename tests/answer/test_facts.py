"""Every kind of fact an answer states, checked against ../shared/tools/truth.py over several simulated matches.

The fidelity check proves each number comes from the data; this proves the claims: that a share is of the base
it names, a "first" is the first of what it says, a list says how many it leaves out, took and lost name the
right side, a count says its noun right. For each kind, the fact expected from truth.py is worded by the
product's own function for that kind (`facts.say`), and the answer to a question asking for it (in several
wordings of our own) must state exactly that sentence. Every answer is also held to the grammar rules: no
"1 kills", and every sentence starts with a capital or a name.

Coverage: ten kinds of fact (share of team and match, share of a narrowed figure, rank, first or last of a kind
of objective, the list of a player's kills and deaths, a death recap, took of the objectives, deaths by cause,
gold swing, first blood and winner) on each of the four simulated matches of `FACT_MATCHES`.
"""

from __future__ import annotations

import dataclasses
import re
import statistics

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat_analysis.answer import facts as F
from combat_analysis.answer.patterns import swing_fact
from combat_analysis.answer.pipeline import run_stages
from combat_analysis.formatting import count
from combat_analysis.formatting import times as fmt_times
from tests.support.season import truth_tool

MATCHES = range(4)  # indexes into the fact_matches fixture (FACT_MATCHES in conftest.py)
EXAMPLES = settings(max_examples=5, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
SHOWN = 12  # the most items a sentence writes out before "and N more"
RECAP_WINDOW_S = 10  # METRICS.md's death recap: the damage of the ten seconds up to the death


def ask(match: dict, question: str):
    """The answer through the five stages, text only (no charts, no report files)."""
    return run_stages(question, dataclasses.replace(match["env"], answer_only=True))


def said(pkg) -> str:
    """What a reader sees first: the direct answer and the insights."""
    return " ".join((pkg.response.direct_answer, *pkg.response.key_insights))


ONE_PLURAL = re.compile(r"(?<![\d.,:])(?<!team )(?<!minute )(?<!second )\b1 ([a-z]+s)\b")
NOT_PLURAL = {"is", "was", "has", "its", "this", "plus", "gets"}


def assert_grammar(pkg, match: dict) -> None:
    """No "1 kills": one of anything is singular; every sentence starts with a capital, a digit or a name
    (names keep the log's spelling)."""
    names = set(match["truth"]["players"]) | {o["target"] for o in match["truth"]["objectives"]}
    for text in (pkg.response.direct_answer, *pkg.response.key_insights):
        bad = [m.group(0) for m in ONE_PLURAL.finditer(text) if m.group(1) not in NOT_PLURAL]
        assert not bad, (bad, text)
        for sentence in re.split(r"(?<=[.!?])\s+(?=\S)", text):
            assert sentence[:1].isupper() or sentence[:1].isdigit() or any(sentence.startswith(n) for n in names), \
                (sentence, text)


def player_of(data, match: dict, where=lambda row: True) -> str:
    truth = match["truth"]
    return data.draw(st.sampled_from(sorted(p for p, row in truth["players"].items() if where(row))))


# -- shares carry their base -------------------------------------------------------------------------------

FIGURES = {  # metric id -> truth key and two wordings of our own asking for a player's figure
    "kills": ("kills", ("how many kills did {p} get", "what was {p}'s kill count")),
    "deaths": ("deaths", ("how many times did {p} die", "how many deaths did {p} have")),
    "assists": ("assists", ("how many assists did {p} have", "how many assists did {p} get")),
    "gold": ("gold", ("how much gold did {p} earn", "how much gold did {p} get")),
    "damage_dealt": ("damage_dealt", ("how much damage did {p} deal", "what was {p}'s total damage")),
    "healing_done": ("healing_done", ("how much healing did {p} do", "how much did {p} heal")),
}


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_a_players_share_names_its_part_and_both_bases(fact_matches, m, data):
    match = fact_matches[m]
    truth = match["truth"]
    figure = data.draw(st.sampled_from(sorted(FIGURES)))
    key, wordings = FIGURES[figure]
    player = player_of(data, match)
    team = truth["players"][player]["team"]
    pkg = ask(match, data.draw(st.sampled_from(wordings)).format(p=player))
    expected = F.Share(part=F.Amount(F.Entity("player", player), figure, truth["players"][player][key]),
                       bases=(F.Amount(F.Entity("team", str(team)), figure, truth["teams"][str(team)][key]),
                              F.Amount(F.MATCH, figure, sum(r[key] for r in truth["players"].values()))))
    assert F.say(expected) in said(pkg)
    assert_grammar(pkg, match)


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_a_players_rank_is_among_every_player(fact_matches, m, data):
    match = fact_matches[m]
    truth = match["truth"]
    figure = data.draw(st.sampled_from(sorted(FIGURES)))
    key, wordings = FIGURES[figure]
    player = player_of(data, match)
    ordered = sorted(truth["players"], key=lambda p: (-truth["players"][p][key], p))  # ties by name, as the table
    value = lambda p: F.Amount(F.Entity("player", p), figure, truth["players"][p][key])  # noqa: E731
    expected = F.Rank(value=value(player), rank=ordered.index(player) + 1, of=len(ordered), leader=value(ordered[0]),
                      median=statistics.median(truth["players"][p][key] for p in ordered))
    assert F.say(expected) in said(ask(match, data.draw(st.sampled_from(wordings)).format(p=player)))


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_a_narrowed_figure_is_a_share_of_the_players_own_whole(fact_matches, m, data):
    """"X got 9 kills on Y": its share is of X's kills, never X's kills' share of the team's."""
    match = fact_matches[m]
    truth = match["truth"]
    killer = player_of(data, match, lambda row: row["kills"] > 0)
    victim = data.draw(st.sampled_from(sorted(set(truth["players"][killer]["victims"]))))
    wording = data.draw(st.sampled_from(("how many kills did {k} get on {v}", "how many times did {k} kill {v}")))
    pkg = ask(match, wording.format(k=killer, v=victim))
    owner = F.Entity("player", killer)
    on_victim = sum(1 for k in truth["kills"] if k["killer"] == killer and k["victim"] == victim)
    expected = F.Share(part=F.Amount(owner, "kills", on_victim, f" on {victim}"),
                       bases=(F.Amount(owner, "kills", truth["players"][killer]["kills"], " in all"),))
    assert pkg.response.direct_answer == f"{killer} got {count(on_victim, 'kill')} on {victim}."
    assert F.say(expected) in said(pkg)
    assert "of team" not in said(pkg)  # no share of the team's kills, which were not asked
    assert_grammar(pkg, match)


# -- a first says first of what ------------------------------------------------------------------------------

KINDS = {"structure": ("tower", "phoenix"), "boss": ("fire giant", "gold fury")}
SAID_AS = {"fire giant": "Fire Giant", "gold fury": "Gold Fury"}


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_the_first_or_last_objective_of_a_kind_says_which_kind(fact_matches, m, data):
    match = fact_matches[m]
    objectives = match["truth"]["objectives"]
    present = sorted({kind for o in objectives for kind in (*KINDS["structure"], *KINDS["boss"])
                      if kind in o["target"].lower()})
    kind = data.draw(st.sampled_from(present))
    ordinal = data.draw(st.sampled_from(("first", "last")))
    wording = data.draw(st.sampled_from(("when did the {o} {k} fall", "when was the {o} {k} destroyed")))
    of_kind = [o for o in objectives if kind in o["target"].lower()]
    event = of_kind[0] if ordinal == "first" else of_kind[-1]
    expected = F.First(ordinal=ordinal, noun=SAID_AS.get(kind, kind), second=event["second"], thing=event["target"],
                       taker=event["team"], by=event["killer"])
    pkg = ask(match, wording.format(o=ordinal, k=kind))
    assert pkg.response.direct_answer == F.say(expected)
    assert_grammar(pkg, match)


@pytest.mark.parametrize("m", MATCHES)
def test_first_blood_is_the_first_player_kill_even_after_a_death_to_the_map(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    first = truth["first_blood"]
    pkg = ask(match, "who drew first blood")
    said = pkg.response.direct_answer
    # the killing ability (the log's killing blow; truth.py does not name it) comes between the victim and the time
    assert said.startswith(f"{first['killer']} got first blood, killing {first['victim']} with ") \
        and f" at {first['clock']} " in said
    expected = F.FirstBlood(killer=first["killer"], killer_team=truth["players"][first["killer"]]["team"],
                            victim=first["victim"], second=first["second"])
    assert F.say(expected) in [f.description for f in pkg.analysis.key_findings]
    assert_grammar(pkg, match)


# -- a list says how many it leaves out ------------------------------------------------------------------------


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_a_players_kills_name_every_victim_and_say_how_many_more(fact_matches, m, data):
    match = fact_matches[m]
    truth = match["truth"]
    player = player_of(data, match, lambda row: row["kills"] > 0)
    wording = data.draw(st.sampled_from(("list every kill by {p}", "show every kill {p} made")))
    kills = [k for k in truth["kills"] if k["killer"] == player]
    victims: dict[str, list[str]] = {}
    for k in kills:  # in match order: each victim where they first fell, with every time they fell
        victims.setdefault(k["victim"], []).append(k["clock"])
    each = "; ".join(f"{name} {fmt_times(len(times))} (at {', '.join(times[:6])}"
                     f"{f' and {len(times) - 6} more' if len(times) > 6 else ''})" for name, times in victims.items())
    pkg = ask(match, wording.format(p=player))
    assert pkg.response.direct_answer == (f"{player} got {len(kills)} kill{'s' if len(kills) > 1 else ''}, on "
                                          f"{len(victims)} player{'s' if len(victims) > 1 else ''}: {each}.")
    assert len(kills) == truth["players"][player]["kills"]
    assert_grammar(pkg, match)


def recap_from_truth(match: dict, player: str) -> F.Recap:
    """Every death of the player, from any source, with the damage of the ten seconds up to it, from the raw
    events."""
    truth = match["truth"]
    deaths = sorted([(k["second"], k["killer"]) for k in truth["kills"] if k["victim"] == player]
                    + [(d["second"], d["killer"]) for d in truth["deaths_to_npcs"] if d["victim"] == player])
    out = []
    for second, killer in deaths:
        by_source: dict[str, float] = {}
        for e in match["events"]:
            if (e.get("type") in ("Damage", "CritDamage") and e.get("targetowner") == player
                    and second - RECAP_WINDOW_S <= e.get("_s", -1) <= second):
                by_source[e["sourceowner"]] = by_source.get(e["sourceowner"], 0.0) + float(e["value1"])
        top = max(by_source, key=lambda s: by_source[s]) if by_source else None
        out.append(F.Death(second=second, killer=killer, damage_taken=sum(by_source.values()), sources=len(by_source),
                           top_source=top, top_source_damage=by_source[top] if top else 0.0))
    return F.Recap(player=player, deaths=tuple(out), window_s=RECAP_WINDOW_S, shown=SHOWN)


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_a_death_recap_counts_every_death_from_any_source(fact_matches, m, data):
    match = fact_matches[m]
    player = player_of(data, match, lambda row: row["deaths"] > 0)
    expected = recap_from_truth(match, player)
    assert len(expected.deaths) == match["truth"]["players"][player]["deaths"]
    pkg = ask(match, data.draw(st.sampled_from(("how did {p} die", "what killed {p}", "how did {p} get killed"))).format(p=player))
    assert pkg.response.direct_answer.startswith(F.say(expected))  # then any reading the planner states
    assert_grammar(pkg, match)


# -- took and lost name the side --------------------------------------------------------------------------------


@pytest.mark.parametrize("m", MATCHES)
def test_the_objectives_say_which_side_took_how_many(fact_matches, m):
    match = fact_matches[m]
    truth = match["truth"]
    objectives = truth["objectives"]
    pkg = ask(match, "what objectives fell")
    for team in ("1", "2"):
        tally = F.Tally(team=int(team), verb="took", noun="objective", count=truth["teams"][team]["objectives"],
                        of=len(objectives))
        assert F.say(tally) in pkg.response.key_insights
    listed = pkg.response.direct_answer
    assert listed.startswith(f"{count(len(objectives), 'objective')} were taken: ")
    assert [f"the {o['target']} at {o['clock']}" in listed for o in objectives] == [True] * len(objectives)
    assert_grammar(pkg, match)


# -- counts of deaths by cause ----------------------------------------------------------------------------------

JUNGLE = re.compile(r"satyr|chimera|harpy|cyclops|naga", re.I)  # METRICS.md's jungle monsters
MINION = re.compile(r"swordsman|archer|brute", re.I)
CAUSES = {  # the question's word -> how the answer names the cause, and the killers it covers
    # "towers" are the structures named Tower (phoenixes and Titans are structures, not towers)
    "towers": ("towers", lambda name: "tower" in name.lower()),
    "structures": ("structures", truth_tool.STRUCTURE.search),
    "bosses": ("bosses", truth_tool.BOSS.search),
    "minions": ("minions", MINION.search),
    "jungle camps": ("jungle camps", JUNGLE.search),
}


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_deaths_by_cause_name_the_victims_and_the_cause(fact_matches, m, data):
    """"Structures died 4 times" meant players killed by structures: the victims are the subject."""
    match = fact_matches[m]
    truth = match["truth"]
    word = data.draw(st.sampled_from(sorted(CAUSES)))
    said_as, covers = CAUSES[word]
    whose = data.draw(st.sampled_from((None, *sorted(truth["players"]))))
    deaths = [d for d in truth["deaths_to_npcs"] if covers(d["killer"]) and whose in (None, d["victim"])]
    if whose is None:
        question = data.draw(st.sampled_from(("how many times did players die to {c}",)))
    else:
        question = data.draw(st.sampled_from(("how many times did {p} die to {c}",
                                               "how many of {p}'s deaths came from {c}")))
    pkg = ask(match, question.format(c=word, p=whose))
    victim = F.Entity("player", whose) if whose else None
    assert pkg.response.direct_answer == F.say(F.DeathCount(victim=victim, cause=said_as, count=len(deaths)))
    assert_grammar(pkg, match)


# -- the gold swing and the winner ------------------------------------------------------------------------------


def swing_from_truth(truth: dict) -> F.GoldSwing:
    """The gold story for the winner (or the team ahead at the end), from truth.py's gold curve."""
    curve = truth["team_gold_difference_by_minute"]
    team = truth["winner"] or (1 if curve[-1] >= 0 else 2)
    sign = 1 if team == 1 else -1
    rival_minute = min(range(len(curve)), key=lambda i: sign * curve[i])
    rival_lead = max(-sign * curve[rival_minute], 0)
    final = sign * curve[-1]
    shape = "stomp" if rival_lead <= 0 else "comeback" if rival_lead >= max(1000, 0.1 * abs(final)) else "lead_changes"
    return F.GoldSwing(team=team, won=truth["winner"] is not None, final_lead=final, rival_lead=rival_lead,
                       rival_minute=rival_minute, shape=shape)


@pytest.mark.parametrize("m", MATCHES)
def test_the_gold_swing_says_ahead_or_behind_for_the_team_it_names(fact_matches, m):
    match = fact_matches[m]
    pkg = ask(match, "did either team come back from behind")
    assert pkg.response.direct_answer.endswith(F.say(swing_from_truth(match["truth"])))
    assert_grammar(pkg, match)


@pytest.mark.parametrize("winner", [None, 1, 2])
@pytest.mark.parametrize("curve", [[-500, -2_000, -800, 1_500], [300, 900, -400, -3_959], [800, 1_200, 2_500, 4_000]])
def test_a_winner_that_finished_behind_is_never_said_to_be_ahead(curve, winner):
    """The comeback sentence that said a team "finished 3,959 gold ahead" when it finished behind and won."""
    fact = swing_fact([{"minute": i, "gold_diff": d} for i, d in enumerate(curve)], winner)
    team_final = curve[-1] if fact.team == 1 else -curve[-1]
    text = F.say(fact)
    assert fact.team == (winner or (1 if curve[-1] >= 0 else 2))
    assert f"{abs(team_final):,} gold {'ahead' if team_final >= 0 else 'behind'}" in text
    assert ("won the match" in text) == (winner is not None)


@pytest.mark.parametrize("m", MATCHES)
def test_the_winner_is_the_team_that_took_the_enemy_titan(fact_matches, m):
    match = fact_matches[m]
    winner = match["truth"]["winner"]
    pkg = ask(match, "which side won")
    if winner is None:
        assert pkg.response.direct_answer.startswith("The winner is unknown: no Titan fell")
    else:
        assert pkg.response.direct_answer.startswith(f"Team {winner} won the match")
        assert F.say(F.Winner(team=winner)) in [f.description for f in pkg.analysis.key_findings]
    assert_grammar(pkg, match)


# -- a count knows its plural, in the small windows where counts are 0 and 1 -------------------------------------

SMALL = (  # wordings of our own, "{n}" a small number of minutes, "{p}" a player
    "how many kills did {p} get in the first {n} minutes", "who had the most kills in the first {n} minutes",
    "how many deaths did each team have in the first {n} minutes", "kills for each role in the first {n} minutes",
    "who had the fewest assists in the first {n} minutes", "how many assists did {p} have in the first {n} minutes",
    "what items did {p} buy in the first {n} minutes", "compare the kills of team 1 and team 2 in the first {n} minutes",
    "list every kill by {p} in the first {n} minutes",
)


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_small_counts_are_worded_in_the_singular_and_sentences_start_with_a_capital(fact_matches, m, data):
    match = fact_matches[m]
    question = data.draw(st.sampled_from(SMALL)).format(n=data.draw(st.integers(1, 4)), p=player_of(data, match))
    assert_grammar(ask(match, question), match)


def test_a_count_of_none_is_plural_and_a_lowest_count_is_the_fewest():
    assert F.say(F.Margin(first=F.Amount(F.Entity("team", "2"), "deaths", 4), second=F.Amount(
        F.Entity("team", "1"), "deaths", 3))) == "Team 2 has 1 death (33.33%) more than team 1 (3)."
    assert F.say(F.Margin(first=F.Amount(F.Entity("player", "x"), "kills", 1), second=F.Amount(
        F.Entity("player", "y"), "kills", 3), below=True)) == "x has 2 kills (66.67%) fewer than y (3)."
    assert F.say(F.Leader(top=F.Amount(F.Entity("player", "x"), "deaths", 1), lowest=True)) == \
        "x has the fewest deaths: 1."
    assert F.say(F.Leader(top=F.Amount(F.Entity("player", "x"), "gold", 1), lowest=True)) == \
        "x has the lowest gold earned: 1."


# -- a difference names both sides and says more or fewer, never "ahead" --------------------------------------

COMPARED = {"kills": "kills", "deaths": "deaths", "assists": "assists", "gold": "gold", "damage": "damage_dealt"}


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_a_comparison_of_two_players_states_the_difference_with_both_values(fact_matches, m, data):
    match = fact_matches[m]
    truth = match["truth"]["players"]
    word = data.draw(st.sampled_from(sorted(COMPARED)))
    figure = COMPARED[word]
    a, b = data.draw(st.lists(st.sampled_from(sorted(truth)), min_size=2, max_size=2, unique=True))
    wording = data.draw(st.sampled_from(("compare the {w} of {a} and {b}", "{a} vs {b} {w}")))
    pkg = ask(match, wording.format(w=word, a=a, b=b))
    hi, lo = sorted((a, b), key=lambda p: -truth[p][figure])
    if truth[hi][figure] == truth[lo][figure]:
        assert re.search(r"They are tied, [\d,.]+ each\.", pkg.response.direct_answer), pkg.response.direct_answer
    else:
        margin = F.Margin(first=F.Amount(F.Entity("player", hi), figure, truth[hi][figure]),
                          second=F.Amount(F.Entity("player", lo), figure, truth[lo][figure]))
        assert pkg.response.direct_answer.endswith(F.say(margin))
    assert "ahead" not in pkg.response.direct_answer
    assert_grammar(pkg, match)


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_a_narrowed_rankings_facts_all_say_what_narrows_it(fact_matches, m, data):
    """"Who got the most kills on Y": every finding is of kills on Y (the team totals from truth.py), none of all
    kills."""
    match = fact_matches[m]
    truth = match["truth"]
    victim = player_of(data, match, lambda row: row["deaths"] > 0)
    wording = data.draw(st.sampled_from(("who got the most kills on {v}", "who killed {v} the most")))
    pkg = ask(match, wording.format(v=victim))
    findings = [f.description for f in pkg.analysis.key_findings]
    assert findings and all(f" on {victim}" in text for text in findings), findings
    on_victim = {t: sum(1 for k in truth["kills"] if k["victim"] == victim and k["killer"] in row["players"])
                 for t, row in truth["teams"].items()}
    lead, trail = sorted(on_victim, key=lambda t: -on_victim[t])
    totals = F.Totals(larger=F.Amount(F.Entity("team", lead), "kills", on_victim[lead]),
                      smaller=F.Amount(F.Entity("team", trail), "kills", on_victim[trail]), said_window=f" on {victim}")
    assert F.say(totals) in findings
    assert_grammar(pkg, match)
