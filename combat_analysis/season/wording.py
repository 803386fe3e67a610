"""The sentence that answers a cross-match question, from the rows `season.answers.figure_table` laid out.

One wording per figure kind (`_SENTENCES`); a board is worded by its shape: one entry looked up, the leader (with
everyone tied with it), or a list (ties past its end counted: "and 2 more at 100%"). Averages are always said as
the mean of per-game figures, every figure with the games behind it, and a board with a minimum of games says so,
who it left out, and "nobody qualifies yet" when that is everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from combat_analysis.contracts.plan import ManyMatches, QueryPlan, SeasonFigure
from combat_analysis.contracts.selection import AllMatches, LastMatches, MatchSelection, describe
from combat_analysis.formatting import clock, count, join_and, number, percent, plural, times, with_article
from combat_analysis.season import boards
from combat_analysis.season import figures as season
from combat_analysis.season.answers import also_asked, together_asked, value_column
from combat_analysis.season.chains import sentence as chain_sentence
from combat_analysis.season.figures import metric_label

SHOWN = 10  # entries a list names before counting the rest
TIED_SHOWN = 5  # entries tied for the lead named before counting the rest
Row = dict[str, Any]


def scope_phrase(selection: MatchSelection, matches: int) -> str:
    """'Across all 24 matches', "Over VoidWalker's last 10 matches (10 found)"."""
    if isinstance(selection, AllMatches):
        return f"Across all {count(matches, 'match')}"
    if isinstance(selection, LastMatches):
        return f"Over {describe(selection)} ({matches:,} found)"
    return f"Over {describe(selection)} ({count(matches, 'match')})"


def answer_text(plan: QueryPlan, rows: list[Row], matches: int) -> str:
    """The direct answer to a cross-match plan from its rows (`figure_table`) and the number of matches it read;
    the figures as `season.figures` and `season.boards` computed them."""
    figure = plan.season
    assert figure is not None and isinstance(plan.scope, ManyMatches)
    lead = scope_phrase(plan.scope.selection, matches)
    if figure.metric == "kill_chains":  # the chains the question defined (season/chains.py)
        return chain_sentence(plan, figure, list(rows), lead)
    return _SENTENCES[figure.figure](plan, figure, list(rows), lead)


def _date(row: Row, key: str = "started_at") -> str:
    return str(row.get(key) or "")[:10] or "date unknown"


# --- boards ----------------------------------------------------------------------------------------------------

def figure_label(figure: SeasonFigure) -> str:
    """'kills', 'KDA', 'kills on León0722', 'win rate', 'games'."""
    metric = figure.metric or ""
    if metric in ("kills_on", "deaths_to"):
        return f"{'kills on' if metric == 'kills_on' else 'deaths to'} {figure.versus}"
    if metric == "matches":
        return "games"
    game = boards.GAME_FIGURES.get(metric)
    return game.label if game is not None else metric_label(metric)


def singular(label: str) -> str:
    """'kills' -> 'kill', 'first bloods' -> 'first blood', 'phoenixes destroyed' -> 'phoenix destroyed'."""
    words = label.split(" ")
    for i, word in enumerate(words):
        if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
            words[i] = word[:-2] if word.endswith("xes") else word[:-1]
            break
    return " ".join(words)


def _amount(metric: str, value: Any, average: bool = False) -> str:
    game = boards.GAME_FIGURES.get(metric)
    whole = game is not None and game.kind in ("sum", "max") and not average
    return number(value, 0 if whole else 2)


def _unknown(row: Row) -> str:
    return f", {row['unknown_results']:,} with no winner" if row.get("unknown_results") else ""


_POOLED = {"kd": "total kills over total deaths", "kda": "total kills plus assists over total deaths"}


def _shares(row: Row, which: str) -> str:
    """'; 71.43% of the 7 games with a winner, 55.56% of all 9': both bases named, as games without a winner
    (no Titan fell) count in one and not the other."""
    if row.get(f"{which}_of_decided_pct") is None:
        return ""
    of_decided = (f"; {number(row[f'{which}_of_decided_pct'], 2)}% of the "
                  f"{count(row['decided_games'], 'game')} with a winner")
    if not row.get("unknown_results"):
        return of_decided
    return of_decided + f", {number(row[f'{which}_of_all_pct'], 2)}% of all {row['matches']:,}"


def _record(row: Row) -> str:
    """'6 wins, 1 loss' (and the games without a winner)."""
    return f"{count(row['wins'], 'win')}, {count(row['losses'], 'loss')}{_unknown(row)}"


def entry_value(figure: SeasonFigure, row: Row) -> str:
    """One entry's figure with the games behind it, as the answer says it."""
    metric, games = figure.metric or "", count(row["matches"], "game")
    label = figure_label(figure)
    if metric == "matches":  # games always with how they went: a god pool is its record per god
        rate = f", {with_article(percent(row['win_rate_pct']))} win rate" if row.get("win_rate_pct") is not None else ""
        return f"{games} ({_record(row)}{rate})"
    if metric == "wins":
        return (f"{count(row['wins'], 'win')} over {games} ({count(row['losses'], 'loss')}{_unknown(row)})"
                f"{_shares(row, 'wins')}")
    if metric == "losses":
        return (f"{count(row['losses'], 'loss')} over {games} ({count(row['wins'], 'win')}{_unknown(row)})"
                f"{_shares(row, 'losses')}")
    if metric == "win_rate":
        return f"{with_article(percent(row['win_rate_pct']))} win rate over {games} ({_record(row)})"
    value = row.get(metric)
    if figure.statistic == "average" and row.get(f"pooled_{metric}") is not None:
        return (f"{_amount(metric, value, True)} {label} per game (the mean of per-game figures over {games}); "
                f"{number(row[f'pooled_{metric}'], 2)} from the season totals ({_POOLED[metric]})")
    if figure.statistic == "average":
        return (f"{_amount(metric, value, True)} {label} per game (the mean of per-game figures over {games}; "
                f"{_amount(metric, row.get(f'total_{metric}'))} in total)" if f"total_{metric}" in row else
                f"{_amount(metric, value, True)} {label} per game (the mean of per-game figures over {games})")
    if figure.statistic in ("max", "min"):
        which = "best" if figure.statistic == "max" else "lowest"
        said = (f"a single hit of {_amount(metric, value)}" if metric == "biggest_hit" else
                f"{_amount(metric, value)} {singular(label) if value == 1 else label} in one game")
        return (f"{said}, their {which} (match {row.get('match_id')}, "
                f"{_date(row)}; {games}){_hit_said(row)}")
    return (f"{_amount(metric, value)} {singular(label) if value == 1 else label} in total over {games} "
            f"({_amount(metric, row.get(f'average_{metric}'), True)} per game)")


