"""The calculation recipe as an examiner reads its questions: the key is the calculator's result for the
inputs the stem states, every input is stated as a situation, the deciding rule is not named, and every
distractor is a real mistake recomputed — never the key doubled, halved or shifted a decimal place."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

import calc
from graph.authors.base import Task
from graph.authors.calc_text import HOLDINGS, TELLINGS, Case, Names, money, yuan
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.calculation import CalculationRecipe, quoted_rates, wrong_answers
from graph.checks import run_checks
from graph.format import explanation_parts, numbers_in, same_number
from graph.nodes.writer import write_question
from graph.stemcalc import check_stem_calculation
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(12)

DEED_SLICE = Slice(
    id="s-deed",
    path=("第四篇 交易税费", "第七章 买方税费", "第一节 契税", "四、家庭第二套住房的契税税率"),
    mastery="掌握",
    text="家庭购买第二套住房，面积不超过140平方米的按1%缴纳契税，超过140平方米的按2%缴纳。",
    formulas=("应纳契税 = 计税价格 × 适用税率",),
)
DEED = Fact(
    id="f-deed",
    kind="example",
    slice_id="s-deed",
    source="【例】2026年5月，钱某家庭已有一套住房，再买一套155平方米的住房，不含税价500万元，契税为10万元。",
    subject="钱某应缴纳多少契税",
    calculator="deed_tax",
    args={"price": 5_000_000, "area": 155, "home_order": 2, "date": "2026-05-10"},
    expected={"rate": 0.02, "tax": 100_000.0},
)
VAT_SLICE = Slice(
    id="s-vat",
    path=("第四篇 交易税费", "第八章 卖方税费", "第一节 增值税", "二、增值税的计算"),
    mastery="掌握",
    text="个人出售持有不满2年的住房，按3%的征收率全额缴纳增值税，先做价税分离。",
    formulas=("增值税 = 含税成交价 ÷ (1 + 征收率) × 征收率",),
)
VAT = Fact(
    id="f-vat",
    kind="example",
    slice_id="s-vat",
    source="【例】2026年4月，孙某出售持有1年的住房，成交价309万元，应缴增值税9万元。",
    calculator="resale_vat",
    args={"price": 3_090_000, "years_held": 1, "date": "2026-04-01"},
    expected={"vat": 90_000.0},
)
LOAN_SLICE = Slice(
    id="s-loan",
    path=("第五篇 贷款", "第十章 商业贷款", "第三节 还款方式", "一、等额本息"),
    mastery="掌握",
    text="等额本息每月还款额相同；月利率为年利率除以12。公积金贷款利率为2.6%。",
    formulas=("月还款额 = P × r × (1 + r)^n ÷ [(1 + r)^n − 1]",),
)
LOAN = Fact(
    id="f-loan",
    kind="example",
    slice_id="s-loan",
    source="【例】贷款80万元，年利率3.05%，期限25年，等额本息，月供约3,900元。",
    calculator="equal_installment",
    args={"principal": 800_000, "annual_rate": 0.0305, "years": 25},
    expected={"monthly_payment": 3_902.37},
)


def _brief(slice_: Slice, fact: Fact, qtype: str, mode: str = "strict", seed: int = 0) -> Brief:
    base = FactBase([fact], chapters={slice_.id: slice_.chapter})
    task = Task(slice=slice_, qtype=qtype, mode=mode, seed=seed, facts=base)
    return Brief(task=task, facts=base, rng=random.Random(seed))


def _write(slice_: Slice, fact: Fact, qtype: str = "single", mode: str = "strict", seed: int = 0) -> Written:
    written = CalculationRecipe().write(fact, _brief(slice_, fact, qtype, mode, seed))
    assert written is not None and written.calculation is not None
    return written


def _value(option: str) -> float:
    (value,) = numbers_in(option)
    return value


def _key(written: Written) -> float:
    calculation = written.calculation
    return float(calc.run(calculation.calculator, calculation.args)[calculation.field])


def _deed_mistakes(args: dict) -> list[float]:
    """What an examinee gets from the stem's situation by a real mistake, computed here independently."""
    tries = [{**args, "home_order": order} for order in (1, 2, 3)]
    tries += [{**args, "date": "2024-11-01"}, {**args, "residential": False}]
    gross = round(args["price"] * 1.03, 2)
    tries += [{**args, "price": gross}, {**args, "price": round(gross / 1.05, 2)}]
    return [calc.run("deed_tax", a)["tax"] for a in tries]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_key_is_the_calculators_result_for_the_inputs_the_stem_states(seed: int) -> None:
    written = _write(DEED_SLICE, DEED, seed=seed)
    draft, args = written.draft, written.calculation.args
    key = _key(written)
    assert same_number(written.calculation.value, key)
    assert same_number(_value(draft.options["ABCD".index(draft.answer)]), key)
    stem = draft.stem
    assert f"建筑面积{args['area']}平方米" in stem
    assert HOLDINGS[args["home_order"]] in stem
    year, month = args["date"][:4], int(args["date"][5:7])
    assert f"{year}年{month}月" in stem
    gross = money(round(args["price"] * 1.03, 2))
    assert f"不含增值税的成交价格为{money(args['price'])}" in stem or f"（含增值税）为{gross}" in stem
    assert stem.endswith("（　）")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_stem_never_names_the_rule_or_category_that_decides(seed: int) -> None:
    stem = _write(DEED_SLICE, DEED, seed=seed).draft.stem
    for named in ("家庭第二套住房", "第二套", "税率", "按照", "适用", "140平方米"):
        assert named not in stem
    assert not re.search(r"[：:].*；", stem)  # no "键：值；键：值" parameter list


