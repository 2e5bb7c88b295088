"""Chapter alignment between bank and knowledge base, the chapter tree, and chapter lookup."""

from __future__ import annotations

from dataclasses import replace

import pytest

from retrieval.chapters import ChapterAligner, align_questions, build_tree, chinese_number
from retrieval.models import CalcExample, MotherQuestion, Slice
from vocabulary.kinds import QuestionType

KB_CHAPTERS = [
    ("第一篇  行业与经纪基础", "第一章  房地产经纪行业概述"),
    ("第一篇  行业与经纪基础", "第二章  房地产基础知识"),
    ("第四篇  交易税费", "第七章  买方税费"),
    ("第四篇  交易税费", "第八章  卖方税费"),
    ("第五篇  贷款与公积金", "第十章  商业贷款"),
    ("第五篇  贷款与公积金", "第十一章  住房公积金贷款"),
    ("第五篇  贷款与公积金", "第十二章  贷款期限与评估"),
]


def make_slice(part: str, chapter: str, section: str = "第一节 概述", calc: bool = False) -> Slice:
    examples = (CalcExample("deed_tax", {"price": 1}, {"tax": 0.01}),) if calc else ()
    path = (part, chapter, section, "一、要点")
    return Slice(id="|".join(path), path=path, mastery="掌握", text="内容", calc_examples=examples)


def make_question(
    part: str, chapter: str, qtype: QuestionType = "single", section: str = ""
) -> MotherQuestion:
    return MotherQuestion(
        id=f"{chapter}{qtype}{section}",
        part=part,
        chapter=chapter,
        section=section,
        name="",
        qtype=qtype,
        stem="题（　）",
        options=("甲", "乙"),
        answer="A",
        source="bank.xlsx:7",
    )


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("七", 7),
        ("十", 10),
        ("十一", 11),
        ("十二", 12),
        ("二十", 20),
        ("二十三", 23),
        ("一百零五", 105),
        ("12", 12),
    ],
)
def test_chinese_numbers(text: str, value: int) -> None:
    assert chinese_number(text) == value


def test_chinese_number_rejects_words() -> None:
    assert chinese_number("买方税费") is None


@pytest.mark.parametrize(
    ("part", "chapter", "expected"),
    [
        ("第四篇 交易税费篇", "第七章 买方税费", KB_CHAPTERS[2]),  # exam spreadsheet style
        ("第五篇 贷款与公积金篇", "第十一章 公积金贷款", KB_CHAPTERS[5]),  # same ordinal, shorter title
        ("", "第12章 贷款期限与评估", KB_CHAPTERS[6]),  # Arabic ordinal, no 篇 given
        ("第四篇 交易税费篇", "卖方税费", KB_CHAPTERS[3]),  # title only
        ("第二篇 交易税费篇", "第三章 买方税费", KB_CHAPTERS[2]),  # renumbered book: the title decides
    ],
)
def test_bank_chapter_names_align_with_knowledge_base_paths(
    part: str, chapter: str, expected: tuple[str, str]
) -> None:
    assert ChapterAligner(KB_CHAPTERS).align(part, chapter) == expected


@pytest.mark.parametrize(
    ("part", "chapter"), [("第九篇 其他篇", "第二十章 装修设计"), ("第四篇 交易税费篇", "")]
)
def test_unrelated_or_missing_chapter_aligns_to_nothing(part: str, chapter: str) -> None:
    assert ChapterAligner(KB_CHAPTERS).align(part, chapter) is None


def test_chapters_restarting_in_each_part_align_within_their_part() -> None:
    chapters = [
        ("第一篇 基础", "第一章 概述"),
        ("第二篇 交易", "第一章 概述"),
        ("第二篇 交易", "第二章 流程"),
    ]
    assert ChapterAligner(chapters).align("第二篇 交易篇", "第一章 概述") == chapters[1]


def test_align_questions_sets_kb_chapter_and_warns_once_per_unknown_chapter() -> None:
    slices = [make_slice(*KB_CHAPTERS[2])]
    questions = [
        make_question("第四篇 交易税费篇", "第七章 买方税费"),
        make_question("第九篇 其他篇", "第二十章 装修设计"),
        make_question("第九篇 其他篇", "第二十章 装修设计", "judge"),
    ]
    aligned, problems = align_questions(questions, slices)
    assert [q.kb_chapter for q in aligned] == [KB_CHAPTERS[2], None, None]
    [problem] = problems
    assert (problem.file, problem.row, problem.field, problem.severity) == ("bank.xlsx", 7, "章", "warning")
    assert "第二十章 装修设计" in problem.reason


