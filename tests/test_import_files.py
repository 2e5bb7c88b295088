"""File-level behaviour shared by both importers: encodings, file kinds, empty and non-table files.

The writers at the top are imported by the other test_import_* modules: every test builds its own files.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from retrieval.bank import load_bank
from retrieval.kb import load_kb

BANK_HEADER = [
    "篇",
    "章",
    "节",
    "试题名称",
    "题干",
    "选项1",
    "选项2",
    "选项3",
    "选项4",
    "正确答案",
    "考点",
    "难度值",
]


def write_table(path: Path, header: list[str], rows: list[list[Any]], encoding: str = "utf-8") -> Path:
    """A .csv (in `encoding`) or .xlsx file with a header row; None cells are left empty."""
    if path.suffix == ".xlsx":
        workbook = openpyxl.Workbook()
        sheet = workbook.active
        sheet.append(header)
        for row in rows:
            sheet.append(row)
        workbook.save(path)
    else:
        with path.open("w", encoding=encoding, newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(header)
            writer.writerows([["" if cell is None else cell for cell in row] for row in rows])
    return path


def write_jsonl(path: Path, objects: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objects), encoding="utf-8")
    return path


def bank_row(stem: str, options: list[str], answer: str, name: str = "", **extra: Any) -> list[Any]:
    """A row in BANK_HEADER order; `extra` fills 篇/章/节/考点/难度值 by column name."""
    values = {"试题名称": name, "题干": stem, "正确答案": answer, **extra}
    values.update({f"选项{i}": option for i, option in enumerate(options, start=1)})
    return [values.get(column, "") for column in BANK_HEADER]


def fatal_reasons(problems: list) -> list[str]:
    return [p.reason for p in problems if p.severity == "fatal"]


def test_gbk_csv_is_read_and_its_encoding_reported(tmp_path: Path) -> None:
    path = write_table(
        tmp_path / "bank.csv",
        BANK_HEADER,
        [bank_row("买方缴纳的税是（　）", ["契税", "增值税", "个人所得税", "城建税"], "A", "SC001")],
        encoding="gbk",
    )
    result = load_bank(path)
    assert [q.stem for q in result.questions] == ["买方缴纳的税是（　）"]
    assert result.questions[0].options[2] == "个人所得税"
    assert "gb18030" in result.format
    assert result.problems == []


def test_utf8_bom_csv_keeps_its_first_column(tmp_path: Path) -> None:
    path = write_table(
        tmp_path / "bank.csv",
        BANK_HEADER,
        [bank_row("契税由卖方缴纳。（　）", ["正确", "错误"], "B", "YN001", 篇="第四篇 交易税费篇")],
        encoding="utf-8-sig",
    )
    result = load_bank(path)
    assert result.questions[0].part == "第四篇 交易税费篇"  # 篇 is the column right after the BOM
    assert result.format == "csv, utf-8 with BOM"


def test_headers_with_stray_whitespace_still_match(tmp_path: Path) -> None:
    header = [f" {name}\u00a0" if name in ("题干", "正确答案") else name for name in BANK_HEADER]
    path = write_table(tmp_path / "bank.xlsx", header, [bank_row("贷款（　）", ["甲", "乙"], "B")])
    assert [q.answer for q in load_bank(path).questions] == ["B"]


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".jsonl"])
def test_empty_file_is_fatal(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"bank{suffix}"
    path.write_bytes(b"")
    result = load_bank(path)
    assert result.questions == []
    assert fatal_reasons(result.problems) == ["the file is empty"]


def test_header_only_file_has_no_usable_rows(tmp_path: Path) -> None:
    result = load_bank(write_table(tmp_path / "bank.csv", BANK_HEADER, []))
    assert fatal_reasons(result.problems) == ["no readable rows"]


def test_text_file_named_xlsx_is_not_a_spreadsheet(tmp_path: Path) -> None:
    path = tmp_path / "bank.xlsx"
    path.write_text("这只是一段普通文字，不是表格。\n", encoding="utf-8")
    result = load_bank(path)
    assert result.questions == []
    [reason] = fatal_reasons(result.problems)
    assert reason.startswith("not a readable spreadsheet")
    assert str(result.problems[0]).startswith(f"{path}: file: not a readable spreadsheet")


def test_binary_file_named_csv_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kb.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")
    assert fatal_reasons(load_kb(path).problems) == ["binary data, not a text table"]


def test_unknown_file_type_names_the_accepted_ones(tmp_path: Path) -> None:
    path = tmp_path / "kb.pdf"
    path.write_bytes(b"%PDF-1.7\n")
    [reason] = fatal_reasons(load_kb(path).problems)
    assert "'.pdf'" in reason and ".xlsx" in reason and ".jsonl" in reason


def test_missing_file_is_fatal_not_a_traceback(tmp_path: Path) -> None:
    [reason] = fatal_reasons(load_kb(tmp_path / "absent.jsonl").problems)
    assert reason.startswith("cannot read the file")


def test_workbook_saved_as_csv_is_read_as_a_workbook(tmp_path: Path) -> None:
    xlsx = write_table(tmp_path / "bank.xlsx", BANK_HEADER, [bank_row("登记（　）", ["甲", "乙"], "A")])
    renamed = tmp_path / "bank.csv"
    xlsx.rename(renamed)
    result = load_bank(renamed)
    assert len(result.questions) == 1
    assert [p.severity for p in result.problems] == ["warning"]


def test_blank_rows_keep_the_row_numbers_a_user_sees(tmp_path: Path) -> None:
    rows = [
        bank_row("第一题（　）", ["甲", "乙"], "A"),
        [None] * len(BANK_HEADER),
        [None] * len(BANK_HEADER),
        bank_row("第二题（　）", ["甲", "乙"], ""),
    ]
    result = load_bank(write_table(tmp_path / "bank.xlsx", BANK_HEADER, rows))
    assert [(p.row, p.field) for p in result.problems] == [(5, "正确答案")]
    assert result.questions[0].source.endswith("bank.xlsx:2")


def test_invalid_jsonl_line_is_skipped_and_named(tmp_path: Path) -> None:
    path = tmp_path / "bank.jsonl"
    good = {
        "题干": "定金不得超过主合同标的额的20%。（　）",
        "选项1": "正确",
        "选项2": "错误",
        "正确答案": "A",
    }
    path.write_text(
        '{"题干": "未闭合\n[1, 2]\n' + json.dumps(good, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    result = load_bank(path)
    assert [q.stem for q in result.questions] == [good["题干"]]
    assert [(p.row, p.field) for p in result.problems] == [(1, "line"), (2, "line")]


def test_utf16_tab_separated_export_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bank.tsv"
    lines = ["题干\t选项1\t选项2\t正确答案", "定金不得超过合同总价的20%。（　）\t正确\t错误\t√"]
    path.write_text("\n".join(lines), encoding="utf-16")
    result = load_bank(path)
    assert [(q.qtype, q.answer) for q in result.questions] == [("judge", "A")]
    assert result.format == "csv, utf-16"
