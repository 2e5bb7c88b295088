"""A question as a Telegram quiz: limits respected, and a stem too long for a poll is never truncated."""

from __future__ import annotations

from telegram import Bot

from emulator import EmulatorClient, EmulatorServer
from graph.format import compose_explanation, short_explanation
from handlers.polls import send_quiz
from vocabulary.records import Question


def question(stem: str) -> Question:
    explanation = compose_explanation("教材依据。", "分析。", "本题选B。")
    return Question(
        qtype="multi",
        stem=stem,
        options=["甲", "乙", "丙", "丁"],
        answer=["B", "D"],
        explanation=explanation,
        short_explanation=short_explanation(explanation),
    )


async def test_a_long_stem_goes_first_as_a_message_and_the_poll_refers_to_it():
    long_stem = "某客户咨询：" + "这套房子的情况比较复杂，" * 30 + "应如何处理（　）。"
    async with EmulatorServer() as emulator, EmulatorClient(emulator.root_url) as client:
        ming = await client.create_user("Ming")
        await client.send_text(ming, "/start")
        async with Bot(emulator.token, base_url=emulator.base_url) as bot:
            sent = await send_quiz(bot, ming.id, question(long_stem), "zh", version_id=7)
        intro = await client.wait_for_message(ming, lambda m: m.poll is None)
        quiz = await client.wait_for_poll(ming)
    assert len(long_stem) > 300
    assert long_stem in intro.text and "A. 甲" in intro.text, "the whole stem and the options, untruncated"
    assert quiz.poll.question == "请根据上文作答"
    assert quiz.reply_to_message_id == intro.message_id
    assert quiz.poll.correct_option_ids == (1, 3) and quiz.poll.allows_multiple_answers
    assert (sent.poll_id, sent.message_id) == (quiz.poll.id, quiz.message_id)
    assert [b.text for b in quiz.buttons] == ["👍", "👎"]
