"""The author's difficulty estimate, measured on the finished question: what makes a question 难 for a
learner raises it, a two-option judge of a plain statement lowers it (graph/authors/difficulty.py)."""

from __future__ import annotations

from graph.authors.difficulty import estimate
from graph.schemas import Draft
from retrieval.facts import Fact
from vocabulary.kinds import level_of
from vocabulary.records import Calculation

HOLDING = Fact(
    id="holding",
    kind="threshold",
    slice_id="s",
    source="个人将购买2年以上（含2年）的住房对外销售的，免征增值税。",
    subject="个人销售住房免征增值税的持有年限",
    comparator="以上",
    value=2,
    unit="年",
)
AREA = Fact(
    id="area",
    kind="threshold",
    slice_id="s",
    source="面积为90平方米及以下的，减按1%的税率征收契税。",
    subject="首套住房契税1%税率的面积",
    comparator="以下",
    value=90,
    unit="平方米",
)


def _draft(
    stem: str, options: list[str], answer: str, explanation: str = "教材依据：…试题分析：…结论：…"
) -> Draft:
    return Draft(stem=stem, options=options, answer=answer, explanation=explanation)


def _judge(stem: str) -> Draft:
    return _draft(stem, ["正确", "错误"], "A")


def test_a_plain_statement_judged_true_or_false_is_easy():
    plain = estimate(_judge("经纪人员应当在经纪服务合同上签名。（　）"), "judge", "strict")
    assert level_of(plain) == "easy"
    assert plain < estimate(_judge("房屋买卖合同应当在签订后30日内备案。（　）"), "judge", "strict")


def test_a_dated_case_on_the_anniversary_is_harder_than_one_far_from_it():
    on_it = "王某2024年3月购入一套住房，2026年2月出售，免征增值税。（　）"
    far = "王某2014年3月购入一套住房，2026年2月出售，免征增值税。（　）"
    near, clear = (estimate(_judge(stem), "judge", "flexible", facts=[HOLDING]) for stem in (on_it, far))
    assert near > clear
    assert level_of(near) == "medium"


def test_a_multiple_choice_with_three_or_more_keys_is_hard():
    options = ["委托人", "受托人", "第三人", "买受人", "出卖人"]
    two, three, four = (
        estimate(_draft("下列主体中，属于经纪服务合同当事人的有（　）", options, keys), "multi", "strict")
        for keys in ("AB", "ABD", "ABDE")
    )
    assert level_of(two) == "medium"
    assert two < three < four
    assert level_of(four) == "hard"


def test_a_calculation_from_the_case_with_close_distractors_is_hard():
    calculation = Calculation(
        calculator="deed_tax", args={"price": 3_500_000, "area": 89, "first_home": True}, field="tax"
    )
    analysis = (
        "试题分析：计税依据=3,605,000÷(1+3%)=3,500,000元；面积89平方米，首套，税率1%；"
        "契税=3,500,000×1%=35,000元"
    )
    close = _draft(
        "2026年5月，李某家庭购买首套住房，建筑面积89平方米，合同成交价（含增值税）为360.5万元。"
        "李某应缴纳的契税为（　）",
        ["35,000元", "36,050元", "52,500元", "70,000元"],
        "A",
        analysis,
    )
    far = close.model_copy(update={"options": ["35,000元", "52,500元", "70,000元", "105,000元"]})
    hard = estimate(close, "single", "flexible", calculation=calculation, facts=[AREA])
    assert hard > estimate(far, "single", "flexible", calculation=calculation, facts=[AREA])
    assert level_of(hard) == "hard"
    plain = estimate(close.model_copy(update={"stem": "契税的计税依据为（　）"}), "single", "strict")
    assert level_of(plain) != "hard"
    mistakes = "；选项C（52,500元）是误按1.5%税率计算的结果；选项D（70,000元）是误按2%税率计算的结果"
    traps = far.model_copy(update={"explanation": analysis + mistakes})
    named = estimate(traps, "single", "flexible", calculation=calculation, facts=[AREA])
    assert named > estimate(far, "single", "flexible", calculation=calculation, facts=[AREA])


def test_negative_wording_and_a_case_situation_each_make_a_question_harder():
    options = ["甲", "乙", "丙", "丁"]
    asked = estimate(_draft("下列做法中，正确的是（　）", options, "B"), "single", "strict")
    assert level_of(asked) == "easy", "one textbook sentence recalled among four"
    negative = estimate(_draft("下列做法中，不正确的是（　）", options, "B"), "single", "strict")
    in_case = estimate(
        _draft("下列做法中，正确的是（　）", options, "B"), "single", "strict", case="张某委托…"
    )
    assert asked < negative and asked < in_case
