"""Senders around the bot's own, for emulator tests that must catch a session at one exact step: the
moment its quiz for a given place is about to go out."""

from __future__ import annotations

import asyncio

from engines.sending import Sender, SentQuiz
from vocabulary.records import Question


class QuizGate:
    """Passes everything through, except the quiz labelled `label` (e.g. "2/5 "): its sending is
    announced on `entered`, then held until `release` is set, or fails with `fail` when one is given
    (the process dying at that point)."""

    def __init__(self, label: str, fail: BaseException | None = None, hold: bool = True) -> None:
        self.label, self.fail, self.hold = label, fail, hold
        self.entered, self.release = asyncio.Event(), asyncio.Event()
        self.inner: Sender | None = None

    def __call__(self, inner: Sender) -> QuizGate:
        """Wrap the bot's sender (`bot_running(..., wrap_sender=gate)`)."""
        self.inner = inner
        return self

    async def text(self, chat_id: int, body: str, **options) -> int:
        return await self.inner.text(chat_id, body, **options)

    async def quiz(self, chat_id: int, question: Question, locale: str, **options) -> SentQuiz:
        if options["label"] == self.label:
            self.entered.set()
            if self.fail is not None:
                raise self.fail
            if self.hold:
                await self.release.wait()
        return await self.inner.quiz(chat_id, question, locale, **options)

    async def stop_poll(self, chat_id: int, message_id: int, version_id: int) -> None:
        await self.inner.stop_poll(chat_id, message_id, version_id)
