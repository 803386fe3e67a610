"""Charts to draw, drawn here or in a worker process that imported matplotlib while the answer was being made.

The visualization stage turns each recommended chart into a `ChartJob`: the name of one drawing function of
`charts.draw` or `charts.season` and its plain arguments. A `ChartDrawer` draws a batch of jobs and returns
each file with its thumbnail, or the error that stopped it.

`DrawHere` draws in this process (Dagster runs, tests). `ChartWorker` is for one command-line answer: started
first, its process spends the third of a second matplotlib takes to import, and its first figure's font setup,
on the second core while this one imports the planner and DuckDB, plans and runs the SQL. Only the names in
`DRAWING_FUNCTIONS` can be called, and a worker that has died leaves its jobs to `DrawHere`.
"""

from __future__ import annotations

import io
import pickle
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import IO, Any, Protocol

from combat_analysis.charts.preview import thumbnail_b64

# function name -> the module that draws it
DRAWING_FUNCTIONS = {
    **dict.fromkeys(("bar_h", "grouped_bar", "line_chart", "gold_diff_chart", "stacked_bar", "heatmap",
                     "event_timeline"), "draw"),
    **dict.fromkeys(("form_chart", "win_rate_bars", "leaderboard_table"), "season"),
}


@dataclass(frozen=True)
class ChartJob:
    """One PNG to draw: `function(path, *args, **kwargs)` of the charts modules."""

    function: str
    path: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, function: str, path: Path | str, *args: Any, **kwargs: Any) -> ChartJob:
        _module_name(function)  # refused here, where the mistake is made, not in the worker (nothing imported)
        return cls(function, str(path), args, kwargs)


@dataclass(frozen=True)
class DrawnChart:
    """A job's outcome: its file and a small base64 PNG of it, or why it could not be drawn."""

    path: str
    thumbnail_b64: str = ""
    error: str | None = None


class ChartDrawer(Protocol):
    def draw(self, jobs: Sequence[ChartJob]) -> list[DrawnChart]: ...


def _module_name(function: str) -> str:
    """The name of the module whose `function` draws a chart; any other name is refused."""
    module = DRAWING_FUNCTIONS.get(function)
    if module is None:
        raise ValueError(f"{function!r} is not a chart drawing function")
    return module


def _drawing_module(function: str) -> ModuleType:
    if _module_name(function) == "season":
        from combat_analysis.charts import season  # lazy: matplotlib, only once a chart is drawn

        return season
    from combat_analysis.charts import draw  # lazy: matplotlib, only once a chart is drawn

    return draw


class DrawHere:
    """Draws in this process (importing matplotlib on the first chart)."""

    def draw(self, jobs: Sequence[ChartJob]) -> list[DrawnChart]:
        drawn = []
        for job in jobs:
            try:
                path = getattr(_drawing_module(job.function), job.function)(Path(job.path), *job.args, **job.kwargs)
                drawn.append(DrawnChart(str(path), thumbnail_b64(path)))
            except Exception as exc:  # noqa: BLE001 - one broken chart must not sink the others
                drawn.append(DrawnChart(job.path, error=f"{type(exc).__name__}: {exc}"))
        return drawn


DRAW_HERE = DrawHere()


class ChartWorker:
    """A child Python process that draws chart jobs sent over its stdin, answering on its stdout (pickles:
    both ends are this module). Use as a context manager: closing it ends the process."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
            [sys.executable, "-m", "combat_analysis.charts.jobs"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def draw(self, jobs: Sequence[ChartJob]) -> list[DrawnChart]:
        process = self._process
        if process is not None and process.stdin is not None and process.stdout is not None:
            try:
                pickle.dump(list(jobs), process.stdin)
                process.stdin.flush()
                drawn = pickle.load(process.stdout)
                if isinstance(drawn, list) and len(drawn) == len(jobs):
                    return drawn
            except (OSError, EOFError, pickle.UnpicklingError):
                pass
            self.close()  # it died or answered nonsense: draw here from now on
        return DRAW_HERE.draw(jobs)

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        # Every reply has come, so its files are written and closed; an idle worker (or one still importing,
        # when nothing was drawn) has nothing to finish, and Python's shutdown of matplotlib is not worth a wait.
        process.kill()
        process.wait()
        for pipe in (process.stdin, process.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:  # a dead worker's stdin may still hold an unsent job
                pass

    def __enter__(self) -> ChartWorker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _warm_up() -> None:
    """Import the drawing modules and draw one small figure with text, so font loading is done before the
    first job arrives."""
    # lazy: the worker process imports the drawing modules (and matplotlib) before its first job
    from combat_analysis.charts import draw, season  # noqa: F401 - season: imported for the worker's first job

    fig, ax = draw.plt.subplots(figsize=(2, 1))
    ax.set_title("warm-up 0,1")
    ax.barh([0], [1])
    fig.savefig(io.BytesIO(), format="png")
    draw.plt.close(fig)


def serve(requests: IO[bytes], replies: IO[bytes]) -> None:
    """Draw each batch of jobs read from `requests`, writing the outcomes to `replies`, until end of input."""
    _warm_up()
    while True:
        try:
            jobs = pickle.load(requests)
        except EOFError:
            return
        pickle.dump(DRAW_HERE.draw([job for job in jobs if isinstance(job, ChartJob)]), replies)
        replies.flush()


if __name__ == "__main__":
    # The module's own classes, not __main__'s, so the pickles name the same ChartJob and DrawnChart both ends.
    from combat_analysis.charts.jobs import serve as serve_jobs  # lazy: the module's own classes (above)

    replies = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything a library prints must not corrupt the replies
    serve_jobs(sys.stdin.buffer, replies)
