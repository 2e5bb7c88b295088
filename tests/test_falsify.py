"""Falsified statements must be false and readable: one fact changed, never a still-true variant, never
a broken date, compound word or range."""

import pytest

from graph.authors.falsify import falsifications, modal_turn


def texts(rule: str) -> list[str]:
    return [f.text for f in falsifications(rule)]


def test_a_lower_bound_only_moves_down_and_an_upper_bound_only_up():
    assert texts("个人将购买满2年的住房对外销售的，免征增值税。") == [
        "个人将购买满1年的住房对外销售的，免征增值税。",
        "个人将购买满2年的住房对外销售的，征收增值税。",
    ]
    moved = [t for t in texts("异议登记申请人应在15日内起诉。") if "日内" in t]
    assert moved and all(int(t.split("在")[1].split("日")[0]) > 15 for t in moved)


def test_rates_change_in_both_directions_and_the_explanation_can_name_the_change():
    found = falsifications("首套住房面积在140平方米以下的，契税税率为1%。")
    assert any(f.text.endswith("税率为2%。") and (f.original, f.altered) == ("1", "2") for f in found)
    assert all(f.source == "首套住房面积在140平方米以下的，契税税率为1%。" for f in found)


def test_dates_compounds_and_two_sided_sentences_are_left_alone():
    assert texts("该政策自2027年12月31日起停止执行。") == []
    assert texts("同时接受买方和卖方的委托属于禁止行为。") == []
    assert all("双倍本息" not in t for t in texts("等额本息还款法前期每月还款中利息所占比例较高。"))
    assert all("暂征收" not in t for t in texts("个人销售住房暂免征收土地增值税。"))
    assert texts("两家以上经纪机构合作完成同一宗业务的，只能收取一次佣金。") == []


def test_ranges_stay_ranges_and_negations_are_not_doubled():
    for text in texts("契税税率幅度为3%至5%。"):
        bounds = text.removeprefix("契税税率幅度为").rstrip("。").split("至")
        low, high = (float(x.rstrip("%")) for x in bounds)
        assert low < high
    assert all("不应不" not in t for t in texts("住宅室内净高不应低于2.40米。"))


def test_every_variant_differs_from_the_rule():
    rule = "定金数额不得超过主合同标的额的20%，超过部分不产生定金的效力。"
    assert rule not in texts(rule) and len(set(texts(rule))) == len(texts(rule)) > 0


def test_a_swap_that_coins_a_term_or_contradicts_the_sentence_is_no_falsification():
    """Examiners struck "全国最高首付比例" (a term no textbook has), "超过当地最低额度时按最高额度发放"
    (one of two 最高 turned) and "视为双倍享有份额" as eliminated at sight."""
    assert not any("最高首付" in t for t in texts("各地首付比例不得低于全国最低首付比例。"))
    assert all("最低" not in t for t in texts("超过当地最高额度的，按最高额度发放。"))
    assert all("上限" not in t for t in texts("城市可以在全国下限的基础上确定更高的首付比例。"))
    assert "贷款额度的上限为100万元。" in texts("贷款额度的下限为100万元。")
    assert all("双倍" not in t for t in texts("没有约定份额的，视为等额享有份额。"))
    assert all("口头" not in t for t in texts("委托人应当出具书面授权委托书。"))
    assert "贷款期限最短为30年。" in texts("贷款期限最长为30年。")
    assert "定金的一方应当等额返还定金。" in texts("定金的一方应当双倍返还定金。")


def test_a_party_is_not_swapped_into_the_act_that_makes_the_other_party():
    """ "出卖人取得房屋后仍须容忍居住权人" was struck as self-contradictory: only a buyer acquires."""
    assert all(
        "出卖人取得" not in t for t in texts("房屋上设有居住权的，买受人取得房屋后仍须容忍居住权人继续居住。")
    )
    assert all("买方出售" not in t for t in texts("卖方出售住房的，应当缴纳增值税。"))
    assert "卖方应当在交房前结清物业服务费。" in texts("买方应当在交房前结清物业服务费。")


def test_an_examiners_trap_turns_a_timing_a_share_of_the_parties_or_a_comparison():
    """The misconceptions a reader must know the rule to refute: the step after instead of before, half the
    co-owners instead of all, the younger borrower instead of the older; never "双方单独申请"."""
    assert "卖方应当在交房后结清物业服务费。" in texts("卖方应当在交房前结清物业服务费。")
    assert "已购公房取得不动产权证书前，可以上市出售。" in texts("已购公房取得不动产权证书后，可以上市出售。")
    assert "出售该房屋应当取得半数以上继承人的同意。" in texts("出售该房屋应当取得全体继承人的同意。")
    assert "夫妻共同申请的，按年龄较小的一方计算。" in texts("夫妻共同申请的，按年龄较大的一方计算。")
    assert all("双方单独" not in t for t in texts("转移登记应当由买卖双方共同申请。"))
    both = texts("经纪人员应当在签约前和申请转移登记前各查询一次。")
    assert all("签约后" not in t and "登记后" not in t for t in both)


def test_a_swap_that_describes_no_act_of_the_trade_or_contradicts_a_limit_is_no_falsification():
    """Struck as eliminated at sight: "向卖方介绍房源" (listings are shown to buyers) and "实际发放额度取各项
    约束中的最高值" (a limit binds as the lowest)."""
    assert all("卖方介绍" not in t for t in texts("经纪人员应以不动产权证书记载的面积为准向买方介绍房源。"))
    assert all("最高值" not in t for t in texts("实际发放额度取各项约束中的最低值。"))
    assert "公积金贷款额度以各项限额中的最高值为准。" not in texts("公积金贷款额度以各项限额中的最低值为准。")


@pytest.mark.parametrize(
    ("subject", "consequence"),
    [
        ("经纪机构", "收取任何未予标明的费用"),
        ("网络信息平台", "允许未备案的经纪机构发布房源信息"),
        ("经纪人员", "代替当事人签字"),
        ("交易资金", "直接支付给经纪人员个人"),
        ("经纪机构", "通过监管账户以外的账户代收代付交易资金"),
        ("经纪人员", "在签约前隐瞒房屋抵押情况"),
        ("经纪机构", "发布未经产权人书面委托的房源信息"),
    ],
)
def test_a_bare_ban_or_a_ban_of_misconduct_is_not_lifted(subject: str, consequence: str) -> None:
    """ "经纪人员可以代替当事人签字", "交易资金可以直接付给经纪人员个人": examiners strike a prohibition
    turned into a permission as common sense when nothing bounds it, or when its act is misconduct anyway."""
    assert modal_turn("不得", consequence, subject=subject) is None


@pytest.mark.parametrize(
    ("lead", "subject", "consequence"),
    [
        ("", "共同共有人在共有关系存续期间", "单独转让其份额"),
        ("", "抵押人", "未经抵押权人同意转让抵押房屋"),
        ("业主没有交付钥匙的，", "经纪人员", "在业主不在场时带买方进入房屋"),
        ("", "监管机构", "在办理转移登记前向卖方划转资金"),
    ],
)
def test_a_ban_bounded_by_a_case_a_time_or_a_consent_is_lifted(
    lead: str, subject: str, consequence: str
) -> None:
    """Its permitted twin (after the time, with the consent, outside the case) is what a reader confuses."""
    assert modal_turn("不得", consequence, lead, subject) == "可以"
