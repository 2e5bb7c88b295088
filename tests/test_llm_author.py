"""The model-backed author on its own: reply parsing, and what it sends to and takes from an
OpenAI-compatible endpoint (the fake server on 127.0.0.1, through the real ChatOpenAI client)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from pydantic import ValidationError

import calc
from graph.authors.base import AuthorError, CalcChoice, Task
from graph.authors.llm import LLMAuthor, MissingApiKey, parse_text_reply
from graph.schemas import Draft, Issue, ReviewVerdict, VerificationReport
from retrieval.models import Slice
from settings.model import LLMSettings
from testkit.fakes.openai_server import BROKEN_JSON, FakeOpenAI, Reply
from vocabulary.records import Question

KEY = "sk-author-test-5d1e9a"
DRAFT = {
    "stem": "存量房买卖中，契税由（　）缴纳。",
    "options": ["卖方", "买方", "经纪机构", "登记机构"],
    "answer": "B",
    "explanation": "教材依据：契税由承受权属的一方缴纳。\n试题分析：买方承受房屋权属。\n结论：本题选B。",
    "difficulty": 0.25,  # what graph.authors.difficulty measures for a plain single choice
}
SLICE = Slice(
    id="k-deed",
    path=("第一篇 交易税费", "第一章 买方税费", "第一节 契税", "契税的纳税人"),
    mastery="熟悉",
    text="存量房买卖中由买方缴纳契税。",
    rules=("契税由承受权属的买方缴纳。",),
)
TASK = Task(slice=SLICE, qtype="single", mode="strict", seed=0)


def ai(content: Any) -> AIMessage:
    return AIMessage(content=content)


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(DRAFT, ensure_ascii=False),
        f"```json\n{json.dumps(DRAFT, ensure_ascii=False, indent=2)}\n```",
        f"```\n{json.dumps(DRAFT, ensure_ascii=False)}\n```",
        f"好的，题目如下：\n{json.dumps(DRAFT, ensure_ascii=False)}\n请审阅。",
    ],
    ids=["plain", "json-fence", "bare-fence", "prose-around"],
)
def test_parse_text_reply_finds_the_json_object_in_message_text(text: str) -> None:
    assert parse_text_reply(ai(text), Draft) == Draft(**DRAFT)


def test_parse_text_reply_says_when_there_is_no_json_at_all() -> None:
    with pytest.raises(ValueError, match="没有 JSON 对象"):
        parse_text_reply(ai("抱歉，我无法完成这个任务。"), Draft)


def test_parse_text_reply_rejects_cut_off_json_and_objects_of_the_wrong_shape() -> None:
    with pytest.raises(json.JSONDecodeError):
        parse_text_reply(ai(BROKEN_JSON + "}"), Draft)
    with pytest.raises(ValidationError, match="answer"):
        parse_text_reply(ai(json.dumps({"stem": "题干（　）", "options": ["正确", "错误"]})), Draft)


def test_parse_text_reply_reads_json_inside_text_content_blocks() -> None:
    blocks = [{"type": "text", "text": json.dumps({"answer": "B"})}]
    assert parse_text_reply(ai(blocks), ReviewVerdict).answer == "B"


def test_parse_text_reply_ignores_a_remark_after_the_object() -> None:
    text = json.dumps({"answer": "B"}) + "\n（注：{B} 为独立作答结果）"
    assert parse_text_reply(ai(text), ReviewVerdict).answer == "B"


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as fake:
        yield fake


def author_for(server: FakeOpenAI, **overrides: Any) -> LLMAuthor:
    settings = LLMSettings(
        provider="openai",
        base_url=server.base_url,
        model="fake-exam-writer",
        api_key_env="EXAMFORGE_AUTHOR_KEY",
        timeout=1.0,
        max_retries=0,
        **overrides,
    )
    return LLMAuthor(settings, environ={"EXAMFORGE_AUTHOR_KEY": KEY})


async def test_function_calling_forces_the_schema_tool(server: FakeOpenAI) -> None:
    server.script(Reply.answer(DRAFT))
    authored = await author_for(server).draft(TASK)
    request = server.requests()[0]
    assert request.forced_tool == "Draft" and request.tool_names == ["Draft"]
    assert request.response_format is None
    assert authored.draft == Draft(**DRAFT) and authored.qtype == "single"


async def test_the_models_own_difficulty_is_replaced_by_the_measured_estimate(server: FakeOpenAI) -> None:
    """A model rates its questions as it likes; the band a learner is served by is measured on the draft."""
    server.script(Reply.answer(DRAFT | {"difficulty": 0.9}))
    authored = await author_for(server).draft(TASK)
    assert authored.draft.difficulty == 0.25


async def test_the_draft_prompt_names_the_learners_band_only_when_one_was_chosen(server: FakeOpenAI) -> None:
    server.script(Reply.answer(DRAFT), Reply.answer(DRAFT))
    await author_for(server).draft(replace(TASK, difficulty="hard"))
    await author_for(server).draft(TASK)
    aimed, anyhow = (request.texts("user")[0] for request in server.requests())
    assert "难度：难（difficulty 高于 0.6）" in aimed
    assert "难度：" not in anyhow


async def test_function_calling_asks_again_for_the_tool_when_the_reply_is_text(server: FakeOpenAI) -> None:
    server.script(Reply.fenced(DRAFT), Reply.answer(DRAFT))
    authored = await author_for(server).draft(TASK)
    retry = server.requests()[1]
    assert retry.is_parse_retry and "请调用 Draft 工具作答" in retry.texts("user")[-1]
    assert retry.forced_tool == "Draft" and authored.draft == Draft(**DRAFT)


async def test_function_calling_asks_again_when_the_tool_arguments_are_cut_off(server: FakeOpenAI) -> None:
    server.script(Reply.broken(), Reply.answer(DRAFT))
    authored = await author_for(server).draft(TASK)
    retry = server.requests()[1]
    assert "Draft 工具的参数不是完整的 JSON 对象" in retry.texts("user")[-1]
    assert authored.draft == Draft(**DRAFT) and authored.usage["model_calls"] == 2


async def test_json_mode_asks_for_a_json_object_and_shows_the_schema(server: FakeOpenAI) -> None:
    server.script(Reply.fenced(DRAFT))
    authored = await author_for(server, structured_output="json_mode").draft(TASK)
    request = server.requests()[0]
    assert request.response_format == {"type": "json_object"} and request.tool_names == []
    schema = json.loads(request.system.split("JSON Schema：\n", 1)[1])
    assert set(schema["required"]) == {"stem", "options", "answer", "explanation"}
    assert authored.draft == Draft(**DRAFT)


async def test_json_schema_mode_sends_the_schema_as_the_response_format(server: FakeOpenAI) -> None:
    server.script(Reply.answer(DRAFT))
    authored = await author_for(server, structured_output="json_schema").draft(TASK)
    response_format = server.requests()[0].response_format
    assert response_format is not None and response_format["type"] == "json_schema"
    assert response_format["json_schema"]["name"] == "Draft"
    assert "stem" in response_format["json_schema"]["schema"]["properties"]
    assert authored.draft == Draft(**DRAFT)


async def test_a_parse_retry_names_the_problem_and_usage_counts_both_calls(server: FakeOpenAI) -> None:
    server.script(Reply.content("题目还在构思中。"), Reply.answer(DRAFT))
    authored = await author_for(server).draft(TASK)
    first, retry = server.requests()
    assert retry.is_parse_retry and "没有 JSON 对象" in retry.texts("user")[-1]
    assert retry.messages[:2] == first.messages
    served = server.served_usage()
    assert authored.usage == {
        "model_calls": 2,
        "input_tokens": served["prompt_tokens"],
        "output_tokens": served["completion_tokens"],
    }


async def test_parse_retries_are_bounded_and_end_in_an_author_error(server: FakeOpenAI) -> None:
    server.script(*[Reply.broken()] * 3)
    with pytest.raises(AuthorError, match="连续3次返回无法解析的内容"):
        await author_for(server, parse_retries=2).draft(TASK)
    assert len(server.exchanges) == 3


async def test_calculator_choice_offers_the_candidates_and_takes_the_call(server: FakeOpenAI) -> None:
    args = {"price": 3_000_000, "area": 150, "home_order": 1, "date": "2026-03-01"}
    server.script(Reply.tool_call("deed_tax", args))
    chosen = await author_for(server).choose_calculation(TASK, ["deed_tax", "stamp_duty"])
    assert server.requests()[0].tool_names == ["deed_tax", "stamp_duty"]
    assert server.requests()[0].forced_tool is None
    assert chosen.choice == CalcChoice("deed_tax", args) and chosen.usage["model_calls"] == 1


async def test_calculator_choice_without_candidates_offers_every_calculator(server: FakeOpenAI) -> None:
    server.script(Reply.content("无需计算"))
    chosen = await author_for(server).choose_calculation(TASK, [])
    assert server.requests()[0].tool_names == list(calc.REGISTRY)
    assert chosen.choice is None


async def test_a_call_to_a_tool_that_does_not_exist_is_no_choice(server: FakeOpenAI) -> None:
    server.script(Reply.tool_call("wire_money", {"amount": 1}))
    assert (await author_for(server).choose_calculation(TASK, ["deed_tax"])).choice is None


async def test_calculation_draft_is_tied_to_the_final_figure(server: FakeOpenAI) -> None:
    args = {"price": 2_000_000, "area": 89, "home_order": 1, "date": "2026-03-01"}
    result = calc.run("deed_tax", args)
    server.script(Reply.answer(DRAFT))
    multi = Task(slice=SLICE, qtype="multi", mode="strict", seed=0)
    authored = await author_for(server).draft_calculation(multi, CalcChoice("deed_tax", args), result)
    assert authored.qtype == "single"  # a computed value has one right option
    assert authored.calculation is not None
    assert (authored.calculation.field, authored.calculation.value) == ("tax", result["tax"])
    assert f"正确数值：{result['tax']}" in server.requests()[0].prompt


async def test_a_calculator_result_without_numbers_is_an_author_error(server: FakeOpenAI) -> None:
    with pytest.raises(AuthorError, match="deed_tax"):
        await author_for(server).draft_calculation(TASK, CalcChoice("deed_tax", {}), {"method": "exempt"})
    assert server.exchanges == []


async def test_review_issues_are_always_attributed_to_the_model(server: FakeOpenAI) -> None:
    claimed = {"type": "factual_error", "severity": "minor", "detail": "解析措辞不准", "source": "human"}
    server.script(Reply.answer({"answer": "B", "issues": [claimed], "suggestions": ["改写解析"]}))
    question = Question(
        qtype="single", stem=DRAFT["stem"], options=DRAFT["options"], answer=["B"], explanation=""
    )
    review = await author_for(server).review(TASK, question)
    assert review is not None and review.answer == "B" and review.suggestions == ["改写解析"]
    assert [issue.source for issue in review.issues] == ["model"]


async def test_fix_prompt_quotes_question_and_issues_as_data(server: FakeOpenAI) -> None:
    server.script(Reply.answer(DRAFT))
    question = Question(
        qtype="single", stem=DRAFT["stem"], options=DRAFT["options"], answer=["B"], explanation="解析"
    )
    report = VerificationReport.from_issues(
        [Issue(type="ambiguity", severity="minor", detail="选项A措辞含糊")]
    )
    await author_for(server).fix(TASK, question, report)
    request = server.requests()[0]
    assert request.quoted("选项A措辞含糊") and request.quoted(f'"stem": "{DRAFT["stem"]}"')


async def test_no_more_requests_in_flight_than_max_concurrency(server: FakeOpenAI) -> None:
    server.latency = 0.05
    server.script(*[Reply.answer(DRAFT)] * 5)
    author = author_for(server, max_concurrency=2)
    await asyncio.gather(*(author.draft(TASK) for _ in range(5)))
    assert len(server.exchanges) == 5 and server.peak_in_flight == 2


async def test_http_failures_become_author_errors_without_the_key(server: FakeOpenAI) -> None:
    server.script(Reply.error(401, f"key {KEY} is not valid"))
    author = author_for(server)
    with pytest.raises(AuthorError) as caught:
        await author.draft(TASK)
    assert caught.value.args[0].startswith("模型调用失败")
    assert KEY not in str(caught.value) and KEY not in repr(author.chat)
    assert server.requests()[0].headers["Authorization"] == f"Bearer {KEY}"


def test_a_missing_key_names_the_variable() -> None:
    settings = LLMSettings(provider="openai", api_key_env="EXAMFORGE_ABSENT_KEY")
    with pytest.raises(MissingApiKey, match="EXAMFORGE_ABSENT_KEY"):
        LLMAuthor(settings, environ={})
