"""Gods, roles and sides named and set against each other across matches, over both simulated seasons, against
truth.py aggregated in plain Python (tests/support/season.py): only the named entries are compared (no other one
ranked, no player board), which one is more (less) or yes or no, both values with their games, ties said as ties,
the default minimum of games for gods' averages and rates said, and an entry with no games (or too few) said so."""

from __future__ import annotations

import re

import pytest

from combat_analysis.answer.fidelity import check_text
from combat_analysis.formatting import count, number, percent
from combat_analysis.season.boards import side_name
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    named_players,
    same,
    side_games,
    start_order,
)

GODS = ("Anubis", "Athena", "Fenrir", "Guan Yu", "Hercules", "Loki", "Neith", "Rama", "Sobek", "Thor", "Ymir", "Zeus")
ROLES = ("Support", "Jungle", "Carry", "Solo", "Middle")
RECORD = ("win_rate", "wins", "matches")


def _games(matches, subject: str, entry, player: str | None = None) -> list[dict]:
    """The games of one god, role or side (a side's game is one match, its players' figures added up)."""
    if subject == "side":
        return [g for g in side_games(matches) if g["side"] == entry]
    return [g for g in event_games(matches) if g[subject] == entry and (player is None or g["player"] == player)]


def _side_of(matches, player: str, side: int) -> list[dict]:
    return [g for g in event_games(matches) if g["player"] == player and g["team"] == side]


def _value(games: list[dict], metric: str, statistic: str):
    if metric == "win_rate":
        wins, losses = (sum(g["result"] == r for g in games) for r in ("win", "loss"))
        return wins / (wins + losses) if wins + losses else None
    if metric == "wins":
        return sum(g["result"] == "win" for g in games)
    if metric == "matches":
        return len(games)
    values = [g[metric] for g in games]
    return sum(values) / len(values) if statistic == "average" else sum(values)


def _said(metric: str, value, games: int) -> str:
    """A compared value as the answer says it, with the games behind it."""
    if metric == "matches":
        return count(value, "game")
    shown = percent(round(100 * value, 2)) if metric == "win_rate" else number(value, 2)
    return f"{shown} over {count(games, 'game')}"


def _label(metric: str, statistic: str) -> str:
    """The words before a compared value: "per-game mean kills", "total gold", "win rate"."""
    labels = {"damage_dealt": "damage dealt", "damage_taken": "damage taken", "kda": "KDA",
              "towers": "towers destroyed", "win_rate": "win rate", "wins": "wins", "matches": "games"}
    label = labels.get(metric, metric)
    if metric in RECORD:
        return label
    return f"per-game mean {label}" if statistic == "average" else f"total {label}"


def _verdict(named: list[tuple[str, object, int]], way: str, metric: str, statistic: str) -> str:
    """The verdict the answer opens with, from (name, value, games) of the two entries in the question's order."""
    (a, va, ga), (b, vb, gb) = named
    said = _label(metric, statistic)

    def clause(first, second):
        (n1, v1, g1), (n2, v2, g2) = first, second
        relation = "more than" if v1 > v2 else "less than" if v1 < v2 else "the same as"
        return f"{n1}'s {said}: {_said(metric, v1, g1)}, {relation} {n2}'s {_said(metric, v2, g2)}"

    if way in ("more", "less"):
        yes = va > vb if way == "more" else va < vb
        return f"{'Yes' if yes else 'No'}: {clause(named[0], named[1])}."
    if same(va, vb):
        return f"Neither: {clause(named[0], named[1])}."
    top, low = sorted(named, key=lambda e: e[1], reverse=way == "which_more")
    return f"{top[0]}: {clause(top, low)}."


def _check(home, matches, question: str, subject: str, named: tuple, metric: str, statistic: str, way: str,
           player: str | None = None):
    pkg, rows = ask_across(home, question)
    answer = answered_across(pkg)
    names = [side_name(e) if subject == "side" else e for e in named]
    games = {name: (_side_of(matches, player, e) if player else _games(matches, subject, e))
             for name, e in zip(names, named, strict=True)}
    values = {name: _value(g, metric, statistic) for name, g in games.items()}
    # only the named entries, each with its exact value and games
    by_name = {r[subject]: r for r in rows}
    assert sorted(by_name) == sorted(names), (rows, answer)
    for name in names:
        row = by_name[name]
        assert row["matches"] == len(games[name]), (name, row)
        if metric == "win_rate":
            assert row["win_rate_pct"] == round(100 * values[name], 2), (name, row, values[name])
        elif metric not in RECORD:
            assert same(row[metric], values[name]), (name, row[metric], values[name])
    if len(named) == 2:
        said = _verdict([(n, values[n], len(games[n])) for n in names], way, metric, statistic)
        assert answer.startswith(said), (said, answer)
    others = GODS if subject == "god" else ROLES if subject == "role" else ()
    assert not [o for o in others if o not in names and re.search(rf"\b{re.escape(o)}\b", answer)], answer
    assert "player with" not in answer and "In the latest match" not in answer, answer
    assert not check_text(answer, pkg), answer  # every number it says is in its rows
    return answer, values


