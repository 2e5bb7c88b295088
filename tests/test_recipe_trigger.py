"""The trigger recipe as an examiner reads it: a 灵活 single choice whose options are situations, one of
them the condition of the rule the stem states and the others conditions of other rules that ask something
else; a condition that is a stage of the broker's work or points outside itself is never an option."""

from __future__ import annotations

import random
import re

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.trigger import RECIPE
from graph.checks import run_checks
from graph.format import explanation_parts
from graph.nodes.writer import write_question
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from tests.recipekit import bundled_questions

SLICE = Slice(
    id="s-deposit",
    path=("第二篇 交易服务", "第五章 买卖合同", "第三节 定金", "二、定金罚则"),
    mastery="掌握",
    text="",
)


def _rule(fid: str, condition: str, subject: str, modal: str, consequence: str) -> Fact:
    return Fact(
        id=fid,
        kind="modal",
        slice_id=SLICE.id,
        source=f"{condition}的，{subject}{modal}{consequence}。",
        subject=subject,
        modal=modal,
        consequence=consequence,
        condition=condition,
    )


DOUBLE = _rule("t-double", "卖方违约不卖", "", "应当", "向买方双倍返还定金")
LOAN = _rule("t-loan", "合同约定的付款方式为贷款付款", "", "应当", "约定贷款未获批准时的处理办法")
LEASE = _rule("t-lease", "出租人出卖租赁房屋", "", "应当", "在合理期限内通知承租人")
MORTGAGE = _rule("t-mortgage", "抵押人转让抵押财产", "", "应当", "及时通知抵押权人")
MINOR = _rule("t-minor", "房屋登记在未成年人名下", "监护人", "不得", "随意处分被监护人的房屋")
# a stage of the broker's work, not a case; a condition pointing outside itself
STAGE = _rule("t-stage", "经纪人员带看房屋时", "", "应当", "如实介绍房屋的缺陷和不足")
POINTING = _rule("t-pointing", "发生上述情形", "", "应当", "及时书面告知委托人")
# the same act in another situation: right as well, so never a distractor of a single choice
TWICE = _rule("t-twice", "卖方擅自将房屋另卖他人", "", "应当", "向买方双倍返还定金")
FACTS = [DOUBLE, LOAN, LEASE, MORTGAGE, MINOR, STAGE, POINTING]


def _write(fact: Fact, facts: list[Fact], qtype: str = "single", mode: str = "flexible", seed: int = 0):
    base = FactBase(facts, chapters={SLICE.id: SLICE.chapter})
    task = Task(slice=SLICE, qtype=qtype, mode=mode, seed=seed, facts=base)
    return RECIPE.write(fact, Brief(task=task, facts=base, rng=random.Random(seed)))


def _question(written: Written):
    authored = {"draft": written.draft.model_dump(), "qtype": written.qtype, "fact_ids": written.fact_ids}
    return write_question(authored, SLICE, "flexible")


def test_the_key_is_the_situation_of_the_rule_the_stem_states():
    for seed in range(8):
        written = _write(DOUBLE, FACTS, seed=seed)
        draft = written.draft
        assert draft.stem.endswith("下列情形中，（　）的，应当向买方双倍返还定金。")
        key = draft.options[ord(draft.answer) - 65]
        assert re.fullmatch(r"卖方.某违约不卖", key)
        others = [o for i, o in enumerate(draft.options) if chr(65 + i) != draft.answer]
        assert len(others) == 3 and not any("经纪人员" in o or "上述" in o for o in others)
        analysis = explanation_parts(draft.explanation)["试题分析"]
        assert "抵押人转让抵押财产的，应当及时通知抵押权人" in analysis or "通知承租人" in analysis
        assert run_checks(_question(written), "single") == []


def test_a_party_bound_by_the_rule_is_named_in_the_stem():
    draft = _write(MINOR, FACTS).draft
    assert re.search(r"（　）的，监护人.某不得随意处分被监护人的房屋", draft.stem)


