"""Rules with a condition told as a case, as an examiner reads them: named people meet the condition on a
date, and the question is what the rule makes of THIS case — a person's conclusion (judge), what the bound
party must do among what other rules ask of it elsewhere, or which of the case's people must do it. The
critic grounds the key on the rule, and a condition that is a stage of work or names alternatives is never
told as a case."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from graph.authors.base import Task
from graph.authors.recipes.base import Brief
from graph.authors.recipes.duty import RECIPE
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.models import Slice
from vocabulary.records import Question

_CHAPTER = ("第二篇 经纪业务", "第三章 房源与客源")
RULES = Slice(
    id="s-rules",
    path=(*_CHAPTER, "第一节 房源", "一、核实"),
    mastery="掌握",
    text="卖方已婚而房屋登记在其一人名下的，经纪人员应当核实房屋是否属于夫妻共同财产。委托人拒绝提供有关情况的，"
    "经纪人员应当在房屋状况说明书中注明。委托人撤销委托的，经纪人员应当及时撤下房源信息。买方通过经纪机构支付"
    "定金的，经纪人员应当按照约定将定金存入监管账户。",
)
WORK = Slice(
    id="s-work",
    path=(*_CHAPTER, "第二节 采集", "一、结构"),
    mastery="掌握",
    text="经纪人员采集房源信息时，应当以房屋权属证书记载的结构为准。卖方已经出租或者抵押房屋的，经纪人员应当如实告知买方。",
)
SLICES = [RULES, WORK]
ACTS = {
    "卖方已婚而房屋登记在其一人名下": "核实房屋是否属于夫妻共同财产",
    "委托人拒绝提供有关情况": "在房屋状况说明书中注明",
    "委托人撤销委托": "及时撤下房源信息",
    "买方通过经纪机构支付定金": "按照约定将定金存入监管账户",
}
_NAME = r"[\u4e00-\u9fff]某"


def _named(condition: str) -> re.Pattern[str]:
    """The condition as the story tells it: each party word followed by a name."""
    text = re.sub(r"(卖方|买方|委托人)", lambda m: m.group(1) + _NAME, condition)
    return re.compile(text.replace("经纪机构", r"[甲乙丙丁]房地产经纪机构"))


def _write(piece: Slice, qtype: str, seed: int) -> list[Question]:
    facts = compile_kb(SLICES)
    questions = []
    for fact in facts.of_slice(piece.id, "modal"):
        task = Task(slice=piece, qtype=qtype, mode="flexible", seed=seed, facts=facts)
        written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
        if written is None:
            continue
        authored = {"draft": written.draft.model_dump(), "qtype": written.qtype}
        question = write_question(authored, piece, "flexible")
        assert run_checks(question, qtype) == [], question.stem
        questions.append(question)
    return questions


def _grounding(question: Question):
    library = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=compile_kb(SLICES))
    return ground_question(question, RULES, library)


def _condition(stem: str) -> str:
    found = [c for c in ACTS if _named(c).search(stem)]
    assert len(found) == 1, stem
    return found[0]


@pytest.mark.parametrize("seed", range(4))
def test_a_judge_turns_on_the_case_s_detail_not_on_a_turned_modal_or_a_date(seed: int):
    """The conclusion is always a duty ("应当…"): the case's own, or one another rule asks in another
    situation, so only the situation the case tells decides the answer."""
    questions = _write(RULES, "judge", seed)
    assert len(questions) == len(ACTS)
    for question in questions:
        condition = _condition(question.stem)
        found = re.match(rf"(.+?)。(.+?)据此认为，(经纪人员)?({_NAME})应当(.+)。（　）$", question.stem)
        assert found, question.stem
        assert not re.search(r"\d{4}年", question.stem)
        assert found.group(5) in ACTS.values()
        assert question.answer == (["A"] if found.group(5) == ACTS[condition] else ["B"])
        assert condition in question.explanation  # the deciding detail is named
        assert _grounding(question).issues(strict=True) == []


def test_a_judge_can_be_false_and_its_false_conclusion_is_another_situation_s_duty():
    stems = [q for seed in range(8) for q in _write(RULES, "judge", seed) if q.answer == ["B"]]
    assert stems
    for question in stems:
        assert "无需" not in question.stem and "不必" not in question.stem
        told = _condition(question.stem)
        wrong = next(act for c, act in ACTS.items() if act in question.stem and c != told)
        assert wrong in question.explanation


def test_the_critic_rejects_a_judge_keyed_the_wrong_way():
    for seed in range(4):
        for question in _write(RULES, "judge", seed):
            flipped = ["B"] if question.answer == ["A"] else ["A"]
            assert _grounding(question.model_copy(update={"answer": flipped})).issues(strict=True) != []


@pytest.mark.parametrize("seed", range(6))
def test_a_single_asks_what_the_broker_must_do_here(seed: int):
    questions = _write(RULES, "single", seed)
    assert questions
    for question in questions:
        condition = _condition(question.stem)
        (key,) = [question.options[ord(letter) - 65] for letter in question.answer]
        assert re.search(rf"按照规定，经纪人员{_NAME}应当（　）。$", question.stem), question.stem
        assert key == ACTS[condition]
        assert set(question.options) <= set(ACTS.values())
        findings = {f.label: f.verdict for f in _grounding(question).statements}
        assert findings[question.answer[0]] == "supported"
        assert _grounding(question).issues(strict=True) == []


LONE = Slice(
    id="s-lone",
    path=("第九篇 其他", "第九章 共有房屋", "第一节 出售", "一、夫妻共有"),
    mastery="掌握",
    text="卖方已婚而房屋登记在其一人名下的，经纪人员应当核实房屋是否属于夫妻共同财产。",
)


@pytest.mark.parametrize("seed", range(4))
def test_who_bears_a_duty_is_not_asked_as_a_case(seed: int):
    """ "卖方萧某已婚而房屋登记在其一人名下。应当由（　）核实…" is the rule with a name attached (D9): with no
    other duty beside it to make "what must be done" askable, the single is declined."""
    facts = compile_kb([LONE])
    fact = next(f for f in facts.of_slice(LONE.id, "modal"))
    task = Task(slice=LONE, qtype="single", mode="flexible", seed=seed, facts=facts)
    assert RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed))) is None


def test_a_stage_of_work_or_a_condition_with_alternatives_is_no_case():
    for qtype in ("single", "judge"):
        assert _write(WORK, qtype, 1) == []
