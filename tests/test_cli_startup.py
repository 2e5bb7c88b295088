"""The command line starts fast because each command imports only what it runs: the light commands must not
load the model, graph, Telegram or scikit-learn stacks (timings are in `bench/cli.py`, not here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("sklearn", "langgraph", "langchain_core", "langchain_openai", "telegram")
# Runs the real entry point, then lists which heavy packages the process ended up holding.
PROBE = """
import json, sys
from bot.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = sorted({name.split(".")[0] for name in sys.modules} & set(HEAVY))
print(json.dumps(heavy), file=sys.__stderr__)
"""


def heavy_modules_loaded(*args: str) -> list[str]:
    completed = subprocess.run(
        [sys.executable, "-c", PROBE.replace("set(HEAVY)", f"set({HEAVY!r})"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    return json.loads(completed.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [("--help",), ("calc", "--list"), ("data", "check")])
def test_light_commands_do_not_import_the_heavy_stacks(args: tuple[str, ...]) -> None:
    assert heavy_modules_loaded(*args) == []


def test_the_probe_sees_a_command_that_does_load_them(tmp_path: Path) -> None:
    """`generate` needs the graph: the same probe must report it, or an empty list above proves nothing."""
    config = tmp_path / "config.toml"
    config.write_text(f'[graph]\ncheckpoint_db = "{tmp_path / "cp.sqlite"}"\n', encoding="utf-8")
    loaded = heavy_modules_loaded("--config", str(config), "generate", "--chapter", "第七章")
    assert {"langgraph", "langchain_core"} <= set(loaded)