def test_declines_when_another_situation_asks_the_same_act_or_in_strict_mode():
    assert _write(DOUBLE, [*FACTS, TWICE]) is None
    assert _write(DOUBLE, FACTS, mode="strict") is None
    assert _write(STAGE, FACTS) is None and _write(POINTING, FACTS) is None
    assert _write(DOUBLE, [DOUBLE, LOAN, LEASE]) is None  # fewer than three other situations


def test_a_multiple_choice_keys_every_situation_asking_the_act():
    written = _write(DOUBLE, [*FACTS, TWICE], qtype="multi", seed=1)
    keys = {written.draft.options[ord(letter) - 65] for letter in written.draft.answer}
    assert len(keys) == 2 and all(re.search("违约不卖|另卖他人", k) for k in keys)


def test_same_seed_same_question():
    assert _write(DOUBLE, FACTS, seed=3).draft == _write(DOUBLE, FACTS, seed=3).draft


def test_the_bundled_knowledge_base_yields_trigger_questions_that_pass_the_checks(compiled_sample):
    facts, slices = compiled_sample
    produced = [bool(questions) for _, questions in bundled_questions(RECIPE, "modal", facts, slices)]
    assert sum(produced) >= 6  # fewer than before: keys sharing a word with the act are no longer asked


def test_one_role_keeps_one_name_in_the_stem_and_the_options():
    harmed = _rule("t-harmed", "异议登记不当造成权利人损害", "权利人", "可以", "向申请人请求赔偿")
    for seed in range(6):
        draft = _write(harmed, [*FACTS, harmed], seed=seed).draft
        stem_name = re.search(r"权利人(.某)可以", draft.stem)[1]
        key = draft.options[ord(draft.answer) - 65]
        assert key == f"异议登记不当造成权利人{stem_name}损害"


def test_distractors_are_the_situations_closest_in_wording():
    near = _rule("t-near", "买方违约不买", "", "不得", "要求卖方返还定金")
    far = [_rule(f"t-far{n}", f"第{n}类房屋办理专项维修", "", "应当", f"提交第{n}类申请表") for n in range(4)]
    facts = [DOUBLE, near, LOAN, LEASE, MORTGAGE, MINOR, *far]
    for seed in range(6):
        options = "".join(_write(DOUBLE, facts, seed=seed).draft.options)
        assert re.search("买方.某违约不买", options)


def test_a_situation_about_what_the_act_is_about_is_never_a_distractor():
    liable = _rule("t-liable", "出卖人隐瞒抵押导致无法过户", "", "应当", "承担违约责任")
    penalty = _rule("t-penalty", "约定的违约金过分高于损失", "", "可以", "请求予以适当减少")
    facts = [liable, penalty, LOAN, LEASE, MORTGAGE, MINOR]
    for seed in range(6):
        written = _write(liable, facts, seed=seed)
        assert "违约金" not in "".join(written.draft.options)
        assert "教材未规定这种情形应当承担违约责任" in written.draft.explanation


def test_one_situation_worded_twice_is_one_option():
    again = _rule("t-again", "抵押人转让的抵押财产", "", "应当", "向登记机构备案")
    facts = [*FACTS, again]
    for seed in range(6):
        options = _write(DOUBLE, facts, seed=seed).draft.options
        assert sum("转让" in o and "抵押财产" in o for o in options) <= 1


def test_a_key_sharing_a_word_with_the_act_that_no_distractor_has_is_not_asked():
    """ "抵押人转让抵押财产" for "及时通知抵押权人": the learner would match 抵押 without knowing the rule."""
    assert all(_write(MORTGAGE, FACTS, seed=seed) is None for seed in range(6))


def test_a_stem_naming_the_bound_party_carries_no_date_that_decides_nothing():
    for seed in range(4):
        stem = _write(MINOR, FACTS, seed=seed).draft.stem
        assert stem.startswith("下列情形中，（　）的，监护人") and not re.search(r"\d{4}年", stem)