@pytest.mark.parametrize("seed", SEEDS)
def test_each_distractor_is_a_real_mistake_recomputed_and_explained(seed: int) -> None:
    written = _write(DEED_SLICE, DEED, seed=seed)
    draft = written.draft
    key = _key(written)
    real = _deed_mistakes(written.calculation.args)
    analysis = explanation_parts(draft.explanation)["试题分析"]
    for letter, option in zip("ABCD", draft.options, strict=True):
        if letter == draft.answer:
            continue
        value = _value(option)
        assert any(same_number(value, mistake) for mistake in real), option
        assert not any(same_number(value, key * factor) for factor in (2, 0.5, 10, 0.1))
        reason = re.search(rf"选项{letter}（{re.escape(option)}）是([^；。]+)的结果", analysis)
        assert reason and not re.search("重复计算|一半|小数点", reason.group(1))


@pytest.mark.parametrize("seed", SEEDS)
def test_options_are_distinct_and_printed_alike(seed: int) -> None:
    options = _write(VAT_SLICE, VAT, seed=seed).draft.options
    assert len(set(options)) == 4
    assert len({re.sub(r"[\d,.]", "", o) for o in options if o != "0元"}) == 1
    assert len({len(o.partition(".")[2]) for o in options if o != "0元"}) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_the_explanation_gives_the_formula_with_the_actual_numbers(seed: int) -> None:
    written = _write(VAT_SLICE, VAT, seed=seed)
    analysis = explanation_parts(written.draft.explanation)["试题分析"]
    args = written.calculation.args
    assert f"{yuan(args['price'])}÷(1+3%)" in analysis
    assert f"×3%={yuan(_key(written))}元" in analysis
    assert "价税分离" in analysis and "5%" in analysis  # the mistakes, in the subject's terms
    assert written.draft.sources == [VAT.source]


def test_loan_distractors_come_from_other_methods_and_the_case_not_from_rates_the_stem_rules_out() -> None:
    """The stem states the rate, so "误用了2.6%的利率" is no mistake a reader makes (an examiner struck it);
    overlooking the down payment the case tells is."""
    written = _write(LOAN_SLICE, LOAN, seed=3)
    args = written.calculation.args
    key = _key(written)
    price = float(re.search(r"总价(\d+(?:\.\d+)?)万元", written.draft.stem).group(1)) * 10_000
    real = [
        calc.run("equal_principal", args)["first_month"],
        calc.run("equal_installment", {**args, "annual_rate": 0})["monthly_payment"],
        calc.run("equal_installment", {**args, "principal": price})["monthly_payment"],
    ]
    distractors = [
        _value(o)
        for letter, o in zip("ABCD", written.draft.options, strict=True)
        if letter != written.draft.answer
    ]
    assert all(any(same_number(d, r) for r in real) for d in distractors)
    assert "误用" not in written.draft.explanation and "总价当作贷款本金" in written.draft.explanation
    # the annual rate taken as the monthly one gives a figure many times the key: an examiner strikes it (D3)
    assert max(distractors) < 8 * key
    assert f"期限{args['years']}年" in written.draft.stem and "等额本息" in written.draft.stem
    assert same_number(written.calculation.value, key)


