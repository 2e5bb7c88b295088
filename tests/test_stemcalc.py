"""The critic's stem re-check: a key that the stem's own figures no longer give is a calculation error, an
assumption the stem leaves open is an ambiguity, and nothing a stem says can make the check raise."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

import calc
from graph.evaluation import as_question
from graph.format import same_number
from graph.stemcalc import check_stem_calculation
from retrieval.sources import Sources
from vocabulary.records import Calculation, Question

DEED_TAX_ARGS = {"price": 3_000_000, "area": 120, "home_order": 2, "date": "2026-03-01"}
DEED_TAX_STEM = (
    "2026年3月，刘某购买家庭第二套住房，建筑面积120平方米，不含增值税成交价为300万元。"
    "刘某应缴纳的契税为（　）。"
)


def _question(stem: str, *, qtype: str = "single", answer: str = "B", **calculation: Any) -> Question:
    calculation = {
        "calculator": "deed_tax",
        "args": DEED_TAX_ARGS,
        "field": "tax",
        "value": 30000.0,
    } | calculation
    options = ["正确", "错误"] if qtype == "judge" else ["15000元", "30000元", "45000元", "60000元"]
    return Question(
        qtype=qtype,
        stem=stem,
        options=options,
        answer=[answer],
        explanation="教材依据：… 试题分析：… 结论：…",
        calculation=Calculation(**calculation),
    )


def _majors(check: Any, kind: str) -> list[str]:
    return [i.detail for i in check.issues if i.type == kind and i.severity == "major"]


def test_a_stem_that_matches_its_calculation_passes_with_evidence() -> None:
    check = check_stem_calculation(_question(DEED_TAX_STEM), calc.run)
    assert check.issues == []
    assert check.evidence == [
        "按题干复核：deed_tax(price=3000000, area=120, home_order=2, date=2026-03-01) → 30000元"
    ]


def test_a_changed_price_with_the_key_kept_is_a_calculation_error() -> None:
    stem = DEED_TAX_STEM.replace("300万元", "360万元")
    errors = _majors(check_stem_calculation(_question(stem), calc.run), "calculation_error")
    assert len(errors) == 1
    assert errors[0].startswith("按题干数据复核")
    assert "计税价格题干为3600000" in errors[0] and "计算参数为3000000" in errors[0]
    assert "36000元" in errors[0]


def test_a_changed_category_word_is_caught_too() -> None:
    stem = DEED_TAX_STEM.replace("第二套", "第三套")
    errors = _majors(check_stem_calculation(_question(stem), calc.run), "calculation_error")
    assert errors and "买方家庭购买的第几套住房" in errors[0]


def test_a_change_that_leaves_the_result_alone_is_no_error() -> None:
    stem = DEED_TAX_STEM.replace("120平方米", "130平方米")  # still at most 140㎡: the same 1%
    assert check_stem_calculation(_question(stem), calc.run).issues == []


def test_a_stem_without_the_home_order_is_ambiguous() -> None:
    stem = DEED_TAX_STEM.replace("家庭第二套住房，", "一套住房，")
    check = check_stem_calculation(_question(stem), calc.run)
    assert _majors(check, "ambiguity") == ["题干未说明买方家庭购买的第几套住房，答案不唯一"]
    assert _majors(check, "calculation_error") == []


def test_a_stem_without_the_date_is_ambiguous_when_the_author_used_an_old_rule() -> None:
    stem = "上海某家庭购买第二套住房，建筑面积85平方米，不含增值税成交价为400万元，应缴纳契税（　）。"
    question = _question(
        stem,
        answer="D",
        args={"price": 4_000_000, "area": 85, "home_order": 2, "city": "上海", "date": "2023-08-20"},
        value=120000.0,
    ).model_copy(update={"options": ["40000元", "80000元", "60000元", "120000元"]})
    assert "交易日期" in " ".join(_majors(check_stem_calculation(question, calc.run), "ambiguity"))


def test_a_city_rule_the_author_assumed_but_the_stem_hides_is_ambiguous() -> None:
    args = {
        "price": 8_400_000,
        "years_held": 3,
        "original_price": 5_250_000,
        "ordinary": False,
        "city": "北京",
        "date": "2024-06-03",
    }
    options = ["400000元", "157500元", "150000元", "0元"]
    hidden = "2024年6月，李某出售一套持有3年的住房，成交价840万元，原购房价525万元，应缴纳的增值税为（　）。"
    told = (
        "2024年6月，北京市个人出售一套持有3年的非普通住房，成交价840万元，原购房价525万元，"
        "应缴纳的增值税为（　）。"
    )
    for stem, is_open in ((hidden, True), (told, False)):
        question = _question(
            stem, answer="C", calculator="resale_vat", args=args, field="vat", value=150000.0
        ).model_copy(update={"options": options})
        assert bool(_majors(check_stem_calculation(question, calc.run), "ambiguity")) is is_open


def test_a_judge_statement_is_checked_against_the_stems_own_figures() -> None:
    stem = (
        "2026年3月，刘某购买家庭第二套住房，建筑面积120平方米，不含增值税成交价为{price}，"
        "应缴纳契税3万元。（　）"
    )
    right = _question(stem.format(price="300万元"), qtype="judge", answer="A")
    edited = _question(stem.format(price="400万元"), qtype="judge", answer="A")
    assert check_stem_calculation(right, calc.run).issues == []
    assert _majors(check_stem_calculation(edited, calc.run), "calculation_error")


def test_the_situation_of_a_case_question_is_read(sample_sources: Sources) -> None:
    mother = next(
        q
        for q in sample_sources.questions
        if q.case_text and "契税" in q.stem and q.id in sample_sources.calc_checks
    )
    question = as_question(mother, sample_sources.calc_checks[mother.id])
    assert check_stem_calculation(question, calc.run).issues == []
    prices = re.findall(r"成交价为(\d+)万元", mother.case_text)
    assert prices, "the case states its price"
    raised = str(int(prices[0]) + 100)
    edited = question.model_copy(
        update={"stem": question.stem.replace(f"{prices[0]}万元", f"{raised}万元", 1)}
    )
    assert _majors(check_stem_calculation(edited, calc.run), "calculation_error")


def test_the_repayment_method_the_stem_names_must_be_the_calculators() -> None:
    stem = "某人申请商业贷款100万元，期限30年，年利率3.05%，采用等额本金方式还款，每月还款额为（　）。"
    question = _question(
        stem,
        answer="B",
        calculator="equal_installment",
        args={"principal": 1_000_000, "annual_rate": 0.0305, "years": 30},
        field="monthly_payment",
        value=4243.05,
    ).model_copy(update={"options": ["5319.44元", "4243.05元", "2777.78元", "4003.40元"]})
    errors = _majors(check_stem_calculation(question, calc.run), "calculation_error")
    assert errors and "等额本金" in errors[0]


def test_a_calculator_refusing_the_stems_figures_is_named_not_raised() -> None:
    stem = DEED_TAX_STEM.replace("2026年3月", "2015年3月")  # before the earliest rule in the policy table
    errors = _majors(check_stem_calculation(_question(stem), calc.run), "calculation_error")
    assert errors and "deed_tax" in errors[0]


def test_a_failing_calculator_service_does_not_raise() -> None:
    def broken(name: str, args: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("calculator service down")

    stem = DEED_TAX_STEM.replace("300万元", "360万元")
    errors = _majors(check_stem_calculation(_question(stem), broken), "calculation_error")
    assert errors and "calculator service down" in errors[0]


@pytest.mark.parametrize("stem", ["", "（　）", "￥￥￥%%%万万元元", "2099年99月99日" * 40, "的" * 300])
def test_garbage_stems_never_raise(stem: str) -> None:
    check = check_stem_calculation(_question(stem), calc.run)
    assert all(issue.severity == "major" for issue in check.issues)


def test_a_question_without_a_calculation_is_left_alone() -> None:
    question = _question(DEED_TAX_STEM).model_copy(update={"calculation": None})
    check = check_stem_calculation(question, calc.run)
    assert check.issues == [] and check.evidence == []


def _scaled(token: str) -> str:
    return format((Decimal(token.replace(",", "")) * Decimal("1.2")).normalize(), "f")


def test_bank_stems_pass_and_a_changed_input_is_caught(sample_sources: Sources) -> None:
    """The bank is examiner-signed: none of its calculation questions may be flagged. Then each figure of a
    stem that states one of the 计算校验 arguments is raised by a fifth (a year moved back three) with the
    key kept; where that truly changes the keyed result, the check must report a calculation error. 97.8%
    are caught today (the misses change a figure the result does not rest on, e.g. the bank's valuation in
    a deed-tax case); 90% is the floor the brief sets."""
    questions = {q.id: q for q in sample_sources.questions}
    flagged, real, caught = [], 0, 0
    for qid, check in sample_sources.calc_checks.items():
        question = as_question(questions[qid], check)
        if check_stem_calculation(question, calc.run).issues:
            flagged.append(qid)
        keyed = calc.run(check["calculator"], check["args"])[check["field"]]
        for match in re.finditer(r"\d[\d,]*(?:\.\d+)?", question.stem):
            after = question.stem[match.end() : match.end() + 1]
            if after in "月日号" or question.stem[match.start() - 1 : match.start()] == "年":
                continue  # the month or day of a date
            token = match.group()
            scale = {"万": 10_000, "%": 0.01}.get(after, 1)
            for name, value in check["args"].items():
                if isinstance(value, bool) or not isinstance(value, int | float):
                    continue
                if not same_number(float(token.replace(",", "")) * scale, value):
                    continue
                is_year = name in ("year", "grant_year", "completion_year")
                new_token = str(int(token) - 3) if is_year else _scaled(token)
                new_value = value - 3 if is_year else float(Decimal(str(value)) * Decimal("1.2"))
                try:
                    truth = calc.run(check["calculator"], {**check["args"], name: new_value})[check["field"]]
                except calc.CalcError:
                    continue
                if same_number(float(truth), float(keyed)):
                    continue
                real += 1
                stem = question.stem[: match.start()] + new_token + question.stem[match.end() :]
                edited = question.model_copy(update={"stem": stem})
                caught += bool(_majors(check_stem_calculation(edited, calc.run), "calculation_error"))
    assert flagged == []
    assert real >= 50
    assert caught >= 0.9 * real
