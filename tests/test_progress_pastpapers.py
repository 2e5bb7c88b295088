"""真题练习: the bank's past questions served by chapter and type, cases whole, graded like any question."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from graph.format import SHORT_EXPLANATION_LIMIT, conclusion_letters
from progress.pastpapers import (
    NoPastQuestionsError,
    PastItem,
    PastPapers,
    past_question,
    store_past,
)
from retrieval.models import MotherQuestion
from retrieval.sources import Sources
from storage import Store
from tests.test_storage_support import Clock, deliver

LEARNER, OTHER_LEARNER = 31, 32


def case_mothers(sources: Sources) -> list[MotherQuestion]:
    first = next(q for q in sources.questions if q.case_text)
    return [q for q in sources.questions if q.case_text == first.case_text]


async def serve(store: Store, chat_id: int, items: list[PastItem], clock: Clock) -> list[int]:
    """Deliver every question of a round as the bot would; the delivery ids in order."""
    delivered = []
    for item in items:
        for past in item.questions:
            clock.advance(60)
            version = await store_past(store, chat_id, past)
            delivery = await deliver(store, version.id, chat_id, f"{chat_id}-{clock.now}", kind="private")
            delivered.append(delivery.id)
    return delivered


@pytest.fixture
async def learners(store: Store) -> None:
    for user_id in (LEARNER, OTHER_LEARNER):
        await store.users.upsert(user_id, f"学员{user_id}")
        await store.chats.upsert(user_id, "private")


def test_a_case_sub_question_becomes_a_poll_with_its_situation_and_the_papers_explanation(
    sample_sources: Sources,
) -> None:
    mother = case_mothers(sample_sources)[0]
    question = past_question(mother).question
    assert (question.case, question.stem, question.options) == (
        mother.case_text,
        mother.stem,
        list(mother.options),
    )
    assert (question.answer_text, question.qtype) == (mother.answer, mother.qtype)
    assert question.chapter == list(mother.kb_chapter)
    assert question.slice_path.startswith(" > ".join(mother.kb_chapter))
    # The paper's explanation in the bot's three-part display form, its conclusion naming the key.
    assert question.explanation.startswith("1、")
    assert conclusion_letters(question.explanation, question.qtype) == mother.answer
    assert 0 < len(question.short_explanation) <= SHORT_EXPLANATION_LIMIT


def test_a_question_too_long_for_a_poll_is_skipped_with_the_reason(sample_sources: Sources) -> None:
    mother = next(q for q in sample_sources.questions if q.qtype == "single" and not q.case_text)
    too_long = replace(mother, id="q-long", stem="题" * 301)
    wide = replace(mother, id="q-wide", stem="另一题（　）", options=("甲" * 101, *mother.options[1:]))
    papers = PastPapers([mother, too_long, wide])
    assert [(s.mother_id, s.reason) for s in papers.skipped] == [
        ("q-long", "stem of 301 characters is over a poll's 300"),
        ("q-wide", "option A is over a poll's 100 characters"),
    ]
    assert papers.count(None, "mixed") == 1
    with pytest.raises(ValueError, match="over a poll's 300"):
        past_question(too_long)


@pytest.mark.usefixtures("learners")
async def test_a_round_serves_the_chosen_chapter_and_type_with_cases_whole(
    store: Store, sample_sources: Sources
) -> None:
    case = case_mothers(sample_sources)
    chapter = case[0].kb_chapter
    papers = PastPapers(sample_sources.questions)
    wanted = [q for q in sample_sources.questions if q.kb_chapter == chapter and q.qtype == "single"]
    assert papers.count({chapter}, "single") == len(wanted)

    items = await papers.pick(store, LEARNER, {chapter}, "single", len(wanted), seed=1)
    served = [past for item in items for past in item.questions]
    assert sorted(p.mother_id for p in served) == sorted(q.id for q in wanted)
    assert all(p.question.qtype == "single" and tuple(p.question.chapter) == chapter for p in served)
    cases = [item for item in items if item.case]
    assert [item.case for item in cases] == [case[0].case_text]
    # The case's single-choice sub-questions follow its situation in the paper's order.
    assert [p.mother_id for p in cases[0].questions] == [q.id for q in case if q.qtype == "single"]
    assert all(not item.case and len(item.questions) == 1 for item in items if item not in cases)

    mixed = await papers.pick(store, LEARNER, {chapter}, "mixed", 100, seed=1)
    whole_case = next(item for item in mixed if item.case)
    assert [p.mother_id for p in whole_case.questions] == [q.id for q in case]


@pytest.mark.usefixtures("learners")
async def test_a_case_longer_than_the_rest_of_the_round_is_cut_not_dropped(
    store: Store, sample_sources: Sources
) -> None:
    case = case_mothers(sample_sources)
    papers = PastPapers(case)
    items = await papers.pick(store, LEARNER, None, "mixed", 2)
    assert [(item.case, [p.mother_id for p in item.questions]) for item in items] == [
        (case[0].case_text, [case[0].id, case[1].id])
    ]


async def test_no_question_of_the_type_in_the_chapter_is_an_error_naming_them(
    store: Store, sample_sources: Sources
) -> None:
    chapter = next(q.kb_chapter for q in sample_sources.questions if q.kb_chapter)
    singles = [q for q in sample_sources.questions if q.qtype == "single"]
    with pytest.raises(NoPastQuestionsError, match=f"no past questions of type judge in {chapter[0]}"):
        await PastPapers(singles).pick(store, LEARNER, {chapter}, "judge", 5)


@pytest.mark.usefixtures("learners")
async def test_rounds_do_not_repeat_a_question_until_the_chat_has_seen_them_all(
    store: Store, clock: Clock, sample_sources: Sources
) -> None:
    judges = Counter(q.kb_chapter for q in sample_sources.questions if q.qtype == "judge" and q.kb_chapter)
    chapter = judges.most_common(1)[0][0]
    papers = PastPapers(sample_sources.questions)
    total = papers.count({chapter}, "judge")
    assert total >= 7
    seen: list[str] = []
    for round_number in range(total // 3):
        items = await papers.pick(store, LEARNER, {chapter}, "judge", 3, seed=round_number)
        keys = [p.key for item in items for p in item.questions]
        assert len(keys) == 3 and not set(keys) & set(seen)
        await serve(store, LEARNER, items, clock)
        seen += keys
    # Once everything was shown, what was shown longest ago comes back first.
    rest = total - len(seen)
    again = await papers.pick(store, LEARNER, {chapter}, "judge", rest + 2, seed=99)
    keys = [p.key for item in again for p in item.questions]
    assert set(keys[:rest]).isdisjoint(seen) and keys[rest:] == seen[:2]


@pytest.mark.usefixtures("learners")
async def test_two_chats_get_their_questions_in_different_orders(
    store: Store, sample_sources: Sources
) -> None:
    papers = PastPapers(sample_sources.questions)
    first = await papers.pick(store, LEARNER, None, "single", 10)
    second = await papers.pick(store, OTHER_LEARNER, None, "single", 10)
    assert [p.key for i in first for p in i.questions] != [p.key for i in second for p in i.questions]
    # The same chat and seed, asked again, is the same round: the order is derived, not random state.
    assert await papers.pick(store, LEARNER, None, "single", 10) == first


@pytest.mark.usefixtures("learners")
async def test_a_past_question_is_graded_and_stored_like_any_other(
    store: Store, clock: Clock, sample_sources: Sources
) -> None:
    mother = next(q for q in sample_sources.questions if q.qtype == "multi")
    past = past_question(mother)
    version = await store_past(store, LEARNER, past)
    assert version.question == past.question and version.thread_id == f"{LEARNER}/bank-{mother.id}"
    right = await deliver(store, version.id, LEARNER, "right", kind="private")
    wrong = await deliver(store, version.id, LEARNER, "wrong", kind="private")
    first = await store.attempts.record(right.id, LEARNER, list(mother.answer_indexes))
    second = await store.attempts.record(wrong.id, LEARNER, list(mother.answer_indexes[:1]))
    assert (first.attempt.correct, second.attempt.correct) == (True, False)

    # Served again in the same chat it is the same stored question; after an instructor's revision,
    # the revision is what comes back.
    assert (await store_past(store, LEARNER, past)).id == version.id
    revised = past.question.model_copy(
        update={"explanation": "1、试题分析：改写的解析。\n2、结论：本题选AB。"}
    )
    fixed = await store.questions.add_version(version.question_id, revised)
    assert (await store_past(store, LEARNER, past)).id == fixed.id
    # Another chat gets a question of its own.
    assert (await store_past(store, OTHER_LEARNER, past)).question_id != version.question_id


@pytest.mark.usefixtures("learners")
async def test_calculation_only_serves_the_questions_with_a_recomputable_check(
    store: Store, sample_sources: Sources
) -> None:
    checked = {q.id for q in sample_sources.questions if q.id in sample_sources.calc_checks}
    papers = PastPapers(sample_sources.questions, sample_sources.calc_checks)
    assert 0 < papers.count(None, "mixed", calculation_only=True) < papers.count(None, "mixed")
    items = await papers.pick(store, LEARNER, None, "mixed", 100, calculation_only=True)
    served = {p.mother_id for item in items for p in item.questions if not item.case}
    assert served and served <= checked