def test_the_borrower_applies_for_the_loan_the_worked_example_is_about() -> None:
    """A provident-fund rate told with a bank loan is a case no examiner signs: the loan is the example's."""
    bank = _write(LOAN_SLICE, LOAN, seed=3)
    assert "向银行申请商业性个人住房贷款" in bank.draft.stem and "公积金" not in bank.draft.stem
    example = "【例】首套住房公积金贷款80万元，年利率2.6%，期限25年，等额本息。"
    fund = _write(LOAN_SLICE, dataclasses.replace(LOAN, source=example), seed=3)
    assert "申请住房公积金贷款" in fund.draft.stem and "银行" not in fund.draft.stem


def test_same_seed_same_question_and_other_seeds_other_people_and_figures() -> None:
    first = _write(DEED_SLICE, DEED, seed=5).draft
    assert _write(DEED_SLICE, DEED, seed=5).draft == first
    others = [_write(DEED_SLICE, DEED, seed=seed).draft for seed in range(6, 12)]
    assert len({o.stem for o in [first, *others]}) > 4
    assert len({re.match(r".{0,12}?，(.)", o.stem).group(1) for o in [first, *others]}) > 1  # surnames
    assert len({o.options[0] for o in [first, *others]}) > 3


def test_flexible_calculations_name_clients_strict_ones_use_plain_names() -> None:
    strict = _write(DEED_SLICE, DEED, mode="strict", seed=2).draft.stem
    flexible = _write(DEED_SLICE, DEED, mode="flexible", seed=2).draft.stem
    assert re.search(r"[\u4e00-\u9fff]某", strict)
    assert re.search(r"先生|女士", flexible)


def test_judges_state_the_key_or_one_real_mistakes_result() -> None:
    seen = set()
    for seed in range(20):
        written = _write(DEED_SLICE, DEED, qtype="judge", seed=seed)
        draft = written.draft
        assert draft.options == ["正确", "错误"] and draft.stem.endswith("。（　）")
        stated = numbers_in(draft.stem.rpartition("契税为")[2])[0]
        key = _key(written)
        if draft.answer == "A":
            assert same_number(stated, key)
        else:
            assert any(same_number(stated, m) for m in _deed_mistakes(written.calculation.args))
            assert not same_number(stated, key)
        seen.add(draft.answer)
    assert seen == {"A", "B"}


def test_declines_when_fewer_than_three_real_mistakes_exist() -> None:
    slice_ = Slice(
        id="s-pf", path=("第五篇 贷款", "第十一章 公积金", "一、额度"), mastery="掌握", text="按余额计算。"
    )
    fund = Fact(
        id="f-pf",
        kind="example",
        slice_id="s-pf",
        source="【例】账户余额6万元，按15倍计算，可贷90万元。",
        calculator="provident_fund_loan",
        args={"balance_applicant": 60_000, "multiple": 15, "year_coefficient": 1},
        expected={"loan": 900_000.0},
    )
    recipe = CalculationRecipe()
    assert recipe.write(fund, _brief(slice_, fund, "single")) is None
    assert recipe.write(fund, _brief(slice_, fund, "judge")) is None  # not one real mistake either
    stamp = Fact(
        id="f-stamp",
        kind="example",
        slice_id="s-pf",
        source="【例】个人买卖住房免征印花税。",
        calculator="stamp_duty",
        args={"price": 3_000_000, "individual_housing": True},
    )
    assert recipe.write(stamp, _brief(slice_, stamp, "single")) is None
    prose = Fact(id="f-prose", kind="example", slice_id="s-pf", source="【例】某人贷款买房。")
    assert recipe.write(prose, _brief(slice_, prose, "single")) is None


