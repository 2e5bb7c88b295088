"""👎 on a delivered quiz. An instructor's 👎 asks for a reason (and an optional comment), sends the question
back through the critic/fixer cycle and shows the verified revision as a preview to publish (`revisions`
posts it as a reply labelled v2, v3 …); a learner's 👎 files a report that every instructor receives with a
修复 button (the learner is told when none could receive it), and /reports lists the open ones."""

from __future__ import annotations

import logging

from telegram import (
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    ReplyParameters,
    Update,
)
from telegram.error import TelegramError
from telegram.ext import Application, ApplicationHandlerStop, ContextTypes

from engines.i18n import text
from engines.revisions import Declined, Failed, revise, take_up_interrupted
from engines.state import BotState
from handlers.context import acknowledge, remember, state
from handlers.instructors import instructor_ids, is_instructor
from handlers.polls import option_list
from handlers.revisions import mark, send_preview
from handlers.status import StatusMessage
from progress.origins import written_outside_the_loop
from storage.deliveries import Delivery
from vocabulary import callbacks
from vocabulary.kinds import FEEDBACK_REASONS

log = logging.getLogger(__name__)
COMMENT_KEY = "awaiting_comment"


async def may_revise(context: ContextTypes.DEFAULT_TYPE, user_id: int, delivery: Delivery) -> bool:
    """Instructors (configured, or admins of the group the quiz is in) — and whoever ran the channel round
    a question belongs to, for the copy of it in their private chat."""
    if await is_instructor(context, user_id, delivery.chat_id):
        return True
    store = state(context).store
    version = await store.questions.version(delivery.version_id)
    stored = await store.questions.get(version.question_id) if version else None
    round_ = await store.rounds.get(stored.round_id) if stored and stored.round_id else None
    return round_ is not None and round_.initiator_id == user_id


def reason_keyboard(locale: str, button: callbacks.Button, delivery_id: int) -> InlineKeyboardMarkup:
    buttons = [
        InlineKeyboardButton(
            text(locale, f"reason_{reason}"), callback_data=button.build(delivery_id, reason)
        )
        for reason in FEEDBACK_REASONS
    ]
    return InlineKeyboardMarkup([buttons[i : i + 3] for i in range(0, len(buttons), 3)])


async def ask_reason(update: Update, context: ContextTypes.DEFAULT_TYPE, locale: str) -> None:
    """Called for a 👎 under a quiz: instructors get the revision reasons, learners the report reasons."""
    query = update.callback_query
    delivery = await state(context).store.deliveries.by_message(
        query.message.chat_id, query.message.message_id
    )
    if delivery is None:
        return
    instructor = await may_revise(context, query.from_user.id, delivery)
    outside = instructor and await written_outside_the_loop(state(context).store, delivery.version_id)
    if outside:
        await context.bot.send_message(
            delivery.chat_id,
            text(locale, f"{outside}_question_no_revision"),
            reply_parameters=ReplyParameters(delivery.message_id),
        )
        return
    button, prompt = (
        (callbacks.REASON_CHOSEN, "reason_prompt")
        if instructor
        else (callbacks.REPORT, "report_reason_prompt")
    )
    await context.bot.send_message(
        delivery.chat_id,
        text(locale, prompt),
        reply_markup=reason_keyboard(locale, button, delivery.id),
        reply_parameters=ReplyParameters(delivery.message_id),
    )


def _parse(data: str) -> tuple[int, str]:
    """Delivery and reason of a reason button: an instructor's, a learner's, or the skip under a prompt."""
    for button in (callbacks.REASON_CHOSEN, callbacks.COMMENT_SKIPPED, callbacks.REPORT):
        parsed = button.parse(data)
        if parsed is not None:
            return parsed
    raise ValueError(f"not a reason button: {data!r}")


async def _delivery_for(
    update: Update, context: ContextTypes.DEFAULT_TYPE, locale: str
) -> tuple[Delivery, str] | None:
    """The delivery and reason a button refers to, if the presser may act on it as an instructor (the
    callback is answered either way)."""
    query = update.callback_query
    delivery_id, reason = _parse(query.data)
    delivery = await state(context).store.deliveries.get(delivery_id)
    if delivery is None:
        await acknowledge(query, text(locale, "stale_button"))
        return None
    if not await may_revise(context, query.from_user.id, delivery):
        await acknowledge(query, text(locale, "not_instructor"), show_alert=True)
        return None
    await acknowledge(query)
    return delivery, reason


