"""Answers summed per chapter and per quarter hour, including answers stored before the chapter became a
column."""

from __future__ import annotations

from pathlib import Path

from storage import Store
from storage.db import Database
from storage.migrations import MIGRATIONS
from tests.test_progress_support import BASICS, TAXES, answer, learner, new_question
from tests.test_storage_support import Clock, deed_tax_question
from vocabulary.records import GenerationRequest


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
        counts = await store.history.by_chapter(11)
    finally:
        await store.close()
    assert sorted((c.chapter, c.answered, c.correct) for c in counts) == [((), 1, 1), (TAXES, 1, 0)]


async def test_answers_are_summed_per_chapter_and_per_quarter_hour(store: Store, clock: Clock) -> None:
    await learner(store)
    taxes, revised_taxes = await new_question(store, TAXES), await new_question(store, TAXES)
    basics = await new_question(store, BASICS)
    start = 1772416800.0  # a quarter hour starts here (Monday 10:00 in Shanghai)
    for version, correct, at in (
        (taxes, True, start),
        (revised_taxes, False, start + 899),
        (basics, True, start + 900),
        (taxes, False, start + 86400),
    ):
        await answer(store, clock, version, correct, at=at)

    counts = await store.history.by_chapter(11)
    assert sorted((c.chapter, c.answered, c.correct) for c in counts) == [(BASICS, 1, 1), (TAXES, 3, 1)]
    slots = await store.history.by_slot(11)
    assert [(s.start, s.answered, s.correct) for s in slots] == [
        (start, 2, 1),
        (start + 900, 1, 1),
        (start + 86400, 1, 0),
    ]
