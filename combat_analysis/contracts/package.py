"""The Agent Data Package: the one immutable record a question travels in through the five stages.

Every stage returns a new package (`next_version`), never edits its input: the version goes up by one, the
previous digest becomes `parent_digest`, and `digest` is the SHA-256 of the canonical JSON of everything
else. A package read back from JSON must hash to its stated digest, so tampering is caught on load.
Large result tables never travel inline: they are Parquet files behind a `DataHandle` (see `handles.py`).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from combat_analysis.contracts.plan import QueryPlan
from combat_analysis.contracts.question import check_question

SCHEMA_VERSION = "1.0"
PIPELINE_TYPE = "combat_analysis"

Significance = Literal["high", "medium", "low"]
StepStatus = Literal["ok", "error", "skipped"]


class PackageIntegrityError(ValueError):
    """A serialised package whose digest does not match its content (edited or corrupted)."""


class Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ProcessingStep(Section):
    stage: str
    agent_id: str
    start: datetime
    end: datetime
    duration_ms: float
    status: StepStatus = "ok"


class Metadata(Section):
    query_id: str
    timestamp: datetime
    user_id: str = "anonymous"
    session_id: str = ""
    pipeline_type: str = PIPELINE_TYPE
    processing_stage: str = "created"
    processing_history: tuple[ProcessingStep, ...] = ()
    # The warehouse lake snapshot the answer read: `ask --as-of` it to read the lake as it was then.
    warehouse_snapshot: int | None = None


class InputContext(Section):
    previous_queries: tuple[str, ...] = ()
    match_id: str | None = None
    focus_entities: tuple[str, ...] = ()


class InputSection(Section):
    raw_query: str
    context: InputContext = InputContext()


class SqlQueryInfo(Section):
    query_id: str
    purpose: str
    sql: str
    dependencies: tuple[str, ...] = ()
    parameters: dict[str, str] = Field(default_factory=dict)
    primary: bool = False


class QueryAnalysis(Section):
    query_type: str  # the plan's intent: ranking, lookup, ..., refuse
    intent: str  # the plan in plain words
    required_data_points: tuple[str, ...] = ()  # metric and dimension ids
    required_tables: tuple[str, ...] = ()
    sql_queries: tuple[SqlQueryInfo, ...] = ()
    anticipated_followups: tuple[str, ...] = ()
    plan: QueryPlan | None = None


class HandleMetadata(Section):
    columns: tuple[str, ...]
    shape: tuple[int, int]  # rows, columns
    dtypes: dict[str, str]
    source_sql: str
    created_at: datetime
    expires_at: datetime


class DataHandle(Section):
    handle_id: str
    data_type: str = "table"
    format: str = "parquet"
    path: str
    metadata: HandleMetadata


class ResultSummary(Section):
    row_count: int
    top_row: dict[str, Any] | None = None


class QueryResult(Section):
    query_id: str
    status: Literal["ok", "error", "skipped"]
    sql: str
    purpose: str = ""
    primary: bool = False
    bound_parameters: dict[str, Any] = Field(default_factory=dict)
    result_format: str = "records"
    column_types: dict[str, str] = Field(default_factory=dict)
    result_summary: ResultSummary = ResultSummary(row_count=0)
    data: tuple[dict[str, Any], ...] = ()  # at most the inline cap; the full table is behind `handle`
    truncated: bool = False
    handle: DataHandle | None = None
    execution_time_ms: float = 0.0


class DerivedTable(Section):
    """A table the analyst derived (roster, team totals, a match pattern's rows): inline up to the cap,
    behind a handle beyond it, like a query result."""

    description: str
    columns: tuple[str, ...] = ()
    row_count: int = 0
    rows: tuple[dict[str, Any], ...] = ()
    handle: DataHandle | None = None


class DataSection(Section):
    query_results: tuple[QueryResult, ...] = ()
    transformed_data: dict[str, DerivedTable] = Field(default_factory=dict)


class CellRef(Section):
    """The cells a finding rests on: rows of one query result (or derived table) and their columns."""

    query_id: str
    rows: tuple[int, ...] = ()
    columns: tuple[str, ...] = ()


class Finding(Section):
    id: str
    kind: str  # leader, margin, share, concentration, average, outlier, trend, peak, team, pattern...
    description: str
    significance: Significance = "medium"
    supporting_data: tuple[CellRef, ...] = ()


class VisualizationSpec(Section):
    id: str
    kind: str  # kpi, bar_h, grouped_bar, line, gold_diff, stacked_bar, heatmap, event_timeline
    source: str  # query id or transformed_data name
    title: str
    reason: str  # the rule of the table that chose it
    x: str | None = None
    y: tuple[str, ...] = ()
    series: str | None = None


class AnalysisSection(Section):
    key_findings: tuple[Finding, ...] = ()
    patterns: tuple[Finding, ...] = ()
    comparisons: tuple[Finding, ...] = ()
    recommended_visualizations: tuple[VisualizationSpec, ...] = ()


class Visualization(Section):
    id: str
    type: str
    title: str
    file_path: str | None = None  # None for KPI text
    alt_text: str
    thumbnail_b64: str = ""  # small PNG, for Dagster metadata and report previews
    source: str = ""


class FollowupAnswer(Section):
    question: str
    direct_answer: str
    key_insights: tuple[str, ...] = ()
    query_id: str = ""


class SupportingTable(Section):
    source: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    total_rows: int


class ResponseSection(Section):
    direct_answer: str
    key_insights: tuple[str, ...] = ()
    visualizations: tuple[str, ...] = ()  # visualization ids, in display order
    supporting_data: SupportingTable | None = None
    additional_context: str = ""
    followup_answers: tuple[FollowupAnswer, ...] = ()


class FinalOutput(Section):
    markdown: str
    markdown_path: str | None = None
    html_path: str | None = None


class ErrorEntry(Section):
    stage: str
    error_type: str  # unanswerable, unsafe_sql, sql_error, missing_data, chart_error, ...
    description: str
    handled: bool = True
    recovery_action: str = ""


def _now() -> datetime:
    return datetime.now(timezone.utc)


def canonical_json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class AgentDataPackage(Section):
    schema_version: str = SCHEMA_VERSION
    version: int = 0
    digest: str = ""
    parent_digest: str | None = None
    metadata: Metadata
    input: InputSection
    query_analysis: QueryAnalysis | None = None
    data: DataSection | None = None
    analysis: AnalysisSection | None = None
    visualizations: dict[str, Visualization] = Field(default_factory=dict)
    response: ResponseSection | None = None
    final_output: FinalOutput | None = None
    errors: tuple[ErrorEntry, ...] = ()

    # -- creation and versioning --------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        question: str,
        *,
        match_id: str | None = None,
        previous_queries: tuple[str, ...] | list[str] = (),
        user_id: str = "anonymous",
        session_id: str = "",
        query_id: str | None = None,
        focus_entities: tuple[str, ...] = (),
    ) -> AgentDataPackage:
        check_question(question)
        pkg = cls(
            metadata=Metadata(
                query_id=query_id or uuid.uuid4().hex,
                timestamp=_now(),
                user_id=user_id,
                session_id=session_id or uuid.uuid4().hex,
            ),
            input=InputSection(
                raw_query=question,
                context=InputContext(
                    previous_queries=tuple(previous_queries), match_id=match_id, focus_entities=focus_entities
                ),
            ),
        )
        return pkg.model_copy(update={"digest": pkg.compute_digest()})

    def compute_digest(self) -> str:
        payload = self.model_dump(mode="json", exclude={"digest"})
        return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()

    def next_version(
        self,
        *,
        stage: str,
        started: datetime | None = None,
        status: StepStatus = "ok",
        agent_id: str | None = None,
        new_errors: tuple[ErrorEntry, ...] | list[ErrorEntry] = (),
        warehouse_snapshot: int | None = None,
        **section_updates: Any,
    ) -> AgentDataPackage:
        """The package after `stage`: sections replaced, errors appended, history extended, re-digested."""
        unknown = set(section_updates) - set(type(self).model_fields)
        if unknown:
            raise TypeError(f"unknown package sections: {sorted(unknown)}")
        end = _now()
        start = started or end
        step = ProcessingStep(
            stage=stage,
            agent_id=agent_id or f"{stage}@combat_analysis",
            start=start,
            end=end,
            duration_ms=round((end - start).total_seconds() * 1000, 3),
            status="error" if new_errors and status == "ok" and any(not e.handled for e in new_errors) else status,
        )
        metadata = self.metadata.model_copy(
            update={"processing_stage": stage, "processing_history": (*self.metadata.processing_history, step),
                    **({"warehouse_snapshot": warehouse_snapshot} if warehouse_snapshot is not None else {})}
        )
        updated = self.model_copy(
            update={
                **section_updates,
                "metadata": metadata,
                "errors": (*self.errors, *new_errors),
                "version": self.version + 1,
                "parent_digest": self.digest,
                "digest": "",
            }
        )
        # Re-validate so a wrongly typed section fails here, at the stage that produced it.
        checked = type(self).model_validate(updated.model_dump())
        return checked.model_copy(update={"digest": checked.compute_digest()})

    # -- serialisation ------------------------------------------------------------------------------------
    def to_json(self, indent: int | None = None) -> str:
        return self.model_dump_json(indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> AgentDataPackage:
        try:
            pkg = cls.model_validate_json(text)
        except ValidationError as exc:
            raise PackageIntegrityError(f"not a valid Agent Data Package: {exc}") from exc
        expected = pkg.compute_digest()
        if pkg.digest != expected:
            raise PackageIntegrityError(
                f"package {pkg.metadata.query_id} v{pkg.version}: digest {pkg.digest[:12] or '(empty)'}... "
                f"does not match its content ({expected[:12]}...); it was modified after it was sealed"
            )
        return pkg

    # -- convenience for later stages ---------------------------------------------------------------------
    @property
    def plan(self) -> QueryPlan | None:
        return self.query_analysis.plan if self.query_analysis else None

    def result(self, query_id: str) -> QueryResult | None:
        if self.data is None:
            return None
        return next((r for r in self.data.query_results if r.query_id == query_id), None)

    @property
    def primary_result(self) -> QueryResult | None:
        if self.data is None:
            return None
        return next((r for r in self.data.query_results if r.primary), None)

    @property
    def is_refusal(self) -> bool:
        return any(e.error_type == "unanswerable" for e in self.errors)


def new_package(
    question: str,
    match_id: str | None = None,
    previous_queries: tuple[str, ...] | list[str] = (),
    *,
    user_id: str = "anonymous",
    session_id: str = "",
    query_id: str | None = None,
) -> AgentDataPackage:
    """Version 0 of a package: the question and its context, nothing else yet."""
    return AgentDataPackage.create(
        question,
        match_id=match_id,
        previous_queries=tuple(previous_queries),
        user_id=user_id,
        session_id=session_id,
        query_id=query_id,
    )
