"""An instructor's revision of a delivered question: the per-instructor limit, the claim on the version
(one revision of it at a time), the loop's rewrite shown live, and the claim released whatever happens;
after a restart, which revisions still wait for the instructor and which are released. What to tell the
instructor, which buttons to mark and how to preview the result is the caller's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engines.i18n import text
from graph.events import Progress, Result, UnknownQuestion
from storage import Store
from storage.deliveries import Delivery
from storage.questions import QuestionVersion
from storage.revisions import Revision

if TYPE_CHECKING:
    from graph.service import GenerationService


class Status(Protocol):
    """A live status message (handlers/status.py's StatusMessage on Telegram) under a `title` that may
    change while it is shown."""

    title: str

    async def open(self) -> None: ...

    async def add(self, event: Progress) -> None: ...

    async def close(self, title: str) -> None: ...


@dataclass(frozen=True)
class Declined:
    """Not started: `key` names the catalogue message saying why (the instructor's limit, or a revision of
    this version already under way)."""

    key: str


@dataclass(frozen=True)
class Failed:
    """Started, but no better version came out. `reported`: the question still stands reported."""

    reason: str
    reported: bool


@dataclass(frozen=True)
class Revised:
    """A new version, waiting for the instructor to publish or discard it."""

    revision: Revision
    result: Result


async def revise(
    store: Store,
    generation: GenerationService,
    *,
    limit: int,
    version: QuestionVersion,
    instructor_id: int,
    reason: str,
    comment: str,
    status: Status,
    locale: str,
) -> Declined | Failed | Revised:
    if await store.revisions.in_flight_count(instructor_id) >= limit:
        return Declined("revision_limit")
    if not await store.revisions.try_start_revision(version.id, instructor_id, reason, comment):
        return Declined("revision_busy")
    revision = await store.revisions.current(version.id)
    try:
        await status.open()
        result: Result | None = None
        async for event in generation.revise(version.thread_id, reason, comment):
            if isinstance(event, Result):
                result = event
            else:
                await status.add(event)
        if result is None or not result.ok or (result.version or 0) <= version.number:
            await store.revisions.finish_revision(version.id, "failed")
            await status.close(text(locale, "revision_failed_status"))
            return Failed(result.failure if result else "", reported=True)
        await status.close(text(locale, "preview_waiting", label=f"v{result.version}"))
        return Revised(revision, result)
    except UnknownQuestion:
        await store.revisions.finish_revision(version.id, "failed")
        return Failed(version.thread_id, reported=False)
    except BaseException:
        # Cancelled (the bot is stopping) or broken: release the claim so 👎 can start it again.
        await store.revisions.finish_revision(version.id, "abandoned")
        raise


@dataclass(frozen=True)
class Interrupted:
    """A revision a restart cut short. `waiting`: the last delivery of the question and the verified result
    the instructor had not yet decided on, whose preview can be shown again; None: the claim was released."""

    revision: Revision
    version: QuestionVersion
    waiting: tuple[Delivery, Result] | None


async def pending_result(
    store: Store, generation: GenerationService, revision: Revision
) -> tuple[QuestionVersion, Result] | None:
    """The verified result a revision in flight is waiting to publish, if its generation finished one."""
    version = await store.questions.version(revision.version_id)
    if version is None:
        return None
    result = await generation.result(version.thread_id)
    if not result.ok or (result.version or 0) <= version.number:
        return None
    return version, result


async def take_up_interrupted(store: Store, generation: GenerationService) -> list[Interrupted]:
    """Every revision in flight when the bot stopped. One whose result was ready keeps waiting for the
    instructor; any other is released, so the question is not locked "in revision" for good and one tap on
    👎 starts it again."""
    found = []
    for revision in await store.revisions.in_flight():
        pending = await pending_result(store, generation, revision)
        shown = await store.deliveries.for_version(revision.version_id)
        if pending is not None and shown:
            version, result = pending
            found.append(Interrupted(revision, version, (shown[-1], result)))
            continue
        await store.revisions.finish_revision(revision.version_id, "abandoned")
        found.append(Interrupted(revision, await store.questions.version(revision.version_id), None))
    return found
