"""Rows out of JSONL, CSV and Excel files, each with the row number a person would look up.

Both importers (knowledge base and question bank) accept the same file kinds, so reading, encoding
detection and the "this is not a table at all" verdicts are made once, here. Column names are matched
after removing all whitespace, because exported headers often carry stray spaces or NBSPs.

Excel files go through python-calamine directly rather than pandas: it keeps physical row numbers (blank
rows included) and avoids importing pandas, which alone costs more than the start-up budget.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from python_calamine import (
    CalamineError,
    CalamineWorkbook,
    PasswordError,
    WorksheetNotFound,
    XmlError,
    ZipError,
)

from retrieval.problems import ProblemLog

JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
CSV_SUFFIXES = frozenset({".csv", ".tsv"})
EXCEL_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xls", ".ods"})
CSV_ENCODINGS = ("utf-8-sig", "gb18030")  # GB18030 is a superset of GBK and GB2312
_EXCEL_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")
_WHITESPACE = re.compile(r"\s+")
# No figure in a textbook or an exam comes near this; a larger one is an export or unit error (1e308, 1e20).
ABSURD_MAGNITUDE = 1e15
# How exports write a missing or overflowing number: bare NaN (`json.dumps`), "nan" (pandas), "inf".
_NON_FINITE_TEXT = re.compile(r"^[+-]?(?:nan|inf|infinity)$", re.IGNORECASE)
# Why calamine refused a workbook, in words: its own messages name parser internals ("t", "EOCD").
_EXCEL_FAULTS: tuple[tuple[type[CalamineError], str], ...] = (
    (ZipError, "the workbook archive is incomplete or damaged (cut off during a copy or download?)"),
    (XmlError, "sheet XML is cut off or malformed (the workbook was not saved completely?)"),
    (WorksheetNotFound, "the workbook lists a sheet whose data is missing"),
    (PasswordError, "the workbook is password-protected; save an unprotected copy"),
)


@dataclass
class Table:
    """`rows` pairs each row number with its values by normalised column name (missing cells absent)."""

    columns: list[str]
    rows: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    format: str = ""
    header_row: int | None = None  # None for JSONL, which has no header


def require_columns(table: Table, required: Iterable[tuple[str, ...]], log: ProblemLog) -> bool:
    """Each entry lists interchangeable names; an entry with none present is fatal for the file."""
    ok = True
    for names in required:
        if not any(name in table.columns for name in names):
            log.fatal("required column is missing", field=" or ".join(names), row=table.header_row)
            ok = False
    return ok


def column_name(raw: object) -> str:
    return _WHITESPACE.sub("", str(raw)).replace("\ufeff", "")


def cell_text(value: object) -> str | None:
    """A scalar cell as text (1.0 → "1"); None for lists and objects, which no text column accepts."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dict | list):
        return None
    return str(value)


