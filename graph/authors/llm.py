"""The model-backed author: any OpenAI-compatible endpoint through langchain-openai's ChatOpenAI.

HTTP failures (timeouts, 429, 5xx) are retried by the OpenAI client with exponential backoff up to
`max_retries`; replies that do not parse into the schema are re-asked up to `parse_retries` times. Whatever
still fails becomes an AuthorError, which the graph turns into a fatal report — never a crash.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import openai
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, SecretStr, ValidationError

import calc
from calc.labels import final_figure, result_label
from graph import prompts
from graph.authors.base import Authored, AuthorError, CalcChoice, Choice, Review, Task
from graph.authors.difficulty import rated
from graph.schemas import Draft, Issue, ReviewVerdict, VerificationReport
from retrieval.models import MotherQuestion, Slice
from settings.errors import StartupError
from settings.model import LLMSettings
from vocabulary.records import Calculation, Question

Schema = TypeVar("Schema", bound=BaseModel)
_TYPE_NAMES = {"single": "单项选择题", "multi": "多项选择题", "judge": "判断题"}
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_MODEL_ERRORS = (openai.OpenAIError, httpx.HTTPError, asyncio.TimeoutError)


class MissingApiKey(StartupError):
    """The configured key variable is unset; raised at start-up, naming the variable (never a value)."""


def material(slice_: Slice) -> str:
    parts = [slice_.text, *slice_.tables, *slice_.formulas, *slice_.examples, *slice_.rules]
    parts += [f"{p.name}：{p.value}{p.unit}" for p in slice_.key_params]
    return "\n".join(part for part in parts if part)


def facts_text(task: Task, limit: int = 12) -> tuple[str, str]:
    """The slice's compiled facts (kind and source sentence) and the shapes those kinds are asked in."""
    facts = task.facts.of_slice(task.slice.id)[:limit]
    if not facts:
        return "（无）", ""
    listed = "\n".join(f"- [{f.kind}] {f.source}" for f in facts)
    kinds = dict.fromkeys(f.kind for f in facts)
    shape = "\n".join(prompts.FACT_SHAPES[kind] for kind in kinds if kind in prompts.FACT_SHAPES)
    return listed, shape


def _example_text(examples: list[MotherQuestion]) -> str:
    if not examples:
        return "（无）"
    blocks = []
    for q in examples:
        options = "\n".join(f"{chr(65 + i)}. {o}" for i, o in enumerate(q.options))
        blocks.append(f"{q.stem}\n{options}\n答案：{q.answer}")
    return "\n\n".join(blocks)


def _issues_text(issues: list[Issue]) -> str:
    return "\n".join(f"- [{i.type}/{i.severity}] {i.detail}" for i in issues) or "（无）"


def _usage(message: BaseMessage | None) -> dict[str, int]:
    meta = getattr(message, "usage_metadata", None) or {}
    return {
        "model_calls": 1,
        "input_tokens": int(meta.get("input_tokens", 0)),
        "output_tokens": int(meta.get("output_tokens", 0)),
    }


