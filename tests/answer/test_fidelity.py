"""Number fidelity: every number stated must come from the query results or follow from them."""

from __future__ import annotations

import json

from combat_analysis.answer.fidelity import check_package, check_text, numbers_in, report_claims
from tests.support.paths import DEV_QUESTIONS
from tests.support.stages import ask_sample


def test_numbers_are_read_as_written():
    assert numbers_in("VoidWalker dealt 192,395 (27.6%) in minute 3") == [
        ("192,395", 192395.0, 0), ("27.6", 27.6, 1), ("3", 3.0, 0)]
    assert numbers_in("NightOwl07 and Tsunami88 have no numbers of their own") == []


def test_every_dev_question_is_faithful(stage_env):
    problems = []
    for line in DEV_QUESTIONS.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        pkg = ask_sample(stage_env, json.loads(line)["question"])
        problems += [f"{pkg.input.raw_query}: {u.where} {u.number} in {u.context!r}"
                     for u in check_package(pkg, stage_env.handles)]
    assert not problems, "\n".join(problems)


def test_derived_figures_are_supported(damage, stage_env):
    # sum of all players, difference and percentage between the top two, average and median
    for text in ("1,235,074", "41,653", "27.6%", "123,507", "119,534", "15.6%", "ranks 10"):
        assert check_text(text, damage, stage_env.handles) == [], text


def test_a_planted_wrong_number_fails(damage, stage_env):
    assert check_package(damage, stage_env.handles) == []
    wrong = damage.response.model_copy(update={"direct_answer": "VoidWalker dealt the most damage: 193,395."})
    problems = check_package(damage.model_copy(update={"response": wrong}), stage_env.handles)
    assert [(p.where, p.number) for p in problems] == [("direct_answer", "193,395")]
    insight = damage.response.model_copy(update={"key_insights": ("VoidWalker's share is 41.7%.",)})
    problems = check_package(damage.model_copy(update={"response": insight}), stage_env.handles)
    assert [(p.where, p.number) for p in problems] == [("key_insights[0]", "41.7")]


def test_a_planted_number_in_the_report_fails(damage, stage_env):
    final = damage.final_output.model_copy(
        update={"markdown": damage.final_output.markdown + "\nKraken_Mid dealt 150,999 damage.\n"})
    problems = check_package(damage.model_copy(update={"final_output": final}), stage_env.handles)
    assert [(p.where, p.number) for p in problems] == [("report", "150,999")]


def test_sql_and_code_are_not_claims():
    text = ("Answer 5\n```sql\nSELECT 12345\n```\n`q1` and `2026-01-01`\n## You might also ask\n77\n## Methodology\n"
            "## Notes and errors\n- sql_error: LINE 1: column 42 not found\n")
    assert [n for _, n, _ in numbers_in(report_claims(text))] == [5.0]


def test_markdown_escapes_make_no_numbers():
    # Found by hypothesis in test_stages: the question "0_" is titled "# 0\_" in the report, and the escape's
    # backslash ended the token, so 0 was read as an unsupported number.
    assert numbers_in(report_claims("# 0\\_\n\n**Answer:** I cannot answer that")) == []
    assert report_claims("Player\\_7 dealt 1\\.5 \\*k\\*") == "Player_7 dealt 1.5 *k*"
    assert [n for _, n, _ in numbers_in(report_claims("VoidWalker dealt 192,395 \\(27.6%\\)"))] == [192395.0, 27.6]


def test_the_composer_records_no_fidelity_errors_on_a_real_answer(damage):
    assert not [e for e in damage.errors if e.error_type in ("unsupported_number", "fidelity_check_failed")]
    assert damage.metadata.processing_history[-1].status == "ok"
