"""A broker's prohibition that holds only while something is missing, told as a case: the same act is
done either way, and whether the case tells the rule's situation or its opposite decides the answer. The
critic grounds both and refuses either keyed the other way. Prohibitions without a situation and lists of
forbidden acts are not asked as 灵活 questions: options of textbook acts decide nothing about a case."""

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

_CHAPTER = ("第二篇 经纪业务", "第四章 带看")
KEYS = Slice(
    id="s-keys",
    path=(*_CHAPTER, "第一节 带看规范", "一、钥匙"),
    mastery="掌握",
    text="业主没有书面授权并交付钥匙的，经纪人员不得在业主不在场时带客户进入房屋。"
    "经纪人员不得以个人名义收取经纪服务费用。",
)
PUBLISH = Slice(
    id="s-publish",
    path=(*_CHAPTER, "第二节 房源信息", "一、发布"),
    mastery="掌握",
    text="经纪机构和经纪人员发布房源信息时不得有下列行为：（1）发布虚构的、不存在的房源信息；"
    "（2）以明显低于市场价的虚假价格吸引客户；（3）未经委托人书面同意发布房源信息。",
)
SLICES = [KEYS, PUBLISH]
_ACT = "在业主不在场时带客户进入房屋"


def _write(fact_index: int, seed: int, qtype: str = "judge", mode: str = "flexible", piece: Slice = KEYS):
    facts = compile_kb(SLICES)
    fact = facts.of_slice(piece.id)[fact_index]
    task = Task(slice=piece, qtype=qtype, mode=mode, seed=seed, facts=facts)
    return RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))


def _question(seed: int) -> Question:
    written = _write(0, seed)
    assert written is not None
    question = write_question({"draft": written.draft.model_dump(), "qtype": "judge"}, KEYS, "flexible")
    assert run_checks(question, "judge") == []
    return question


def _issues(question: Question) -> list:
    library = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=compile_kb(SLICES))
    return ground_question(question, KEYS, library).issues(strict=True)


@pytest.mark.parametrize("seed", range(8))
def test_the_case_s_situation_decides_whether_the_same_act_complies(seed: int):
    question = _question(seed)
    found = re.match(
        rf"^业主(没有|已)书面授权并交付钥匙，经纪人员[\u4e00-\u9fff]某{_ACT}，这一做法符合规定。（　）$",
        question.stem,
    )
    assert found, question.stem
    assert question.answer == (["A"] if found[1] == "已" else ["B"])
    assert "业主没有书面授权并交付钥匙的，经纪人员不得在业主不在场时带客户进入房屋" in question.explanation
    assert _issues(question) == []
    flipped = question.model_copy(update={"answer": ["B" if question.answer == ["A"] else "A"]})
    assert _issues(flipped) != []


def test_both_situations_are_told():
    assert {tuple(_question(seed).answer) for seed in range(8)} == {("A",), ("B",)}


def test_a_prohibition_without_a_situation_or_a_list_of_acts_is_not_a_case():
    assert all(_write(1, seed) is None for seed in range(4))  # "不得以个人名义收取": nothing to tell
    assert _write(0, 1, piece=PUBLISH) is None
    assert _write(0, 1, qtype="single") is None
    assert _write(0, 1, mode="strict") is None
