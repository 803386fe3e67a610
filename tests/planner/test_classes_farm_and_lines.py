"""One-match answers by class, end to end on the bundled sample, every figure from truth.py: the minions and jungle
monsters a player killed (the log's KillingBlows on those kinds; truth.py's `npc_kills`), together or each kind alone,
never their kills of players; a KDA "line" is its three counts beside the ratio; the match's id asked is said; an item
picked up, named by the first word of its name, is that item bought."""

from __future__ import annotations

import pytest

from tests.support.paths import SAMPLE_LOG
from tests.support.said import says
from tests.support.truth_checks import npc_killing_blows


@pytest.mark.parametrize("question", ["best cs in the game?", "who farmed the most (minions and camps)"])
def test_the_most_minions_and_monsters_killed(sample, question):
    farmed = {p: row["npc_kills"] for p, row in sample.truth["players"].items()}
    top = max(farmed, key=farmed.get)
    a = sample.ask(question)
    assert a.text.startswith(top) and says(a.text.split("(")[0], farmed[top]), a.text


@pytest.mark.parametrize(("template", "kind"), [("how many minions did {p} kill", "minion"),
                                                ("jungle camps killed by {p}?", "jungle")])
def test_one_kind_killed_by_a_player(sample, template, kind):
    killed = npc_killing_blows(SAMPLE_LOG, kind)
    player = killed.most_common(1)[0][0]
    a = sample.ask(template.format(p=player))
    assert says(a.text, killed[player]), a.text
    assert not says(a.text, sample.truth["players"][player]["kills"]) or \
        killed[player] == sample.truth["players"][player]["kills"], a.text


@pytest.mark.parametrize("template", ["{p}'s kda line?", "kda for {p} (kills, deaths, assists)"])
def test_a_kda_line_is_its_three_counts(sample, template):
    player = sorted(sample.truth["players"])[0]
    row = sample.truth["players"][player]
    a = sample.ask(template.format(p=player))
    for figure in ("kills", "deaths", "assists"):
        assert f"{figure} {int(row[figure])}" in a.text, a.text


def test_the_match_id_asked_is_said(sample):
    a = sample.ask("game id pls")
    assert str(sample.truth["match_id"]) in a.text, a.text


def test_an_item_picked_up_by_its_first_word(sample):
    player, bought = next((p, i) for p, row in sample.truth["players"].items() for i in row["item_timeline"]
                          if "'" in i["item"].split()[0] and len(i["item"].split()) > 1)
    word = bought["item"].split()[0]
    first = next(i for i in sample.truth["players"][player]["item_timeline"] if i["item"] == bought["item"])
    a = sample.ask(f"when did {player} pick up {word.lower()}")
    assert a.refusal is None and first["clock"] in a.text, a.text
