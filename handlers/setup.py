"""The /quiz dialogue: chapters → type → mode → count → difficulty → source, on inline keyboards edited in
place, or one tap to start with the learner's /settings defaults.

Each dialogue has a nonce carried in every button's callback data; a button from a dialogue that was
cancelled, finished or replaced no longer matches and gets a short notice instead of acting.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Collection

from telegram import Update
from telegram.ext import ContextTypes

from engines.i18n import text
from engines.sessions import Shown
from handlers.botapi import Button, Markup, button, edit_pressed, markup, send_text
from handlers.context import acknowledge, remember, state
from handlers.menus import open_menu
from handlers.sessions import start_session
from storage.preferences import Preferences
from storage.quiz_settings import QuizSettings
from vocabulary import callbacks
from vocabulary.kinds import DIFFICULTIES, MODES, QUIZ_TYPES, SESSION_TYPES, SOURCES

PAGE_SIZE = 8
COUNTS = (1, 3, 5, 10, 20)
# 不限 is stored as no difficulty; its button carries "any".
DIFFICULTY_CHOICES = (*DIFFICULTIES, "any")
SETUP_KEY = "setup"


def _button(
    label: str, nonce: str, action: str, value: object, codec: callbacks.Button | None = None
) -> Button:
    data = codec.build(nonce, f"{action}:{value}") if codec else callbacks.setup_step(nonce, action, value)
    return button(label, data)


def practice_chapters(context: ContextTypes.DEFAULT_TYPE) -> list:
    """The chapters a learner can choose: those with something to ask about, in the book's order."""
    return [c for c in state(context).sources.tree.chapters if c.slices]


