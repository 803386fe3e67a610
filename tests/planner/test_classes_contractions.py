"""Contractions typed without their apostrophe ("didnt", "theyre", "havent") or with a misplaced one ("did'nt",
"does'nt"), one match (this file, over the simulated match `renamed`, checked against truth.py) and across matches
(tests/answer/test_season_contractions.py): read as the contraction (`spelling.contractions`), never as an unknown
name; plain words that look like one ("were", "ill", "its", "shell", "well", the verb "lets") stay as typed."""

from __future__ import annotations

import pytest

from combat_analysis.planner.read.spelling import contractions


@pytest.mark.parametrize(("typed", "written"), [
    ("theyre up", "they're up"), ("werent they", "weren't they"), ("he didnt", "he didn't"), ("hes out", "he's out"),
    ("shes out", "she's out"), ("wasnt it", "wasn't it"), ("isnt it", "isn't it"), ("i havent", "i haven't"),
    ("youre sure", "you're sure"), ("ive seen", "i've seen"), ("im told", "i'm told"), ("dont know", "don't know"),
    ("doesnt matter", "doesn't matter"), ("cant tell", "can't tell"), ("wont say", "will not say"), ("won't say", "will not say"),
    ("couldnt find", "couldn't find"), ("shouldnt be", "shouldn't be"), ("arent they", "aren't they"),
    ("hasnt he", "hasn't he"), ("Didnt he", "Didn't he"), ("Im asking", "I'm asking"),
    # a misplaced apostrophe
    ("he did'nt", "he didn't"), ("does'nt matter", "doesn't matter"), ("they'r'e up", "they're up"),
    ("i hav'ent", "i haven't"), ("is'nt it", "isn't it"), ("wer'e", "we're"),
    # at the start of a sentence or clause "lets" is "let's"; elsewhere the verb
    ("lets see who won", "let's see who won"), ("ok lets check, who", "ok let's check, who"),
    ("who lets their carry die", "who lets their carry die"),
    # plain words, and the question words read as they are, stay
    ("were they ill", "were they ill"), ("its well", "its well"), ("shell", "shell"), ("whos got it", "whos got it"),
    ("whats up, thats it", "whats up, thats it"), ("don't", "don't"), ("id", "id"),
])
def test_contractions_are_written_with_their_apostrophe(typed, written):
    assert contractions(typed) == written


def test_a_name_kept_is_never_rewritten():
    assert contractions("did Dont die, didnt he", keep=[(4, 8)]) == "did Dont die, didn't he"


def _leaders(players: dict, figure: str) -> tuple[list[str], float]:
    best = max(row[figure] for row in players.values())
    return sorted(p for p, row in players.items() if row[figure] == best), best


# each typed form against the same question with the contraction written right: the same answer, a true one
@pytest.mark.parametrize(("typed", "written", "figure"), [
    ("theyre asking: who got the most kills", "they're asking: who got the most kills", "kills"),
    ("i dont know, who died the most?", "i don't know, who died the most?", "deaths"),
    ("im curious who had the most assists", "i'm curious who had the most assists", "assists"),
    ("couldnt tell - who got the most gold", "couldn't tell - who got the most gold", "gold"),
    ("ive got to know who dealt the most damage", "i've got to know who dealt the most damage", "damage_dealt"),
    ("i havent checked, who died the most", "i haven't checked, who died the most", "deaths"),
    ("i did'nt see it, most kills?", "i didn't see it, most kills?", "kills"),
    ("youre going to tell me who had the most healing", "you're going to tell me who had the most healing", "healing_done"),
])
def test_a_contraction_typed_any_way_is_no_name(renamed, typed, written, figure):
    a, b = renamed.ask(typed), renamed.ask(written)
    top, best = _leaders(renamed.truth["players"], figure)
    assert a.refusal is None and "not used" not in a.text, a.text
    assert a.text == b.text, (a.text, b.text)
    assert all(p in a.text for p in top) and f"{best:,.0f}" in a.text, (top, a.text)


@pytest.mark.parametrize(("typed", "written"), [
    ("how many kills did MoonRiver get, and hasnt he died", "how many kills did MoonRiver get, and hasn't he died"),
    ("MoonRiver's kills? dont round", "MoonRiver's kills? don't round"),
    ("what're MoonRiver's kills, i cant find them", "what're MoonRiver's kills, i can't find them"),
    ("whats MoonRiver's kill count, we wont know", "whats MoonRiver's kill count, we will not know"),
])
def test_a_players_figure_with_a_contraction_typed_bare(renamed, typed, written):
    a, b = renamed.ask(typed), renamed.ask(written)
    kills = renamed.truth["players"]["MoonRiver"]["kills"]
    assert a.refusal is None, a.text
    assert a.text == b.text, (a.text, b.text)
    assert "MoonRiver" in a.text and f"{kills}" in a.text, a.text
