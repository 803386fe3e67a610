"""A drawn chart's PNG made small and base64-encoded, with Pillow alone: the thumbnail a package keeps of each chart,
and the preview Dagster's metadata shows. The assets import it, so loading the definitions (code servers, run and
step workers, `dagster` commands) never imports matplotlib."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any


def thumbnail_b64(path: Path, width: int = 200) -> str:
    """A small PNG of a chart, base64-encoded (for Dagster metadata and report previews)."""
    from PIL import Image  # lazy: Pillow, only once a chart is drawn or previewed
    with Image.open(path) as img:
        ratio = width / img.width
        return _png_b64(img.convert("RGB").resize((width, max(1, round(img.height * ratio))), Image.Resampling.LANCZOS))


def preview_b64(path: Path, width: int = 720) -> str:
    """A chart at a width one can read (never enlarged), in a 128-colour palette: about 20 KB, small enough for
    Dagster's event log, large enough to read in its metadata view. Base64-encoded PNG."""
    from PIL import Image  # lazy: Pillow, only once a chart is previewed
    with Image.open(path) as img:
        rgb = img.convert("RGB")
        if rgb.width > width:
            rgb = rgb.resize((width, max(1, round(rgb.height * width / rgb.width))), Image.Resampling.LANCZOS)
        return _png_b64(rgb.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))


def _png_b64(image: Any) -> str:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return base64.b64encode(buffer.getvalue()).decode("ascii")
