"""One click from a materialization to its report: with the report server running (`make dev` starts it;
`combat-analysis serve-reports` anywhere), `report_url` is an http address a browser opens from the Dagster UI's
page, where a `file://` link is blocked. Opened in headless Chromium; nothing else of the data home is served."""

from __future__ import annotations

import subprocess
import urllib.error
import urllib.request

import pytest

from tests.support.paths import SAMPLE_MATCH_ID

pytestmark = pytest.mark.slow
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_report_url_opens_the_report_in_a_browser(report_server, chromium, tmp_path):
    home, url, report_url = report_server
    assert report_url == f"{url}/reports/{SAMPLE_MATCH_ID}/report.html"
    page = subprocess.run([chromium, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", report_url],
                          capture_output=True, text=True, timeout=180, check=True).stdout
    assert "Match report" in page and "VoidWalker" in page  # the sample's top damage dealer, per its truth file


def test_only_reports_and_their_charts_are_served(report_server):
    home, url, report_url = report_server
    charts = sorted((home / "reports" / SAMPLE_MATCH_ID).rglob("*.png"))
    assert charts and status(f"{url}/{charts[0].relative_to(home).as_posix()}") == 200
    for hidden in ("warehouse/catalog.sqlite", "requests/", "reports/", "reports/../warehouse/catalog.sqlite",
                   "reports/%2e%2e/warehouse/catalog.sqlite", "packages/"):
        assert status(f"{url}/{hidden}") == 404, hidden
