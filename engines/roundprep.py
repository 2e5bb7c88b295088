"""Preparing a timed round: every question is written before the first is posted, a few at a time, with
one live progress message in the chat where the settings were chosen. If fewer pass verification than were
asked for, the initiator chooses between starting with those and cancelling.

Playing the round once it is written is engines/rounds.py's; this module knows no Telegram either: it shows
progress through the `Status` its `open_status` makes and tells the initiator through the rounds engine."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from engines.i18n import text
from engines.metrics import Metrics
from engines.rounds import LiveRound, RoundKind, Rounds, question_key
from engines.sessions import Pending, StatusOpener, generate_with_progress, question_type
from graph.events import Result
from retrieval.sampler import NoSlicesError
from storage.errors import ConflictError
from storage.quiz_settings import QuizSettings
from vocabulary import callbacks
from vocabulary.records import GenerationRequest

if TYPE_CHECKING:
    from engines.revisions import Status
    from graph.service import GenerationService

# Questions written at once (a model author has its own concurrency limit too).
PREPARE_CONCURRENCY = 3


class RoundPrep:
    """The rounds this process is writing; once written, a round is handed to `rounds` to be played."""

    def __init__(
        self,
        rounds: Rounds,
        generation: GenerationService,
        metrics: Metrics,
        open_status: StatusOpener,
        concurrency: int = PREPARE_CONCURRENCY,
    ) -> None:
        self.rounds, self.generation, self.metrics = rounds, generation, metrics
        self.open_status, self.concurrency = open_status, concurrency

    async def begin(
        self,
        *,
        kind: RoundKind,
        chat_id: int,
        home_id: int,
        user_id: int,
        title: str,
        settings: QuizSettings,
        seconds: int,
        interval: int,
        locale: str,
    ) -> bool:
        """Open the round and start writing its questions; False if the chat already has a live round."""
        try:
            round_ = await self.rounds.store.rounds.create(chat_id, user_id, settings, seconds, interval)
        except ConflictError:
            return False
        playing = LiveRound(round_.id, kind, chat_id, home_id, user_id, title, locale, seconds, interval)
        self.rounds.live[round_.id] = playing
        playing.task = self.rounds.spawn(self._prepare(playing, settings))
        return True

    async def close(self) -> None:
        """Stop every preparation (the bot is stopping): the next start ends those rounds and says so."""
        tasks = [
            playing.task
            for playing in self.rounds.live.values()
            if playing.task is not None and not playing.task.done()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _requests(self, playing: LiveRound, settings: QuizSettings) -> list[GenerationRequest]:
        """Draw every slice up front from the chat's stored sampler history, so the round has no repeats."""
        chats = self.rounds.store.chats
        sampler = await chats.get_sampler_state(playing.chat_id)
        chapters = [tuple(c) for c in settings.chapters] or None
        requests = []
        for number in range(1, settings.count + 1):
            drawn, sampler = self.generation.new_request(
                playing.chat_id,
                question_type(settings, number),
                settings.mode,
                chapters,
                settings.calculation_only,
                sampler_state=sampler,
            )
            requests.append(drawn.model_copy(update={"question_id": question_key(playing.round_id, number)}))
        await chats.put_sampler_state(playing.chat_id, sampler)
        return requests

    async def _prepare(self, playing: LiveRound, settings: QuizSettings) -> None:
        rounds, locale, count = self.rounds, playing.locale, settings.count
        title = text(locale, "round_preparing", done=0, count=count)
        status = self.open_status(playing.home_id, locale, title, None)
        try:
            await status.open()
            try:
                requests = await self._requests(playing, settings)
            except NoSlicesError as exc:
                await rounds.drop(playing)
                await status.close(text(locale, "no_slices", reason=exc))
                return
            await self._write_all(playing, requests, status)
        except Exception:
            await rounds.drop(playing)
            await rounds.tell_home(playing, text(locale, "error"))
            raise
        ready = len(playing.versions)
        await status.close(text(locale, "round_prepared", ready=ready, count=count))
        if ready == 0:
            await rounds.drop(playing)
            await rounds.tell_home(playing, text(locale, "round_none"))
        elif ready < count:
            buttons = [
                [
                    (
                        text(locale, "round_start_fewer", ready=ready),
                        callbacks.ROUND_CONFIRM.build(playing.round_id, "go"),
                    ),
                    (text(locale, "round_cancel"), callbacks.ROUND_CONFIRM.build(playing.round_id, "no")),
                ]
            ]
            await rounds.tell_home(playing, text(locale, "round_fewer", ready=ready, count=count), buttons)
        else:
            await rounds.start(playing)

    async def _write_all(self, playing: LiveRound, requests: list[GenerationRequest], status: Status) -> None:
        """Write the questions a few at a time; the verified ones are stored in the round's order."""
        gate = asyncio.Semaphore(self.concurrency)
        done = 0

        async def write(request: GenerationRequest) -> Result:
            nonlocal done
            async with gate:
                result = await generate_with_progress(
                    self.generation, self.metrics, Pending(request=request, status=status)
                )
            done += 1
            status.title = text(playing.locale, "round_preparing", done=done, count=len(requests))
            return result

        results = await asyncio.gather(*(write(request) for request in requests))
        for request, result in zip(requests, results, strict=True):
            if result.ok:
                version = await self.rounds.store.questions.record(
                    request,
                    result.question,
                    number=result.version,
                    flagged=result.outcome == "flagged",
                    round_id=playing.round_id,
                )
                playing.versions.append(version.id)

    async def claim(self, round_id: int, user_id: int) -> LiveRound | str:
        """The round waiting for its initiator's "start with fewer?" answer, or the catalogue key saying why
        this tap counts for nothing (a stale button, or someone other than the initiator)."""
        playing = self.rounds.live.get(round_id)
        round_ = await self.rounds.store.rounds.get(round_id)
        if playing is None or round_ is None or round_.status != "preparing" or not playing.versions:
            return "stale_button"
        if user_id != playing.initiator_id:
            return "round_not_initiator"
        return playing
