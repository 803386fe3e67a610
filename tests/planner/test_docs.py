"""docs/planner.md matches the code: every example question still plans to the JSON the page shows, and every
catalog metric is in the page's catalog table."""

from __future__ import annotations

import json
import re

import pytest

from combat_analysis.catalog import METRICS
from combat_analysis.planner import plan_question
from tests.support.paths import ROOT
from tests.support.planner import sample_vocabulary

DOC = (ROOT / "docs" / "planner.md").read_text(encoding="utf-8")
EXAMPLE = re.compile(r'^### [^\n]*?: "(?P<q>[^"]*)"(?: \(after "(?P<prev>[^"]*)"\))?\n+```json\n(?P<plan>.*?)\n```',
                     re.M | re.S)
EXAMPLES = [(m.group("q"), m.group("prev"), json.loads(m.group("plan"))) for m in EXAMPLE.finditer(DOC)]


def _without_text(value):
    if isinstance(value, dict):
        return {k: _without_text(v) for k, v in value.items() if k not in ("question", "summary")}
    if isinstance(value, list):
        return [_without_text(v) for v in value]
    return value


def test_the_page_has_examples():
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize(("question", "previous", "shown"), EXAMPLES, ids=[e[0][:40] for e in EXAMPLES])
def test_each_example_plans_as_shown(question, previous, shown):
    plan = plan_question(question, sample_vocabulary(), (previous,) if previous else ())
    assert _without_text(plan.model_dump(mode="json", exclude_defaults=True)) == shown


def test_every_metric_is_in_the_catalog_table():
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", DOC, re.M))
    assert set(METRICS) <= listed
