"""The daily review reminder, end to end: set in /settings, armed again after a restart at the learner's
time in their zone, and sent only when something is due, with a button that starts reviewing."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from progress.preferences import next_firing
from progress.review import record_answer
from storage import Store
from testkit.botharness import bot_running, world
from tests.test_bot_private import choose, wrong_choice
from tests.test_bot_settings import pick
from vocabulary import callbacks

DAY = 86400


async def reminder_at(client, user, hour: str, zone: str) -> None:
    await client.send_text(user, "/settings")
    menu = await client.next_message(user)
    menu = await pick(client, user, menu, "时区", zone, "提醒", hour)
    assert f"每日复习提醒：每天 {hour}" in menu.text and f"时区：{zone}" in menu.text


def fire_now(app, user_id: int):
    """Bring the learner's daily job forward to now, as the clock reaching its time would."""
    (job,) = app.job_queue.get_jobs_by_name(f"reminder:{user_id}")
    job.job.modify(next_run_time=datetime.now(UTC))


async def test_a_reminder_fires_at_its_time_after_a_restart_only_when_something_is_due(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        eve = await client.create_user("Eve")
        fay = await client.create_user("Fay")
        async with bot_running(emulator, settings):
            await choose(client, eve, "judge", count=1)
            quiz = await client.wait_for_poll(eve, timeout=20)
            await client.vote(eve, quiz, wrong_choice(quiz.poll))
            await client.wait_for_text(eve, "本轮结束")
            await reminder_at(client, eve, "08:00", "Europe/Berlin")
            await reminder_at(client, fay, "21:00", "Asia/Shanghai")
        # Eve missed that question a day ago: by now it is due for review. Fay has nothing to review.
        store = await Store.open(settings.storage.database)
        try:
            (attempt,) = await store.attempts.for_session(1)
            await record_answer(store, replace(attempt, answered_at=time.time() - DAY))
        finally:
            await store.close()

        async with bot_running(emulator, settings) as app:
            (job,) = app.job_queue.get_jobs_by_name(f"reminder:{eve.id}")
            assert job.next_t.timestamp() == next_firing("08:00", "Europe/Berlin", time.time())
            assert f"{job.next_t:%H:%M}" == "08:00" and str(job.next_t.tzinfo) == "Europe/Berlin"
            fire_now(app, fay.id)
            fire_now(app, eve.id)
            reminder = await client.wait_for_text(eve, "待复习", timeout=20)
            assert reminder.text == "今天还有 1 道题待复习。"
            assert [(b.text, b.data) for b in reminder.buttons] == [("开始复习", callbacks.REVIEW.build())]
            await client.settle(fay, quiet=1.0)
            # Having fired, the job waits for the next day's time.
            (job,) = app.job_queue.get_jobs_by_name(f"reminder:{eve.id}")
            assert job.next_t.timestamp() == next_firing("08:00", "Europe/Berlin", time.time())
        said_to_fay = [m for m in await client.transcript(fay) if m.from_bot and "待复习" in m.body]
        assert said_to_fay == []


async def test_turning_the_reminder_off_removes_its_job(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings) as app:
        gil = await client.create_user("Gil")
        await reminder_at(client, gil, "07:00", "UTC")
        (job,) = app.job_queue.get_jobs_by_name(f"reminder:{gil.id}")
        assert f"{job.next_t:%H:%M}" == "07:00" and str(job.next_t.tzinfo) == "UTC"
        await client.send_text(gil, "/settings")
        menu = await client.next_message(gil)
        menu = await pick(client, gil, menu, "提醒", "关闭")
        assert "每日复习提醒：关闭" in menu.text
        assert app.job_queue.get_jobs_by_name(f"reminder:{gil.id}") == ()
