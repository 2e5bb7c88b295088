"""Markdown tables (`slice.tables`, or pipe lines inside the prose) as row facts and value thresholds.

retrieval/tables.py reads import files; this module reads the small tables a textbook prints. A row is a
`table_row` (header → cells, subject its first cell, or its second when the first is only a 序号); a column
whose every cell is one quantity ("1%", or "70" under "出让最高年限（年）") is a value column, and each of its
cells is also a threshold whose condition names the row's other cells ("家庭住房套数为第二套，建筑面积为
140㎡及以下"). A table numbered 1, 2, 3 … is a list, and becomes an enumeration as well.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.compiler.phrases import is_time, without_asides
from retrieval.compiler.quantities import canonical_unit, find_quantities, number, plain_quantity
from retrieval.facts import Fact

_SEPARATOR = re.compile(r"^:?-{2,}:?$")
_HEADER_UNIT = re.compile(r"[（(](?P<unit>[^（）()]{1,4})[）)]\s*$")
_EMPTY = frozenset({"", "—", "-", "－", "/", "无"})
_BAND = re.compile(r"以上|以下|以内|不足|超过|未满|不满|～|至")
_NUMBERING = frozenset({"序号", "编号", "序", "No.", "#"})
# A row's ordinal ("级数 1"): it numbers the row and names no case of its own.
_ORDINAL = re.compile(r"\d{1,2}|[一二三四五六七八九十]{1,2}|第[一二三四五六七八九十\d]{1,3}[级档]")
# A cell that opens with its bound ("未超过50%的部分") reads after its column's name without a 为.
_OPENS_WITH_BOUND = ("未超过", "不超过", "超过", "低于", "高于", "不足", "未满", "不满", "满")


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...]  # each row's markdown line as written, for the facts' sources
    text: str  # the whole table as written


def _cells(line: str) -> tuple[str, ...]:
    return tuple(cell.strip() for cell in line.strip().strip("|").split("|"))


def parse_tables(text: str) -> list[Table]:
    """Every block of consecutive pipe lines with a header and a separator row."""
    tables: list[Table] = []
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.strip().startswith("|"):
            block.append(line.strip())
            continue
        if len(block) >= 3 and all(_SEPARATOR.match(c.replace(" ", "")) for c in _cells(block[1]) if c):
            header = _cells(block[0])
            data = [(line, _cells(line)) for line in block[2:]]
            rows = tuple(cells[: len(header)] + ("",) * (len(header) - len(cells)) for _, cells in data)
            tables.append(Table(header, rows, tuple(line for line, _ in data), "\n".join(block)))
        block = []
    return tables


def without_tables(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("|"))


def _numbered(table: Table) -> bool:
    firsts = [row[0] for row in table.rows]
    return len(table.header) >= 2 and (
        table.header[0] in _NUMBERING or [number(cell) for cell in firsts] == list(range(1, len(firsts) + 1))
    )


def _value_columns(table: Table) -> dict[int, str]:
    """Columns (after the first) whose cells are all single quantities, with the unit the header gives."""
    columns: dict[int, str] = {}
    for index in range(1, len(table.header)):
        cells = [row[index] for row in table.rows if row[index] not in _EMPTY]
        unit = _HEADER_UNIT.search(table.header[index])
        header_unit = canonical_unit(unit["unit"]) if unit else ""
        if cells and all(plain_quantity(c) or (header_unit and number(c) is not None) for c in cells):
            columns[index] = header_unit
    return columns


def _quantity(cell: str, header_unit: str) -> tuple[float, str] | None:
    found = plain_quantity(cell)
    if found is not None:
        return found.value, found.unit
    value = number(cell)
    return (value, header_unit) if value is not None and header_unit else None


def _thresholds(table: Table, row: tuple[str, ...], line: str, columns: dict[int, str]) -> list[Fact]:
    facts = []
    for index, header_unit in columns.items():
        quantity = _quantity(row[index], header_unit)
        if quantity is None:
            continue
        # Key columns name the case; a column of values not all plain ("1%（北上广深3%）") names none.
        keys = [
            i
            for i in range(len(row))
            if i not in columns
            and row[i] not in _EMPTY
            and not _valued(table, i, quantity[1])
            and not _ORDINAL.fullmatch(row[i].strip())
        ]
        if not keys:
            continue
        label = without_asides(table.header[index])
        named = [_named(table.header[k], row[k]) for k in keys if k != 0]
        if find_quantities(label) or is_time(label):
            # The header is a band ("90㎡及以下") or a period ("2024年12月1日起"): part of the condition.
            subject, condition = row[0], "，".join([*named, label])
        elif len(keys) == 1:
            key = row[keys[0]]
            case = _named(table.header[keys[0]], key) if key.startswith(_OPENS_WITH_BOUND) else key
            subject, condition = f"{case}的{label}", ""
        else:
            subject = label
            condition = "，".join(_named(table.header[k], row[k]) for k in keys)
        facts.append(
            Fact(
                id="",
                kind="threshold",
                slice_id="",
                source=line,
                subject=subject,
                comparator="为",
                value=quantity[0],
                unit=quantity[1],
                value_text=row[index],
                condition=condition,
            )
        )
    return facts


def _named(header: str, cell: str) -> str:
    """A key cell said with its column: 家庭住房套数为首套, 增值额占扣除项目金额的比例未超过50%的部分."""
    joint = "" if cell.startswith(_OPENS_WITH_BOUND) else "为"
    return f"{without_asides(header)}{joint}{cell}"


def _valued(table: Table, column: int, unit: str) -> bool:
    """Most cells of the column state a value of `unit`: values, even where a cell adds a note ("1%（北上广深
    3%）"); a column of bands ("120㎡及以下") or of another unit names the case instead."""
    cells = [row[column] for row in table.rows if row[column] not in _EMPTY]
    valued = [c for c in cells if not _BAND.search(c) and any(q.unit == unit for q in find_quantities(c))]
    return column > 0 and len(valued) * 2 > len(cells)


def table_facts(table: Table) -> tuple[list[Fact], list[Fact]]:
    """(the row facts, which the caller links to each other, and the other facts of the table)."""
    numbered = _numbered(table)
    label_column = 1 if numbered else 0
    columns = _value_columns(table)
    value_column = max(columns, default=len(table.header) - 1)
    rows: list[Fact] = []
    others: list[Fact] = []
    for row, line in zip(table.rows, table.lines, strict=True):
        siblings = tuple(
            dict.fromkeys(
                other[value_column]
                for other in table.rows
                if other[value_column] != row[value_column] and other[value_column] not in _EMPTY
            )
        )
        rows.append(
            Fact(
                id="",
                kind="table_row",
                slice_id="",
                source=line,
                subject=row[label_column],
                header=table.header,
                items=row,
                siblings=siblings,
            )
        )
        others.extend(_thresholds(table, row, line, columns))
    if numbered:
        items = tuple(row[1] for row in table.rows if row[1] not in _EMPTY)
        others.append(
            Fact(
                id="",
                kind="enumeration",
                slice_id="",
                source=table.text,
                subject=table.header[1],
                items=items,
            )
        )
    return rows, others
