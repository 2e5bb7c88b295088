"""The review schedule rows: created on the first miss only, one per learner and question, bad references
named."""

from __future__ import annotations

import pytest

from storage import NotFoundError, Store
from storage.reviews import Reschedule
from tests.test_progress_support import TAXES, learner, new_question
from tests.test_storage_support import deed_tax_question


async def test_one_row_per_learner_and_question_across_versions(store: Store) -> None:
    await learner(store)
    first = await new_question(store, TAXES)
    second = await store.questions.add_version(first.question_id, deed_tax_question("（修订）"))

    assert await store.reviews.reschedule(11, first.id, lambda current: None) is None
    created = await store.reviews.reschedule(11, first.id, lambda current: Reschedule("{}", 100.0, True))
    assert (created.missed_version_id, created.reviews, created.misses, created.due_at) == (
        first.id,
        0,
        1,
        100.0,
    )
    seen = []

    def right(current):
        seen.append(current)
        return Reschedule('{"n": 2}', 500.0, False)

    kept = await store.reviews.reschedule(11, second.id, right)
    assert seen == [created]
    assert (kept.missed_version_id, kept.reviews, kept.misses, kept.card) == (first.id, 1, 1, '{"n": 2}')
    assert await store.reviews.scheduled_count(11) == 1
    assert await store.reviews.due_counts(500.0) == {11: 1}
    assert await store.reviews.due_counts(499.0) == {}


async def test_unknown_user_or_version_is_named(store: Store) -> None:
    await learner(store)
    version = await new_question(store, TAXES)
    with pytest.raises(NotFoundError, match="question version 999 is not stored"):
        await store.reviews.reschedule(11, 999, lambda current: None)
    with pytest.raises(NotFoundError, match="user 98 is not stored"):
        await store.reviews.reschedule(98, version.id, lambda current: None)
