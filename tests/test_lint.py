"""The critic's mechanical lint: each examiner reject reason it can see fires on a question that has the fault
and stays silent on a field-style question of the same shape; the critic judges substance, not headings or
stem length."""

from __future__ import annotations

import pytest

from graph.checks import run_checks
from graph.format import compose_explanation
from graph.lint import (
    RULES,
    arithmetic_twin,
    explains_the_making,
    key_words_in_stem,
    lint,
    parameter_dump,
    rule_named_in_stem,
    same_fact_twice,
    scenario_missing,
    spread_too_wide,
)
from vocabulary.records import Question

DEED_TAX_STEM = (
    "2026年3月，刘某购买一套建筑面积95平方米的住宅，属于其家庭唯一住房，不含增值税的成交价格为200万元。"
    "刘某应缴纳的契税为（　）。"
)
DEED_TAX_EXPLANATION = compose_explanation(
    "家庭唯一住房面积在140平方米及以下的，契税税率为1%。",
    "95平方米未超过140平方米，契税=2000000×1%=20000元；30000元误用了旧政策1.5%的税率，"
    "40000元误按面积140平方米以上的2%计算，60000元误用了3%的法定税率。",
    "本题选A。",
)
AREA_STEM = "某住宅套内建筑面积76.5平方米，分摊的共有建筑面积13.5平方米，该住宅的建筑面积为（　）。"
AREA_EXPLANATION = compose_explanation(
    "建筑面积=套内建筑面积+分摊的共有建筑面积。",
    "76.5+13.5=90平方米；63平方米错把分摊面积减去了，76.5平方米漏加了分摊面积，"
    "103.5平方米把分摊面积加了两次。",
    "本题选A。",
)
DEPOSIT_EXPLANATION = compose_explanation(
    "定金的数额由当事人约定，但不得超过主合同标的额的20%；定金合同自实际交付定金时成立。",
    "给付定金的一方不履行债务的，无权请求返还定金；定金与违约金只能选择其一适用。",
    "本题选A。",
)


def _question(stem: str, options: list[str], answer: str, explanation: str, **extra) -> Question:
    qtype = extra.pop("qtype", "multi" if len(answer) > 1 else "single")
    return Question(
        qtype=qtype, stem=stem, options=options, answer=list(answer), explanation=explanation, **extra
    )


def deed_tax(
    stem: str = DEED_TAX_STEM, options: tuple[str, ...] = ("20000元", "30000元", "40000元", "60000元")
):
    return _question(stem, list(options), "A", DEED_TAX_EXPLANATION)


def area(options: tuple[str, ...]) -> Question:
    return _question(AREA_STEM, list(options), "A", AREA_EXPLANATION)


GOOD_FIELD_QUESTIONS = {
    "calculation": deed_tax(),
    "calculation without rates": area(("90平方米", "63平方米", "76.5平方米", "103.5平方米")),
    "classification": _question(
        "王某与开发商约定，任何一方逾期履行须按日向对方支付总价款的万分之五，该约定属于（　）。",
        ["违约金条款", "定金条款", "解除合同条款", "争议解决条款"],
        "A",
        compose_explanation(
            "当事人可以约定一方违约时应当支付违约金。", "按日支付的款项是违约金。", "本题选A。"
        ),
    ),
    "statements": _question(
        "关于定金，下列说法正确的是（　）。",
        [
            "定金数额不得超过主合同标的额的20%",
            "定金合同自签订时成立",
            "给付定金的一方违约的，可以要求返还定金",
            "定金与违约金可以同时适用",
        ],
        "A",
        DEPOSIT_EXPLANATION,
    ),
    "situations differing in one number": _question(
        "2026年，下列个人转让住房的情形中，免征个人所得税的有（　）。",
        [
            "持有满6年，且为家庭唯一生活用房",
            "持有满3年，且为家庭唯一生活用房",
            "持有满5年，且为家庭唯一生活用房",
            "持有满8年，但家庭另有一套住房",
        ],
        "AC",
        compose_explanation(
            "个人转让自用5年以上并且是家庭唯一生活用房取得的所得，免征个人所得税。",
            "两个条件须同时满足：B不满5年，D不是唯一住房。",
            "本题选AC。",
        ),
    ),
    "flexible judge with a situation": _question(
        "客户周某已婚，家庭名下已有一套市区住宅，现通过商业贷款购买一套市区商业公寓，"
        "则最低首付比例为50%。（　）",
        ["正确", "错误"],
        "A",
        compose_explanation(
            "商业用房贷款首付款比例不低于50%。", "商业公寓按商业用房贷款办理。", "该说法正确。"
        ),
        qtype="judge",
        mode="flexible",
    ),
}


@pytest.mark.parametrize("name", GOOD_FIELD_QUESTIONS)
def test_the_lint_is_silent_on_field_style_questions(name):
    assert lint(GOOD_FIELD_QUESTIONS[name]) == []


def test_parameter_dump_stem_is_flagged():
    dumped = deed_tax(
        "已知计税价格：2000000元；建筑面积：95平方米；家庭住房套数：首套。应缴纳的契税为（　）。"
    )
    assert "参数罗列" in parameter_dump(dumped)


