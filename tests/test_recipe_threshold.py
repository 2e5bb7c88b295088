"""Threshold questions as an examiner reads them: number traps are values that occur beside the threshold
(40 / 50 / 70 years), never an edit of the right number; a false statement is false under any reading;
灵活 questions are a person's case whose figure meets or misses the condition."""

from __future__ import annotations

import random
import re

import pytest

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.threshold import RECIPE, bounds, case_value, concrete
from graph.checks import run_checks
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from tests.recipekit import bundled_questions

SLICE = Slice(id="s-land", path=("第一篇 土地", "第二章 土地使用权", "三、出让年限"), mastery="掌握", text="")


def _land(id_: str, use: str, years: int, siblings: tuple[str, ...] = ()) -> Fact:
    return Fact(
        id=id_,
        kind="threshold",
        slice_id=SLICE.id,
        source=f"{use}使用权出让的最高年限为{years}年。",
        subject=f"{use}使用权出让的最高年限",
        comparator="为",
        value=float(years),
        unit="年",
        value_text=f"{years}年",
        siblings=siblings,
    )


RESIDENTIAL = _land("t-home", "居住用地", 70, ("40年", "50年"))
LAND = [
    RESIDENTIAL,
    _land("t-shop", "商业、旅游、娱乐用地", 40),
    _land("t-works", "工业用地", 50),
    _land("t-school", "教育、科技、文化、卫生、体育用地", 50),
]


def _rate(id_: str, home: str, area: str, rate: str, siblings: tuple[str, ...] = ()) -> Fact:
    condition = f"{home}面积为{area}" if area else home
    return Fact(
        id=id_,
        kind="threshold",
        slice_id=SLICE.id,
        source=f"{condition}的，契税税率为{rate}。",
        subject="契税税率",
        comparator="为",
        value=float(rate.removesuffix("%")),
        unit="%",
        value_text=rate,
        condition=condition,
        siblings=siblings,
    )


SMALL = _rate("t-small", "家庭首套住房", "140平方米及以下", "1%", ("1.5%", "2%", "3%"))
LARGE = _rate("t-large", "家庭首套住房", "140平方米以上", "1.5%")
SECOND = _rate("t-second", "家庭第二套住房", "140平方米以上", "2%")
THIRD = _rate("t-third", "家庭第三套及以上住房", "", "3%")
RATES = [SMALL, LARGE, SECOND, THIRD]
HEIGHT = Fact(
    id="t-height",
    kind="threshold",
    slice_id=SLICE.id,
    source="卧室、起居室的室内净高不应低于2.40米。",
    subject="卧室、起居室的室内净高",
    comparator="不低于",
    value=2.4,
    unit="米",
    value_text="2.40米",
    siblings=("2.20米", "2.60米", "2.80米"),
)
# The slice's table stating the heights HEIGHT's siblings are: a distractor's value is one the book states.
HEIGHTS = Fact(
    id="r-heights", kind="table_row", slice_id=SLICE.id, source="| 厨房 | 2.20米 | 层高 | 2.60米 | 2.80米 |"
)
EXEMPT = Fact(
    id="t-exempt",
    kind="threshold",
    slice_id=SLICE.id,
    source="自2026年1月1日起，个人将购买2年以上（含2年）的住房对外销售的，免征增值税。",
    subject="免征增值税",
    comparator="以上",
    value=2.0,
    unit="年",
    value_text="2年",
    condition="个人将购买2年以上（含2年）的住房对外销售",
    siblings=("1年", "5年"),
)


def _write(fact: Fact, facts: list[Fact], qtype: str, mode: str = "strict", seed: int = 0) -> Written | None:
    task = Task(slice=SLICE, qtype=qtype, mode=mode, seed=seed, facts=FactBase(facts))
    return RECIPE.write(fact, Brief(task=task, facts=task.facts, rng=random.Random(seed)))


def _passes(written: Written, qtype: str, mode: str) -> list[str]:
    authored = {"draft": written.draft.model_dump(), "qtype": written.qtype, "fact_ids": written.fact_ids}
    return [issue.detail for issue in run_checks(write_question(authored, SLICE, mode), qtype)]


