"""Fixtures of the contract tests: the package at every stage of one answer."""

from __future__ import annotations

import pytest

from tests.support.stages import env_with, hand_planner, run_each_stage


@pytest.fixture(scope="module")
def versions(stage_env):
    return run_each_stage("Who dealt the most damage in the match?", env_with(stage_env, planner=hand_planner(
        "damage ranking")))
