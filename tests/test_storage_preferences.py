"""Learner preferences: defaults until changed, kept across restarts, every bad value named."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import InvalidValueError, NotFoundError, Store
from storage.preferences import Preferences
from storage.quiz_settings import QuizSettings
from tests.test_progress_support import BASICS, TAXES, learner
from tests.test_storage_support import Clock


async def test_defaults_until_changed_and_kept_across_a_restart(db_path: Path, clock: Clock) -> None:
    store = await Store.open(db_path, clock)
    await learner(store)
    assert await store.preferences.get(11) == Preferences()
    assert (await store.preferences.get(11)).reminder is None  # reminders are off by default
    quiz = QuizSettings(chapters=(TAXES, BASICS), qtype="single", mode="flexible", count=10)
    await store.preferences.update(11, quiz=quiz, source="past_papers", difficulty="hard")
    await store.preferences.update(11, reminder="08:30", time_zone="Europe/Berlin")
    await store.close()

    store = await Store.open(db_path, clock)
    try:
        assert await store.preferences.get(11) == Preferences(
            quiz=quiz, source="past_papers", difficulty="hard", reminder="08:30", time_zone="Europe/Berlin"
        )
        await store.preferences.update(11, reminder=None, difficulty=None)
        kept = await store.preferences.get(11)
        assert (kept.reminder, kept.difficulty, kept.source, kept.quiz) == (None, None, "past_papers", quiz)
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"reminder": "25:00"}, "reminder: '25:00' is not a time of day as HH:MM"),
        ({"reminder": "8:30"}, "reminder: '8:30' is not a time of day as HH:MM"),
        ({"time_zone": "Mars/Olympus"}, "time_zone: 'Mars/Olympus' is not a time zone name"),
        ({"source": "web"}, "source: 'web' is not one of 'generated', 'past_papers'"),
        ({"difficulty": "extreme"}, "difficulty: 'extreme' is not one of None, 'easy', 'medium', 'hard'"),
        ({"colour": "blue"}, "unknown preference in \\['colour'\\]"),
    ],
)
async def test_bad_values_are_named_and_nothing_is_stored(
    store: Store, changes: dict[str, object], message: str
) -> None:
    await learner(store)
    await store.preferences.update(11, reminder="07:00")
    with pytest.raises(InvalidValueError, match=message):
        await store.preferences.update(11, **changes)
    assert (await store.preferences.get(11)).reminder == "07:00"


async def test_preferences_of_an_unknown_user_are_refused(store: Store) -> None:
    with pytest.raises(NotFoundError, match="user 99 is not stored"):
        await store.preferences.update(99, reminder="07:00")


async def test_only_learners_with_a_reminder_on_are_listed(store: Store) -> None:
    for user_id in (11, 12, 13):
        await learner(store, user_id)
    await store.users.set_locale(12, "en")
    await store.preferences.update(11, reminder="07:00")
    await store.preferences.update(12, reminder="21:15", time_zone="UTC")
    await store.preferences.update(13, source="past_papers")
    rows = await store.preferences.with_reminders()
    assert [(r.user_id, r.reminder, r.time_zone, r.locale) for r in rows] == [
        (11, "07:00", None, None),
        (12, "21:15", "UTC", "en"),
    ]