def _numbers(text: str) -> set[float]:
    return {float(n) for n in re.findall(r"\d+(?:\.\d+)?", text)}


def test_single_offers_the_sibling_values_in_order_and_names_whose_they_are():
    written = _write(LARGE, RATES, "single")
    assert written is not None
    draft = written.draft
    assert draft.stem.endswith("（　）。") and "1.5" not in draft.stem
    assert draft.options == ["1%", "1.5%", "2%", "3%"]  # the papers print numbers in order
    assert draft.options[ord(draft.answer) - 65] == "1.5%"
    analysis = draft.explanation.split("试题分析：")[1]
    assert "“2%”对应的是家庭第二套住房面积为140平方米以上的契税税率" in analysis  # whose 2% is
    assert "“3%”对应的是家庭第三套及以上住房的契税税率" in analysis
    assert LARGE.source in draft.explanation and LARGE.source in draft.sources
    assert written.fact_ids == [LARGE.id]
    assert _passes(written, "single", "strict") == []


def test_single_is_declined_without_three_real_siblings():
    # 70 / 50 / 40 years are all the values the land terms have: two siblings, no fourth option to invent
    assert _write(RESIDENTIAL, LAND, "single") is None
    assert _write(LARGE, [LARGE], "single") is None


def test_a_land_term_judge_takes_its_trap_from_another_use():
    for seed in range(10):
        written = _write(RESIDENTIAL, LAND, "judge", seed=seed)
        assert written is not None
        stated = _numbers(written.draft.stem)
        assert stated <= {70, 50, 40}
        if written.draft.answer == "B":
            assert (
                "对应的是" in written.draft.explanation
                and "用地使用权出让的最高年限" in written.draft.explanation
            )


def test_false_statements_move_a_bound_only_the_way_that_makes_them_false():
    shown = set()
    for seed in range(30):
        written = _write(HEIGHT, [HEIGHT, HEIGHTS], "judge", seed=seed)
        assert written is not None
        stated = _numbers(written.draft.stem)
        shown |= stated
        # 不低于2.60米 would still hold for a room that meets 不低于2.40米: never offered as false
        assert stated & {2.6, 2.8} == set()
        assert (written.draft.answer == "A") == (stated == {2.4})
    assert {2.4, 2.2} <= shown


def test_judge_is_declined_when_it_could_only_be_true():
    lone = _land("t-lone", "居住用地", 70)
    assert _write(lone, [lone], "judge") is None


def test_a_flexible_case_puts_a_concrete_figure_in_the_condition():
    answers = set()
    for seed in range(12):
        written = _write(SMALL, RATES, "judge", "flexible", seed)
        if written is None:
            continue
        stem = written.draft.stem
        assert "140平方米及以下" not in stem and re.search(r"先生|女士|某", stem)
        area = float(re.search(r"面积为(\d+)平方米", stem)[1])
        rate = float(re.search(r"税率为(\d+(?:\.\d+)?)%", stem)[1])
        right = 1.0 if area <= 140 else 1.5
        assert (written.draft.answer == "A") == (rate == right)
        assert _passes(written, "judge", "flexible") == []
        answers.add(written.draft.answer)
    assert answers == {"A", "B"}


def test_flexible_single_asks_the_value_of_a_case():
    written = _write(SMALL, RATES, "single", "flexible")
    assert written is not None
    stem = written.draft.stem
    assert "140平方米及以下" not in stem and re.search(r"先生|女士", stem)
    assert written.draft.options[ord(written.draft.answer) - 65] == "1%"
    assert _passes(written, "single", "flexible") == []


def test_a_consequence_is_claimed_for_a_person_who_meets_or_misses_its_condition():
    seen = set()
    for seed in range(12):
        written = _write(EXEMPT, [EXEMPT], "judge", "flexible", seed)
        assert written is not None
        stem = written.draft.stem
        assert "个人" not in stem and "（含2年）" not in stem and stem.endswith("免征增值税。（　）")
        held = float(re.search(r"购买(\d+(?:\.\d+)?)年", stem)[1])
        assert (written.draft.answer == "A") == (held >= 2)
        assert int(stem[:4]) >= 2026  # dated when the rule is in force
        seen.add(written.draft.answer)
    assert seen == {"A", "B"}


