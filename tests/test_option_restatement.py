"""Two options that state one fact in other words — a modal's other form, a figure in other units or
numerals, a synonym — are two answers to a one-answer question, as much as two identical options are."""

from __future__ import annotations

from graph.checks import run_checks
from graph.grounding.text import saying
from vocabulary.records import Question


def single(stem: str, options: list[str], answer: str = "A") -> Question:
    return Question(
        qtype="single",
        stem=stem,
        options=options,
        answer=[answer],
        explanation="1、教材原文：见教材。2、试题分析：见教材。3、结论：本题选A。",
        slice_id="s",
    )


def ambiguities(question: Question) -> list[tuple[str, str]]:
    """The issues that name two options as one statement."""
    found = run_checks(question, "single")
    return [(i.severity, i.detail) for i in found if "同一件事" in i.detail or i.detail.endswith("重复")]


def test_an_option_restating_the_key_with_another_modal_form_is_a_second_answer():
    question = single(
        "小林今年12岁，名下有一套住宅。关于小林父母处分该住宅，下列说法正确的是（　）。",
        ["除为其利益外不能处分", "除为其利益外不得处分", "任何情况都不得出售", "须待小林成年后出售"],
    )
    assert ambiguities(question) == [("major", "选项A与B说的是同一件事（只是写法不同）")]


def test_a_figure_in_other_units_or_numerals_is_the_same_figure():
    question = single("该合同中产生定金效力的金额为（　）。", ["50万元", "12万元", "500000元", "60万元"])
    assert ambiguities(question) == [("major", "选项A与C说的是同一件事（只是写法不同）")]
    assert saying("异议登记后十五日内") == saying("异议登记后15日内")


def test_options_that_differ_in_what_they_say_are_not_restatements():
    question = single(
        "关于契税的缴纳，下列说法正确的是（　）。",
        ["买方应当缴纳契税", "买方可以缴纳契税", "买方应当在30日内缴纳契税", "买方应当在3日内缴纳契税"],
    )
    assert ambiguities(question) == []


def test_identical_options_are_still_named_duplicates():
    question = single("下列属于不动产登记类型的是（　）。", ["变更登记", "查封", "变更登记", "公证"])
    assert ambiguities(question) == [("major", "选项A与C重复")]
