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
    export,
    feedback,
    groups,
    groupstats,
    leaderboard,
    preferences,
    review,
    revisions,
    rounds,
    roundsetup,
    setup,
    stats,
)
from handlers.errors import on_error
from vocabulary import callbacks


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
    application.add_handler(CommandHandler("post", channels.post_round))
    # Progress: a learner's /stats, an instructor's /export (its date range may come as the next message,
    # taken before an awaited revision comment) and a group's /groupstats.
    application.add_handler(CommandHandler("stats", stats.stats))
    application.add_handler(CommandHandler("export", export.export))
    application.add_handler(
        MessageHandler(filters.TEXT & ~filters.COMMAND & filters.ChatType.PRIVATE, export.range_received),
        group=-2,
    )
    application.add_handler(CommandHandler("groupstats", groupstats.groupstats))
    # /settings (#14): the learner's defaults, language and daily review reminder.
    application.add_handler(CommandHandler("settings", preferences.settings_command))
    application.add_handler(
        CallbackQueryHandler(preferences.settings_button, pattern=callbacks.SETTINGS.pattern)
    )
    # An awaited instructor comment is taken before any other text handler sees the message.
    application.add_handler(
        MessageHandler(filters.TEXT & ~filters.COMMAND, feedback.comment_received), group=-1
    )
    application.add_handler(CallbackQueryHandler(basic.lang_chosen, pattern=callbacks.LANGUAGE.pattern))
    # A timed round's dialogue (nonce "g…") before the private /quiz dialogue (hex nonce).
    application.add_handler(
        CallbackQueryHandler(roundsetup.setup_button, pattern=callbacks.ROUND_SETUP.pattern)
    )
    application.add_handler(CallbackQueryHandler(setup.setup_button, pattern=callbacks.SETUP.pattern))
    application.add_handler(
        CallbackQueryHandler(rounds.confirm_button, pattern=callbacks.ROUND_CONFIRM.pattern)
    )
    application.add_handler(CallbackQueryHandler(controls.retry, pattern=callbacks.RETRY.pattern))
    application.add_handler(CallbackQueryHandler(controls.again, pattern=callbacks.AGAIN.pattern))
    application.add_handler(CallbackQueryHandler(controls.vote, pattern=callbacks.VOTE.pattern))
    application.add_handler(
        CallbackQueryHandler(feedback.reason_chosen, pattern=callbacks.REASON_CHOSEN.pattern)
    )
    application.add_handler(
        CallbackQueryHandler(feedback.skip_comment, pattern=callbacks.COMMENT_SKIPPED.pattern)
    )
    application.add_handler(CallbackQueryHandler(feedback.report_chosen, pattern=callbacks.REPORT.pattern))
    application.add_handler(CallbackQueryHandler(feedback.fix_pressed, pattern=callbacks.FIX.pattern))
    application.add_handler(
        CallbackQueryHandler(revisions.preview_pressed, pattern=callbacks.PREVIEW.pattern)
    )
    # Private sessions: the results card's 再来一轮 and 错题重练, and /review.
    application.add_handler(CommandHandler("review", review.review))
    application.add_handler(CallbackQueryHandler(controls.repeat, pattern=callbacks.REPEAT.pattern))
    application.add_handler(CallbackQueryHandler(review.review_pressed, pattern=callbacks.REVIEW.pattern))
    application.add_handler(CallbackQueryHandler(basic.stale_button))
    application.add_handler(PollAnswerHandler(answers.poll_answer))
    application.add_handler(PollHandler(rounds.poll_closed))
    application.add_handler(
        MessageHandler(
            filters.ChatType.PRIVATE & (filters.FORWARDED | filters.Regex(channels.CHANNEL_REFERENCE)),
            channels.channel_given,
        )
    )
    application.add_handler(MessageHandler(filters.COMMAND, basic.unknown_command))
    application.add_handler(MessageHandler(filters.TEXT & filters.ChatType.PRIVATE, basic.unknown_text))
    application.add_error_handler(on_error)
