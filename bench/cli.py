"""Cold starts of the command line: each command the median of 5 fresh processes, in seconds and as a multiple
of `python -c pass` on the same machine (which makes figures from a loaded or a slow machine comparable).

`generate` writes into a scratch checkpoint database so the bench neither reads nor grows `var/`; the bundled
data's compiled facts are cached in `var/facts` as for any user, so the first run of a fresh clone pays for
compiling them once (a warm-up run is made before timing).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.__main__ import Row

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5
# (name, arguments after `python`, target in seconds)
COMMANDS: tuple[tuple[str, tuple[str, ...], float], ...] = (
    ("python -m bot --help", ("-m", "bot", "--help"), 1.0),
    ("python -m bot calc --list", ("-m", "bot", "calc", "--list"), 1.0),
    ("python -m bot data check (sample)", ("-m", "bot", "data", "check"), 1.0),
    ("python -m bot generate --count 1", ("-m", "bot", "generate", "--count", "1"), 2.5),
)


def _median_start(args: tuple[str, ...], env: dict[str, str]) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def run() -> list[Row]:
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items() if not k.startswith("EXAMFORGE_")}
        env["EXAMFORGE_GRAPH_CHECKPOINT_DB"] = str(Path(scratch) / "checkpoints.sqlite")
        subprocess.run([sys.executable, *COMMANDS[-1][1]], cwd=ROOT, env=env, capture_output=True, check=True)
        baseline = _median_start(("-c", "pass"), env)
        rows: list[Row] = [("cli: python -c pass (baseline)", f"{baseline:.3f} s", "", None)]
        for name, args, target in COMMANDS:
            seconds = _median_start(args, env)
            rows.append(
                (
                    f"cli: {name}",
                    f"{seconds:.2f} s ({seconds / baseline:.0f}× python -c pass)",
                    f"≤ {target:g} s",
                    seconds <= target,
                )
            )
    return rows
