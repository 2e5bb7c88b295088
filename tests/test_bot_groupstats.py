"""/groupstats end to end: after a group's timed rounds its administrator sees each member's accuracy and
participation, the most missed questions with the reasons learners reported, and a chart; members who are
not administrators are refused."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

from PIL import Image

from handlers.context import state
from progress.chart import DPI
from progress.classchart import INCHES_PER_MEMBER, MEMBERS_SHOWN, class_chart_labels, render_class_chart
from progress.classroom import ChartSeries
from storage.quiz_settings import QuizSettings
from testkit.botharness import bot_running, world
from testkit.roundharness import QUICK_POLLS, quick_pace, replies_to, start_group_round, wrong_choice
from vocabulary.records import GenerationRequest, Question

SECOND = 0.05
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


async def answer_round(client, group, answers: dict) -> list:
    """Play a started round: `answers` maps each member to whether they get each question right (None: that
    member sits the round out)."""
    quizzes = []
    for number in range(max(len(right) for right in answers.values() if right is not None)):
        quiz = await client.wait_for_poll(group, timeout=20)
        quizzes.append(quiz)
        for user, right in answers.items():
            if right is not None:
                choice = list(quiz.poll.correct_option_ids) if right[number] else wrong_choice(quiz.poll)
                await client.vote(user, quiz, choice)
        await client.wait_for_message(group, replies_to(quiz), timeout=10)
    await client.wait_for_text(group, "排行榜", timeout=10)
    return quizzes


async def test_groupstats_show_members_missed_questions_with_reasons_and_a_chart(tmp_path: Path):
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, quick_pace(SECOND)) as app,
    ):
        ann, ben, cai = [await client.create_user(name) for name in ("Ann", "Ben", "Cai")]
        group = await client.create_group("备考群", [ben, cai], admins=[ann])
        await start_group_round(client, group, ann, count="3", seconds="30")
        first = await answer_round(
            client, group, {ann: [True, True, True], ben: [True, False, False], cai: [False, False, False]}
        )
        await start_group_round(client, group, ann, count="1", seconds="30")
        await answer_round(client, group, {ann: [True], ben: [True], cai: None})
        store = state(app).store
        missed = await store.deliveries.by_poll(first[2].poll.id)
        await store.reports.create(missed.version_id, ben.id, "answer_wrong")

        await client.send_text(ben, "/groupstats", group)
        refusal = await client.next_message(group)
        await client.send_text(ann, "/groupstats x", group)
        unreadable = await client.next_message(group)
        await client.send_text(ann, "/groupstats", group)
        summary = await client.wait_for_text(group, "班级统计")
        photo = await client.wait_for_message(group, lambda m: bool(m.photo), timeout=30)
        png = await client.download(photo.photo[-1]["file_id"])
    assert "只有群管理员或教师" in refusal.text
    assert "看不懂天数“x”" in unreadable.text
    lines = summary.text.splitlines()
    assert lines[0] == "📊 班级统计：2 轮测验，共 4 题"
    assert lines[2:5] == [
        "1. Ann — 100%（4/4）· 参与 2/2 轮",
        "2. Ben — 50%（2/4）· 参与 2/2 轮",
        "3. Cai — 0%（0/3）· 参与 1/2 轮",
    ]
    stem = first[2].poll.question.split(" ", 1)[1][:20]
    reported = next(line for line in lines if stem in line)
    assert "答错 2/3" in reported and "报告：答案错误×1" in reported
    assert png.startswith(PNG_SIGNATURE) and 5_000 < len(png) < 300_000
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size[0] == 800 and 300 <= image.size[1] <= 600


def test_a_large_class_chart_keeps_bars_readable_and_draws_chinese_names() -> None:
    names = tuple(f"学员{n:02d}号王小明" for n in range(40))
    series = ChartSeries(names, tuple(float(n) for n in range(40)), tuple(100.0 - n for n in range(40)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns for every glyph it has to draw as a box
        png = render_class_chart(series, class_chart_labels("zh"))
    image = Image.open(io.BytesIO(png))
    assert image.size == (800, round(DPI * (1.2 + INCHES_PER_MEMBER * MEMBERS_SHOWN)))


async def test_a_class_too_large_for_one_message_is_listed_over_several(tmp_path: Path):
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, quick_pace(SECOND)) as app,
    ):
        ann = await client.create_user("Ann")
        group = await client.create_group("大班", [], admins=[ann])
        store = state(app).store
        # A finished round of one question that 150 members answered (stored as the round engine would).
        await store.users.upsert(ann.id, "Ann")
        await store.chats.upsert(group.id, "supergroup", "大班")
        game = await store.rounds.create(group.id, ann.id, QuizSettings(count=1))
        await store.rounds.start(game.id, 1)
        version = await store.questions.record(
            GenerationRequest(chat_id=group.id, question_id="big1", qtype="judge"),
            Question(
                qtype="judge",
                stem="大班的判断题。（　）",
                options=["正确", "错误"],
                answer=["A"],
                explanation="结论：正确。",
            ),
            round_id=game.id,
        )
        delivery = await store.deliveries.record(
            poll_id="big-poll",
            version_id=version.id,
            chat_id=group.id,
            message_id=1,
            kind="group",
            round_id=game.id,
        )
        for number in range(150):
            await store.users.upsert(500_000 + number, f"第{number:03d}号学员 张三丰")
            await store.attempts.record(delivery.id, 500_000 + number, [number % 2])
        await store.rounds.finish(game.id)

        await client.send_text(ann, "/groupstats", group)
        await client.wait_for_message(group, lambda m: bool(m.photo), timeout=30)
        said = [m.text for m in await client.transcript(group) if m.from_bot and m.text]
    listed = [line for part in said for line in part.splitlines() if "张三丰" in line]
    assert len(said) >= 2 and all(len(part) <= 4096 for part in said)
    assert said[0].startswith("📊 班级统计：1 轮测验，共 1 题")
    assert len(listed) == 150 and listed[0].startswith("1. ") and listed[-1].startswith("150. ")
