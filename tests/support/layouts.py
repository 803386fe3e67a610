"""What a chart drew, measured in matplotlib: the box of every text it shows, for the layout tests (no two texts
may overlap, none may be cut off at the edge of the image).

`text_layout(fig)` measures a drawn figure; `recorded_layouts()` measures every chart saved while it is active,
by wrapping the one function both chart modules save with (`charts.draw._save`, also bound in
`charts.season`) and the figure's `savefig` while it runs, so the shipped code carries no hook for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import cast
from unittest import mock

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.table import Table
from matplotlib.text import Text

from combat_analysis.charts import draw, season


@dataclass(frozen=True)
class TextBox:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float  # display pixels at the figure's dpi, origin bottom left

    def overlaps(self, other: TextBox, tolerance: float = 0.5) -> bool:
        return (min(self.x1, other.x1) - max(self.x0, other.x0) > tolerance
                and min(self.y1, other.y1) - max(self.y0, other.y0) > tolerance)


@dataclass(frozen=True)
class ChartLayout:
    kind: str  # the chart function that drew it
    path: Path
    boxes: tuple[TextBox, ...]
    width: float
    height: float

    @property
    def overlapping(self) -> list[tuple[str, str]]:
        """Pairs of texts whose boxes intersect."""
        return [(a.text, b.text) for i, a in enumerate(self.boxes) for b in self.boxes[i + 1:] if a.overlaps(b)]

    @property
    def cut_off(self) -> list[str]:
        """Texts that run past the edge of the image."""
        return [b.text for b in self.boxes if b.x0 < -1 or b.y0 < -1 or b.x1 > self.width + 1 or b.y1 > self.height + 1]


def _drawn_texts(fig) -> Iterator[Text]:
    """Every text the figure draws: titles, axis labels, the tick labels in view, annotations, legend entries,
    table cells."""
    yield from fig.texts
    for legend in fig.legends:
        yield from legend.get_texts()
    for ax in fig.axes:
        for child in ax.get_children():
            if isinstance(child, Legend):
                yield from child.get_texts()
            elif isinstance(child, Table):
                yield from (cell.get_text() for cell in child.get_celld().values())
            elif isinstance(child, Text):
                yield child
        for axis in (ax.xaxis, ax.yaxis):
            if not ax.axison or not axis.get_visible():  # `axis("off")`: neither labels nor ticks are drawn
                continue
            yield axis.label
            low, high = sorted(axis.get_view_interval())
            slack = (high - low) * 1e-9
            for loc, label in zip(axis.get_majorticklocs(), axis.get_ticklabels(), strict=False):
                if low - slack <= loc <= high + slack:
                    yield label


def text_layout(fig, path: Path = Path(), kind: str = "") -> ChartLayout:
    """The boxes of every visible, non-empty text of a drawn figure (call after it was drawn or saved)."""
    renderer = cast(FigureCanvasAgg, fig.canvas).get_renderer()
    boxes = []
    for text in _drawn_texts(fig):
        if not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        boxes.append(TextBox(text.get_text(), box.x0, box.y0, box.x1, box.y1))
    width, height = fig.canvas.get_width_height()
    return ChartLayout(kind, Path(path), tuple(boxes), float(width), float(height))


@contextmanager
def recorded_layouts() -> Iterator[list[ChartLayout]]:
    """The text layout of every chart saved inside the block, in the order they were saved: measured as the chart
    is written (`Figure.savefig` inside the chart modules' `_save`), before the figure is closed."""
    layouts: list[ChartLayout] = []
    saving: list[str] = []  # the kind of the chart `_save` is writing
    save, savefig = draw._save, Figure.savefig

    def measured_save(fig, path: Path, kind: str) -> Path:
        saving.append(kind)
        try:
            return save(fig, path, kind)
        finally:
            saving.pop()

    def measured_savefig(fig, fname, *args, **kwargs):
        written = savefig(fig, fname, *args, **kwargs)
        if saving:
            fig.canvas.draw()  # at the figure's own dpi, so positions and the canvas size agree
            layouts.append(text_layout(fig, Path(fname), saving[-1]))
        return written

    with mock.patch.object(draw, "_save", measured_save), mock.patch.object(season, "_save", measured_save), \
            mock.patch.object(Figure, "savefig", measured_savefig):
        yield layouts
