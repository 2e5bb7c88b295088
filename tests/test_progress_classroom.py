"""Class statistics of a group: members' accuracy and participation over its rounds, the most missed
questions with their report reasons, as text and as a chart's series."""

from __future__ import annotations

import pytest

from progress.classroom import chart_series, class_stats, summary
from storage import Store
from storage.quiz_settings import QuizSettings
from tests.test_storage_support import Clock, deed_tax_question, deliver, vat_question
from vocabulary.records import GenerationRequest

GROUP, TEACHER = -100, 7
DAY = 86400.0
# Bidi controls in a name would reorder everything after it on the line (U+202E writes it backwards).
MEMBERS = {21: "甲", 22: "Mal\u202elory\u2066", 23: "丙"}


async def play_round(
    store: Store, clock: Clock, answers: dict[int, list[bool | None]], tag: str
) -> list[int]:
    """A finished round of two questions (deed tax, answer index 1; VAT, answers 0 and 2); `answers` gives
    each member's right/wrong per question, None for not answering. The version ids, in order."""
    game = await store.rounds.create(GROUP, TEACHER, QuizSettings(count=2))
    await store.rounds.start(game.id, 2)
    versions = []
    for position, (question, right, wrong) in enumerate(
        [(deed_tax_question(tag), [1], [0]), (vat_question(), [0, 2], [0])], start=1
    ):
        if position == 2:
            question = question.model_copy(update={"stem": f"{question.stem}{tag}"})
        version = await store.questions.record(
            GenerationRequest(chat_id=GROUP, question_id=f"{tag}{position}", qtype=question.qtype),
            question,
            round_id=game.id,
        )
        versions.append(version.id)
        delivery = await deliver(store, version.id, GROUP, f"{tag}{position}", round_id=game.id)
        for user_id, marks in answers.items():
            if marks[position - 1] is not None:
                clock.advance(5)
                await store.attempts.record(delivery.id, user_id, right if marks[position - 1] else wrong)
    await store.rounds.finish(game.id)
    return versions


@pytest.fixture
async def group(store: Store) -> None:
    await store.chats.upsert(GROUP, "group", "备考群")
    await store.users.upsert(TEACHER, "老师")
    for user_id, name in MEMBERS.items():
        await store.users.upsert(user_id, name)


@pytest.mark.usefixtures("group")
async def test_members_accuracy_participation_and_most_missed_with_reasons(
    store: Store, clock: Clock
) -> None:
    first = await play_round(store, clock, {21: [True, True], 22: [True, False], 23: [False, False]}, "一")
    clock.advance(DAY)
    second = await play_round(store, clock, {21: [True, False], 22: [False, None]}, "二")
    await store.reports.create(second[0], 22, "answer_wrong")
    await store.reports.create(first[1], 23, "stem_unclear")
    await store.reports.create(first[1], 22, "stem_unclear")
    await store.reports.create(first[1], 21, "options_wrong")
    # A quiz in a member's private chat is not the class's.
    await store.chats.upsert(21, "private")
    private = await store.questions.record(
        GenerationRequest(chat_id=21, question_id="p", qtype="single"), deed_tax_question()
    )
    await store.attempts.record((await deliver(store, private.id, 21, "p", kind="private")).id, 21, [0])

    stats = await class_stats(store, GROUP)
    assert (stats.rounds, stats.questions) == (2, 4)
    rows = [(m.user_id, m.name, m.correct, m.answered, m.rounds) for m in stats.members]
    assert rows == [(21, "甲", 3, 4, 2), (22, "Mallory", 1, 3, 2), (23, "丙", 0, 2, 1)]
    assert [m.participation for m in stats.members] == [1.0, 1.0, 0.5]
    missed = [(q.version_id, q.wrong, q.attempts, q.reasons) for q in stats.missed]
    assert missed == [
        (first[1], 2, 3, (("stem_unclear", 2), ("options_wrong", 1))),
        (second[1], 1, 1, ()),
        (second[0], 1, 2, (("answer_wrong", 1),)),
        (first[0], 1, 3, ()),
    ]

    series = chart_series(stats)
    assert series.names == ("甲", "Mallory", "丙")
    assert (series.accuracy, series.participation) == ((75.0, 33.3, 0.0), (100.0, 100.0, 50.0))

    zh = summary(stats, "zh").splitlines()
    assert zh[0] == "📊 班级统计：2 轮测验，共 4 题"
    assert zh[2:5] == [
        "1. 甲 — 75%（3/4）· 参与 2/2 轮",
        "2. Mallory — 33%（1/3）· 参与 2/2 轮",
        "3. 丙 — 0%（0/2）· 参与 1/2 轮",
    ]
    assert zh[6].startswith(
        "1. 关于个人出售住房的增值税，下列说法正确的有（　）。一 — 答错 2/3 · 报告：题干不清×2、选项有问题×1"
    )
    en = summary(stats, "en")
    assert "2. Mallory — 33% (1/3) · rounds 2/2" in en
    assert "wrong 2/3 · reported: Unclear stem ×2, Bad options ×1" in en


@pytest.mark.usefixtures("group")
async def test_a_window_of_days_counts_only_the_rounds_inside_it(store: Store, clock: Clock) -> None:
    await play_round(store, clock, {21: [True, True], 22: [False, False]}, "旧")
    clock.advance(10 * DAY)
    await play_round(store, clock, {22: [True, True]}, "新")
    week = await class_stats(store, GROUP, days=7)
    assert (week.rounds, week.questions) == (1, 2)
    assert [(m.user_id, m.correct, m.answered, m.rounds) for m in week.members] == [(22, 2, 2, 1)]
    assert week.missed == ()
    assert summary(week, "zh").splitlines()[0] == "📊 班级统计（最近 7 天）：1 轮测验，共 2 题"
    # Over all time both have 2 right; fewer answers for the same score ranks first.
    assert [m.user_id for m in (await class_stats(store, GROUP)).members] == [21, 22]


@pytest.mark.usefixtures("group")
async def test_a_group_without_answers_says_so(store: Store) -> None:
    stats = await class_stats(store, GROUP)
    assert (stats.rounds, stats.members, stats.missed) == (0, (), ())
    assert summary(stats, "zh").splitlines()[1] == "本群的测验还没有人作答。"
    assert chart_series(stats).names == ()
