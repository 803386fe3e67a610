"""Versioned, content-addressed storage for Agent Data Packages.

Every package version is written once, to `<root>/<asset>/<partition>/v<version>-<digest>.json`, and never
overwritten; a small pointer file names the newest version per asset and partition. Loading verifies the
digest, so a tampered file stops the run with a clear error.
"""


import json
from pathlib import Path

import dagster as dg

from combat_analysis.package import AgentDataPackage
from combat_analysis.settings import Paths

POINTER = "latest.json"


def latest_package_file(root: Path, asset: str, partition: str) -> Path:
    """The newest stored version of an asset's package for a partition, as the IO manager's pointer names it."""
    folder = Path(root) / asset / partition
    pointer = folder / POINTER
    if not pointer.exists():
        raise FileNotFoundError(f"no stored package for {asset} at {folder}; materialize the asset first")
    return folder / json.loads(pointer.read_text(encoding="utf-8"))["file"]


class PackageIOManager(dg.ConfigurableIOManager):
    root: str = ""

    def _base(self) -> Path:
        return Path(self.root) if self.root else Paths.from_env().packages

    def _folder(self, context) -> Path:
        partition = context.partition_key if context.has_partition_key else "_"
        return self._base() / "/".join(context.asset_key.path) / partition

    def handle_output(self, context: dg.OutputContext, obj: AgentDataPackage) -> None:
        folder = self._folder(context)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"v{obj.version}-{obj.digest}.json"
        if not target.exists():
            tmp = target.with_suffix(".tmp")
            tmp.write_text(obj.to_json(indent=1), encoding="utf-8")
            tmp.replace(target)
        (folder / POINTER).write_text(json.dumps({"file": target.name, "digest": obj.digest}), encoding="utf-8")
        context.add_output_metadata({"package_path": dg.MetadataValue.path(str(target))})

    def load_input(self, context: dg.InputContext) -> AgentDataPackage:
        partition = context.partition_key if context.has_partition_key else "_"
        stored = latest_package_file(self._base(), "/".join(context.asset_key.path), partition)
        return AgentDataPackage.from_json(stored.read_text(encoding="utf-8"))
