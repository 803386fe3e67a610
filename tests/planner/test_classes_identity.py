"""A subject's identity in the match, end to end on the simulated match of `match`, every name from truth.py's
events: what a player played, asked with any verb of playing or any word for the role or the god, is their god and
their role (and side); a god's player and role; both said in one question; a figure asked together with who its
subject was is the figure, then the god and the role; how well someone played stays their figures."""

from __future__ import annotations

import pytest

from tests.support.said import says


def _player(match, n: int) -> str:
    return sorted(match.players)[n]


@pytest.mark.parametrize(("template", "n"), [("what did {a} play", 0),
                                             ("which god was {a} on this game?", 1),
                                             ("{a}'s lane?", 2),
                                             ("what position did {a} have", 3),
                                             ("what was {a} running", 4),
                                             ("{a} god and role", 5),
                                             ("which character and which lane did {a} pick", 6),
                                             ("what did {a} main", 7),
                                             ("wat role did {a} play as", 8)])
def test_what_a_player_played_names_their_god_and_role(match, template, n):
    name = _player(match, n)
    who = match.players[name]
    a = match.ask(template.format(a=name))
    assert a.refusal is None and a.plan.metrics == ("roster",), a.plan
    assert name in a.text and who.god in a.text and who.role in a.text, a.text
    assert f"team {who.team}" in a.text, a.text
    # one player's row, never the whole line-up
    assert not any(other in a.text for other in match.players if other != name), a.text


@pytest.mark.parametrize(("template", "n"), [("who played {g} and in what role", 0),
                                             ("which lane was the {g} in", 4),
                                             ("the {g}'s position?", 9),
                                             # who was on a god, with no figure: the god's player
                                             ("who was on {g}", 2), ("whos the dude playing {g}?", 6),
                                             ("who was the {g} this game", 7)])
def test_a_gods_identity_names_its_player_and_role(match, template, n):
    name = _player(match, n)
    who = match.players[name]
    a = match.ask(template.format(g=who.god))
    assert name in a.text and who.role in a.text and who.god in a.text, a.text


@pytest.mark.parametrize(("template", "figure"), [("{a}'s kills and role", "kills"),
                                                  ("how much gold did {a} earn and what god was that", "gold"),
                                                  ("kda + lane for {a}", "kda"),
                                                  ("{a}: damage, deaths and god", "deaths")])
def test_a_figure_with_who_the_player_was_gives_both(match, template, figure):
    name = _player(match, 2)
    who, row = match.players[name], match.truth["players"][name]
    a = match.ask(template.format(a=name))
    assert says(a.text, row[figure], tol=0.01 if isinstance(row[figure], float) else 0.5), a.text
    assert who.god in a.text and who.role in a.text, a.text


@pytest.mark.parametrize("template", ["how did {a} play", "how well did {a} play this game"])
def test_how_well_someone_played_stays_their_figures(match, template):
    name = _player(match, 1)
    a = match.ask(template.format(a=name))
    assert "roster" not in a.plan.metrics and says(a.text, match.truth["players"][name]["kills"]), a.text
