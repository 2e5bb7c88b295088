"""A tiny knowledge base and question bank in the field formats, written to a folder, so the LLM-path tests
and benchmarks do not depend on the bundled sample's content.

Three knowledge points: two concept points (the router sends them to the specialist) and one with a
formula and a deed-tax worked example (sent to finance). The concept points hold enough rules of the law
(契税法, 民法典) for a model to key a question on one sentence and draw distractors from the others. The bank
has a few past questions of each type.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TAX_PART, TAX_CHAPTER = "第一篇  交易税费", "第一章  买方税费"
REGISTRATION_PART, REGISTRATION_CHAPTER = "第二篇  不动产登记", "第二章  登记类型"
TAXPAYER = "一、契税的纳税人"
DEED_TAX_SUM = "二、契税的计算"
OBJECTION = "一、异议登记的期限"
DEED_TAX_ARGS: dict[str, Any] = {"price": 2_000_000, "area": 89, "home_order": 1, "date": "2026-03-01"}

_SLICES: list[dict[str, Any]] = [
    {
        "完整路径": f"{TAX_PART} > {TAX_CHAPTER} > 第一节  契税 > {TAXPAYER}",
        "掌握程度": "熟悉",
        "结构化内容": {
            "context_before": (
                "房屋权属转移时，契税向承受权属的一方征收；存量房买卖中由买方缴纳，卖方不缴。"
                "纳税人应当在依法办理土地、房屋权属登记手续前申报缴纳契税。"
            ),
            "context_after": (
                "契税法自2021年9月1日起施行，法定税率幅度为3%至5%。"
                "不动产登记机构办理土地、房屋权属登记时，应当查验契税完税、减免税凭证或者有关信息。"
                "未按照规定缴纳契税的，不动产登记机构不予办理土地、房屋权属登记。"
                "税务机关应当与相关部门建立契税涉税信息共享和工作配合机制。"
            ),
            "rules": ["存量房买卖的契税由买方缴纳。", "契税法定税率幅度为3%至5%。"],
            "key_params": [{"name": "契税法定税率下限", "value": 0.03, "unit": "比例"}],
        },
    },
    {
        "完整路径": f"{TAX_PART} > {TAX_CHAPTER} > 第一节  契税 > {DEED_TAX_SUM}",
        "掌握程度": "掌握",
        "结构化内容": {
            "context_before": "契税以不含增值税的成交价为计税依据。",
            "context_after": (
                "2024年12月1日起，家庭首套140平方米及以下住房的契税税率为1%。"
                "家庭首套140平方米以上住房的契税税率为1.5%。"
                "家庭第二套140平方米及以下住房的契税税率为1%，140平方米以上的为2%。"
            ),
            "formulas": ["契税 = 计税依据 × 适用税率"],
            "examples": ["【例】首套住房89平方米，计税依据2,000,000元，税率1%，契税为20,000元。"],
            "calc_examples": [
                {"calculator": "deed_tax", "args": DEED_TAX_ARGS, "expected": {"tax": 20000.0}},
            ],
        },
    },
    {
        "完整路径": f"{REGISTRATION_PART} > {REGISTRATION_CHAPTER} > 第一节  异议登记 > {OBJECTION}",
        "掌握程度": "了解",
        "结构化内容": {
            "context_before": (
                "权利人、利害关系人认为不动产登记簿记载的事项错误的，可以申请更正登记。"
                "不动产登记簿记载的权利人书面同意更正或者有证据证明登记确有错误的，登记机构应当予以更正。"
                "利害关系人认为登记簿记载错误时可以申请异议登记。"
            ),
            "context_after": (
                "申请人在异议登记之日起15日内不起诉的，异议登记失效。"
                "异议登记不当，造成权利人损害的，权利人可以向申请人请求损害赔偿。"
            ),
            "rules": ["异议登记后申请人15日内不起诉的，异议登记失效。"],
        },
    },
]


def _question(part: str, chapter: str, name: str, stem: str, options: list[str], answer: str) -> dict:
    row = {"篇": part, "章": chapter, "试题名称": name, "题干": stem, "正确答案": answer, "解析": "见教材。"}
    row |= {f"选项{i}": option for i, option in enumerate(options, start=1)}
    return row


_BANK: list[dict[str, Any]] = [
    _question(
        "第一篇 交易税费篇",
        "第一章 买方税费",
        "SC001",
        "二手住房买卖中，负有缴纳契税义务的是（　）。",
        ["出卖人", "买受人", "经纪机构", "登记机构"],
        "B",
    ),
    _question(
        "第一篇 交易税费篇",
        "第一章 买方税费",
        "YN001",
        "契税的计税依据包含卖方缴纳的增值税（　）",
        ["正确", "错误"],
        "B",
    ),
    _question(
        "第一篇 交易税费篇",
        "第一章 买方税费",
        "MC001",
        "下列关于契税的表述中，正确的有（　）。",
        ["由承受方缴纳", "税率幅度为3%至5%", "由出让方缴纳", "按不含增值税价格计税"],
        "ABD",
    ),
    _question(
        "第二篇 不动产登记篇",
        "第二章 登记类型",
        "YN002",
        "异议登记申请人30日内不起诉的，异议登记才失效（　）",
        ["正确", "错误"],
        "B",
    ),
    _question(
        "第二篇 不动产登记篇",
        "第二章 登记类型",
        "SC002",
        "认为登记簿记载有误的利害关系人，可以申请的登记是（　）。",
        ["首次登记", "异议登记", "注销登记", "查封登记"],
        "B",
    ),
]


def write_corpus(folder: Path) -> tuple[Path, Path]:
    """The knowledge base and bank as JSONL files in `folder`; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    kb, bank = folder / "kb.jsonl", folder / "bank.jsonl"
    kb.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in _SLICES), encoding="utf-8")
    bank.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in _BANK), encoding="utf-8")
    return kb, bank