def test_most_calculation_slices_of_the_bundled_kb_yield_a_question_that_passes_the_checks() -> None:
    from retrieval.compiler import compile_kb
    from retrieval.kb import load_kb

    slices = load_kb(ROOT / "data" / "knowledge_base.jsonl").slices
    base = compile_kb(slices)
    recompute = lambda c: float(calc.run(c.calculator, c.args)[c.field])  # noqa: E731
    asked = passed = 0
    for slice_ in slices:
        examples = [f for f in base.of_slice(slice_.id, "example") if f.calculator]
        if not examples:
            continue
        asked += 1
        task = Task(slice=slice_, qtype="single", mode="strict", seed=1, facts=base)
        for fact in examples:
            written = CalculationRecipe().write(fact, Brief(task=task, facts=base, rng=random.Random(1)))
            if written is None:
                continue
            authored = {
                "draft": written.draft.model_dump(),
                "qtype": written.qtype,
                "calculation": written.calculation.model_dump(),
            }
            question = write_question(authored, slice_, "strict")
            assert run_checks(question, "single", recompute=recompute) == [], question.stem
            passed += 1
            break
    assert asked >= 40
    assert passed / asked > 0.6


@pytest.mark.parametrize("seed", SEEDS)
def test_a_loan_is_told_as_the_purchase_it_pays_for(seed: int) -> None:
    """Examiners strike "某某贷款X万元，求月供" as a formula with a name (D9): the buyer buys a house, pays
    part down and borrows the rest, and the figures add up."""
    written = _write(LOAN_SLICE, LOAN, mode="strict", seed=seed)
    stem, principal = written.draft.stem, written.calculation.args["principal"]
    told = re.search(r"总价([\d.]+)万元的存量住房，首付([\d.]+)万元，其余([\d.]+)万元向银行申请", stem)
    assert told is not None
    price, down, rest = (float(g) * 10_000 for g in told.groups())
    assert same_number(rest, principal) and same_number(price, down + rest)
    assert 0.25 <= down / price <= 0.45


@pytest.mark.parametrize("seed", SEEDS)
def test_a_flexible_loan_leaves_the_sum_borrowed_to_work_out_from_the_price_and_down_payment_share(
    seed: int,
) -> None:
    """Examiners struck 灵活 loan questions that were the 严谨 frame with a name: the 灵活 case tells the
    down payment as a share of the price, so the learner works out the sum borrowed before the payment."""
    written = _write(LOAN_SLICE, LOAN, mode="flexible", seed=seed)
    stem, principal = written.draft.stem, written.calculation.args["principal"]
    told = re.search(r"总价([\d.]+)万元的存量住房，按(三成|四成|35%)的比例支付首付款，其余向银行申请", stem)
    assert told is not None, stem
    price = float(told.group(1)) * 10_000
    share = {"三成": 0.3, "四成": 0.4, "35%": 0.35}[told.group(2)]
    assert same_number(principal, price * (1 - share))
    assert yuan(principal) not in stem and money(principal) not in stem
    analysis = explanation_parts(written.draft.explanation)["试题分析"]
    assert analysis.startswith(f"贷款本金P=总价×(1−首付款比例)={yuan(price)}×(1−{round(share * 100):g}%)")


def test_a_first_month_payment_explains_its_formula() -> None:
    args = {"principal": 1_000_000.0, "years": 20, "annual_rate": 0.031}
    result = calc.run("equal_principal", args)
    working = TELLINGS["equal_principal"].working(Case(args), result, "first_month")
    assert working.startswith("首月还款额=贷款本金÷还款月数+贷款本金×月利率")
    assert "4,166.67元" in working and "2,583.33元" in working and "首月还款额=6,750元" in working


def test_total_interest_says_the_payment_is_not_rounded_and_its_equation_holds() -> None:
    """Examiners struck 等额本息 interest stated to the fen without saying whether the monthly payment was
    rounded (D2: rounded, the total differs), and an equation that does not hold with the numbers it shows."""
    telling = TELLINGS["equal_installment"]
    args = {"principal": 1_000_000.0, "years": 20, "annual_rate": 0.0305}
    result = calc.run("equal_installment", args)
    assert "未取整" in telling.ask(Case(args), Names(buyer="孙先生", seller="周女士"), "total_interest")
    working = telling.working(Case(args), result, "total_interest")
    shown = re.search(r"240×([\d.]+)−1,000,000", working)
    assert shown is not None
    assert abs(240 * float(shown.group(1)) - 1_000_000 - result["total_interest"]) < 0.05


