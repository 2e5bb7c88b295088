"""The second half of a revision: the instructor reads a preview of the verified v2 — old → new for every
field the complaint touched — and publishes it to the learners or discards it. Until then the revision stays
in flight and its result is the generation thread's latest version (checkpointed), so a preview survives a
restart; a button pressed on a revision already published, discarded or released says so and does nothing.
"""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters, Update
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes

from engines.i18n import text
from engines.revisions import pending_result
from engines.state import BotState
from graph.events import Result
from handlers.context import acknowledge, remember, state
from handlers.instructors import is_instructor
from handlers.polls import option_list, post_quiz, vote_keyboard
from storage.deliveries import Delivery
from storage.questions import QuestionVersion
from storage.revisions import Revision
from vocabulary import callbacks
from vocabulary.records import Question

log = logging.getLogger(__name__)
SHOWN_CHARS = 300  # per old/new text in a preview: Telegram takes 4096 characters a message


def describe_changes(locale: str, old: Question, new: Question) -> str:
    changed = [text(locale, key) for key, differs in _differences(old, new) if differs]
    return "、".join(changed) if changed else text(locale, "changed_nothing")


def _correct(question: Question) -> str:
    return "；".join(f"{chr(65 + i)}. {question.options[i]}" for i in question.correct_indexes)


def _differences(old: Question, new: Question) -> list[tuple[str, bool]]:
    return [
        ("change_stem", old.stem != new.stem),
        ("change_options", sorted(old.options) != sorted(new.options)),
        (
            "change_answer",
            sorted(old.options[i] for i in old.correct_indexes)
            != sorted(new.options[i] for i in new.correct_indexes),
        ),
        ("change_explanation", old.explanation != new.explanation),
    ]


def _cut(value: str) -> str:
    return value if len(value) <= SHOWN_CHARS else value[: SHOWN_CHARS - 1] + "…"


def preview_text(locale: str, old: Question, new: Question, label: str, reason: str, notes: list[str]) -> str:
    """Old → new for each field that changed, a line for each that did not, then what could not be done."""
    shown = {
        "change_stem": (old.stem, new.stem),
        "change_options": (option_list(old), option_list(new)),
        "change_answer": (_correct(old), _correct(new)),
        "change_explanation": (old.explanation, new.explanation),
    }
    lines = [text(locale, "preview_title", label=label, reason=text(locale, f"reason_{reason}"))]
    for key, differs in _differences(old, new):
        field = text(locale, key)
        if not differs:
            lines.append(text(locale, "preview_unchanged", field=field))
            continue
        before, after = shown[key]
        lines += [
            text(locale, "preview_field", field=field),
            text(locale, "preview_old", text=_cut(before)),
            text(locale, "preview_new", text=_cut(after)),
        ]
    lines += [text(locale, "preview_note", note=note) for note in notes]
    return "\n".join(lines)


def revision_notes(result: Result) -> list[str]:
    """What the fixer could not do of this revision's request: its `unmet` steps since the previous version
    was finished."""
    ends = [i for i, step in enumerate(result.trace) if step.get("node") in ("done", "self_heal")]
    start = ends[-2] + 1 if len(ends) >= 2 else 0
    notes: list[str] = []
    for step in result.trace[start:]:
        if step.get("node") == "fixer" and step.get("verdict") == "unmet" and step["detail"] not in notes:
            notes.append(step["detail"])
    return notes


def _buttons(locale: str, revision: Revision, delivery: Delivery) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    text(locale, "preview_publish"),
                    callback_data=callbacks.PREVIEW.build(revision.id, delivery.id, "pub"),
                ),
                InlineKeyboardButton(
                    text(locale, "preview_discard"),
                    callback_data=callbacks.PREVIEW.build(revision.id, delivery.id, "drop"),
                ),
            ]
        ]
    )


async def send_preview(
    app: Application,
    revision: Revision,
    delivery: Delivery,
    version: QuestionVersion,
    result: Result,
    chat_id: int,
    locale: str,
    opening: str = "",
) -> None:
    label = f"v{result.version}"
    body = preview_text(
        locale, version.question, result.question, label, revision.reason, revision_notes(result)
    )
    await app.bot.send_message(
        chat_id, f"{opening}\n{body}".strip(), reply_markup=_buttons(locale, revision, delivery)
    )


