"""The /groupstats chart: each member's accuracy and participation as paired horizontal bars, as PNG bytes.

Horizontal, because members' names are long and CJK: on a vertical chart they would have to be tilted or
cut. Drawn like the learner's chart (object API on an Agg canvas, the bundled CJK font), so it is as safe to
render from worker threads; handlers call `render_class_chart` through `asyncio.to_thread`.
"""

from __future__ import annotations

from dataclasses import dataclass

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from engines.i18n import text
from progress.chart import DPI, font, png
from progress.classroom import ChartSeries

# A class larger than this is cut to its first members (the best, as the summary ranks them): more bars
# would be too thin to read on a phone, and the text summary still lists everyone.
MEMBERS_SHOWN = 25
NAME_SHOWN = 16  # characters of a member's name; a longer one would squeeze the bars
WIDTH_INCHES = 8.0
INCHES_PER_MEMBER = 0.42
MIN_HEIGHT_INCHES = 3.0
_ACCURACY = "#d1495b"
_PARTICIPATION = "#8fb8de"
BAR = 0.38


@dataclass(frozen=True)
class ClassChartLabels:
    title: str
    accuracy: str
    participation: str


def class_chart_labels(locale: str) -> ClassChartLabels:
    return ClassChartLabels(
        title=text(locale, "class_chart_title"),
        accuracy=text(locale, "class_chart_accuracy"),
        participation=text(locale, "class_chart_participation"),
    )


def render_class_chart(series: ChartSeries, labels: ClassChartLabels) -> bytes:
    """A PNG with the first `MEMBERS_SHOWN` members top to bottom. Blocking and CPU-bound: run it in a
    worker thread."""
    count = min(len(series.names), MEMBERS_SHOWN)
    height = max(MIN_HEIGHT_INCHES, 1.2 + INCHES_PER_MEMBER * count)
    figure = Figure(figsize=(WIDTH_INCHES, height), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    rows = range(count)
    axes.barh(
        [row - BAR / 2 for row in rows],
        series.accuracy[:count],
        height=BAR,
        color=_ACCURACY,
        label=labels.accuracy,
    )
    axes.barh(
        [row + BAR / 2 for row in rows],
        series.participation[:count],
        height=BAR,
        color=_PARTICIPATION,
        label=labels.participation,
    )
    names = [name if len(name) <= NAME_SHOWN else name[: NAME_SHOWN - 1] + "…" for name in series.names]
    axes.set_yticks(list(rows), names[:count], fontproperties=font())
    axes.invert_yaxis()
    axes.set_xlim(0, 105)
    axes.set_title(labels.title, fontproperties=font())
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=2, prop=font(), frameon=False)
    return png(figure)
