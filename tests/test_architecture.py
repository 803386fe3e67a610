"""The house's architecture, checked: no import cycle anywhere (function-local imports counted), a small root
package, a reason beside every function-local import, and tests that share through conftest.py and
tests/support/, never by importing each other. The layers themselves are import-linter's contracts
([tool.importlinter], `make lint-imports`)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import grimp
from radon.complexity import cc_visit

from tests.support.paths import ROOT

PACKAGES = ("combat_analysis", "assets", "resources")
MAX_ROOT_MODULES = 8
LAZY = "# lazy:"


def strongly_connected(graph: grimp.ImportGraph, modules: set[str]) -> list[set[str]]:
    """Tarjan's strongly connected components of the graph restricted to `modules`."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module) & modules):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            found.append(component)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(modules)))
    try:
        for module in sorted(modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_there_is_no_import_cycle(import_graph):
    modules = {m for m in import_graph.modules if m.split(".")[0] in PACKAGES}
    assert len(modules) > 50  # the graph holds the whole project
    cycles = [sorted(c) for c in strongly_connected(import_graph, modules) if len(c) > 1]
    assert cycles == []


def test_the_cycle_finder_finds_a_cycle():
    class Graph:
        def find_modules_directly_imported_by(self, module: str) -> set[str]:
            return {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}[module]

    components = strongly_connected(Graph(), {"a", "b", "c", "d"})
    assert sorted(map(sorted, components)) == [["a", "b", "c"], ["d"]]


def test_the_root_package_holds_few_modules():
    root_modules = sorted(p.name for p in (ROOT / "combat_analysis").glob("*.py"))
    assert len(root_modules) <= MAX_ROOT_MODULES, root_modules


def test_every_package_says_what_it_holds_and_may_import():
    for init in sorted((ROOT / "combat_analysis").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.relative_to(ROOT)} has no docstring"
        assert "may import" in doc.lower() or init.parent.name == "combat_analysis", (
            f"{init.relative_to(ROOT)} does not say what it may import")


def function_local_imports(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line, the import's first line, the line above it) of every import inside a function."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    seen: set[int] = set()
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno not in seen:
                seen.add(node.lineno)
                above = lines[node.lineno - 2] if node.lineno > 1 else ""
                yield node.lineno, lines[node.lineno - 1], above


def shipped_code() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")) + [ROOT / "definitions.py"]


def test_a_function_local_import_says_why():
    """A function-local import is only for start-up laziness now (no cycle needs one), and says so: a
    `# lazy: <why>` comment on its line or the line above."""
    unexplained = [f"{path.relative_to(ROOT)}:{line}: {text.strip()}"
                   for path in shipped_code() for line, text, above in function_local_imports(path)
                   if LAZY not in text and not above.strip().startswith(LAZY)]
    assert unexplained == []


def test_the_reason_check_sees_an_unexplained_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    import json  # lazy: only f\n\n\ndef g():\n    # lazy: only g\n    import csv\n"
                      "\n\ndef h():\n    import re\n", encoding="utf-8")
    found = [(line, LAZY in text or above.strip().startswith(LAZY))
             for line, text, above in function_local_imports(module)]
    assert found == [(2, True), (7, True), (11, False)]


def all_test_modules() -> list[Path]:
    return sorted(p for p in (ROOT / "tests").rglob("test_*.py"))


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)


def test_no_test_module_imports_another():
    """Tests share fixtures through conftest.py and helpers through tests/support/, never by importing a test
    module (or a conftest)."""
    found = [f"{path.relative_to(ROOT)}:{line}: {name}"
             for path in [*all_test_modules(), *sorted((ROOT / "tests" / "support").rglob("*.py"))]
             for line, name in imported_modules(path)
             if name.split(".")[-1].startswith("test_") or name.split(".")[-1] == "conftest"]
    assert found == []


def test_no_fixture_is_imported():
    """A fixture imported into a test module needs `noqa: F401`; fixtures live in conftest.py instead."""
    found = []
    for path in all_test_modules():
        lines = path.read_text(encoding="utf-8").splitlines()
        found += [f"{path.relative_to(ROOT)}:{line}" for line, _ in imported_modules(path)
                  if "noqa: F401" in lines[line - 1]]
    assert found == []


def test_fixtures_live_in_conftest_files():
    found = []
    for path in all_test_modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and any(
                    ast.unparse(d).startswith(("pytest.fixture", "fixture")) for d in node.decorator_list):
                found.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert found == []


def test_system_tests_are_marked_slow():
    unmarked = [p.name for p in sorted((ROOT / "tests" / "system").glob("test_*.py"))
                if "pytestmark = pytest.mark.slow" not in p.read_text(encoding="utf-8")]
    assert unmarked == []


def test_every_function_fits_in_a_readers_head():
    """Cyclomatic complexity at most 25 (radon) for every function the project ships."""
    too_complex = []
    for folder in ("combat_analysis", "assets", "resources"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for block in cc_visit(path.read_text(encoding="utf-8")):
                if block.complexity > 25:
                    too_complex.append(f"{path.relative_to(ROOT)}:{block.lineno} {block.name} {block.complexity}")
    assert too_complex == []
