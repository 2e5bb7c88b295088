"""照猫画虎 as an examiner reads it: a past question of the slice sets the shape — a modal judge, false by a
turned modal, told with or without a client; a calculation asking one figure — and the new question has that
shape over another fact of the slice, with new people and numbers, never the past question's own fact."""

from __future__ import annotations

import random
import re

import calc
from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.mimic import Mimic, shape_of
from graph.authors.recipes.scenario import rule_of
from graph.format import numbers_in, same_number
from retrieval.facts import Fact, FactBase
from retrieval.models import MotherQuestion, Slice

SLICE = Slice(
    id="s-mix", path=("第二篇 经纪业务", "第三章 经纪服务", "一、房源发布"), mastery="掌握", text=""
)
PUBLISH = Fact(
    id="m-publish",
    kind="modal",
    slice_id=SLICE.id,
    source="经纪机构对外发布房源信息前，应当取得委托人的书面同意。",
    subject="经纪机构",
    modal="应当",
    consequence="取得委托人的书面同意",
    condition="对外发布房源信息前",
)
KEYS = Fact(
    id="m-keys",
    kind="modal",
    slice_id=SLICE.id,
    source="业主没有交付钥匙的，经纪人员不得在业主不在场时带买方进入房屋。",
    subject="经纪人员",
    modal="不得",
    consequence="在业主不在场时带买方进入房屋",
    condition="业主没有交付钥匙",
)
DEED = Fact(
    id="e-deed",
    kind="example",
    slice_id=SLICE.id,
    source="【例】2026年5月，钱某家庭已有一套住房，再买一套155平方米的住房，不含税价500万元，契税为10万元。",
    calculator="deed_tax",
    args={"price": 5_000_000, "area": 155, "home_order": 2, "date": "2026-05-10"},
    expected={"tax": 100_000.0},
)


def _mother(
    stem: str, answer: str, qtype: str = "judge", options: tuple[str, ...] = ("正确", "错误")
) -> MotherQuestion:
    return MotherQuestion(
        id=f"q-{abs(hash(stem))}",
        part="第二篇",
        chapter="第三章",
        section="",
        name="",
        qtype=qtype,
        stem=stem,
        options=options,
        answer=answer,
    )


STRICT_FALSE = _mother("经纪机构对外发布房源信息前，无需取得委托人的书面同意（　）", "B")
CASE_TRUE = _mother("业主王某没有交付钥匙，则经纪人员李某不得在王某不在场时带买方进入房屋（　）", "A")
DEED_SINGLE = _mother(
    "2026年3月，周某家庭名下已有一套住房，又购买一套建筑面积150平方米的住宅，不含增值税的成交价格为300万元。"
    "周某应缴纳的契税为（　）",
    "B",
    "single",
    ("45,000元", "60,000元", "90,000元", "30,000元"),
)
RATE_SINGLE = _mother("周某购买住房适用的契税税率为（　）", "A", "single", ("1%", "1.5%", "2%", "3%"))


def _brief(
    examples: list[MotherQuestion], qtype: str = "judge", mode: str = "strict", seed: int = 0
) -> Brief:
    base = FactBase([PUBLISH, KEYS, DEED], chapters={SLICE.id: SLICE.chapter})
    task = Task(slice=SLICE, qtype=qtype, mode=mode, seed=seed, facts=base, examples=examples)
    return Brief(task=task, facts=base, rng=random.Random(seed))


def _write(fact: Fact, examples: list[MotherQuestion], **kwargs) -> Written | None:
    return Mimic().write(fact, _brief(examples, **kwargs))


def test_the_shape_of_a_past_question() -> None:
    assert shape_of(STRICT_FALSE).kind == "modal" and shape_of(STRICT_FALSE).truth is False
    assert shape_of(CASE_TRUE).case and shape_of(CASE_TRUE).truth
    assert shape_of(DEED_SINGLE).kind == "calculation" and "契税" in shape_of(DEED_SINGLE).asked
    assert shape_of(RATE_SINGLE) is None


def test_a_false_modal_judge_is_mimicked_over_another_rule_with_the_same_trap() -> None:
    for seed in range(8):
        written = _write(KEYS, [STRICT_FALSE], seed=seed)
        draft = written.draft
        assert draft.answer == "B"
        assert draft.stem == f"{rule_of(KEYS).sentence('可以')}。（　）"
        assert not re.search(r"[\u4e00-\u9fff]某", draft.stem)
        assert written.fact_ids == [KEYS.id]


def test_the_past_questions_own_fact_is_not_asked_again() -> None:
    assert _write(PUBLISH, [STRICT_FALSE]) is None


def test_a_case_judge_is_not_mimicked_by_pasting_names_into_a_rule() -> None:
    """Examiners struck every rule told with a name pasted in; rules are told as cases by `duty` and
    `situation`, which build the case from the rule's parties, so mimicry leaves case judges alone."""
    other = Fact(
        id="m-bypass",
        kind="modal",
        slice_id=SLICE.id,
        source="委托人利用经纪机构提供的交易机会，绕开经纪机构直接与卖方订立合同的，应当向经纪机构支付报酬。",
        modal="应当",
        consequence="向经纪机构支付报酬",
        condition="委托人利用经纪机构提供的交易机会，绕开经纪机构直接与卖方订立合同",
    )
    for mode in ("strict", "flexible"):
        assert _write(PUBLISH, [CASE_TRUE], mode=mode) is None
        assert _write(other, [CASE_TRUE], mode=mode) is None


def test_a_calculation_is_mimicked_with_new_figures_asking_the_same_figure() -> None:
    seen_prices = set()
    for seed in range(6):
        written = _write(DEED, [DEED_SINGLE], qtype="single", seed=seed)
        calculation = written.calculation
        assert calculation.calculator == "deed_tax" and calculation.field == "tax"
        key = calc.run("deed_tax", calculation.args)["tax"]
        right = written.draft.options["ABCD".index(written.draft.answer)]
        assert same_number(numbers_in(right)[0], key)
        assert written.draft.stem.endswith("应缴纳的契税为（　）")
        seen_prices.add(calculation.args["price"])
    assert len(seen_prices) > 2
    assert 3_000_000 not in seen_prices or len(seen_prices) > 3


def test_declines_when_nothing_in_the_slice_fits_the_shape() -> None:
    assert _write(DEED, [STRICT_FALSE]) is None  # a modal judge's shape does not fit a worked example
    assert _write(KEYS, [DEED_SINGLE], qtype="single") is None
    assert _write(DEED, [RATE_SINGLE], qtype="single") is None
    assert _write(KEYS, [STRICT_FALSE], qtype="single") is None  # a judge is no pattern for a single
    assert _write(KEYS, []) is None
