"""Which matches a figure reads: all of them, a player's last N, a date range, or a named list.

A `MatchSelection` is part of the plan's contract (`plan.ManyMatches`) and the argument of every figure of
`season.figures`; `describe` says it in words for answers and reports. Plain data: it imports only
`formatting`.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from combat_analysis.formatting import count


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AllMatches(_Frozen):
    """Every match in the warehouse."""

    kind: Literal["all"] = "all"


class LastMatches(_Frozen):
    """The player's `count` most recent matches by `matches.started_at` (fewer if they played fewer)."""

    kind: Literal["last"] = "last"
    player: str = Field(min_length=1, max_length=200)
    count: int = Field(ge=1, le=100_000)


class DateRange(_Frozen):
    """Matches with `since <= started_at < until`; either bound may be open, not both."""

    kind: Literal["dates"] = "dates"
    since: datetime | None = None
    until: datetime | None = None

    @model_validator(mode="after")
    def _bounds(self) -> DateRange:
        if self.since is None and self.until is None:
            raise ValueError("a date range needs a start, an end, or both")
        if self.since is not None and self.until is not None and self.since >= self.until:
            raise ValueError(f"a date range must start before it ends ({self.since} is not before {self.until})")
        return self

    @classmethod
    def days(cls, first: date, last: date) -> DateRange:
        """Calendar days `first` to `last`, both included."""
        return cls(since=datetime.combine(first, time()), until=datetime.combine(last + timedelta(days=1), time()))


class MatchList(_Frozen):
    """Exactly these matches, by id; an id the warehouse does not hold is an error, never skipped."""

    kind: Literal["matches"] = "matches"
    match_ids: tuple[str, ...] = Field(min_length=1, max_length=10_000)


MatchSelection = Annotated[AllMatches | LastMatches | DateRange | MatchList, Field(discriminator="kind")]
SELECTION = TypeAdapter(MatchSelection)  # parse a selection from JSON or a dict: SELECTION.validate_python(...)
ALL_MATCHES = AllMatches()


def describe(selection: MatchSelection) -> str:
    """The selection in words, for answers and reports."""
    if isinstance(selection, LastMatches):
        return f"{selection.player}'s last {count(selection.count, 'match')}"
    if isinstance(selection, DateRange):
        since = f"from {selection.since:%Y-%m-%d %H:%M}" if selection.since else ""
        until = f"before {selection.until:%Y-%m-%d %H:%M}" if selection.until else ""
        return "matches started " + " ".join(p for p in (since, until) if p)
    if isinstance(selection, MatchList):
        return "matches " + ", ".join(selection.match_ids)
    return "all matches"