# --- roles ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("question", "named", "metric", "statistic", "way"), (
    ("support or carry, which deals more damage per game", ("Support", "Carry"), "damage_dealt", "average", "which_more"),
    ("junglers or mids - which do more dmg per game", ("Jungle", "Middle"), "damage_dealt", "average", "which_more"),
    ("supp vs adc, who dies less a game", ("Support", "Carry"), "deaths", "average", "which_less"),
    ("which role farms more gold, solo or jungle", ("Solo", "Jungle"), "gold", "total", "which_more"),
    ("is carry's kda higher than mid's over all games", ("Carry", "Middle"), "kda", "average", "more"),
    ("mid vs jungle gold on average", ("Middle", "Jungle"), "gold", "average", "which_more"),
    ("solo or mid, which gets fewer kills overall", ("Solo", "Middle"), "kills", "total", "which_less"),
    ("does support outdamage carry across all matches", ("Support", "Carry"), "damage_dealt", "total", "more"),
    # the players of a role said as a group name the role ("mid players", "adc mains")
    ("do the mid players get more assists than the jungle players per game", ("Middle", "Jungle"), "assists",
     "average", "more"),
    ("adc mains vs support mains, who takes more damage per game overall", ("Carry", "Support"), "damage_taken",
     "average", "which_more"),
))
def test_two_roles_are_compared_on_a_figure(seasons, question, named, metric, statistic, way):
    home, matches = seasons
    answer, _ = _check(home, matches, question, "role", named, metric, statistic, way)
    assert "(the default for averages and rates)" not in answer, answer  # roles have two games a match each


# --- gods ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("question", "named", "metric", "statistic", "way"), (
    ("thor or loki which has a better winrate", ("Thor", "Loki"), "win_rate", "record", "which_more"),
    ("Zeus vs Athena win rate", ("Zeus", "Athena"), "win_rate", "record", "which_more"),
    ("which god wins more, fenrir or sobek", ("Fenrir", "Sobek"), "win_rate", "record", "which_more"),
    ("zeus or athena: who averages more deaths", ("Zeus", "Athena"), "deaths", "average", "which_more"),
    ("does hercules average more kills than ymir over all games", ("Hercules", "Ymir"), "kills", "average", "more"),
    ("neith or rama, which has more total kills this season", ("Neith", "Rama"), "kills", "total", "which_more"),
    ("guan yu vs anubis - which one takes less damage per game across all matches", ("Guan Yu", "Anubis"),
     "damage_taken", "average", "which_less"),
    ("ymir vs fenrir, which is played more", ("Ymir", "Fenrir"), "matches", "record", "which_more"),
))
def test_two_gods_are_compared_on_a_figure(seasons, question, named, metric, statistic, way):
    home, matches = seasons
    answer, _ = _check(home, matches, question, "god", named, metric, statistic, way)
    rated = statistic == "average" or metric == "win_rate"
    assert ("among gods with at least 3 games (the default for averages and rates)" in answer) == rated, answer


@pytest.mark.parametrize(("question", "named", "way"), (
    ("of thor, loki and zeus, which has the most kills per game this season", ("Thor", "Loki", "Zeus"), "which_more"),
    ("thor, loki or zeus: fewest deaths per game across all matches", ("Thor", "Loki", "Zeus"), "which_less"),
    ("athena vs rama vs sobek, which one averages fewer kills", ("Athena", "Rama", "Sobek"), "which_less"),
))
def test_three_gods_are_compared_among_themselves(seasons, question, named, way):
    home, matches = seasons
    metric = "deaths" if "deaths" in question else "kills"
    answer, values = _check(home, matches, question, "god", named, metric, "average", way)
    best = (max if way == "which_more" else min)(values.values())
    top = sorted(n for n, v in values.items() if v == best)
    word = "highest" if way == "which_more" else "lowest"
    said = ", ".join(named[:-1]) + f" and {named[-1]}"
    assert answer.startswith(f"Of {said}, "), answer
    assert (f"{top[0]} has the {word} per-game mean {metric} ({number(best, 2)} over " in answer if len(top) == 1
            else " share the " in answer), answer


