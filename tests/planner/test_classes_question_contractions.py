"""One-match questions by word class, end to end on a simulated match (`renamed`) and checked against truth.py: question
words run on with an auxiliary ("how'd", "who've", "whatre"; with or without the apostrophe) and framing words (who
asks: "analyst here:", "quick one", "asking for my team", a speaker's label; the ties asked for: "with ties", "count
the tied ones"), which the same readers serve across matches (tests/answer/test_season_asked_records.py)."""

from __future__ import annotations

import pytest

from combat_analysis.planner.read.spelling import question_contractions


@pytest.mark.parametrize(("said", "written"), [
    ("how'd she do", "how did she do"), ("howd she do", "how did she do"), ("what're his kills", "what are his kills"),
    ("whatre his kills", "what are his kills"), ("who've the most deaths", "who have the most deaths"),
    ("who'd the most kills", "who had the most kills"), ("when's first blood", "when is first blood"),
    ("whys it so", "why is it so"), ("where'd he die", "where did he die"), ("what'll it be", "what will it be"),
    # known as they are, or another word: left alone
    ("who's got it", "who's got it"), ("whats up", "whats up"), ("hows it", "hows it"), ("whore", "whore"),
    ("however", "however"), ("whatever", "whatever"), ("showd", "showd"),
])
def test_question_word_contractions_are_written_out(said, written):
    assert question_contractions(said) == written


def _leaders(players: dict, figure: str) -> tuple[list[str], float]:
    best = max(row[figure] for row in players.values())
    return sorted(p for p, row in players.items() if row[figure] == best), best


@pytest.mark.parametrize(("question", "figure"), [
    ("who'd the most kills", "kills"), ("who've got the most deaths", "deaths"), ("whod the most assists", "assists"),
    ("who're the top players in kills", "kills"),
])
def test_a_contracted_who_ranks_players(renamed, question, figure):
    a = renamed.ask(question)
    top, best = _leaders(renamed.truth["players"], figure)
    assert a.refusal is None and "not used" not in a.text, a.text
    assert all(p in a.text for p in top) and f"{best:g}" in a.text, (top, a.text)


@pytest.mark.parametrize("question", ["how'd MoonRiver do", "howd MoonRiver do", "what're MoonRiver's kills",
                                      "whatre the kills of MoonRiver"])
def test_a_contracted_question_word_is_no_name(renamed, question):
    a = renamed.ask(question)
    kills = renamed.truth["players"]["MoonRiver"]["kills"]
    assert a.refusal is None and "not used" not in a.text, a.text
    assert "MoonRiver" in a.text and (f"{kills} kill" in a.text or f"kills {kills}," in a.text), a.text


@pytest.mark.parametrize(("question", "figure"), [
    ("analyst here: who has the most deaths, with ties", "deaths"),
    ("quick one - who got the most kills? count the tied ones", "kills"),
    ("Coach: who has the most assists? tied players too", "assists"),
    ("who died the most, asking for my team", "deaths"),
    ("caster here, most kills including ties", "kills"),
])
def test_framing_words_are_neither_refused_nor_flagged(renamed, question, figure):
    a = renamed.ask(question)
    top, best = _leaders(renamed.truth["players"], figure)
    assert a.refusal is None and "not used" not in a.text, a.text
    assert all(p in a.text for p in top) and f"{best:g}" in a.text, (top, a.text)


def test_a_label_that_names_a_player_stays(renamed):
    a = renamed.ask("MoonRiver: how many kills")
    kills = renamed.truth["players"]["MoonRiver"]["kills"]
    assert a.refusal is None and "MoonRiver" in a.text and f"{kills} kill" in a.text, a.text
