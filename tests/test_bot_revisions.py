"""A revision as an instructor meets it, through the emulator: the comment's figures honoured (or why not,
said plainly), the preview with old → new, 发布 / 放弃 across a restart, and the learner behind a report
kept informed — including when no instructor could receive it."""

from __future__ import annotations

import io
from pathlib import Path

import calc
from bot.console import run_console
from handlers.context import state
from storage import Store
from testkit.botharness import bot_running, world
from tests.test_bot_feedback import first_quiz, preview, published, revised_quiz, thumbs_down
from tests.test_bot_private import choose

BUYER_TAXES = "第七章 买方税费 🧮"


async def deed_tax_quiz(client, app, teacher):
    """A deed-tax quiz from the buyer's-taxes chapter (the chapter's other calculators come first in some
    rounds) and the version behind it."""
    store = state(app).store
    for _ in range(8):
        await choose(client, teacher, "single", count=1, chapter=BUYER_TAXES)
        quiz = await client.wait_for_poll(teacher, timeout=20)
        await client.settle(teacher, quiet=0.5, timeout=10)
        version = await store.questions.version((await store.deliveries.by_poll(quiz.poll.id)).version_id)
        if version.question.calculation and version.question.calculation.calculator == "deed_tax":
            return quiz, version
    raise AssertionError("no deed-tax question in eight rounds of the buyer's-taxes chapter")


async def complain(client, teacher, quiz, reason: str, comment: str):
    await thumbs_down(client, teacher, quiz, reason)
    await client.send_text(teacher, comment)
    return await preview(client, teacher)


async def test_a_figure_in_the_comment_becomes_the_calculations_input(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings) as app:
            quiz, first = await deed_tax_quiz(client, app, teacher)
            shown = await complain(client, teacher, quiz, "answer_wrong", "请把面积改成 90 平方米以下的情形")
            await client.press(teacher, shown, "发布")
            revised = await revised_quiz(client, teacher, quiz)
            history = await state(app).store.questions.history(first.question_id)
    old, new = history[0].question, history[1].question
    area = new.calculation.args["area"]
    assert old.calculation.args["area"] >= 90 and area < 90
    assert f"{area}平方米" in new.stem and f"{area}平方米" in revised.poll.question
    key = calc.run("deed_tax", new.calculation.args)["tax"]
    assert new.calculation.value == key != old.calculation.value
    assert f"{key:,.2f}元" in new.options[new.correct_indexes[0]]
    assert f"旧：{old.stem}" in shown.text and f"新：{new.stem}" in shown.text
    assert "【答案】\n旧：" in shown.text and "未能照办" not in shown.text


async def test_a_request_the_question_cannot_carry_is_refused_plainly(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings) as app:
            quiz, _ = await deed_tax_quiz(client, app, teacher)
            shown = await complain(client, teacher, quiz, "answer_wrong", "请把贷款年限改成30年")
    assert "⚠️ 意见中的“30年”未能照办：这道题的计算里没有能换成该数值的条件" in shown.text
    assert "旧：" in shown.text, "the rest of the complaint is still answered"


async def test_a_discarded_revision_reaches_nobody_and_frees_the_question(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings):
            quiz = await first_quiz(client, teacher)
            prompt = await thumbs_down(client, teacher, quiz, "stem_unclear")
            await client.press(teacher, prompt, "不补充，立即修订")
            shown = await preview(client, teacher)
            await client.press(teacher, shown, "放弃")
            discarded = await client.wait_for_edit(shown)
            prompt = await thumbs_down(client, teacher, quiz, "stem_unclear")
            await client.press(teacher, prompt, "不补充，立即修订")
            again = await preview(client, teacher)
            polls = [m for m in await client.transcript(teacher) if m.poll is not None]
    assert "已放弃这次修订" in discarded.text and not discarded.buttons
    assert again.buttons and len(polls) == 1, "only the original quiz was ever posted"


async def test_a_preview_waits_across_a_restart_and_its_buttons_are_stale_once_used(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings):
            quiz = await first_quiz(client, teacher)
            prompt = await thumbs_down(client, teacher, quiz, "options_wrong")
            await client.press(teacher, prompt, "不补充，立即修订")
            before = await preview(client, teacher)
        async with bot_running(emulator, settings):
            reminder = await client.wait_for_text(teacher, "仍在等你确认", timeout=15)
            await client.press(teacher, before, "发布")
            revised = await revised_quiz(client, teacher, quiz)
            await client.settle(teacher, quiet=0.5, timeout=10)
            late = await client.press(teacher, reminder, "发布", wait=5)
            await client.settle(teacher, quiet=0.5, timeout=10)
            polls = [m for m in await client.transcript(teacher) if m.poll is not None]
    assert "修订预览 v2" in reminder.text and revised.poll.question.startswith("【修订版 v2】")
    assert late.text and "已失效" in late.text
    assert len(polls) == 2, "the original and one revision"


async def test_the_learner_behind_a_report_hears_when_the_revision_is_out(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        learner = await client.create_user("Lena")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings):
            await client.send_text(teacher, "/start")
            await client.next_message(teacher)
            quiz = await first_quiz(client, learner)
            await client.press(learner, quiz, "👎")
            prompt = await client.wait_for_text(learner, "感谢反馈")
            await client.press(learner, prompt, "题干不清")
            filed = await client.wait_for_edit(prompt)
            dm = await client.wait_for_text(teacher, "学员反馈：题干不清")
            await client.press(teacher, dm, "修复")
            revised = await published(client, teacher, learner, quiz)
            notice = await client.wait_for_text(learner, "你反馈的题目")
    assert "已提交给教师" in filed.text
    assert "已修订为 v2" in notice.text and notice.reply_to_message_id == revised.message_id


async def test_a_report_no_instructor_can_receive_is_not_met_with_thanks(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")  # configured, but never opened a chat with the bot
        learner = await client.create_user("Lena")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings):
            quiz = await first_quiz(client, learner)
            await client.press(learner, quiz, "👎")
            prompt = await client.wait_for_text(learner, "感谢反馈")
            await client.press(learner, prompt, "答案错误")
            told = await client.wait_for_edit(prompt)
            await client.send_text(teacher, "/reports")
            listing = await client.wait_for_text(teacher, "待处理的学员反馈（1 条）")
    assert "没有教师能收到" in told.text and "/start" in told.text and "已提交" not in told.text
    assert listing.buttons, "the report waits for the instructor under /reports"


async def test_the_console_shows_what_a_user_received_while_you_were_someone_else(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings):
            # the learner asks for one question, reports it (👎, then 解析有误), and the teacher looks
            steps = ":as Teacher\n/start\n:as lena\n/quiz\n1\n1\n1\n1\n4\n1\nb 2\nb 2\n:as Teacher\n"
            script = io.StringIO(steps)
            output = io.StringIO()
            code = await run_console(emulator.root_url, "lena", script, output, interactive=False, quiet=1.0)
        store = await Store.open(settings.storage.database)
        try:
            reports = await store.reports.open_reports()
        finally:
            await store.close()
    shown = output.getvalue()
    back = shown.rindex("(you are Teacher")
    assert code == 0 and len(reports) == 1
    assert "(what Teacher received since they last looked:)" in shown[back:]
    assert "学员反馈：解析有误" in shown[back:] and "[1] 修复" in shown[back:]
