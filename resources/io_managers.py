"""Versioned, content-addressed storage for Agent Data Packages.

Every package version is written once, to `<root>/<asset>/<partition key, encoded>/v<version>-<digest>.json`,
and never overwritten; a small pointer file names the newest version per asset and partition. Partition keys
come from anyone with access to the UI, so they go through `combat_analysis.keys`: a key never becomes a path,
and one that cannot be mapped stops the run before anything is written. Loading verifies the digest, so a
tampered file stops the run with a clear error.
"""


import json
import shutil
from pathlib import Path

import dagster as dg

from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.keys import path_for_key
from combat_analysis.settings import Paths

POINTER = "latest.json"
UNPARTITIONED = "_"  # never an encoded key: `_` always comes with two hex digits there


def package_folder(root: Path, asset: str, partition: str | None) -> Path:
    """Where an asset's packages for one partition live (`partition=None`: an unpartitioned asset)."""
    base = Path(root) / asset
    return base / UNPARTITIONED if partition is None else path_for_key(base, partition, what="partition key")


def latest_package_file(root: Path, asset: str, partition: str | None) -> Path:
    """The newest stored version of an asset's package for a partition, as the IO manager's pointer names it."""
    folder = package_folder(root, asset, partition)
    pointer = folder / POINTER
    if not pointer.exists():
        raise FileNotFoundError(f"no stored package for {asset} at {folder}; materialize the asset first")
    name = json.loads(pointer.read_text(encoding="utf-8"))["file"]
    if Path(name).name != name or not name.endswith(".json"):  # the pointer is a file too: it names a sibling only
        raise FileNotFoundError(f"the package pointer in {folder} does not name a package file: {name!r}")
    return folder / name


class PackageIOManager(dg.ConfigurableIOManager):
    root: str = ""

    def _base(self) -> Path:
        return Path(self.root) if self.root else Paths.from_env().packages

    def latest(self, asset: str, partition: str | None) -> AgentDataPackage | None:
        """The newest stored package of an asset's partition, or None when there is none (or it is damaged)."""
        try:
            stored = latest_package_file(self._base(), asset, partition)
            return AgentDataPackage.from_json(stored.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def remove_partition(self, asset: str, partition: str) -> Path | None:
        """Delete every stored version of an asset's partition (question expiry); returns the folder removed."""
        folder = package_folder(self._base(), asset, partition)
        if not folder.is_dir():
            return None
        shutil.rmtree(folder)
        return folder

    @staticmethod
    def _partition(context) -> str | None:
        return context.partition_key if context.has_partition_key else None

    def handle_output(self, context: dg.OutputContext, obj: AgentDataPackage) -> None:
        folder = package_folder(self._base(), "/".join(context.asset_key.path), self._partition(context))
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"v{obj.version}-{obj.digest}.json"
        if not target.exists():
            tmp = target.with_suffix(".tmp")
            tmp.write_text(obj.to_json(indent=1), encoding="utf-8")
            tmp.replace(target)
        (folder / POINTER).write_text(json.dumps({"file": target.name, "digest": obj.digest}), encoding="utf-8")
        context.add_output_metadata({"package_path": dg.MetadataValue.path(str(target))})

    def load_input(self, context: dg.InputContext) -> AgentDataPackage:
        stored = latest_package_file(self._base(), "/".join(context.asset_key.path), self._partition(context))
        return AgentDataPackage.from_json(stored.read_text(encoding="utf-8"))
