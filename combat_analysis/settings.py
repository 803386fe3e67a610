"""Where things live on disk. One home directory holds the warehouse, handles, artifacts and drop folders.

`COMBAT_ANALYSIS_HOME` overrides the default `./data`, so the CLI, the Dagster code location and the tests
can share (or isolate) a home.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Paths:
    home: Path

    @classmethod
    def from_env(cls, home: str | os.PathLike | None = None) -> Paths:
        return cls(Path(home or os.environ.get("COMBAT_ANALYSIS_HOME", "data")).resolve())

    @property
    def warehouse(self) -> Path:
        return self.home / "warehouse"

    @property
    def handles(self) -> Path:
        return self.home / "handles"

    @property
    def artifacts(self) -> Path:
        return self.home / "artifacts"

    @property
    def reports(self) -> Path:
        return self.home / "reports"

    @property
    def incoming(self) -> Path:
        return self.home / "incoming"

    @property
    def questions(self) -> Path:
        return self.home / "questions"

    @property
    def packages(self) -> Path:
        return self.home / "packages"