def test_the_explanation_quotes_the_formula_of_the_figure_asked_and_of_the_sale_year(compiled_sample):
    """Examiners struck a VAT question quoting the surcharge formula, a 2023 sale quoting "÷1.03" and a
    plot ratio quoting "容积率 = 建筑密度 × 层数": the 教材原文 must be the rule the question computes."""
    facts, slices = compiled_sample
    quoted: dict[str, list[tuple[str, float, str]]] = {"vat": [], "ratio": []}
    for fact in facts:
        if fact.kind != "example" or fact.calculator not in ("resale_vat", "plot_ratio"):
            continue
        for seed in range(4):
            for qtype, mode in (("single", "flexible"), ("judge", "flexible"), ("single", "strict")):
                task = Task(slice=slices[fact.slice_id], qtype=qtype, mode=mode, seed=seed, facts=facts)
                written = CalculationRecipe().write(
                    fact, Brief(task=task, facts=facts, rng=random.Random(seed))
                )
                if written is None or written.calculation is None:
                    continue
                basis = explanation_parts(written.draft.explanation)["教材原文"]
                if written.calculation.field in quoted:
                    quoted[written.calculation.field].append(
                        (written.draft.stem, written.calculation.value, basis)
                    )
    assert len(quoted["vat"]) >= 4 and len(quoted["ratio"]) >= 2, quoted
    for stem, key, basis in quoted["vat"]:
        assert "增值税" in basis and "附加税费 =" not in basis, basis
        if key == 0:  # an exempt sale: the exemption is the rule
            assert "= 0" in basis, (stem, basis)
            continue
        year = int(re.search(r"(\d{4})年", stem).group(1))
        rate, other = ("3%", "5%") if year >= 2026 else ("5%", "3%")
        assert rate in basis and other not in basis, (stem, basis)
    for stem, _, basis in quoted["ratio"]:  # 建筑密度 × 层数 is a rule only of a case told with its floors
        assert "容积率" in basis and ("建筑密度" not in basis or "层" in stem), basis


PLOT_SLICE = Slice(
    id="s-plot",
    path=("第一篇 房屋与土地", "第一章 房屋", "第三节 指标", "一、容积率"),
    mastery="掌握",
    text="容积率是地上总建筑面积与用地面积的比值，地下建筑面积不计入；建筑密度是建筑基底总面积与用地面积的比值。",
)
PLOT = Fact(
    id="f-plot",
    kind="example",
    slice_id="s-plot",
    source="【例】某小区用地面积40000平方米，地上总建筑面积100000平方米，容积率为2.5。",
    calculator="plot_ratio",
    args={"total_building_area": 100_000, "land_area": 40_000},
    expected={"ratio": 2.5},
)


@pytest.mark.parametrize("seed", SEEDS)
def test_each_distractors_reason_reads_as_one_clause_of_the_explanation(seed: int) -> None:
    """ "是误用建筑基底总面积计算，那是建筑密度的算法的结果" is two sentences glued by machine: every reason
    must read as one clause between 是 and 的结果."""
    for mode in ("strict", "flexible"):
        analysis = explanation_parts(_write(PLOT_SLICE, PLOT, mode=mode, seed=seed).draft.explanation)[
            "试题分析"
        ]
        reasons = re.findall(r"选项[A-D]（[^）]+）是([^；。]+)的结果", analysis)
        assert len(reasons) == 3, analysis
        assert all("，" not in reason and "那是" not in reason for reason in reasons), reasons
        assert "建筑基底总面积" in analysis  # the building-density mistake is still explained


def test_a_false_judge_never_states_nothing_owed_for_a_home_the_stem_says_was_held_briefly() -> None:
    """ "持有1年…应缴纳的增值税为0元" is false at a glance: a false statement must be worked out."""
    falses = 0
    for seed in range(30):
        draft = _write(VAT_SLICE, VAT, qtype="judge", mode="flexible", seed=seed).draft
        if draft.answer == "B":
            falses += 1
            assert not re.search(r"为0(?:\.00)?元。（　）$", draft.stem), draft.stem
    assert falses >= 5


