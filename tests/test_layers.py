"""The import graph between top-level packages, read from the source: arrows point down the declared order
and never form a cycle, so a newcomer can read the project bottom-up and a layer can be tested alone."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Bottom to top: a package may import only those before it. The emulator stands beside the layers: it imports
# none of the project, and of them only the bot (its demo) imports it. Tooling sits above and may import all.
ORDER = (
    "vocabulary",
    "settings",
    "calc",
    "retrieval",
    "storage",
    "graph",
    "engines",
    "progress",
    "handlers",
    "bot",
)
BESIDE = ("emulator",)
ABOVE = ("testkit", "bench", "scripts", "tests")
PACKAGES = (*ORDER, *BESIDE, *ABOVE)


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, top-level package) of every project import in a file, typing-only ones included: a name a
    module needs to be read is as much a dependency as one it calls."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


def graph(root: Path) -> dict[tuple[str, str], list[str]]:
    """Arrows between distinct top-level packages, each with where it is made (`file:line`)."""
    arrows: dict[tuple[str, str], list[str]] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for line, target in imports(path):
                if target in PACKAGES and target != package:
                    where = f"{path.relative_to(root)}:{line} imports {target}"
                    arrows.setdefault((package, target), []).append(where)
    return arrows


def allowed(source: str, target: str) -> bool:
    if source in ABOVE:
        return True
    if source in BESIDE or target in ABOVE:
        return False
    if target in BESIDE:
        return source == "bot"  # the demo runs the emulator in the bot's process
    return ORDER.index(target) < ORDER.index(source)


def upward(arrows: dict[tuple[str, str], list[str]]) -> list[str]:
    return [
        place
        for (source, target), places in arrows.items()
        if not allowed(source, target)
        for place in places
    ]


def cycles(arrows: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    edges: dict[str, set[str]] = {}
    for source, target in arrows:
        edges.setdefault(source, set()).add(target)
    found, state = [], {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for target in sorted(edges.get(node, ())):
            if state.get(target) == "open":
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    return found


def test_every_top_level_package_is_placed_in_the_order():
    on_disk = {p.name for p in ROOT.iterdir() if p.is_dir() and any(p.glob("*.py"))}
    assert on_disk <= set(PACKAGES), (
        f"place these packages in tests/test_layers.py: {on_disk - set(PACKAGES)}"
    )


@pytest.fixture(scope="module", name="arrows")
def project_arrows() -> dict[tuple[str, str], list[str]]:
    """The project's own import graph, read once for the checks below (parsing every file is their cost)."""
    return graph(ROOT)


def test_no_package_imports_one_above_it(arrows: dict[tuple[str, str], list[str]]):
    wrong = upward(arrows)
    assert not wrong, "imports against the layer order " + " < ".join(ORDER) + ":\n" + "\n".join(wrong)


def test_the_packages_import_each_other_in_no_cycle(arrows: dict[tuple[str, str], list[str]]):
    found = cycles(arrows)
    described = [
        " -> ".join(cycle) + " (" + "; ".join(arrows[(cycle[0], cycle[1])][:1]) + ")" for cycle in found
    ]
    assert not found, "import cycles between packages:\n" + "\n".join(described)


def test_an_upward_import_is_named_by_module_and_line(tmp_path: Path):
    """The checker itself: a storage module importing the bot is reported with its file and line."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "storage" / "bad.py").write_text("import json\n\nfrom bot.app import running\n")
    (tmp_path / "bot" / "app.py").write_text("from storage import bad\n")
    arrows = graph(tmp_path)
    assert upward(arrows) == ["storage/bad.py:3 imports bot"]
    assert cycles(arrows) == [["bot", "storage", "bot"]]