def _most(figure: SeasonFigure, order: str) -> str:
    """'the most kills', 'the highest win rate', 'the lowest average KDA per game', 'the most kills in one game'."""
    metric, label = figure.metric or "", figure_label(figure)
    high = order != "asc"
    if metric == "win_rate" or figure.statistic == "average":
        word = "highest" if high else "lowest"
        return f"the {word} win rate" if metric == "win_rate" else f"the {word} average {label} per game"
    if metric == "biggest_hit" and figure.statistic in ("max", "min"):  # a maximum already: no "most biggest"
        return f"the {'biggest' if high else 'smallest'} single hit in one game"
    word = "most" if high else "fewest"
    return f"the {word} {label}" + (" in one game" if figure.statistic in ("max", "min") else "")


def _who(figure: SeasonFigure, many: bool = False) -> str:
    """The subject and its filters in words: "god", "LunaSol's gods", "player as Carry", "players playing Loki"."""
    owner = f"{figure.players[0]}'s " if figure.players and figure.subject != "player" else ""
    where = "".join((f" as {figure.role}" if figure.role and figure.subject != "role" else "",
                     f" playing {figure.god}" if figure.god and figure.subject != "god" else "",
                     f" on {boards.side_name(figure.side)}" if figure.side and figure.subject != "side" else "",
                     {"win": " in the games won", "loss": " in the games lost"}.get(figure.result or "", "")))
    return f"{owner}{plural(figure.subject) if many else figure.subject}{where}"


def _by(figure: SeasonFigure) -> str:
    """What a list is ordered by: 'games', 'win rate', 'kills', 'average KDA per game', 'kills in one game'."""
    metric, label = figure.metric or "", figure_label(figure)
    if metric in boards.RECORD_FIGURES:
        return label
    return {"average": f"average {label} per game", "max": f"{label} in one game",
            "min": f"{label} in one game (lowest)"}.get(figure.statistic, f"total {label}")


def _the(figure: SeasonFigure, who: str) -> str:
    """'the god', but "LunaSol's god" without an article."""
    return who if figure.players and figure.subject != "player" else f"the {who}"


def _named(figure: SeasonFigure, row: Row) -> str:
    return str(row[figure.subject])


def _minimum(figure: SeasonFigure) -> str:
    if figure.min_matches <= 1:
        return ""
    said = " (the default for averages and rates)" if figure.min_default else ""
    return f" among {plural(figure.subject)} with at least {count(figure.min_matches, 'game')}{said}"


def _left_out(figure: SeasonFigure, below: Sequence[Row]) -> str:
    if not below:
        return ""
    shown = "; ".join(f"{_named(figure, r)} with {entry_value(figure, r)}" for r in below)
    return f" Not counted, with fewer than {count(figure.min_matches, 'game')}: {shown}."


def _lookup(plan: QueryPlan, figure: SeasonFigure, rows: list[Row]) -> str:
    row = rows[0]
    who = figure.players[0] if figure.subject == "player" and figure.players else _named(figure, row)
    where = _who(figure).removeprefix(figure.subject).removeprefix("'s ")
    return f"{who}{where}: {entry_value(figure, row)}{_together_entry(plan, figure, row)}."


def _tied(rows: list[Row], column: str) -> list[Row]:
    return [r for r in rows if r.get(column) == rows[0].get(column)]


