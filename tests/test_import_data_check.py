"""`python -m bot data check`: the counts, the problem lines, --json, exit status and start-up loading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from retrieval.sources import load_sources
from tests.test_import_files import BANK_HEADER, bank_row, write_jsonl, write_table

KB_ROWS = [
    {
        "完整路径": "第四篇  交易税费 > 第七章  买方税费 > 第一节  契税 > 一、税率",
        "掌握程度": "掌握",
        "核心内容": "契税税率为1%至3%。",
    },
    {
        "完整路径": "第四篇  交易税费 > 第八章  卖方税费 > 第一节  增值税 > 一、免征",
        "掌握程度": "熟悉",
        "核心内容": "满二免征。",
    },
    {"完整路径": "没有层级的路径", "掌握程度": "了解", "核心内容": "这一行会被跳过。"},
]
CHAPTER = {"篇": "第四篇 交易税费篇", "章": "第七章 买方税费"}
BANK_ROWS = [
    bank_row("契税由买方缴纳。（　）", ["正确", "错误"], "对", "YN001", **CHAPTER),
    bank_row("首套90平方米住房契税税率为（　）", ["1%", "1.5%", "2%", "3%"], "A", "MC002", **CHAPTER),
    bank_row(
        "买方需要缴纳的有（　）",
        ["契税", "印花税", "增值税", "个税"],
        "A、B",
        "MC003",
        篇="第四篇 交易税费篇",
        章="第八章 卖方税费",
    ),
    bank_row("张某购买住房一套，总价300万元，面积90平方米。", [], "", "CS004", **CHAPTER),
    bank_row("【单选题】张某应缴契税（　）", ["3万元", "4.5万元"], "A", "SC005"),
    bank_row("没有答案的题（　）", ["甲", "乙"], "", "SC006", **CHAPTER),
]


@pytest.fixture(autouse=True)
def _default_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EXAMFORGE_CONFIG", raising=False)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    kb = write_jsonl(tmp_path / "kb.jsonl", KB_ROWS)
    bank = write_table(tmp_path / "bank.xlsx", BANK_HEADER, BANK_ROWS)
    return kb, bank


def test_json_summary_has_the_documented_shape(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture
) -> None:
    kb, bank = files
    assert main(["data", "check", "--kb", str(kb), "--bank", str(bank), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"kb", "facts", "bank", "problems"}
    assert data["facts"]["total"] == sum(data["facts"]["per_kind"].values()) > 0
    assert data["kb"] == {"slices": 2, "chapters": 2}
    assert data["bank"] == {"questions": 4, "by_type": {"single": 2, "multi": 1, "judge": 1}, "case_stems": 1}
    located = [(Path(p["file"]).name, p["row"], p["field"]) for p in data["problems"]]
    assert located == [("kb.jsonl", 3, "完整路径"), ("bank.xlsx", 7, "正确答案")]
    assert all(set(p) == {"file", "row", "field", "reason", "severity"} for p in data["problems"])


def test_text_report_shows_chapters_types_and_problem_lines(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb, bank = files
    monkeypatch.chdir(kb.parent)  # files inside the working directory are named relative to it
    assert main(["data", "check", "--kb", str(kb), "--bank", str(bank)]) == 0
    out = capsys.readouterr().out
    buyer_row = next(line for line in out.splitlines() if "第七章 买方税费" in line)
    assert buyer_row.split()[2:] == ["1", "2", "0", "1"]  # slices, single, multi, judge
    assert "\nbank.xlsx:7: 正确答案: empty answer\n" in out
    assert "\nkb.jsonl:3: 完整路径: no ' > ' levels in '没有层级的路径'" in out
    assert "1 case stem(s)" in out
    assert "\nfacts: " in out and "per slice" in out


def test_a_prose_knowledge_base_reports_facts_per_kind_and_names_slices_without_any(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    rows = [
        {
            "完整路径": "第一篇  基础 > 第一章  登记 > 第一节  类型 > 一、登记的类型",
            "掌握程度": "掌握",
            "结构化内容": {
                "context_before": "不动产登记分为：首次登记、变更登记、转移登记和注销登记。",
                "context_after": "申请人应当提交身份证明。",
                "key_params": [],
                "rules": [],
            },
        },
        {
            "完整路径": "第一篇  基础 > 第一章  登记 > 第一节  类型 > 二、小结",
            "掌握程度": "了解",
            "核心内容": "略。",
        },
    ]
    kb = write_jsonl(tmp_path / "kb.jsonl", rows)
    bank = write_table(
        tmp_path / "bank.xlsx", BANK_HEADER, [bank_row("题（　）", ["甲", "乙", "丙", "丁"], "A")]
    )
    assert main(["data", "check", "--kb", str(kb), "--bank", str(bank), "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)["facts"]
    assert facts["per_kind"]["enumeration"] == 1
    assert facts["per_kind"]["modal"] == 1
    assert facts["slices_without_facts"] == ["第一篇 基础 > 第一章 登记 > 第一节 类型 > 二、小结"]


@pytest.mark.parametrize("broken", ["kb", "bank"])
def test_unusable_file_exits_non_zero(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture, broken: str
) -> None:
    kb, bank = files
    bad = tmp_path / ("bad.xlsx" if broken == "bank" else "bad.jsonl")
    bad.write_bytes(b"" if broken == "kb" else b"plain text, no workbook here")
    args = ["--kb", str(bad if broken == "kb" else kb), "--bank", str(bad if broken == "bank" else bank)]
    assert main(["data", "check", *args, "--json"]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert [p["file"] for p in problems if p["severity"] == "fatal"] == [str(bad)]


def test_bank_with_no_usable_row_exits_non_zero(files: tuple[Path, Path], tmp_path: Path) -> None:
    kb, _ = files
    bank = write_table(tmp_path / "bank.csv", BANK_HEADER, [bank_row("无答案（　）", ["甲", "乙"], "")])
    assert main(["data", "check", "--kb", str(kb), "--bank", str(bank)]) == 1


def test_defaults_come_from_settings(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    kb, bank = files
    monkeypatch.setenv("EXAMFORGE_DATA_KNOWLEDGE_BASE", str(kb))
    monkeypatch.setenv("EXAMFORGE_DATA_QUESTION_BANK", str(bank))
    assert main(["data", "check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bank"]["questions"] == 4


def test_load_sources_aligns_questions_and_keeps_calc_checks(
    tmp_path: Path, files: tuple[Path, Path]
) -> None:
    kb, _ = files
    check = {
        "calculator": "deed_tax",
        "args": {"price": 3000000, "area": 90},
        "field": "tax",
        "expected": 30000,
    }
    bank = write_jsonl(
        tmp_path / "bank.jsonl",
        [
            {
                **CHAPTER,
                "题干": "应缴契税（　）",
                "选项1": "3万元",
                "选项2": "6万元",
                "正确答案": "A",
                "计算校验": check,
            }
        ],
    )
    sources = load_sources(kb, bank)
    [question] = sources.questions
    assert question.kb_chapter == ("第四篇 交易税费", "第七章 买方税费")
    assert sources.calc_checks == {question.id: check}
    assert sources.tree.chapter(question.kb_chapter) is not None
    assert sources.fatal == ()
