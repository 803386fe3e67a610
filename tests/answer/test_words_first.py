"""The answer's words before its charts and report: `answer_question(on_words=...)` hands over the direct answer
and insights once the analyst is done, when no chart or report file exists yet, and they are the very words of
the finished package (the composer words the same package the same way)."""

from __future__ import annotations

from pathlib import Path

import pytest

from combat_analysis.answer.pipeline import answer_question
from combat_analysis.formatting import number
from tests.support.stages import MATCH_ID

# (question in our own words, the player whose truth figure the answer must hold, the truth key) or a refusal
QUESTIONS = [
    ("which player put out the most damage", "VoidWalker", "damage_dealt"),
    ("how much gold did Kraken_Mid end with", "Kraken_Mid", "gold"),
    ("who healed the most", None, "healing_done"),
    ("what was the weather during the match", None, None),
]


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.suffix in (".html", ".md", ".png", ".csv"))


@pytest.mark.parametrize(("question", "player", "figure"), QUESTIONS)
def test_the_words_come_before_any_chart_or_report_and_are_the_final_ones(stage_warehouse, tmp_path, truth,
                                                                          question, player, figure):
    artifacts = tmp_path / "artifacts"
    seen: list[tuple[object, list[str]]] = []
    pkg = answer_question(question, warehouse_root=stage_warehouse, match_id=MATCH_ID, artifacts_dir=artifacts,
                          handles_dir=tmp_path / "handles",
                          on_words=lambda words: seen.append((words, _files(artifacts))))
    assert len(seen) == 1
    words, files_then = seen[0]
    assert files_then == [], "the words were handed over after a chart or report was written"
    assert words.direct == pkg.response.direct_answer
    assert words.insights == pkg.response.key_insights
    assert Path(pkg.final_output.html_path).is_file() and "report.html" in _files(artifacts)
    if figure is None:
        assert pkg.is_refusal
        return
    players = truth["players"]
    leader = player or max(players, key=lambda name: players[name][figure])
    assert leader in words.direct and number(players[leader][figure]) in words.direct


def test_without_a_listener_the_answer_is_the_same(stage_warehouse, tmp_path):
    asked = [answer_question("who dealt the most damage to players", warehouse_root=stage_warehouse,
                             match_id=MATCH_ID, artifacts_dir=tmp_path / str(i), followups=False,
                             on_words=listener)
             for i, listener in enumerate((None, lambda words: None))]
    assert asked[0].response.direct_answer == asked[1].response.direct_answer
    assert asked[0].response.key_insights == asked[1].response.key_insights
