"""/export: an instructor's delivered questions over a date range, sent to them as an .xlsx document.

The range comes with the command (`/export 2026-03-01 2026-03-31`) or, asked for, as the next message in
the private chat. Only configured instructors: the file holds every question of their chats and rounds.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from telegram import ForceReply, Update
from telegram.ext import ApplicationHandlerStop, ContextTypes

from engines.i18n import plural, text
from handlers.context import remember, state
from handlers.instructors import instructor_ids
from progress.export import MAX_BANK_OPTIONS, PeriodError, export_delivered, parse_period
from progress.preferences import learner_zone

# The private chat waiting for the instructor's date range.
RANGE_KEY = "awaiting_export_range"


async def export(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    message, user = update.effective_message, update.effective_user
    if update.effective_chat.type != "private":
        await message.reply_text(text(locale, "export_private_only"))
        return
    if user.id not in instructor_ids(context):
        await message.reply_text(text(locale, "export_not_allowed"))
        return
    zone = learner_zone(await state(context).store.preferences.get(user.id))
    if context.args:
        await _send_export(update, context, locale, " ".join(context.args), zone)
        return
    context.user_data[RANGE_KEY] = update.effective_chat.id
    await message.reply_text(text(locale, "export_prompt", zone=zone), reply_markup=ForceReply())


async def range_received(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The message after /export's question is the range; any other text goes on to later handlers."""
    if context.user_data is None or context.user_data.get(RANGE_KEY) != update.effective_chat.id:
        return
    context.user_data.pop(RANGE_KEY)
    locale = await remember(update, context)
    zone = learner_zone(await state(context).store.preferences.get(update.effective_user.id))
    await _send_export(update, context, locale, update.effective_message.text or "", zone)
    raise ApplicationHandlerStop


async def _send_export(
    update: Update, context: ContextTypes.DEFAULT_TYPE, locale: str, typed: str, zone: str
) -> None:
    message = update.effective_message
    tz = ZoneInfo(zone)
    try:
        period = parse_period(typed, tz)
    except PeriodError as exc:
        await message.reply_text(f"{text(locale, exc.key, **exc.values)}\n{text(locale, 'export_again')}")
        return
    found = state(context)
    chats = await found.store.deliveries.instructor_chats(update.effective_user.id)
    slices = {piece.id: piece for piece in found.sources.slices}
    dates = {"first": period.first.isoformat(), "last": period.last.isoformat()}
    try:
        exported = await export_delivered(found.store, chats, period, slices, locale, tz)
    except ValueError:
        await message.reply_text(text(locale, "export_too_wide", limit=MAX_BANK_OPTIONS))
        return
    if exported.versions == 0:
        await message.reply_text(text(locale, "export_nothing", **dates))
        return
    caption = plural(locale, "export_caption", exported.questions, versions=exported.versions, **dates)
    await message.reply_document(exported.content, filename=exported.filename, caption=caption)
