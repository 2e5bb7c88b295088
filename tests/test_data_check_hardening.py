"""`python -m bot data check` on hostile input, through the real command line: numbers no question may state,
files that are not files, and the hints a user needs to fix an export."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.test_import_files import BANK_HEADER, bank_row, write_jsonl, write_table

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_BANK = ROOT / "data" / "question_bank.xlsx"
PATH = "第四篇  交易税费 > 第七章  买方税费 > 第一节  契税 > {}"
CHAPTER = {"篇": "第四篇 交易税费", "章": "第七章 买方税费"}


def kb_row(point: str, **content: Any) -> dict[str, Any]:
    text = {"context_before": f"{point}：契税税率为1%至3%，由买方缴纳。"}
    return {"完整路径": PATH.format(point), "掌握程度": "掌握", "结构化内容": text | content}


def data_check(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """Exit status and the --json report; a run that reads forever fails the test instead of hanging it."""
    completed = subprocess.run(
        [sys.executable, "-m", "bot", "data", "check", "--json", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if not k.startswith("EXAMFORGE_")}
        | {"EXAMFORGE_DATA_FACTS_CACHE": str(tmp_path / "facts")}
        | (env or {}),
    )
    return completed.returncode, json.loads(completed.stdout)


def located(report: dict[str, Any]) -> list[tuple[str, int | None, str, str]]:
    return [(Path(p["file"]).name, p["row"], p["field"], p["severity"]) for p in report["problems"]]


def test_nan_infinity_and_absurd_figures_are_refused_row_by_row(tmp_path: Path) -> None:
    kb = write_jsonl(
        tmp_path / "kb.jsonl",
        [
            kb_row("一、税率", key_params=[{"name": "税率下限", "value": 0.01, "unit": "比例"}]),
            kb_row("二、科目", key_params=[{"name": "考试的科目数", "value": float("nan"), "unit": "个"}]),
            kb_row(
                "三、例题",
                calc_examples=[{"calculator": "deed_tax", "args": {"price": 1e308}, "expected": {"tax": 1}}],
            ),
            kb_row("四、上限", key_params=[{"name": "税率上限", "value": "Infinity", "unit": "比例"}]),
        ],
    )
    bank = write_table(
        tmp_path / "bank.csv",
        BANK_HEADER,
        [
            bank_row("契税由（　）缴纳。", ["买方", "卖方", "中介", "银行"], "A", 难度值=0.4, **CHAPTER),
            bank_row("契税税率下限为（　）。", ["1%", "2%", "3%", "4%"], "A", 难度值="NaN", **CHAPTER),
        ],
    )
    code, report = data_check(tmp_path, "--kb", str(kb), "--bank", str(bank))
    assert code == 0  # bad rows are skipped, the rest is usable
    assert located(report) == [
        ("kb.jsonl", 2, "结构化内容.key_params[0].value", "error"),
        ("kb.jsonl", 3, "结构化内容.calc_examples[0].args.price", "error"),
        ("kb.jsonl", 4, "结构化内容.key_params[0].value", "error"),
        ("bank.csv", 3, "难度值", "error"),
    ]
    assert report["kb"]["slices"] == 1 and report["bank"]["questions"] == 1
    assert "nan is not a number" in report["problems"][0]["reason"]


def test_a_fifo_given_as_a_data_file_is_refused_instead_of_read_forever(tmp_path: Path) -> None:
    fifo = tmp_path / "kb.jsonl"
    os.mkfifo(fifo)
    code, report = data_check(tmp_path, "--kb", str(fifo), "--bank", str(SAMPLE_BANK))
    assert code == 1
    assert located(report) == [("kb.jsonl", None, "file", "fatal")]
    assert "not a regular file" in report["problems"][0]["reason"]


def test_a_stem_longer_than_the_configured_maximum_is_reported(tmp_path: Path) -> None:
    kb = write_jsonl(tmp_path / "kb.jsonl", [kb_row("一、税率")])
    long_stem = "张某购买一套住房，" * 8 + "应缴纳的契税为（　）。"
    bank = write_table(
        tmp_path / "bank.csv",
        BANK_HEADER,
        [
            bank_row("契税由（　）缴纳。", ["买方", "卖方"], "A", **CHAPTER),
            bank_row(long_stem, ["3万元", "4.5万元"], "A", **CHAPTER),
        ],
    )
    code, report = data_check(
        tmp_path, "--kb", str(kb), "--bank", str(bank), env={"EXAMFORGE_DATA_MAX_STEM": "60"}
    )
    assert code == 0 and report["bank"]["questions"] == 2  # reported, not dropped
    assert located(report) == [("bank.csv", 3, "题干", "warning")]
    assert f"{len(long_stem)} characters" in report["problems"][0]["reason"]
    assert "maximum of 60" in report["problems"][0]["reason"]


def test_a_knowledge_base_with_only_two_level_paths_gets_a_warning(tmp_path: Path) -> None:
    rows = [
        {
            "完整路径": "第四篇  交易税费 > 第七章  买方税费",
            "掌握程度": "掌握",
            "核心内容": "契税由买方缴纳。",
        },
        {"完整路径": "第四篇  交易税费 > 第八章  卖方税费", "掌握程度": "熟悉", "核心内容": "满二免征。"},
    ]
    kb = write_jsonl(tmp_path / "kb.jsonl", rows)
    code, report = data_check(tmp_path, "--kb", str(kb), "--bank", str(SAMPLE_BANK))
    assert code == 0 and report["kb"]["slices"] == 2
    warnings = [p for p in report["problems"] if Path(p["file"]).name == "kb.jsonl"]
    assert [(p["row"], p["field"], p["severity"]) for p in warnings] == [(None, "完整路径", "warning")]
    assert "only two levels" in warnings[0]["reason"]


def test_a_tab_separated_file_named_csv_gets_a_hint_about_the_delimiter(tmp_path: Path) -> None:
    bank = tmp_path / "bank.csv"
    rows = [BANK_HEADER, bank_row("契税由（　）缴纳。", ["买方", "卖方"], "A")]
    bank.write_text("".join("\t".join(map(str, row)) + "\n" for row in rows), encoding="utf-8")
    code, report = data_check(tmp_path, "--bank", str(bank))
    assert code == 1
    hints = [p["reason"] for p in report["problems"] if p["field"] == "file" and p["row"] == 1]
    assert len(hints) == 1 and "separated by tabs" in hints[0] and ".tsv" in hints[0]


@pytest.mark.parametrize(
    ("cut", "words"),
    [
        ("sheet", "sheet XML is cut off"),
        ("archive", "archive is incomplete"),
    ],
)
def test_a_broken_workbook_says_in_words_which_part_is_broken(tmp_path: Path, cut: str, words: str) -> None:
    whole = SAMPLE_BANK.read_bytes()
    broken = tmp_path / "bank.xlsx"
    if cut == "archive":
        broken.write_bytes(whole[: len(whole) // 2])
    else:
        with zipfile.ZipFile(SAMPLE_BANK) as source, zipfile.ZipFile(broken, "w") as target:
            for name in source.namelist():
                data = source.read(name)
                target.writestr(name, data[: len(data) // 2] if name.startswith("xl/worksheets/") else data)
    code, report = data_check(tmp_path, "--bank", str(broken))
    assert code == 1
    (fatal,) = [p["reason"] for p in report["problems"] if p["severity"] == "fatal"]
    assert words in fatal and "(t)" not in fatal
