"""The conduct recipe as an examiner reads it: a 灵活 question is a concrete sale (a date, a brokerage, the
people) and the options are things done in it, one rule each — what the rules require or allow done as
they say, what they forbid done anyway, a duty left undone; a rule whose sentence qualifies it in a clause
the fact lost is never told as an act, and a duty never stands beside its own omission."""

from __future__ import annotations

import random
import re

import pytest

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.conduct import RECIPE, RECIPE_JUDGE, acts_of
from graph.authors.scenes import SURNAMES
from graph.checks import run_checks
from graph.format import explanation_parts
from graph.lint import scenario_missing
from graph.nodes.writer import write_question
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice

SLICE = Slice(
    id="s-showing",
    path=("第二篇 经纪业务", "第四章 带看与签约", "第一节 带看", "二、带看与签约中的行为规范"),
    mastery="掌握",
    text="",
)
_NAME = re.compile(rf"[{''.join(SURNAMES)}]某")


def _rule(fid: str, source: str, subject: str, modal: str, consequence: str, condition: str = "") -> Fact:
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


DEFECTS = _rule(
    "c-defects", "带看时经纪人员应当如实介绍房屋的缺陷。", "经纪人员", "应当", "如实介绍房屋的缺陷", "带看时"
)
SIGNING = _rule(
    "c-signing", "经纪人员不得代替当事人在合同上签字。", "经纪人员", "不得", "代替当事人在合同上签字"
)
RECORDS = _rule("c-records", "经纪机构应当将看房确认书存档备查。", "经纪机构", "应当", "将看房确认书存档备查")
TAXES = _rule(
    "c-taxes",
    "签约前，经纪人员应当向买方说明交易涉及的税费。",
    "经纪人员",
    "应当",
    "向买方说明交易涉及的税费",
    "签约前",
)
PRICES = _rule(
    "c-prices",
    "经纪人员可以向客户提供同小区的成交参考价格。",
    "经纪人员",
    "可以",
    "向客户提供同小区的成交参考价格",
)
INFLATE = _rule(
    "c-inflate", "经纪人员不得虚构其他买家的出价抬高房价。", "经纪人员", "不得", "虚构其他买家的出价抬高房价"
)
# The fact lost "未经委托人书面同意": told as "发布房源信息" it would forbid what consent allows.
CONSENT = _rule(
    "c-consent", "未经委托人书面同意，经纪人员不得对外发布房源信息。", "经纪人员", "不得", "对外发布房源信息"
)
HANDOVER = _rule(
    "c-handover", "交房前，卖方应当结清水电燃气费用。", "卖方", "应当", "结清水电燃气费用", "交房前"
)
REPORT = _rule("c-report", "房屋状况说明书应当真实、客观。", "房屋状况说明书", "应当", "真实、客观")
FACTS = [DEFECTS, SIGNING, RECORDS, TAXES, PRICES, INFLATE, CONSENT, HANDOVER, REPORT]
DUTIES = {DEFECTS.id, RECORDS.id, TAXES.id, HANDOVER.id}


def _write(
    fact: Fact, qtype: str, seed: int, facts: list[Fact] = FACTS, mode: str = "flexible"
) -> Written | None:
    base = FactBase(facts, chapters={SLICE.id: SLICE.chapter})
    task = Task(slice=SLICE, qtype=qtype, mode=mode, seed=seed, facts=base)
    return RECIPE.write(fact, Brief(task=task, facts=base, rng=random.Random(seed)))


def _question(written: Written):
    authored = {"draft": written.draft.model_dump(), "qtype": written.qtype, "fact_ids": written.fact_ids}
    return write_question(authored, SLICE, "flexible")


def _written(qtype: str) -> list[Written]:
    found = [_write(fact, qtype, seed) for fact in FACTS for seed in range(6)]
    return [w for w in found if w is not None]


def test_the_stem_is_a_concrete_sale_and_the_question_passes_the_checks() -> None:
    questions = _written("multi") + _written("single")
    assert len(questions) >= 20
    for written in questions:
        stem = written.draft.stem
        assert re.match(r"20\d\d年\d{1,2}月\d{1,2}日，", stem)
        assert "房地产经纪机构" in stem and len(set(_NAME.findall(stem))) >= 2
        assert re.search(r"下列做法中，(不)?符合规定的(有|是)（　）。$", stem)
        question = _question(written)
        assert scenario_missing(question) is None
        assert run_checks(question, written.qtype) == []


def test_compliant_acts_are_the_key_and_each_option_is_one_rule() -> None:
    for written in _written("multi"):
        draft = written.draft
        assert len(draft.options) in (4, 5) and len(draft.answer) >= 2
        assert len(set(written.fact_ids)) == len(draft.options) == len(draft.sources)
        analysis = explanation_parts(draft.explanation)["试题分析"]
        for letter, option in zip("ABCDE", draft.options, strict=False):
            verdict = "符合" if letter in draft.answer else "违反"
            assert f"选项{letter}{verdict}规定，按照规定，" in analysis
            if letter not in draft.answer:  # done against a 不得, or a duty left undone
                assert "未" in option or any(f.modal == "不得" and f.consequence in option for f in FACTS)