def _leader(plan: QueryPlan, figure: SeasonFigure, rows: list[Row]) -> str:
    column = value_column(figure.metric or "")
    wanted = min(plan.position, len(rows))
    if wanted > 1:
        row = rows[wanted - 1]
        return (f"{_the(figure, _ordinal(wanted) + ' ' + _who(figure))} by {_by(figure)}: {_named(figure, row)} with "
                f"{entry_value(figure, row)}.")
    tied = _tied(rows, column)
    names = "; ".join(f"{_named(figure, r)} with {entry_value(figure, r)}" for r in tied[:TIED_SHOWN])
    more = f"; and {len(tied) - TIED_SHOWN} more tied" if len(tied) > TIED_SHOWN else ""
    shared = f", {len(tied)} tied" if len(tied) > 1 else ""
    sentence = f"{_the(figure, _who(figure))} with {_most(figure, plan.order)}{shared}: {names}{more}."
    after = rows[len(tied)] if len(rows) > len(tied) else None
    if after is not None:
        sentence += f" Next: {_named(figure, after)} with {entry_value(figure, after)}."
    return sentence


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"number {n}")


def _list(plan: QueryPlan, figure: SeasonFigure, rows: list[Row]) -> str:
    column = value_column(figure.metric or "")
    limit = plan.limit if plan.shape == "top" else SHOWN
    shown = rows[:limit]
    entries = "; ".join(f"{r['rank']}. {_named(figure, r)} with {entry_value(figure, r)}" for r in shown)
    rest = rows[limit:]
    tail = ""
    if rest:
        tied = [r for r in rest if r.get(column) == shown[-1].get(column)]
        tail = (f"; and {len(tied)} more tied with {_named(figure, shown[-1])}" if tied and plan.shape == "top"
                else f"; and {len(rest)} more")
    order = "lowest first" if plan.order == "asc" else "highest first"
    return f"{_who(figure, many=True)} by {_by(figure)} ({order}): {entries}{tail}."


def _none(figure: SeasonFigure, rows: list[Row]) -> str:
    """Those whose count is zero, or nobody, with the fewest said."""
    column = value_column(figure.metric or "")
    zero = [r for r in rows if not r.get(column)]
    label = figure_label(figure)
    if not zero:
        fewest = _tied(rows, column)
        names = "; ".join(f"{_named(figure, r)} with {entry_value(figure, r)}" for r in fewest[:TIED_SHOWN])
        more = f"; and {len(fewest) - TIED_SHOWN} more" if len(fewest) > TIED_SHOWN else ""
        return f"no {figure.subject} has 0 {label}: the fewest is {names}{more}."
    names = "; ".join(f"{_named(figure, r)} with {entry_value(figure, r)}" for r in zero[:SHOWN])
    more = f"; and {len(zero) - SHOWN} more" if len(zero) > SHOWN else ""
    return f"{count(len(zero), _who(figure))} with 0 {label}: {names}{more}."


def _board_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    qualified = [r for r in rows if r.get("qualifies", True)]
    below = [r for r in rows if r.get("qualifies") is False]
    among = _minimum(figure)
    if figure.named:
        return _compared_sentence(plan, figure, rows, lead)
    if not qualified:
        return _nobody(plan, figure, below, lead)
    if figure.none:
        body = _none(figure, qualified)
    elif plan.intent.value == "lookup":
        body = _lookup(plan, figure, qualified)
    elif plan.shape == "leader":
        body = _leader(plan, figure, qualified)
    else:
        body = _list(plan, figure, qualified)
    return f"{lead}{among}, {body}{_left_out(figure, below)}{_board_total(figure, rows[0])}"


def _board_total(figure: SeasonFigure, row: Row) -> str:
    """The total a board of a count ranks: 'In all, 26 deaths to towers over 80 player-games.'"""
    if row.get("board_total") is None:
        return ""
    games = "player-game" if figure.subject in ("player", "god", "role") else "game"
    return (f" In all, {number(row['board_total'], 0)} {figure_label(figure)} over "
            f"{count(row['board_games'], games)}.")


def _nobody(plan: QueryPlan, figure: SeasonFigure, below: list[Row], lead: str) -> str:
    if figure.metric == "win_rate" and not below:
        # a win rate counts decided games only (docs/season.md); say why there is none instead of "no data"
        return (f"{lead}: no win rate can be given, as none of these matches has a known winner "
                "(the log records no Titan kill).")
    if figure.min_matches > 1:
        most = max((r["matches"] for r in below), default=0)
        shown = "; ".join(f"{_named(figure, r)} with {entry_value(figure, r)}" for r in below)
        return (f"{lead}: nobody qualifies yet: no {_who(figure)} has played {count(figure.min_matches, 'game')} "
                f"(the most is {most:,}). Ask 'with at least {max(most, 1)} games' to rank them"
                + (f"; with fewer games: {shown}." if shown else "."))
    if plan.intent.value == "lookup" and figure.subject == "player" and figure.players:
        return f"{lead}, {figure.players[0]}{_who(figure).removeprefix('player')}: no games in these matches."
    if plan.intent.value == "lookup":
        return f"{lead}: no games of {_who(figure).removeprefix('player')} in these matches.".replace(" of  ", " of ")
    return f"{lead}: no matching data was found."


