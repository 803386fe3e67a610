"""Fixtures of the season tests: the 24-match season ingested into one warehouse, and a connection across it."""

from __future__ import annotations

import pytest

from combat_analysis.warehouse.store import open_warehouse
from tests.support.season import ingest_season


@pytest.fixture(scope="session")
def season_root(tmp_path_factory, season_matches):
    return ingest_season(season_matches, tmp_path_factory.mktemp("season-warehouse"))


@pytest.fixture()
def con(season_root):

    connection = open_warehouse(season_root)
    yield connection
    connection.close()
