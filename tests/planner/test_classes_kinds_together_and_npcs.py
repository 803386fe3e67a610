"""Round 60's one-match classes, end to end on the simulated match of `match`, every figure from truth.py: an
exclusion ends at a contracted question word ("besides autos whats X's ..." leaves the player in); minions and jungle
monsters killed together are the npc kills, and damage into both kinds is the damage to either; damage taken from
"npcs" or "non-gods" is from every non-player, said so; a bracket of examples ending "etc" only glosses; and a bare
count before a count that says of whom ("how many A and how many B did X ...") is asked with those words."""

from __future__ import annotations

from combat_analysis.formatting import number
from tests.support.said import says


def _player(match, n: int = 2) -> str:
    return sorted(match.players)[n]


def test_an_exclusion_ends_at_a_contracted_question_word(match):
    player = _player(match)
    got = match.ask(f"excluding autos whats {player}'s top ability by hits")
    assert [f.values for f in got.plan.filters if f.dimension == "player"] == [(player,)], got.plan
    assert all(not (f.dimension == "player" and f.op == "!=") for f in got.plan.filters), got.plan


def test_minions_and_jungle_monsters_killed_are_the_npc_kills(match):
    player = _player(match, 5)
    got = match.ask(f"how many jungle monsters and minions has {player} killed")
    assert got.plan.metrics == ("npc_kills",), got.plan
    assert says(got.text, match.truth["players"][player]["npc_kills"]), got.text


def test_damage_into_two_kinds_is_the_damage_to_either(match):
    player = _player(match, 6)
    row = match.truth["players"][player]
    both = row["damage_dealt"] - row["damage_to_players"] - row["damage_to_structures"] - row["damage_to_bosses"]
    got = match.ask(f"{player}'s dmg to camps and minions")
    assert f"{number(both)} damage" in got.text, (both, got.text)


def test_damage_taken_from_every_non_player_is_said_so(match):
    player = _player(match, 1)
    row = match.truth["players"][player]
    got = match.ask(f"dmg {player} took from non-players (towers, minions, etc)")
    assert f"took {number(row['damage_taken'] - row['damage_taken_from_players'])} damage from non-players" in got.text, \
        got.text
    assert "not used" not in got.text, got.text


def test_a_bare_count_takes_the_words_of_the_next(match):
    player = _player(match, 7)
    row = match.truth["players"][player]
    got = match.ask(f"how many kills and how many assists has {player} got")
    assert f"{player} got {number(row['kills'])} kill" in got.text, got.text
    assert says(got.text, row["assists"]) and "Kills in the match" not in got.text, got.text
