"""满五唯一 cases as an examiner reads them: the purchase and sale dates and the family's other homes decide
the key, which is worked out here from what the learner sees; the critic's grounding signs a right key and
rejects a wrong one (the sentences alone cannot: a home held 4.9 years shares the rule's words)."""

from __future__ import annotations

import datetime as dt
import random
import re
from types import SimpleNamespace

from graph.authors.base import Task
from graph.authors.recipes.base import Brief
from graph.authors.recipes.only_home import RECIPE
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.facts import FactBase
from retrieval.models import Slice
from vocabulary.records import Question

_PATH = ("第一篇 交易税费", "第四章 个人所得税", "第二节 免征", "一、满五唯一")
_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")
RULE = "个人转让自用达5年以上、并且是家庭唯一生活用房取得的所得，免征个人所得税。"
PIECE = Slice(id="s-iit", path=_PATH, mastery="掌握", text=RULE)


def _write(qtype: str, seed: int, mode: str = "flexible") -> tuple[Question | None, FactBase]:
    facts = compile_kb([PIECE])
    fact = next(f for f in facts if f.kind == "threshold")
    task = Task(slice=PIECE, qtype=qtype, mode=mode, seed=seed, facts=facts)
    written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(seed)))
    if written is None:
        return None, facts
    question = write_question({"draft": written.draft.model_dump(), "qtype": written.qtype}, PIECE, mode)
    assert run_checks(question, qtype) == []
    return question, facts


def _exempt(case: str) -> bool:
    """Held five whole years (the anniversary counts) and the family's only home."""
    bought, sold = (dt.date(int(y), int(m), int(d)) for y, m, d in _DATE.findall(case))
    return sold >= bought.replace(year=bought.year + 5) and "唯一" in case and "另有" not in case


def _issues(question: Question, facts: FactBase) -> list[str]:
    library = SimpleNamespace(knowledge=KnowledgeIndex([PIECE]), facts=facts)
    return ground_question(question, PIECE, library).issues(strict=True)


def test_a_judge_is_true_exactly_when_both_conditions_hold_and_both_traps_occur():
    seen = set()
    for seed in range(20):
        question, _ = _write("judge", seed)
        assert question is not None
        assert "满五唯一" not in question.stem and not re.search(
            r"(?<!\d)5年", question.stem
        )  # the learner works it out
        truth = _exempt(question.stem)
        assert question.answer == ["A" if truth else "B"], question.stem
        assert "持有" in question.explanation and "唯一生活用房" in question.explanation
        seen.add((truth, "另有" in question.stem))
    assert seen >= {(True, False), (False, False), (False, True)}


def test_a_choice_keys_the_exempt_sellers_and_keeps_a_distractor_for_each_missed_condition():
    for qtype, seed in [(qtype, seed) for qtype in ("single", "multi") for seed in range(10)]:
        question, _ = _write(qtype, seed)
        assert question is not None
        exempt = [chr(65 + i) for i, option in enumerate(question.options) if _exempt(option)]
        assert question.answer == exempt, question.options
        assert len(exempt) == (1 if qtype == "single" else 2)
        assert len(question.options) == (4 if qtype == "single" else 5)  # as the papers print them
        assert "近期经手了四宗" not in question.stem, question.stem
        assert any("另有" in o for o in question.options)  # held long enough, but not the only home
        assert any("唯一" in o and not _exempt(o) for o in question.options)  # the only home, held too short


def test_strict_requests_and_rules_without_an_only_home_condition_are_not_told():
    assert _write("judge", 1, mode="strict")[0] is None
    vat = Slice(
        id="s-vat",
        path=_PATH,
        mastery="掌握",
        text="个人将购买2年以上（含2年）的住房对外销售的，免征增值税。",
    )
    facts = compile_kb([vat])
    fact = next(f for f in facts if f.kind == "threshold")
    task = Task(slice=vat, qtype="judge", mode="flexible", seed=1, facts=facts)
    assert RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(1))) is None


def test_the_critic_signs_a_right_key_and_rejects_a_wrong_one():
    for qtype in ("judge", "single", "multi"):
        for seed in range(6):
            question, facts = _write(qtype, seed)
            assert question is not None
            assert _issues(question, facts) == [], (question.stem, question.options)
            if qtype == "judge":
                wrong = ["B" if question.answer == ["A"] else "A"]
            else:
                wrong = [next(chr(65 + i) for i in range(4) if chr(65 + i) not in question.answer)]
            assert _issues(question.model_copy(update={"answer": wrong}), facts), (question.stem, wrong)


def test_the_bundled_only_home_rules_are_told_and_signed(sample_sources, compiled_sample):
    facts, slices = compiled_sample
    library = SimpleNamespace(knowledge=KnowledgeIndex(sample_sources.slices), facts=facts)
    told = 0
    for fact in facts:
        if fact.kind != "threshold":
            continue
        for qtype in RECIPE.qtypes:
            task = Task(slice=slices[fact.slice_id], qtype=qtype, mode="flexible", seed=3, facts=facts)
            written = RECIPE.write(fact, Brief(task=task, facts=facts, rng=random.Random(3)))
            if written is None:
                continue
            authored = {"draft": written.draft.model_dump(), "qtype": written.qtype}
            question = write_question(authored, slices[fact.slice_id], "flexible")
            assert ground_question(question, slices[fact.slice_id], library).issues(strict=True) == []
            told += 1
    assert told >= 2
