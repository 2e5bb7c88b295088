"""Poll answers. An answer names only the poll, so the delivery (question version, chat, session) is
looked up in storage — it works the same after a restart."""

from __future__ import annotations

import asyncio
import logging

from telegram import Update
from telegram.ext import ContextTypes

from handlers.context import state
from handlers.groups import record_answer
from progress import review
from storage.deliveries import Delivery
from storage.errors import InvalidValueError

log = logging.getLogger(__name__)
# sendPoll returns before the delivery row is written; a very fast answer may arrive in between.
LOOKUP_RETRIES = 10
LOOKUP_PAUSE = 0.1


async def find_delivery(context: ContextTypes.DEFAULT_TYPE, poll_id: str) -> Delivery | None:
    store = state(context).store
    for _ in range(LOOKUP_RETRIES):
        delivery = await store.deliveries.by_poll(poll_id)
        if delivery is not None:
            return delivery
        await asyncio.sleep(LOOKUP_PAUSE)
    return None


async def poll_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    answer = update.poll_answer
    found = state(context)
    found.metrics.updates.inc()
    if answer.user is None or not answer.option_ids:
        return  # an anonymous voter or a retracted vote: nothing to grade
    delivery = await find_delivery(context, answer.poll_id)
    if delivery is None:
        log.warning("poll answer for unknown poll %s (update %s)", answer.poll_id, update.update_id)
        return
    await found.store.users.upsert(answer.user.id, answer.user.full_name, answer.user.username)
    try:
        if delivery.kind == "private":
            recorded = await found.sessions.record(delivery, answer.user.id, tuple(answer.option_ids))
            if recorded is not None:
                # Every graded answer feeds 错题重练, before the reply: its buttons may be tapped at once.
                await review.record_answer(found.store, recorded.attempt)
                await found.sessions.answered(delivery, recorded.attempt)
        elif delivery.kind == "group":
            await record_answer(context.application, delivery, answer.user.id, tuple(answer.option_ids))
    except InvalidValueError as exc:
        # Options the poll does not have: a forged answer, not a failure of the bot.
        log.warning("ignored poll answer %s by %s: %s", update.update_id, answer.user.id, exc)
