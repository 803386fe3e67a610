"""Names as people type them: a fragment, a nickname, a dropped letter, accents left out, letters typed
plainly; a fragment that fits two players asks which one is meant."""

from __future__ import annotations

import pytest

from combat_analysis.contracts.plan import Intent
from combat_analysis.planner import PlayerInfo, Vocabulary, plan_question
from combat_analysis.planner.read.names import find_mentions, name_parts, squash
from tests.support.stages import MATCH_ID

PLAYERS = (
    PlayerInfo("Big Tuna 7", 1, "Carry", "Neith"), PlayerInfo("zzzSleepy", 1, "Middle", "Zeus"),
    PlayerInfo("Kuro猫", 1, "Jungle", "Thor"), PlayerInfo("ÜmitTR", 1, "Support", "Ymir"),
    PlayerInfo("Vlad_the_Impaler", 1, "Solo", "Odin"), PlayerInfo("MøøseKnuckle", 2, "Solo", "Chaac"),
    PlayerInfo("Łukasz_PL", 2, "Carry", "Ullr"), PlayerInfo("NightHawk", 2, "Middle", "Agni"),
    PlayerInfo("nightOwl_77", 2, "Jungle", "Loki"), PlayerInfo("D'Artagnan", 2, "Support", "Geb"),
)
VOCAB = Vocabulary(players=PLAYERS, abilities=("Neith Basic Attack",), items=("Blink Rune",), duration_s=1800,
                   winner_team=1)


@pytest.mark.parametrize(("said", "name"), [
    ("tuna", "Big Tuna 7"), ("big tuna", "Big Tuna 7"), ("sleepy", "zzzSleepy"), ("kuro", "Kuro猫"),
    ("umit", "ÜmitTR"), ("Umit", "ÜmitTR"), ("impaler", "Vlad_the_Impaler"), ("impler", "Vlad_the_Impaler"),
    ("vlad the impaler", "Vlad_the_Impaler"), ("moose", "MøøseKnuckle"), ("mooseknuckle", "MøøseKnuckle"),
    ("lukasz", "Łukasz_PL"), ("hawk", "NightHawk"), ("owl", "nightOwl_77"), ("dartagnan", "D'Artagnan"),
    ("d'artagnan", "D'Artagnan"), ("Sleepys", "zzzSleepy"),
])
def test_a_name_as_typed_finds_its_player(said, name):
    plan = plan_question(f"how much damage did {said} deal", VOCAB)
    assert plan.intent == Intent.LOOKUP and plan.focus == (name,), (plan.focus, plan.refusal)
    if squash(said) != squash(name):
        assert any(name in a for a in plan.assumptions)  # a loose reading is stated


def test_a_fragment_that_fits_two_players_asks_which_one():
    plan = plan_question("how many kills did night get", VOCAB)
    assert plan.intent == Intent.REFUSE
    assert set(plan.refusal.options) == {"NightHawk", "nightOwl_77"}


def test_ordinary_words_are_never_read_as_fragments():
    assert [m.name for m in find_mentions("who dealt the most damage to the tower", VOCAB)] == []
    assert [m.kind for m in find_mentions("which player had the best kda", VOCAB)] == []


def test_a_longer_word_holding_a_name_word_is_another_word():
    # "lottery" holds "otter" with a letter on each side: a different word, not a typo of ÅsaOtter, so the
    # question stays about a lottery and is refused instead of being asked of a player
    vocab = Vocabulary(players=(*PLAYERS[:9], PlayerInfo("ÅsaOtter", 2, "Support", "Geb")), abilities=(),
                       items=(), duration_s=1800, winner_team=1)
    assert find_mentions("which team won the lottery", vocab) == []
    assert plan_question("which team won the lottery?", vocab).intent == Intent.REFUSE
    assert [m.name for m in find_mentions("how much damage did otterr deal", vocab)] == ["ÅsaOtter"]