def test_strict_and_flexible_stems_differ_visibly():
    strict = _write(SMALL, RATES, "single")
    flexible = _write(SMALL, RATES, "single", "flexible")
    assert strict is not None and flexible is not None
    assert "140平方米及以下" in strict.draft.stem
    assert re.search(r"先生|女士", flexible.draft.stem) and not re.search(r"先生|女士", strict.draft.stem)


def test_same_seed_same_question_other_seeds_other_questions():
    first = _write(SMALL, RATES, "judge", "flexible", seed=3)
    again = _write(SMALL, RATES, "judge", "flexible", seed=3)
    assert first is not None and again is not None and first.draft == again.draft
    stems = {w.draft.stem for seed in range(10) if (w := _write(SMALL, RATES, "judge", "flexible", seed))}
    assert len(stems) > 1


def test_bounds_are_read_the_way_the_field_writes_them():
    below = bounds("面积140平方米及以下")[0]
    assert (below.low, below.high, below.unit) == (None, 140, "平方米")
    assert concrete("面积140平方米及以下", below, case_value(below, meets=True) or 0) != "面积140平方米"
    floors = bounds("4～6层")[0]
    assert floors.low == 4 and floors.high == 6 and case_value(floors, meets=True) == 5
    tall = bounds("27米＜高度≤100米")[0]
    assert tall.lead == "高度" and 27 < (case_value(tall, meets=True) or 0) < 100
    held = bounds("持有满2年")[0]
    assert (case_value(held, meets=True) or 0) > 2 > (case_value(held, meets=False) or 99)
    assert bounds("首付款为房价的30%") == []


def test_the_bundled_knowledge_base_yields_threshold_questions_that_pass_the_checks(compiled_sample):
    facts, slices = compiled_sample
    produced = [bool(questions) for _, questions in bundled_questions(RECIPE, "threshold", facts, slices)]
    assert produced and sum(produced) * 8 >= len(produced)


def _situations(written: Written) -> list[tuple[str, bool]]:
    options = written.draft.options
    return [(text, chr(65 + index) in written.draft.answer) for index, text in enumerate(options)]


def test_flexible_multi_asks_which_sellers_meet_the_holding_period():
    answers = set()
    for seed in range(8):
        written = _write(EXEMPT, [EXEMPT], "multi", "flexible", seed)
        assert written is not None and written.fact_ids == ["t-exempt"]
        stem = written.draft.stem
        assert stem.endswith("下列情形中，（　）的，免征增值税。") and int(stem[:4]) >= 2026
        people = set()
        for text, chosen in _situations(written):
            held = float(re.search(r"购买(\d+(?:\.\d+)?)年", text)[1])
            assert held != 2 and chosen == (held > 2), text  # never on the bound, every verdict by the rule
            people.add(text[:2])
            assert f"{held:g}年" in written.draft.explanation
        assert len(people) == 4 and written.draft.sources == [EXEMPT.source]
        answers.add(written.draft.answer)
        assert _passes(written, "multi", "flexible") == []
    assert len(answers) > 1


def test_flexible_single_over_a_consequence_asks_for_the_one_case_on_its_side():
    written = _write(EXEMPT, [EXEMPT], "single", "flexible", seed=2)
    assert written is not None and len(written.draft.answer) == 1
    chosen = next(text for text, picked in _situations(written) if picked)
    held = float(re.search(r"购买(\d+(?:\.\d+)?)年", chosen)[1])
    # 满2年 leaves one holding period below it, so the odd one out is the seller who misses it
    assert held < 2 and "不属于免征增值税情形的是" in written.draft.stem
    assert _passes(written, "single", "flexible") == []