# --- sides ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("question", "named", "metric", "statistic", "way"), (
    ("does order or chaos average more kills", (1, 2), "kills", "average", "which_more"),
    ("team 1 vs team 2 win rate", (1, 2), "win_rate", "record", "which_more"),
    ("across all matches, is order's win rate better than chaos's", (1, 2), "win_rate", "record", "more"),
    ("is chaos's avg gold per game higher than order's", (2, 1), "gold", "average", "more"),
    ("order or chaos: more towers per game?", (1, 2), "towers", "average", "which_more"),
    ("does team 1 or team 2 have more wins", (1, 2), "wins", "record", "which_more"),
    ("which side dies less per game, chaos or order", (2, 1), "deaths", "average", "which_less"),
    ("did chaos out-kill order this season", (2, 1), "kills", "total", "more"),
))
def test_the_two_sides_are_compared_on_a_figure(seasons, question, named, metric, statistic, way):
    home, matches = seasons
    _check(home, matches, question, "side", named, metric, statistic, way)


@pytest.mark.parametrize("template", ("does {p} win more on order or chaos", "{p}: order vs chaos win rate"))
def test_one_players_games_on_each_side_are_compared(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=6)[0]
    answer, _ = _check(home, matches, template.format(p=player), "side", (1, 2), "win_rate", "record", "which_more",
                       player=player)
    assert f"{player}'s sides by win rate" in answer, answer


# --- an entry with no games, or fewer than the minimum -------------------------------------------------------------

def _last(matches, n: int) -> list:
    return start_order(matches)[-n:]


def _god_games(matches) -> dict[str, int]:
    played = {god: 0 for god in GODS}
    for g in event_games(matches):
        played[g["god"]] += 1
    return played


@pytest.mark.parametrize("template", ("in the last 2 games, {a} vs {b} total kills",
                                      "over the last 2 matches, which has more kills, {a} or {b}"))
def test_a_named_entry_with_no_games_is_said_to_have_none(seasons, template):
    home, matches = seasons
    played = _god_games(_last(matches, 2))
    absent = next(god for god in GODS if not played[god])
    present = next(god for god in GODS if played[god])
    pkg, rows = ask_across(home, template.format(a=absent.lower(), b=present.lower()))
    answer = answered_across(pkg)
    kills = sum(g["kills"] for g in event_games(_last(matches, 2)) if g["god"] == present)
    assert answer.startswith(f"Not compared: {absent} has no games in these matches."), answer
    assert f"{present} with {count(kills, 'kill')} in total over {count(played[present], 'game')}" in answer, answer
    assert [r["matches"] for r in rows if r["god"] == absent] == [0], rows


def test_a_god_with_fewer_games_than_the_default_minimum_is_not_compared(seasons):
    home, matches = seasons
    last = _last(matches, 4)
    played = _god_games(last)
    few = next(god for god in GODS if 0 < played[god] < 3)
    enough = next(god for god in GODS if played[god] >= 3)
    question = "in the last 4 games, does {a} or {b} average more kills"
    pkg, _ = ask_across(home, question.format(a=few.lower(), b=enough.lower()))
    answer = answered_across(pkg)
    assert answer.startswith(f"Not compared: {few} has {count(played[few], 'game')}, fewer than the minimum of 3"), answer
    assert "among gods with at least 3 games (the default for averages and rates)" in answer, answer
    mean = sum(g["kills"] for g in event_games(last) if g["god"] == few) / played[few]
    assert f"Not counted, with fewer than 3 games: {few} with {number(mean, 2)} kills per game" in answer, answer
    # the minimum said in the question compares them
    asked = ask_across(home, question.format(a=few.lower(), b=enough.lower()) + f", with at least {played[few]} games")
    answer = answered_across(asked[0])
    means = {god: sum(g["kills"] for g in event_games(last) if g["god"] == god) / played[god] for god in (few, enough)}
    said = _verdict([(god, means[god], played[god]) for god in (few, enough)], "which_more", "kills", "average")
    assert answer.startswith(said), (said, answer)


def test_two_kinds_each_named_twice_are_refused(seasons):
    home, _ = seasons
    pkg, _ = ask_across(home, "thor or loki as support or carry, which wins more this season")
    assert pkg.is_refusal and "gods and roles" in pkg.response.direct_answer, pkg.response.direct_answer
