"""A chart's small preview for Dagster's metadata, with Pillow alone: the assets that show charts import it, so
loading the definitions (code servers, run and step workers, `dagster` commands) never imports matplotlib."""

from __future__ import annotations

import base64
import io
from pathlib import Path


def preview_b64(path: Path, width: int = 720) -> str:
    """A chart at a width one can read (never enlarged), in a 128-colour palette: about 20 KB, small enough for
    Dagster's event log, large enough to read in its metadata view. Base64-encoded PNG."""
    from PIL import Image  # lazy: Pillow, only once a chart is previewed
    with Image.open(path) as img:
        rgb = img.convert("RGB")
        if rgb.width > width:
            rgb = rgb.resize((width, max(1, round(rgb.height * width / rgb.width))), Image.Resampling.LANCZOS)
        small = rgb.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        buffer = io.BytesIO()
        small.save(buffer, format="PNG", optimize=True)
    return base64.b64encode(buffer.getvalue()).decode("ascii")
