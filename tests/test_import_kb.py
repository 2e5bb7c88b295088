"""Knowledge-base rows: both JSONL schemas, spreadsheets, path normalisation, ids, and refused rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from retrieval.kb import KbResult, load_kb
from retrieval.models import CalcExample, KeyParam
from tests.test_import_files import write_jsonl, write_table

DEED_TAX_PATH = "第四篇  交易税费 > 第七章  买方税费 > 第一节  契税 > 二、契税税率"
KB_HEADER = ["完整路径", "掌握程度", "核心内容"]


def structured(**content: Any) -> dict[str, Any]:
    base = {"context_before": "契税由买方缴纳。", "context_after": "税率按面积和套数确定。"}
    return {"完整路径": DEED_TAX_PATH, "掌握程度": "掌握", "结构化内容": {**base, **content}}


def problems(result: KbResult) -> list[tuple[int | None, str, str]]:
    return [(p.row, p.field, p.severity) for p in result.problems]


def test_structured_row_becomes_a_full_slice(tmp_path: Path) -> None:
    row = structured(
        tables=["| 情形 | 税率 |\n|---|---|\n| 首套 | 1% |"],
        formulas=["契税 = 计税依据 × 适用税率"],
        examples=["【例】总价300万元的首套住房应缴契税3万元。"],
        key_params=[{"name": "首套税率", "value": 0.01, "unit": "比例"}, {"name": "纳税人", "value": "买方"}],
        rules=["首套住房140平方米及以下的契税税率为1%。"],
        images=[{"image_id": "img1", "analysis": "税率表"}],
        calc_examples=[{"calculator": "deed_tax", "args": {"price": 3000000}, "expected": {"tax": 30000.0}}],
    )
    [piece] = load_kb(write_jsonl(tmp_path / "kb.jsonl", [row])).slices
    assert piece.path == ("第四篇 交易税费", "第七章 买方税费", "第一节 契税", "二、契税税率")
    assert piece.chapter == ("第四篇 交易税费", "第七章 买方税费")
    assert piece.mastery == "掌握"
    assert piece.text == "契税由买方缴纳。\n税率按面积和套数确定。"
    assert piece.tables == ("| 情形 | 税率 |\n|---|---|\n| 首套 | 1% |",)
    assert piece.key_params == (KeyParam("首套税率", 0.01, "比例"), KeyParam("纳税人", "买方", ""))
    assert piece.calc_examples == (CalcExample("deed_tax", {"price": 3000000}, {"tax": 30000.0}),)
    assert piece.is_calculation
    assert piece.source.endswith("kb.jsonl:1")


def test_flat_variant_uses_core_content_as_text(tmp_path: Path) -> None:
    row = {"完整路径": DEED_TAX_PATH, "掌握程度": "熟悉", "核心内容": "契税由买方缴纳。\n\n  税率为1%至3%。 "}
    [piece] = load_kb(write_jsonl(tmp_path / "kb.jsonl", [row])).slices
    assert piece.text == "契税由买方缴纳。\n税率为1%至3%。"
    assert (piece.mastery, piece.formulas, piece.is_calculation) == ("熟悉", (), False)


def test_xlsx_and_csv_give_the_same_slices_as_jsonl(tmp_path: Path) -> None:
    rows = [
        [DEED_TAX_PATH, "掌握", "契税由买方缴纳。"],
        ["第一篇 行业 > 第一章 概述", "了解", "经纪是居间服务。"],
    ]
    from_jsonl = load_kb(
        write_jsonl(tmp_path / "kb.jsonl", [dict(zip(KB_HEADER, r, strict=True)) for r in rows])
    )
    from_xlsx = load_kb(write_table(tmp_path / "kb.xlsx", KB_HEADER, rows))
    from_csv = load_kb(write_table(tmp_path / "kb.csv", KB_HEADER, rows, encoding="gbk"))
    expected = [(s.id, s.path, s.mastery, s.text) for s in from_jsonl.slices]
    assert len(expected) == 2
    for result in (from_xlsx, from_csv):
        assert [(s.id, s.path, s.mastery, s.text) for s in result.slices] == expected
        assert result.problems == []


def test_structured_content_as_json_text_in_a_spreadsheet(tmp_path: Path) -> None:
    content = json.dumps(
        {"context_before": "登记费按件收取。", "formulas": ["登记费 = 80元/件"]}, ensure_ascii=False
    )
    path = write_table(
        tmp_path / "kb.csv", ["完整路径", "掌握程度", "结构化内容"], [[DEED_TAX_PATH, "了解", content]]
    )
    [piece] = load_kb(path).slices
    assert (piece.text, piece.formulas) == ("登记费按件收取。", ("登记费 = 80元/件",))


def test_every_kind_of_whitespace_gives_one_canonical_path(tmp_path: Path) -> None:
    variants = [
        "第四篇  交易税费 > 第七章  买方税费",
        "第四篇\u00a0交易税费 > 第七章\u3000买方税费",
        "第四篇\t交易税费＞第七章 买方税费",
        " 第四篇 交易税费>第七章   买方税费 ",
    ]
    rows = [{"完整路径": v, "掌握程度": "掌握", "核心内容": f"内容{i}"} for i, v in enumerate(variants)]
    slices = load_kb(write_jsonl(tmp_path / "kb.jsonl", rows)).slices
    assert {s.path for s in slices} == {("第四篇 交易税费", "第七章 买方税费")}
    ids = [s.id for s in slices]
    assert len(set(ids)) == 4
    assert ids[1:] == [f"{ids[0]}-{n}" for n in (2, 3, 4)]  # repeated path: same stem, numbered


def test_ids_do_not_depend_on_row_order(tmp_path: Path) -> None:
    rows = [structured(), {"完整路径": "第一篇 行业 > 第一章 概述", "掌握程度": "了解", "核心内容": "x"}]
    forward = {s.path: s.id for s in load_kb(write_jsonl(tmp_path / "a.jsonl", rows)).slices}
    backward = {s.path: s.id for s in load_kb(write_jsonl(tmp_path / "b.jsonl", rows[::-1])).slices}
    assert forward == backward


def test_path_without_levels_is_skipped_and_neighbours_kept(tmp_path: Path) -> None:
    rows = [
        structured(),
        {"完整路径": "契税税率", "掌握程度": "掌握", "核心内容": "没有层级。"},
        {"完整路径": "第四篇 交易税费 >  > 二、税率", "掌握程度": "掌握", "核心内容": "空层级。"},
        {"完整路径": DEED_TAX_PATH + "（续）", "掌握程度": "非常重要", "核心内容": "等级不对。"},
        {"完整路径": DEED_TAX_PATH + "（再续）", "掌握程度": "熟悉"},
        {"完整路径": "第一篇 行业 > 第一章 概述", "掌握程度": "了解", "核心内容": "保留。"},
    ]
    result = load_kb(write_jsonl(tmp_path / "kb.jsonl", rows))
    assert [s.text for s in result.slices] == ["契税由买方缴纳。\n税率按面积和套数确定。", "保留。"]
    assert problems(result) == [
        (2, "完整路径", "error"),
        (3, "完整路径", "error"),
        (4, "掌握程度", "error"),
        (5, "结构化内容/核心内容", "error"),
    ]
    assert "no ' > ' levels in '契税税率'" in result.problems[0].reason


def test_malformed_items_are_dropped_with_a_warning_and_the_slice_kept(tmp_path: Path) -> None:
    row = structured(
        key_params=[{"name": "税率", "value": 0.01}, {"value": 3}, "不是对象"],
        calc_examples=[{"calculator": "deed_tax", "args": [], "expected": {}}],
        rules="应为列表",
    )
    result = load_kb(write_jsonl(tmp_path / "kb.jsonl", [row]))
    [piece] = result.slices
    assert piece.key_params == (KeyParam("税率", 0.01, ""),)
    assert piece.calc_examples == ()
    assert problems(result) == [
        (1, "结构化内容.rules", "warning"),
        (1, "结构化内容.key_params[1]", "warning"),
        (1, "结构化内容.key_params[2]", "warning"),
        (1, "结构化内容.calc_examples[0]", "warning"),
    ]


def test_missing_column_is_fatal(tmp_path: Path) -> None:
    path = write_table(tmp_path / "kb.xlsx", ["完整路径", "核心内容"], [[DEED_TAX_PATH, "内容"]])
    result = load_kb(path)
    assert result.slices == []
    assert [(p.row, p.field, p.severity) for p in result.problems] == [(1, "掌握程度", "fatal")]


def test_file_where_every_row_is_bad_has_no_usable_rows(tmp_path: Path) -> None:
    rows = [{"完整路径": "只有一级", "掌握程度": "掌握", "核心内容": "x"}]
    result = load_kb(write_jsonl(tmp_path / "kb.jsonl", rows))
    assert [(p.field, p.severity) for p in result.problems] == [("完整路径", "error"), ("file", "fatal")]
    assert result.problems[-1].reason == "no usable rows"
