"""错题重练: a missed question comes back when due, a right answer pushes it out, a wrong one brings it back
soon, a revised question comes back as its revision, and "nothing due — next review on …" otherwise."""

from __future__ import annotations

from pathlib import Path

from progress.review import due_questions, outlook, record_answer
from progress.summary import outlook_text
from storage import Store
from tests.test_progress_support import DAY, TAXES, answer, learner, new_question
from tests.test_storage_support import MONDAY_10AM_SHANGHAI, Clock, deed_tax_question

T0 = MONDAY_10AM_SHANGHAI
MINUTE = 60.0


async def due_ids(store: Store, user_id: int = 11) -> list[int]:
    return [d.version.id for d in await due_questions(store, user_id)]


async def test_a_miss_comes_back_soon_and_right_answers_push_it_out(store: Store, clock: Clock) -> None:
    await learner(store)
    version = await new_question(store, TAXES)
    await record_answer(store, await answer(store, clock, version, False, at=T0))

    clock.now = T0 + 5 * MINUTE
    assert await due_ids(store) == []
    clock.now = T0 + 10 * MINUTE
    assert await due_ids(store) == [version.id]

    # Right in review: back the next day, not before.
    await record_answer(store, await answer(store, clock, version, True, at=T0 + 12 * MINUTE))
    clock.now = T0 + 12 * MINUTE + DAY - MINUTE
    assert await due_ids(store) == []
    clock.now = T0 + 12 * MINUTE + DAY
    assert await due_ids(store) == [version.id]

    # Right again: spaced further out than a day.
    second = clock.now
    await record_answer(store, await answer(store, clock, version, True, at=second))
    review = await store.reviews.get(11, version.question_id)
    assert review.due_at - second >= 2 * DAY
    assert (review.reviews, review.misses) == (2, 1)

    # Wrong once it is learnt: back within the same sitting.
    clock.now = review.due_at
    await record_answer(store, await answer(store, clock, version, False))
    lapsed = await store.reviews.get(11, version.question_id)
    assert lapsed.due_at == clock.now + 10 * MINUTE
    assert lapsed.misses == 2


async def test_a_right_answer_to_a_question_never_missed_schedules_nothing(
    store: Store, clock: Clock
) -> None:
    await learner(store)
    attempt = await answer(store, clock, await new_question(store, TAXES), True)
    assert await record_answer(store, attempt) is None
    assert await store.reviews.scheduled_count(11) == 0
    assert outlook_text(await outlook(store, 11), "zh", "Asia/Shanghai") == (
        "还没有需要复习的错题。答错的题会自动加入错题重练。"
    )


async def test_a_revised_question_is_served_as_its_revision(store: Store, clock: Clock) -> None:
    await learner(store)
    missed = await new_question(store, TAXES)
    await record_answer(store, await answer(store, clock, missed, False, at=T0))
    revised = await store.questions.add_version(missed.question_id, deed_tax_question("（修订）"))

    clock.now = T0 + 10 * MINUTE
    [due] = await due_questions(store, 11)
    assert due.version.id == revised.id and due.revised
    assert due.version.question.stem.endswith("（修订）")

    await record_answer(store, await answer(store, clock, due.version, False))
    review = await store.reviews.get(11, missed.question_id)
    assert review.missed_version_id == revised.id and review.misses == 2


async def test_nothing_due_says_when_the_next_review_is(store: Store, clock: Clock) -> None:
    await learner(store)
    for _ in range(2):
        await record_answer(store, await answer(store, clock, await new_question(store, TAXES), False, at=T0))

    clock.now = T0 + MINUTE
    seen = await outlook(store, 11)
    assert (seen.due, seen.scheduled, seen.next_due_at) == (0, 2, T0 + 10 * MINUTE)
    assert (
        outlook_text(seen, "zh", "Asia/Shanghai")
        == "暂无到期的错题（复习计划中共 2 道），下次复习：2026-03-02 10:10。"
    )
    assert outlook_text(seen, "en", "UTC") == (
        "Nothing due for review (2 questions scheduled); next review: 2026-03-02 02:10."
    )


async def test_due_questions_are_per_learner_oldest_first_and_survive_a_restart(
    db_path: Path, clock: Clock
) -> None:
    store = await Store.open(db_path, clock)
    await learner(store, 11)
    await learner(store, 12)
    later, earlier = await new_question(store, TAXES), await new_question(store, TAXES)
    await record_answer(store, await answer(store, clock, later, False, at=T0 + MINUTE))
    await record_answer(store, await answer(store, clock, earlier, False, at=T0))
    await record_answer(store, await answer(store, clock, earlier, False, at=T0, user_id=12))
    await store.close()

    clock.now = T0 + DAY
    store = await Store.open(db_path, clock)
    try:
        assert await due_ids(store, 11) == [earlier.id, later.id]
        assert await due_ids(store, 12) == [earlier.id]
        assert [d.version.id for d in await due_questions(store, 11, limit=1)] == [earlier.id]
    finally:
        await store.close()