def sample_tree_inputs() -> tuple[list[Slice], list[MotherQuestion]]:
    # 第五篇 first in the file: the tree must still come out in ordinal order.
    slices = [
        make_slice(*KB_CHAPTERS[4], section="第一节 贷款条件"),
        make_slice(*KB_CHAPTERS[2], section="第一节 契税", calc=True),
        make_slice(*KB_CHAPTERS[2], section="第一节 契税"),
        make_slice(*KB_CHAPTERS[2], section="第二节 印花税与登记费"),
        make_slice(*KB_CHAPTERS[3], section="第一节 增值税及附加", calc=True),
        *[make_slice(*KB_CHAPTERS[3], section="第二节 个人所得税") for _ in range(3)],
        make_slice(*KB_CHAPTERS[0]),
    ]
    questions = [
        make_question("第四篇 交易税费篇", "第七章 买方税费", "single", "第一节 契税"),
        make_question("第四篇 交易税费篇", "第七章 买方税费", "judge", "第二节 印花税与登记费"),
        make_question("第四篇 交易税费篇", "第七章 买方税费", "judge", ""),
        make_question("第四篇 交易税费篇", "第八章 卖方税费", "multi", "第二节 个人所得税"),
        make_question("第九篇 其他篇", "第二十章 装修设计", "single"),
    ]
    aligned, _ = align_questions(questions, slices)
    return slices, aligned


def test_tree_counts_slices_and_questions_per_chapter_and_section() -> None:
    tree = build_tree(*sample_tree_inputs())
    assert [p.name for p in tree.parts] == [
        "第一篇  行业与经纪基础",
        "第四篇  交易税费",
        "第五篇  贷款与公积金",
    ]
    buyer = tree.chapter(KB_CHAPTERS[2])
    assert buyer is not None
    assert (buyer.slices, dict(buyer.questions)) == (3, {"single": 1, "judge": 2})
    assert [(s.name, s.slices, dict(s.questions)) for s in buyer.sections] == [
        ("第一节 契税", 2, {"single": 1}),
        ("第二节 印花税与登记费", 1, {"judge": 1}),
    ]
    assert tree.parts[1].slices == 7
    assert dict(tree.parts[1].questions) == {"single": 1, "judge": 2, "multi": 1}
    assert {key: dict(c) for key, c in tree.unaligned.items()} == {
        ("第九篇 其他篇", "第二十章 装修设计"): {"single": 1}
    }


def test_calculation_chapter_needs_thirty_percent_calculation_slices() -> None:
    tree = build_tree(*sample_tree_inputs())
    buyer, seller = tree.chapter(KB_CHAPTERS[2]), tree.chapter(KB_CHAPTERS[3])
    assert buyer is not None and seller is not None
    assert (buyer.calculation_slices, buyer.slices, buyer.is_calculation) == (1, 3, True)  # 33%
    assert (seller.calculation_slices, seller.slices, seller.is_calculation) == (1, 4, False)  # 25%


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("第七章", [KB_CHAPTERS[2]]),
        ("7", [KB_CHAPTERS[2]]),
        ("买方税费", [KB_CHAPTERS[2]]),
        ("第七章 买方税费", [KB_CHAPTERS[2]]),
        ("十", [KB_CHAPTERS[4]]),
        ("第四篇", [KB_CHAPTERS[2], KB_CHAPTERS[3]]),
        ("交易税费篇", [KB_CHAPTERS[2], KB_CHAPTERS[3]]),
        ("第八篇", []),
        ("装修设计", []),
    ],
)
def test_find_chapter_by_ordinal_or_name(query: str, expected: list[tuple[str, str]]) -> None:
    tree = build_tree(*sample_tree_inputs())
    assert [c.key for c in tree.find(query)] == expected


def test_eleven_is_not_confused_with_one() -> None:
    slices = [make_slice(*KB_CHAPTERS[0]), make_slice(*KB_CHAPTERS[5])]
    tree = build_tree(slices, [])
    assert [c.key for c in tree.find("十一")] == [KB_CHAPTERS[5]]
    assert [c.key for c in tree.find("1")] == [KB_CHAPTERS[0]]


def test_question_without_alignment_is_unassigned_not_lost() -> None:
    slices, questions = sample_tree_inputs()
    tree = build_tree(slices, [replace(q, kb_chapter=None) for q in questions])
    assert sum(sum(c.values()) for c in tree.unaligned.values()) == len(questions)


def test_empty_query_finds_nothing() -> None:
    tree = build_tree([make_slice("第一篇 基础", "第一章")], [])
    assert tree.find("  ") == []
    assert [c.key for c in tree.find("第一章")] == [("第一篇 基础", "第一章")]