DOWN_SLICE = Slice(
    id="s-down",
    path=("第五篇 贷款", "第十章 商业贷款", "第一节 首付", "二、最低首付款比例"),
    mastery="掌握",
    text="商业性个人住房贷款的最低首付款比例统一为15%，不再区分首套住房和第二套住房；此前首套住房为20%，第二套住房为25%。",
    formulas=("首付款 = 房屋成交价 × 首付款比例",),
)
DOWN = Fact(
    id="f-down",
    kind="example",
    slice_id="s-down",
    source="【例】客户看中一套总价300万元的住房，按最低首付款比例15%计算，首付款至少为45万元。",
    calculator="down_payment",
    args={"price": 3_000_000, "ratio": 0.15},
    expected={"down_payment": 450_000.0},
)


@pytest.mark.parametrize("seed", range(6))
def test_a_flexible_down_payment_leaves_the_minimum_ratio_to_the_learner_and_the_critic_reads_it(
    seed: int,
) -> None:
    """ "首付款比例为15%" in the stem leaves one multiplication (Q14/Q17): a 灵活 case says the buyer pays the
    least allowed, with a first or second home, and the critic's stem reader still recomputes the key."""
    written = _write(DOWN_SLICE, DOWN, mode="flexible", seed=seed)
    stem = written.draft.stem
    assert "15%" not in stem and "最低首付款比例" in stem and "家庭名下" in stem, stem
    question = write_question(
        {
            "draft": written.draft.model_dump(),
            "qtype": "single",
            "calculation": written.calculation.model_dump(),
        },
        DOWN_SLICE,
        "flexible",
    )
    assert check_stem_calculation(question, calc.run).issues == []
    assert "最低首付款比例为15%，不区分首套和二套住房" in written.draft.explanation
    assert "15%" in _write(DOWN_SLICE, DOWN, mode="strict", seed=seed).draft.stem


def test_a_distractor_is_worked_in_one_chain_and_rounded_once_as_the_key_is() -> None:
    """Examiners struck 166,761.91 offered for 3,502,000÷1.05×5%: rounding the base to the cent first put
    the option 0.01 元 off the mistake its explanation names."""
    telling = TELLINGS["resale_vat"]
    args = {"price": 3_502_000, "years_held": 1, "date": "2026-11-10", "urban_rate": 0.05}
    case = Case(args)
    key = calc.run("resale_vat", args)["vat"]
    wrongs = wrong_answers(telling, case, "vat", key, ())
    old_rate = [w.value for w in wrongs if "5%" in w.why]
    assert old_rate == [166_761.90]


def _example(calculator: str, args: dict, source: str, text: str, expected: dict) -> tuple[Slice, Fact]:
    piece = Slice(
        id=f"s-{calculator}",
        path=("第一篇 测算", "第一章 测算", "第一节 测算", "一、测算"),
        mastery="掌握",
        text=text,
    )
    fact = Fact(
        id=f"f-{calculator}",
        kind="example",
        slice_id=piece.id,
        source=source,
        calculator=calculator,
        args=args,
        expected=expected,
    )
    return piece, fact


def _wrong_values(written: Written) -> list[float]:
    draft = written.draft
    return [_value(o) for letter, o in zip("ABCD", draft.options, strict=True) if letter != draft.answer]


def test_a_flexible_request_gets_no_calculation_whose_story_decides_nothing() -> None:
    """A sum of the areas a record lists, or a down payment at a ratio the stem states, is the 严谨 frame
    with a name when asked as 灵活 (examiners struck Q76): it is declined, and kept for 严谨."""
    area = _example(
        "building_area",
        {"inner_area": 90, "shared_area": 20},
        "【例】套内建筑面积90平方米，分摊20平方米，建筑面积110平方米。",
        "建筑面积等于套内建筑面积加分摊的共有建筑面积。",
        {"area": 110},
    )
    down = _example(
        "down_payment",
        {"price": 4_000_000, "ratio": 0.3},
        "【例】吴某购买4,000,000元的住房，首付比例30%，首付款120万元。",
        "首付款等于成交价乘以首付比例。",
        {"down_payment": 1_200_000},
    )
    for piece, fact in (area, down):
        for qtype in ("single", "judge"):
            for seed in range(4):
                flexible = CalculationRecipe().write(fact, _brief(piece, fact, qtype, "flexible", seed))
                assert flexible is None
            assert CalculationRecipe().write(fact, _brief(piece, fact, "judge", "strict", 0)) is not None


