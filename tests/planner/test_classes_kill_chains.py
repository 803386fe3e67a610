"""Kill chains defined in the question, in one match, end to end: who had the most, a player's (side's, role's, god's)
count, every chain with its times and victims, the match's total; both readings (each kill within S seconds of the one
before; all within S seconds of the first), several N and S, a death of the killer breaking the chain or not as the
question says; a multi-kill with no definition refused, saying how to ask. Every number is worked out here from
truth.py's kill list (its kills with their seconds and lines) and its player deaths, over the simulated match of
`spoken` (some deaths dealt by non-players), the bundled sample and corpus match 21."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from combat_analysis.answer.fidelity import check_text
from combat_analysis.formatting import clock
from tests.support.chains import expected_chains, player_deaths
from tests.support.paths import SAMPLE_LOG
from tests.support.said import has_number
from tests.support.truth_checks import CORPUS


def said_chain(chain: list[dict]) -> str:
    start, end = clock(chain[0]["second"]), clock(chain[-1]["second"])
    return start if start == end else f"{start} to {end}"


MATCHES = ["spoken", "sample", "corpus_match"]
_LOGS = {"sample": SAMPLE_LOG, "corpus_match": next(p for p in CORPUS if p.name == "match_21.log.gz")}


# every test of a class runs on each match in turn: the simulated `spoken`, the bundled sample, corpus match 21
EACH_MATCH = pytest.mark.parametrize("name", MATCHES)


def _game(request, name: str) -> SimpleNamespace:
    """The match's truth, `ask` and player deaths (the match is its fixture's, built once)."""
    chosen = request.getfixturevalue(name)
    log = chosen.log if name == "spoken" else _LOGS[name]
    deaths = player_deaths(log)
    return SimpleNamespace(truth=chosen.truth, ask=chosen.ask, deaths=deaths)


# (n, s, window reading) said in the question
DEFINED = [(2, 10, False), (3, 15, False), (2, 5, True), (3, 30, True)]


def _chains(game, n: int, s: int, window: bool, deaths_break: bool = True) -> list[list[dict]]:
    return expected_chains(game.truth["kills"], game.deaths, n, s, window, deaths_break)


def _rule_said(answer: str, n: int, s: int, window: bool, pkg=None) -> None:
    """The chain's definition is said in the answer, and every number the answer states traces to the data."""
    if pkg is not None:
        assert not check_text(answer, pkg), check_text(answer, pkg)
    assert f"at least {n} player kills by one player" in answer, answer
    close = f"each within {s} seconds of the one before" if not window else f"all within {s} seconds of the chain's first kill"
    assert close in answer and "a longer run counts once" in answer, answer


# ------------------------------------------------------------------- who had the most chains

LEADER = {False: ["who had the most chains of {n} kills, each within {s} seconds of the one before",
                  "which player racked up the most multi kills ({n} kills, no more than {s} secs apart)",
                  "top player for {n}-kill chains w/ every kill {s}s after the previous one"],
          True: ["who got {n} kills within {s} seconds the most times",
                 "most times anybody got {n} kills in {s}s?",
                 "who had the most bursts of {n} kills inside {s} seconds"]}


@pytest.mark.parametrize("n,s,window", DEFINED)
@pytest.mark.parametrize("which", [0, 1, 2])
@EACH_MATCH
def test_who_had_the_most_chains(request, name, n, s, window, which):
    game = _game(request, name)
    chains = _chains(game, n, s, window)
    a = game.ask(LEADER[window][which].format(n=n, s=s))
    assert a.refusal is None and a.plan.chain is not None, a.text
    assert (a.plan.chain.kills, a.plan.chain.seconds, a.plan.chain.reading) == (n, s, "window" if window else "gap")
    _rule_said(a.text, n, s, window, a.pkg)
    if not chains:
        assert a.text.startswith("No player had any"), a.text
        return
    counts = Counter(c[0]["killer"] for c in chains)
    top = max(counts.values())
    for player in (p for p, v in counts.items() if v == top):
        assert player in a.text.split(" had the most")[0], a.text
    assert f"the match: {top}" in a.text, a.text
    assert f"In all, {len(chains)} chain" in a.text, a.text