async def preview_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    revision_id, delivery_id, action = callbacks.PREVIEW.parse(query.data)
    found = state(context)
    revision = await found.store.revisions.get(revision_id)
    delivery = await found.store.deliveries.get(delivery_id)
    # Updates run concurrently: a second tap while the first is publishing must not publish twice.
    busy: set[int] = state(context.application).publishing
    if revision is None or delivery is None or revision.finished_at is not None or revision.id in busy:
        await acknowledge(query, text(locale, "stale_button"))
        return
    busy.add(revision.id)
    try:
        await _decide(update, context, locale, revision, delivery, action)
    finally:
        busy.discard(revision.id)


async def _decide(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    locale: str,
    revision: Revision,
    delivery: Delivery,
    action: str,
) -> None:
    query = update.callback_query
    found = state(context)
    presser = query.from_user.id
    if presser != revision.instructor_id and not await is_instructor(context, presser, delivery.chat_id):
        await acknowledge(query, text(locale, "not_instructor"), show_alert=True)
        return
    await acknowledge(query)
    if action == "drop":
        if await found.store.revisions.finish_revision(revision.version_id, "abandoned"):
            await query.edit_message_text(f"{query.message.text}\n\n{text(locale, 'preview_discarded')}")
        return
    pending = await pending_result(found.store, found.generation, revision)
    if pending is None:
        await query.edit_message_reply_markup(None)
        return
    label = await publish(context.application, revision, delivery, *pending, presser, locale)
    await query.edit_message_text(f"{query.message.text}\n\n{text(locale, 'preview_published', label=label)}")


async def publish(
    app: Application,
    revision: Revision,
    delivery: Delivery,
    version: QuestionVersion,
    result: Result,
    instructor_id: int,
    locale: str,
) -> str:
    """Post the revision as a reply to the original quiz, close the reports it answers and tell the learners
    who filed them; the new version's label."""
    store = state(app).store
    new = await store.questions.add_version(
        version.question_id, result.question, number=result.version, flagged=result.outcome == "flagged"
    )
    label = new.label
    message, _ = await post_quiz(
        app.bot,
        store,
        delivery.chat_id,
        new.question,
        locale,
        version_id=new.id,
        kind=delivery.kind,
        label=text(locale, "revised_label", label=label),
        anonymous=delivery.anonymous,
        reply_to=delivery.message_id,
    )
    reporters = await store.reports.open_for(version.id)
    # Stored as fixed the moment the revised quiz is out, before the notes around it: whoever sees it
    # and opens /reports at once must not find the report still open.
    await store.reports.mark_fixed(version.id, new.id, instructor_id)
    await store.revisions.finish_revision(version.id, "revised", new.id)
    changes = describe_changes(locale, version.question, new.question)
    await app.bot.send_message(
        delivery.chat_id,
        text(locale, "revised_summary", label=label, changes=changes),
        reply_parameters=ReplyParameters(message.message_id),
    )
    await mark(app, delivery, text(locale, "superseded", label=label))
    for report in reporters:
        await _tell_reporter(app, report.reporter_id, delivery, message.message_id, version, label)
    return label


async def _tell_reporter(
    app: Application, reporter: int, delivery: Delivery, posted: int, version: QuestionVersion, label: str
) -> None:
    found: BotState = state(app)
    their = await found.store.users.get_locale(reporter) or found.settings.locale.default
    notice = text(their, "learner_fixed", stem=version.question.stem[:40], label=label)
    here = delivery.chat_id == reporter
    try:
        await app.bot.send_message(
            reporter, notice, reply_parameters=ReplyParameters(posted) if here else None
        )
    except TelegramError as exc:
        log.info("could not tell learner %s that their report was answered: %s", reporter, exc)


async def mark(app: Application, delivery: Delivery, label: str, keep_votes: bool = False) -> None:
    """Replace the buttons under the original quiz with a note (the poll itself cannot change)."""
    note = [InlineKeyboardButton(label, callback_data=callbacks.NOTE.build(delivery.id))]
    rows = [*vote_keyboard(delivery.version_id).inline_keyboard, note] if keep_votes else [note]
    try:
        await app.bot.edit_message_reply_markup(
            delivery.chat_id, delivery.message_id, reply_markup=InlineKeyboardMarkup(rows)
        )
    except TelegramError as exc:
        log.info("could not mark quiz %s in chat %s: %s", delivery.message_id, delivery.chat_id, exc)
