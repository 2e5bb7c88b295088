"""Assemble a bundled data set from its reviewable text sources in <folder>/sources/.

The knowledge-base parts are concatenated into <folder>/knowledge_base.jsonl; the question-bank parts (one
JSON object per spreadsheet row) become <folder>/question_bank.xlsx in the field layout. Run after editing a
part (the folder defaults to data/, the structured sample; data/prose/ is the prose-only export):
    .venv/bin/python scripts/build_sample_data.py [data/prose]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from openpyxl import Workbook

ROOT = Path(__file__).resolve().parent.parent
LEADING = ["试卷名", "序号", "篇", "章", "节", "试题名称", "题干"]
TRAILING = ["正确答案", "解析", "考点", "难度值", "区分度", "计算校验"]


def read_rows(path: Path) -> list[dict]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                sys.exit(f"{path.name}:{number}: not valid JSON: {exc}")
    return rows


def build_kb(folder: Path) -> int:
    lines = []
    for part in sorted((folder / "sources").glob("kb_part_*.jsonl")):
        lines += [line for line in part.read_text(encoding="utf-8").splitlines() if line.strip()]
    (folder / "knowledge_base.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def build_bank(folder: Path) -> int:
    rows = [row for part in sorted((folder / "sources").glob("bank_part_*.jsonl")) for row in read_rows(part)]
    numbers = [int(key[2:]) for row in rows for key in row if key.startswith("选项") and key[2:].isdigit()]
    option_count = max(numbers, default=4)
    header = LEADING + [f"选项{i}" for i in range(1, option_count + 1)] + TRAILING
    book = Workbook()
    sheet = book.active
    sheet.title = "试题"
    sheet.append(header)
    for row in rows:
        sheet.append([row.get(column) for column in header])
    book.save(folder / "question_bank.xlsx")
    return len(rows)


if __name__ == "__main__":
    target = ROOT / (sys.argv[1] if len(sys.argv) > 1 else "data")
    print(f"knowledge base: {build_kb(target)} slices; question bank: {build_bank(target)} rows")