# --- matches, and the season ---------------------------------------------------------------------------------------

_MATCH_MOST = {("duration_s", "desc"): "the longest match", ("duration_s", "asc"): "the shortest match",
               ("first_blood_s", "asc"): "the fastest first blood", ("first_blood_s", "desc"): "the latest first blood",
               ("final_gold_difference", "asc"): "the closest gold race (the smallest final gold difference)",
               ("largest_gold_lead", "asc"): "the smallest largest gold lead",
               ("largest_gold_lead", "desc"): "the most one-sided gold race (the largest gold lead)",
               ("biggest_hit", "desc"): "the biggest single hit", ("biggest_hit", "asc"): "the smallest biggest hit"}


def _match_value(metric: str, value: Any) -> str:
    figure = boards.MATCH_FIGURES.get(metric)
    if figure is not None and figure.kind == "time":
        return f"{clock(round(value))} ({count(round(value), 'second')})" if value is not None else "n/a"
    return number(value, 0)


def _mean_time(value: Any) -> str:
    """A mean of times keeps its tenths: the nearest clock, and its seconds ("0:16 (15.8 seconds)")."""
    return f"{clock(round(value))} ({number(value, 1)} seconds)" if value is not None else "n/a"


def _hit_said(row: Row) -> str:
    """A single hit's ability and target, when the row has them: ", with Charge Prey on Stella"."""
    return f", with {row['hit_with']} on {row['hit_target']}" if row.get("hit_with") else ""


def _match_entry(metric: str, row: Row) -> str:
    who = (f", {row['first_blood_killer']} killing {row['first_blood_victim']}"
           if row.get("first_blood_killer") else f", by {row['hit_by']}{_hit_said(row)}" if row.get("hit_by") else "")
    return f"match {row['match_id']} ({_date(row)}) with {_match_value(metric, row.get(metric))}{who}"


def _matches_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    metric = figure.metric or "kills"
    if not rows:
        return f"{lead}: no match has a {boards.MATCH_FIGURES[metric].label}."
    label = boards.MATCH_FIGURES[metric].label
    fewest, most_ = ("earliest", "latest") if boards.MATCH_FIGURES[metric].kind == "time" else ("fewest", "most")
    most = _MATCH_MOST.get((metric, plan.order),
                           f"the match with the {fewest if plan.order == 'asc' else most_} {label}")
    if plan.shape != "leader":
        limit = plan.limit if plan.shape == "top" else SHOWN
        entries = "; ".join(f"{r['rank']}. {_match_entry(metric, r)}" for r in rows[:limit])
        return f"{lead}, the matches by {label} ({'lowest' if plan.order == 'asc' else 'highest'} first): {entries}."
    tied = _tied(rows, metric)
    names = " and ".join(_match_entry(metric, r) for r in tied[:TIED_SHOWN])
    more = f"; and {len(tied) - TIED_SHOWN} more tied" if len(tied) > TIED_SHOWN else ""
    sentence = f"{lead}, {most}: {names}{more}."
    if len(rows) > len(tied):
        sentence += f" Next: {_match_entry(metric, rows[len(tied)])}."
    return sentence


_EXTREMES = {"duration_s": ("longest", "shortest"), "first_blood_s": ("latest", "earliest")}


def _undecided_sentence(rows: list[Row], lead: str) -> str:
    """"Across all 8 matches, 6 have a winner and 2 have no winner in the log: game 3 (…, 2025-06-14) and game 6
    (…)."."""
    if not rows:
        return f"{lead}, every match has a winner."
    shown = [_game_named(r) for r in rows[:SHOWN]]
    more = [f"{len(rows) - len(shown):,} more (in the table)"] if len(rows) > len(shown) else []
    decided = rows[0]["of_matches"] - len(rows)
    some = "none has a winner and " if decided == 0 else f"{decided:,} {'has' if decided == 1 else 'have'} a winner and "
    have = "has" if len(rows) == 1 else "have"
    return f"{lead}, {some}{len(rows):,} {have} no winner in the log: {_and(shown + more)}."


def _season_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    first = _one_season_sentence(plan, figure, rows, lead)
    row = rows[0] if rows else {}
    for also in also_asked(plan, figure.metric or "matches"):  # each other match figure asked, with its own base
        own = {"matches": row.get("matches"), "counted": row.get(f"counted_{also}"),
               **{f"{k}_{also}": row.get(f"{k}_{also}") for k in ("total", "average", "highest", "lowest")},
               f"average_{also}_minutes": row.get(f"average_{also}_minutes")}
        alone = plan.model_copy(update={"metrics": (also,)})
        first += " " + _one_season_sentence(alone, figure.model_copy(update={"metric": also}), [own],
                                            "Over the same matches")
    return first


