"""The scenario recipe as an examiner reads it: 严谨 states the textbook's rule, true or with its modal turned
into the opposite in one natural word; 灵活 tells the rule's condition as a case about named people and asks
what follows, and a rule that cannot be told as a case is declined rather than given a pasted name."""

from __future__ import annotations

import random
import re

import pytest

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.scenario import Scenario, rule_of
from graph.authors.scenes import SURNAMES
from graph.checks import run_checks
from graph.format import explanation_parts
from graph.nodes.writer import write_question
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice

SLICE = Slice(
    id="s-agency",
    path=("第二篇 经纪业务", "第三章 经纪服务", "第二节 佣金", "三、跳单与佣金"),
    mastery="掌握",
    text="",
)


def _modal(fid: str, source: str, subject: str, modal: str, consequence: str, condition: str = "") -> Fact:
    return Fact(
        id=fid,
        kind="modal",
        slice_id=SLICE.id,
        source=source,
        subject=subject,
        modal=modal,
        consequence=consequence,
        condition=condition,
    )


BYPASS = _modal(
    "m-bypass",
    "委托人利用经纪机构提供的交易机会，绕开经纪机构直接与卖方订立合同的，应当向经纪机构支付报酬。",
    "",
    "应当",
    "向经纪机构支付报酬",
    "委托人利用经纪机构提供的交易机会，绕开经纪机构直接与卖方订立合同",
)
KEYS = _modal(
    "m-keys",
    "业主没有交付钥匙的，经纪人员不得在业主不在场时带买方进入房屋；带看前还应确认业主的时间。",
    "经纪人员",
    "不得",
    "在业主不在场时带买方进入房屋",
    "业主没有交付钥匙",
)
NAME = _modal("m-name", "经纪人员不得以个人名义承接经纪业务。", "经纪人员", "不得", "以个人名义承接经纪业务")
HELD = _modal(
    "m-held",
    "卖方持有住房不满2年的，经纪人员应当提示卖方按规定缴纳增值税。",
    "经纪人员",
    "应当",
    "提示卖方按规定缴纳增值税",
    "卖方持有住房不满2年",
)
REPORT = _modal("m-report", "房屋状况说明书应当真实、客观。", "房屋状况说明书", "应当", "真实、客观")
EXCEPTION = _modal(
    "m-exception",
    "处分共有的房屋的，应当经全体共同共有人同意，但是共有人之间另有约定的除外。",
    "",
    "应当",
    "经全体共同共有人同意",
    "处分共有的房屋",
)
LIST_ITEM = _modal(
    "m-item", "应当由委托人协助的事宜和提供的资料。", "", "应当", "由委托人协助的事宜和提供的资料"
)
TIMELY = _modal(
    "m-timely",
    "买方申请贷款的，经纪人员应当不迟于签约前告知贷款风险。",
    "经纪人员",
    "应当",
    "不迟于签约前告知贷款风险",
    "买方申请贷款",
)
FACTS = [BYPASS, KEYS, NAME, HELD, REPORT, EXCEPTION, LIST_ITEM, TIMELY]
_PERSON = re.compile(rf"[{''.join(SURNAMES)}]某")


def _brief(mode: str, seed: int) -> Brief:
    base = FactBase(FACTS, chapters={SLICE.id: SLICE.chapter})
    task = Task(slice=SLICE, qtype="judge", mode=mode, seed=seed, facts=base)
    return Brief(task=task, facts=base, rng=random.Random(seed))


def _write(fact: Fact, mode: str = "strict", seed: int = 0) -> Written | None:
    return Scenario().write(fact, _brief(mode, seed))


def _checked(written: Written, mode: str) -> list:
    authored = {"draft": written.draft.model_dump(), "qtype": written.qtype, "fact_ids": written.fact_ids}
    return run_checks(write_question(authored, SLICE, mode), "judge")


@pytest.mark.parametrize("fact", [BYPASS, KEYS])
def test_strict_states_the_rule_true_or_with_its_modal_turned(fact: Fact) -> None:
    rule = rule_of(fact)
    seen = set()
    for seed in range(16):
        written = _write(fact, "strict", seed)
        draft = written.draft
        assert draft.options == ["正确", "错误"] and draft.stem.endswith("。（　）")
        said = draft.stem.removesuffix("。（　）")
        if draft.answer == "A":
            assert said == rule.sentence()
        else:
            assert said != rule.sentence() and said.endswith(rule.consequence)
            assert not re.search("无需不|不得不|不得未|无需未", said)
        assert fact.source.rstrip("。") in explanation_parts(draft.explanation)["教材原文"]
        assert draft.sources == [fact.source] and written.fact_ids == [fact.id]
        assert _checked(written, "strict") == []
        seen.add(draft.answer)
    assert seen == {"A", "B"}


