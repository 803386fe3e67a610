"""Fixtures of the season tests: the 24-match season ingested into one warehouse, and a connection across it."""

from __future__ import annotations

import pytest

from combat_analysis.warehouse.store import open_warehouse
from tests.support.season import roster_season_once, season_home_once


@pytest.fixture(scope="session")
def season_root(tmp_path_factory, season_matches):
    return season_home_once(tmp_path_factory, "season", season_matches) / "warehouse"


# The connections are read-only and opening one (extensions loaded, the lake attached) costs about half a
# second, so each test module shares one per season instead of opening one per test.
@pytest.fixture(scope="module")
def con(season_root):

    connection = open_warehouse(season_root)
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def roster_matches(tmp_path_factory):
    """The second season: one roster kept across nine matches (tests/support/season.py), written once."""
    return roster_season_once(tmp_path_factory)


@pytest.fixture(scope="session")
def roster_root(tmp_path_factory, roster_matches):
    return season_home_once(tmp_path_factory, "roster", roster_matches) / "warehouse"


@pytest.fixture(scope="module", params=["season", "roster"])
def seasons(request, season_root, season_matches, roster_root, roster_matches):
    """Each of the two seasons in turn: (a connection across it, its matches with their truth)."""
    root, matches = (season_root, season_matches) if request.param == "season" else (roster_root, roster_matches)
    connection = open_warehouse(root)
    yield connection, matches
    connection.close()
