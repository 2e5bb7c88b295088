"""The bot's own sending budget ([telegram] rate_limit): AIORateLimiter holds every call with a chat to it."""

from __future__ import annotations

import time
from pathlib import Path

from testkit.botharness import bot_running, world

BUDGET = 10
SENT = 25


async def test_messages_beyond_the_budget_wait_their_turn(tmp_path: Path):
    """Ten a second: the first ten go at once, the other fifteen take at least a second and a half. Only a
    lower bound is asserted, so a slow machine cannot fail it."""
    async with world(tmp_path) as (emulator, client, settings):
        settings.telegram.rate_limit = BUDGET
        learner = await client.create_user("Budgeted")
        async with bot_running(emulator, settings) as application:
            await client.send_text(learner, "/start")  # a bot may only write to users who started it
            await client.next_message(learner)
            started = time.monotonic()
            for number in range(SENT):
                await application.bot.send_message(learner.id, f"message {number}")
            elapsed = time.monotonic() - started
        received = [m.text for m in await client.transcript(learner) if m.text.startswith("message ")]
    assert received == [f"message {number}" for number in range(SENT)]
    assert elapsed >= (SENT - BUDGET) / BUDGET * 0.9
