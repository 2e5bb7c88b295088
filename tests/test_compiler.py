"""The knowledge compiler: prose, tables and worked examples turned into the typed facts questions are
written from. Each fixture is a small slice of textbook-style prose written for these tests."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from calc import run
from retrieval.compiler import compile_kb, compile_slice, summarise
from retrieval.facts import Fact
from retrieval.kb import load_kb
from retrieval.models import CalcExample, KeyParam, Slice

DATA = Path(__file__).resolve().parent.parent / "data"
CHAPTER = ("第一篇 交易基础", "第二章 权利")


def make_slice(text: str, key: str = "a", section: str = "第一节 示例", **fields) -> Slice:
    path = (*CHAPTER, section, f"一、{key}")
    return Slice(id=f"s{key}", path=path, mastery="掌握", text=text, **fields)


def of_kind(facts: list[Fact], kind: str) -> list[Fact]:
    return [fact for fact in facts if fact.kind == kind]


def one(facts: list[Fact], **fields) -> Fact:
    found = [f for f in facts if all(getattr(f, name) == value for name, value in fields.items())]
    assert len(found) == 1, (fields, [(f.kind, f.subject, f.value_text, f.condition) for f in facts])
    return found[0]


# ---------------------------------------------------------------- enumerations


def test_numbered_list_keeps_items_with_commas_whole_and_names_its_head() -> None:
    text = (
        "有下列情形之一的，当事人应当申请注销备案：（1）买卖双方经协商，决定解除合同的；"
        "（2）合同被法院判决撤销的；（3）其他依法应当注销的情形。"
    )
    fact = one(compile_slice(make_slice(text)), kind="enumeration")
    assert fact.subject == "当事人应当申请注销备案的情形"
    assert fact.items == ("买卖双方经协商，决定解除合同的", "合同被法院判决撤销的", "其他依法应当注销的情形")
    assert fact.source == text


def test_who_has_one_of_the_listed_cases_stays_in_the_head() -> None:
    """Without 职工 the head reads "可以提取…的情形": no stem can say whose cases they are."""
    text = "职工有下列情形之一的，可以提取住房公积金：（1）出境定居的；（2）离休的；（3）退休的。"
    fact = one(compile_slice(make_slice(text)), kind="enumeration")
    assert fact.subject == "职工可以提取住房公积金的情形"


def test_list_on_lines_of_its_own_stays_with_its_head() -> None:
    text = (
        "买方办理过户时应提交以下材料：\n1. 身份证明；\n2. 买卖合同；\n3. 完税凭证。\n"
        "材料不全的，登记机构不予受理。"
    )
    facts = compile_slice(make_slice(text))
    fact = one(facts, kind="enumeration")
    assert fact.subject == "买方办理过户时应提交的材料"
    assert fact.items == ("身份证明", "买卖合同", "完税凭证")
    assert "材料不全" not in fact.source


def test_circled_items_with_titles_become_items_and_meanings() -> None:
    text = (
        "抵押登记分为以下几种：①一般抵押：为特定债权设立的抵押。"
        "②最高额抵押：为一定期间内连续发生的债权设立的抵押。"
    )
    facts = compile_slice(make_slice(text))
    listing = one(facts, kind="enumeration")
    assert listing.items == ("一般抵押", "最高额抵押")
    meaning = one(
        facts, kind="definition", subject="最高额抵押", category="为一定期间内连续发生的债权设立的抵押"
    )
    assert meaning.source == text


def test_classification_gives_each_class_its_category_and_siblings() -> None:
    text = "房屋按建筑结构可分为：木结构、砖混结构、钢筋混凝土结构和钢结构。"
    facts = compile_slice(make_slice(text))
    listing = one(facts, kind="enumeration")
    assert listing.items == ("木结构", "砖混结构", "钢筋混凝土结构", "钢结构")
    classes = of_kind(facts, "definition")
    assert {c.subject for c in classes} == set(listing.items)
    steel = one(classes, subject="钢结构")
    assert steel.category == "按建筑结构划分的房屋"
    assert set(steel.siblings) == {"木结构", "砖混结构", "钢筋混凝土结构"}


def test_list_of_names_after_shi_drops_the_count_and_shares_the_owner() -> None:
    text = "遗产的第一顺序承受人是配偶、子女、父母三类，第二顺序是兄弟姐妹、祖父母、外祖父母。"
    first, second = of_kind(compile_slice(make_slice(text)), "enumeration")
    assert (first.subject, first.items) == ("遗产的第一顺序承受人", ("配偶", "子女", "父母"))
    assert (second.subject, second.items) == ("遗产的第二顺序承受人", ("兄弟姐妹", "祖父母", "外祖父母"))


def test_a_phrase_with_commas_is_no_list() -> None:
    text = "建筑结构是指由基础、墙、柱、梁、板等承重构件组成的受力体系。银行会审核借款人的收入、征信和负债。"
    assert not of_kind(compile_slice(make_slice(text)), "enumeration")


def test_sibling_lists_of_a_chapter_are_linked_across_slices() -> None:
    first = make_slice("法定继承的第一顺序是配偶、子女、父母。", key="a")
    second = make_slice("法定继承的第二顺序是兄弟姐妹、祖父母、外祖父母。", key="b", section="第二节 其他")
    other_chapter = Slice(
        id="sc",
        path=("第二篇 税费", "第三章 契税", "第一节 x", "一、x"),
        mastery="熟悉",
        text="契税的纳税人包括买方、受赠人和互换一方。",
    )
    base = compile_kb([first, second, other_chapter])
    [one_list] = base.of_slice("sa", "enumeration")
    [two_list] = base.of_slice("sb", "enumeration")
    [tax_list] = base.of_slice("sc", "enumeration")
    assert two_list.id in one_list.related and one_list.id in two_list.related
    assert tax_list.id not in one_list.related
    assert base.related(one_list) == [two_list]


# ---------------------------------------------------------------- thresholds


def test_each_value_takes_the_subject_of_its_own_clause() -> None:
    text = "个人住房贷款的首付比例不低于20%，贷款期限最长不超过30年，借款人年龄与贷款期限之和不超过70岁。"
    facts = of_kind(compile_slice(make_slice(text)), "threshold")
    assert [(f.subject, f.comparator, f.value_text) for f in facts] == [
        ("个人住房贷款的首付比例", "不低于", "20%"),
        ("贷款期限", "不超过", "30年"),
        ("借款人年龄与贷款期限之和", "不超过", "70岁"),
    ]
    assert facts[1].value == 30 and facts[1].unit == "年"


def test_inclusive_bands_keep_their_own_condition_and_the_shared_topic() -> None:
    text = (
        "自2025年1月1日起，个人购买家庭唯一住房，面积为120平方米及以下的，契税减按1%征收；"
        "面积为120平方米以上的，减按1.5%征收。"
    )
    low, high = of_kind(compile_slice(make_slice(text)), "threshold")
    assert (low.subject, low.value_text, high.value_text) == ("契税", "1%", "1.5%")
    assert low.condition == "自2025年1月1日起，个人购买家庭唯一住房，面积为120平方米及以下"
    assert high.condition == "自2025年1月1日起，个人购买家庭唯一住房，面积为120平方米以上"
    assert "1.5%" in low.siblings and "1%" in high.siblings


def test_a_band_inside_a_clause_is_the_condition_of_the_value_after_it() -> None:
    text = "首套住房90平方米及以下按1%、90平方米以上按1.5%征收。"
    low, high = of_kind(compile_slice(make_slice(text)), "threshold")
    assert (low.subject, low.condition, low.value_text) == ("首套住房", "90平方米及以下", "1%")
    assert (high.subject, high.condition, high.value_text) == ("首套住房", "90平方米以上", "1.5%")
    assert all(f.unit == "%" for f in (low, high))


def test_five_years_and_only_home_stay_together_in_the_condition() -> None:
    text = "个人转让住房满五年且为家庭唯一住房的，免征个人所得税。"
    fact = one(compile_slice(make_slice(text)), kind="threshold")
    assert (fact.subject, fact.comparator, fact.value, fact.unit) == ("免征个人所得税", "满", 5.0, "年")
    assert fact.value_text == "五年"
    assert fact.condition == "个人转让住房满五年且为家庭唯一住房"


def test_holding_two_years_or_more_counts_the_bound_as_written() -> None:
    text = "个人将购买2年以上（含2年）的住房对外销售的，免征增值税。"
    fact = one(compile_slice(make_slice(text)), kind="threshold")
    assert (fact.comparator, fact.value_text) == ("以上", "2年")
    assert "（含2年）" in fact.condition


def test_parallel_clause_swaps_only_the_part_that_differs() -> None:
    text = "首套住房公积金贷款的最低首付比例为20%、二套为30%。"
    first, second = of_kind(compile_slice(make_slice(text)), "threshold")
    assert first.subject == "首套住房公积金贷款的最低首付比例"
    assert (second.subject, second.value_text) == ("二套住房公积金贷款的最低首付比例", "30%")


def test_deadline_bounds_the_act_from_its_start() -> None:
    text = "登记机构应当自受理申请之日起20个工作日内办结登记。"
    fact = one(compile_slice(make_slice(text)), kind="threshold")
    assert (fact.subject, fact.comparator, fact.value_text) == ("登记机构办结登记", "不超过", "20个工作日")
    assert fact.condition == "自受理申请之日起"
    assert not of_kind(compile_slice(make_slice(text)), "modal")  # the deadline is the rule


def test_share_of_a_base_names_the_base() -> None:
    text = "银行一般要求借款人的月还款额不超过月收入的50%。"
    fact = one(compile_slice(make_slice(text)), kind="threshold")
    assert (fact.subject, fact.comparator, fact.value_text) == (
        "借款人的月还款额占月收入的比例",
        "不超过",
        "50%",
    )


def test_dates_ordinals_and_worked_figures_are_no_thresholds() -> None:
    text = (
        "2024年12月1日起执行新标准。第二套住房另行认定。"
        "例如，王某购买总价300万元的住房，契税为3万元。增值税=成交价÷1.03×3%。"
    )
    facts = compile_slice(make_slice(text))
    assert not of_kind(facts, "threshold")
    assert one(facts, kind="example").value_text == "3万元"


# ---------------------------------------------------------------- modal rules


def test_modals_are_canonical_and_carry_their_condition() -> None:
    text = (
        "签约时经纪人员应逐条讲解合同条款，但不得代替当事人签字。"
        "查封登记依嘱托办理，不需要当事人申请。"
        "购房人为二套住房的，须提供家庭住房查询证明。"
    )
    facts = of_kind(compile_slice(make_slice(text)), "modal")
    explain = one(facts, modal="应当")
    assert (explain.subject, explain.consequence, explain.condition) == (
        "经纪人员",
        "逐条讲解合同条款",
        "签约时",
    )
    sign = one(facts, modal="不得")
    assert (sign.subject, sign.consequence) == ("经纪人员", "代替当事人签字")
    apply = one(facts, modal="无需")
    assert (apply.subject, apply.consequence) == ("查封登记", "当事人申请")
    proof = one(facts, modal="必须")
    assert proof.condition == "购房人为二套住房" and proof.consequence == "提供家庭住房查询证明"


def test_a_modal_inside_a_condition_or_a_noun_phrase_states_no_rule() -> None:
    text = (
        "卖方不能提供原值凭证的，税务机关核定征收个人所得税。职业道德是经纪人员在执业中应当遵循的行为准则。"
    )
    assert not of_kind(compile_slice(make_slice(text)), "modal")


def test_a_modal_whose_object_or_party_is_said_elsewhere_states_no_rule() -> None:
    """ "应当公示下列内容" and "同样须标明" point at the passage around them: as a question they read as
    fragments; the checkable rule beside them is kept."""
    text = (
        "经纪机构应当在经营场所醒目位置公示下列内容。下列人员不能作为遗嘱见证人。"
        "平台上展示的房源同样须标明房源核验信息。经纪人员不得代替当事人签字。"
    )
    facts = of_kind(compile_slice(make_slice(text)), "modal")
    assert [(f.subject, f.consequence) for f in facts] == [("经纪人员", "代替当事人签字")]


def test_alternative_conditions_are_dropped_together_by_a_later_rule() -> None:
    text = (
        "经纪机构未完成约定事项，或者服务未达到约定标准的，不得收取佣金；"
        "两家机构合作完成同一业务的，不得向委托人重复收费。"
    )
    first, second = of_kind(compile_slice(make_slice(text)), "modal")
    assert first.condition == "经纪机构未完成约定事项，或者服务未达到约定标准"
    assert second.condition == "两家机构合作完成同一业务"


# ---------------------------------------------------------------- definitions


def test_definitions_run_past_a_comma_only_until_the_meaning_is_whole() -> None:
    text = (
        "定金是当事人为担保债务履行，由一方预先向对方给付的一定数额的金钱。"
        "居间是经纪机构向委托人报告订立合同的机会的服务，它不以任何一方的名义交易。"
        "兄弟姐妹属于第二顺序法定继承人。"
    )
    facts = of_kind(compile_slice(make_slice(text)), "definition")
    assert one(facts, subject="定金").category == "当事人为担保债务履行，由一方预先向对方给付的一定数额的金钱"
    assert one(facts, subject="居间").category == "经纪机构向委托人报告订立合同的机会的服务"
    assert one(facts, subject="兄弟姐妹").category == "第二顺序法定继承人"


def test_pronouns_and_questions_define_nothing() -> None:
    text = "这是两者的根本区别。判断首套还是二套，看的是家庭名下的住房套数。"
    assert not of_kind(compile_slice(make_slice(text)), "definition")


# ---------------------------------------------------------------- tables

RATE_TABLE = (
    "| 家庭住房套数 | 建筑面积 | 契税税率 |\n|---|---|---|\n"
    "| 首套 | 120㎡及以下 | 1% |\n| 首套 | 120㎡以上 | 1.5% |\n| 第三套及以上 | 不区分 | 3% |"
)


def test_table_rows_link_to_each_other_and_take_siblings_from_their_column() -> None:
    facts = compile_slice(make_slice("契税按下表执行。", tables=(RATE_TABLE,)))
    rows = of_kind(facts, "table_row")
    assert [r.subject for r in rows] == ["首套", "首套", "第三套及以上"]
    assert rows[0].header == ("家庭住房套数", "建筑面积", "契税税率")
    assert rows[0].items == ("首套", "120㎡及以下", "1%")
    assert set(rows[0].related) == {rows[1].id, rows[2].id}
    assert rows[0].siblings == ("1.5%", "3%")
    assert rows[0].source == "| 首套 | 120㎡及以下 | 1% |"


def test_value_column_cells_are_thresholds_under_their_row() -> None:
    facts = compile_slice(make_slice("契税按下表执行。", tables=(RATE_TABLE,)))
    fact = one(facts, kind="threshold", value_text="1.5%")
    assert fact.subject == "契税税率"
    assert fact.condition == "家庭住房套数为首套，建筑面积为120㎡以上"
    assert set(fact.siblings) == {"1%", "3%"}


def test_a_numbered_table_is_a_list_and_a_header_unit_types_bare_numbers() -> None:
    numbered = "| 序号 | 不得转让的情形 |\n|---|---|\n| 1 | 权属有争议的 |\n| 2 | 未依法登记的 |"
    years = "| 土地用途 | 出让最高年限（年） |\n|---|---|\n| 居住用地 | 70 |\n| 商业用地 | 40 |"
    text = "说明见下表。\n| 付款方式 | 特点 |\n|---|---|\n| 一次性付款 | 总价可优惠 |\n| 贷款 | 需审批 |"
    facts = compile_slice(make_slice(text, tables=(numbered, years)))
    listing = one(facts, kind="enumeration")
    assert (listing.subject, listing.items) == ("不得转让的情形", ("权属有争议的", "未依法登记的"))
    assert one(facts, kind="table_row", subject="权属有争议的").items == ("1", "权属有争议的")
    residential = one(facts, kind="threshold", value=70.0)
    assert (residential.subject, residential.unit, residential.value_text) == (
        "居住用地的出让最高年限",
        "年",
        "70",
    )
    assert one(facts, kind="table_row", subject="一次性付款").source == "| 一次性付款 | 总价可优惠 |"


# ---------------------------------------------------------------- worked examples


def test_calc_example_is_kept_only_when_the_calculator_reproduces_it() -> None:
    args = {"green_area": 6000, "land_area": 20000}
    good = CalcExample("green_rate", args, run("green_rate", args))
    wrong = CalcExample("green_rate", args, {"rate": 0.5})
    example = "【例】某小区用地20,000平方米，绿地6,000平方米，绿地率 = 6,000 ÷ 20,000 = 30%。"
    facts = compile_slice(
        make_slice("绿地率是绿地面积与用地面积之比。", examples=(example,), calc_examples=(good,))
    )
    bound = one(facts, kind="example")
    assert (bound.calculator, bound.args, bound.value_text) == ("green_rate", args, "30%")
    assert bound.subject == "某小区用地20,000平方米，绿地6,000平方米"
    facts = compile_slice(
        make_slice("绿地率是绿地面积与用地面积之比。", examples=(example,), calc_examples=(wrong,))
    )
    assert one(facts, kind="example").calculator == ""


def test_prose_example_in_the_text_is_read_and_recomputed() -> None:
    text = (
        "计算时先确定适用税率。\n"
        "【例】2026年3月，刘某家庭首次购买一套住房，建筑面积100平方米，不含增值税成交价2,000,000元。"
        "【解】适用税率1%，应缴契税 = 2,000,000 × 1% = 20,000元。"
    )
    facts = compile_slice(make_slice(text))
    example = one(facts, kind="example")
    assert example.value_text == "20,000元"
    assert example.subject.startswith("2026年3月，刘某家庭首次购买一套住房")
    assert example.calculator == "deed_tax"
    assert run(example.calculator, example.args)["tax"] == 20000
    assert not any("【例】" in f.source for f in facts if f.kind != "example")


def test_an_example_that_shows_a_mistake_states_the_right_result() -> None:
    text = (
        "【例】某区已购公房建筑面积50平方米。【解】土地出让金=50×1,500×1%=750（元）。"
        "若误用其他区的成本价，得600元。"
    )
    fact = one(compile_slice(make_slice("见例题。", examples=(text,))), kind="example")
    assert fact.value_text == "750元"


# ---------------------------------------------------------------- statements, curated, ids


def test_headings_and_signposts_are_no_statements() -> None:
    text = "一、契税的计税依据\n下面分别介绍各税种。\n契税由买方在办理转移登记前缴纳。"
    facts = compile_slice(make_slice(text))
    assert [f.source for f in facts] == ["契税由买方在办理转移登记前缴纳。"]
    assert facts[0].kind == "statement"


def test_a_key_param_that_restates_a_rule_is_one_fact() -> None:
    rule = "人民法院查封不动产的期限不得超过三年。"
    param = KeyParam("法院查封不动产的期限上限", 3.0, "年")
    facts = compile_slice(
        make_slice("查封期满可以续封。", rules=(rule, "查封期间不得办理转移登记。"), key_params=(param,))
    )
    curated = one(facts, kind="threshold", subject="法院查封不动产的期限上限")
    assert (curated.source, curated.value_text, curated.value) == (rule, "三年", 3.0)
    assert not [f for f in facts if f.kind == "statement" and f.source == rule]
    # a rule no key_param restates is read like prose: here a modal rule
    assert one(facts, kind="modal", modal="不得", source="查封期间不得办理转移登记。")


def test_rate_key_param_reads_as_a_percentage() -> None:
    rule = "个人转让住房按实际所得计征个人所得税的税率为20%。"
    facts = compile_slice(
        make_slice("税率见规定。", rules=(rule,), key_params=(KeyParam("个税税率", 0.2, "比例"),))
    )
    fact = one(facts, kind="threshold", subject="个税税率")
    assert (fact.value, fact.unit, fact.value_text) == (20.0, "%", "20%")


def test_ids_are_stable_and_every_source_is_verbatim() -> None:
    text = "按用途，土地分为居住用地、商业用地和工业用地。居住用地最长70年，商业用地40年。"
    slice_ = make_slice(
        text, tables=(RATE_TABLE,), formulas=("契税 = 计税依据 × 税率",), rules=("契税由买方缴纳。",)
    )
    first, second = compile_slice(slice_), compile_slice(slice_)
    assert [f.id for f in first] == [f"sa#{n}" for n in range(len(first))]
    assert first == second
    quoted = "\n".join((slice_.text, *slice_.tables, *slice_.formulas, *slice_.rules))
    assert all(fact.source in quoted and fact.slice_id == "sa" for fact in first)
    land = [f for f in first if f.kind == "threshold" and f.unit == "年"]
    assert [(f.subject, f.value_text, f.siblings) for f in land] == [
        ("居住用地", "70年", ("40年",)),
        ("商业用地", "40年", ("70年",)),
    ]


# ---------------------------------------------------------------- knowledge base, cache, summary


def test_cache_serves_the_same_content_and_recompiles_a_changed_one(tmp_path: Path, monkeypatch) -> None:
    slices = [make_slice("经纪人员不得代替当事人签字。")]
    first = compile_kb(slices, cache_dir=tmp_path)
    [cached] = list(tmp_path.glob("facts-*.pickle"))
    monkeypatch.setattr("retrieval.compiler.kb_facts.compile_slice", lambda s: pytest.fail("compiled again"))
    again = compile_kb(slices, cache_dir=tmp_path)
    assert list(again) == list(first)
    monkeypatch.undo()
    changed = compile_kb([make_slice("经纪人员应当代替当事人签字。")], cache_dir=tmp_path)
    assert [f.modal for f in changed] == ["应当"]
    assert len(list(tmp_path.glob("facts-*.pickle"))) == 2 and cached.exists()


def test_a_corrupt_cache_file_is_ignored_and_rewritten(tmp_path: Path) -> None:
    slices = [make_slice("经纪人员不得代替当事人签字。")]
    compile_kb(slices, cache_dir=tmp_path)
    [cached] = list(tmp_path.glob("facts-*.pickle"))
    cached.write_bytes(b"\x80\x05 not a pickle")
    facts = list(compile_kb(slices, cache_dir=tmp_path))
    assert [f.modal for f in facts] == ["不得"]
    assert pickle.loads(cached.read_bytes()) == facts
    cached.write_bytes(pickle.dumps(["not", "facts"]))
    assert list(compile_kb(slices, cache_dir=tmp_path)) == facts


def test_summary_counts_kinds_and_lists_slices_without_facts() -> None:
    slices = [make_slice("经纪人员不得代替当事人签字。", key="a"), make_slice("二、说明", key="b")]
    summary = summarise(compile_kb(slices), slices)
    assert summary.slices == 2 and summary.facts == 1
    assert summary.per_kind["modal"] == 1 and summary.per_kind["statement"] == 0
    assert summary.without_facts == (("sb", " > ".join(slices[1].path)),)
    assert summary.typed_share == 0.5


def test_bundled_knowledge_base_yields_typed_facts_for_nearly_every_slice() -> None:
    slices = load_kb(DATA / "knowledge_base.jsonl").slices
    base = compile_kb(slices)
    typed = {fact.slice_id for fact in base if fact.kind != "statement"}
    assert len(typed) >= 0.9 * len(slices)
    assert {fact.kind for fact in base} == {
        "enumeration",
        "threshold",
        "modal",
        "definition",
        "table_row",
        "example",
        "statement",
    }
    bound = [fact for fact in base if fact.kind == "example" and fact.calculator]
    assert bound and all(run(f.calculator, f.args).items() >= f.expected.items() for f in bound[:20])


def test_a_duty_after_a_list_items_label_is_no_rule_of_its_own() -> None:
    """ "（1）强制性，单位和职工无需按规定缴存" was struck as a fragment (D4); a condition opening an item
    ("（1）买方申请贷款的，…应当…") still makes a rule."""
    text = (
        "住房公积金具有以下特点：（1）强制性，单位和职工都应当按规定缴存；（2）互助性，缴存的资金用于发放贷款。"
        "经纪人员应当遵守下列规定：（1）买方申请贷款的，经纪人员应当提示贷款风险；（2）卖方应当结清物业费。"
    )
    modals = [f for f in compile_slice(make_slice(text)) if f.kind == "modal"]
    assert {f.consequence for f in modals} == {"提示贷款风险", "结清物业费"}


def test_a_rows_ordinal_names_no_case_and_a_bound_cell_follows_its_column() -> None:
    """ "级数为1，增值额占扣除项目金额的比例为未超过50%的部分的，税率为" was a table row pasted into a stem:
    the row's number names nothing, and a cell opening with its bound reads after its column without 为."""
    table = (
        "| 级数 | 增值额占扣除项目金额的比例 | 税率 |\n|---|---|---|\n"
        "| 1 | 未超过50%的部分 | 30% |\n| 2 | 超过50%、未超过100%的部分 | 40% |"
    )
    facts = of_kind(
        compile_slice(make_slice("土地增值税实行四级超率累进税率。", tables=(table,))), "threshold"
    )
    first = one(facts, value_text="30%")
    assert first.subject == "增值额占扣除项目金额的比例未超过50%的部分的税率" and first.condition == ""
    assert not any("级数" in f.subject or "级数" in f.condition for f in facts)
