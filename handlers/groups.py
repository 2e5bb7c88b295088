"""Group quizzes: /groupquiz starts a timed round (instructors and the group's administrators only),
/stopquiz ends it early with the leaderboard, and members' poll answers are scored and, like a private
answer, feed each member's own 错题重练 schedule.

A group answer gets no reply of its own — twenty members answering would flood the chat; the explanation
after the poll closes and the leaderboard at the end speak to everyone at once.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import Application, ContextTypes

from engines.i18n import text
from engines.state import BotState
from handlers import roundsetup
from handlers.context import remember, state
from handlers.instructors import is_instructor
from handlers.pacing import post
from progress import review
from storage.deliveries import Delivery

log = logging.getLogger(__name__)
GROUP_TYPES = ("group", "supergroup")


async def groupquiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not state(context).dialogues.admit(update.effective_user.id):
        return  # a burst of /groupquiz: the excess is dropped quietly
    locale = await remember(update, context)
    chat, user = update.effective_chat, update.effective_user
    if chat.type not in GROUP_TYPES:
        await update.effective_message.reply_text(text(locale, "round_group_only"))
        return
    if not await is_instructor(context, user.id, chat.id):
        await post(context.application, chat.id, text(locale, "groupquiz_not_allowed"))
        return
    if not await state(context).rounds.make_room(chat.id, locale):
        await post(context.application, chat.id, text(locale, "round_busy"))
        return
    await roundsetup.open_dialogue(update, context, locale, "group", chat.id, chat.title or "")


async def stopquiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    chat, user = update.effective_chat, update.effective_user
    if chat.type not in GROUP_TYPES:
        await update.effective_message.reply_text(text(locale, "round_group_only"))
        return
    live = await state(context).store.rounds.live(chat.id)
    if live is None:
        # A setup being chosen may be cancelled by those who may start one, as /groupquiz decides.
        if roundsetup.dialogue_open(context) and not await is_instructor(context, user.id, chat.id):
            key = "groupquiz_cancel_not_allowed"
        else:
            key = "round_cancelled" if roundsetup.cancel_dialogue(context) else "stopquiz_none"
        await post(context.application, chat.id, text(locale, key))
        return
    if user.id != live.initiator_id and not await is_instructor(context, user.id, chat.id):
        await post(context.application, chat.id, text(locale, "stopquiz_not_allowed"))
        return
    await state(context).rounds.stop(live)
    if live.status == "preparing":
        await post(context.application, chat.id, text(locale, "round_cancelled"))


async def record_answer(
    app: Application, delivery: Delivery, user_id: int, option_ids: tuple[int, ...]
) -> None:
    """Score a member's answer to a group quiz. The first answer counts (storage keeps it); one that
    arrives after the poll was closed and explained is ignored, so the explanation's tally and the
    leaderboard never disagree. A counted answer reschedules the member's review of the question, so a
    miss in the group comes back in their private /review."""
    found: BotState = state(app)
    if delivery.closed:
        log.info("ignored a late answer by %s to poll %s", user_id, delivery.poll_id)
        return
    recorded = await found.store.attempts.record(delivery.id, user_id, option_ids)
    if recorded.new:
        await review.record_answer(found.store, recorded.attempt)
