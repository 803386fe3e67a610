"""Round 57's one-match classes, end to end on the simulated match of `match`, every figure from truth.py: an
ordinary word one letter from a word of a player's name ("right" and "Night Owl") is never that player; "were" after
a word is the verb, never "we're" (so no side becomes the asker's, and a count's part that "were on X" is narrowed to
X); a window anchored on a player whose name is spelt with accents is read, never refused; and a build in a window
says the window."""

from __future__ import annotations

from collections import Counter

import pytest

from combat_analysis.formatting import clock
from tests.support.said import says


@pytest.mark.parametrize("question", ["who died right after first blood", "did anyone buy boots straight after"])
def test_an_ordinary_word_is_never_a_player_one_letter_away(question):
    from combat_analysis.planner.read.names import find_mentions
    from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary

    roster = ("Night Owl", "Straigh7", "LunaSol")
    vocab = Vocabulary(players=tuple(PlayerInfo(player=p, team=1, role=None, god=None) for p in roster))
    assert [m.name for m in find_mentions(question, vocab) if m.kind == "player"] == []


def test_were_after_a_word_is_the_verb_so_no_side_is_the_askers():
    from combat_analysis.planner.read.perspective import rewrite
    from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary

    vocab = Vocabulary(players=(PlayerInfo(player="LunaSol", team=1, role=None, god=None),
                                PlayerInfo(player="Brisk", team=2, role=None, god=None)))
    for text in ("count the kills by them that were on lunasol", "of those deaths, which ones were on brisk by them"):
        assert rewrite(text, vocab).text == text
    assert rewrite("were on lunasol's side: did we beat them", vocab).text != "were on lunasol's side: did we beat them"


def test_a_part_that_were_on_a_player_narrows_the_count(match):
    killer = max(match.players, key=lambda p: match.truth["players"][p]["kills"])
    victims = Counter(k["victim"] for k in match.truth["kills"] if k["killer"] == killer)
    victim = sorted(victims)[0]
    got = match.ask(f"{killer.lower()}'s kills; how many of these were on {victim.lower()}")
    assert "team" not in " ".join(f.dimension for f in got.plan.parts[0].filters), got.plan
    assert f"{killer} got {victims[victim]} kill" in got.text, (victims[victim], got.text)


def _accented(match) -> str:
    return next(p for p in sorted(match.players) if not p.isascii() and any(
        k["victim"] == p for k in match.truth["kills"]))


def test_a_window_anchored_on_an_accented_players_death_is_read(match):
    player = _accented(match)
    died = min(k["second"] for k in match.truth["kills"] if k["victim"] == player)
    after = [i for i in match.truth["players"][player]["item_timeline"] if i["second"] >= died]
    got = match.ask(f"what did {player} buy after their first death")
    assert got.plan.intent != "refuse", got.text
    assert f"built {len(after)} item" in got.text and f"first death at {clock(died)} on" in got.text, \
        (len(after), died, got.text)


def test_a_build_in_a_window_says_the_window(match):
    player = sorted(match.players)[3]
    bought = [i for i in match.truth["players"][player]["item_timeline"] if i["second"] < 8 * 60]
    got = match.ask(f"{player}'s items in the first 8 minutes")
    assert f"built {len(bought)} item" in got.text and says(got.text, len(bought)), got.text
    assert "in the first 8 minutes in this order" in got.text, got.text