def _one_season_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    if figure.result == "unknown":
        return _undecided_sentence(rows, lead)
    row = rows[0] if rows else {}
    metric = figure.metric or "matches"
    if metric in boards.SEASON_COUNTS:
        return (f"{lead}: {count(row[metric], 'different ' + metric[:-1])} "
                f"({count(row['players'], 'player')} and {count(row['gods'], 'god')} in all, over "
                f"{count(row['player_games'], 'player-game')}).")
    if metric == "matches":
        n = row.get("matches", 0)
        span = (f", from {_date(row, 'first_started_at')} to {_date(row, 'last_started_at')}" if n else "")
        if isinstance(plan.scope, ManyMatches) and isinstance(plan.scope.selection, AllMatches):
            return f"The warehouse holds {count(n, 'match')}{span}."
        return f"{lead}: {count(n, 'match')}{span}."
    found = boards.MATCH_FIGURES[metric]
    if not row.get("counted"):
        return f"{lead}: no match has a {found.label}."
    over = f"the mean over {count(row['counted'], 'match')}"
    if found.kind == "time":
        minutes = number(row[f"average_{metric}_minutes"], 2)
        high, low = _EXTREMES.get(metric, ("latest", "earliest"))
        return (f"{lead}, the average {found.label} was {_mean_time(row[f'average_{metric}'])}, {minutes} "
                f"minutes ({over}); the {high} {_match_value(metric, row[f'highest_{metric}'])}, the {low} "
                f"{_match_value(metric, row[f'lowest_{metric}'])}.")
    average, total = number(row[f"average_{metric}"], 2), number(row[f"total_{metric}"], 0)
    if together_asked(plan, metric):
        return _together_sentence(plan, metric, row, lead, over)
    if figure.statistic == "total":
        return f"{lead}: {total} {found.label} in total ({average} per match, {over})."
    return f"{lead}: {average} {found.label} per match on average ({over}); {total} in total."


def _together_sentence(plan: QueryPlan, metric: str, row: Row, lead: str, over: str) -> str:
    """Objective kinds asked together over the season: each one's total, their sum, and each one's mean per match."""
    kinds = (metric, *together_asked(plan, metric))
    totals = join_and([f"{number(row[f'total_{m}'], 0)} {boards.MATCH_FIGURES[m].label}" for m in kinds])
    means = join_and([number(row[f"average_{m}"], 2) for m in kinds])
    summed = f", {number(row['together'], 0)} together" if row.get("together") is not None else ""
    return f"{lead}: {totals} in total{summed} ({means} per match, {over})."


def _together_entry(plan: QueryPlan, figure: SeasonFigure, row: Row) -> str:
    """Beside one entry's first objective kind, the others asked with it over the same games, and their sum."""
    others = together_asked(plan, figure.metric or "")
    if not others or f"total_{others[0]}" not in row:
        return ""
    said = "; ".join(f"{number(row[f'total_{m}'], 0)} {boards.GAME_FIGURES[m].label} in total "
                     f"({number(row[f'average_{m}'], 2)} per game)" for m in others)
    if row.get("together") is None:
        return f"; {said}"
    labels = join_and([boards.GAME_FIGURES[m].label for m in (figure.metric or "", *others)])
    return f"; {said}; {number(row['together'], 0)} {labels} together"


# --- a player's profile, head-to-head and trend ----------------------------------------------------------------------

def _asked_games(which: str, label: str, games: str, value: Any) -> str:
    """The best or worst game asked for, by number, id and day with its value; every game tied at it is listed."""
    said = [f"{game} ({number(value, 2)})" for game in games.split("; ")]
    if len(said) == 1:
        return f"{which} match by {label}: {said[0]}"
    return f"{which} matches by {label}, {len(said)} tied: {join_and(said)}"


def _compared_value(figure: SeasonFigure, row: Row) -> tuple[str, Any] | None:
    """The value a yes/no comparison reads from a profile row, and how it is said: the per-game mean when an
    average was asked (or the figure has no total), the total otherwise, the win rate for a record."""
    metric = figure.metric or "damage_dealt"
    if metric in boards.RECORD_FIGURES:
        column = {"matches": "matches", "wins": "wins", "losses": "losses"}.get(metric, "win_rate_pct")
        return (metric_label(metric) if column != "win_rate_pct" else "win rate"), row.get(column)
    if figure.statistic != "average" and f"total_{metric}" in row:
        return f"total {metric_label(metric)}", row[f"total_{metric}"]
    if f"average_{metric}" in row:
        return f"per-game mean {metric_label(metric)}", row[f"average_{metric}"]
    return None


def _compared_said(said: str, row: Row, value: Any) -> str:
    """"36.25 over 8 games", "50% over 8 games": a compared value with the games behind it."""
    if said == "games":  # the games are the value
        return count(value, "game")
    shown = percent(value) if said == "win rate" else number(value, 2)
    return f"{shown} over {count(row['matches'], 'game')}"


def _relation(a: Any, b: Any) -> str:
    return "more than" if a > b else "less than" if a < b else "the same as"


def _compared_clause(said: str, first: Row, a: Any, second: Row, b: Any, key: str = "player") -> str:
    """"Ann's per-game mean assists: 36.25 over 8 games, less than Bo's 39.43 over 7 games": the one clause every
    comparison of two players (or gods, roles, sides: `key`) says, first to second."""
    return (f"{first[key]}'s {said}: {_compared_said(said, first, a)}, {_relation(a, b)} "
            f"{second[key]}'s {_compared_said(said, second, b)}")