@pytest.mark.parametrize("template", ["did {p} have the most chains of {n} kills, each within {s} seconds of the one before",
                                      "was {p} the one with the most {n}-kill bursts inside {s}s?"])
@pytest.mark.parametrize("place", [0, 1])  # the leader, then the player after them
@EACH_MATCH
def test_whether_one_player_had_the_most_chains_is_answered_yes_or_no(request, name, template, place):
    game = _game(request, name)
    n, s = 2, 10
    counts = Counter(c[0]["killer"] for c in _chains(game, n, s, "bursts" in template))
    ranked = counts.most_common()
    assert len(ranked) > 1, "this match has one player with chains or none"
    player, mine = ranked[place]
    a = game.ask(template.format(p=player, n=n, s=s))
    tied = sum(1 for v in counts.values() if v == ranked[0][1]) > 1
    if mine < ranked[0][1]:
        assert a.text.startswith("No. ") and f"{player} had {mine}" in a.text, a.text
    else:
        assert a.text.startswith(f"Yes, {player} shares it." if tied else "Yes. "), a.text


@pytest.mark.parametrize(("template", "s", "window"), [
    ("who got 2 kills within a minute the most times", 60, True),
    ("most chains of 2 kills, each under half a min after the previous one?", 30, False),
    ("who had the most 3 kill bursts in 2 minutes", 120, True),
])
@EACH_MATCH
def test_a_span_said_in_minutes_is_its_seconds(request, name, template, s, window):
    game = _game(request, name)
    n = 3 if "3 kill" in template else 2
    chains = _chains(game, n, s, window)
    a = game.ask(template)
    assert a.plan.chain is not None and (a.plan.chain.kills, a.plan.chain.seconds) == (n, s), a.text
    _rule_said(a.text, n, s, window, a.pkg)
    assert f"In all, {len(chains)} chain" in a.text or not chains, a.text


# ------------------------------------------------------------------- one subject's chains, listed

PLAYER = ["how many times did {p} get {n} kills within {s} seconds",
          "{p}: number of {n}-kill chains, each kill within {s}s of the previous",
          "count {p}'s chains of {n}+ kills no more than {s} seconds apart"]


def _reading(template: str) -> bool:
    return "within {s} seconds" in template and "previous" not in template


@pytest.mark.parametrize("template", PLAYER)
@pytest.mark.parametrize("n,s", [(2, 10), (2, 20), (3, 30)])
@EACH_MATCH
def test_a_players_chains_are_counted_and_listed(request, name, template, n, s):
    game = _game(request, name)
    window = _reading(template)
    chains = _chains(game, n, s, window)
    counts = Counter(c[0]["killer"] for c in chains)
    player = counts.most_common(1)[0][0] if counts else min(game.truth["players"])
    a = game.ask(template.format(p=player, n=n, s=s))
    assert a.refusal is None and a.plan.chain is not None, a.text
    assert a.plan.chain.reading == ("window" if window else "gap"), a.plan.chain
    _rule_said(a.text, n, s, window, a.pkg)
    mine = [c for c in chains if c[0]["killer"] == player]
    if not mine:
        assert f"{player} had no kill chains" in a.text, a.text
        return
    assert a.text.startswith(f"{player} had {len(mine)} kill chain"), a.text
    for chain in mine[:8]:
        assert said_chain(chain) in a.text and all(k["victim"] in a.text for k in chain), a.text
    if len(mine) > 8:
        assert f"and {len(mine) - 8} more" in a.text, a.text


SIDES = {1: "order", 2: "chaos"}


@pytest.mark.parametrize("template", ["how many {n} kill chains did {side} get, each kill within {s} s of the one before",
                                      "{side} chains of {n} kills in {s} seconds, how many?"])
