"""Cross-match classes with no scope word, over both simulated seasons, checked against truth.py aggregated in
plain Python (tests/support/season.py): losses ranked, the most games in a role, a player's best or worst game
asked as "which game", and several figures of one player at once."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import number
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    games_of,
    named_players,
    ranked_first,
)

ROLES = ("Support", "Jungle", "Carry", "Solo", "Middle")




def leaders(values: dict[str, int]) -> list[str]:
    best = max(values.values())
    return sorted(p for p, v in values.items() if v == best)




@pytest.mark.parametrize("template", ("who lost the most games", "which player has lost the most matches",
                                      "who lost the most"))
def test_losses_rank_players_across_matches_without_a_scope_word(seasons, template):
    home, matches = seasons
    losses: dict[str, int] = {}
    for g in event_games(matches):
        losses[g["player"]] = losses.get(g["player"], 0) + (g["result"] == "loss")
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(losses)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top
    assert top[0] in answer and f"{losses[top[0]]} loss" in answer, answer


@pytest.mark.parametrize(("template", "role"), (("who played {r} the most", "Support"),
                                                ("who has played {r} the most often", "Jungle"),
                                                ("which player played {r} most", "Middle")))
def test_the_most_games_in_a_role_lists_every_player_tied(seasons, template, role):
    home, matches = seasons
    games: dict[str, int] = {}
    for g in event_games(matches):
        if g["role"] == role:
            games[g["player"]] = games.get(g["player"], 0) + 1
    pkg, rows = ask_across(home, template.format(r=role.lower()))
    answer = answered_across(pkg)
    top = leaders(games)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top
    assert all(p in answer for p in top) and f"{games[top[0]]} games" in answer, answer


@pytest.mark.parametrize(("template", "metric", "worst_is_most"), (
    ("which game was {n}'s worst for deaths", "deaths", True),
    ("what match was {n}'s best for deaths", "deaths", False),
    ("which game was {n}'s best for kills", "kills", True),
))
def test_which_game_was_a_players_best_or_worst(seasons, template, metric, worst_is_most):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    games_ = sorted(games_of(matches, player),
                    key=lambda g: (g["started_at"], g["match_id"]))
    want = (max if worst_is_most else min)(g[metric] for g in games_)
    first = next(g for g in games_ if g[metric] == want)
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    assert first["match_id"] in answer and f"({number(want)})" in answer, answer
    assert answer.index(first["match_id"]) < answer.index(" played "), answer


def season_total(matches, metric: str) -> int:
    return sum(g[metric] for g in event_games(matches))


def per_player(matches, metric: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for g in event_games(matches):
        out[g["player"]] = out.get(g["player"], 0) + g[metric]
    return out


@pytest.mark.parametrize("template", ("who draws fb the most", "who got first blood most often",
                                      "most first blood kills", "which player gets first blood the most times"))
def test_an_event_a_match_has_once_ranked_reads_every_match(seasons, template):
    home, matches = seasons
    values = per_player(matches, "first_bloods")
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top
    assert answer.startswith(f"Across all {len(matches)} matches"), answer
    assert top[0] in answer and f"{values[top[0]]} first blood" in answer, answer


@pytest.mark.parametrize("template", ("how many times did people die to towers all season",
                                      "how many times have players been killed by a tower overall",
                                      "how many times did everybody die to a tower across all games"))
def test_a_count_of_deaths_by_a_cause_among_people_is_the_season_total(seasons, template):
    home, matches = seasons
    total = season_total(matches, "deaths_to_towers")
    pkg, _ = ask_across(home, template)
    answer = answered_across(pkg)
    assert f": {number(total)} deaths to towers in total" in answer, answer


@pytest.mark.parametrize("template", ("how many players died to towers this season",
                                      "number of people killed by a tower across all games"))
def test_players_counted_by_a_cause_are_counted_by_it_not_by_who_took_part(seasons, template):
    home, matches = seasons
    values = per_player(matches, "deaths_to_towers")
    pkg, _ = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert "different players" not in answer and "deaths to towers" in answer, answer
    assert top[0] in answer and f"{values[top[0]]} deaths to towers" in answer, answer


@pytest.mark.parametrize(("template", "figures"), (
    ("average kills, deaths and gold per game for {n}", ("kills", "deaths", "gold")),
    ("{n}'s healing and damage taken per game", ("healing_done", "damage_taken")),
    ("what are {n}'s gold, xp and assists averages across all games", ("gold", "experience", "assists")),
))
def test_every_figure_asked_of_one_player_is_answered(seasons, template, figures):
    home, matches = seasons
    player = named_players(matches, least=3)[-1]
    played = games_of(matches, player)
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    for metric in figures:
        mean = sum(g[metric] for g in played) / len(played)
        assert number(mean, 2) in answer, (metric, number(mean, 2), answer)


@pytest.mark.parametrize(("template", "result"), (("which games did {n} win", "win"),
                                                  ("what matches has {n} lost", "loss"),
                                                  ("list {n}'s wins", "win")))
def test_the_games_a_player_won_or_lost_are_listed_by_number_day_and_id(seasons, template, result):
    home, matches = seasons
    order = [m.match_id for m in sorted(matches, key=lambda m: (m.truth["match_start"], m.match_id))]
    player = max(named_players(matches, least=3), key=lambda p: sum(g["result"] == result for g in games_of(matches, p)))
    picked = sorted((g for g in games_of(matches, player) if g["result"] == result),
                    key=lambda g: (g["started_at"], g["match_id"]))
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    verb = "won" if result == "win" else "lost"
    assert f"{player} {verb} {len(picked)} of {len(games_of(matches, player))} games" in answer, answer
    shown = picked[:5]
    for g in shown:
        said = f"game {order.index(g['match_id']) + 1} ({g['match_id']}, {g['started_at'].date().isoformat()})"
        assert said in answer, (said, answer)
    if len(picked) > len(shown):
        assert f"{len(picked) - len(shown)} more" in answer, answer
    else:
        assert "more" not in answer, answer


@pytest.mark.parametrize("template", ("which games have no result", "list the undecided matches",
                                      "which matches ended without a winner"))
def test_the_matches_with_no_winner_are_listed_by_number_day_and_id(seasons, template):
    home, matches = seasons
    order = sorted(matches, key=lambda m: (m.truth["match_start"], m.match_id))
    undecided = [(n, m) for n, m in enumerate(order, start=1) if m.truth["winner"] is None]
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert [r["match_id"] for r in rows] == [m.match_id for _, m in undecided]
    if not undecided:
        assert "every match has a winner" in answer, answer
    for n, m in undecided[:10]:
        assert f"game {n} ({m.match_id}, {m.truth['match_start'][:10]})" in answer, answer


@pytest.mark.parametrize("template", ("how many matches got a winner", "count the games that were decided",
                                      "how many of our games have a result, how many dont"))
def test_how_many_matches_had_a_winner_is_said_beside_those_without(seasons, template):
    home, matches = seasons
    undecided = [m for m in matches if m.truth["winner"] is None]
    answer = answered_across(ask_across(home, template)[0])
    if not undecided:
        assert "every match has a winner" in answer, answer
        return
    decided = len(matches) - len(undecided)
    assert f"{decided} {'has' if decided == 1 else 'have'} a winner and {len(undecided)} " in answer, answer


@pytest.mark.parametrize("template", ("{n}'s deaths per game, that seems like a lot",
                                      "what does {n} average in deaths a game?? looks high to me",
                                      "i feel like {n} dies constantly: average deaths per match"))
def test_the_askers_impression_across_matches_frames_the_question_and_asks_nothing(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    played = games_of(matches, player)
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    assert number(sum(g["deaths"] for g in played) / len(played), 2) in answer, answer


@pytest.mark.parametrize("template", ("top 3 avg dmg ({n} game minimum)", "avg damage leaders, {n} matches minimum"))
def test_a_minimum_of_games_said_after_them_reads_every_match(seasons, template):
    from statistics import fmean

    home, matches = seasons
    played: dict[str, list[float]] = {}
    for g in event_games(matches):
        played.setdefault(g["player"], []).append(g["damage_dealt"])
    least = 2
    averages = {p: fmean(v) for p, v in played.items() if len(v) >= least}
    top = sorted(averages, key=lambda p: -averages[p])[0]
    pkg, _ = ask_across(home, template.format(n=least))
    answer = answered_across(pkg)
    assert f"at least {least} games" in answer, answer
    assert f"{top} with {number(averages[top], 2)} damage dealt per game" in answer, answer


def test_recent_form_finds_a_player_by_a_word_split_off_at_digits_or_capitals(seasons):
    from combat_analysis.planner.read.names import name_parts
    from combat_analysis.planner.read.words import known_words

    home, matches = seasons
    latest = max(matches, key=lambda m: (m.truth["match_start"], m.match_id))
    whole = {w for p in named_players(matches, least=3) for w in p.casefold().split()}
    picked = [(p, part) for p in named_players(matches, least=3) for part in name_parts(p)
              if len(part) >= 4 and part not in known_words() and part not in whole and p not in latest.truth["players"]
              and sum(part in name_parts(q) for q in named_players(matches, least=1)) == 1]
    if not picked:
        pytest.skip("no player of this season is named by a word split off at digits or capitals")
    player, part = picked[0]
    answer = answered_across(ask_across(home, f"{part}'s deaths lately")[0])
    assert player in answer and "last 5" in answer, answer


def test_a_players_best_hit_across_matches_says_with_what_and_on_whom(seasons):
    home, matches = seasons
    names = set(named_players(matches, least=2))
    owners = [(m, m.truth["biggest_hit"]) for m in matches if m.truth["biggest_hit"]["player"] in names]
    picked = [(m, hit) for m, hit in owners
              if max(g["biggest_hit"] for g in games_of(matches, hit["player"])) == hit["value"]
              and sum(g["biggest_hit"] == hit["value"] for g in games_of(matches, hit["player"])) == 1]
    assert picked, "a player whose best hit of the season is the biggest hit of one match"
    m, hit = picked[0]
    answer = answered_across(ask_across(home, f"{hit['player']}'s largest hit across all matches")[0])
    assert f"({number(hit['value'])}), with {hit['ability']} on {hit['target']}" in answer, (hit, answer)


def _mvp_means(matches, role: str | None = None) -> dict[str, tuple[float, int]]:
    """Each player's mean MVP score per game (the match report's rule, from truth.py's figures), in the role's games."""
    games: dict[str, list[float]] = {}
    for m in matches:
        taken = {}
        for o in m.truth["objectives"]:
            taken[o["killer"]] = taken.get(o["killer"], 0) + 1
        for p, r in m.truth["players"].items():
            if role is None or r["role"] == role:
                games.setdefault(p, []).append(3 * r["kills"] + 1.5 * r["assists"] - 2 * r["deaths"]
                                                + r["damage_to_players"] / 1000 + r["healing_done"] / 1000
                                                + 0.5 * r["mitigated"] / 1000 + 2 * taken.get(p, 0))
    return {p: (sum(v) / len(v), len(v)) for p, v in games.items()}


@pytest.mark.parametrize(("template", "role"), [("who is the best player overall", None),
                                                ("who has been our best {r} over the games", "Carry"),
                                                ("who's the weakest {r} across our matches", "Solo")])
def test_the_best_person_with_no_figure_is_ranked_by_the_mean_mvp_score(seasons, template, role):
    home, matches = seasons
    means = {p: v for p, (v, n) in _mvp_means(matches, role).items() if n >= 3}
    assert means, "someone with 3 games or more"
    pick = (min if "weakest" in template else max)(means, key=means.get)
    said = {"Carry": "carry", "Solo": "solo laner"}.get(role or "", "")
    answer = answered_across(ask_across(home, template.format(r=said))[0])
    lead = answer.split(". Next")[0].split(". Not counted")[0]
    assert f"{pick} with {number(means[pick], 2)} MVP score per game" in lead, (pick, means[pick], answer)


@pytest.mark.parametrize("template", ["deaths per game on average, the two sides together", "mean kills per match with the teams combined"])
def test_both_sides_said_as_one_is_the_matchs_whole(seasons, template):
    home, matches = seasons
    key = "total_deaths" if "deaths" in template else "total_kills"
    want = sum(m.truth[key] for m in matches) / len(matches)
    answer = answered_across(ask_across(home, template)[0])
    assert f"{number(want, 2)} {key.split('_')[1]} per match on average" in answer, (want, answer)


def _means(matches, metric: str, role: str | None = None, least: int = 3) -> dict[str, float]:
    """Each player's mean of `metric` per game (in the role's games), among those with `least` games or more."""
    per: dict[str, list[float]] = {}
    for g in event_games(matches):
        if role is None or g["role"] == role:
            per.setdefault(g["player"], []).append(g[metric])
    return {p: sum(v) / len(v) for p, v in per.items() if len(v) >= least}


@pytest.mark.parametrize(("template", "metric"), [("who averages the most deaths", "deaths"),
                                                  ("which guy has the most kills on average", "kills")])
def test_players_ranked_by_an_average_read_every_match(seasons, template, metric):
    home, matches = seasons
    means = _means(matches, metric)
    top = leaders(means)
    pkg, rows = ask_across(home, template)
    assert ranked_first(rows, "player") == top, (rows[:3], means)
    assert f"{top[0]} with {number(means[top[0]], 2)} {metric} per game" in answered_across(pkg)


def _busiest_role(matches) -> tuple[str, int]:
    """The role with a player who played it most, and that many games."""
    counts: dict[tuple[str, str], int] = {}
    for g in event_games(matches):
        counts[(g["role"], g["player"])] = counts.get((g["role"], g["player"]), 0) + 1
    (role, _), most = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return role, most


_ONE_OF = {"Support": "support", "Jungle": "jungler", "Carry": "adc", "Solo": "solo laner", "Middle": "mid"}


def test_which_one_of_a_role_ranks_its_players(seasons):
    home, matches = seasons
    role, most = _busiest_role(matches)
    means = _means(matches, "kills", role, least=most)
    top = leaders(means)
    pkg, rows = ask_across(home, f"with {most}+ games, which {_ONE_OF[role]} averages the most kills")
    assert ranked_first(rows, "player") == top, (rows[:3], means)


@pytest.mark.parametrize("template", ["among people with at least {n} {r} games, who has the top kills per game",
                                      "who has the highest kills per game as {r}, min {n} {r} games"])
def test_a_minimum_of_games_in_a_role_counts_that_roles_games(seasons, template):
    home, matches = seasons
    role, most = _busiest_role(matches)
    means = _means(matches, "kills", role, least=most)
    pkg, rows = ask_across(home, template.format(n=most, r=role.lower()))
    assert ranked_first(rows, "player") == leaders(means), (rows[:3], means, answered_across(pkg))


def test_which_god_is_the_best_ranks_gods_by_win_rate(seasons):
    home, matches = seasons
    pkg, rows = ask_across(home, "which god has been the best for us")
    answer = answered_across(pkg)
    assert "win rate" in answer.split(". Next")[0] and "most games" not in answer, answer


@pytest.mark.parametrize("template", ["on the map, where does {n} tend to die",
                                      "where do the kills usually happen"])
def test_where_things_happen_is_no_figure_across_matches(seasons, template):
    home, matches = seasons
    pkg, _ = ask_across(home, template.format(n=named_players(matches, least=3)[0]))
    assert pkg.is_refusal and "where on the map" in pkg.response.direct_answer, pkg.response.direct_answer


def test_two_roles_averaged_against_each_other_read_every_match(seasons):
    home, matches = seasons
    per: dict[str, list[float]] = {}
    for g in event_games(matches):
        per.setdefault(g["role"], []).append(g["damage_dealt"])
    mean = {r: sum(v) / len(v) for r, v in per.items()}
    answer = answered_across(ask_across(home, "does the solo lane average less dmg than mids")[0])
    for role in ("Solo", "Middle"):
        assert f"{role} with {number(mean[role], 2)} damage dealt per game" in answer, (role, mean[role], answer)


@pytest.mark.parametrize(("template", "metric"), [("who's slain the most towers so far", "towers"),
                                                  ("which player's slain the fewest bosses", "bosses")])
def test_a_tally_in_the_perfect_reads_every_match(seasons, template, metric):
    home, matches = seasons
    tally: dict[str, int] = {}
    for g in event_games(matches):
        tally[g["player"]] = tally.get(g["player"], 0) + g[metric]
    pkg, rows = ask_across(home, template)
    assert ranked_first(rows, "player") == leaders_of(tally, lowest="fewest" in template), (rows[:3], tally)


def leaders_of(values: dict[str, int], lowest: bool) -> list[str]:
    best = (min if lowest else max)(values.values())
    return sorted(p for p, v in values.items() if v == best)