def _verdict(figure: SeasonFigure, rows: list[Row]) -> str:
    """"No: Ann's per-game mean assists: 36.25 over 8 games, less than Bo's 39.43 over 7 games. " for a yes/no
    comparison of two players, "Bo: Bo's ... more than Ann's ... " for which of the two, "Neither: ..." for a tie;
    "" when there is none or a value is missing."""
    by_name = {row["player"]: row for row in rows}
    if figure.compare is None or len(figure.players) != 2 or not all(p in by_name for p in figure.players):
        return ""
    first, second = (by_name[p] for p in figure.players)
    (said, a), (_, b) = (_compared_value(figure, row) or ("", None) for row in (first, second))
    if a is None or b is None:
        return ""
    return _two_compared(figure.compare, said, (first, a), (second, b), "player")


def _two_compared(compare: str, said: str, first: tuple[Row, Any], second: tuple[Row, Any], key: str) -> str:
    """The verdict on two values, first to second (see `_verdict`)."""
    (one, a), (other, b) = first, second
    if compare in ("which_more", "which_less"):
        if a == b:
            return f"Neither: {_compared_clause(said, one, a, other, b, key)}. "
        more = compare == "which_more"
        (top, top_value), (low, low_value) = sorted((first, second), key=lambda p: p[1], reverse=more)
        return f"{top[key]}: {_compared_clause(said, top, top_value, low, low_value, key)}. "
    yes = (a > b) if compare == "more" else (a < b)
    return f"{'Yes' if yes else 'No'}: {_compared_clause(said, one, a, other, b, key)}. "


# --- gods, roles or sides named and set against each other -------------------------------------------------------

def _entry_compared(figure: SeasonFigure, row: Row) -> tuple[str, Any]:
    """What a comparison of named entries reads from a board row, and how it is said: the record figure asked
    (the win rate, wins, losses, games), else the statistic of the figure."""
    metric, label = figure.metric or "", figure_label(figure)
    if metric in boards.RECORD_FIGURES:
        return ("win rate" if metric == "win_rate" else label), row.get(value_column(metric))
    said = {"average": f"per-game mean {label}", "max": f"{label} in one game (their best)",
            "min": f"{label} in one game (their lowest)"}.get(figure.statistic, f"total {label}")
    return said, row.get(metric)


def _not_compared(figure: SeasonFigure, row: Row) -> str:
    """Why a named entry is left out of the comparison: no games, too few, or no value (no game with a winner)."""
    name = _named(figure, row)
    if not row["matches"]:
        return f"{name} has no games in these matches"
    if row.get("qualifies") is False:
        return (f"{name} has {count(row['matches'], 'game')}, fewer than the minimum of {figure.min_matches:,} "
                f"('with at least {row['matches']:,} games' counts it)")
    return f"{name} has no win rate, as none of its games has a winner"


def _entries_verdict(figure: SeasonFigure, rows: list[Row]) -> str:
    """Which of the named entries is more (less), or yes or no for two; ties said as ties, and the entries that
    cannot be compared said with the reason (no games, fewer than the minimum, no value)."""
    rows = sorted(rows, key=lambda r: figure.named.index(_entry_key(figure, r)))  # as the question named them
    valued = [(r, _entry_compared(figure, r)[1]) for r in rows if r.get("qualifies") is not False]
    valued = [(r, v) for r, v in valued if v is not None]
    left = [_not_compared(figure, r) for r in rows if all(r is not v[0] for v in valued)]
    if len(valued) < 2:
        return f"Not compared: {'; '.join(left)}. "
    said = _entry_compared(figure, valued[0][0])[0]
    if len(rows) == 2:
        return _two_compared(figure.compare or "which_more", said, valued[0], valued[1], figure.subject)
    why = f"; not compared: {'; '.join(left)}" if left else ""
    return f"Of {join_and([str(r[figure.subject]) for r in rows])}, {_top_of(figure, valued, said)}{why}. "


def _top_of(figure: SeasonFigure, valued: list[tuple[Row, Any]], said: str) -> str:
    """"Thor has the highest per-game mean kills (2.61 over 23 games)", or those tied at it ("Thor and Loki share
    the highest win rate (50% each)")."""
    more = figure.compare != "which_less"
    counted = said in ("games", "wins", "losses") or said.startswith("total ")
    word = ("most" if more else "fewest") if counted else ("highest" if more else "lowest")
    best = (max if more else min)(v for _, v in valued)
    top = [r for r, v in valued if v == best]
    if len(top) == 1:
        return f"{top[0][figure.subject]} has the {word} {said} ({_compared_said(said, top[0], best)})"
    each = _compared_said(said, top[0], best).split(" over ")[0]
    return f"{join_and([str(r[figure.subject]) for r in top])} share the {word} {said} ({each} each)"


def _entry_key(figure: SeasonFigure, row: Row) -> str:
    """The name a plan gave an entry: a side's number ("1"), a god or role as named (case aside)."""
    name = str(row[figure.subject])
    if figure.subject == "side":
        return next(n for n in figure.named if boards.side_name(n) == name)
    return next(n for n in figure.named if n.casefold() == name.casefold())


