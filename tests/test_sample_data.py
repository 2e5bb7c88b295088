"""The bundled sample is what every new user meets first: it must load cleanly, be big and varied enough,
and every number in it that a calculator covers must be what the calculator computes."""

from __future__ import annotations

from collections import Counter

import calc
from graph.format import numbers_in, same_number
from retrieval.sources import Sources


def _subset_matches(expected: dict, actual: dict) -> bool:
    for key, value in expected.items():
        if isinstance(value, dict):
            if not isinstance(actual.get(key), dict) or not _subset_matches(value, actual[key]):
                return False
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if not same_number(float(actual.get(key)), float(value)):
                return False
        elif actual.get(key) != value:
            return False
    return True


def test_the_sample_loads_without_problems(sample_sources: Sources):
    assert sample_sources.problems == ()


def test_the_knowledge_base_is_broad_and_mixed(sample_sources: Sources):
    slices = sample_sources.slices
    assert len(slices) >= 150
    assert len({s.path[0] for s in slices}) >= 6
    assert len({s.chapter for s in slices}) >= 15
    mastery = Counter(s.mastery for s in slices)
    share = {level: count / len(slices) for level, count in mastery.items()}
    assert 0.35 <= share["掌握"] <= 0.45 and 0.30 <= share["熟悉"] <= 0.40 and 0.20 <= share["了解"] <= 0.30
    assert all(s.rules and s.key_params for s in slices), "the offline author builds questions from these"
    assert sum(1 for s in slices if s.calc_examples) >= 30
    assert sum(1 for s in slices if s.tables) >= 10


def test_the_bank_has_the_type_mix_and_case_stems(sample_sources: Sources):
    questions = sample_sources.questions
    assert len(questions) >= 240
    types = Counter(q.qtype for q in questions)
    assert abs(types["judge"] / len(questions) - 0.40) <= 0.05
    assert abs(types["single"] / len(questions) - 0.35) <= 0.05
    assert abs(types["multi"] / len(questions) - 0.25) <= 0.05
    cases = Counter(q.case_text for q in questions if q.case_text)
    assert sample_sources.case_stems >= 2 and len(cases) >= 2
    assert all(4 <= count <= 5 for count in cases.values())
    assert all(q.kb_chapter is not None for q in questions), "every bank chapter aligns with the textbook"
    assert all("教材依据" in q.explanation and "结论" in q.explanation for q in questions)


def test_every_worked_example_in_the_knowledge_base_recomputes(sample_sources: Sources):
    checked = 0
    for slice_ in sample_sources.slices:
        for example in slice_.calc_examples:
            actual = calc.run(example.calculator, example.args)
            assert _subset_matches(example.expected, actual), (slice_.source, example, actual)
            checked += 1
    assert checked >= 30


def test_every_numeric_bank_answer_recomputes_and_is_the_stated_option(sample_sources: Sources):
    by_id = {q.id: q for q in sample_sources.questions}
    for question_id, check in sample_sources.calc_checks.items():
        question = by_id[question_id]
        value = calc.run(check["calculator"], check["args"])[check["field"]]
        assert same_number(float(value), float(check["expected"])), (question.source, value, check)
        correct = question.options[question.answer_indexes[0]]
        stated = numbers_in(correct)
        assert any(same_number(n, float(value)) for n in stated), (question.source, correct, value)
    assert len(sample_sources.calc_checks) >= 35