@pytest.mark.parametrize("team", [1, 2])
@EACH_MATCH
def test_a_sides_chains(request, name, template, team):
    game = _game(request, name)
    n, s = 2, 12
    window = "one before" not in template
    chains = [c for c in _chains(game, n, s, window) if game.truth["players"][c[0]["killer"]]["team"] == team]
    a = game.ask(template.format(n=n, s=s, side=SIDES[team]))
    assert a.refusal is None and any(f.dimension == "team" for f in a.plan.filters), a.text
    if chains:
        assert f"had {len(chains)} kill chain" in a.text, a.text
    else:
        assert "had no kill chains" in a.text, a.text


@pytest.mark.parametrize("template", ["how many chains of {n} kills in {s} seconds did the {role} players get",
                                      "number of {n}-kill bursts within {s} secs by the {role} role"])
@pytest.mark.parametrize("role", ["Support", "Jungle", "Middle"])
@EACH_MATCH
def test_a_roles_chains(request, name, template, role):
    game = _game(request, name)
    n, s = 2, 15
    chains = [c for c in _chains(game, n, s, True) if game.truth["players"][c[0]["killer"]]["role"] == role]
    a = game.ask(template.format(n=n, s=s, role=role.lower()))
    assert a.refusal is None and any(f.dimension == "role" for f in a.plan.filters), a.text
    assert (f"had {len(chains)} kill chain" if chains else "had no kill chains") in a.text, a.text


@EACH_MATCH
def test_a_gods_chains(request, name):
    game = _game(request, name)
    n, s = 2, 20
    chains = _chains(game, n, s, False)
    counts = Counter(c[0]["killer"] for c in chains)
    player = counts.most_common(1)[0][0] if counts else min(game.truth["players"])
    god = game.truth["players"][player]["god"]
    if sum(1 for row in game.truth["players"].values() if row["god"] == god) != 1:
        pytest.skip("the god is played by more than one player")
    a = game.ask(f"how many {n}-kill chains did the {god} get, each kill {s} seconds or less after the one before")
    assert a.refusal is None and a.plan.chain is not None, a.text
    mine = [c for c in chains if c[0]["killer"] == player]
    assert (f"had {len(mine)} kill chain" if mine else "had no kill chains") in a.text, a.text


# ------------------------------------------------------------------- every chain of the match, and by side or role

@pytest.mark.parametrize("template", ["list every time someone got {n} kills within {s} seconds of each other",
                                      "when did anyone get {n} kills with each one under {s} seconds after the kill before",
                                      "total {n} kill sprees in {s}s this match"])
@pytest.mark.parametrize("n,s", [(2, 8), (3, 25)])
@EACH_MATCH
def test_every_chain_of_the_match(request, name, template, n, s):
    game = _game(request, name)
    window = "kill before" not in template
    chains = _chains(game, n, s, window)
    a = game.ask(template.format(n=n, s=s))
    assert a.refusal is None and a.plan.chain is not None, a.text
    if not chains:
        assert "There were no kill chains" in a.text, a.text
        return
    assert f"{len(chains)} kill chain" in a.text, a.text
    for chain in chains[:8]:
        assert f"{chain[0]['killer']} {said_chain(chain)} ({len(chain)} kills" in a.text, a.text
    if len(chains) > 8:
        assert f"and {len(chains) - 8} more" in a.text, a.text


@pytest.mark.parametrize("template,dim", [("which side had more chains of {n} kills within {s} seconds", "team"),
                                          ("which role had the most {n}-kill chains each within {s}s of the previous kill",
                                           "role")])
@EACH_MATCH
def test_which_side_or_role_had_the_most(request, name, template, dim):
    game = _game(request, name)
    n, s = 2, 10
    chains = _chains(game, n, s, "previous" not in template)
    a = game.ask(template.format(n=n, s=s))
    assert a.refusal is None and a.plan.group_by == (dim,), a.text
    if not chains:
        return
    counts = Counter(game.truth["players"][c[0]["killer"]][dim] for c in chains)
    top = max(counts.values())
    assert f"the match: {top}" in a.text, a.text


# ------------------------------------------------------------------- a death of the killer in between

ALLOWED = ["{p}'s chains of {n} kills in {s} seconds, even if he died in between",
           "how many times did {p} get {n} kills within {s}s, deaths don't break it",
           "{p} {n} kills each within {s} seconds of the one before, dying is fine"]
