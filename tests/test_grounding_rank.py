"""Comparative grounding: when no sentence verifies a choice question's key outright, its options are ranked
by how well each reads against its closest textbook sentence, and a key that claims the clearly closer
option false is suspect. Each test fails without the comparison: every statement here is unknown on its
own, so the absolute verdicts raise nothing in lenient (past-paper) mode."""

from __future__ import annotations

from types import SimpleNamespace

from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.grounding.verdict import OUTRANKS
from retrieval.facts import FactBase
from retrieval.models import Slice
from tests.test_grounding import choice, judge

SHARED = Slice(
    id="shared",
    path=("第一篇 权利", "第三章 共有", "第二节 共有房屋的处分"),
    mastery="掌握",
    text=(
        "出售共同共有的房屋，应当经全体共同共有人同意，共有人另有约定的除外。"
        "按份共有人可以转让其享有的共有份额，其他共有人在同等条件下享有优先购买的权利。"
    ),
)
LIBRARY = SimpleNamespace(knowledge=KnowledgeIndex([SHARED]), facts=FactBase(()))
# A paraphrase of the first sentence (no sentence supports it word for word) and three distractors the
# textbook says nothing of.
OPTIONS = [
    "夫妻共同共有的房屋出售时，应当取得全体共同共有人的同意",
    "房屋出售后的物业费由原业主继续缴纳",
    "夫妻一方出售房屋无需告知配偶",
    "出售共有房屋的价款全部归出卖人所有",
]
TRUE_STEM = "关于共有房屋的出售，下列说法正确的是（　）。"
FALSE_STEM = "关于共有房屋的出售，下列说法错误的是（　）。"


def grounded(stem: str, answer: str, options: list[str] = OPTIONS):
    return ground_question(choice(stem, options, answer, SHARED), None, LIBRARY, chapter=SHARED.chapter)


def test_every_option_alone_is_unknown_so_only_the_comparison_can_tell():
    grounding = grounded(TRUE_STEM, "A")
    assert [f.verdict for f in grounding.statements] == ["unknown"] * 4
    ranks = [f.rank for f in grounding.statements]
    assert ranks[0] - max(ranks[1:]) >= OUTRANKS  # the paraphrase reads clearly closest to the textbook
    assert grounding.issues(strict=False) == []


def test_a_key_moved_off_the_closest_option_is_a_major_fault():
    found = grounded(TRUE_STEM, "B").issues(strict=False)
    assert [(i.type, i.severity) for i in found] == [("answer_mismatch", "major")]
    assert "选项A比选项B明显更贴近教材" in found[0].detail


def test_a_false_frame_keying_the_closest_option_as_the_false_one_is_a_major_fault():
    found = grounded(FALSE_STEM, "A").issues(strict=False)
    assert [(i.type, i.severity) for i in found] == [("answer_mismatch", "major")]
    assert "选项A比选项" in found[0].detail


def test_a_false_frame_keying_a_distractor_passes():
    assert grounded(FALSE_STEM, "B").issues(strict=False) == []


def test_a_case_is_not_ranked_against_the_textbook():
    """A scene's people and figures are the case's, not a sentence's: its options are not compared."""
    stem = "王某与妻子共有一套住房，王某想出售该住房。关于本案，下列说法正确的是（　）。"
    grounding = grounded(stem, "B")
    assert all(f.rank is None for f in grounding.statements)
    assert grounding.issues(strict=False) == []


def test_a_key_the_textbook_verifies_is_not_second_guessed():
    """Supported outright, the key needs no comparison and none is computed."""
    options = ["出售共同共有的房屋，应当经全体共同共有人同意", *OPTIONS[1:]]
    grounding = grounded(TRUE_STEM, "A", options)
    assert grounding.statements[0].verdict == "supported"
    assert all(f.rank is None for f in grounding.statements)
    assert grounding.issues(strict=False) == []


RECORDS = Slice(
    id="records",
    path=("第一篇 经纪", "第二章 经纪业务", "第三节 业务记录"),
    mastery="掌握",
    text="经纪机构还应当建立业务记录制度，如实记载每笔业务的情况，并由机构留存房地产经纪服务合同，保存期不少于5年。",
)
RECORDS_LIBRARY = SimpleNamespace(knowledge=KnowledgeIndex([RECORDS]), facts=FactBase(()))
# "保存" for the source's "留存" and "房地产经纪机构" put first: a paraphrase no sentence supports outright.
REWORDED = "房地产经纪机构应当保存房地产经纪服务合同，保存期不少于{}年"


def judged(statement: str, answer: str):
    return ground_question(judge(statement, answer, RECORDS), RECORDS, RECORDS_LIBRARY)


def test_a_reworded_true_judge_statement_is_unknown_and_passes():
    grounding = judged(REWORDED.format(5), "A")
    assert [(f.verdict, f.denied) for f in grounding.statements] == [("unknown", False)]
    assert grounding.issues(strict=False) == []


def test_a_reworded_judge_statement_its_closest_sentence_denies_is_a_major_fault_when_keyed_true():
    grounding = judged(REWORDED.format(3), "A")
    assert [(f.verdict, f.denied) for f in grounding.statements] == [("unknown", True)]
    found = grounding.issues(strict=False)
    assert [(i.type, i.severity) for i in found] == [("answer_mismatch", "major")]
    assert "题干说法被作为正确说法，但教材中与它最接近的句子在数值、情态或否定上与它不同" in found[0].detail


def test_the_same_statement_keyed_false_passes():
    assert judged(REWORDED.format(3), "B").issues(strict=False) == []
