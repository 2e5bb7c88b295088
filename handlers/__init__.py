"""python-telegram-bot handlers. `register` wires them onto an Application, in order of precedence."""

from __future__ import annotations

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    PollAnswerHandler,
    PollHandler,
    filters,
)

from handlers import (
    answers,
    basic,
    channels,
    controls,
    feedback,
    groups,
    leaderboard,
    revisions,
    series,
    seriesprep,
    seriessetup,
    setup,
)
from handlers.errors import on_error

# Callback data is whatever the client sends, so patterns spell out what the bot's own buttons carry. An id
# has at most 18 digits (SQLite's integers hold 19); anything else, forged or from an old version, falls
# through to the stale-button notice instead of raising in a handler.
ID = r"\d{1,18}"
# A settings button after "qs:<nonce>:": a page, chapter index, count, seconds or pause; or a named choice.
SETUP_STEP = "|".join(
    [
        r"(page|ch|count|sec|gap):\d{1,4}",
        "ch:(all|calc)",
        f"type:({'|'.join(setup.TYPES)})",
        f"mode:({'|'.join(setup.MODES)})",
    ]
)


def register(application: Application) -> None:
    application.add_handler(CommandHandler("start", basic.start))
    application.add_handler(CommandHandler("help", basic.help_command))
    application.add_handler(CommandHandler("lang", basic.lang))
    application.add_handler(CommandHandler("quiz", setup.quiz))
    application.add_handler(CommandHandler("cancel", controls.cancel))
    application.add_handler(CommandHandler("stop", controls.stop))
    application.add_handler(CommandHandler("reports", feedback.list_reports))
    application.add_handler(CommandHandler("groupquiz", groups.groupquiz))
    application.add_handler(CommandHandler("stopquiz", groups.stopquiz))
    application.add_handler(CommandHandler("leaderboard", leaderboard.leaderboard))
    application.add_handler(CommandHandler("post", channels.post_series))
    # An awaited instructor comment is taken before any other text handler sees the message.
    application.add_handler(
        MessageHandler(filters.TEXT & ~filters.COMMAND, feedback.comment_received), group=-1
    )
    application.add_handler(CallbackQueryHandler(basic.lang_chosen, pattern=r"^lang:"))
    # Series dialogues (nonce "g…") and the private /quiz dialogue (hex nonce): nonce, action, value.
    application.add_handler(
        CallbackQueryHandler(seriessetup.setup_button, pattern=rf"^qs:g[0-9a-f]{{1,16}}:({SETUP_STEP})$")
    )
    application.add_handler(
        CallbackQueryHandler(setup.setup_button, pattern=rf"^qs:[0-9a-f]{{1,16}}:({SETUP_STEP})$")
    )
    application.add_handler(CallbackQueryHandler(seriesprep.confirm_button, pattern=rf"^sr:{ID}:(go|no)$"))
    application.add_handler(CallbackQueryHandler(controls.retry, pattern=rf"^qr:{ID}$"))
    application.add_handler(CallbackQueryHandler(controls.again, pattern=r"^again$"))
    application.add_handler(CallbackQueryHandler(controls.vote, pattern=rf"^vote:{ID}:(up|down)$"))
    application.add_handler(CallbackQueryHandler(feedback.reason_chosen, pattern=rf"^fb:{ID}:\w+$"))
    application.add_handler(CallbackQueryHandler(feedback.skip_comment, pattern=rf"^fg:{ID}:\w+$"))
    application.add_handler(CallbackQueryHandler(feedback.report_chosen, pattern=rf"^rp:{ID}:\w+$"))
    application.add_handler(CallbackQueryHandler(feedback.fix_pressed, pattern=rf"^fix:{ID}:{ID}$"))
    application.add_handler(
        CallbackQueryHandler(revisions.preview_pressed, pattern=rf"^rv:{ID}:{ID}:(pub|drop)$")
    )
    application.add_handler(CallbackQueryHandler(basic.stale_button))
    application.add_handler(PollAnswerHandler(answers.poll_answer))
    application.add_handler(PollHandler(series.poll_closed))
    application.add_handler(
        MessageHandler(
            filters.ChatType.PRIVATE & (filters.FORWARDED | filters.Regex(channels.CHANNEL_REFERENCE)),
            channels.channel_given,
        )
    )
    application.add_handler(MessageHandler(filters.COMMAND, basic.unknown_command))
    application.add_handler(MessageHandler(filters.TEXT & filters.ChatType.PRIVATE, basic.unknown_text))
    application.add_error_handler(on_error)
