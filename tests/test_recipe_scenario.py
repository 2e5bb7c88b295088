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


@pytest.mark.parametrize("fact", [BYPASS, KEYS, NAME, HELD, REPORT])
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
    flipped = {_write(NAME, "strict", seed).draft.stem for seed in range(16)}
    assert "经纪人员可以以个人名义承接经纪业务。（　）" in flipped


def test_a_modal_before_a_negation_is_never_turned() -> None:
    for seed in range(16):
        draft = _write(TIMELY, "strict", seed).draft
        assert draft.answer == "A"
        assert "无需不迟于" not in draft.stem


@pytest.mark.parametrize("fact", [BYPASS, KEYS, HELD])
def test_flexible_tells_the_condition_as_a_case_about_named_people(fact: Fact) -> None:
    for seed in range(12):
        written = _write(fact, "flexible", seed)
        draft = written.draft
        stem = draft.stem
        assert len(set(_PERSON.findall(stem))) >= 1
        assert stem != _write(fact, "strict", seed).draft.stem
        assert fact.condition not in stem  # told as what happened, not as the textbook's clause
        names = set(_PERSON.findall(stem))
        modal = rule_of(fact).written
        said_modal = modal in stem.split("，")[-1]
        assert (draft.answer == "A") == said_modal
        assert _checked(written, "flexible") == []
        assert names


def test_a_bounded_figure_in_the_condition_becomes_a_concrete_one() -> None:
    stem = _write(HELD, "flexible", 1).draft.stem
    assert "不满2年" not in stem
    assert re.search(r"持有住房\d+年", stem)
    assert re.search(rf"卖方[{''.join(SURNAMES)}]某", stem)


def test_a_rule_without_a_condition_is_no_case() -> None:
    # "经纪人员周某以个人名义承接经纪业务，这一做法…" is the rule with a name pasted in: examiners strike it
    assert all(_write(NAME, "flexible", seed) is None for seed in range(8))
    assert _write(NAME, "strict", 0) is not None


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


def test_a_case_whose_consequence_says_too_little_to_check_is_declined() -> None:
    exempt = _modal(
        "m-exempt",
        "卖方持有住房满2年的，可以免征。",
        "",
        "可以",
        "免征",
        "卖方持有住房满2年",
    )
    assert all(_write(exempt, "flexible", seed) is None for seed in range(8))


def test_declines_what_cannot_be_told_as_a_case_or_stated_safely() -> None:
    assert _write(REPORT, "flexible") is None  # no party, no condition: only a pasted name would do
    assert _write(EXCEPTION, "strict") is None and _write(EXCEPTION, "flexible") is None
    assert _write(LIST_ITEM, "strict") is None
    statement = Fact(id="st", kind="statement", slice_id=SLICE.id, source="经纪人员应当诚实守信。")
    assert _write(statement, "strict") is None
    single = Task(slice=SLICE, qtype="single", mode="strict", seed=0, facts=FactBase(FACTS))
    assert Scenario().write(BYPASS, Brief(task=single, facts=FactBase(FACTS), rng=random.Random(0))) is None


def test_a_second_rule_of_the_same_sentence_is_not_quoted_into_the_statement() -> None:
    for seed in range(8):
        stem = _write(KEYS, "strict", seed).draft.stem
        assert "带看前" not in stem


def test_same_seed_same_question_and_other_seeds_other_people() -> None:
    first = _write(BYPASS, "flexible", 4).draft
    assert _write(BYPASS, "flexible", 4).draft == first
    people = {frozenset(_PERSON.findall(_write(BYPASS, "flexible", seed).draft.stem)) for seed in range(10)}
    assert len(people) > 3


def test_a_condition_holding_a_rule_of_its_own_is_no_case() -> None:
    fee = _modal(
        "m-fee",
        "经纪人员不得以个人名义收取费用，委托人向经纪人员个人支付佣金的，经纪机构应当予以纠正。",
        "经纪机构",
        "应当",
        "予以纠正",
        "经纪人员不得以个人名义收取费用，委托人向经纪人员个人支付佣金",
    )
    assert all(_write(fee, "flexible", seed) is None for seed in range(8))
