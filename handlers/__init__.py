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
    # Series dialogues (nonce "g…") before the private /quiz dialogue, which takes every other "qs:".
    application.add_handler(CallbackQueryHandler(seriessetup.setup_button, pattern=r"^qs:g"))
    application.add_handler(CallbackQueryHandler(setup.setup_button, pattern=r"^qs:"))
    application.add_handler(CallbackQueryHandler(seriesprep.confirm_button, pattern=r"^sr:\d+:(go|no)$"))
    application.add_handler(CallbackQueryHandler(controls.retry, pattern=r"^qr:\d+$"))
    application.add_handler(CallbackQueryHandler(controls.again, pattern=r"^again$"))
    application.add_handler(CallbackQueryHandler(controls.vote, pattern=r"^vote:\d+:(up|down)$"))
    application.add_handler(CallbackQueryHandler(feedback.reason_chosen, pattern=r"^fb:\d+:\w+$"))
    application.add_handler(CallbackQueryHandler(feedback.skip_comment, pattern=r"^fg:\d+:\w+$"))
    application.add_handler(CallbackQueryHandler(feedback.report_chosen, pattern=r"^rp:\d+:\w+$"))
    application.add_handler(CallbackQueryHandler(feedback.fix_pressed, pattern=r"^fix:\d+:\d+$"))
    application.add_handler(
        CallbackQueryHandler(revisions.preview_pressed, pattern=r"^rv:\d{1,18}:\d{1,18}:(pub|drop)$")
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
