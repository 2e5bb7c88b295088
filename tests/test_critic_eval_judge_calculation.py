"""A past paper's judge statement that states a computed figure ("该住宅的房龄为26年") is verified by
recomputing from the figures its scene states, as a single-choice calculation is: grounding finds no
sentence for a figure the textbook never prints."""

from __future__ import annotations

from graph.evaluation import library_of, review
from graph.evaluation.bank import read_calculation
from retrieval.models import Slice
from tests.test_grounding import judge

AGE = Slice(
    id="age",
    path=("第一篇 房屋", "第一章 房屋", "第三节 房龄"),
    mastery="掌握",
    text="房龄是指房屋自竣工之日起至今已经经历的年数。",
)
STATEMENT = "某住宅楼于2003年竣工，所在土地于2000年出让。2026年交易时，该住宅的房龄为26年"


def test_a_judge_stating_a_computed_figure_is_recomputed_from_its_scene():
    keyed_false = judge(STATEMENT, "B", AGE)
    calculation = read_calculation(keyed_false)
    assert calculation is not None
    assert (calculation.calculator, calculation.field, calculation.value) == ("house_age", "age", 23.0)
    library = library_of([AGE])
    explanation = (
        "教材依据：房龄自竣工之日起计算。试题分析：2026年减2003年为23年，不是26年。结论：该说法错误。"
    )
    question = keyed_false.model_copy(update={"calculation": calculation, "explanation": explanation})
    assert not review(question, "judge", library, AGE.chapter).rejected
    # the key turned round (with the reading kept) is a wrong answer the recomputation sees
    flipped = question.model_copy(
        update={"answer": ["A"], "explanation": explanation.replace("该说法错误", "该说法正确")}
    )
    found = review(flipped, "judge", library, AGE.chapter)
    assert "calculation_error" in {issue.type for issue in found.issues}


def test_a_figure_named_only_in_the_scene_is_not_what_the_judge_claims():
    """ "房龄" is named by the scene's rule; the statement claims a loan term, which no reading here gives."""
    statement = (
        "2026年，40岁的客户申请商业贷款购买一套2000年竣工的住房，所在地银行执行房龄与贷款期限之和"
        "不超过50年的规定，该客户的贷款期限最长可以为30年"
    )
    assert read_calculation(judge(statement, "B", AGE)) is None
