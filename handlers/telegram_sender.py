"""The engines' `Sender` over the Bot API: group and channel posts take their turn with the pacer, and
Telegram's errors become the engines' own (a refusing chat, or any other failure), with Telegram's words."""

from __future__ import annotations

from contextlib import suppress

from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import Application

from engines.sending import Buttons, Refused, SendFailed, SentQuiz
from handlers import botapi
from handlers.pacing import paced
from handlers.polls import needs_intro, send_quiz, vote_keyboard
from vocabulary.records import Question


class TelegramSender:
    def __init__(self, app: Application) -> None:
        self.app = app

    async def text(
        self, chat_id: int, body: str, *, reply_to: int | None = None, buttons: Buttons | None = None
    ) -> int:
        markup = botapi.keyboard(buttons) if buttons else None
        try:
            async with paced(self.app, chat_id):
                return await botapi.send_text(self.app.bot, chat_id, body, markup=markup, reply_to=reply_to)
        except (BadRequest, Forbidden) as exc:
            raise Refused(exc.message) from exc
        except TelegramError as exc:
            raise SendFailed(exc.message) from exc

    async def quiz(
        self,
        chat_id: int,
        question: Question,
        locale: str,
        *,
        version_id: int,
        label: str,
        anonymous: bool,
        open_period: float | None,
    ) -> SentQuiz:
        # send_quiz may put the question in a message of its own first: two turns of the pacer.
        messages = 2 if needs_intro(question, label) else 1
        try:
            async with paced(self.app, chat_id, messages):
                return await send_quiz(
                    self.app.bot,
                    chat_id,
                    question,
                    locale,
                    version_id=version_id,
                    label=label,
                    anonymous=anonymous,
                    open_period=open_period,
                )
        except (BadRequest, Forbidden) as exc:
            raise Refused(exc.message) from exc
        except TelegramError as exc:
            raise SendFailed(exc.message) from exc

    async def stop_poll(self, chat_id: int, message_id: int, version_id: int) -> None:
        try:
            with suppress(BadRequest):  # Telegram closed it already
                await self.app.bot.stop_poll(chat_id, message_id, reply_markup=vote_keyboard(version_id))
        except TelegramError as exc:
            raise SendFailed(exc.message) from exc