@pytest.mark.parametrize("seed", range(6))
def test_a_flexible_plot_ratio_tells_the_floors_and_leaves_the_above_ground_area_to_work_out(
    seed: int,
) -> None:
    written = _write(PLOT_SLICE, PLOT, mode="flexible", seed=seed)
    args = written.calculation.args
    stem = written.draft.stem
    floors = int(re.search(r"地上均为(\d+)层", stem).group(1))
    footprint = float(re.search(r"建筑基底总面积为(\d+)平方米", stem).group(1))
    assert same_number(footprint * floors, args["total_building_area"])
    assert f"{args['total_building_area']:g}平方米" not in stem
    assert f"={footprint:g}×{floors}={args['total_building_area']:g}平方米" in written.draft.explanation
    strict = _write(PLOT_SLICE, PLOT, mode="strict", seed=seed).draft.stem
    assert "地上总建筑面积为" in strict and "层" not in strict


LOAN_AMOUNT = _example(
    "loan_amount",
    {"appraised_value": 3_000_000, "loan_ratio": 0.8},
    "【例】某住房成交价3,200,000元，评估价3,000,000元，贷款成数80%，可贷2,400,000元。",
    "贷款额以评估价与成交价中的较低者乘以贷款成数。最低首付款比例15%对应的最高贷款成数为八五成（85%）。"
    "月还款额一般不超过月收入的50%。",
    {"loan": 2_400_000},
)


@pytest.mark.parametrize("seed", range(6))
def test_a_loan_limit_never_offers_the_stated_ratio_read_as_the_down_payment(seed: int) -> None:
    """Examiners struck 八成 read as 20% (sample-2 Q62) as no mistake anyone makes: the distractors are the
    higher price as the base and the section's other loan ratio (八五成), never 20% or the 50% of income."""
    piece, fact = LOAN_AMOUNT
    written = _write(piece, fact, mode="flexible", seed=seed)
    args = written.calculation.args
    deal, appraisal = (
        float(v) * 10_000
        for v in re.search(
            r"成交价为([\d.]+)万元，银行认可的评估价为([\d.]+)万元", written.draft.stem
        ).groups()
    )
    lower, higher = min(deal, appraisal), max(deal, appraisal)
    real = {lower * 0.85, higher * 0.8, higher * 0.85}
    assert all(any(same_number(v, r) for r in real) for v in _wrong_values(written)), written.draft.options
    assert same_number(written.calculation.value, lower * args["loan_ratio"])
    assert "首付比例当作" not in written.draft.explanation


def test_a_house_age_distractor_is_never_older_than_the_land_it_stands_on() -> None:
    """ "52年" for a house built in 2010 (sample-2 Q58) is impossible at a glance: no distractor exceeds
    the years since the land was granted."""
    piece, fact = _example(
        "house_age",
        {"completion_year": 2005, "year": 2026},
        "【例】某住房2005年竣工，2026年交易，房龄为21年。",
        "房龄等于交易年份减去竣工年份。",
        {"age": 21},
    )
    for seed in range(12):
        written = _write(piece, fact, mode="flexible", seed=seed)
        granted = int(re.search(r"于(\d{4})年出让", written.draft.stem).group(1))
        year = written.calculation.args["year"]
        assert all(v <= year - granted for v in _wrong_values(written)), written.draft.options


def test_a_provident_fund_limit_states_the_home_bought_and_asks_for_both_spouses() -> None:
    """sample-2 Q55: a limit judged without the house price and down payment, and 夫妻共同申请 asked as
    许女士可申请: every input the answer depends on is stated, and the couple is asked about."""
    piece, fact = _example(
        "provident_fund_loan",
        {
            "balance_applicant": 100_000,
            "balance_co_applicant": 80_000,
            "multiple": 15,
            "year_coefficient": 1,
            "cap": 1_200_000,
        },
        "【例】夫妻二人公积金余额共18万元，按15倍计算为270万元，超过最高额度120万元，可贷120万元。",
        "可贷额度为账户余额乘以倍数再乘以缴存年限系数，不得超过最高贷款额度，也不得超过房价扣除首付后的金额。",
        {"loan": 1_200_000},
    )
    for seed in range(4):
        written = _write(piece, fact, qtype="judge", mode="flexible", seed=seed)
        stem = written.draft.stem
        told = re.search(r"所购住房总价([\d.]+)万元，首付([\d.]+)万元", stem)
        assert told is not None, stem
        price, down = (float(v) * 10_000 for v in told.groups())
        args = written.calculation.args
        raw = (args["balance_applicant"] + args["balance_co_applicant"]) * args["multiple"]
        assert price - down > raw  # the price never binds, and the explanation says so
        assert "房价扣除首付后为" in written.draft.explanation and "不构成限制" in written.draft.explanation
        assert "夫妇可申请的公积金贷款额度为" in stem


