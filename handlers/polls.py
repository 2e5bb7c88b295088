"""A canonical question as a Telegram quiz poll, within the Bot API's limits."""

from __future__ import annotations

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Poll

from engines.i18n import text
from engines.sending import SentQuiz
from graph.format import OPTION_LIMIT, STEM_LIMIT
from handlers import botapi
from storage import Store
from storage.deliveries import Delivery, DeliveryKind
from vocabulary import callbacks
from vocabulary.records import Question


def vote_row(version_id: int) -> list[tuple[str, str]]:
    return [("👍", callbacks.VOTE.build(version_id, "up")), ("👎", callbacks.VOTE.build(version_id, "down"))]


def vote_keyboard(version_id: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=data) for label, data in vote_row(version_id)]]
    )


def option_list(question: Question) -> str:
    return "\n".join(f"{chr(65 + i)}. {option}" for i, option in enumerate(question.options))


def lettered_options(question: Question) -> tuple[list[str], bool]:
    """The poll's options as "A. …", so they match the letters of "正确答案：C" and the explanations. The
    letters can push an option over Telegram's limit: it is then shortened in the poll, and the second
    value says the full options must be shown in a message first."""
    lettered = [f"{chr(65 + i)}. {option}" for i, option in enumerate(question.options)]
    if all(len(option) <= OPTION_LIMIT for option in lettered):
        return lettered, False
    return [o if len(o) <= OPTION_LIMIT else o[: OPTION_LIMIT - 1] + "…" for o in lettered], True


def needs_intro(question: Question, label: str = "") -> bool:
    """Whether the quiz goes out as two messages: the question in full, then the poll."""
    return len(f"{label}{question.stem}") > STEM_LIMIT or lettered_options(question)[1]


async def send_quiz(
    bot: Bot,
    chat_id: int,
    question: Question,
    locale: str,
    *,
    version_id: int,
    label: str = "",
    anonymous: bool = False,
    open_period: int | None = None,
    reply_to: int | None = None,
) -> SentQuiz:
    """Send the quiz. A stem too long for a poll goes first as a message and the poll refers to it —
    never a truncated stem; so do options the letters made too long (the poll keeps them shortened)."""
    stem = f"{label}{question.stem}"
    options, _ = lettered_options(question)
    if needs_intro(question, label):
        reply_to = await botapi.send_text(
            bot,
            chat_id,
            f"{stem}\n\n{option_list(question)}\n{text(locale, 'long_stem')}",
            reply_to=reply_to,
            reply_must_exist=True,
        )
        stem = text(locale, "poll_question_long")
    message_id, poll_id = await botapi.send_poll(
        bot,
        chat_id,
        {
            "question": stem,
            "options": [{"text": option} for option in options],
            "type": Poll.QUIZ,
            "is_anonymous": anonymous,
            "allows_multiple_answers": question.qtype == "multi",
            "correct_option_ids": list(question.correct_indexes),
            "explanation": question.short_explanation or None,
            "open_period": open_period,
            "reply_markup": botapi.keyboard([vote_row(version_id)]),
        },
        reply_to=reply_to,
    )
    return SentQuiz(message_id=message_id, poll_id=poll_id)


async def post_quiz(
    bot: Bot,
    store: Store,
    chat_id: int,
    question: Question,
    locale: str,
    *,
    version_id: int,
    kind: DeliveryKind,
    label: str = "",
    anonymous: bool = False,
    open_period: int | None = None,
    reply_to: int | None = None,
    session_id: int | None = None,
    round_id: int | None = None,
    position: int | None = None,
) -> tuple[SentQuiz, Delivery]:
    """Send the quiz and record its delivery at once: a poll answer names only the poll, so the poll id must
    be in storage before anyone can answer."""
    sent = await send_quiz(
        bot,
        chat_id,
        question,
        locale,
        version_id=version_id,
        label=label,
        anonymous=anonymous,
        open_period=open_period,
        reply_to=reply_to,
    )
    delivery = await store.deliveries.record(
        poll_id=sent.poll_id,
        version_id=version_id,
        chat_id=chat_id,
        message_id=sent.message_id,
        kind=kind,
        anonymous=anonymous,
        session_id=session_id,
        round_id=round_id,
        position=position,
        open_period=open_period,
    )
    return sent, delivery
