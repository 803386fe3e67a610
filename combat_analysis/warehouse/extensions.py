"""DuckDB extensions from their Python packages, never downloaded: DuckLake, its catalogs and httpfs.

Each extension ships as a pip package pinned to the DuckDB release (`duckdb-extension-ducklake==1.5.5` beside
`duckdb==1.5.5`); `LOAD` reads the file straight from the package, so no connection ever installs, downloads
or autoloads one. DuckDB checks an extension's signature when it loads it, which hashes the whole file (about
35 MB, 70 ms each); a file verified once (same path, size and modification time) is recorded in the user's
cache and later processes load it without hashing it again.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import tempfile
from pathlib import Path

import duckdb

# The extension each catalog kind and data path needs, beside ducklake itself.
CATALOG_EXTENSIONS = {"sqlite": "sqlite_scanner", "postgres": "postgres_scanner"}
REMOTE_EXTENSION = "httpfs"
# Nothing is ever fetched or loaded behind our back.
NO_DOWNLOADS = {"autoinstall_known_extensions": False, "autoload_known_extensions": False,
                "allow_community_extensions": False}


class ExtensionMissing(RuntimeError):
    """The package that carries an extension is not installed, or carries another DuckDB release's build."""


def extension_file(name: str) -> Path:
    """The extension's file inside its pip package, built for this DuckDB release."""
    package = f"duckdb_extension_{name}"
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ExtensionMissing(f"the DuckDB extension {name!r} is not installed: pip install "
                               f"duckdb-extension-{name.replace('_', '-')}=={duckdb.__version__}")
    path = Path(next(iter(spec.submodule_search_locations))) / "extensions" / f"v{duckdb.__version__}" / \
        f"{name}.duckdb_extension"
    if not path.is_file():
        raise ExtensionMissing(f"the installed duckdb-extension-{name.replace('_', '-')} is not built for DuckDB "
                               f"{duckdb.__version__} ({path} is missing): install the release that matches DuckDB")
    return path


def _cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "combat-analysis" / "verified-extensions.json"


def _stamp(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}:{duckdb.__version__}"


def _verified() -> dict[str, str]:
    try:
        return json.loads(_cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _remember(paths: list[Path]) -> None:
    """Record files DuckDB has just verified; a cache that cannot be written only costs the next process time."""
    known = _verified()
    known.update({str(p): _stamp(p) for p in paths})
    target = _cache_file()
    with contextlib.suppress(OSError):
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=target.parent, delete=False, encoding="utf-8") as out:
            json.dump(known, out)
        os.replace(out.name, target)


def connect(names: tuple[str, ...], config: dict | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with these extensions loaded from their packages."""
    paths = [extension_file(n) for n in names]
    known = _verified()
    trusted = all(known.get(str(p)) == _stamp(p) for p in paths)
    con = duckdb.connect(config={**NO_DOWNLOADS, **(config or {}), "allow_unsigned_extensions": trusted})
    try:
        for path in paths:
            con.execute(f"LOAD '{path}'")  # a path from our own packages, never user text
    except BaseException:
        con.close()
        raise
    if not trusted:
        _remember(paths)
    return con
