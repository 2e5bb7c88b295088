"""Answers read back with their chapter, including answers stored before the chapter became a column."""

from __future__ import annotations

from pathlib import Path

from graph.schemas import GenerationRequest
from storage import Store
from storage.db import Database
from storage.migrations import MIGRATIONS
from tests.test_progress_support import TAXES, answer, learner, new_question
from tests.test_storage_support import (  # noqa: F401 - the *_fixture names are pytest fixtures
    Clock,
    clock_fixture,
    db_path_fixture,
    deed_tax_question,
    store_fixture,
)


async def test_answers_stored_before_the_upgrade_carry_their_chapter(db_path: Path, clock: Clock) -> None:
    old = Store(await Database.open(db_path, clock, migrations=MIGRATIONS[:2]))
    await learner(old)
    filed = await new_question(old, TAXES)
    unfiled = await old.questions.record(
        GenerationRequest(chat_id=11, question_id="plain", qtype="single"), deed_tax_question("无章节")
    )
    await answer(old, clock, filed, False)
    await answer(old, clock, unfiled, True)
    await old.close()

    store = await Store.open(db_path, clock)
    try:
        answers = await store.history.answers(11)
    finally:
        await store.close()
    assert [(a.chapter, a.correct, a.question_id) for a in answers] == [
        (TAXES, False, filed.question_id),
        ((), True, unfiled.question_id),
    ]
