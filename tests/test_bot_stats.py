"""/stats end to end: a learner's rounds across chapters come back as per-chapter accuracy, streaks and a
chart photo, through the real PTB Application and the Bot API emulator."""

from __future__ import annotations

import io
import time
from pathlib import Path

from PIL import Image

from bot.console import run_console
from handlers.context import state
from progress.chart import DPI, SIZE_INCHES
from storage import Store
from testkit.botharness import bot_running, world
from tests.test_bot_private import choose, wrong_choice
from vocabulary.records import GenerationRequest, Question

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DAY = 86400.0


async def play(client, user, chapter: str, right: list[bool]) -> None:
    """A round of single-choice questions from one chapter, answered right or wrong in turn."""
    await choose(client, user, "single", count=len(right), chapter=chapter)
    for number, correct in enumerate(right, start=1):
        quiz = await client.wait_for_poll(user, timeout=30)
        assert quiz.poll.question.startswith(f"{number}/{len(right)} ")
        await client.vote(
            user, quiz, list(quiz.poll.correct_option_ids) if correct else wrong_choice(quiz.poll)
        )
        feedback = await client.wait_for_text(user, "解析")
    assert "本轮结束" in feedback.text


async def backdate(database: Path, user, chapter: tuple[str, str], days_ago: list[int]) -> None:
    """One right answer in `chapter` on each of the given days before today, stored before the bot starts."""
    for days in days_ago:
        moment = time.time() - days * DAY
        store = await Store.open(database, clock=lambda moment=moment: moment)
        try:
            await store.users.upsert(user.id, user.first_name)
            await store.chats.upsert(user.id, "private", user.first_name)
            question = Question(
                qtype="judge",
                stem=f"第 {days} 天前的判断题。（　）",
                options=["正确", "错误"],
                answer=["A"],
                explanation="结论：正确。",
                chapter=list(chapter),
            )
            request = GenerationRequest(chat_id=user.id, question_id=f"old{days}", qtype="judge")
            version = await store.questions.record(request, question)
            delivery = await store.deliveries.record(
                poll_id=f"old-poll-{days}",
                version_id=version.id,
                chat_id=user.id,
                message_id=800_000 + days,
                kind="private",
            )
            await store.attempts.record(delivery.id, user.id, [0])
        finally:
            await store.close()


async def test_stats_show_accuracy_per_chapter_weakest_first_streaks_and_a_chart(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        lena = await client.create_user("Lena")
        async with bot_running(emulator, settings) as app:
            chapters = {c.name[:3]: c for c in state(app).sources.tree.chapters if c.slices}
            first, seventh = chapters["第一章"], chapters["第七章"]
        # Two earlier days in a row in the first chapter, then today: a streak of three.
        await backdate(settings.storage.database, lena, first.key, days_ago=[2, 1])
        async with bot_running(emulator, settings):
            await play(client, lena, "第一章", [True, True, False])
            await play(client, lena, "第七章", [False, True, False])
            await client.send_text(lena, "/stats")
            summary = await client.wait_for_text(lena, "学习统计")
            photo = await client.wait_for_message(lena, lambda m: bool(m.photo), timeout=30)
            png = await client.download(photo.photo[-1]["file_id"])
    lines = summary.text.splitlines()
    assert "已答 8 题，答对 5 题，正确率 62%" in lines
    assert "连续练习：当前 3 天，最长 3 天" in lines
    ranked = lines[lines.index("各章正确率（由弱到强）：") + 1 :][:2]
    assert ranked == [f"· {seventh.name}：1/3（33%）", f"· {first.name}：4/5（80%）"]
    never = next(line for line in lines if line.startswith("尚未练习的章节："))
    assert first.name not in never and seventh.name not in never
    assert chapters["第二章"].name in never
    assert png.startswith(PNG_SIGNATURE) and 10_000 < len(png) < 300_000
    image = Image.open(io.BytesIO(png))
    assert image.size == (int(SIZE_INCHES[0] * DPI), int(SIZE_INCHES[1] * DPI))
    assert (photo.photo[-1]["width"], photo.photo[-1]["height"]) == image.size


async def test_stats_before_any_answer_say_how_to_start_and_send_no_chart(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings):
        max_ = await client.create_user("Max")
        await client.send_text(max_, "/stats")
        reply = await client.next_message(max_)
        await client.settle(max_, quiet=1.0)
        transcript = await client.transcript(max_)
        group = await client.create_group("备考群", [max_])
        await client.send_text(max_, "/stats", group)
        refusal = await client.next_message(group)
    assert "还没有答题记录" in reply.text and "/quiz" in reply.text
    assert [m for m in transcript if m.from_bot and m.photo] == []
    assert "私聊" in refusal.text and "/groupstats" in refusal.text


async def test_the_console_shows_the_chart_and_saves_it_to_a_file(tmp_path: Path):
    async with world(tmp_path) as (emulator, _client, settings), bot_running(emulator, settings):
        # 全部章节, 单选, 严谨, 1 question, 不限 (a band makes the author write several candidates: the wait
        # for the poll would outlast the console's pause), 生成题目, then answer A.
        script = io.StringIO("/quiz\n1\n1\n1\n1\n4\n1\n1\n/stats\n:save\n")
        output = io.StringIO()
        code = await run_console(
            emulator.root_url,
            "grace",
            script,
            output,
            interactive=False,
            quiet=2.0,
            save_folder=tmp_path / "got",
        )
    shown = output.getvalue()
    saved = list((tmp_path / "got").iterdir())
    assert code == 0
    assert "学习统计" in shown and "🖼 photo 800×400" in shown
    assert len(saved) == 1 and f"(saved to {saved[0]})" in shown
    assert saved[0].read_bytes().startswith(PNG_SIGNATURE)
