"""Every insight is about the question: it shares the question's subject, figure or window, and a windowed
answer's insights are computed in that window and say so.

Checked over the simulated matches of `FACT_MATCHES` against ../shared/tools/truth.py: a windowed ranking's
team totals and spread are truth.py's figures of that window, worded by the product's own function for that kind
(`facts.say`) with the window said; an answer about a figure carries no pattern about something else (first
blood, kill streaks, team fights), and each of its insights names the figure or the subject asked about.
"""

from __future__ import annotations

import dataclasses
import statistics

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat_analysis.answer import facts as F
from combat_analysis.answer.pipeline import run_stages
from combat_analysis.answer.results import metric_info, window_phrase

MATCHES = range(4)  # indexes into the fact_matches fixture (FACT_MATCHES in conftest.py)
EXAMPLES = settings(max_examples=4, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

RANKED = {  # metric id -> wordings of our own ranking every player on it, "{w}" the window
    "kills": ("who got the most kills {w}", "which player had the most kills {w}"),
    "deaths": ("who died the most {w}", "which player had the most deaths {w}"),
    "assists": ("who had the most assists {w}",),
    "gold": ("who earned the most gold {w}", "which player had the most gold {w}"),
    "damage_dealt": ("who dealt the most damage {w}", "which player did the most damage {w}"),
    "damage_taken": ("who took the most damage {w}",),
    "healing_done": ("who healed the most {w}", "which player did the most healing {w}"),
}
WINDOWS = {  # truth.py's window -> how a question of ours says it
    "first_10_minutes": ("in the first 10 minutes", "during the first 10 minutes"),
    "between_minute_5_and_15": ("between minute 5 and 15", "from minute 5 to minute 15"),
    "after_minute_20": ("after minute 20",),
    "last_10_minutes": ("in the last 10 minutes",),
}
OTHER_PATTERNS = ("First blood", "kill streak", "team fight")  # what unrelated answers used to carry


def ask(match: dict, question: str):
    return run_stages(question, dataclasses.replace(match["env"], answer_only=True))


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_a_windowed_rankings_insights_are_computed_in_its_window_and_say_it(fact_matches, m, data):
    match = fact_matches[m]
    truth = match["truth"]
    figure = data.draw(st.sampled_from(sorted(RANKED)))
    window = data.draw(st.sampled_from(sorted(WINDOWS)))
    question = data.draw(st.sampled_from(RANKED[figure])).format(w=data.draw(st.sampled_from(WINDOWS[window])))
    pkg = ask(match, question)
    said = window_phrase(pkg.plan)
    assert said, question
    in_window = {p: row[figure] for p, row in truth["windows"][window].items()}
    insights = pkg.response.key_insights
    findings = [f.description for f in pkg.analysis.key_findings]  # the insights are the first few of these
    assert insights, question
    assert all(said in text for text in (*insights, *findings)), (said, findings)  # none reads as the match's
    assert not [t for t in insights if any(p in t for p in OTHER_PATTERNS)], insights
    team_total = {t: sum(in_window[p] for p in row["players"]) for t, row in truth["teams"].items()}
    lead, trail = sorted(team_total, key=lambda t: -team_total[t])
    if team_total[lead] != team_total[trail]:
        totals = F.Totals(larger=F.Amount(F.Entity("team", lead), figure, team_total[lead]),
                          smaller=F.Amount(F.Entity("team", trail), figure, team_total[trail]), said_window=said)
        assert F.say(totals) in findings
    values = list(in_window.values())
    spread = F.Average(figure=figure, rows=len(values), noun="player", mean=statistics.fmean(values),
                       median=statistics.median(values), said_window=said)
    assert F.say(spread) in findings


FIGURE_QUESTIONS = {  # metric id -> wordings of our own about one player's figure, or ranking every player
    "gold": ("how much gold did {p} earn", "who earned the most gold"),
    "damage_dealt": ("how much damage did {p} deal", "who dealt the most damage"),
    "damage_taken": ("how much damage did {p} take", "who took the most damage"),
    "healing_done": ("how much healing did {p} do", "who healed the most"),
    "assists": ("how many assists did {p} have", "who had the most assists"),
}


@pytest.mark.parametrize("m", MATCHES)
@EXAMPLES
@given(data=st.data())
def test_an_answer_about_a_figure_carries_only_insights_about_that_figure_or_subject(fact_matches, m, data):
    """No first blood, kill streak or team fights appended to a question about gold, damage, healing or
    assists; each insight names the figure asked about or the player the answer is about."""
    match = fact_matches[m]
    figure = data.draw(st.sampled_from(sorted(FIGURE_QUESTIONS)))
    player = data.draw(st.sampled_from(sorted(match["truth"]["players"])))
    question = data.draw(st.sampled_from(FIGURE_QUESTIONS[figure])).format(p=player)
    pkg = ask(match, question)
    label = metric_info(figure).label
    insights = pkg.response.key_insights
    assert not [t for t in insights if any(p in t for p in OTHER_PATTERNS)], insights
    subjects = {player} if "{p}" in FIGURE_QUESTIONS[figure][0] and player in question else set()
    assert all(label in text or any(s in text for s in subjects) for text in insights), (label, insights)


@pytest.mark.parametrize("m", MATCHES)
def test_a_windowed_list_of_objectives_carries_no_whole_match_pattern(fact_matches, m):
    """Objectives taken in a window: the side tallies are of the window's objectives; the whole match's gold
    swing and last objective are not about it."""
    match = fact_matches[m]
    truth = match["truth"]
    pkg = ask(match, "which objectives were taken in the first 15 minutes")
    early = [o for o in truth["objectives"] if o["second"] < 900]
    for text in pkg.response.key_insights:
        assert "in the first 15 minutes" in text, text
    for team in (1, 2):
        took = sum(1 for o in early if o["team"] == team)
        tally = F.Tally(team=team, verb="took", noun="objective", count=took, of=len(early),
                        said_window=" in the first 15 minutes")
        if early:
            assert F.say(tally) in pkg.response.key_insights


@pytest.mark.parametrize("m", MATCHES)
def test_first_blood_bears_on_kills_of_its_killer_on_its_victim_not_on_kills_on_its_killer(fact_matches, m):
    """A kill's sides keep their roles: first blood by K on V is about "K's kills on V", not "kills on K"."""
    match = fact_matches[m]
    truth = match["truth"]
    first = truth["first_blood"]
    killer, victim = first["killer"], first["victim"]
    said = F.say(F.FirstBlood(killer=killer, killer_team=truth["players"][killer]["team"], victim=victim,
                              second=first["second"]))
    on_victim = ask(match, f"how many kills did {killer} get on {victim}")
    assert said in [p.description for p in on_victim.analysis.patterns]
    on_killer = ask(match, f"who got the most kills on {killer}")
    assert said not in [p.description for p in on_killer.analysis.patterns]
    assert said not in on_killer.response.key_insights


def test_a_tie_at_the_top_names_every_player_level_there(fact_matches):
    """'A and B are tied on deaths at 12' named the first two rows only, while C had 12 too: the insight names
    every player level at the top (truth.py's whole-match figures), the fifth and after counted."""
    wide = 0
    for match in fact_matches:
        for figure in ("kills", "deaths", "assists"):
            values = {p: row[figure] for p, row in match["truth"]["players"].items()}
            level = {p for p, v in values.items() if v == max(values.values())}
            if len(level) < 2:
                continue
            findings = [f.description for f in ask(match, RANKED[figure][0].format(w="")).analysis.key_findings]
            label = metric_info(figure).label
            (said,) = [t for t in findings if f" are tied on {label} at " in t]
            names = said.split(" are tied on ")[0].replace(" and ", ", ").split(", ")
            if len(level) > F.TIED_NAMED:
                assert names[-1] == f"{len(level) - F.TIED_NAMED} more" and set(names[:-1]) < level, (level, said)
            else:
                assert set(names) == level and len(names) == len(level), (level, said)
            wide += len(level) > 2
    assert wide, "no figure of these matches has three or more level at the top: the test would prove nothing"