def test_name_parts():
    assert name_parts("Big Tuna 7") == ("big", "tuna", "7")
    assert name_parts("zzzSleepy") == ("zzz", "sleepy")
    assert name_parts("MøøseKnuckle") == ("mooseknuckle",) or name_parts("MøøseKnuckle") == ("moose", "knuckle")


def test_the_clarifying_question_names_both_players(stage_env):
    """Through the real stages (the planner reads this test's roster): the answer asks, naming both."""
    from combat_analysis.answer.env import StageEnv
    from combat_analysis.answer.pipeline import run_stages

    def planner(question, vocab, previous=()):
        return plan_question(question, VOCAB, previous)

    env = StageEnv.build(warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                         artifacts_dir=stage_env.artifacts_dir, planner=planner, followups=False)
    pkg = run_stages("how many kills did night get", env)
    answer = pkg.response.direct_answer
    assert answer.startswith("Which player do you mean: ") and "NightHawk" in answer and "nightOwl_77" in answer
    assert pkg.is_refusal and not pkg.response.key_insights


# A nickname in quotes that is also a figure word, and a name with a word in another script.
NICKNAMED = (
    PlayerInfo("Ade 'Rock' Bello", 1, "Solo", "Ymir"), PlayerInfo("Sam 'Carry' Lee", 1, "Carry", "Neith"),
    PlayerInfo("小龙 Chen", 2, "Jungle", "Thor"), PlayerInfo("Ольга Fox", 2, "Middle", "Zeus"),
    PlayerInfo("Mira Stone", 2, "Support", "Geb"),
)
NICK_VOCAB = Vocabulary(players=NICKNAMED, duration_s=1800, winner_team=1)


@pytest.mark.parametrize(("question", "name"), [
    ("how much damage did carry's team take", "Sam 'Carry' Lee"),
    ("carry vs mira stone kills", "Sam 'Carry' Lee"),
    ("mira stone or carry, who dealt more damage", "Sam 'Carry' Lee"),
])
def test_a_quoted_nickname_that_is_a_figure_word_is_the_player_where_a_person_is_meant(question, name):
    found = [m.name for m in find_mentions(question, NICK_VOCAB) if m.kind == "player"]
    assert name in found, found


@pytest.mark.parametrize("question", ["which carry dealt the most damage", "who was the best carry"])
def test_a_nicknames_word_elsewhere_keeps_its_ordinary_sense(question):
    assert not [m for m in find_mentions(question, NICK_VOCAB) if m.kind == "player"]


@pytest.mark.parametrize(("question", "name", "said"), [
    ("how many kills did xiao long chen get", None, None),  # two words stand in for one: not read
    ("how many kills did xiaolong chen get", "小龙 Chen", "xiaolong chen"),
    ("olga fox damage dealt", "Ольга Fox", "olga fox"),
])
def test_a_word_standing_where_a_name_has_another_script_is_read_with_it(question, name, said):
    players = [m for m in find_mentions(question, NICK_VOCAB) if m.kind == "player"]
    if name is None:
        assert all(m.said.casefold() != "xiao long chen" for m in players)
        return
    assert [(m.name, m.said.casefold()) for m in players] == [(name, said)]
    plan = plan_question(question, NICK_VOCAB)
    assert plan.intent != Intent.REFUSE and plan.focus == (name,), (plan.focus, plan.refusal)


@pytest.mark.parametrize(("question", "team"), [
    ("which players won the match", 1), ("name the people who lost", 2), ("who was on the losing side", 2),
    ("list the winners", 1), ("what players lost", 2),
])
def test_the_players_of_the_side_that_won_or_lost_are_that_sides_roster(question, team):
    plan = plan_question(question, VOCAB)  # VOCAB's match was won by team 1
    assert plan.metrics == ("roster",), (plan.metrics, plan.refusal)
    assert [(f.dimension, f.values) for f in plan.filters] == [("team", (team,))]