def test_situations_over_sibling_rates_count_every_rule_that_gives_the_asked_rate():
    second_small = _rate("t-second-small", "家庭第二套住房", "140平方米及以下", "1%")
    facts = [*RATES, second_small]
    kinds = set()
    for seed in range(10):
        written = _write(SMALL, facts, "multi", "flexible", seed)
        assert written is not None
        assert written.draft.stem.endswith("（　）的，契税税率为1%。")
        for text, chosen in _situations(written):
            area = re.search(r"面积为(\d+)平方米", text)
            first_or_second = "首套" in text or "第二套" in text
            assert chosen == bool(area and first_or_second and float(area[1]) <= 140), text
            kinds.add("第二套" in text and chosen)
        assert _passes(written, "multi", "flexible") == []
    assert kinds == {True, False}  # the second home's 1% row is among the right answers too


def test_a_single_situation_question_has_one_case_in_the_asked_row():
    singles = [w for seed in range(12) if (w := _write(LARGE, RATES, "single", "flexible", seed))]
    situational = [w for w in singles if "下列情形中" in w.draft.stem]
    assert situational
    for written in situational:
        chosen = [text for text, picked in _situations(written) if picked]
        assert len(chosen) == 1 and "首套" in chosen[0]
        assert float(re.search(r"面积为(\d+)平方米", chosen[0])[1]) > 140
        assert "1.5%" in written.draft.explanation and len(written.draft.sources) == 4
        assert _passes(written, "single", "flexible") == []


def test_a_rate_whose_figure_equals_a_count_in_its_condition_is_no_consequence():
    # "家庭第三套及以上住房 … 3%": the 3 of 第三套 is a count of homes, not the rate's bound
    written = _write(THIRD, RATES, "multi", "flexible", seed=1)
    assert written is not None and written.draft.stem.endswith("的，契税税率为3%。")
    for text, chosen in _situations(written):
        count = re.search(r"第(\d)套", text)
        assert chosen == bool(count and int(count[1]) >= 3), text
    assert _passes(written, "multi", "flexible") == []


def _exempt_variant(condition: str, subject: str, source: str = "") -> Fact:
    return Fact(
        id="t-tangled",
        kind="threshold",
        slice_id=SLICE.id,
        source=source or f"{condition}的，{subject}。",
        subject=subject,
        comparator="以上",
        value=2.0,
        unit="年",
        value_text="2年",
        condition=condition,
        siblings=("1年", "5年"),
    )


@pytest.mark.parametrize(
    ("condition", "subject", "source"),
    [
        # the condition already holds a verdict: "何某持有3年、免征增值税的" answers itself
        ("个人将购买2年以上的住房对外销售、免征增值税", "免征个人所得税", ""),
        # the condition holds a clause of its own, told in every option
        ("个人将购买2年以上的住房对外销售时，按成交价申报", "免征增值税", ""),
        # the consequence rests on a further condition of the sentence
        (
            "个人将购买2年以上的住房对外销售",
            "计税依据就是成交价",
            "个人将购买2年以上的住房对外销售的，申报价格不低于评估价的，计税依据就是成交价。",
        ),
    ],
)
def test_situations_are_declined_when_the_rule_does_not_split_into_case_and_consequence(
    condition, subject, source
):
    tangled = _exempt_variant(condition, subject, source)
    for qtype in ("multi", "single", "judge"):
        assert all(_write(tangled, [tangled], qtype, "flexible", seed) is None for seed in range(6))
    plain = _exempt_variant("个人将购买2年以上的住房对外销售", "计税依据为成交价")
    assert _write(plain, [plain], "multi", "flexible", seed=0) is not None


def test_a_case_is_not_told_under_a_condition_that_held_only_before_a_date():
    dated = _exempt_variant("在2024年12月1日前，个人将购买2年以上的住房对外销售", "免征增值税")
    assert all(_write(dated, [dated], "judge", "flexible", seed) is None for seed in range(6))
    plain = _exempt_variant("个人将购买2年以上的住房对外销售", "免征增值税")
    assert any(_write(plain, [plain], "judge", "flexible", seed) is not None for seed in range(6))