def test_quoted_deciding_rule_in_a_calculation_stem_is_flagged():
    named = deed_tax(DEED_TAX_STEM.replace("刘某应缴纳", "按照“家庭唯一住房的契税税率”计算，刘某应缴纳"))
    assert "家庭唯一住房的契税税率" in rule_named_in_stem(named)


def test_key_words_in_a_classification_stem_are_flagged():
    telling = GOOD_FIELD_QUESTIONS["classification"].model_copy(
        update={"stem": "王某与开发商约定，任何一方逾期履行须按日支付违约金，该约定属于（　）。"}
    )
    assert "违约金" in key_words_in_stem(telling)


def test_a_true_statement_beside_its_own_falsification_is_flagged():
    good = GOOD_FIELD_QUESTIONS["statements"]
    twins = good.model_copy(
        update={"options": [good.options[0], "定金数额不得超过主合同标的额的30%", *good.options[2:]]}
    )
    assert "选项A与B" in same_fact_twice(twins)
    flipped = good.model_copy(update={"options": [*good.options[:3], "定金数额可以超过主合同标的额的20%"]})
    assert "选项A与D" in same_fact_twice(flipped)


def test_options_spread_far_apart_are_flagged():
    assert "相差悬殊" in spread_too_wide(deed_tax(options=("20000元", "30000元", "60000元", "320000元")))


def test_distractors_that_are_the_key_doubled_or_shifted_a_decimal_place_are_flagged():
    assert "干扰项D" in arithmetic_twin(area(("90平方米", "63平方米", "76.5平方米", "180平方米")))
    assert "干扰项D" in arithmetic_twin(deed_tax(options=("20000元", "30000元", "40000元", "200000元")))


@pytest.mark.parametrize(
    "stem",
    [
        "张先生向从业人员咨询“契税”方面的问题。从业人员的下列答复中，正确的是（　）。",
        "李女士在办理业务时向同事解释定金：“定金数额不得超过主合同标的额的20%”这一说法（　）。",
        "2026年5月8日，在陈先生办理的这笔业务中，定金数额不得超过主合同标的额的20%。（　）",
        "关于商业用房贷款，最低首付比例为50%。（　）",
    ],
)
def test_flexible_question_without_a_scenario_is_flagged(stem):
    framed = GOOD_FIELD_QUESTIONS["flexible judge with a situation"].model_copy(update={"stem": stem})
    assert "情境" in scenario_missing(framed)
    assert scenario_missing(framed.model_copy(update={"mode": "strict"})) is None


def test_explanation_that_tells_how_an_option_was_made_is_flagged():
    made = GOOD_FIELD_QUESTIONS["statements"].model_copy(
        update={
            "explanation": compose_explanation(
                "定金不得超过主合同标的额的20%。", "选项B把“20%”改成了“30%”，说法错误。", "本题选A。"
            )
        }
    )
    assert "改出来" in explains_the_making(made)


def test_lint_findings_reach_the_critic_as_minor_issues_for_the_fixer():
    dumped = deed_tax(
        "已知计税价格：2000000元；建筑面积：95平方米；家庭住房套数：首套。应缴纳的契税为（　）。"
    )
    issues = run_checks(dumped, "single")
    assert [(i.type, i.severity) for i in issues] == [("format_error", "minor")]
    assert {rule.kind for rule in RULES} <= {"format_error", "logical_flaw", "ambiguity"}


def test_critic_does_not_reject_a_long_case_stem_or_a_different_heading():
    case = (
        "2026年3月，王某通过某房地产经纪机构购买李某名下的一套住宅，建筑面积95平方米，双方签订存量房买卖合同"
        "并完成网签，不含增值税的成交价格为200万元。王某已婚，与妻子和未成年的女儿共同生活，夫妻二人及女儿名下"
        "此前都没有住房。李某于2019年取得该房屋的不动产权证书，该房屋是李某家庭唯一的生活用房。合同约定王某于"
        "签约当日支付定金20万元，首付款在网签后10日内存入资金监管账户，其余房款通过商业贷款支付，双方于2026年"
        "4月办理转移登记，税费按照法律规定各自承担，物业费、水电燃气费用结清至交房之日。王某此前曾在经纪人员"
        "陪同下实地查看该房屋三次，确认房屋不存在抵押、查封等权利限制，也没有出租给他人使用。"
    )
    paper = (
        DEED_TAX_EXPLANATION.replace("教材原文", "教材依据")
        .replace("试题分析", "试题解析")
        .replace("3、结论", "3、试题结论")
    )
    question = deed_tax(case + "王某应缴纳的契税为（　）。").model_copy(update={"explanation": paper})
    assert len(question.stem) > 300
    assert run_checks(question, "single") == []


def test_critic_notes_an_explanation_with_no_analysis_at_all():
    bare = deed_tax().model_copy(update={"explanation": "1、教材原文：契税税率为1%。\n2、结论：本题选A。"})
    issues = run_checks(bare, "single")
    assert [(i.type, i.severity) for i in issues] == [("incompleteness", "minor")]
    assert "试题分析" in issues[0].detail
