"""The daily review reminder: one JobQueue job per learner at their chosen time in their own zone, armed
from /settings and re-armed from storage at every start, so a restart loses none.

A reminder with nothing due says nothing: a learner told "0 questions" every day learns to ignore it.
"""

from __future__ import annotations

import logging
from datetime import time

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import Forbidden, TelegramError
from telegram.ext import Application, ContextTypes

from engines.i18n import text
from handlers.context import state
from progress.preferences import DEFAULT_TIME_ZONE, reminders
from progress.summary import reminder_text
from vocabulary import callbacks

log = logging.getLogger(__name__)


def job_name(user_id: int) -> str:
    return f"reminder:{user_id}"


def arm(app: Application, user_id: int, at: time | None) -> None:
    """Replace the learner's reminder job with one at `at` (a time of day with their zone); None: none."""
    for job in app.job_queue.get_jobs_by_name(job_name(user_id)):
        job.schedule_removal()
    if at is not None:
        app.job_queue.run_daily(
            remind,
            time=at,
            name=job_name(user_id),
            user_id=user_id,
            chat_id=user_id,
        )


async def rearm(app: Application) -> int:
    """At start-up: a job for every reminder that is on. How many were armed."""
    scheduled = await reminders(state(app).store, DEFAULT_TIME_ZONE)
    for reminder in scheduled:
        arm(app, reminder.user_id, reminder.at)
    return len(scheduled)


async def remind(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The job: how many questions are due now, with a button that starts reviewing them."""
    found = state(context)
    user_id = context.job.user_id
    due = await found.store.reviews.due_count(user_id, found.store.db.now())
    if due == 0:
        return
    locale = await found.store.users.get_locale(user_id) or found.settings.locale.default
    start = InlineKeyboardButton(text(locale, "reminder_start"), callback_data=callbacks.REVIEW.build())
    try:
        await context.bot.send_message(
            context.job.chat_id, reminder_text(due, locale), reply_markup=InlineKeyboardMarkup([[start]])
        )
    except Forbidden:
        # The learner blocked the bot: their reminder stays stored, and fires again if they come back.
        log.info("reminder for user %s not delivered: the bot is blocked", user_id)
    except TelegramError as exc:
        log.warning("reminder for user %s not delivered: %s", user_id, exc)
