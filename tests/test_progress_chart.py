"""The /stats chart: a PNG of sensible size, Chinese labels drawn with a real font (no tofu boxes), and safe
to render from several worker threads at once. Its numbers are checked through the text that goes with it
(test_progress_stats)."""

from __future__ import annotations

import asyncio
import io
import warnings
from datetime import date, timedelta

from matplotlib.ft2font import FT2Font
from PIL import Image

from progress.chart import DPI, FONT_FILE, SIZE_INCHES, render_chart
from progress.stats import DayTally
from progress.summary import chart_labels

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def month(seed: int) -> list[DayTally]:
    start = date(2026, 2, 1)
    days = []
    for n in range(30):
        answered = (n * seed) % 7
        days.append(DayTally(answered, min(answered, (n + seed) % 5), start + timedelta(days=n)))
    return days


def test_chart_is_a_png_of_sensible_size_and_dimensions() -> None:
    png = render_chart(month(3), chart_labels("zh"))
    assert png.startswith(PNG_SIGNATURE)
    assert 10_000 < len(png) < 300_000
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == (int(SIZE_INCHES[0] * DPI), int(SIZE_INCHES[1] * DPI))
    # Not a blank canvas: bars, line and text make many colours.
    assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or []) > 20


def test_chinese_labels_render_without_missing_glyphs() -> None:
    labels = chart_labels("zh")
    characters = {ch for label in (labels.title, labels.answered, labels.accuracy) for ch in label}
    font = FT2Font(str(FONT_FILE))
    assert [ch for ch in sorted(characters) if font.get_char_index(ord(ch)) == 0] == []
    # matplotlib warns "Glyph … missing from font" for every character it has to draw as a box.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        render_chart(month(2), labels)
        render_chart(month(2), chart_labels("en"))


async def test_concurrent_renders_in_worker_threads_match_one_at_a_time() -> None:
    seeds = [1, 2, 3, 4]
    labels = [chart_labels("zh" if seed % 2 else "en") for seed in seeds]
    alone = [render_chart(month(seed), label) for seed, label in zip(seeds, labels, strict=True)]
    together = await asyncio.gather(
        *(
            asyncio.to_thread(render_chart, month(seed), label)
            for seed, label in zip(seeds, labels, strict=True)
        )
    )
    assert list(together) == alone
    assert len(set(alone)) == len(seeds)


def test_a_month_without_answers_still_draws_axes() -> None:
    empty = [DayTally(0, 0, date(2026, 2, 1) + timedelta(days=n)) for n in range(30)]
    assert render_chart(empty, chart_labels("zh")).startswith(PNG_SIGNATURE)