def chapter_keyboard(
    context: ContextTypes.DEFAULT_TYPE,
    locale: str,
    nonce: str,
    page: int,
    picked: Collection[int] | None = None,
    codec: callbacks.Button | None = None,
):
    """`picked` None: one chapter ends the step (a timed round's dialogue); otherwise chapters toggle with
    a ✓ and 完成 ends the step once one is ticked."""
    chapters = practice_chapters(context)
    pages = max(1, -(-len(chapters) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    shown = chapters[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    rows = [
        [
            _button(text(locale, "all_chapters"), nonce, "ch", "all", codec),
            _button(text(locale, "calculation_only"), nonce, "ch", "calc", codec),
        ]
    ]
    for offset, chapter in enumerate(shown):
        index = page * PAGE_SIZE + offset
        tick = "✓ " if picked is not None and index in picked else ""
        mark = " 🧮" if chapter.is_calculation else ""
        rows.append([_button(f"{tick}{chapter.name}{mark}", nonce, "ch", index, codec)])
    paging = []
    if page > 0:
        paging.append(_button(text(locale, "prev_page"), nonce, "page", page - 1, codec))
    if page < pages - 1:
        paging.append(_button(text(locale, "next_page"), nonce, "page", page + 1, codec))
    if paging:
        rows.append(paging)
    if picked:
        rows.append([_button(text(locale, "chapters_done"), nonce, "ch", "done", codec)])
    prompt = text(locale, "choose_chapter", page=page + 1, pages=pages)
    if picked is not None:
        prompt = f"{prompt}\n{text(locale, 'chapters_hint')}"
    return prompt, markup(rows)


def choice_keyboard(
    locale: str,
    nonce: str,
    action: str,
    values: tuple,
    label_prefix: str,
    codec: callbacks.Button | None = None,
) -> Markup:
    labels = [text(locale, f"{label_prefix}{v}") if label_prefix else str(v) for v in values]
    return markup(
        [[_button(label, nonce, action, v, codec) for label, v in zip(labels, values, strict=True)]]
    )


def chapter_label(context: ContextTypes.DEFAULT_TYPE, locale: str, settings: QuizSettings) -> str:
    if settings.calculation_only:
        return text(locale, "calculation_only")
    if not settings.chapters:
        return text(locale, "all_chapters")
    names = {c.key: c.name for c in practice_chapters(context)}
    return text(locale, "chapter_list_join").join(names.get(key, " ".join(key)) for key in settings.chapters)


def settings_line(context: ContextTypes.DEFAULT_TYPE, locale: str, settings: QuizSettings) -> str:
    """One line naming every choice, as the dialogue's summary and /settings show it."""
    return text(
        locale,
        "settings_line",
        chapters=chapter_label(context, locale, settings),
        qtype=text(locale, f"type_{settings.qtype}"),
        mode=text(locale, f"mode_{settings.mode}"),
        difficulty=text(locale, f"difficulty_{settings.difficulty or 'any'}"),
        source=text(locale, f"source_{settings.source}"),
        count=settings.count,
    )


def default_settings(preferences: Preferences) -> QuizSettings:
    """The learner's /settings as one session's settings (source and difficulty are kept beside the rest)."""
    quiz = preferences.quiz
    return QuizSettings(
        chapters=quiz.chapters,
        qtype=quiz.qtype,
        mode=quiz.mode,
        count=quiz.count,
        calculation_only=quiz.calculation_only,
        source=preferences.source,
        difficulty=preferences.difficulty,
    )


def picked_indexes(context: ContextTypes.DEFAULT_TYPE, chapters: tuple[tuple[str, ...], ...]) -> list[int]:
    """The menu positions of stored chapters; one the book no longer has is dropped."""
    keys = [c.key for c in practice_chapters(context)]
    return [keys.index(key) for key in chapters if key in keys]


def _chapter_menu(context: ContextTypes.DEFAULT_TYPE, locale: str, setup: dict) -> tuple[str, Markup]:
    """The first step, with the learner's default chapters ticked and a button that starts with all of
    their defaults at once."""
    prompt, keyboard = chapter_keyboard(context, locale, setup["nonce"], 0, setup["picked"])
    defaults = setup["defaults"]
    prompt = f"{prompt}\n\n{text(locale, 'defaults_line', settings=settings_line(context, locale, defaults))}"
    rows = [
        *keyboard["inline_keyboard"],
        [_button(text(locale, "use_defaults"), setup["nonce"], "go", "defaults")],
    ]
    return prompt, markup(rows)


async def quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not state(context).dialogues.admit(update.effective_user.id):
        return  # a burst of /quiz: the excess is dropped quietly
    locale = await remember(update, context)
    if update.effective_chat.type != "private":
        await update.effective_message.reply_text(text(locale, "private_only"))
        return
    found = state(context)
    user_id = update.effective_user.id
    defaults = default_settings(await found.store.preferences.get(user_id))
    setup = {
        "nonce": secrets.token_hex(4),
        "user": user_id,
        "defaults": defaults,
        "picked": picked_indexes(context, () if defaults.calculation_only else defaults.chapters),
    }
    running = await found.store.sessions.active(update.effective_chat.id, user_id)
    if running is not None:
        setup["confirm"] = True
        prompt = text(locale, "session_running", asked=running.position, count=running.settings.count)
        keyboard = markup(
            [
                [
                    _button(text(locale, "session_end"), setup["nonce"], "end", "yes"),
                    _button(text(locale, "session_keep"), setup["nonce"], "end", "no"),
                ]
            ]
        )
    else:
        prompt, keyboard = _chapter_menu(context, locale, setup)
    await open_menu(
        context,
        SETUP_KEY,
        setup,
        update.effective_chat.id,
        lambda: send_text(context.bot, update.effective_chat.id, prompt, markup=keyboard),
        locale,
    )


def _own_step(setup: dict, action: str, value: str | int) -> bool:
    """The private dialogue's steps beyond those it shares with a timed round's."""
    if setup.get("confirm"):
        return action == "end" and value in ("yes", "no")
    return (
        (action == "ch" and value == "done" and bool(setup["picked"]))
        or (action == "diff" and value in DIFFICULTY_CHOICES)
        or (action == "src" and value in SOURCES)
        or (action == "go" and value == "defaults")
        or (action == "type" and value == "case" and setup.get("case", False))
    )


async def setup_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    nonce, (action, value) = callbacks.SETUP.parse(query.data)
    setup = context.chat_data.get(SETUP_KEY)
    if not setup or setup["nonce"] != nonce or setup["user"] != query.from_user.id:
        await acknowledge(query, text(locale, "stale_button"))
        return
    confirming = setup.get("confirm", False)
    if not _own_step(setup, action, value) and (confirming or not offered(context, locale, action, value)):
        await acknowledge(query, text(locale, "stale_button"))
        return
    await acknowledge(query)
    if action == "end":
        await _answer_confirmation(update, context, locale, setup, value == "yes")
    elif action == "go":
        context.chat_data.pop(SETUP_KEY, None)
        await _start(update, context, locale, setup["defaults"])
    elif action == "page":
        prompt, keyboard = chapter_keyboard(context, locale, nonce, value, setup["picked"])
        await edit_pressed(query, prompt, keyboard)
    elif action == "ch" and isinstance(value, int):
        picked = setup["picked"]
        if value in picked:
            picked.remove(value)
        else:
            picked.append(value)
        prompt, keyboard = chapter_keyboard(context, locale, nonce, value // PAGE_SIZE, picked)
        await edit_pressed(query, prompt, keyboard)
    elif action == "ch":
        chapters = practice_chapters(context)
        if value == "done":
            setup["chapters"] = [list(chapters[i].key) for i in sorted(setup["picked"])]
            setup["calculation_only"] = False
        else:
            setup.update(chapter_choice(context, locale, value))
        await _ask_type(query, context, locale, setup)
    elif action == "type":
        setup["qtype"] = value
        await _ask(query, locale, nonce, "choose_mode", "mode", MODES, "mode_")
    elif action == "mode" and setup.get("qtype") == "case":
        # a case asks as many sub-questions as it has, at its own difficulty, written for the learner
        context.chat_data.pop(SETUP_KEY, None)
        chosen = QuizSettings(
            chapters=tuple(tuple(c) for c in setup.get("chapters", [])),
            qtype="case",
            mode=value,
            calculation_only=setup.get("calculation_only", False),
        )
        await _start(update, context, locale, chosen)
    elif action == "mode":
        setup["mode"] = value
        await _ask(query, locale, nonce, "choose_count", "count", COUNTS, "")
    elif action == "count":
        setup["count"] = value
        await _ask(query, locale, nonce, "choose_difficulty", "diff", DIFFICULTY_CHOICES, "difficulty_")
    elif action == "diff":
        setup["difficulty"] = None if value == "any" else value
        await _ask(query, locale, nonce, "choose_source", "src", SOURCES, "source_")
    elif action == "src":
        context.chat_data.pop(SETUP_KEY, None)
        chosen = QuizSettings(
            chapters=tuple(tuple(c) for c in setup.get("chapters", [])),
            qtype=setup.get("qtype", "mixed"),
            mode=setup.get("mode", "strict"),
            count=setup.get("count", COUNTS[2]),
            calculation_only=setup.get("calculation_only", False),
            source=value,
            difficulty=setup.get("difficulty"),
        )
        await _start(update, context, locale, chosen)


async def _ask_type(query, context: ContextTypes.DEFAULT_TYPE, locale: str, setup: dict) -> None:
    """The type step: 案例题 among the types when a chosen chapter can carry one, else a line saying why
    it is not offered."""
    chapters = [tuple(c) for c in setup.get("chapters", [])] or None
    setup["case"] = bool(await asyncio.to_thread(state(context).generation.case_chapters, chapters))
    prompt = text(locale, "choose_type")
    if not setup["case"]:
        prompt = f"{prompt}\n{text(locale, 'case_unavailable')}"
    types = SESSION_TYPES if setup["case"] else QUIZ_TYPES
    await edit_pressed(query, prompt, choice_keyboard(locale, setup["nonce"], "type", types, "type_"))


async def _ask(query, locale: str, nonce: str, prompt: str, action: str, values: tuple, prefix: str) -> None:
    await edit_pressed(query, text(locale, prompt), choice_keyboard(locale, nonce, action, values, prefix))


async def _answer_confirmation(
    update: Update, context: ContextTypes.DEFAULT_TYPE, locale: str, setup: dict, end: bool
) -> None:
    """Ending the running session turns the question into the first step; keeping it closes the menu."""
    query = update.callback_query
    if not end:
        context.chat_data.pop(SETUP_KEY, None)
        await edit_pressed(query, text(locale, "session_kept"))
        return
    await state(context).sessions.stop(update.effective_chat.id, query.from_user.id, finish=False)
    setup["confirm"] = False
    prompt, keyboard = _chapter_menu(context, locale, setup)
    await edit_pressed(query, prompt, keyboard)


async def _start(
    update: Update, context: ContextTypes.DEFAULT_TYPE, locale: str, chosen: QuizSettings
) -> None:
    query = update.callback_query
    summary = text(locale, "summary_choices", settings=settings_line(context, locale, chosen))
    await edit_pressed(query, summary)
    shown = Shown(query.message.message_id, summary)
    await start_session(context, update.effective_chat.id, query.from_user.id, chosen, shown)


def chapter_choice(
    context: ContextTypes.DEFAULT_TYPE, locale: str, value: str | int
) -> dict[str, object] | None:
    """What a chapter button chose: the 全部/仅计算类 shortcuts or one chapter; None for a stale index."""
    if value in ("all", "calc"):
        label = text(locale, "all_chapters" if value == "all" else "calculation_only")
        return {"chapters": [], "calculation_only": value == "calc", "chapter_label": label}
    chapters = practice_chapters(context)
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
    if action == "page":
        return number_in(value)
    return (action == "type" and value in QUIZ_TYPES) or (action == "mode" and value in MODES)


def number_in(value: str | int, allowed: tuple[int, ...] | None = None) -> bool:
    """Whether a button's value is a number (one of `allowed`): callback data can be forged."""
    return isinstance(value, int) and (allowed is None or value in allowed)


def cancel_setup(context: ContextTypes.DEFAULT_TYPE) -> bool:
    return context.chat_data.pop(SETUP_KEY, None) is not None