BROKEN = ["{p}'s chains of {n} kills in {s} seconds without dying",
          "how many times did {p} get {n} kills within {s}s with no deaths in between"]


def _player_with_broken_chain(game, n: int, s: int, window: bool) -> str:
    """A player whose chains differ when deaths break them, or the one with the most chains."""
    kept = Counter(c[0]["killer"] for c in _chains(game, n, s, window, deaths_break=False))
    broken = Counter(c[0]["killer"] for c in _chains(game, n, s, window))
    differs = [p for p in kept if kept[p] != broken.get(p, 0)]
    return differs[0] if differs else (kept.most_common(1)[0][0] if kept else min(game.truth["players"]))


@pytest.mark.parametrize("template", ALLOWED + BROKEN)
@EACH_MATCH
def test_a_death_in_between_breaks_the_chain_unless_the_question_allows_it(request, name, template):
    game = _game(request, name)
    n, s = 2, 60
    window = "one before" not in template
    player = _player_with_broken_chain(game, n, s, window)
    allowed = template in ALLOWED
    a = game.ask(template.format(p=player, n=n, s=s))
    assert a.refusal is None and a.plan.chain is not None, a.text
    assert a.plan.chain.deaths_break is not allowed, a.plan.chain
    mine = [c for c in _chains(game, n, s, window, deaths_break=not allowed) if c[0]["killer"] == player]
    assert (f"{player} had {len(mine)} kill chain" if mine else f"{player} had no kill chains") in a.text, a.text
    assert ("a death of the killer in between not breaking it" if allowed
            else "with no death of the killer in between") in a.text, a.text


# ------------------------------------------------------------------- no definition: refused, saying how to ask

@pytest.mark.parametrize("question", ["any triple kills?", "who got the most double kills", "how many pentas did chaos get",
                                      "multikill count by player", "did order get a quadra kill"])
def test_a_multi_kill_with_no_definition_is_refused_saying_how_to_ask(spoken, question):
    a = spoken.ask(question)
    assert a.refusal is not None, a.text
    assert "defines no multi-kill" in a.text and "each within how many seconds of the one before" in a.text, a.text
    assert not has_number(a.text), a.text
    assert any("ten seconds of the one before" in s for s in a.refusal.suggestions), a.refusal


def test_the_suggested_question_is_answered(spoken):
    a = spoken.ask("Who had the most chains of three kills, each within ten seconds of the one before?")
    assert a.refusal is None and (a.plan.chain.kills, a.plan.chain.seconds) == (3, 10), a.text


# ------------------------------------------------------------------- counted words, a player named beside the leader

@pytest.mark.parametrize("template,n", [("anyone with more than {k} kills within {s} seconds?", 3),
                                        ("at least {k} kills in {s}s, list them", 2),
                                        ("{k}+ kills each within {s} s of the one before: who had the most", 2)])
def test_the_count_of_kills_said_with_a_bound(spoken, template, n):
    a = spoken.ask(template.format(k=2, s=30))
    assert a.refusal is None and a.plan.chain.kills == n, a.plan.chain


def test_a_player_named_with_the_most_is_ranked_among_everyone(spoken):
    n, s = 2, 20
    chains = expected_chains(spoken.truth["kills"], player_deaths(spoken.log), n, s, True)
    counts = Counter(c[0]["killer"] for c in chains)
    top = max(counts.values())
    other = min((p for p in counts if counts[p] < top), default=None)
    if other is None:
        pytest.skip("every player with a chain is tied")
    a = spoken.ask(f"did {other} have the most chains of {n} kills within {s} seconds")
    assert a.plan.filters == () and f"{other} had {counts[other]}" in a.text, a.text
    assert f"the match: {top}" in a.text, a.text


@pytest.mark.parametrize("question", ["who got first blood and who had the most chains of 3 kills within 10 s",
                                      "how much gold did order earn, and their 2 kill chains in 10 seconds?"])
def test_chains_asked_beside_another_figure_are_refused_saying_so(spoken, question):
    a = spoken.ask(question)
    assert a.refusal is not None and "question of their own" in a.text, a.text
