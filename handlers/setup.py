"""The /quiz dialogue: chapter → type → mode → count, on inline keyboards edited in place.

Each dialogue has a nonce carried in every button's callback data; a button from a dialogue that was
cancelled, finished or replaced no longer matches and gets a short notice instead of acting.
"""

from __future__ import annotations

import secrets

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers.context import acknowledge, remember, state
from handlers.menus import open_menu
from handlers.sessions import start_session
from storage.quiz_settings import QuizSettings
from vocabulary import callbacks
from vocabulary.kinds import MODES, QUIZ_TYPES

PAGE_SIZE = 8
COUNTS = (1, 3, 5, 10, 20)
SETUP_KEY = "setup"


def _button(label: str, nonce: str, action: str, value: object) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=callbacks.setup_step(nonce, action, value))


def chapter_keyboard(context: ContextTypes.DEFAULT_TYPE, locale: str, nonce: str, page: int):
    chapters = [c for c in state(context).sources.tree.chapters if c.slices]
    pages = max(1, -(-len(chapters) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    shown = chapters[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    rows = [
        [
            _button(text(locale, "all_chapters"), nonce, "ch", "all"),
            _button(text(locale, "calculation_only"), nonce, "ch", "calc"),
        ]
    ]
    for offset, chapter in enumerate(shown):
        mark = " 🧮" if chapter.is_calculation else ""
        rows.append([_button(f"{chapter.name}{mark}", nonce, "ch", page * PAGE_SIZE + offset)])
    paging = []
    if page > 0:
        paging.append(_button(text(locale, "prev_page"), nonce, "page", page - 1))
    if page < pages - 1:
        paging.append(_button(text(locale, "next_page"), nonce, "page", page + 1))
    if paging:
        rows.append(paging)
    return text(locale, "choose_chapter", page=page + 1, pages=pages), InlineKeyboardMarkup(rows)


def choice_keyboard(
    locale: str, nonce: str, action: str, values: tuple, label_prefix: str
) -> InlineKeyboardMarkup:
    labels = [text(locale, f"{label_prefix}{v}") if label_prefix else str(v) for v in values]
    return InlineKeyboardMarkup(
        [[_button(label, nonce, action, v) for label, v in zip(labels, values, strict=True)]]
    )


async def quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not state(context).dialogues.admit(update.effective_user.id):
        return  # a burst of /quiz: the excess is dropped quietly
    locale = await remember(update, context)
    if update.effective_chat.type != "private":
        await update.effective_message.reply_text(text(locale, "private_only"))
        return
    nonce = secrets.token_hex(4)
    prompt, keyboard = chapter_keyboard(context, locale, nonce, 0)
    await open_menu(
        context,
        SETUP_KEY,
        {"nonce": nonce, "user": update.effective_user.id},
        lambda: update.effective_message.reply_text(prompt, reply_markup=keyboard),
        locale,
    )


async def setup_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    nonce, (action, value) = callbacks.SETUP.parse(query.data)
    setup = context.chat_data.get(SETUP_KEY)
    if not setup or setup["nonce"] != nonce or setup["user"] != query.from_user.id:
        await acknowledge(query, text(locale, "stale_button"))
        return
    if not offered(context, locale, action, value):
        await acknowledge(query, text(locale, "stale_button"))
        return
    await acknowledge(query)
    if action == "page" and number_in(value):
        prompt, keyboard = chapter_keyboard(context, locale, nonce, value)
        await query.edit_message_text(prompt, reply_markup=keyboard)
    elif action == "ch" and (chosen_chapters := chapter_choice(context, locale, value)) is not None:
        setup.update(chosen_chapters)
        await query.edit_message_text(
            text(locale, "choose_type"),
            reply_markup=choice_keyboard(locale, nonce, "type", QUIZ_TYPES, "type_"),
        )
    elif action == "type" and value in QUIZ_TYPES:
        setup["qtype"] = value
        await query.edit_message_text(
            text(locale, "choose_mode"), reply_markup=choice_keyboard(locale, nonce, "mode", MODES, "mode_")
        )
    elif action == "mode" and value in MODES:
        setup["mode"] = value
        await query.edit_message_text(
            text(locale, "choose_count"), reply_markup=choice_keyboard(locale, nonce, "count", COUNTS, "")
        )
    elif action == "count" and number_in(value, COUNTS):
        context.chat_data.pop(SETUP_KEY, None)
        chosen = QuizSettings(
            chapters=tuple(tuple(c) for c in setup.get("chapters", [])),
            qtype=setup.get("qtype", "mixed"),
            mode=setup.get("mode", "strict"),
            count=value,
            calculation_only=setup.get("calculation_only", False),
        )
        summary = text(
            locale,
            "summary",
            chapters=setup.get("chapter_label", ""),
            qtype=text(locale, f"type_{chosen.qtype}"),
            mode=text(locale, f"mode_{chosen.mode}"),
            count=chosen.count,
        )
        shown = await query.edit_message_text(summary)
        await start_session(context, update.effective_chat.id, query.from_user.id, chosen, shown)


def chapter_choice(
    context: ContextTypes.DEFAULT_TYPE, locale: str, value: str | int
) -> dict[str, object] | None:
    """What a chapter button chose: the 全部/仅计算类 shortcuts or one chapter; None for a stale index."""
    if value in ("all", "calc"):
        label = text(locale, "all_chapters" if value == "all" else "calculation_only")
        return {"chapters": [], "calculation_only": value == "calc", "chapter_label": label}
    chapters = [c for c in state(context).sources.tree.chapters if c.slices]
    if not isinstance(value, int) or value >= len(chapters):
        return None
    chapter = chapters[value]
    return {"chapters": [list(chapter.key)], "calculation_only": False, "chapter_label": chapter.name}


def offered(
    context: ContextTypes.DEFAULT_TYPE,
    locale: str,
    action: str,
    value: str | int,
    numbers: dict[str, tuple[int, ...]] | None = None,
) -> bool:
    """Whether a settings button carries a value the dialogue offers (`numbers`: its numeric steps besides the
    count). Callback data can be forged; a value no button has gets the stale-button notice, not silence."""
    if action == "ch":
        return chapter_choice(context, locale, value) is not None
    steps = {"count": COUNTS, **(numbers or {})}
    if action in steps:
        return number_in(value, steps[action])
    return action in ("page", "type", "mode")


def number_in(value: str | int, allowed: tuple[int, ...] | None = None) -> bool:
    """Whether a button's value is a number (one of `allowed`): callback data can be forged."""
    return isinstance(value, int) and (allowed is None or value in allowed)


def cancel_setup(context: ContextTypes.DEFAULT_TYPE) -> bool:
    return context.chat_data.pop(SETUP_KEY, None) is not None
