"""Where things live. One home directory holds the warehouse, handles, artifacts and drop folders.

`COMBAT_ANALYSIS_HOME` overrides the default `./data`, so the CLI, the Dagster code location and the tests
can share (or isolate) a home. The warehouse is a DuckLake (`Lake`): by default a SQLite catalog and a data
folder under `<home>/warehouse/`; `COMBAT_ANALYSIS_CATALOG` (`sqlite:PATH` or `postgres:CONNINFO`) and
`COMBAT_ANALYSIS_DATA_PATH` (a folder or an `s3://` URL) put it on a server and shared storage for a team.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

HOME_ENV = "COMBAT_ANALYSIS_HOME"
CATALOG_ENV = "COMBAT_ANALYSIS_CATALOG"
DATA_PATH_ENV = "COMBAT_ANALYSIS_DATA_PATH"
DEFAULT_VERSION_RETENTION_DAYS = 7  # days a replaced or removed match stays restorable before housekeeping
CATALOG_KINDS = ("sqlite", "postgres")


@dataclass(frozen=True)
class Lake:
    """Where the warehouse lake lives: a DuckLake catalog (`sqlite:PATH` or `postgres:CONNINFO`) and a data path
    (a folder, or an `s3://` URL whose credentials come from the AWS variables)."""

    catalog: str
    data_path: str
    # The embedded default: a SQLite catalog with its data folder beside it, moved with the home as a whole (the
    # data path the catalog recorded is not held against it).
    embedded: bool = False

    @classmethod
    def at(cls, root: str | os.PathLike, catalog: str = "", data_path: str = "") -> Lake:
        """The lake of a warehouse folder: the given catalog and data path, else the embedded default under
        it (a SQLite catalog and a data folder beside it)."""
        root = Path(root).resolve()
        catalog = catalog or f"sqlite:{root / 'catalog.sqlite'}"
        kind, _, rest = catalog.partition(":")
        if kind not in CATALOG_KINDS or not rest:
            raise ValueError(f"unsupported warehouse catalog {catalog.split()[0]!r}: use sqlite:PATH or "
                             "postgres:dbname=... host=... user=...")
        if kind == "sqlite":
            catalog = f"sqlite:{Path(rest).resolve()}"
        data = data_path or str(root / "data")
        data = data.rstrip("/") + "/" if "://" in data else f"{Path(data).resolve()}/"
        return cls(catalog=catalog, data_path=data, embedded=catalog == f"sqlite:{root / 'catalog.sqlite'}"
                   and data == f"{root / 'data'}/")

    @classmethod
    def from_env(cls, root: str | os.PathLike, environ: Mapping[str, str] = os.environ) -> Lake:
        return cls.at(root, environ.get(CATALOG_ENV, ""), environ.get(DATA_PATH_ENV, ""))

    @property
    def kind(self) -> str:
        return self.catalog.split(":", 1)[0]

    @property
    def remote(self) -> bool:
        return "://" in self.data_path

    @property
    def catalog_file(self) -> Path | None:
        return Path(self.catalog.split(":", 1)[1]) if self.kind == "sqlite" else None

    def describe(self) -> str:
        """The catalog and data path for messages, without a password."""
        words = [w for w in self.catalog.split() if not w.lower().startswith("password=")]
        return f"{' '.join(words)} (data in {self.data_path})"


@dataclass(frozen=True)
class Paths:
    home: Path
    catalog: str = ""  # the warehouse lake's catalog; "" is the SQLite file under <home>/warehouse
    data_path: str = ""  # its data files; "" is <home>/warehouse/data

    @classmethod
    def from_env(cls, home: str | os.PathLike | None = None, environ: Mapping[str, str] = os.environ) -> Paths:
        return cls(Path(home or environ.get(HOME_ENV, "data")).resolve(), environ.get(CATALOG_ENV, ""),
                   environ.get(DATA_PATH_ENV, ""))

    @property
    def lake(self) -> Lake:
        """The warehouse: a DuckLake, by default embedded under `warehouse`."""
        return Lake.at(self.warehouse, self.catalog, self.data_path)

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
