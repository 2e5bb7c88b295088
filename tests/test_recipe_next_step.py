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


def _route(stem: str) -> list[str]:
    """The steps the case takes: the loan step only when the case says the buyer needs a loan."""
    need = re.match(r"^买方([\u4e00-\u9fff]某)与卖方[\u4e00-\u9fff]某办理存量房买卖，\1(不)?需要贷款。", stem)
    assert need, stem
    if need.group(2):
        return [step for step in STEPS if not step.startswith("需要贷款的")]
    return [_last_clause(step) if step.startswith("需要贷款的") else step for step in STEPS]


def _done(stem: str, route: list[str]) -> int:
    """How many of the route's first steps the case tells done, up to the question."""
    case = stem.split("。")[1]
    return next(i for i, step in enumerate(route) if _last_clause(step) not in case)


def _last_clause(step: str) -> str:
    return step.split("，")[-1]


@pytest.mark.parametrize("seed", range(8))
def test_the_key_is_the_step_right_after_what_the_case_reports_done(seed: int):
    written, question = _write(ORDER, "single", seed)
    assert written is not None and question is not None
    stem = written.draft.stem
    route = _route(stem)
    done = _done(stem, route)
    assert all(_last_clause(step) in stem for step in route[:done])
    assert not any(_last_clause(step) in stem.split("。")[1] for step in route[done:])
    (key,) = [written.draft.options[ord(letter) - 65] for letter in written.draft.answer]
    assert key == route[done]
    told_done = {_last_clause(step) for step in route[:done]}
    assert not told_done & set(written.draft.options), "a step told done is no option"
    assert "经纪门店" not in stem and "询问" not in stem  # no visit to ask what the case already decides
    assert stem.endswith("。按照存量房买卖的一般办理顺序，接下来的环节是（　）。")
    findings = {f.label: f.verdict for f in _grounding(question).statements}
    assert findings == {
        chr(65 + i): "supported" if option == key else "contradicted"
        for i, option in enumerate(question.options)
    }


def test_whether_the_buyer_needs_a_loan_decides_the_key():
    """Asked right where the loan step stands, the case's need decides: with a loan the key is the loan
    step; without one it is the step after, and the loan step is offered as the tempting wrong answer,
    its note saying the buyer needs no loan."""
    loan = _last_clause(STEPS[2])
    keys: dict[bool, str] = {}
    for seed in range(12):
        written, question = _write(ORDER, "single", seed)
        assert written is not None and question is not None
        stem = written.draft.stem
        if _done(stem, _route(stem)) != 2:
            continue
        needs = "不需要贷款" not in stem
        (key,) = [written.draft.options[ord(letter) - 65] for letter in written.draft.answer]
        keys[needs] = key
        if not needs:
            assert loan in written.draft.options
            assert re.search(
                r"不需要贷款，不办理“买方申请贷款并取得银行的贷款审批”", written.draft.explanation
            )
            assert _grounding(question).issues(strict=True) == []
            wrong = chr(65 + written.draft.options.index(loan))
            assert _grounding(question.model_copy(update={"answer": [wrong]})).issues(strict=True) != []
    assert keys == {True: loan, False: STEPS[3]}


@pytest.mark.parametrize("seed", range(8))
def test_a_judge_has_the_broker_name_the_next_step_or_skip_one(seed: int):
    written, question = _write(ORDER, "judge", seed)
    assert written is not None and question is not None
    stem = written.draft.stem
    route = _route(stem)
    done = _done(stem, route)
    said = re.search(r"接下来的环节是(.+?)。（　）$", stem)
    assert said and re.search(r"经纪人员[\u4e00-\u9fff]某告诉双方", stem)
    truth = said.group(1) == route[done]
    assert written.draft.answer == ("A" if truth else "B")
    assert _grounding(question).issues(strict=True) == []


def test_a_procedure_of_bare_stage_names_is_not_told_as_a_case():
    """ "申请、受理、审核、登簿" names stages an office goes through, not acts a party does: a case asking the
    party what comes next after "申请" is struck as contrived."""
    stages = Slice(
        id="s-stages",
        path=(*_CHAPTER, "第三节 登记", "一、程序"),
        mastery="掌握",
        text="不动产登记的一般程序依次为：（1）申请；（2）受理；（3）审核；（4）登簿；（5）发证。",
    )
    facts = compile_kb([ORDER, KINDS, stages])
    fact = next(f for f in facts.of_slice(stages.id) if f.kind == "enumeration")
    for qtype in ("single", "judge"):
        task = Task(slice=stages, qtype=qtype, mode="flexible", seed=1, facts=facts)
        assert RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(1))) is None


def test_a_classification_is_not_a_procedure():
    assert _write(KINDS, "single", 1) == (None, None)


def test_the_critic_rejects_a_key_that_is_not_the_next_step():
    _, question = _write(ORDER, "single", 3)
    assert question is not None
    wrong = next(letter for letter in "ABCD" if letter not in question.answer)
    swapped = question.model_copy(update={"answer": [wrong]})
    assert _grounding(swapped).issues(strict=True) != []


@pytest.mark.parametrize("seed", range(8))
def test_a_multiple_choice_asks_which_steps_are_still_to_take(seed: int):
    """The keys are the route's steps after what the case tells done; the one wrong option is the loan step
    the buyer who needs no loan passes over, decided by the case, not the list. A step the case tells done
    is never offered (reading the stem would strike it), so a buyer who needs a loan gets no such question.
    The critic grounds every option, and refuses the loan step keyed as still to take."""
    written, question = _write(ORDER, "multi", seed)
    if written is None:
        return
    assert question is not None
    stem = written.draft.stem
    route = _route(stem)
    done = _done(stem, route)
    assert "不需要贷款" in stem
    assert stem.endswith("。按照存量房买卖的一般办理顺序，双方还需要办理的环节有（　）。")
    keyed = {written.draft.options[ord(letter) - 65] for letter in written.draft.answer}
    assert len(written.draft.options) == 5 and len(keyed) >= 2
    assert keyed <= set(route[done:])
    assert not set(written.draft.options) & set(route[:done]), stem
    assert set(written.draft.options) - keyed == {_last_clause(STEPS[2])}
    assert _grounding(question).issues(strict=True) == []
    wrong = next(chr(65 + i) for i, o in enumerate(question.options) if o not in keyed)
    swapped = question.model_copy(update={"answer": sorted([*question.answer, wrong])})
    assert _grounding(swapped).issues(strict=True) != []


def test_some_seed_writes_the_multiple_choice():
    assert any(_write(ORDER, "multi", seed)[0] is not None for seed in range(8))
