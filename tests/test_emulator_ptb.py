"""A real PTB `Application` polling the emulator, and the console client chatting with it."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    PollAnswerHandler,
    filters,
)

from bot.console import run_console
from emulator import EmulatorClient, EmulatorServer


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.effective_message.reply_text(f"echo: {update.effective_message.text}")


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    buttons = [
        [InlineKeyboardButton("red", callback_data="red"), InlineKeyboardButton("blue", callback_data="blue")]
    ]
    await update.effective_message.reply_text("pick one", reply_markup=InlineKeyboardMarkup(buttons))


async def picked(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    await query.answer("noted")
    await query.edit_message_text(f"you chose {query.data}")


async def quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await context.bot.send_poll(
        update.effective_chat.id,
        "2 + 2 = ?",
        ["3", "4"],
        type="quiz",
        correct_option_ids=[1],
        is_anonymous=False,
        explanation="a simple sum",
    )


async def answered(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await context.bot.send_message(update.poll_answer.user.id, "answer received")


@asynccontextmanager
async def polling(app: Application) -> AsyncIterator[Application]:
    async with app:
        await app.updater.start_polling(poll_interval=0.0, timeout=1)
        await app.start()
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()


async def test_a_ptb_application_echoes_through_long_polling() -> None:
    async with EmulatorServer() as emulator, EmulatorClient(emulator.root_url, timeout=5) as emu:
        app = emulator.application_builder().build()
        app.add_handler(MessageHandler(filters.TEXT, echo))
        async with polling(app):
            learner = await emu.create_user("Learner")
            await emu.send_text(learner, "你好")
            reply = await emu.next_message(learner)
        assert reply.text == "echo: 你好"
        assert reply.from_bot


async def test_the_console_chats_with_a_ptb_bot_from_piped_input() -> None:
    async with EmulatorServer() as emulator:
        app = emulator.application_builder().build()
        app.add_handler(CommandHandler("start", start))
        app.add_handler(CommandHandler("quiz", quiz))
        app.add_handler(CallbackQueryHandler(picked))
        app.add_handler(PollAnswerHandler(answered))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
        script = "/start\n2\nhello\n/quiz\n2\n:who\n:quit\nnever sent\n"
        output = io.StringIO()
        async with polling(app):
            code = await run_console(
                emulator.base_url, "learner", io.StringIO(script), output, quiet=1.0, first_reply_timeout=10
            )
    shown = output.getvalue()
    assert code == 0
    expected_in_order = [
        "you> /start",
        "bot> pick one",
        "[1] red  [2] blue",
        "bot (notice)> noted",
        "bot (edited #2)> you chose blue",
        "bot> echo: hello",
        "📊 (quiz, one answer) 2 + 2 = ?",
        "  2) 4",
        "your answer: 2 — correct ✓ (answer: 2)",
        "💡 a simple sum",
        "bot> answer received",
        "you> :who",
        "(you are learner",
    ]
    cursor = 0
    for fragment in expected_in_order:
        found = shown.find(fragment, cursor)
        assert found >= 0, f"{fragment!r} missing after position {cursor} of:\n{shown}"
        cursor = found + len(fragment)
    assert "never sent" not in shown.split(":quit")[-1]