def test_down_payment_distractors_are_ratios_the_textbook_gives_for_a_down_payment() -> None:
    """sample-1 Q14: 50% and 55% are no down payment ratio at all (the 50% is a repayment-to-income limit);
    the distractors are the former 20% and 25% the section gives."""
    text = DOWN_SLICE.text + "银行审贷时，月还款额一般不超过月收入的50%，个别银行放宽至55%。"
    piece = dataclasses.replace(DOWN_SLICE, text=text)
    assert quoted_rates(piece, TELLINGS["down_payment"].quoted_about) == (0.15, 0.2, 0.25)
    for seed in range(6):
        written = _write(piece, DOWN, mode="flexible", seed=seed)
        price = written.calculation.args["price"]
        ratios = {round(v / price, 4) for v in _wrong_values(written)}
        assert ratios <= {0.2, 0.25, 0.85}, ratios


def test_a_shops_registration_fee_does_not_quote_the_housing_fee() -> None:
    """sample-1 Q30 quoted 住宅登记费 = 80元/件 for a shop's 550元: a fixed charge is quoted only for a case
    charged it."""
    piece, fact = _example(
        "registration_fee",
        {"residential": False, "extra_certificates": 1},
        "【例】某商铺两人共有，加发一本证书，登记费550+10=560元。",
        "非住宅类不动产登记费按件收取550元，每加发一本证书收取工本费10元。",
        {"fee": 560},
    )
    housing = Fact(id="f-fee", kind="statement", slice_id=piece.id, source="住宅登记费 = 80元/件。")
    base = FactBase([fact, housing], chapters={piece.id: piece.chapter})
    for seed in range(4):
        task = Task(slice=piece, qtype="judge", mode="strict", seed=seed, facts=base)
        written = CalculationRecipe().write(fact, Brief(task=task, facts=base, rng=random.Random(seed)))
        assert written is not None
        basis = explanation_parts(written.draft.explanation)["教材原文"]
        assert "80元" not in basis and "550" in basis, basis


def test_a_costs_total_shows_how_each_tax_is_worked_from_the_case() -> None:
    """sample-1 Q45 listed only results: the working shows 206万÷1.03, 150㎡ against 140㎡ → 1.5%, the
    surcharges at (7%+3%+2%)×50% and the income tax's base and rate."""
    args = {
        "price": 2_060_000,
        "years_held": 1.5,
        "area": 150,
        "home_order": 1,
        "only_home": False,
        "date": "2026-01-15",
        "urban_rate": 0.07,
    }
    result = calc.run("transaction_costs", args)
    working = TELLINGS["transaction_costs"].working(Case(args), result, "total")
    for shown in (
        "2,060,000÷(1+3%)=2,000,000元",
        "150平方米超过140平方米，适用税率1.5%",
        "60,000×(7%+3%+2%)×50%=3,600元",
        "2,000,000×1%=20,000元",
        "=113,680元",
    ):
        assert shown in working, working


@pytest.mark.parametrize("seed", range(6))
def test_the_critic_reads_the_sum_borrowed_from_the_price_and_the_down_payment_share(seed: int) -> None:
    """A 灵活 loan states no sum borrowed: the critic's stem reader works it out as the learner does, so a
    true statement is signed and a stated interest is not misread as the principal."""
    written = _write(LOAN_SLICE, LOAN, qtype="judge", mode="flexible", seed=seed)
    question = write_question(
        {
            "draft": written.draft.model_dump(),
            "qtype": "judge",
            "calculation": written.calculation.model_dump(),
        },
        LOAN_SLICE,
        "flexible",
    )
    assert check_stem_calculation(question, calc.run).issues == [], question.stem
