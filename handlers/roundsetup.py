"""The settings dialogue of a timed round — /groupquiz in a group, /post in a private chat: chapter, type,
mode, count, seconds per question and, for a channel, the pause between questions.

It reuses the /quiz keyboards. Its nonces start with "g" (never a hex digit), so its buttons reach this
handler rather than the private dialogue's, and the two dialogues can be open in one chat at once. In a
group only the initiator's taps count; anyone else gets a short notice.
"""

from __future__ import annotations

import secrets

from telegram import CallbackQuery, Update
from telegram.ext import ContextTypes

from engines.i18n import text
from engines.rounds import RoundKind
from handlers.botapi import edit_pressed
from handlers.context import acknowledge, remember, state
from handlers.menus import open_menu
from handlers.pacing import post
from handlers.setup import (
    COUNTS,
    chapter_choice,
    chapter_keyboard,
    choice_keyboard,
    number_in,
    offered,
)
from storage.quiz_settings import QuizSettings
from vocabulary import callbacks
from vocabulary.kinds import MODES, QUIZ_TYPES

SETUP_KEY = "round_setup"
NONCE_PREFIX = "g"
SECONDS = (15, 30, 60, 120)
INTERVALS = (0, 60, 600, 3600)


async def open_dialogue(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    locale: str,
    kind: RoundKind,
    target_id: int,
    title: str,
) -> None:
    nonce = NONCE_PREFIX + secrets.token_hex(4)
    setup = {
        "nonce": nonce,
        "user": update.effective_user.id,
        "kind": kind,
        "target": target_id,
        "title": title,
    }
    prompt, keyboard = chapter_keyboard(context, locale, nonce, 0)
    await open_menu(
        context,
        SETUP_KEY,
        setup,
        update.effective_chat.id,
        lambda: post(context.application, update.effective_chat.id, prompt, keyboard),
        locale,
    )


def dialogue_open(context: ContextTypes.DEFAULT_TYPE) -> bool:
    return SETUP_KEY in context.chat_data


def cancel_dialogue(context: ContextTypes.DEFAULT_TYPE) -> bool:
    return context.chat_data.pop(SETUP_KEY, None) is not None


async def _ask(
    query: CallbackQuery, locale: str, nonce: str, prompt: str, action: str, values: tuple, label_prefix: str
) -> None:
    await edit_pressed(
        query, text(locale, prompt), choice_keyboard(locale, nonce, action, values, label_prefix)
    )


async def setup_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    nonce, (action, value) = callbacks.ROUND_SETUP.parse(query.data)
    setup = context.chat_data.get(SETUP_KEY)
    if not setup or setup["nonce"] != nonce:
        await acknowledge(query, text(locale, "stale_button"))
        return
    if setup["user"] != query.from_user.id:
        await acknowledge(query, text(locale, "round_not_initiator"))
        return
    if not offered(context, locale, action, value, {"sec": SECONDS, "gap": INTERVALS}):
        await acknowledge(query, text(locale, "stale_button"))
        return
    await acknowledge(query)
    if action == "page" and number_in(value):
        prompt, keyboard = chapter_keyboard(context, locale, nonce, value)
        await edit_pressed(query, prompt, keyboard)
    elif action == "ch" and (choice := chapter_choice(context, locale, value)) is not None:
        setup.update(choice)
        await _ask(query, locale, nonce, "choose_type", "type", QUIZ_TYPES, "type_")
    elif action == "type" and value in QUIZ_TYPES:
        setup["qtype"] = value
        await _ask(query, locale, nonce, "choose_mode", "mode", MODES, "mode_")
    elif action == "mode" and value in MODES:
        setup["mode"] = value
        await _ask(query, locale, nonce, "choose_count", "count", COUNTS, "")
    elif action == "count" and number_in(value, COUNTS):
        setup["count"] = value
        await _ask(query, locale, nonce, "choose_seconds", "sec", SECONDS, "")
    elif action == "sec" and number_in(value, SECONDS):
        setup["seconds"] = value
        if setup["kind"] == "channel":
            await _ask(query, locale, nonce, "choose_interval", "gap", INTERVALS, "interval_")
        else:
            await _launch(update, context, locale, setup)
    elif action == "gap" and number_in(value, INTERVALS):
        setup["interval"] = value
        await _launch(update, context, locale, setup)


async def _launch(
    update: Update, context: ContextTypes.DEFAULT_TYPE, locale: str, setup: dict[str, object]
) -> None:
    context.chat_data.pop(SETUP_KEY, None)
    chosen = QuizSettings(
        chapters=tuple(tuple(c) for c in setup["chapters"]),
        qtype=setup["qtype"],
        mode=setup["mode"],
        count=setup["count"],
        calculation_only=setup["calculation_only"],
    )
    summary = text(
        locale,
        "round_summary",
        chapters=setup["chapter_label"],
        qtype=text(locale, f"type_{chosen.qtype}"),
        mode=text(locale, f"mode_{chosen.mode}"),
        count=chosen.count,
        seconds=setup["seconds"],
    )
    if setup["kind"] == "channel":
        summary = "\n".join(
            [
                text(locale, "round_summary_channel", channel=setup["title"]),
                summary,
                text(
                    locale, "round_summary_interval", interval=text(locale, f"interval_{setup['interval']}")
                ),
            ]
        )
    await update.callback_query.edit_message_text(summary)
    home = update.effective_chat.id
    started = await state(context).prep.begin(
        kind=setup["kind"],
        chat_id=setup["target"],
        home_id=home,
        user_id=update.effective_user.id,
        title=setup["title"],
        settings=chosen,
        seconds=setup["seconds"],
        interval=setup.get("interval", 0),
        locale=locale,
    )
    if not started:
        await post(context.application, home, text(locale, "round_busy"))