def test_a_case_keeps_the_party_word_and_needs_more_than_a_verb_and_a_figure():
    bare = _exempt_variant("卖方持有不满2年", "缴纳增值税及附加")
    bare = Fact(**{**bare.__dict__, "comparator": "不满"})
    assert all(_write(bare, [bare], "judge", "flexible", seed) is None for seed in range(6))
    seller = _exempt_variant("卖方将购买2年以上的住房对外销售", "免征增值税")
    stems = [w.draft.stem for seed in range(6) if (w := _write(seller, [seller], "judge", "flexible", seed))]
    told = re.compile(r"卖方[\u4e00-\u9fff]{1,2}(?:先生|女士)将购买\d+年的住房")
    assert stems and all(told.search(stem) for stem in stems)


def _stated_rate(id_: str, subject: str, value: float, condition: str, source: str) -> Fact:
    return Fact(
        id=id_,
        kind="threshold",
        slice_id=SLICE.id,
        source=source,
        subject=subject,
        comparator="为",
        value=value,
        unit="%",
        value_text=f"{value:g}%",
        condition=condition,
        siblings=("2.1%", "2.525%", "3.075%"),
    )


def test_a_rate_read_off_a_table_row_is_not_asked_by_its_row_label() -> None:
    """Examiners' worst question twice: "5年以上的，首套住房为（　）" — a table row's label is no quantity,
    and the stem says neither the rate nor what the five years are. A rate stated in a sentence is asked."""
    row = _stated_rate("t-row", "首套住房", 2.6, "5年以上", "| 首套住房 | 2.1% | 2.6% |")
    others = [
        _stated_rate(f"t-{i}", "第二套住房", v, "5年以上", "| 第二套住房 | 2.525% | 3.075% |")
        for i, v in ((1, 3.075),)
    ]
    assert all(_write(row, [row, *others], "single", seed=s) is None for s in range(6))
    stated = _stated_rate(
        "t-sentence", "契税", 1.0, "面积为90平方米及以下", "首套住房面积为90平方米及以下的，契税为1%。"
    )
    rates = Fact(
        id="s-rates",
        kind="statement",
        slice_id=SLICE.id,
        source="面积为90平方米以上的，契税税率为2.1%；第二套住房的契税税率为2.525%；非住房的契税税率为3.075%。",
    )
    assert any(_write(stated, [stated, rates], "single", seed=s) is not None for s in range(6))


def test_a_rule_with_a_second_condition_is_not_told_as_a_case_with_the_other_condition_pasted_in():
    """满五唯一: swapping the years and pasting "并且是家庭唯一生活用房" into each option is the rule with a
    name in it (the examiners struck it every time); the dated holding recipe is where such rules belong."""
    text = "个人转让自用达5年以上、并且是家庭唯一生活用房取得的所得，免征个人所得税。"
    path = ("第四篇 交易税费", "第八章 卖方税费", "四、满五唯一")
    piece = Slice(id="s-tax", path=path, mastery="掌握", text=text)
    facts = compile_kb([piece])
    fact = next(f for f in facts if f.kind == "threshold")
    assert fact.subject == "免征个人所得税"
    for qtype in ("single", "multi", "judge"):
        for seed in range(4):
            task = Task(slice=piece, qtype=qtype, mode="flexible", seed=seed, facts=facts)
            written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
            told = "" if written is None else written.draft.stem + "".join(written.draft.options)
            assert "唯一生活用房" not in told
    # a category that leads to the bounded figure is the case's own setting, and is still told
    text = (
        "个人购买家庭唯一住房且面积为140平方米及以下的，契税税率为1%；"
        "个人购买家庭唯一住房且面积为140平方米以上的，契税税率为1.5%。"
    )
    piece = Slice(id="s-deed", path=path, mastery="掌握", text=text)
    facts = compile_kb([piece])
    fact = next(f for f in facts if f.kind == "threshold" and f.value == 1)
    task = Task(slice=piece, qtype="multi", mode="flexible", seed=1, facts=facts)
    written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(1)))
    assert written is not None and "平方米" in "".join(written.draft.options)


