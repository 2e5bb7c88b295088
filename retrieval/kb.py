"""Knowledge-base import: JSONL (structured `结构化内容` or flat `核心内容`), xlsx or csv → `Slice`s.

Every row stands alone: a bad row is reported and skipped, a bad item inside a row (one malformed key
parameter, say) is reported as a warning and dropped, and the rest of the file is always read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from calc.registry import REGISTRY
from retrieval.models import MASTERY_LEVELS, CalcExample, KeyParam, Slice
from retrieval.normalize import clean_multiline, clean_text, join_path, parse_mastery, split_path, stable_id
from retrieval.problems import Problem, ProblemLog
from retrieval.tables import cell_text, json_object, read_table, require_columns, unusable_numbers

PATH = "完整路径"
MASTERY = "掌握程度"
STRUCTURED = "结构化内容"
FLAT = "核心内容"
_TEXT_LISTS = ("tables", "formulas", "examples", "rules")
T = TypeVar("T")


@dataclass
class KbResult:
    slices: list[Slice] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    format: str = ""


def load_kb(path: Path, label: str | None = None) -> KbResult:
    """`label` is how problems name the file (default: the path as given)."""
    log = ProblemLog(label or str(path))
    result = KbResult(problems=log.problems)
    table = read_table(path, log)
    if table is None:
        return result
    result.format = table.format
    if not require_columns(table, [(PATH,), (MASTERY,), (STRUCTURED, FLAT)], log):
        return result
    taken: set[str] = set()
    for row, values in table.rows:
        parsed = _slice(values, row, log)
        if parsed is not None:
            levels, fields = parsed
            slice_id = stable_id("k", join_path(levels), taken)
            result.slices.append(Slice(id=slice_id, path=levels, source=f"{log.file}:{row}", **fields))
    if not result.slices and not log.has_fatal:
        log.fatal("no usable rows")
    elif result.slices and all(len(s.path) == 2 for s in result.slices):
        log.add(
            None,
            PATH,
            "every path has only two levels (篇 > 章): each row is a whole chapter, so questions cannot be "
            "aimed at a 节 or a knowledge point; were the deeper levels lost in the export?",
            "warning",
        )
    return result


def _slice(
    values: dict[str, Any], row: int, log: ProblemLog
) -> tuple[tuple[str, ...], dict[str, Any]] | None:
    if _refuse_numbers(values, row, log):
        return None
    raw_path = cell_text(values.get(PATH))
    if not raw_path or not raw_path.strip():
        log.add(row, PATH, "empty path")
        return None
    levels = split_path(raw_path)
    if len(levels) < 2:
        log.add(row, PATH, f"no ' > ' levels in '{clean_text(raw_path)}'; expected 篇 > 章 > …")
        return None
    if not all(levels):
        log.add(row, PATH, f"empty level in '{clean_text(raw_path)}'")
        return None
    mastery = parse_mastery(cell_text(values.get(MASTERY)) or "")
    if mastery is None:
        shown = cell_text(values.get(MASTERY)) or ""
        log.add(row, MASTERY, f"expected one of {'/'.join(MASTERY_LEVELS)}, found '{shown}'")
        return None
    structured = values.get(STRUCTURED)
    if structured not in (None, ""):
        fields = _structured(structured, row, log)
    else:
        fields = {"text": clean_multiline(cell_text(values.get(FLAT)) or "")}
    if fields is None:
        return None
    if not any(fields.get(key) for key in ("text", "tables", "formulas", "rules")):
        log.add(row, f"{STRUCTURED}/{FLAT}", "no content: no text, tables, formulas or rules")
        return None

    return levels, {"mastery": mastery, **fields}


def _structured(raw: object, row: int, log: ProblemLog) -> dict[str, Any] | None:
    content = json_object(raw)
    if isinstance(content, str):
        log.add(row, STRUCTURED, content)
        return None
    if isinstance(raw, str) and _refuse_numbers({STRUCTURED: content}, row, log):
        return None
    parts = [_text(content, key, row, log) for key in ("context_before", "context_after")]
    fields: dict[str, Any] = {"text": "\n".join(p for p in parts if p)}
    for key in _TEXT_LISTS:
        fields[key] = tuple(_text_items(content.get(key), key, row, log))
    fields["key_params"] = tuple(_items(content.get("key_params"), "key_params", row, log, _key_param))
    fields["calc_examples"] = tuple(
        _items(content.get("calc_examples"), "calc_examples", row, log, _calc_example)
    )
    return fields


def _refuse_numbers(values: dict[str, Any], row: int, log: ProblemLog) -> bool:
    """Reports every NaN, Infinity or absurd figure in the row; True when the row must be skipped."""
    found = [problem for column, value in values.items() for problem in unusable_numbers(value, column)]
    for where, reason in found:
        log.add(row, where, reason)
    return bool(found)


def _text(content: dict[str, Any], key: str, row: int, log: ProblemLog) -> str:
    value = content.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        log.add(
            row, f"{STRUCTURED}.{key}", f"expected text, found {type(value).__name__}; ignored", "warning"
        )
        return ""
    return clean_multiline(value)


def _listed(value: object, key: str, row: int, log: ProblemLog) -> list[object]:
    if value is None:
        return []
    if not isinstance(value, list):
        log.add(
            row, f"{STRUCTURED}.{key}", f"expected a list, found {type(value).__name__}; ignored", "warning"
        )
        return []
    return value


def _text_items(value: object, key: str, row: int, log: ProblemLog) -> list[str]:
    texts = []
    for index, item in enumerate(_listed(value, key, row, log)):
        if isinstance(item, str) and item.strip():
            # Markdown tables need their line breaks; every other list holds one-line statements.
            texts.append(clean_multiline(item) if key == "tables" else clean_text(item))
        else:
            log.add(row, f"{STRUCTURED}.{key}[{index}]", "expected non-empty text; item dropped", "warning")
    return texts


def _items(
    value: object, key: str, row: int, log: ProblemLog, build: Callable[[dict[str, Any]], T | str]
) -> list[T]:
    """Objects built by `build`, which returns the reason instead when an item is unusable."""
    built: list[T] = []
    for index, item in enumerate(_listed(value, key, row, log)):
        made = build(item) if isinstance(item, dict) else "expected an object"
        if isinstance(made, str):
            log.add(row, f"{STRUCTURED}.{key}[{index}]", f"{made}; item dropped", "warning")
        else:
            built.append(made)
    return built


def _key_param(item: dict[str, Any]) -> KeyParam | str:
    name, value, unit = item.get("name"), item.get("value"), item.get("unit", "")
    if not isinstance(name, str) or not name.strip():
        return "missing name"
    if isinstance(value, bool) or not isinstance(value, int | float | str) or value == "":
        return "value must be a number or text"
    if not isinstance(unit, str):
        return "unit must be text"
    return KeyParam(clean_text(name), float(value) if not isinstance(value, str) else clean_text(value), unit)


def _calc_example(item: dict[str, Any]) -> CalcExample | str:
    calculator, args, expected = item.get("calculator"), item.get("args"), item.get("expected")
    if not isinstance(calculator, str) or not calculator.strip():
        return "missing calculator name"
    if calculator.strip() not in REGISTRY:
        return f"unknown calculator '{calculator.strip()}' (see: python -m bot calc --list)"
    if not isinstance(args, dict) or not isinstance(expected, dict) or not expected:
        return "args and expected must be objects, expected non-empty"
    return CalcExample(calculator.strip(), args, expected)
