"""The HTML report in a real headless Chromium: every image decodes, and a phone-sized screenshot is saved
to tests/out/ for a human to look at."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from stage_fixtures import MATCH_ID, stage_env, stage_warehouse  # noqa: F401

from combat_analysis.pipeline import answer_question

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
OUT = Path(__file__).resolve().parent / "out"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


@pytest.fixture(scope="module")
def chromium() -> str:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM}; CI must install it (apt-get install -y chromium)")
        pytest.skip(f"Chromium not installed at {CHROMIUM} (install: apt-get install -y chromium)")
    return CHROMIUM


def run_chromium(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                          timeout=90, check=False)


@pytest.fixture(scope="module")
def report(stage_env):  # noqa: F811
    pkg = answer_question("Who got first blood?", warehouse_root=stage_env.warehouse_root, match_id=MATCH_ID,
                          artifacts_dir=stage_env.artifacts_dir, followups=True)
    return Path(pkg.final_output.html_path)


def test_every_image_loads_in_chromium(chromium, report, tmp_path):
    # The report's inline script records on <body> how many images it has and how many failed to decode.
    done = run_chromium(chromium, tmp_path / "profile", "--virtual-time-budget=5000", "--dump-dom", report.as_uri())
    body = re.search(r"<body[^>]*>", done.stdout)
    assert body, f"no DOM dumped (exit {done.returncode}): {done.stderr[-500:]}"
    images = re.search(r'data-images="(\d+)"', body.group(0))
    broken = re.search(r'data-images-broken="(\d+)"', body.group(0))
    assert images and broken, f"the image check did not run: {body.group(0)}"
    assert int(images.group(1)) == 2 and int(broken.group(1)) == 0
    assert "Tsunami88 got first blood" in done.stdout


def test_phone_screenshot(chromium, report, tmp_path):
    OUT.mkdir(exist_ok=True)
    shot = OUT / "report_phone.png"
    shot.unlink(missing_ok=True)
    done = run_chromium(chromium, tmp_path / "profile", "--window-size=412,900", f"--screenshot={shot}",
                        report.as_uri())
    assert shot.exists(), f"no screenshot (exit {done.returncode}): {done.stderr[-500:]}"
    from PIL import Image

    with Image.open(shot) as img:
        assert img.size == (412, 900)
        colours = img.convert("RGB").getcolors(maxcolors=1_000_000)
        assert colours is None or len(colours) > 50, "the page rendered blank"
