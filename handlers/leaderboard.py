"""/leaderboard: the group's standing this week and over all time, read from the stored answers so it
survives restarts and matches what was scored."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from engines.i18n import text
from engines.standings import standings_lines
from handlers.context import remember, state
from handlers.pacing import post

SHOWN = 10


async def leaderboard(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    chat = update.effective_chat
    if chat.type not in ("group", "supergroup"):
        await update.effective_message.reply_text(text(locale, "leaderboard_group_only"))
        return
    rounds = state(context).store.rounds
    week = await rounds.week_leaderboard(chat.id, limit=SHOWN)
    ever = await rounds.chat_leaderboard(chat.id, limit=SHOWN)
    none = [text(locale, "leaderboard_none")]
    body = "\n".join(
        [
            text(locale, "leaderboard_title"),
            text(locale, "leaderboard_week"),
            *(standings_lines(locale, week) or none),
            text(locale, "leaderboard_all"),
            *(standings_lines(locale, ever) or none),
        ]
    )
    await post(context.application, chat.id, body)
