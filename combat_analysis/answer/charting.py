"""The visualization stage of both sequences: each recommended chart becomes a job (`chart_job`, one per
sequence), the jobs are drawn in one batch by the env's drawer (here, or the worker process the command line
started), and each chart's entry gets its file and thumbnail.

A chart that fails becomes an error entry; the others are still drawn. A follow-up's answer is text only.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

from combat_analysis.answer.env import StageEnv
from combat_analysis.charts.jobs import ChartJob
from combat_analysis.contracts.package import AgentDataPackage, ErrorEntry, Visualization, VisualizationSpec

STAGE = "visualization"

# spec, package, env -> what to draw (None for a KPI or a table, which have only alt text) and its entry
ChartJobFor = Callable[[VisualizationSpec, AgentDataPackage, StageEnv], tuple[ChartJob | None, Visualization]]


def draw_charts(pkg: AgentDataPackage, env: StageEnv, chart_job: ChartJobFor) -> AgentDataPackage:
    """The stage: every recommended chart planned with `chart_job` and drawn in one batch."""
    started = datetime.now(timezone.utc)
    specs = pkg.analysis.recommended_visualizations if pkg.analysis else ()
    if not specs or env.answer_only:  # a follow-up's answer is text in the main report
        return pkg.next_version(stage=STAGE, started=started, status="skipped")
    errors: list[ErrorEntry] = []

    def failed(spec: VisualizationSpec, why: str) -> None:
        errors.append(ErrorEntry(stage=STAGE, error_type="chart_error", description=f"{spec.id} ({spec.kind}): {why}",
                                 recovery_action="report shown without this chart"))

    planned: list[tuple[VisualizationSpec, ChartJob | None, Visualization]] = []
    for spec in specs:
        try:
            planned.append((spec, *chart_job(spec, pkg, env)))
        except Exception as exc:  # noqa: BLE001 - one broken chart must not sink the report
            failed(spec, f"{type(exc).__name__}: {exc}")
    jobs = [job for _, job, _ in planned if job is not None]
    outcomes = iter(env.charts.draw(jobs) if jobs else ())  # in the jobs' order
    drawn: dict[str, Visualization] = {}
    for spec, job, entry in planned:
        outcome = next(outcomes) if job is not None else None
        if outcome is not None and outcome.error is not None:
            failed(spec, outcome.error)
            continue
        drawn[spec.id] = entry if outcome is None else entry.model_copy(
            update={"file_path": outcome.path, "thumbnail_b64": outcome.thumbnail_b64})
    return pkg.next_version(stage=STAGE, started=started, new_errors=errors,
                            visualizations={**pkg.visualizations, **drawn})
