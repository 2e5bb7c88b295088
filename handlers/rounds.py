"""Telegram's side of a timed round: the poll update that says a poll closed. Playing the round is the
engine's (engines/rounds.py); preparing it is handlers/roundprep.py."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from handlers.context import state


async def poll_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram's poll update. It also comes for every vote; only a closed poll of a round matters."""
    found = state(context)
    found.metrics.updates.inc()
    if update.poll.is_closed:
        await found.rounds.poll_closed(update.poll.id)
