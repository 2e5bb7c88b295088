"""Helpers for the timed-round tests (groups and channels): round time and pacing shrunk so a round of
"30-second" questions plays in a couple of seconds, and the settings dialogue walked by its labels."""

from __future__ import annotations

from emulator import EmulatorClient, EmulatorOptions
from emulator.views import ChatMessage, EmuChat, EmuUser
from engines.clock import Pace

# Telegram's shortest open period is 5 s; shrunk rounds need shorter ones.
QUICK_POLLS = EmulatorOptions(min_open_period=0.05)


def quick_pace(second: float = 0.05, pace: float | None = None, rate_limiter: bool = True) -> Pace:
    """One round second lasts `second` real seconds; the pacing rule (3 s apart, 20 per 60 s) is scaled by
    `pace` (default: the same), and AIORateLimiter's per-group limit with it, or switched off when only the
    bot's own pacing is under test. Pass it to `bot_running`."""
    pace = second if pace is None else pace
    return Pace(
        second=second,
        post_interval=3.0 * pace,
        post_window=60.0 * pace,
        group_limiter=rate_limiter,
    )


async def walk_dialogue(
    client: EmulatorClient, user: EmuUser, menu: ChatMessage, labels: list[str]
) -> ChatMessage:
    """Press one button per label on the settings menu, which is edited in place; the final summary."""
    for label in labels:
        await client.press(user, menu, label)
        menu = await client.wait_for_edit(menu)
    return menu


async def start_group_round(
    client: EmulatorClient,
    group: EmuChat,
    user: EmuUser,
    count: str = "5",
    seconds: str = "30",
    qtype: str = "单选",
) -> ChatMessage:
    await client.send_text(user, "/groupquiz", group)
    menu = await client.next_message(group)
    return await walk_dialogue(client, user, menu, ["全部章节", qtype, "严谨（贴近教材）", count, seconds])


def wrong_choice(poll) -> list[int]:
    return [next(i for i in range(len(poll.options)) if i not in poll.correct_option_ids)]


def replies_to(message: ChatMessage):
    return lambda reply: reply.reply_to_message_id == message.message_id
