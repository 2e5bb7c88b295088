"""Playing a timed round: in a group (/groupquiz) or a channel (/post).

Its questions are written first (engines/roundprep.py); then they go out one at a time as quiz polls with
an open period. A poll closes by Telegram's poll update or by the engine's own timer, whichever comes first
— `deliveries.close` lets exactly one through — and the full explanation follows as a reply, then the next
question (in a channel, after the chosen pause). A group round ends with its leaderboard.

What a restart must survive is stored: the round, its questions (thread ids `r<round>q<k>`, so they can be
found again in order), the deliveries and the answers. The engine keeps only timers and a small `LiveRound`
record per round, rebuilt from storage when the bot starts again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from engines.clock import Clock, Pace
from engines.i18n import text
from engines.sending import Refused, Sender, SendFailed
from engines.standings import round_leaderboard
from storage import Store
from storage.deliveries import Delivery
from storage.questions import QuestionVersion
from storage.rounds import Round
from vocabulary.records import Question

log = logging.getLogger(__name__)
RoundKind = Literal["group", "channel"]


@dataclass
class LiveRound:
    """A round this process is preparing or playing. `chat_id` is where the polls go; `home_id` is where
    the settings were chosen and where progress and notices go (the group itself, or the instructor's
    private chat for a channel). `interval` is the pause after each close in a channel (0 in a group)."""

    round_id: int
    kind: RoundKind
    chat_id: int
    home_id: int
    initiator_id: int
    title: str
    locale: str
    seconds: int
    interval: int
    versions: list[int] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    stopping: bool = False


def question_key(round_id: int, number: int) -> str:
    return f"r{round_id}q{number}"


def explanation_text(locale: str, position: int, question: Question, tally: tuple[int, int] | None) -> str:
    answer = "；".join(f"{chr(65 + i)}. {question.options[i]}" for i in question.correct_indexes)
    lines = [text(locale, "round_answer", number=position, answer=answer)]
    if tally is not None:
        right, answered = tally
        lines.append(
            text(locale, "round_right_count", right=right, answered=answered)
            if answered
            else text(locale, "round_nobody")
        )
    lines.append(text(locale, "full_explanation", explanation=question.explanation))
    return "\n".join(lines)


class Rounds:
    """The timed rounds of one bot process: `live` holds the rounds it prepares or plays, by round id."""

    def __init__(self, store: Store, sender: Sender, clock: Clock, pace: Pace, default_locale: str) -> None:
        self.store, self.sender, self.clock, self.pace = store, sender, clock, pace
        self.default_locale = default_locale
        self.live: dict[int, LiveRound] = {}
        self._timers: dict[str, asyncio.Task[None]] = {}

    # ---- timers ---------------------------------------------------------------------------------------

    def _later(self, name: str, delay: float, action: Callable[[], Awaitable[None]]) -> None:
        """Run `action` after `delay` real seconds, unless `cancel(name)` comes first."""

        async def wait_then_act() -> None:
            await self.clock.sleep(max(delay, 0.0))
            self._timers.pop(name, None)
            await action()

        self.cancel(name)
        self._timers[name] = self.spawn(wait_then_act())

    def spawn(self, work: Awaitable[None]) -> asyncio.Task[None]:
        """Background work of a round: a failure is logged, never lost in an unawaited task."""
        task = asyncio.ensure_future(work)
        task.add_done_callback(_log_failure)
        return task

    def cancel(self, name: str) -> None:
        task = self._timers.pop(name, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def close(self) -> None:
        """Stop every timer (the bot is stopping: what is stored resumes on the next start)."""
        timers = list(self._timers.values())
        self._timers.clear()
        for task in timers:
            task.cancel()
        await asyncio.gather(*timers, return_exceptions=True)

    def _arm_close(self, delivery_id: int, delay: float) -> None:
        self._later(f"close:{delivery_id}", delay, lambda: self.closed(delivery_id))

    def _round_seconds(self, seconds: float) -> int | float:
        """Round seconds in real seconds, whole where they are (Telegram's open period is an integer)."""
        scaled = seconds * self.pace.second
        return int(scaled) if float(scaled).is_integer() else scaled

    # ---- telling ---------------------------------------------------------------------------------------

    async def tell_home(self, playing: LiveRound, body: str, buttons=None) -> None:
        try:
            await self.sender.text(playing.home_id, body, buttons=buttons)
        except SendFailed as exc:
            log.warning("could not tell chat %s about round %s: %s", playing.home_id, playing.round_id, exc)

    async def drop(self, playing: LiveRound) -> None:
        await self.store.rounds.cancel(playing.round_id)
        self.live.pop(playing.round_id, None)

    # ---- playing ---------------------------------------------------------------------------------------

    async def start(self, playing: LiveRound) -> None:
        if not await self.store.rounds.start(playing.round_id, len(playing.versions)):
            return
        if playing.kind == "channel":
            await self.tell_home(
                playing,
                text(
                    playing.locale,
                    "round_channel_started",
                    channel=playing.title,
                    count=len(playing.versions),
                    seconds=playing.seconds,
                ),
            )
        await self.post_next(playing)

    async def post_next(self, playing: LiveRound) -> None:
        """Post the round's next question, or finish the round after the last one."""
        store = self.store
        async with playing.lock:
            if playing.stopping:
                return
            round_ = await store.rounds.get(playing.round_id)
            if round_ is None or round_.status != "running":
                return
            position = round_.position + 1
            if position > round_.question_count:
                await self.finish(playing)
                return
            version = await store.questions.version(playing.versions[position - 1])
            label = f"{position}/{round_.question_count} "
            try:
                sent = await self.sender.quiz(
                    playing.chat_id,
                    version.question,
                    playing.locale,
                    version_id=version.id,
                    label=label,
                    anonymous=playing.kind == "channel",
                    open_period=self._round_seconds(playing.seconds),
                )
            except Refused as exc:
                log.warning("round %s: cannot post in chat %s: %s", playing.round_id, playing.chat_id, exc)
                await self.drop(playing)
                await self.tell_home(
                    playing, text(playing.locale, "round_post_failed", chat=playing.title, reason=exc.reason)
                )
                return
            # The delivery keeps the round's own seconds; only the poll sent got them in real time.
            delivery = await store.deliveries.record(
                poll_id=sent.poll_id,
                version_id=version.id,
                chat_id=playing.chat_id,
                message_id=sent.message_id,
                kind=playing.kind,
                anonymous=playing.kind == "channel",
                round_id=playing.round_id,
                position=position,
                open_period=playing.seconds,
            )
            await store.rounds.advance(playing.round_id)
            self._arm_close(delivery.id, playing.seconds * self.pace.second + self.pace.close_grace)
        if playing.kind == "channel":
            await self._send_copy(playing, version, label)

    async def _send_copy(self, playing: LiveRound, version: QuestionVersion, label: str) -> None:
        """The instructor's copy of a channel question, a quiz in their private chat with the same 👍/👎:
        channel polls are anonymous, so this is where the question can be answered and judged."""
        try:
            sent = await self.sender.quiz(
                playing.home_id,
                version.question,
                playing.locale,
                version_id=version.id,
                label=text(playing.locale, "round_copy_label", channel=playing.title, label=label),
                anonymous=False,
                open_period=None,
            )
        except SendFailed as exc:
            log.warning("round %s: no copy for instructor %s: %s", playing.round_id, playing.home_id, exc)
            return
        await self.store.deliveries.record(
            poll_id=sent.poll_id,
            version_id=version.id,
            chat_id=playing.home_id,
            message_id=sent.message_id,
            kind="private",
            anonymous=False,
        )

    async def _close_delivery(self, delivery: Delivery, playing: LiveRound, stop_poll: bool = False) -> bool:
        """Close one poll of the round and post its explanation; False if it was already closed. Answers
        arriving after this are not counted."""
        store = self.store
        if not await store.deliveries.close(delivery.id):
            return False
        self.cancel(f"close:{delivery.id}")
        if stop_poll:
            await self.sender.stop_poll(delivery.chat_id, delivery.message_id, delivery.version_id)
        version = await store.questions.version(delivery.version_id)
        tally = None
        if delivery.kind == "group":
            attempts = await store.attempts.for_delivery(delivery.id)
            tally = (sum(a.correct for a in attempts), len(attempts))
        body = explanation_text(playing.locale, delivery.position, version.question, tally)
        if version.flagged:
            body = f"{body}\n{text(playing.locale, 'flagged_note')}"
        try:
            await self.sender.text(delivery.chat_id, body, reply_to=delivery.message_id)
        except SendFailed as exc:
            log.warning("round %s: no explanation for poll %s: %s", playing.round_id, delivery.poll_id, exc)
        return True

    async def closed(self, delivery_id: int) -> None:
        """A poll of a round closed (Telegram's update or our timer): explain it and go on."""
        store = self.store
        delivery = await store.deliveries.get(delivery_id)
        playing = self.live.get(delivery.round_id) if delivery and delivery.round_id else None
        if playing is None or not await self._close_delivery(delivery, playing):
            return
        if playing.stopping:
            return
        round_ = await store.rounds.get(playing.round_id)
        last = round_ is None or round_.position >= round_.question_count
        if playing.kind == "group" or last or playing.interval == 0:
            await self.post_next(playing)
        else:
            self._later(
                f"next:{playing.round_id}",
                playing.interval * self.pace.second,
                lambda: self._next(playing.round_id),
            )

    async def _next(self, round_id: int) -> None:
        playing = self.live.get(round_id)
        if playing is not None:
            await self.post_next(playing)

    async def poll_closed(self, poll_id: str) -> None:
        """Telegram says a poll closed: if it is an open poll of a round, close it once last-second answers
        (which may come in the same batch) are recorded."""
        delivery = await self.store.deliveries.by_poll(poll_id)
        if delivery is None or delivery.round_id is None or delivery.closed:
            return
        await self.clock.sleep(self.pace.close_settle)
        await self.closed(delivery.id)

    async def finish(self, playing: LiveRound, interrupted: bool = False) -> None:
        """End a running round once: the leaderboard in a group, a note to the instructor for a channel."""
        store = self.store
        self.live.pop(playing.round_id, None)
        if not await store.rounds.finish(playing.round_id):
            return
        if playing.kind == "group":
            standings = await store.rounds.leaderboard(playing.round_id)
            await self.tell_home(playing, round_leaderboard(playing.locale, standings))
            return
        round_ = await store.rounds.get(playing.round_id)
        key = "round_channel_interrupted" if interrupted else "round_channel_finished"
        await self.tell_home(
            playing,
            text(
                playing.locale,
                key,
                channel=playing.title,
                posted=round_.position,
                count=round_.question_count,
            ),
        )

    # ---- stopping, orphans and restarts -----------------------------------------------------------------

    async def _restore(self, round_: Round) -> LiveRound:
        """The `LiveRound` of a round this process did not start, rebuilt from storage (its pace included)."""
        chat = await self.store.chats.get(round_.chat_id)
        channel = chat is not None and chat.type == "channel"
        versions = []
        for number in range(1, round_.settings.count + 1):
            thread = f"{round_.chat_id}/{question_key(round_.id, number)}"
            stored = await self.store.questions.by_thread(thread)
            latest = await self.store.questions.latest(stored.id) if stored is not None else None
            if latest is not None:
                versions.append(latest.id)
        locale = await self.store.users.get_locale(round_.initiator_id) or self.default_locale
        return LiveRound(
            round_id=round_.id,
            kind="channel" if channel else "group",
            chat_id=round_.chat_id,
            home_id=round_.initiator_id if channel else round_.chat_id,
            initiator_id=round_.initiator_id,
            title=chat.title if chat is not None else "",
            locale=locale,
            seconds=round_.seconds or 0,
            interval=round_.pause if channel else 0,
            versions=versions,
        )

    async def stop(self, round_: Round) -> None:
        """End a live round early: a round still being prepared is cancelled; a running one has its open
        poll closed and explained, then finishes as usual (leaderboard or note) with the scores so far."""
        store = self.store
        playing = self.live.get(round_.id)
        if round_.status == "preparing":
            if playing is not None and playing.task is not None:
                playing.task.cancel()
            await store.rounds.cancel(round_.id)
            self.live.pop(round_.id, None)
            return
        playing = playing or await self._restore(round_)
        playing.stopping = True
        self.cancel(f"next:{round_.id}")
        async with playing.lock:
            for delivery in await store.deliveries.for_round(round_.id):
                if not delivery.closed:
                    await self._close_delivery(delivery, playing, stop_poll=True)
        await self.finish(playing, interrupted=playing.kind == "channel")

    async def make_room(self, chat_id: int, locale: str) -> bool:
        """False while this process plays a live round in the chat. A live round nobody plays any more (the
        bot restarted during its preparation, or between two polls) is ended cleanly instead, so it cannot
        block the chat for good."""
        store = self.store
        live = await store.rounds.live(chat_id)
        if live is None:
            return True
        if live.id in self.live:
            return False
        chat = await store.chats.get(chat_id)
        if live.status == "running" and chat is not None and chat.type != "channel":
            try:
                await self.sender.text(chat_id, text(locale, "round_interrupted"))
            except SendFailed as exc:
                log.warning("could not tell chat %s that round %s was interrupted: %s", chat_id, live.id, exc)
        await self.stop(live)
        return True

    async def resume(self) -> int:
        """After a restart: re-arm the close timer of every open poll of a running round (a poll whose time
        ran out while the bot was down closes shortly after startup, once queued answers are in) and carry
        on. Returns how many rounds were taken up again."""
        store = self.store
        resumed = 0
        for delivery in await store.deliveries.pending_close():
            if delivery.round_id is None:
                continue
            round_ = await store.rounds.get(delivery.round_id)
            if round_ is None or round_.status != "running":
                await store.deliveries.close(delivery.id)
                continue
            if round_.id not in self.live:
                self.live[round_.id] = await self._restore(round_)
                resumed += 1
            closes_at = (
                delivery.delivered_at + delivery.open_period * self.pace.second + self.pace.close_grace
            )
            self._arm_close(delivery.id, max(closes_at - self.clock.now(), self.pace.resume_delay))
        for round_ in await store.rounds.live_all():
            if round_.id in self.live:
                continue
            if round_.status == "running" and round_.seconds:
                # Between two polls when the bot stopped: carry on with the next question.
                playing = self.live[round_.id] = await self._restore(round_)
                self.spawn(self.post_next(playing))
                resumed += 1
                continue
            # Its questions were still being written: end it cleanly, and say so where it was started.
            playing = await self._restore(round_)
            await self.stop(round_)
            await self.tell_home(playing, text(playing.locale, "round_interrupted"))
        return resumed


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a timed round's background work failed", exc_info=task.exception())
