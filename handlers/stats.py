"""/stats: a learner's own statistics in their private chat — the text, then the last 30 days as a chart."""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers.context import remember, state
from progress.chart import render_chart
from progress.preferences import learner_zone
from progress.stats import learner_stats
from progress.summary import chart_labels, stats_text


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    message, user = update.effective_message, update.effective_user
    if update.effective_chat.type != "private":
        await message.reply_text(text(locale, "stats_private_only"))
        return
    found = state(context)
    zone = learner_zone(await found.store.preferences.get(user.id))
    chapters = [chapter.key for chapter in found.sources.tree.chapters if chapter.slices]
    figures = await learner_stats(found.store, user.id, chapters, zone)
    await message.reply_text(stats_text(figures, locale))
    if figures.has_data:
        # Drawing takes up to seconds of CPU: other chats' updates go on meanwhile.
        chart = await asyncio.to_thread(render_chart, figures.days, chart_labels(locale))
        await message.reply_photo(chart)