def test_a_bound_the_book_forbids_crossing_is_asked_as_forbidden():
    """ "都不得超过30年" asked as "不超过（　）" drops the book's prohibition, and the critic rejects it."""
    text = (
        "商业性个人住房贷款的期限都不得超过30年。商业用房贷款的期限不得超过10年。"
        "商住两用房贷款的期限不得超过15年。公积金贷款的最长期限为25年。"
    )
    piece = Slice(
        id="s-loan", path=("第三篇 金融", "第九章 商业性住房贷款", "四、贷款期限"), mastery="掌握", text=text
    )
    facts = compile_kb([piece])
    fact = next(f for f in facts if f.kind == "threshold" and f.value == 30)
    task = Task(slice=piece, qtype="single", mode="strict", seed=1, facts=facts)
    written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(1)))
    assert written is not None
    assert written.draft.stem == "商业性个人住房贷款的期限不得超过（　）。"


def test_a_threshold_whose_subject_leans_on_the_paragraph_before_is_not_asked() -> None:
    """Examiners struck "三者取最短的，最长贷款期限为（　）" (which three?) and
    "任何借款人的贷款期限不得超过（　）" (which loan?): out of their paragraph such stems cannot say what
    they ask. A rule that names its own quantity is still asked."""
    text = (
        "三项限制的作用分别是：①期限上限，任何借款人的贷款期限都不得超过30年。"
        "借款人年龄加贷款期限不超过65年，三者取最短，最长贷款期限为25年。"
        "住房公积金贷款的期限最长不超过30年。商业性个人住房贷款的期限最长不超过20年。"
        "个人住房组合贷款的期限最长不超过25年。个人商业用房贷款的期限最长不超过10年。"
    )
    piece = Slice(id="s-term", path=SLICE.path, mastery="掌握", text=text)
    facts = [fact for fact in compile_kb([piece]) if fact.kind == "threshold"]
    stems = []
    for fact in facts:
        for qtype in ("single", "judge"):
            for seed in range(4):
                written = _write(fact, facts, qtype, seed=seed)
                if written is not None:
                    stems.append(written.draft.stem)
    assert any("住房公积金贷款的期限" in stem for stem in stems), stems
    assert not [stem for stem in stems if "三者" in stem or "任何" in stem]


def _loan_terms(text: str) -> list[str]:
    """The options and explanation of every single choice asking the loan's own term."""
    piece = Slice(id="s-loan", path=SLICE.path, mastery="掌握", text=text)
    facts = list(compile_kb([piece]))
    fact = next(f for f in facts if f.value == 30 and f.subject.startswith("住房公积金贷款"))
    found = []
    for seed in range(6):
        written = _write(fact, facts, "single", seed=seed)
        if written is not None:
            found.append(" ".join(written.draft.options) + written.draft.explanation)
    return found


WORKED = (
    "住房公积金贷款的期限最长不超过30年。以北京为例，贷款期限还要满足：（1）借款人年龄与贷款期限之和不超过70年；"
    "（2）房龄与贷款期限之和不超过57年。例如，2017年购买1990年竣工的住房，房龄为27年，贷款期限最长为23年。"
    "若误按妻子的年龄计算，会得出25年。"
)


def test_a_loan_term_takes_no_figure_of_a_worked_example_nor_a_bound_on_a_sum() -> None:
    """Examiners struck 23年 and 27年 (an example's results), 25年 (a mistaken working) and 57年/70年 (the
    bounds on an age or a building's age plus the term) as options for a loan's longest term: none is a
    term."""
    assert _loan_terms(WORKED) == []
    siblings = (
        "商业用房贷款的期限最长不超过10年。组合贷款的期限最长不超过25年。"
        "个人住房装修贷款的期限最长不超过5年。"
    )
    written = _loan_terms(WORKED + siblings)
    assert written
    for text in written:
        assert not re.search(r"(?:23|27|57|70)年", text.split("1、")[0])
        assert "中的数值" not in text
        assert re.search(r"“(?:10|25|5)年”对应的是[\u4e00-\u9fff]+贷款的期限", text)
