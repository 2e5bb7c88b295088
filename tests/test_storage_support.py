"""Builders for the storage tests (their fixtures are in conftest.py); it holds no tests itself (its name only
follows the test_storage_* pattern of the storage test modules that import it)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from storage import Store
from storage.deliveries import Delivery, DeliveryKind
from storage.questions import QuestionVersion
from vocabulary.records import GenerationRequest, Question

# Monday 2026-03-02 10:00 in Asia/Shanghai (UTC+8): a fixed, known point in a week.
MONDAY_10AM_SHANGHAI = 1772416800.0
_message_ids = itertools.count(1000)


class Clock:
    """A clock the test moves by hand, so answer times and week boundaries are exact."""

    def __init__(self, now: float = MONDAY_10AM_SHANGHAI) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def deed_tax_question(stem_suffix: str = "") -> Question:
    """A single-choice question whose answer is B (index 1)."""
    return Question(
        qtype="single",
        stem=f"2025年购买家庭唯一住房、面积为120㎡的个人，契税税率为（　）。{stem_suffix}",
        options=["0.5%", "1%", "1.5%", "3%"],
        answer=["B"],
        explanation="教材依据：首套住房140㎡及以下按1%。试题分析：面积120㎡未超过140㎡。结论：选B。",
    )


def vat_question() -> Question:
    """A multiple-choice question whose answer is A and C (indexes 0 and 2)."""
    return Question(
        qtype="multi",
        stem="关于个人出售住房的增值税，下列说法正确的有（　）。",
        options=["持有不足2年按3%征收", "持有满2年按5%征收", "持有满2年免征", "由买方缴纳"],
        answer=["A", "C"],
        explanation="教材依据：2026年起不足2年按3%，满2年免征。试题分析：税款由卖方负担。结论：选AC。",
    )


@dataclass
class World:
    """A chat with a learner in it and a first question version, the setting most tests need."""

    chat_id: int
    user_id: int
    version: QuestionVersion


async def make_world(store: Store, chat_id: int = -100, chat_type: str = "group") -> World:
    await store.chats.upsert(chat_id, chat_type, "经纪人备考群")
    await store.users.upsert(11, "王小明", "xiaoming")
    version = await store.questions.record(
        GenerationRequest(chat_id=chat_id, question_id="q1", qtype="single"), deed_tax_question()
    )
    return World(chat_id=chat_id, user_id=11, version=version)


async def deliver(
    store: Store,
    version_id: int,
    chat_id: int,
    poll_id: str,
    kind: DeliveryKind = "group",
    **extra: int | None,
) -> Delivery:
    """Record a poll with a fresh message id."""
    return await store.deliveries.record(
        poll_id=poll_id,
        version_id=version_id,
        chat_id=chat_id,
        message_id=next(_message_ids),
        kind=kind,
        **extra,
    )
