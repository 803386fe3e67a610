"""One click from a materialization to its report: with the report server running (`make dev` starts it;
`combat-analysis serve-reports` anywhere), `report_url` is an http address a browser opens from the Dagster UI's
page, where a `file://` link is blocked. Opened in headless Chromium; nothing else of the data home is served."""

from __future__ import annotations

import subprocess
import threading
import urllib.error
import urllib.request

import dagster as dg
import pytest

from assets.ingest import match_warehouse, raw_match_log
from assets.reports import match_report
from combat_analysis.app.report_server import make_server
from resources import CombatHome
from tests.support.dagster import drop_log, new_instance, resources_for
from tests.support.paths import SAMPLE_LOG, SAMPLE_MATCH_ID

pytestmark = pytest.mark.slow
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The sample's match report materialized with a report server configured, and that server running."""
    home = tmp_path_factory.mktemp("report-links")
    server = make_server(home, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    instance = new_instance()
    instance.add_dynamic_partitions("matches", [SAMPLE_MATCH_ID])
    drop_log(home, SAMPLE_LOG)
    resources = {**resources_for(home), "home": CombatHome(home=str(home), reports_url=url)}
    assert dg.materialize(
        [raw_match_log, match_warehouse, match_report], partition_key=SAMPLE_MATCH_ID, instance=instance,
        resources=resources,
        run_config={"ops": {"raw_match_log": {"config": {"path": str(home / "incoming" / SAMPLE_LOG.name)}}}},
    ).success
    event = instance.get_latest_materialization_event(dg.AssetKey("match_report"))
    yield home, url, event.asset_materialization.metadata["report_url"].value
    server.shutdown()


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_report_url_opens_the_report_in_a_browser(served, chromium, tmp_path):
    home, url, report_url = served
    assert report_url == f"{url}/reports/{SAMPLE_MATCH_ID}/report.html"
    page = subprocess.run([chromium, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", report_url],
                          capture_output=True, text=True, timeout=180, check=True).stdout
    assert "Match report" in page and "VoidWalker" in page  # the sample's top damage dealer, per its truth file


def test_only_reports_and_their_charts_are_served(served):
    home, url, report_url = served
    charts = sorted((home / "reports" / SAMPLE_MATCH_ID).rglob("*.png"))
    assert charts and status(f"{url}/{charts[0].relative_to(home).as_posix()}") == 200
    for hidden in ("warehouse/catalog.sqlite", "requests/", "reports/", "reports/../warehouse/catalog.sqlite",
                   "reports/%2e%2e/warehouse/catalog.sqlite", "packages/"):
        assert status(f"{url}/{hidden}") == 404, hidden
