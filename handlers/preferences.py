"""/settings: the learner's standing choices on one menu edited in place. The practice defaults (what /quiz
offers to start with), the interface language, and a daily review reminder in the learner's own zone.

Each change is stored at once and the menu comes back with it, so there is nothing to confirm or lose; the
menu carries a nonce like the /quiz dialogue, and a replaced menu's buttons get the stale-button notice.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from telegram import Update
from telegram.ext import ContextTypes

from engines.i18n import LOCALES, text
from handlers.basic import LANG_NAMES
from handlers.botapi import Button, Markup, button, edit_pressed, markup, send_text
from handlers.context import acknowledge, remember, state
from handlers.menus import open_menu
from handlers.reminders import arm
from handlers.setup import (
    COUNTS,
    DIFFICULTY_CHOICES,
    PAGE_SIZE,
    chapter_keyboard,
    choice_keyboard,
    default_settings,
    number_in,
    picked_indexes,
    practice_chapters,
    settings_line,
)
from progress.preferences import DEFAULT_TIME_ZONE, learner_zone, reminder_time
from storage.preferences import Preferences
from vocabulary import callbacks
from vocabulary.kinds import MODES, QUIZ_TYPES, SOURCES

SETTINGS_KEY = "settings"
CODEC = callbacks.SETTINGS
# Whole hours keep the menu to one screen; the store takes any HH:MM.
HOURS = tuple(range(6, 24))
ZONES = (
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Singapore",
    "Asia/Tokyo",
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "America/Los_Angeles",
    "Australia/Sydney",
    "UTC",
)
PARTS = ("ch", "type", "mode", "count", "diff", "src", "lang", "rem", "tz")
LABELS = {
    "ch": "setting_chapters",
    "type": "setting_type",
    "mode": "setting_mode",
    "count": "setting_count",
    "diff": "setting_difficulty",
    "src": "setting_source",
    "lang": "setting_language",
    "rem": "setting_reminder",
    "tz": "setting_time_zone",
}


def _button(label: str, nonce: str, action: str, value: object) -> Button:
    return button(label, CODEC.build(nonce, f"{action}:{value}"))


def _rows(buttons: list[Button], width: int) -> list[list[Button]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _back(locale: str, nonce: str) -> list[Button]:
    return [_button(text(locale, "settings_back"), nonce, "open", "main")]


def main_menu(
    context: ContextTypes.DEFAULT_TYPE, locale: str, nonce: str, preferences: Preferences
) -> tuple[str, Markup]:
    zone = learner_zone(preferences, DEFAULT_TIME_ZONE)
    reminder = (
        text(locale, "reminder_daily", time=preferences.reminder)
        if preferences.reminder
        else text(locale, "reminder_off")
    )
    body = text(
        locale,
        "settings_menu",
        settings=settings_line(context, locale, default_settings(preferences)),
        language=LANG_NAMES[locale],
        reminder=reminder,
        time_zone=zone,
    )
    parts = [_button(text(locale, LABELS[part]), nonce, "open", part) for part in PARTS]
    return body, markup(_rows(parts, 3))


def part_menu(
    context: ContextTypes.DEFAULT_TYPE,
    locale: str,
    setup: dict,
    part: str,
    preferences: Preferences,
    page: int = 0,
) -> tuple[str, Markup]:
    """The choices of one part of the menu, with a way back."""
    nonce = setup["nonce"]
    if part == "ch":
        prompt, keyboard = chapter_keyboard(context, locale, nonce, page, setup["picked"], CODEC)
        return prompt, markup([*keyboard["inline_keyboard"], _back(locale, nonce)])
    if part == "lang":
        rows = [[_button(LANG_NAMES[code], nonce, "lang", code) for code in LOCALES]]
        prompt = text(locale, "lang_prompt")
    elif part == "rem":
        hours = [_button(f"{hour:02d}:00", nonce, "rem", hour) for hour in HOURS]
        rows = [*_rows(hours, 6), [_button(text(locale, "reminder_off"), nonce, "rem", "off")]]
        prompt = text(locale, "choose_reminder", zone=learner_zone(preferences, DEFAULT_TIME_ZONE))
    elif part == "tz":
        rows = _rows([_button(zone, nonce, "tz", i) for i, zone in enumerate(ZONES)], 2)
        prompt = text(locale, "choose_time_zone")
    else:
        prompt, action, values, prefix = {
            "type": ("choose_type", "type", QUIZ_TYPES, "type_"),
            "mode": ("choose_mode", "mode", MODES, "mode_"),
            "count": ("choose_count", "count", COUNTS, ""),
            "diff": ("choose_difficulty", "diff", DIFFICULTY_CHOICES, "difficulty_"),
            "src": ("choose_source", "src", SOURCES, "source_"),
        }[part]
        rows = choice_keyboard(locale, nonce, action, values, prefix, CODEC)["inline_keyboard"]
        prompt = text(locale, prompt)
    return prompt, markup([*rows, _back(locale, nonce)])


async def settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    if update.effective_chat.type != "private":
        await update.effective_message.reply_text(text(locale, "private_only"))
        return
    user_id = update.effective_user.id
    preferences = await state(context).store.preferences.get(user_id)
    setup = {
        "nonce": secrets.token_hex(4),
        "user": user_id,
        "picked": picked_indexes(context, preferences.quiz.chapters),
    }
    body, keyboard = main_menu(context, locale, setup["nonce"], preferences)
    await open_menu(
        context,
        SETTINGS_KEY,
        setup,
        update.effective_chat.id,
        lambda: send_text(context.bot, update.effective_chat.id, body, markup=keyboard),
        locale,
    )


def _valid(context: ContextTypes.DEFAULT_TYPE, setup: dict, action: str, value: str | int) -> bool:
    """Whether a press carries a value the menu offers: callback data can be forged."""
    chapters = len(practice_chapters(context))
    return {
        "open": value == "main" or value in PARTS,
        "page": number_in(value),
        "ch": value in ("all", "calc")
        or (value == "done" and bool(setup["picked"]))
        or (number_in(value) and value < chapters),
        "type": value in QUIZ_TYPES,
        "mode": value in MODES,
        "count": number_in(value, COUNTS),
        "diff": value in DIFFICULTY_CHOICES,
        "src": value in SOURCES,
        "lang": value in LOCALES,
        "rem": value == "off" or number_in(value, HOURS),
        "tz": number_in(value) and value < len(ZONES),
    }.get(action, False)


async def settings_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    nonce, (action, value) = CODEC.parse(query.data)
    setup = context.chat_data.get(SETTINGS_KEY)
    if not setup or setup["nonce"] != nonce or setup["user"] != query.from_user.id:
        await acknowledge(query, text(locale, "stale_button"))
        return
    if not _valid(context, setup, action, value):
        await acknowledge(query, text(locale, "stale_button"))
        return
    store = state(context).store
    preferences = await store.preferences.get(query.from_user.id)
    if action == "open" and value == "main":
        body, keyboard = main_menu(context, locale, nonce, preferences)
    elif action == "open":
        body, keyboard = part_menu(context, locale, setup, value, preferences)
    elif action == "page":
        body, keyboard = part_menu(context, locale, setup, "ch", preferences, value)
    elif action == "ch" and isinstance(value, int):
        picked = setup["picked"]
        if value in picked:
            picked.remove(value)
        else:
            picked.append(value)
        body, keyboard = part_menu(context, locale, setup, "ch", preferences, value // PAGE_SIZE)
    else:
        preferences, locale = await _save(update, context, setup, preferences, action, value, locale)
        await acknowledge(query, text(locale, "settings_saved"))
        body, keyboard = main_menu(context, locale, nonce, preferences)
        await edit_pressed(query, body, keyboard)
        return
    await acknowledge(query)
    await edit_pressed(query, body, keyboard)


async def _save(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    setup: dict,
    preferences: Preferences,
    action: str,
    value: str | int,
    locale: str,
) -> tuple[Preferences, str]:
    """Store one change; the preferences after it and the language to answer in."""
    store = state(context).store
    user_id = update.callback_query.from_user.id
    quiz = preferences.quiz
    if action == "lang":
        await store.users.set_locale(user_id, value)
        return preferences, value
    if action == "ch":
        chosen = (
            [practice_chapters(context)[i].key for i in sorted(setup["picked"])] if value == "done" else []
        )
        if value != "done":
            setup["picked"] = []
        changes = {"quiz": replace(quiz, chapters=tuple(chosen), calculation_only=value == "calc")}
    elif action in ("type", "mode", "count"):
        changes = {"quiz": replace(quiz, **{"qtype" if action == "type" else action: value})}
    elif action == "diff":
        changes = {"difficulty": None if value == "any" else value}
    elif action == "src":
        changes = {"source": value}
    elif action == "rem":
        changes = {"reminder": None if value == "off" else f"{value:02d}:00"}
    else:
        changes = {"time_zone": ZONES[value]}
    preferences = await store.preferences.update(user_id, **changes)
    if action in ("rem", "tz"):
        zone = learner_zone(preferences, DEFAULT_TIME_ZONE)
        at = reminder_time(preferences.reminder, zone) if preferences.reminder else None
        arm(context.application, user_id, at)
    return preferences, locale
