"""Chart jobs drawn in the worker process: the same PNGs as drawn here, errors per job, and a dead worker's
jobs drawn here instead."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from combat_analysis.charts.jobs import DRAW_HERE, ChartJob, ChartWorker

PLAYERS = ["VoidWalker", "Kraken_Mid", "小龙Xiao"]
DAMAGE = [192395.0, 150742.0, 98000.0]


def _bar(path):
    return ChartJob.of("bar_h", path, PLAYERS, DAMAGE, title="Damage dealt", xlabel="damage dealt",
                       colors=["#2f6fde", "#d64541", "#2f6fde"])


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as img:
        return img.size


def test_worker_draws_the_same_png_as_this_process(tmp_path):
    here = DRAW_HERE.draw([_bar(tmp_path / "here.png")])
    with ChartWorker() as worker:
        there = worker.draw([_bar(tmp_path / "there.png")])
    assert [d.error for d in here + there] == [None, None]
    assert there[0].path == str(tmp_path / "there.png")
    assert (tmp_path / "there.png").read_bytes() == (tmp_path / "here.png").read_bytes()
    assert _png_size((tmp_path / "there.png").read_bytes()) == (880, 280)  # 8 x 2.55 inches at 110 dpi
    assert _png_size(base64.b64decode(there[0].thumbnail_b64))[0] == 200
    assert there[0].thumbnail_b64 == here[0].thumbnail_b64


def test_a_failing_job_is_reported_and_the_others_are_drawn(tmp_path):
    broken = ChartJob.of("bar_h", tmp_path / "broken.png", PLAYERS, DAMAGE[:2], title="t", xlabel="x")
    with ChartWorker() as worker:
        first, second = worker.draw([broken, _bar(tmp_path / "fine.png")])
        third, = worker.draw([_bar(tmp_path / "again.png")])  # the worker serves batch after batch
    assert first.error is not None and first.error.startswith("ValueError") and not first.thumbnail_b64
    assert second.error is None and (tmp_path / "fine.png").stat().st_size > 5_000
    assert third.error is None and (tmp_path / "again.png").is_file()


def test_only_drawing_functions_can_be_named():
    with pytest.raises(ValueError, match="not a chart drawing function"):
        ChartJob.of("_save", "x.png")
    smuggled = ChartJob("thumbnail_b64", "/etc/passwd")  # built without `of`: still refused when drawn
    assert DRAW_HERE.draw([smuggled])[0].error == "ValueError: 'thumbnail_b64' is not a chart drawing function"


def test_a_dead_worker_leaves_its_jobs_to_this_process(tmp_path):
    worker = ChartWorker()
    worker._process.kill()  # as if it crashed
    worker._process.wait()
    drawn = worker.draw([_bar(tmp_path / "after.png")])
    assert drawn[0].error is None and (tmp_path / "after.png").is_file()
    assert worker._process is None  # closed: later jobs are drawn here without trying it again
    worker.close()