def test_a_duty_never_stands_beside_its_own_omission() -> None:
    for written in _written("multi") + _written("single"):
        bare = [o.replace("未", "") for o in written.draft.options]
        assert len(set(bare)) == len(bare)


def test_the_one_act_against_the_rules_asked_for_is_a_duty_left_undone() -> None:
    asked = [w for w in _written("single") if "不符合规定的是" in w.draft.stem]
    assert asked
    for written in asked:
        keyed = written.draft.options[ord(written.draft.answer) - 65]
        assert "未" in keyed
        assert any(f.consequence in keyed and f.id in DUTIES for f in FACTS)


def test_a_rule_qualified_by_a_lost_clause_or_binding_no_one_in_the_case_is_never_an_act() -> None:
    assert acts_of(CONSENT) == []
    assert acts_of(REPORT) == []
    for written in _written("multi") + _written("single"):
        assert CONSENT.id not in written.fact_ids and REPORT.id not in written.fact_ids
        assert not any(o.endswith("对外发布房源信息") for o in written.draft.options)


def test_background_before_a_rule_counts_only_when_the_act_takes_it_up() -> None:
    taken_up = _rule(
        "c-fees",
        "经纪服务费用由经纪机构统一收取，经纪人员不得以个人名义收取费用。",
        "经纪人员",
        "不得",
        "以个人名义收取费用",
    )
    left_behind = _rule(
        "c-wall",
        "承重墙关系到整栋楼的结构安全，业主不得为了装修自行拆除。",
        "业主",
        "不得",
        "为了装修自行拆除",
    )
    assert [a.told() for a in acts_of(taken_up)] == ["以个人名义收取费用"]
    assert acts_of(left_behind) == []  # what is pulled down was said before the rule


def test_a_partys_act_names_the_party_and_the_stem_has_them() -> None:
    named = [w for w in _written("multi") + _written("single") if HANDOVER.id in w.fact_ids]
    assert named
    for written in named:
        option = next(o for o in written.draft.options if "结清水电燃气费用" in o)
        seller = re.match(r"交房前，卖方([\u4e00-\u9fff]某)(未)?结清水电燃气费用$", option)
        assert seller is not None
        assert f"卖方{seller[1]}委托" in written.draft.stem and "买方" in written.draft.stem


def test_declines_what_it_cannot_tell_as_a_case() -> None:
    assert _write(DEFECTS, "multi", 0, mode="strict") is None
    assert _write(DEFECTS, "judge", 0) is None
    assert _write(REPORT, "multi", 0) is None
    thin = [DEFECTS, SIGNING, REPORT]
    assert all(
        _write(DEFECTS, qtype, seed, thin) is None for qtype in ("multi", "single") for seed in range(6)
    )


@pytest.mark.parametrize("seed", range(3))
def test_same_seed_same_question(seed: int) -> None:
    assert _write(TAXES, "multi", seed).draft == _write(TAXES, "multi", seed).draft


def test_at_most_one_option_is_a_duty_left_undone() -> None:
    more = [
        _rule(
            "c-keys", "交房时，卖方应当向买方移交房屋钥匙。", "卖方", "应当", "向买方移交房屋钥匙", "交房时"
        ),
        _rule(
            "c-identity",
            "签约前，经纪人员应当查验卖方的身份证明。",
            "经纪人员",
            "应当",
            "查验卖方的身份证明",
            "签约前",
        ),
    ]
    facts = [*FACTS, *more]
    duties = [f.consequence for f in facts if f.modal == "应当"]
    questions = [
        w
        for fact in facts
        for qtype in ("multi", "single")
        for seed in range(8)
        if (w := _write(fact, qtype, seed, facts))
    ]
    assert any(any(f"未{d}" in o for o in w.draft.options for d in duties) for w in questions)
    for written in questions:
        undone = [o for o in written.draft.options if any(f"未{d}" in o for d in duties)]
        assert len(undone) <= 1, written.draft.options


def _judged(fact: Fact, seed: int, mode: str = "flexible") -> Written | None:
    base = FactBase(FACTS, chapters={SLICE.id: SLICE.chapter})
    task = Task(slice=SLICE, qtype="judge", mode=mode, seed=seed, facts=base)
    return RECIPE_JUDGE.write(fact, Brief(task=task, facts=base, rng=random.Random(seed)))


def test_an_act_judge_keys_whether_the_named_act_complies() -> None:
    seen = set()
    for fact in (SIGNING, DEFECTS, HANDOVER):
        for seed in range(10):
            written = _judged(fact, seed)
            stem = written.draft.stem
            said = re.fullmatch(r"(.+)，这一做法(符合|违反)规定。（　）", stem)
            assert said is not None and _NAME.search(said[1])
            complies = fact.modal != "不得" and "未" not in said[1]
            assert written.draft.answer == ("A" if (said[2] == "符合") == complies else "B")
            assert run_checks(_question(written), "judge") == []
            seen.add(written.draft.answer)
    assert seen == {"A", "B"}


def test_an_act_judge_declines_what_acts_of_declines_and_strict_requests() -> None:
    assert all(_judged(fact, seed) is None for fact in (CONSENT, REPORT, RECORDS) for seed in range(6))
    assert _judged(SIGNING, 0, mode="strict") is None
