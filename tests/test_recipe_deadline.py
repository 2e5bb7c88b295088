"""By-when cases as an examiner reads them: the key is the event's date moved on by the limit the textbook
sets (the event's own day not counted), the distractors are the other limits the textbook sets, and the
critic signs the right day and rejects any other."""

from __future__ import annotations

import datetime as dt
import random
import re
from types import SimpleNamespace

from graph.authors.base import Task
from graph.authors.recipes.base import Brief
from graph.authors.recipes.deadline import RECIPE
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from vocabulary.records import Question

_PATH = ("第三篇 个人住房贷款", "第十章 住房公积金贷款", "第二节 申请", "一、审批时限")
_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")
DECIDE = "住房公积金管理中心应当自受理申请之日起15日内作出准予贷款或者不准贷款的决定，并通知申请人。"
OTHERS = (
    "单位录用职工的，应当自录用之日起30日内为职工办理住房公积金缴存登记。",
    "受遗赠人应当在知道受遗赠后六十日内，作出接受或者放弃受遗赠的表示。",
    "出租人履行通知义务后，承租人在五日内未明确表示购买的，视为放弃。",
    "预告登记后，自能够进行不动产登记之日起九十日内未申请登记的，预告登记失效。",
)


def _kb(text: str) -> tuple[list[Slice], FactBase]:
    pieces = [Slice(id="s-0", path=_PATH, mastery="掌握", text=text)]
    pieces += [Slice(id=f"s-{i + 1}", path=_PATH, mastery="掌握", text=t) for i, t in enumerate(OTHERS)]
    return pieces, compile_kb(pieces)


def _rule(facts: FactBase) -> Fact:
    return next(f for f in facts if f.slice_id == "s-0" and f.kind == "threshold")


def _write(seed: int, text: str = DECIDE, qtype: str = "single", mode: str = "flexible") -> Question | None:
    pieces, facts = _kb(text)
    task = Task(slice=pieces[0], qtype=qtype, mode=mode, seed=seed, facts=facts)
    written = RECIPE.write(_rule(facts), Brief(task=task, facts=facts, rng=random.Random(seed)))
    if written is None:
        return None
    question = write_question({"draft": written.draft.model_dump(), "qtype": written.qtype}, pieces[0], mode)
    assert run_checks(question, qtype) == []
    return question


def _day(text: str) -> dt.date:
    year, month, day = _DATE.search(text).groups()
    return dt.date(int(year), int(month), int(day))


def test_the_key_is_fifteen_days_after_the_day_of_acceptance_and_the_others_are_other_limits():
    keys = set()
    for seed in range(10):
        question = _write(seed)
        assert question is not None
        assert "15日" not in question.stem and "受理申请" in question.stem
        start = _day(question.stem)
        gaps = [(_day(option) - start).days for option in question.options]
        assert question.answer == ["ABCD"[gaps.index(15)]], (question.stem, question.options)
        assert len(set(gaps)) == 4 and set(gaps) <= {5, 15, 30, 60, 90}  # every distractor a textbook limit
        assert "15日内" in question.explanation and "当日不计入" in question.explanation
        keys.add(question.answer[0])
    assert len(keys) >= 2  # the right day is not always the same option


def test_the_critic_signs_the_right_day_and_rejects_a_wrong_one():
    pieces, facts = _kb(DECIDE)
    library = SimpleNamespace(knowledge=KnowledgeIndex(pieces), facts=facts)
    for seed in range(6):
        question = _write(seed)
        assert question is not None
        assert ground_question(question, pieces[0], library).issues(strict=True) == [], question.options
        wrong = next(letter for letter in "ABCD" if [letter] != question.answer)
        flipped = question.model_copy(update={"answer": [wrong]})
        assert ground_question(flipped, pieces[0], library).issues(strict=True), question.options


def test_working_days_strict_requests_and_other_types_are_not_told():
    assert _write(1, "不动产登记机构应当自受理登记申请之日起30个工作日内办结不动产登记手续。") is None
    assert _write(1, mode="strict") is None
    assert _write(1, qtype="judge") is None