def _add(total: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    return {key: total.get(key, 0) + more.get(key, 0) for key in {*total, *more}}


def parse_text_reply(message: AIMessage, schema: type[Schema]) -> Schema:
    """The JSON object in the message text, with or without a ```json fence and with any prose around it.

    Strict where langchain's JSON output parser is lenient: that parser completes a cut-off object (a model
    that hit its output limit mid-explanation), which would deliver the shortened question instead of asking
    again; here such a reply fails and is re-asked."""
    text = str(message.text)  # joins text blocks too (the content shape of Responses-API models)
    fenced = _FENCE.match(text)
    body = fenced.group(1) if fenced else text.strip()
    start = body.find("{")
    if start < 0:
        raise ValueError("回复中没有 JSON 对象")
    value, _ = json.JSONDecoder().raw_decode(body[start:])  # a remark after the object is ignored
    return schema.model_validate(value)


def _tool_reply(reply: dict[str, Any], schema: type[Schema]) -> Schema:
    """What `with_structured_output(..., include_raw=True)` made of a function-calling reply; a reply without
    a usable call of the schema's tool is a parse failure, named for the retry prompt."""
    if reply["parsing_error"] is not None:
        raise ValueError(str(reply["parsing_error"]))
    if reply["parsed"] is None:
        if reply["raw"].invalid_tool_calls:
            raise ValueError(f"{schema.__name__} 工具的参数不是完整的 JSON 对象")
        raise ValueError(f"回复中没有 JSON 对象：请调用 {schema.__name__} 工具作答")
    return reply["parsed"]


@dataclass(frozen=True)
class _Binding:
    runnable: Runnable[Any, Any]
    system: str
    tool: bool  # replies are with_structured_output's {raw, parsed, parsing_error}, not bare messages


class LLMAuthor:
    name = "openai"

    def __init__(self, settings: LLMSettings, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        key = env.get(settings.api_key_env, "")
        if not key:
            raise MissingApiKey(
                f"[llm] provider is openai but ${settings.api_key_env} is not set; "
                'export it, or set [llm] provider = "offline"'
            )
        self.settings = settings
        self.chat = ChatOpenAI(
            model=settings.model,
            base_url=settings.base_url,
            api_key=SecretStr(key),
            temperature=settings.temperature,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
        )
        self._slots = asyncio.Semaphore(settings.max_concurrency)
        self._bindings: dict[str, _Binding] = {}

    async def _call(self, runnable: Runnable[Any, Any], messages: list[BaseMessage]) -> Any:
        try:
            async with self._slots:
                return await runnable.ainvoke(messages)
        except _MODEL_ERRORS as exc:
            status = getattr(exc, "status_code", None)
            detail = f"{type(exc).__name__}, HTTP {status}" if status else type(exc).__name__
            raise AuthorError(f"模型调用失败（{detail}）", unavailable=True) from exc

    def _binding(self, schema: type[BaseModel]) -> _Binding:
        """The model bound for one schema's structured output, and its system prompt; built once per schema
        (turning a schema into a tool definition is not free, and it never changes).

        Function calling goes through `with_structured_output(include_raw=True)`: the tool is forced and its
        arguments validated by langchain, and the raw reply stays at hand for its usage. json_mode and
        json_schema keep their own binding and `parse_text_reply`, because `with_structured_output` cannot
        keep two guarantees for them: its JSON parser (json_mode, and json_schema given the schema as a dict)
        completes a cut-off reply instead of failing it, and json_schema given the model class has the OpenAI
        client's `parse()` validate the reply inside the call, so a reply that does not fit raises there,
        before any parse retry and without the raw message whose tokens were spent.
        """
        if schema.__name__ in self._bindings:
            return self._bindings[schema.__name__]
        method = self.settings.structured_output
        system = prompts.SYSTEM
        runnable: Runnable[Any, Any]
        if method == "function_calling":
            runnable = self.chat.with_structured_output(schema, method=method, include_raw=True)
        elif method == "json_mode":
            schema_text = json.dumps(schema.model_json_schema(), ensure_ascii=False)
            system += prompts.JSON_SCHEMA_HINT.format(schema=schema_text)
            runnable = self.chat.bind(response_format={"type": "json_object"})
        else:
            runnable = self.chat.bind(
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()},
                }
            )
        binding = self._bindings[schema.__name__] = _Binding(runnable, system, method == "function_calling")
        return binding

    async def _structured(self, schema: type[Schema], prompt: str) -> tuple[Schema, dict[str, int]]:
        binding = self._binding(schema)
        messages: list[BaseMessage] = [SystemMessage(binding.system), HumanMessage(prompt)]
        usage: dict[str, int] = {}
        error = ""
        for _ in range(self.settings.parse_retries + 1):
            reply = await self._call(binding.runnable, messages)
            usage = _add(usage, _usage(reply["raw"] if binding.tool else reply))
            try:
                parsed = _tool_reply(reply, schema) if binding.tool else parse_text_reply(reply, schema)
                return parsed, usage
            except (ValueError, ValidationError) as exc:
                error = str(exc).splitlines()[0][:200]
                messages = [*messages[:2], HumanMessage(prompts.PARSE_RETRY.format(error=error))]
        raise AuthorError(f"模型连续{self.settings.parse_retries + 1}次返回无法解析的内容：{error}")

    def _draft_prompt(self, task: Task) -> str:
        previous = ""
        if task.report and task.report.issues:
            previous = prompts.PREVIOUS_REPORT.format(issues=_issues_text(task.report.issues))
        facts, shape = facts_text(task)
        return prompts.DRAFT.format(
            type_name=_TYPE_NAMES[task.qtype],
            facts=facts,
            shape=shape,
            type_rule=prompts.TYPE_RULES[task.qtype],
            mode_rule=prompts.MODE_RULES[task.mode] + prompts.DIFFICULTY_RULES[task.difficulty],
            path=task.slice.path_text,
            material=material(task.slice),
            examples=_example_text(task.examples),
            previous=previous,
        )

    async def draft(self, task: Task) -> Authored:
        draft, usage = await self._structured(Draft, self._draft_prompt(task))
        draft = rated(draft, task.qtype, task.mode, task.facts, [task.slice.id])  # not the model's own guess
        return Authored(draft=draft, qtype=task.qtype, usage=usage)

    async def choose_calculation(self, task: Task, candidates: list[str]) -> Choice:
        names = candidates or list(calc.REGISTRY)
        tools = [calc.REGISTRY[name].tool_schema() for name in names]
        prompt = prompts.CHOOSE_CALCULATOR.format(
            mode_rule=prompts.MODE_RULES[task.mode], path=task.slice.path_text, material=material(task.slice)
        )
        reply = await self._call(
            self.chat.bind_tools(tools), [SystemMessage(prompts.SYSTEM), HumanMessage(prompt)]
        )
        usage = _usage(reply)
        for call in reply.tool_calls or []:
            if call["name"] in calc.REGISTRY:
                return Choice(
                    choice=CalcChoice(calculator=call["name"], args=dict(call["args"])), usage=usage
                )
        return Choice(choice=None, usage=usage)

    async def draft_calculation(self, task: Task, choice: CalcChoice, result: dict[str, Any]) -> Authored:
        try:
            field = final_figure(choice.calculator, result)
        except ValueError as exc:
            raise AuthorError(str(exc)) from exc
        label, unit = result_label(choice.calculator, field)
        qtype = task.qtype if task.qtype in ("single", "judge") else "single"
        prompt = prompts.DRAFT_CALCULATION.format(
            type_name=_TYPE_NAMES[qtype],
            type_rule=prompts.TYPE_RULES[qtype],
            mode_rule=prompts.MODE_RULES[task.mode],
            path=task.slice.path_text,
            material=material(task.slice),
            calculator=choice.calculator,
            args=json.dumps(choice.args, ensure_ascii=False),
            result=json.dumps(result, ensure_ascii=False),
            field=field,
            label=label,
            unit=unit or "无",
            value=result[field],
        )
        draft, usage = await self._structured(Draft, prompt)
        calculation = Calculation(
            calculator=choice.calculator, args=choice.args, field=field, value=result[field]
        )
        draft = rated(draft, qtype, task.mode, task.facts, [task.slice.id], calculation=calculation)
        return Authored(draft=draft, qtype=qtype, calculation=calculation, usage=usage)

    async def fix(self, task: Task, question: Question, report: VerificationReport) -> Authored | None:
        shown = json.dumps(
            {
                "stem": question.stem,
                "options": question.options,
                "answer": question.answer_text,
                "explanation": question.explanation,
                "sources": question.sources,
            },
            ensure_ascii=False,
            indent=1,
        )
        prompt = prompts.FIX.format(
            question=shown,
            issues=_issues_text(report.issues),
            suggestions="\n".join(report.suggestions) or "（无）",
            path=task.slice.path_text,
            material=material(task.slice),
        )
        draft, usage = await self._structured(Draft, prompt)
        return Authored(draft=draft, qtype=question.qtype, calculation=question.calculation, usage=usage)

    async def review(self, task: Task, question: Question) -> Review | None:
        prompt = prompts.REVIEW.format(
            type_name=_TYPE_NAMES[question.qtype],
            stem=question.stem,
            options="\n".join(f"{chr(65 + i)}. {o}" for i, o in enumerate(question.options)),
            explanation=question.explanation,
            path=task.slice.path_text,
            material=material(task.slice),
        )
        verdict, usage = await self._structured(ReviewVerdict, prompt)
        issues = [issue.model_copy(update={"source": "model"}) for issue in verdict.issues]
        return Review(answer=verdict.answer, issues=issues, suggestions=verdict.suggestions, usage=usage)
