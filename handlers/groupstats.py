"""/groupstats: a group's class statistics for its administrators and instructors — per-member accuracy and
participation, the most missed questions with learners' report reasons, then the members as a chart.

Posted in the group itself (paced like every group post): the class sees what its instructor sees.
"""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers.context import remember, state
from handlers.instructors import is_instructor
from handlers.pacing import paced, post
from handlers.status import MESSAGE_LIMIT
from progress.classchart import class_chart_labels, render_class_chart
from progress.classroom import chart_series, class_stats, summary

MAX_DAYS = 365


async def groupstats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    chat, message = update.effective_chat, update.effective_message
    if chat.type not in ("group", "supergroup"):
        await message.reply_text(text(locale, "groupstats_group_only"))
        return
    if not await is_instructor(context, update.effective_user.id, chat.id):
        await message.reply_text(text(locale, "groupstats_not_allowed"))
        return
    typed = " ".join(context.args or [])
    days = window(typed)
    if typed and days is None:
        await message.reply_text(text(locale, "groupstats_days_invalid", typed=typed, limit=MAX_DAYS))
        return
    figures = await class_stats(state(context).store, chat.id, days)
    for part in parts(summary(figures, locale)):
        await post(context.application, chat.id, part)
    if figures.members:
        chart = await asyncio.to_thread(render_class_chart, chart_series(figures), class_chart_labels(locale))
        async with paced(context.application, chat.id):
            await context.bot.send_photo(chat.id, chart)


def parts(body: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The summary cut between lines into messages Telegram takes: a class of a hundred or more members
    lists more than one message holds."""
    out: list[str] = []
    for line in body.splitlines():
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line[:limit])
    return out


def window(typed: str) -> int | None:
    """The number of days asked for, None when none or not a whole number from 1 to `MAX_DAYS`."""
    days = int(typed) if typed.isdigit() else 0
    return days if 1 <= days <= MAX_DAYS else None
