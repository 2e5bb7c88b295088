"""`python -m bench` (`make bench`): run every benchmark and print one table of figures against targets.

A benchmark is a module with `run() -> list[Row]`, a row being (name, figure, target, passed): figure and
target already formatted with their units, passed None for a figure without a target. Targets are reported,
not asserted, so the exit status is 0 unless a benchmark crashes.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS: tuple[str, ...] = (
    "bench.retrieval",
    "bench.compiler",
    "bench.authoring",
    "bench.generation",
    "bench.critic",
    "bench.difficulty",
    "bench.bot_load",
    "bench.cli",
)

Row = tuple[str, str, str, bool | None]

_VERDICT = {True: "pass", False: "FAIL", None: ""}


def _width(text: str) -> int:
    """Display width in a terminal: CJK characters take two columns."""
    return sum(2 if ord(char) > 0x2E7F else 1 for char in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def render(rows: list[Row]) -> str:
    table = [("benchmark", "figure", "target", "result"), *((n, f, t, _VERDICT[p]) for n, f, t, p in rows)]
    widths = [max(_width(row[col]) for row in table) for col in range(4)]
    return "\n".join(
        "  ".join(_pad(cell, w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in table
    )


def main() -> int:
    rows: list[Row] = []
    for name in BENCHMARKS:
        print(f"running {name} …", file=sys.stderr, flush=True)
        rows.extend(importlib.import_module(name).run())
    print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
