"""Many questions asked of one match through the real five stages, on one locked connection held open for them.

`answer_question` opens the lake for every question: DuckDB's start, the catalog read and the snapshot pinned,
about half of an answer-only question's time. A test module asking a hundred questions of one warehouse that
nothing writes to need not pay it a hundred times, so `asking` opens the session once (`StageEnv.session`, the
same one `run_stages` opens per question). Every stage still runs and every planned statement is still validated
on the locked connection; opening the lake per question is what tests/app and tests/system run.
"""

from __future__ import annotations

import atexit
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import SimpleNamespace

from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.pipeline import run_stages


@contextmanager
def asking(warehouse: Path, match_id: str, artifacts: Path, *,
           answer_only: bool = True) -> Iterator[Callable[[str], SimpleNamespace]]:
    """`ask(question)` for the block: the direct answer (`text`), the plan and its refusal, and the package.
    `answer_only`: the words alone, no charts or report files (as `ask --answer-only`); follow-ups are off."""
    env = StageEnv.build(warehouse_root=warehouse, match_id=match_id, artifacts_dir=artifacts, followups=False,
                         answer_only=answer_only)
    with env.session() as session:

        def ask(question: str) -> SimpleNamespace:
            pkg = run_stages(question, session)
            return SimpleNamespace(text=pkg.response.direct_answer, plan=pkg.plan, refusal=pkg.plan.refusal, pkg=pkg)

        yield ask


class Sessions:
    """Open sessions of questions on data homes, one per (warehouse, match or None for across, lake snapshot), the
    last few kept open: season tests ask hundreds of questions of a few warehouses, each question's match chosen
    first (`pipeline.choose_match`, which still opens the lake every time, as `ask` does). A new snapshot is a new
    key, so a session never reads data older than the choice it answers."""

    def __init__(self, keep: int = 4):
        self._keep = keep
        self._open: OrderedDict[tuple, tuple[ExitStack, StageEnv]] = OrderedDict()
        atexit.register(self.close)

    def env(self, warehouse: Path, match_id: str | None, snapshot: int | None, artifacts: Path) -> StageEnv:
        """The session's env (scope fields are the caller's to set with `dataclasses.replace`)."""
        key = (str(warehouse), match_id, snapshot, str(artifacts))
        if key in self._open:
            self._open.move_to_end(key)
            return self._open[key][1]
        stack = ExitStack()
        env = StageEnv.build(warehouse_root=warehouse, match_id=match_id, artifacts_dir=artifacts, followups=False,
                             snapshot=snapshot, answer_only=True)
        self._open[key] = (stack, stack.enter_context(env.session()))
        while len(self._open) > self._keep:
            self._open.popitem(last=False)[1][0].close()
        return self._open[key][1]

    def close(self) -> None:
        while self._open:
            self._open.popitem()[1][0].close()
