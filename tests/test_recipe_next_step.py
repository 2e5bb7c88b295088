"""Next-step cases as an examiner reads them: the parties have done the first steps of a procedure the
textbook lists in order, and the key is the step right after the last one the case reports — so what the
case says was done decides the answer. The critic grounds the key (and contradicts every other step) on the
ordered list, and a list that is not a procedure is not told this way."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.next_step import RECIPE
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.models import Slice
from vocabulary.records import Question

_CHAPTER = ("第一篇 交易实务", "第五章 买卖合同与网签")
STEPS = [
    "买卖双方签订房屋买卖合同并办理网签",
    "买方将购房资金存入资金监管账户",
    "需要贷款的，买方申请贷款并取得银行的贷款审批",
    "买卖双方缴纳交易税费",
    "买卖双方申请转移登记",
    "转移登记完成后，监管资金划转给卖方",
    "卖方交付房屋，双方进行物业交割",
]
ORDER = Slice(
    id="s-order",
    path=(*_CHAPTER, "第一节 网签", "一、办理顺序"),
    mastery="掌握",
    text="存量房买卖的一般办理顺序是："
    + "".join(f"（{i}）{step}；" for i, step in enumerate(STEPS, 1))[:-1]
    + "。",
)
KINDS = Slice(
    id="s-kinds",
    path=(*_CHAPTER, "第二节 合同", "一、类型"),
    mastery="了解",
    text="按照付款方式，存量房买卖合同可分为一次性付款合同、贷款付款合同、分期付款合同和其他付款合同。",
)


def _write(piece: Slice, qtype: str, seed: int) -> tuple[Written | None, Question | None]:
    facts = compile_kb([ORDER, KINDS])
    fact = next(f for f in facts.of_slice(piece.id) if f.kind == "enumeration")
    task = Task(slice=piece, qtype=qtype, mode="flexible", seed=seed, facts=facts)
    written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
    if written is None:
        return None, None
    question = write_question(
        {"draft": written.draft.model_dump(), "qtype": written.qtype}, piece, "flexible"
    )
    assert run_checks(question, qtype) == []
    return written, question


def _grounding(question: Question):
    facts = compile_kb([ORDER, KINDS])
    library = SimpleNamespace(knowledge=KnowledgeIndex([ORDER, KINDS]), facts=facts)
    return ground_question(question, ORDER, library)


def _done(stem: str) -> int:
    """How many of the first steps the case tells done, up to the question."""
    case = stem.split("。")[0]
    return next(i for i, step in enumerate(STEPS) if _last_clause(step) not in case)


def _last_clause(step: str) -> str:
    return step.split("，")[-1]


@pytest.mark.parametrize("seed", range(8))
def test_the_key_is_the_step_right_after_what_the_case_reports_done(seed: int):
    written, question = _write(ORDER, "single", seed)
    assert written is not None and question is not None
    stem = written.draft.stem
    done = _done(stem)
    assert all(_last_clause(step) in stem for step in STEPS[:done])
    assert not any(_last_clause(step) in stem for step in STEPS[done:])
    (key,) = [written.draft.options[ord(letter) - 65] for letter in written.draft.answer]
    assert key == STEPS[done]
    assert all(option in STEPS[done:] for option in written.draft.options), "a step told done is no option"
    assert re.match(r"买方[\u4e00-\u9fff]某与卖方[\u4e00-\u9fff]某办理存量房买卖，", stem), "no date"
    assert "目前已经完成" not in stem
    assert stem.endswith("按照存量房买卖的一般办理顺序，接下来的环节是（　）。")
    findings = {f.label: f.verdict for f in _grounding(question).statements}
    assert findings == {
        chr(65 + i): "supported" if option == key else "contradicted"
        for i, option in enumerate(question.options)
    }


@pytest.mark.parametrize("seed", range(8))
def test_a_judge_has_the_broker_name_the_next_step_or_skip_one(seed: int):
    written, question = _write(ORDER, "judge", seed)
    assert written is not None and question is not None
    stem = written.draft.stem
    done = _done(stem)
    said = re.search(r"接下来的环节是(.+?)。（　）$", stem)
    assert said and re.search(r"经纪人员[\u4e00-\u9fff]某告诉双方", stem)
    truth = said.group(1) == STEPS[done]
    assert written.draft.answer == ("A" if truth else "B")
    if not truth:
        assert STEPS.index(said.group(1)) > done
    assert _grounding(question).issues(strict=True) == []


def test_a_classification_is_not_a_procedure():
    assert _write(KINDS, "single", 1) == (None, None)


def test_the_critic_rejects_a_key_that_is_not_the_next_step():
    _, question = _write(ORDER, "single", 3)
    assert question is not None
    wrong = next(letter for letter in "ABCD" if letter not in question.answer)
    swapped = question.model_copy(update={"answer": [wrong]})
    assert _grounding(swapped).issues(strict=True) != []
