"""What preferences mean at a moment: the learner's language, their zone, and the daily reminders start-up
re-arms with the number of questions due for each learner."""

from __future__ import annotations

from datetime import UTC, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from progress.preferences import language, learner_zone, next_firing, reminders
from progress.review import record_answer
from progress.summary import reminder_text
from storage import InvalidValueError, Store
from storage.preferences import Preferences
from tests.test_progress_support import TAXES, answer, learner, new_question
from tests.test_storage_support import MONDAY_10AM_SHANGHAI, Clock


@pytest.mark.parametrize(
    ("stored", "code", "expected"),
    [
        ("en", "zh-hans", "en"),  # the learner's own /lang choice wins
        (None, "zh-hans", "zh"),
        (None, "en-US", "en"),
        (None, "zh_CN", "zh"),
        (None, "de", "zh"),  # a language we do not have: the bot's default
        (None, None, "en"),
    ],
)
def test_language_defaults_from_telegrams_language_code(stored, code, expected) -> None:
    default = "en" if code is None else "zh"
    assert language(stored, code, default) == expected


def test_zone_is_the_learners_own_or_the_default() -> None:
    assert learner_zone(Preferences(time_zone="Europe/Berlin")) == "Europe/Berlin"
    assert learner_zone(Preferences()) == "Asia/Shanghai"
    assert learner_zone(Preferences(), "UTC") == "UTC"
    with pytest.raises(InvalidValueError, match="time_zone: 'Nowhere' is not a time zone name"):
        learner_zone(Preferences(), "Nowhere")


def test_next_firing_keeps_the_wall_clock_time_across_a_clock_change() -> None:
    # New York moves to summer time on Sunday 8 March 2026: 09:00 is 14:00 UTC before, 13:00 UTC after.
    saturday_10am = datetime(2026, 3, 7, 15, 0, tzinfo=UTC).timestamp()
    assert (
        next_firing("09:00", "America/New_York", saturday_10am)
        == datetime(2026, 3, 8, 13, 0, tzinfo=UTC).timestamp()
    )
    saturday_8am = datetime(2026, 3, 7, 13, 0, tzinfo=UTC).timestamp()
    assert (
        next_firing("09:00", "America/New_York", saturday_8am)
        == datetime(2026, 3, 7, 14, 0, tzinfo=UTC).timestamp()
    )


async def test_reminders_to_rearm_after_a_restart_with_questions_due(db_path: Path, clock: Clock) -> None:
    store = await Store.open(db_path, clock)
    for user_id in (11, 12, 13):
        await learner(store, user_id)
    await store.users.set_locale(12, "en")
    await store.preferences.update(11, reminder="08:00")
    await store.preferences.update(12, reminder="21:15", time_zone="Europe/Berlin")
    for _ in range(2):
        missed = await new_question(store, TAXES)
        await record_answer(store, await answer(store, clock, missed, False, at=MONDAY_10AM_SHANGHAI - 3600))
    await record_answer(store, await answer(store, clock, missed, False, at=MONDAY_10AM_SHANGHAI, user_id=13))
    await store.close()

    store = await Store.open(db_path, clock)  # Monday 10:00 in Shanghai, 02:00 UTC
    try:
        armed = await reminders(store)
    finally:
        await store.close()

    assert [(r.user_id, r.at, r.time_zone, r.locale, r.due) for r in armed] == [
        (11, time(8, 0, tzinfo=ZoneInfo("Asia/Shanghai")), "Asia/Shanghai", None, 2),
        (12, time(21, 15, tzinfo=ZoneInfo("Europe/Berlin")), "Europe/Berlin", "en", 0),
    ]
    assert armed[0].next_at == datetime(2026, 3, 3, 0, 0, tzinfo=UTC).timestamp()  # Tuesday 08:00 Shanghai
    assert armed[1].next_at == datetime(2026, 3, 2, 20, 15, tzinfo=UTC).timestamp()  # Monday 21:15 Berlin
    assert reminder_text(armed[0].due, "zh") == "今天还有 2 道题待复习。"
    assert reminder_text(1, "en") == "1 question is waiting for review today."