def _compared_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    """Named entries set against each other: the verdict, then each one's figure with its games, those with fewer
    games than the minimum, and those with none."""
    qualified = [r for r in rows if r.get("qualifies", True)]
    below = [r for r in rows if r.get("qualifies") is False and r["matches"]]
    verdict = _entries_verdict(figure, rows)
    named = "" if figure.players else "the named "
    listed = f", {named}{_list(plan, figure, qualified)}" if qualified else f": no {figure.subject} named qualifies."
    return f"{verdict}{lead}{_minimum(figure)}{listed}{_left_out(figure, below)}"


def _profile_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    metric = figure.metric or "damage_dealt"
    best_by = metric if metric in season.PLAYER_METRICS else "damage_dealt"
    label = metric_label(best_by)
    parts = []
    for row in rows:
        record = (f"{row['player']} played {count(row['matches'], 'match')}: {count(row['wins'], 'win')}, "
                  f"{count(row['losses'], 'loss')}, {row['unknown_results']:,} with no winner (win rate "
                  f"{percent(row['win_rate_pct'])})")
        average = f"{number(row[f'average_{best_by}'], 2)} per match (the mean of per-match figures)"
        figures = (f"{label[:1].upper() + label[1:]}: {number(row[f'total_{best_by}'], 0)} in total, {average}"
                   if f"total_{best_by}" in row else f"{label[:1].upper() + label[1:]}: {average}")
        if "overall_kda" in row:
            figures += f"; overall KDA {number(row['overall_kda'], 2)}"
        best = (f"best match by {label}: {row['best_match_id']} ({number(row['best_value'], 2)}){_hit_said(row)}; "
                f"worst: {row['worst_match_id']} ({number(row['worst_value'], 2)})")
        if figure.best == "best" and row.get("best_matches"):
            best = (f"{_asked_games('best', label, row['best_matches'], row['best_value'])}{_hit_said(row)}; worst: "
                    f"{row['worst_match_id']} ({number(row['worst_value'], 2)})")
        if figure.best == "worst":
            asked = (_asked_games("worst", label, row["worst_matches"], row["worst_value"])
                     if row.get("worst_matches") else
                     f"worst match by {label}: {row['worst_match_id']} ({number(row['worst_value'], 2)})")
            best = f"{asked}; best: {row['best_match_id']} ({number(row['best_value'], 2)})"
        if figure.best is not None:
            parts.append(f"{row['player']}'s {best}. {record}. {figures}.")
        elif metric in boards.RECORD_FIGURES:
            parts.append(f"{record}.{_career(row)}")
        elif figure.statistic == "average":
            parts.append(f"{row['player']}'s per-match average {label} was {number(row[f'average_{best_by}'], 2)} "
                         f"(the mean of per-match figures over {count(row['matches'], 'match')}). "
                         f"{best[:1].upper() + best[1:]}.{_career(row)}")
        else:
            parts.append(f"{record}. {figures}; {best}.{_career(row)}")
        # a record says no figure of its own: the fallback figure is said when it was asked beside the record
        said_by = None if metric in boards.RECORD_FIGURES and figure.best is None else best_by
        parts[-1] += _others(plan, said_by, row, figure.statistic == "average")
    return _verdict(figure, rows) + f"{lead}, " + " ".join(parts)


def other_figures(plan: QueryPlan, best_by: str | None, row: Row) -> list[str]:
    """The player figures asked beside the first that the row carries and no other sentence says."""
    said = ("kills", "deaths", "assists") if "career_kda" in row else ()
    return [m for m in dict.fromkeys(plan.metrics)
            if m != best_by and m not in said and f"average_{m}" in row]


def _others(plan: QueryPlan, best_by: str | None, row: Row, average: bool) -> str:
    """" Gold: 65,604 in total, 9,372 per match (the mean of per-match figures)." for every other figure asked."""
    each = []
    for m in other_figures(plan, best_by, row):
        mean, label = f"{number(row[f'average_{m}'], 2)} per match", metric_label(m)
        total = f"{number(row[f'total_{m}'], 0)} in total" if f"total_{m}" in row else ""
        said = (mean, total) if average or not total else (total, mean)
        each.append(f"{label[:1].upper() + label[1:]}: " + ", ".join(s for s in said if s))
    if not each:
        return ""
    return " " + "; ".join(each) + " (per match is the mean of per-match figures)."


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _career(row: Row) -> str:
    """" Career: 104 kills, 92 deaths and 198 assists in total (17.33, 15.33 and 33.00 per match, the mean of
    per-match figures); KDA 3.28 (kills plus assists over deaths, of the totals)." beside a record."""
    if "career_kda" not in row:
        return ""
    figures = ("kills", "deaths", "assists")
    totals = _and([f"{number(row[f'career_total_{m}'], 0)} {m}" for m in figures])
    means = _and([number(row[f"career_average_{m}"], 2) for m in figures])
    return (f" Career: {totals} in total ({means} per match, the mean of per-match figures); KDA "
            f"{number(row['career_kda'], 2)} (kills plus assists over deaths, of the totals).")


