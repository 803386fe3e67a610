"""Questions in other words over a simulated match with renamed players, answered through the real five
stages and judged by the shared scorer against truth.py's figures (see tests/paraphrases.py).

The full dev and held-out sets run from the command line (`python -m tests.paraphrases dev|held-out`); here
one dev match runs every dev template, so a change that breaks a kind of question fails the suite."""

from __future__ import annotations

from tests.support import paraphrases

SEED = paraphrases.DEV_SEEDS[0]


def test_renamed_match_keeps_its_truth(tmp_path):
    match = paraphrases.build_match(SEED, tmp_path)
    from combat_analysis.ingest.simulate import NAMES

    assert len(match.names) == 10 and not set(match.names) & set(NAMES)
    assert sum(p["kills"] for p in match.truth["players"].values()) == match.truth["total_kills"]


def test_generated_questions_cover_every_kind(outcomes):
    kinds = {o.case.kind for o in outcomes}
    assert {"leader", "lookup", "list", "top", "teams", "role group", "window", "window compare", "phases",
            "first blood", "winner", "length", "abilities", "build", "mvp", "series", "two parts", "refuse", "rate leader", "rate lookup", "condition other"} <= kinds


def test_every_number_of_every_answer_traces_to_the_data(outcomes):
    untraced = [f"{o.case.question}: {p}" for o in outcomes for p in o.unsupported]
    assert not untraced, "\n".join(untraced[:10])


def test_questions_in_other_words_are_answered(outcomes):
    failed = [f"{o.case.id}: {o.case.question} <- {o.note} :: {o.answer[:200]}" for o in outcomes if not o.passed]
    share = 1 - len(failed) / len(outcomes)
    assert share >= 0.95, "\n".join(failed)
