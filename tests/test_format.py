"""Explanations as real papers write them: every heading variant, numbering and layout is read into the same
three parts, the conclusion's answer is read in the field's phrasings, and the display form round-trips."""

from __future__ import annotations

import pytest

from graph.format import (
    SHORT_EXPLANATION_LIMIT,
    compose_explanation,
    conclusion_letters,
    display_explanation,
    explanation_parts,
    fits_short_explanation,
    numbers_in,
    same_number,
    short_explanation,
)
from graph.nodes.writer import write_question
from retrieval.models import Slice

BASIS = "定金的数额由当事人约定，但不得超过主合同标的额的20%。"
ANALYSIS = "总价300万元的20%为60万元，约定的80万元中超出的20万元不产生定金效力。"


@pytest.mark.parametrize(
    "explanation",
    [
        f"1、教材原文：{BASIS}2、试题分析：{ANALYSIS}3、结论：本题选C。",
        f"1、教材原文：{BASIS}\n2、试题解析：{ANALYSIS}\n3、试题结论：本题选C。",
        f"1.教材依据: {BASIS}\n2.试题分析: {ANALYSIS}\n3.结论: 本题选C。",
        f"（1）教材依据：{BASIS}（2）试题解析：{ANALYSIS}（3）答案解析：本题选C。",
        f"教材依据：{BASIS} 试题分析：{ANALYSIS} 结论：本题选C。",
        f"教材原文：\n{BASIS}\n试题分析：\n{ANALYSIS}\n结论：\n本题选C。",
        f"【教材原文】{BASIS}【试题解析】{ANALYSIS}【试题结论】本题选C。",
    ],
)
def test_every_heading_variant_reads_as_the_same_three_parts(explanation):
    assert explanation_parts(explanation) == {"教材原文": BASIS, "试题分析": ANALYSIS, "结论": "本题选C。"}


def test_answer_analysis_heading_is_the_analysis_when_no_other_analysis_precedes_it():
    parts = explanation_parts(f"1、教材原文：{BASIS}2、答案解析：{ANALYSIS}")
    assert parts == {"教材原文": BASIS, "试题分析": ANALYSIS}


def test_words_inside_a_part_are_not_mistaken_for_headings():
    analysis = "比较后得出结论：超出部分不是定金。分项列出（1）定金；（2）预付款。"
    parts = explanation_parts(f"教材原文：{BASIS}试题分析：{analysis}结论：本题选B。")
    assert parts["试题分析"] == analysis


def test_unheaded_text_has_no_parts():
    assert explanation_parts(ANALYSIS) == {}


@pytest.mark.parametrize(
    ("conclusion", "qtype", "letters"),
    [
        ("本题选C。", "single", "C"),
        ("答案为ABD。", "multi", "ABD"),
        ("正确答案是B、C、D。", "multi", "BCD"),
        ("选项A、B均不符合规定，故本题选C。", "single", "C"),
        ("刘某应缴纳契税20000元，选A。", "single", "A"),
        ("故本题说法正确。", "judge", "A"),
        ("该说法错误。", "judge", "B"),
        ("题干表述与教材不符。", "judge", "B"),
        ("答案为“错”。", "judge", "B"),
        ("说法正确，选A（对）。", "judge", "A"),
        ("应按教材规定处理。", "single", None),
    ],
)
def test_conclusion_is_read_in_the_fields_phrasings(conclusion, qtype, letters):
    explanation = f"1、教材原文：{BASIS}\n2、试题分析：{ANALYSIS}\n3、试题结论：{conclusion}"
    assert conclusion_letters(explanation, qtype) == letters


def test_composed_explanation_is_the_numbered_display_form_and_reads_back():
    shown = compose_explanation(BASIS, f"{ANALYSIS}\n其余选项均与教材不符。", "本题选C。")
    assert shown.splitlines()[0] == f"1、教材原文：{BASIS}"
    assert shown.splitlines()[-1] == "3、结论：本题选C。"
    assert explanation_parts(shown) == {
        "教材原文": BASIS,
        "试题分析": f"{ANALYSIS}\n其余选项均与教材不符。",
        "结论": "本题选C。",
    }


def test_a_part_with_nothing_to_say_is_left_out_of_the_display():
    assert compose_explanation("", ANALYSIS, "本题选C。") == f"1、试题分析：{ANALYSIS}\n2、结论：本题选C。"


def test_display_form_of_a_paper_explanation_keeps_its_content_under_canonical_headings():
    paper = f"1、教材依据：{BASIS}2、试题解析：{ANALYSIS}3、试题结论：故本题说法错误。"
    assert display_explanation(paper, "B", "judge") == compose_explanation(
        BASIS, ANALYSIS, "故本题说法错误。"
    )


def test_display_form_states_the_key_when_the_explanation_does_not():
    shown = display_explanation(ANALYSIS, "C", "single", basis="《定金》")
    assert explanation_parts(shown) == {"教材原文": "《定金》", "试题分析": ANALYSIS, "结论": "本题选C。"}
    assert conclusion_letters(shown, "single") == "C"


def test_poll_explanation_from_a_paper_explanation_leads_with_the_conclusion_and_fits():
    long_analysis = ANALYSIS * 6
    paper = f"1、教材原文：{BASIS}\n2、试题解析：{long_analysis}\n3、试题结论：本题选C。"
    short = short_explanation(paper)
    assert short.startswith("结论：本题选C。")
    assert fits_short_explanation(short) and len(short) <= SHORT_EXPLANATION_LIMIT


@pytest.mark.parametrize(
    ("one", "other"),
    [("四十二年", "42年"), ("七十年", "70年"), ("140万元", "1400000元"), ("三十日", "30日"), ("两年", "2年")],
)
def test_a_figure_written_in_chinese_numerals_or_in_ten_thousands_is_the_same_figure(one, other):
    assert len(numbers_in(one)) == len(numbers_in(other)) == 1
    assert same_number(numbers_in(one)[0], numbers_in(other)[0])


@pytest.mark.parametrize("words", ["第一年", "统一年限", "唯一住房", "一般情况下"])
def test_words_made_with_numeral_characters_are_not_figures(words):
    assert numbers_in(words) == []


def test_a_multiple_choice_stem_asks_for_the_answers_it_has_and_a_single_choice_stays():
    piece = Slice(id="s1", path=("第一篇", "第一章", "一、节"), mastery="掌握", text="甲、乙、丙都属于X。")
    draft = {
        "stem": "下列属于X的是（ ）",
        "options": ["甲", "乙", "丙", "丁"],
        "answer": "ABC",
        "explanation": "1、教材原文：甲、乙、丙都属于X。2、试题分析：丁不属于X。3、结论：本题选ABC。",
        "sources": ["甲、乙、丙都属于X。"],
    }
    multi = write_question({"draft": draft, "qtype": "multi"}, piece, "strict")
    single = write_question({"draft": {**draft, "answer": "A"}, "qtype": "single"}, piece, "strict")
    assert multi.stem == "下列属于X的有（　）"
    assert single.stem == "下列属于X的是（　）"
