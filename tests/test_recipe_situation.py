"""情形 lists told as a case, as an examiner reads them: one listed situation happens to named people on a
date, and a broker draws a conclusion about this case; the conclusion is right exactly when it keeps the
rule's own word (可以, 需要), and the critic grounds it on the list. Items the case could not tell without
choosing among alternatives ("离休、退休的") are never told."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from graph.authors.base import Task
from graph.authors.recipes.base import Brief
from graph.authors.recipes.situation import RECIPE
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.models import Slice
from vocabulary.records import Question

_CHAPTER = ("第五篇 个人住房贷款", "第十章 住房公积金")
DRAW = Slice(
    id="s-draw",
    path=(*_CHAPTER, "第一节 提取", "一、提取情形"),
    mastery="掌握",
    text="职工有下列情形之一的，可以提取职工住房公积金账户内的存储余额：（1）购买、建造、翻建、大修自住住房的；"
    "（2）离休、退休的；（3）完全丧失劳动能力，并与单位终止劳动关系的；（4）出境定居的；（5）偿还购房贷款本息的。",
)
CANCEL = Slice(
    id="s-cancel",
    path=(*_CHAPTER, "第二节 网签", "一、注销"),
    mastery="掌握",
    text="需要注销网签的情形主要有：（1）买卖双方协商一致解除合同的；（2）合同被人民法院判决或者仲裁机构裁决解除、"
    "撤销或者确认无效的；（3）网签信息录入错误需要重新签订合同的。",
)
KINDS = Slice(
    id="s-kinds",
    path=(*_CHAPTER, "第三节 合同", "一、类型"),
    mastery="了解",
    text="按照付款方式，存量房买卖合同可分为一次性付款合同、贷款付款合同和分期付款合同。",
)
SLICES = [DRAW, CANCEL, KINDS]
_TOLD = {"出境定居", "偿还购房贷款本息"}


def _write(piece: Slice, seed: int, qtype: str = "judge", mode: str = "flexible") -> Question | None:
    facts = compile_kb(SLICES)
    fact = next(f for f in facts.of_slice(piece.id) if f.kind == "enumeration")
    task = Task(slice=piece, qtype=qtype, mode=mode, seed=seed, facts=facts)
    written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
    if written is None:
        return None
    question = write_question({"draft": written.draft.model_dump(), "qtype": written.qtype}, piece, mode)
    assert run_checks(question, qtype) == []
    return question


def _grounding(question: Question, piece: Slice):
    library = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=compile_kb(SLICES))
    return ground_question(question, piece, library)


@pytest.mark.parametrize("seed", range(8))
def test_a_listed_situation_happens_to_a_named_worker_and_the_conclusion_keeps_or_turns_the_rule(seed: int):
    question = _write(DRAW, seed)
    assert question is not None
    found = re.match(
        r"^职工([\u4e00-\u9fff]某)(.+?)。经纪人员[\u4e00-\u9fff]某据此认为，(.+)。（　）$",
        question.stem,
    )
    assert found, question.stem
    name, situation, said = found.groups()
    assert situation in _TOLD  # never an item with alternatives or a clause of its own
    assert said in (
        f"{name}可以提取职工住房公积金账户内的存储余额",
        f"{name}不能提取职工住房公积金账户内的存储余额",
    )
    assert question.answer == (["A"] if "可以" in said else ["B"])
    assert situation in question.explanation
    assert _grounding(question, DRAW).issues(strict=True) == []


@pytest.mark.parametrize("seed", range(6))
def test_a_situation_of_both_parties_names_them_and_first_tells_what_the_rule_would_undo(seed: int):
    """ "需要注销网签" presumes a 网签: the case says the parties made one before the listed situation
    happened, or the conclusion would lack its premise."""
    question = _write(CANCEL, seed)
    assert question is not None
    assert re.match(
        r"^买方[\u4e00-\u9fff]某与卖方[\u4e00-\u9fff]某办理网签后，买卖双方协商一致解除合同。", question.stem
    )
    assert question.answer == (["A"] if "本案需要注销网签" in question.stem else ["B"])
    assert "本案无需注销网签" in question.stem or question.answer == ["A"]


def test_the_critic_rejects_a_conclusion_keyed_the_wrong_way():
    question = next(q for seed in range(8) if (q := _write(DRAW, seed)) and q.answer == ["B"])
    swapped = question.model_copy(update={"answer": ["A"]})
    assert _grounding(swapped, DRAW).issues(strict=True) != []


def test_only_a_flexible_judge_over_a_list_of_situations_is_written():
    assert _write(DRAW, 1, mode="strict") is None
    assert _write(DRAW, 1, qtype="single") is None
    assert _write(KINDS, 1) is None  # a classification is no list of situations