async def reason_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    chosen = await _delivery_for(update, context, locale)
    if chosen is None:
        return
    delivery, reason = chosen
    timeout = state(context).settings.telegram.comment_timeout
    skip = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    text(locale, "comment_skip"),
                    callback_data=callbacks.COMMENT_SKIPPED.build(delivery.id, reason),
                )
            ]
        ]
    )
    reason_text = text(locale, f"reason_{reason}")
    await query.edit_message_text(
        text(locale, "comment_prompt", reason=reason_text, seconds=timeout), reply_markup=skip
    )
    prompt = await context.bot.send_message(
        query.message.chat_id,
        "💬",
        reply_markup=ForceReply(selective=True, input_field_placeholder=reason_text),
    )
    pending = {
        "delivery": delivery.id,
        "reason": reason,
        "chat": query.message.chat_id,
        "prompt": prompt.message_id,
    }
    context.user_data[COMMENT_KEY] = pending
    context.job_queue.run_once(
        _comment_timed_out,
        timeout,
        data=pending | {"user": query.from_user.id},
        name=f"comment:{query.from_user.id}",
    )


async def _comment_timed_out(context: ContextTypes.DEFAULT_TYPE) -> None:
    data = context.job.data
    user_data = context.application.user_data.get(data["user"], {})
    if user_data.get(COMMENT_KEY) != {k: v for k, v in data.items() if k != "user"}:
        return  # already started with a comment or by the button
    user_data.pop(COMMENT_KEY, None)
    await launch_revision(
        context.application, data["delivery"], data["reason"], "", data["user"], data["chat"]
    )


async def skip_comment(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    chosen = await _delivery_for(update, context, locale)
    if chosen is None:
        return
    delivery, reason = chosen
    context.user_data.pop(COMMENT_KEY, None)
    await query.edit_message_reply_markup(None)
    await launch_revision(
        context.application, delivery.id, reason, "", query.from_user.id, query.message.chat_id
    )


async def comment_received(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The instructor's next message in that chat is the comment; other text goes on to later handlers."""
    pending = context.user_data.get(COMMENT_KEY) if context.user_data is not None else None
    if not pending or pending["chat"] != update.effective_chat.id:
        return
    context.user_data.pop(COMMENT_KEY, None)
    await remember(update, context)
    comment = update.effective_message.text or ""
    await launch_revision(
        context.application,
        pending["delivery"],
        pending["reason"],
        comment,
        update.effective_user.id,
        pending["chat"],
    )
    raise ApplicationHandlerStop


def launch_revision(
    app: Application, delivery_id: int, reason: str, comment: str, instructor_id: int, status_chat: int
):
    """Run the revision in the background: it takes as long as the loop does, the handler must not wait."""
    return app.create_task(_revise(app, delivery_id, reason, comment, instructor_id, status_chat))


async def _revise(
    app: Application, delivery_id: int, reason: str, comment: str, instructor_id: int, status_chat: int
) -> None:
    found: BotState = state(app)
    store = found.store
    locale = await store.users.get_locale(instructor_id) or found.settings.locale.default
    delivery = await store.deliveries.get(delivery_id)
    outside = await written_outside_the_loop(store, delivery.version_id)
    if outside:  # a learner's report of a past or case question, 修复 pressed
        await app.bot.send_message(status_chat, text(locale, f"{outside}_question_no_revision"))
        return
    version = await store.questions.version(delivery.version_id)
    limit = found.settings.telegram.revision_limit
    title = text(locale, "revision_status", label=version.label, reason=text(locale, f"reason_{reason}"))
    ended = await revise(
        store,
        found.generation,
        limit=limit,
        version=version,
        instructor_id=instructor_id,
        reason=reason,
        comment=comment,
        status=StatusMessage(app, status_chat, locale, title),
        locale=locale,
    )
    if isinstance(ended, Declined):
        await app.bot.send_message(status_chat, text(locale, ended.key, limit=limit))
    elif isinstance(ended, Failed):
        if ended.reported:
            await _mark_reported(app, delivery, locale)
        await app.bot.send_message(status_chat, text(locale, "revision_failed", reason=ended.reason))
    else:
        await send_preview(app, ended.revision, delivery, version, ended.result, status_chat, locale)


async def _mark_reported(app: Application, delivery: Delivery, locale: str) -> None:
    await mark(app, delivery, text(locale, "reported_mark"), keep_votes=True)


async def report_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A learner's reason: file the report and tell every instructor, with a 修复 button."""
    query = update.callback_query
    locale = await remember(update, context)
    delivery_id, reason = _parse(query.data)
    found = state(context)
    delivery = await found.store.deliveries.get(delivery_id)
    if delivery is None:
        await acknowledge(query, text(locale, "stale_button"))
        return
    report = await found.store.reports.create(delivery.version_id, query.from_user.id, reason)
    await acknowledge(query)
    version = await found.store.questions.version(delivery.version_id)
    await _mark_reported(context.application, delivery, locale)
    question = version.question
    shown = f"{question.stem}\n{option_list(question)}\n→ {question.answer_text}"
    reached = 0
    for instructor in instructor_ids(context):
        their = await found.store.users.get_locale(instructor) or found.settings.locale.default
        body = text(
            their,
            "report_dm",
            reason=text(their, f"reason_{reason}"),
            comment="",
            question=shown,
        )
        fix = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        text(their, "fix_button"), callback_data=callbacks.FIX.build(report.id, delivery.id)
                    )
                ]
            ]
        )
        try:
            await context.bot.send_message(instructor, body, reply_markup=fix)
            reached += 1
        except TelegramError as exc:
            log.info("report %s could not reach instructor %s: %s", report.id, instructor, exc)
    # A learner thanked for a report nobody received would wait for a fix that never comes.
    await query.edit_message_text(text(locale, "report_filed" if reached else "report_unreached"))


