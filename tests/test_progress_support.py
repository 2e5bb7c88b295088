"""Builders for the progress tests: a learner answering questions of given chapters at given moments. It
holds no tests itself (its name only follows the test_progress_* pattern of the modules that import it)."""

from __future__ import annotations

import itertools

from storage import Store
from storage.attempts import Attempt
from storage.questions import QuestionVersion
from tests.test_storage_support import Clock, deed_tax_question, deliver
from vocabulary.records import GenerationRequest

LEARNER = 11
CHAT = 11
# Chapters of the bundled sample's knowledge base.
TAXES = ("第四篇 交易税费", "第七章 买方税费")
BASICS = ("第一篇 行业与经纪基础", "第二章 房地产基础知识")
CONTRACTS = ("第三篇 交易合同与资金", "第五章 存量房买卖合同")
DAY = 86400.0
_keys = itertools.count(1)
_polls = itertools.count(1)


async def learner(store: Store, user_id: int = LEARNER) -> None:
    await store.users.upsert(user_id, f"学员{user_id}")
    await store.chats.upsert(user_id, "private")


async def new_question(
    store: Store, chapter: tuple[str, ...], chat_id: int = CHAT, difficulty: float = 0.5
) -> QuestionVersion:
    """A stored deed-tax question (answer B, option index 1) filed under `chapter`."""
    question = deed_tax_question(f"#{next(_keys)}").model_copy(
        update={"chapter": list(chapter), "difficulty": difficulty}
    )
    return await store.questions.record(
        GenerationRequest(chat_id=chat_id, question_id=f"k{next(_keys)}", qtype="single"), question
    )


async def answer(
    store: Store,
    clock: Clock,
    version: QuestionVersion,
    correct: bool,
    at: float | None = None,
    user_id: int = LEARNER,
) -> Attempt:
    """Deliver the version to the learner's chat and answer it right (B) or wrong (A) at `at`."""
    if at is not None:
        clock.now = at
    delivery = await deliver(store, version.id, user_id, f"poll{next(_polls)}", kind="private")
    recorded = await store.attempts.record(delivery.id, user_id, [1 if correct else 0])
    return recorded.attempt


async def answer_new(
    store: Store, clock: Clock, chapter: tuple[str, ...], correct: bool, at: float | None = None
) -> Attempt:
    return await answer(store, clock, await new_question(store, chapter), correct, at)
