"""The /stats chart: answers per day (bars) and accuracy (line) over the last 30 days, as PNG bytes.

Rendered with matplotlib's object API on an Agg canvas — no pyplot, no rcParams — so concurrent calls from
worker threads share no state; handlers call `render_chart` through `asyncio.to_thread`. The labels are
set in WenQuanYi Micro Hei, shipped in the `paperang-p2-fonts-cjk` wheel (2.3 MB, the smallest package of
the index that carries a complete simplified-Chinese font; a Noto Sans CJK font alone is 16 MB, and
mplfonts, which bundles several, 85 MB), loaded by file path so no system font is assumed and no 中文 comes
out as tofu boxes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import paperang_p2_fonts_cjk
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties

from progress.stats import DayTally

FONT_FILE = Path(paperang_p2_fonts_cjk.__file__).parent / "fonts" / "wqy-microhei.ttc"
# 800 × 400 px: legible on a phone, a few tens of kB as PNG.
SIZE_INCHES = (8.0, 4.0)
DPI = 100
_BARS = "#8fb8de"
_LINE = "#d1495b"


@dataclass(frozen=True)
class ChartLabels:
    """The words on the chart, in the learner's language (from the interface catalogues)."""

    title: str
    answered: str
    accuracy: str


@cache
def font() -> FontProperties:
    return FontProperties(fname=FONT_FILE)


def render_chart(days: Sequence[DayTally], labels: ChartLabels) -> bytes:
    """A PNG of the days given (oldest first). Blocking and CPU-bound (0.5–2 s on a busy 2-core machine):
    run it in a worker thread."""
    figure = Figure(figsize=SIZE_INCHES, dpi=DPI)
    FigureCanvasAgg(figure)
    bars = figure.add_subplot()
    positions = range(len(days))
    bars.bar(positions, [d.answered for d in days], color=_BARS, label=labels.answered)
    bars.set_ylabel(labels.answered, fontproperties=font())
    bars.set_ylim(0, max([d.answered for d in days] + [1]) * 1.15)
    bars.yaxis.get_major_locator().set_params(integer=True)
    line = bars.twinx()
    practised = [(i, d.accuracy * 100) for i, d in enumerate(days) if d.accuracy is not None]
    line.plot(
        [i for i, _ in practised],
        [share for _, share in practised],
        color=_LINE,
        marker="o",
        markersize=3,
        label=labels.accuracy,
    )
    line.set_ylim(0, 105)
    line.set_ylabel(labels.accuracy, fontproperties=font())
    step = max(1, len(days) // 6)
    bars.set_xticks(list(positions)[::step], [f"{d.day:%m-%d}" for d in days][::step])
    bars.set_xlim(-0.6, len(days) - 0.4)
    bars.set_title(labels.title, fontproperties=font())
    handles = bars.get_legend_handles_labels()[0] + line.get_legend_handles_labels()[0]
    bars.legend(handles=handles, loc="upper left", prop=font(), frameon=False)
    return png(figure)


def png(figure: Figure) -> bytes:
    """The finished figure's PNG bytes, laid out so no label is cut off at the edges."""
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()
