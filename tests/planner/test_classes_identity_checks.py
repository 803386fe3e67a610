"""A named player's role, side or god asked yes or no, alone or beside which god they were on, end to end on a
simulated match whose players are named from role words and slang ("mid_diff99" plays Jungle, "Jungle_Carry" Carry):
the name is read as the player, never as the role; the answer names the god and the actual role, then Yes or No,
every value from truth.py."""

from __future__ import annotations

import pytest

from tests.support.simulated import ROLE_WORD_TAGS as TAGS

SIDES = {1: "order", 2: "chaos"}
# how a role is said in chat, by the role truth.py gives
SAID = {"Middle": "mid", "Jungle": "jungle", "Solo": "solo", "Support": "supp", "Carry": "adc"}


def _other_role(role: str) -> str:
    return next(r for r in SAID if r != role)


# (wording, which tag, whether the role asked is the player's own)
ROLE_CHECKS = [("what god was {p} on, and was he playing {r}?", 0, False),
               # a hedge or stress word in the check ("even", "ever", "really") says nothing more
               ("{p} went which god? was he even {r}", 3, False),
               ("did {p} ever play {r}", 2, True),
               ("what god for {p}, did they really go {r}", 4, True),
               ("which god was {p} playing and did they play {r}", 1, True),
               ("yo what god did {p} pick, was he {r}?", 2, False),
               ("{p} on what god? did he go {r}", 2, True),
               ("what was {p} playing - was it {r}?", 3, True),
               ("{p} which god and were they {r} lane?", 4, True),
               ("was {p} the {r} laner?", 0, False),
               ("did {p} play {r}", 1, True),
               ("was {p}'s role {r}?", 3, False),
               ("wich god did {p} lock in n was he {r}", 4, False),
               ("{p}: what god? and did {p} play {r}?", 1, False),
               ("was {p} playing {r} and what god was it", 2, True)]


@pytest.mark.parametrize(("template", "n", "own"), ROLE_CHECKS)
def test_a_tagged_players_role_asked_yes_or_no(tagged, template, n, own):
    name = TAGS[n]
    row = tagged.truth["players"][name]
    role = row["role"] if own else _other_role(row["role"])
    a = tagged.ask(template.format(p=name, r=SAID[role]))
    assert a.refusal is None and a.plan.metrics == ("roster",), a.plan
    assert row["god"] in a.text and row["role"] in a.text and name in a.text, a.text
    assert ("Yes:" if own else "No:") in a.text, a.text
    assert "No matching" not in a.text, a.text


@pytest.mark.parametrize(("template", "n", "own"), [("was {p} on {s}?", 0, True),
                                                    ("is {p} on team {t} and what god did he play", 1, False),
                                                    ("what god did {p} play and was he on the {s} side", 3, False),
                                                    ("did {p} play for {s}", 4, True)])
def test_a_tagged_players_side_asked_yes_or_no(tagged, template, n, own):
    name = TAGS[n]
    row = tagged.truth["players"][name]
    team = row["team"] if own else 3 - row["team"]
    a = tagged.ask(template.format(p=name, s=SIDES[team], t=team))
    assert row["god"] in a.text and f"team {row['team']}" in a.text, a.text
    assert ("Yes:" if own else "No:") in a.text, a.text


def test_a_god_check_and_a_figure_beside_it(tagged):
    name, other = TAGS[1], TAGS[2]
    row, god = tagged.truth["players"][name], tagged.truth["players"][other]["god"]
    a = tagged.ask(f"did {name} play {god}")
    assert f"No: {name} played {row['god']}, not {god}" in a.text, a.text
    a = tagged.ask(f"was {name} on {SIDES[row['team']]} and how many kills did he get")
    assert f"{row['kills']} kills" in a.text and "Yes:" in a.text, a.text


def test_a_check_after_a_ranking_part_is_answered(tagged):
    leader = max(tagged.truth["players"].items(), key=lambda kv: kv[1]["kills"])
    name = TAGS[0]
    row = tagged.truth["players"][name]
    a = tagged.ask(f"who got the most kills, and was {name} {SAID[row['role']]}?")
    assert leader[0] in a.text and f"Yes: {name} played {row['role']}" in a.text, a.text


def test_how_well_a_tagged_player_played_stays_their_figures(tagged):
    a = tagged.ask(f"did {TAGS[3]} play well")
    assert "roster" not in a.plan.metrics and "Yes" not in a.text, a.text