def _h2h_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    h = rows[0]
    a, b = h["player_a"], h["player_b"]
    if not h["matches_together"]:
        return f"{lead}, {a} and {b} never played in the same match."
    if figure.metric == "assists" and "assists_a_on_b" in h:
        lead += (f", counting an assist on a player as an assist in a kill of that player: {a} assisted in "
                 f"{count(h['assists_a_on_b'], 'kill')} of {b}, {b} in {count(h['assists_b_on_a'], 'kill')} of {a}."
                 " Head to head")
    return (f"{lead}, {a} and {b} played {count(h['matches_together'], 'match')} together: {h['as_teammates']:,} as teammates "
            f"({h['teammate_wins']:,} won, {h['teammate_losses']:,} lost) and {h['as_opponents']:,} as opponents "
            f"({a}'s team won {h['wins_a']:,}, {b}'s {h['wins_b']:,}, {h['opponent_unknown_results']:,} with no "
            f"winner). {a} killed {b} {times(h['kills_a_on_b'])}; {b} killed {a} {times(h['kills_b_on_a'])}.")


RESULT_GAMES_SHOWN = 5  # games a list of wins (losses) names before counting the rest
_RESULT_VERBS = {"win": "won", "loss": "lost"}


def _game_named(row: Row) -> str:
    """"game 8 (8892268288, 2025-10-21)": its number in the selected matches, its id and its day."""
    number_said = f"game {row['game_number']} " if row.get("game_number") else ""
    return f"{number_said}({row['match_id']}, {_date(row)})"


def _results_sentence(figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    """The games a player won (lost), oldest first, with the record they come from: "Kōhai won 1 of 8 games
    (5 lost, 2 with no winner): game 8 (8892268288, 2025-10-21)."."""
    asked = figure.result or "win"
    other = "loss" if asked == "win" else "win"
    player, verb = figure.players[0], _RESULT_VERBS[asked]
    picked = [r for r in rows if r["result"] == asked]
    rest = (f"{sum(r['result'] == other for r in rows):,} {_RESULT_VERBS[other]}, "
            f"{sum(r['result'] == 'unknown' for r in rows):,} with no winner")
    head = f"{lead}, {player} {verb} {picked and len(picked) or 'none'} of {count(len(rows), 'game')} ({rest})"
    if not picked:
        return head + "."
    shown = [_game_named(r) for r in picked[:RESULT_GAMES_SHOWN]]
    more = len(picked) - len(shown)
    listed = _and(shown + [f"{more:,} more (in the table)"]) if more else _and(shown)
    return f"{head}: {listed}."


def _trend_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[Row], lead: str) -> str:
    if figure.result is not None:
        return _results_sentence(figure, rows, lead)
    metric = figure.metric or "kda"
    label = metric_label(metric)
    player = figure.players[0]
    if not rows:
        return f"{lead}: no matching data was found."
    first, last = rows[0], rows[-1]
    values = [r[metric] for r in rows if r[metric] is not None]
    highest = max(rows, key=lambda r: r[metric] if r[metric] is not None else float("-inf"))
    lowest = min(rows, key=lambda r: r[metric] if r[metric] is not None else float("inf"))
    best, worst = (lowest, highest) if metric in season.LOWER_IS_BETTER else (highest, lowest)
    if len(rows) == 1:
        return f"{lead}, {player} played one match: {label} {number(first[metric], 2)} in {first['match_id']}."
    move = "rose" if last[metric] > first[metric] else "fell" if last[metric] < first[metric] else "held"
    # a figure that adds up over games has a total too ("X's deaths, last 5 games": 70 of them)
    total = f"{number(sum(values), 2)} in total, " if metric in season.ADDITIVE_METRICS else ""
    return (f"{lead}, {player}'s {label} {move} from {number(first[metric], 2)} in {first['match_id']} to "
            f"{number(last[metric], 2)} in {last['match_id']} over {count(len(rows), 'match')}; {total}mean "
            f"{number(sum(values) / len(values), 2)}, best {number(best[metric], 2)} ({best['match_id']}), worst "
            f"{number(worst[metric], 2)} ({worst['match_id']}).{_game_by_game(rows, metric)}")


_GAMES_LISTED = 10


def _game_by_game(rows: list[Row], metric: str) -> str:
    """" Game by game: 9 (5904737527, 2025-06-18), 18 (...)." — each game's value, oldest first, when few enough to
    read; more games are counted."""
    shown = rows[-_GAMES_LISTED:]
    each = ", ".join(f"{number(r[metric], 2)} ({r['match_id']}, {_date(r)})" for r in shown)
    earlier = f" (the {len(rows) - len(shown)} earlier matches are in the table)" if len(rows) > len(shown) else ""
    return f" Game by game, oldest first: {each}{earlier}."


_SENTENCES = {"board": _board_sentence, "matches": _matches_sentence, "season": _season_sentence,
              "profile": _profile_sentence, "head_to_head": _h2h_sentence, "trend": _trend_sentence}
