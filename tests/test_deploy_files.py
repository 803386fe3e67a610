"""The instance files in deploy/: the UI opens on the asset graph (no first-run pop-up) and sends no telemetry,
on a laptop and for a team."""

from __future__ import annotations

import shutil

import dagster as dg
import pytest
import yaml

from tests.support.paths import ROOT


@pytest.mark.parametrize("name", ["dagster.local.yaml", "dagster.team.yaml"])
def test_no_first_run_popup_and_no_telemetry(name):
    settings = yaml.safe_load((ROOT / "deploy" / name).read_text(encoding="utf-8"))
    assert settings["nux"] == {"enabled": False} and settings["telemetry"] == {"enabled": False}


def test_the_local_instance_reads_them(tmp_path):
    shutil.copyfile(ROOT / "deploy" / "dagster.local.yaml", tmp_path / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        assert instance.nux_enabled is False and instance.telemetry_enabled is False

