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
