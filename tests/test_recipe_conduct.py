"""A list of forbidden acts told as what one broker did, as an examiner reads it: the options are acts, some
forbidden by the list and the others duties the textbook gives the same broker, so every option has to be
weighed against the rules; each option's note names the rule it meets or breaks, and the critic grounds
the key (a forbidden act keyed as proper is refused)."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from graph.authors.base import Task
from graph.authors.recipes.base import Brief
from graph.authors.recipes.conduct import RECIPE
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.models import Slice
from vocabulary.records import Question

_CHAPTER = ("第二篇 经纪业务", "第三章 房源与执业")
FORBIDDEN = (
    "发布虚构的、不存在的房源信息",
    "以明显低于市场价的虚假价格吸引客户",
    "未经委托人书面同意发布房源信息",
)
REQUIRED = (
    "在经纪服务合同上签名，对所签合同负责",
    "向交易当事人出示执业证明，如实说明本人的身份",
    "在签约前查询房屋的查封情况",
)
PUBLISH = Slice(
    id="s-publish",
    path=(*_CHAPTER, "第一节 房源信息", "一、发布"),
    mastery="掌握",
    text="经纪机构和经纪人员发布房源信息时不得有下列行为："
    + "".join(f"（{i}）{act}；" for i, act in enumerate(FORBIDDEN, start=1)).rstrip("；")
    + "。",
)
RULES = Slice(
    id="s-rules",
    path=(*_CHAPTER, "第二节 执业规范", "一、要求"),
    mastery="掌握",
    text="经纪人员执业时应当遵守以下要求：（1）在经纪服务合同上签名，对所签合同负责；（2）向交易当事人出示执业证明，"
    "如实说明本人的身份。经纪人员应当在签约前查询房屋的查封情况。",
)
FUNDS = Slice(
    id="s-funds",
    path=(*_CHAPTER, "第三节 交易资金", "一、监管"),
    mastery="掌握",
    text="经纪人员不得要求买方把房款转入经纪人员的个人账户。经纪人员不得以任何理由拖延划转房款。",
)
SLICES = [PUBLISH, RULES, FUNDS]


def _write(seed: int, qtype: str, mode: str = "flexible") -> Question | None:
    facts = compile_kb(SLICES)
    fact = next(f for f in facts.of_slice(PUBLISH.id) if f.kind == "enumeration")
    task = Task(slice=PUBLISH, qtype=qtype, mode=mode, seed=seed, facts=facts)
    written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
    if written is None:
        return None
    question = write_question({"draft": written.draft.model_dump(), "qtype": written.qtype}, PUBLISH, mode)
    assert run_checks(question, qtype) == []
    return question


def _issues(question: Question) -> list:
    library = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=compile_kb(SLICES))
    return ground_question(question, PUBLISH, library).issues(strict=True)


@pytest.mark.parametrize("qtype", ["single", "multi"])
@pytest.mark.parametrize("seed", range(4))
def test_the_options_are_forbidden_or_required_acts_and_the_key_is_what_the_stem_asks(qtype: str, seed: int):
    question = _write(seed, qtype)
    assert question is not None
    frame = (
        r"^(?:经纪人员[\u4e00-\u9fff]某近期办理业务时有下列做法，其中|经纪人员[\u4e00-\u9fff]某在执业中的下列做法，"
        r"|下列经纪人员[\u4e00-\u9fff]某的做法中，)(不)?符合规定的(是|有)（　）。$"
    )
    found = re.match(frame, question.stem)
    assert found, question.stem
    asks_bad = found[1] == "不"
    assert set(question.options) <= set(FORBIDDEN) | set(REQUIRED)
    assert any(o in FORBIDDEN for o in question.options) and any(o in REQUIRED for o in question.options)
    keyed = {question.options[ord(letter) - 65] for letter in question.answer}
    assert keyed == {o for o in question.options if (o in FORBIDDEN) == asks_bad}
    if qtype == "multi":
        assert len(question.options) == 5 and len(keyed) >= 2
    for option in question.options:  # every note names the rule the act meets or breaks
        rule = "发布房源信息时不得有的行为" if option in FORBIDDEN else "应当"
        act = re.escape(option)
        assert re.search(f"{act}[^；]*{rule}|{rule}[^；]*{act}", question.explanation)
    assert _issues(question) == []


@pytest.mark.parametrize("seed", range(6))
def test_a_judge_tells_one_act_and_is_right_exactly_when_the_act_is_a_duty(seed: int):
    question = _write(seed, "judge")
    assert question is not None
    found = re.match(r"^经纪人员[\u4e00-\u9fff]某(.+)，这一做法符合规定。（　）$", question.stem)
    assert found, question.stem
    assert found[1] in FORBIDDEN + REQUIRED
    assert question.answer == (["A"] if found[1] in REQUIRED else ["B"])
    assert _issues(question) == []


def test_the_critic_refuses_a_forbidden_act_keyed_as_proper():
    question = next(q for seed in range(8) if (q := _write(seed, "judge")) and q.answer == ["B"])
    assert _issues(question.model_copy(update={"answer": ["A"]})) != []
    single = next(q for seed in range(8) if (q := _write(seed, "single")) and "不符合" in q.stem)
    proper = next(chr(65 + i) for i, o in enumerate(single.options) if o in REQUIRED)
    assert _issues(single.model_copy(update={"answer": [proper]})) != []


@pytest.mark.parametrize("seed", range(4))
def test_a_rule_forbidding_a_broker_an_act_is_told_the_same_way(seed: int):
    facts = compile_kb(SLICES)
    rules = [f for f in facts.of_slice(FUNDS.id) if f.kind == "modal"]
    written = []
    for fact in rules:
        task = Task(slice=FUNDS, qtype="single", mode="flexible", seed=seed, facts=facts)
        found = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
        if found is not None:
            written.append(found)
    assert len(written) == 1  # "以任何理由拖延" is no act anyone did
    options = written[0].draft.options
    assert "要求买方把房款转入经纪人员的个人账户" in options
    assert not any("任何" in option for option in options)


def test_only_a_flexible_question_over_a_list_of_forbidden_acts_is_written():
    assert _write(1, "single", mode="strict") is None
    facts = compile_kb(SLICES)
    duties = next(f for f in facts.of_slice(RULES.id) if f.kind == "enumeration")
    task = Task(slice=RULES, qtype="single", mode="flexible", seed=1, facts=facts)
    assert RECIPE.write(duties, Brief(task=task, facts=facts, rng=random.Random(1))) is None


def test_a_list_of_breaches_and_a_duty_at_a_stage_of_the_work_are_told_too():
    """ "议价中常见的违反执业规范的行为" lists forbidden acts as well; "带看中经纪人员应当…" is a duty whose
    stage goes with the act, and a rule's note quotes the rule rather than calling it a list."""
    breaches = Slice(
        id="s-breaches",
        path=(*_CHAPTER, "第四节 撮合", "一、规范"),
        mastery="掌握",
        text="议价中常见的违反执业规范的行为有：（1）捏造涨价信息诱导客户仓促签约；（2）以胁迫手段强迫客户成交。"
        "带看中经纪人员应当客观介绍房屋的优点和不足。",
    )
    pieces = [breaches, RULES]
    facts = compile_kb(pieces)
    fact = next(f for f in facts.of_slice(breaches.id) if f.kind == "enumeration")
    staged = 0
    for seed in range(8):
        task = Task(slice=breaches, qtype="single", mode="flexible", seed=seed, facts=facts)
        written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
        assert written is not None
        options = written.draft.options
        assert {"捏造涨价信息诱导客户仓促签约", "以胁迫手段强迫客户成交"} & set(options)
        if "带看中客观介绍房屋的优点和不足" in options:
            staged += 1
            note = "按照规定，带看中经纪人员应当客观介绍房屋的优点和不足，这一做法符合规定"
            assert note in written.draft.explanation
    assert staged


def test_a_prohibition_in_a_situation_is_judged_with_its_situation_told():
    """ "业主没有书面授权的，经纪人员不得…": the judge tells the situation before what the broker did, so the
    situation decides; no option could carry it, so a choice over it alone is declined."""
    keys = Slice(
        id="s-keys",
        path=(*_CHAPTER, "第五节 带看", "一、钥匙"),
        mastery="掌握",
        text="业主没有书面授权的，经纪人员不得在业主不在场时带客户进入房屋。",
    )
    facts = compile_kb([keys, RULES])
    fact = next(f for f in facts.of_slice(keys.id) if f.kind == "modal")
    told = []
    for seed in range(8):
        task = Task(slice=keys, qtype="judge", mode="flexible", seed=seed, facts=facts)
        written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
        assert written is not None
        if written.draft.answer == "B":
            told.append(written.draft.stem)
            assert re.match(
                r"^业主没有书面授权，经纪人员[\u4e00-\u9fff]某在业主不在场时带客户进入房屋，",
                written.draft.stem,
            )
    assert told
    task = Task(slice=keys, qtype="single", mode="flexible", seed=1, facts=facts)
    assert RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(1))) is None
