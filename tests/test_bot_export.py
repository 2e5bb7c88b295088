"""/export end to end: an instructor's delivered questions come back as an .xlsx document that imports as a
bank with the same questions; bad ranges, empty ranges and non-instructors get a clear answer."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from retrieval.bank import load_bank
from storage import Store
from testkit.botharness import bot_running, world
from tests.test_bot_stats import play


async def test_export_sends_a_workbook_that_reimports_as_the_questions_delivered(tmp_path: Path):
    today = datetime.now(ZoneInfo("Asia/Shanghai")).date().isoformat()
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings):
            await play(client, teacher, "第七章", [True, False, True])
            await client.send_text(teacher, "/export")
            prompt = await client.wait_for_text(teacher, "日期范围")
            await client.reply(teacher, prompt, f"{today} {today}")
            sent = await client.wait_for_message(teacher, lambda m: m.document is not None, timeout=30)
            content = await client.download(sent.document["file_id"])
        store = await Store.open(settings.storage.database)
        try:
            session = await store.sessions.get(1)
            delivered = [d.version_id for d in await store.deliveries.for_session(session.id)]
            versions = await store.questions.versions(delivered)
        finally:
            await store.close()
    assert prompt.force_reply and "Asia/Shanghai" in prompt.text
    assert sent.document["file_name"] == f"examforge-{today}-{today}.xlsx"
    assert "3 道题" in sent.caption
    path = tmp_path / "export.xlsx"
    path.write_bytes(content)
    bank = load_bank(path)
    assert bank.problems == []
    reimported = {(m.qtype, m.stem, m.options, m.answer, m.explanation) for m in bank.questions}
    assert reimported == {
        (q.qtype, q.stem, tuple(q.options), q.answer_text, q.explanation)
        for q in (v.question for v in versions.values())
    }
    assert len(reimported) == 3


async def test_export_explains_bad_and_empty_ranges_and_refuses_learners(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        teacher, learner = await client.create_user("Teacher"), await client.create_user("Lena")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings):
            await play(client, teacher, "第七章", [True])
            replies = []
            for typed in ("/export 2026-13-01", "/export 2026-03-31 2026-03-01", "/export 2020-01-01"):
                await client.send_text(teacher, typed)
                replies.append((await client.next_message(teacher)).text)
            await client.send_text(learner, "/export 2020-01-01")
            refusal = await client.next_message(learner)
            group = await client.create_group("备考群", [learner], admins=[teacher])
            await client.send_text(teacher, "/export", group)
            in_group = await client.next_message(group)
            # A range typed after a refused one is ordinary text again, not an export.
            await client.send_text(teacher, "2020-01-01")
            stray = await client.next_message(teacher)
            transcript = await client.transcript(teacher)
    unreadable, backwards, empty = replies
    assert "看不懂日期范围“2026-13-01”" in unreadable and "/export" in unreadable
    assert "结束日期 2026-03-01 早于开始日期 2026-03-31" in backwards
    assert "2020-01-01 至 2020-01-01" in empty and "没有可导出的内容" in empty
    assert "只有教师" in refusal.text
    assert "私聊" in in_group.text
    assert stray.document is None and "/quiz" in stray.text
    assert [m for m in transcript if m.document] == []
