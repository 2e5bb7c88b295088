"""Question-bank rows: type detection, answer forms, case stems, and every way a row can be refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from retrieval.bank import BankResult, load_bank
from retrieval.models import JUDGE_OPTIONS
from tests.test_import_files import BANK_HEADER, bank_row, write_jsonl, write_table

FOUR = ["1%", "1.5%", "2%", "3%"]


def load_rows(tmp_path: Path, rows: list[list[Any]], suffix: str = ".xlsx") -> BankResult:
    return load_bank(write_table(tmp_path / f"bank{suffix}", BANK_HEADER, rows))


def problems(result: BankResult) -> list[tuple[int | None, str, str]]:
    return [(p.row, p.field, p.severity) for p in result.problems]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("C", "C"),
        ("ABD", "ABD"),
        ("bd", "BD"),
        ("A,B", "AB"),
        ("A、C", "AC"),
        ("A B D", "ABD"),
        ("ＡＣ", "AC"),
    ],
)
def test_choice_answer_forms(tmp_path: Path, raw: str, expected: str) -> None:
    [question] = load_rows(tmp_path, [bank_row("契税的适用税率可能为（　）", FOUR, raw)]).questions
    assert question.answer == expected
    assert question.qtype == ("multi" if len(expected) > 1 else "single")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Y", "A"),
        ("N", "B"),
        ("对", "A"),
        ("错", "B"),
        ("正确", "A"),
        ("错误", "B"),
        ("√", "A"),
        ("×", "B"),
        ("T", "A"),
        ("F", "B"),
        ("A", "A"),
        ("b", "B"),
    ],
)
def test_judge_answer_forms(tmp_path: Path, raw: str, expected: str) -> None:
    rows = [bank_row("个人转让住房满2年免征增值税。（　）", ["对", "错"], raw, "YN001")]
    [question] = load_rows(tmp_path, rows).questions
    assert (question.qtype, question.options, question.answer) == ("judge", JUDGE_OPTIONS, expected)


def test_judge_letter_follows_the_rows_own_option_order(tmp_path: Path) -> None:
    rows = [bank_row("契税由买方缴纳。（　）", ["错误", "正确"], "B")]
    [question] = load_rows(tmp_path, rows).questions
    assert question.options == ("正确", "错误")
    assert question.answer == "A"  # B was 正确 in this row


def test_judge_without_options_is_recognised_by_its_answer(tmp_path: Path) -> None:
    [question] = load_rows(tmp_path, [bank_row("登记费按件收取。（　）", [], "√")]).questions
    assert (question.qtype, question.answer) == ("judge", "A")


@pytest.mark.parametrize(
    ("name", "options", "answer", "qtype"),
    [
        ("MC001", FOUR, "B", "single"),  # multiple-choice prefix, one correct letter
        ("YN002", FOUR, "C", "single"),  # true/false prefix, four real options
        ("SC003", FOUR, "AD", "multi"),  # single-choice prefix, two correct letters
        ("", ["正确", "错误"], "A", "judge"),  # no prefix at all
        ("SC004", ["正确", "错误"], "B", "judge"),  # the options make it true/false
    ],
)
def test_content_decides_the_type_not_the_prefix(
    tmp_path: Path, name: str, options: list[str], answer: str, qtype: str
) -> None:
    [question] = load_rows(tmp_path, [bank_row("某题（　）", options, answer, name)]).questions
    assert question.qtype == qtype
    assert question.name == name


def test_option_letter_prefixes_are_stripped_but_words_kept(tmp_path: Path) -> None:
    options = ["A. 满五唯一", "B、满二", "C．A级资质", "D 不满二"]
    [question] = load_rows(tmp_path, [bank_row("免征个税的情形是（　）", options, "A")]).questions
    assert question.options == ("满五唯一", "满二", "A级资质", "不满二")


def test_whitespace_and_blanks_are_normalised(tmp_path: Path) -> None:
    stem = "首套\u00a0住房\u3000面积\t140平方米以下（ ）"
    [question] = load_rows(tmp_path, [bank_row(stem, ["1%", "1.5%"], "a")]).questions
    assert question.stem == "首套 住房 面积 140平方米以下（\u3000）"


def test_point_mastery_and_difficulty(tmp_path: Path) -> None:
    rows = [
        bank_row("题一（　）", FOUR, "A", 考点="契税税率（掌握）", 难度值=0.3),
        bank_row("题二（　）", FOUR, "A", 考点="贝壳战略(了解)", 难度值="很难"),
        bank_row("题三（　）", FOUR, "A", 考点="无等级考点", 难度值=1.5),
    ]
    result = load_rows(tmp_path, rows)
    assert [(q.point, q.mastery, q.difficulty) for q in result.questions] == [
        ("契税税率", "掌握", 0.3),
        ("贝壳战略", "了解", None),
        ("无等级考点", None, None),
    ]
    assert problems(result) == [(3, "难度值", "warning"), (4, "难度值", "warning")]


def test_missing_answer_column_is_fatal_and_named(tmp_path: Path) -> None:
    header = [c for c in BANK_HEADER if c != "正确答案"]
    result = load_bank(
        write_table(tmp_path / "bank.xlsx", header, [["第一篇", "第一章", "", "", "题（　）"]])
    )
    assert result.questions == []
    [problem] = result.problems
    assert (problem.row, problem.field, problem.severity) == (1, "正确答案", "fatal")
    assert str(problem).endswith("bank.xlsx:1: 正确答案: required column is missing")


def test_missing_stem_column_in_jsonl_is_fatal(tmp_path: Path) -> None:
    result = load_bank(write_jsonl(tmp_path / "bank.jsonl", [{"问题": "x", "正确答案": "A"}]))
    assert [(p.field, p.severity) for p in result.problems] == [("题干", "fatal")]


def test_bad_rows_are_skipped_and_their_neighbours_kept(tmp_path: Path) -> None:
    rows = [
        bank_row("好题一（　）", FOUR, "A"),
        bank_row("空答案（　）", FOUR, ""),
        bank_row("好题二（　）", FOUR, "B"),
        bank_row("超出选项（　）", ["甲", "乙", "丙"], "D"),
        bank_row("好题三（　）", FOUR, "CD"),
        bank_row("", FOUR, "A"),
        bank_row("重复选项（　）", ["甲", "乙", "甲", "丁"], "A"),
        bank_row("好题一（ ）", FOUR, "C"),
        bank_row("不是字母（　）", FOUR, "第三项"),
        bank_row("只有一个选项（　）", ["甲"], "A"),
        bank_row("好题四（　）", FOUR, "D"),
    ]
    result = load_rows(tmp_path, rows)
    assert [q.stem for q in result.questions] == [
        "好题一（　）",
        "好题二（　）",
        "好题三（　）",
        "好题四（　）",
    ]
    assert problems(result) == [
        (3, "正确答案", "error"),
        (5, "正确答案", "error"),
        (7, "题干", "error"),
        (8, "选项3", "error"),
        (9, "题干", "error"),
        (10, "正确答案", "error"),
        (11, "选项", "error"),
    ]
    reasons = {p.row: p.reason for p in result.problems}
    assert reasons[3] == "empty answer"
    assert reasons[5] == "answer letter D is beyond the 3 options"
    assert reasons[8] == "same text as 选项1"
    assert reasons[9] == "duplicate stem: same as row 2, with other options or answer"


def test_a_question_repeated_in_another_paper_is_kept_once_without_an_error(tmp_path: Path) -> None:
    rows = [
        bank_row("好题一（　）", FOUR, "A"),
        bank_row("好题二（　）", FOUR, "B"),
        bank_row("好题一（　）", FOUR, "A"),
    ]
    result = load_rows(tmp_path, rows)
    assert [q.stem for q in result.questions] == ["好题一（　）", "好题二（　）"]
    assert [(p.row, p.severity) for p in result.problems] == [(4, "warning")]
    assert result.problems[0].reason == "same question as row 2 (another paper): kept once"


def test_a_type_label_before_a_standalone_stem_is_dropped_quietly(tmp_path: Path) -> None:
    result = load_rows(tmp_path, [bank_row("【单选题】下列属于甲类的是（　）", FOUR, "A")])
    assert [q.stem for q in result.questions] == ["下列属于甲类的是（　）"]
    assert result.problems == []


def test_gap_between_options_is_refused(tmp_path: Path) -> None:
    result = load_rows(tmp_path, [bank_row("题（　）", ["甲", "", "丙"], "A")])
    assert problems(result)[0] == (2, "选项2", "error")


def case_rows() -> list[list[Any]]:
    chapter = {"篇": "第四篇 交易税费篇", "章": "第七章 买方税费"}
    return [
        bank_row(
            "张某2026年3月购买一套120平方米的住房，总价300万元，为家庭唯一住房。", [], "", "CSB001", **chapter
        ),
        bank_row("【单选题】张某应缴纳的契税为（　）", ["3万元", "4.5万元", "6万元", "9万元"], "A", "SCB002"),
        bank_row(
            "【多选题】张某在交易中需要缴纳的有（　）",
            ["契税", "增值税", "印花税", "登记费"],
            "ACD",
            "MCB003",
        ),
        bank_row("契税的纳税人是买方。（　）", ["正确", "错误"], "A", "YNB004", **chapter),
    ]


def test_case_stem_lends_its_text_and_chapter_to_its_sub_questions(tmp_path: Path) -> None:
    result = load_rows(tmp_path, case_rows())
    assert result.case_stems == 1
    assert [q.name for q in result.questions] == ["SCB002", "MCB003", "YNB004"]
    first, second, after = result.questions
    assert first.stem == "张某应缴纳的契税为（　）"
    assert first.case_text == second.case_text
    assert first.case_text is not None and first.case_text.startswith("张某2026年3月")
    assert (first.part, first.chapter) == ("第四篇 交易税费篇", "第七章 买方税费")
    assert second.qtype == "multi"
    assert after.case_text is None
    assert result.problems == []


def test_case_stem_without_prefix_is_found_by_its_empty_options_and_answer(tmp_path: Path) -> None:
    rows = case_rows()
    rows[0][BANK_HEADER.index("试题名称")] = ""
    result = load_rows(tmp_path, rows)
    assert result.case_stems == 1
    assert result.questions[0].case_text is not None


def test_case_stem_with_no_sub_questions_is_a_problem(tmp_path: Path) -> None:
    rows = case_rows()
    del rows[1:3]
    result = load_rows(tmp_path, rows)
    assert result.case_stems == 0
    assert [q.name for q in result.questions] == ["YNB004"]
    [problem] = result.problems
    assert (problem.row, problem.field) == (2, "题干")
    assert "case stem with no sub-questions" in problem.reason


def test_same_sub_question_under_two_cases_is_not_a_duplicate(tmp_path: Path) -> None:
    rows = case_rows()[:2] + case_rows()[:2]
    rows[2][BANK_HEADER.index("题干")] = "李某2026年购买一套150平方米的住房，总价400万元，为家庭第二套住房。"
    result = load_rows(tmp_path, rows)
    assert result.case_stems == 2
    assert len(result.questions) == 2
    assert result.questions[0].id != result.questions[1].id


def test_calc_checks_are_kept_by_question_id(tmp_path: Path) -> None:
    check = {
        "calculator": "deed_tax",
        "args": {"price": 3000000, "area": 120},
        "field": "tax",
        "expected": 30000,
    }
    rows = [
        {
            "题干": "应缴契税（　）",
            "选项1": "3万元",
            "选项2": "6万元",
            "正确答案": "A",
            "计算校验": json.dumps(check),
        },
        {"题干": "另一题（　）", "选项1": "甲", "选项2": "乙", "正确答案": "B", "计算校验": "{broken"},
        {"题干": "对象形式（　）", "选项1": "甲", "选项2": "乙", "正确答案": "A", "计算校验": check},
    ]
    result = load_bank(write_jsonl(tmp_path / "bank.jsonl", rows))
    first, _, third = result.questions
    assert result.calc_checks == {first.id: check, third.id: check}
    assert problems(result) == [(2, "计算校验", "warning")]


def test_ids_are_stable_across_files_and_formats(tmp_path: Path) -> None:
    rows = case_rows()
    from_xlsx = load_rows(tmp_path, rows).questions
    from_csv = load_rows(tmp_path, rows, ".csv").questions
    assert [q.id for q in from_xlsx] == [q.id for q in from_csv]
    assert len({q.id for q in from_xlsx}) == len(from_xlsx)