def test_a_flipped_rule_reads_as_one_natural_opposite() -> None:
    stems = {_write(BYPASS, "strict", seed).draft.stem for seed in range(16)}
    assert (
        "委托人利用经纪机构提供的交易机会，绕开经纪机构直接与卖方订立合同的，无需向经纪机构支付报酬。（　）"
        in stems
    )
    flipped = {_write(KEYS, "strict", seed).draft.stem for seed in range(16)}
    assert "业主没有交付钥匙的，经纪人员可以在业主不在场时带买方进入房屋。（　）" in flipped


def test_a_modal_before_a_negation_is_never_turned() -> None:
    for seed in range(16):
        draft = _write(TIMELY, "strict", seed).draft
        assert draft.answer == "A"
        assert "无需不迟于" not in draft.stem


def test_a_rule_limited_by_the_lead_in_before_its_colon_is_not_stated_without_it() -> None:
    scoped = _modal(
        "m-scoped",
        "在2024年12月1日前，北京、上海、广州、深圳四市另有规定：个人将购买2年以上的非普通住房对外销售的，"
        "不能免征增值税。",
        "",
        "不得",
        "免征增值税",
        "个人将购买2年以上的非普通住房对外销售",
    )
    assert rule_of(scoped) is None
    source = "按照规定：经纪人员不得以个人名义承接经纪业务。"
    plain = _modal("m-plain", source, "经纪人员", "不得", NAME.consequence)
    assert rule_of(plain) is not None


def test_declines_what_cannot_be_told_as_a_case_or_stated_safely() -> None:
    assert _write(EXCEPTION, "strict") is None
    assert _write(LIST_ITEM, "strict") is None
    statement = Fact(id="st", kind="statement", slice_id=SLICE.id, source="经纪人员应当诚实守信。")
    assert _write(statement, "strict") is None
    single = Task(slice=SLICE, qtype="single", mode="strict", seed=0, facts=FactBase(FACTS))
    assert Scenario().write(BYPASS, Brief(task=single, facts=FactBase(FACTS), rng=random.Random(0))) is None


def test_a_second_rule_of_the_same_sentence_is_not_quoted_into_the_statement() -> None:
    for seed in range(8):
        stem = _write(KEYS, "strict", seed).draft.stem
        assert "带看前" not in stem


PERMISSION = _modal(
    "m-permission",
    "缴存住房公积金的职工，在购买自住住房时，可以向住房公积金管理中心申请住房公积金贷款。",
    "",
    "可以",
    "向住房公积金管理中心申请住房公积金贷款",
)
PRICE = _modal("m-price", "价款条款应写明房屋成交总价。", "价款条款", "应当", "写明房屋成交总价")


@pytest.mark.parametrize("fact", [REPORT, PERMISSION, PRICE, HELD])
def test_a_duty_or_permission_the_book_states_outright_is_never_denied(fact: Fact) -> None:
    """ "房屋状况说明书无需真实、客观", "缴存职工…不得申请公积金贷款", "…的，经纪人员无需提示卖方…": examiners
    strike such judges as eliminated at sight, a duty of a case included. The rule is asked as it stands."""
    for seed in range(12):
        written = _write(fact, "strict", seed)
        assert written is not None and written.draft.answer == "A"
        assert not re.search("无需|不得", written.draft.stem)


def test_a_bare_ban_is_asked_as_it_stands_never_lifted() -> None:
    """ "经纪人员可以以个人名义承接经纪业务" is struck as common sense: nothing bounds the ban."""
    for seed in range(12):
        written = _write(NAME, "strict", seed)
        assert written is not None and written.draft.answer == "A"
        assert written.draft.stem == "经纪人员不得以个人名义承接经纪业务。（　）"


CUT = [
    _modal(
        "m-parts",
        "不能把两部分贷款合并后按其中一个利率计算，也不能用两个利率的平均数计算。",
        "",
        "不得",
        "把两部分贷款合并后按其中一个利率计算",
    ),
    _modal(
        "m-party",
        "任何一方不得单方面要求监管机构向自己划转资金。",
        "任何一方",
        "不得",
        "单方面要求监管机构向自己划转资金",
    ),
    _modal(
        "m-count",
        "享受免征应当同时满足两个条件：①持有满5年；②唯一住房。",
        "享受免征",
        "应当",
        "同时满足两个条件",
    ),
    _modal(
        "m-floor",
        "各城市可以在全国统一的下限基础上，自主确定本地的最低首付款比例。",
        "各城市",
        "可以",
        "在全国统一的下限基础上",
    ),
]


@pytest.mark.parametrize("fact", CUT)
def test_a_rule_that_leans_on_its_passage_is_no_judge(fact: Fact) -> None:
    """A stem with no subject, an unresolved "任何一方", a count of unnamed conditions or a clause stopping
    at "…基础上" cannot be judged true or false on its own."""
    assert all(_write(fact, "strict", seed) is None for seed in range(6))
