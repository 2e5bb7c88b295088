"""Telegram's side of a timed round: the poll update that says a poll closed, and the initiator's answer
when fewer questions were written than asked for. Preparing the round is engines/roundprep.py's, playing
it engines/rounds.py's."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers.context import acknowledge, remember, state
from vocabulary import callbacks


async def poll_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram's poll update. It also comes for every vote; only a closed poll of a round matters."""
    found = state(context)
    found.metrics.updates.inc()
    if update.poll.is_closed:
        await found.rounds.poll_closed(update.poll.id)


async def confirm_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The initiator's answer to "only N of M questions could be written — start with N?"."""
    query = update.callback_query
    locale = await remember(update, context)
    round_id, choice = callbacks.ROUND_CONFIRM.parse(query.data)
    found = state(context)
    playing = await found.prep.claim(round_id, query.from_user.id)
    if isinstance(playing, str):
        await acknowledge(query, text(locale, playing))
        return
    await acknowledge(query)
    if choice == "go":
        await query.edit_message_text(text(locale, "round_starting", count=len(playing.versions)))
        await found.rounds.start(playing)
    else:
        await found.rounds.drop(playing)
        await query.edit_message_text(text(locale, "round_cancelled"))