def unusable_numbers(value: object, field: str) -> Iterator[tuple[str, str]]:
    """(field, reason) for every number in a cell or inside its JSON that is not finite or absurdly large.

    Such a value would be stated as fact ("科目数为nan个"), and no comparison downstream is defined for it, so
    the importers refuse the row rather than carry it. Text counts only when it is nothing but a non-finite
    word: a number inside a sentence is the sentence's business.
    """
    if isinstance(value, bool):
        return
    if isinstance(value, float) and not math.isfinite(value):
        yield field, f"{value} is not a number (a missing value written as NaN or Infinity?)"
    elif isinstance(value, int | float) and abs(value) >= ABSURD_MAGNITUDE:
        yield field, f"{value:.3g} is beyond any plausible figure (≥ {ABSURD_MAGNITUDE:.0e})"
    elif isinstance(value, str) and _NON_FINITE_TEXT.match(value.strip()):
        yield field, f"'{value.strip()}' is not a number (a missing value written as NaN or Infinity?)"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from unusable_numbers(item, f"{field}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from unusable_numbers(item, f"{field}[{index}]")


def _read_any(path: Path, log: ProblemLog) -> Table | None:
    try:
        mode = path.stat().st_mode
        if not stat.S_ISREG(mode):
            # Reading a FIFO or a terminal would wait forever for data that may never come.
            kind = "a folder" if stat.S_ISDIR(mode) else "a pipe, device or socket"
            log.fatal(f"not a regular file but {kind}; give the path of a data file")
            return None
        data = path.read_bytes()
    except OSError as exc:
        log.fatal(f"cannot read the file: {exc.strerror or exc}")
        return None
    if not data.strip():
        log.fatal("the file is empty")
        return None
    suffix = path.suffix.lower()
    if suffix in EXCEL_SUFFIXES or data.startswith(_EXCEL_MAGIC):
        if suffix not in EXCEL_SUFFIXES:
            log.add(
                None,
                "file",
                f"content is an Excel workbook despite the {suffix} name; read as one",
                "warning",
            )
        return _read_excel(path, log)
    if suffix in JSONL_SUFFIXES:
        return _read_jsonl(data, log)
    if suffix in CSV_SUFFIXES:
        return _read_csv(data, "\t" if suffix == ".tsv" else ",", log)
    known = ", ".join(sorted(JSONL_SUFFIXES | CSV_SUFFIXES | EXCEL_SUFFIXES))
    log.fatal(f"unsupported file type '{suffix or path.name}'; expected one of {known}")
    return None


def json_object(value: object) -> dict[str, Any] | str:
    """An object held as itself (JSONL) or as JSON text (a spreadsheet cell); otherwise why it is not one."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            return f"not valid JSON ({exc.msg})"
    if not isinstance(value, dict):
        return f"expected a JSON object, found {type(value).__name__}"
    return value


def read_table(path: Path, log: ProblemLog) -> Table | None:
    """None after logging a fatal problem when the file cannot be read as a table or holds no rows."""
    table = _read_any(path, log)
    if table is not None and not table.rows:
        if not log.has_fatal:
            log.fatal("no readable rows" if table.columns else "no data in the file")
        return None
    return table


def _table_from_grid(grid: list[list[Any]], fmt: str, log: ProblemLog) -> Table:
    """The first non-empty row is the header; later blank rows are skipped without a report."""
    start = next((i for i, cells in enumerate(grid) if any(cell_text(c) for c in cells)), None)
    if start is None:
        return Table(columns=[], format=fmt)
    header_row = start + 1
    columns: list[str | None] = []
    for raw in grid[start]:
        name = column_name(cell_text(raw) or "")
        if name and name in columns:
            log.add(header_row, name, "column appears twice; the first one is used", "warning")
            name = ""
        columns.append(name or None)
    table = Table(columns=[c for c in columns if c], format=fmt, header_row=header_row)
    for offset, cells in enumerate(grid[start + 1 :], start=1):
        row_number = header_row + offset
        values = {}
        for name, raw in zip(columns, cells, strict=False):
            text = cell_text(raw) or ""
            if name and text.strip():
                values[name] = text
        if len(cells) > len(columns) and any(cell_text(c) for c in cells[len(columns) :]):
            log.add(row_number, "row", "cells beyond the last header column are ignored", "warning")
        if values:
            table.rows.append((row_number, values))
    return table


def _read_excel(path: Path, log: ProblemLog) -> Table | None:
    try:
        workbook = CalamineWorkbook.from_path(str(path))
        sheets = [workbook.get_sheet_by_name(name) for name in workbook.sheet_names]
        grids = [(sheet.name, sheet.to_python(skip_empty_area=False)) for sheet in sheets]
    except CalamineError as exc:
        reason = next((words for kind, words in _EXCEL_FAULTS if isinstance(exc, kind)), None)
        log.fatal(f"not a readable spreadsheet: {reason or exc}")
        return None
    # Workbooks often open with an empty or cover sheet: use the first one that has content.
    for name, grid in grids:
        if any(any(cell_text(c) for c in cells) for cells in grid):
            fmt = f"{path.suffix.lower().lstrip('.')}, sheet '{name}'"
            return _table_from_grid(grid, fmt, log)
    return Table(columns=[], format=path.suffix.lower().lstrip("."))


def _decode(data: bytes, log: ProblemLog) -> tuple[str, str] | None:
    """The text and the name of the encoding that read it, for the report.

    UTF-16 is recognised by its BOM only: Excel's "Unicode text" export writes one, and without it the NUL
    bytes of UTF-16 are indistinguishable from a binary file.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            pass
    if b"\x00" in data:
        log.fatal("binary data, not a text table")
        return None
    for encoding in CSV_ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if encoding == "utf-8-sig":
            encoding = "utf-8 with BOM" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
        return text, encoding
    log.fatal(f"text is in none of the accepted encodings ({', '.join(CSV_ENCODINGS)})")
    return None


def _read_csv(data: bytes, delimiter: str, log: ProblemLog) -> Table | None:
    decoded = _decode(data, log)
    if decoded is None:
        return None
    text, encoding = decoded
    try:
        grid = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        log.fatal(f"not a CSV table ({exc})")
        return None
    table = _table_from_grid(grid, f"csv, {encoding}", log)
    if delimiter == "," and len(table.columns) <= 1 and table.header_row is not None:
        header = grid[table.header_row - 1]
        if any("\t" in str(cell) for cell in header):
            log.add(
                table.header_row,
                "file",
                "the header is separated by tabs, not commas: name the file .tsv, or save it as "
                "comma-separated CSV",
                "warning",
            )
    return table


def _read_jsonl(data: bytes, log: ProblemLog) -> Table | None:
    """Keys are the column names; the column set is every key seen, since JSONL rows omit empty keys."""
    decoded = _decode(data, log)
    if decoded is None:
        return None
    text, encoding = decoded
    table = Table(columns=[], format=f"jsonl, {encoding}")
    seen: dict[str, None] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            log.add(number, "line", f"not valid JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(obj, dict):
            log.add(number, "line", f"expected a JSON object, found {type(obj).__name__}")
            continue
        values = {column_name(k): v for k, v in obj.items()}
        seen.update(dict.fromkeys(values))
        table.rows.append((number, values))
    table.columns = list(seen)
    return table
