"""Dagster resources and IO managers: where the data lives and how packages are stored."""

from resources.io_managers import PackageIOManager
from resources.storage import CombatHome, PlannerResource

__all__ = ["CombatHome", "PackageIOManager", "PlannerResource"]