async def fix_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    report_id, delivery_id = callbacks.FIX.parse(query.data)
    found = state(context)
    report = await found.store.reports.get(report_id)
    delivery = await found.store.deliveries.get(delivery_id)
    if report is None or delivery is None:
        await acknowledge(query, text(locale, "stale_button"))
        return
    if not await may_revise(context, query.from_user.id, delivery):
        await acknowledge(query, text(locale, "not_instructor"), show_alert=True)
        return
    await acknowledge(query)
    launch_revision(
        context.application,
        delivery.id,
        report.reason,
        report.comment,
        query.from_user.id,
        query.message.chat_id,
    )


async def list_reports(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    if not await is_instructor(context, update.effective_user.id):
        await update.effective_message.reply_text(text(locale, "not_instructor"))
        return
    found = state(context)
    reports = await found.store.reports.open_reports()
    if not reports:
        await update.effective_message.reply_text(text(locale, "no_reports"))
        return
    lines, buttons = [text(locale, "reports_title", count=len(reports))], []
    for report in reports[:20]:
        version = await found.store.questions.version(report.version_id)
        shown = await found.store.deliveries.for_version(report.version_id)
        stem = version.question.stem[:40]
        lines.append(
            text(
                locale, "report_line", id=report.id, reason=text(locale, f"reason_{report.reason}"), stem=stem
            )
        )
        if shown:
            label = f"{text(locale, 'fix_button')} #{report.id}"
            buttons.append(
                [InlineKeyboardButton(label, callback_data=callbacks.FIX.build(report.id, shown[0].id))]
            )
    await update.effective_message.reply_text("\n".join(lines), reply_markup=InlineKeyboardMarkup(buttons))


async def abandon_interrupted_revisions(app: Application) -> int:
    """Tell each instructor what became of a revision a restart cut short: a verified result still waiting
    has its preview sent again (the buttons of the earlier one still work); a released one is said to be
    interrupted. How many were released."""
    found: BotState = state(app)
    released = 0
    for cut in await take_up_interrupted(found.store, found.generation):
        instructor = cut.revision.instructor_id
        locale = await found.store.users.get_locale(instructor) or found.settings.locale.default
        released += cut.waiting is None
        try:
            if cut.waiting is not None:
                delivery, result = cut.waiting
                preview = (cut.revision, delivery, cut.version, result, instructor, locale)
                await send_preview(app, *preview, text(locale, "preview_again"))
                continue
            body = text(
                locale, "revision_interrupted", label=cut.version.label, stem=cut.version.question.stem[:60]
            )
            await app.bot.send_message(instructor, body)
        except TelegramError:
            log.info("could not tell instructor %s about interrupted revision", instructor)
    return released
