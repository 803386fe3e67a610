"""The examples in docstrings are tests: every module of the core, and of the tests' own helpers (tests/support),
that shows one (`>>> `) runs it."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "combat_analysis"
WITH_EXAMPLES = sorted(p for folder in (CORE, ROOT / "tests" / "support") for p in folder.rglob("*.py")
                       if ">>> " in p.read_text(encoding="utf-8"))


def test_some_modules_show_examples():
    assert WITH_EXAMPLES, "no docstring example found: the doctest run below would test nothing"


@pytest.mark.parametrize("path", WITH_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_docstring_examples_hold(path: Path):
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed
