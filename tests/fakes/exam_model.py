"""A scripted stand-in for a competent model: a responder for FakeOpenAI that answers every step of the
generation loop the way a good model would, reading only what the real prompt gives it.

It drafts well-formed questions, picks calculators it has arguments for, writes calculation questions
around the value the prompt states, solves reviews by the conclusion the explanation states (so it agrees
with a correct key) and revises by rewording the stem. `disagree` and `miscalculate` make chosen reviews
and calculation drafts wrong, counted per step from 1, so tests and benchmarks can script faults.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.openai_server import ChatRequest, Reply

_TYPES = {"单项选择题": "single", "多项选择题": "multi", "判断题": "judge"}
_TYPE_IN_PROMPT = re.compile(r"编写一道(单项选择题|多项选择题|判断题)")
_PATH = re.compile(r"教材知识点（(.+?)）：")
_VALUE = re.compile(r"正确数值：(-?[\d.]+(?:e[-+]?\d+)?)")
_UNIT = re.compile(r"（单位：([^）]*)）")
_LABEL = re.compile(r"结果字段：\w+（([^）]*)）")
_ARGS = re.compile(r"参数：(\{.*\})")
_CONCLUSION = re.compile(r"本题选([A-L]+)")
_QUESTION_BLOCK = re.compile(r"题目：\n««\n(.*?)\n»»", re.DOTALL)
_ORDINAL = re.compile(r"^[一二三四五六七八九十]+、")
_REVISION_MARK = "依据教材规定，"
_DISTRACTOR_FACTORS = (1.5, 2.0, 4.0)
_WRONG_FACTOR = 3.0


def _never(_: int) -> bool:
    return False


def _found(pattern: re.Pattern[str], text: str, what: str) -> str:
    match = pattern.search(text)
    if match is None:
        raise AssertionError(f"the prompt does not state the {what}:\n{text}")
    return match.group(1)


def _explanation(basis: str, analysis: str, letters: str) -> str:
    return f"教材依据：{basis}\n试题分析：{analysis}\n结论：本题选{letters}。"


def _plain_number(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def stated(value: float, unit: str) -> str:
    """A value the way an exam option states it: fractions of the 比例 unit as percentages."""
    if unit == "比例":
        return f"{_plain_number(round(value * 100, 6))}%"
    return _plain_number(round(value, 2)) + ("" if unit in ("", "无") else unit)


def concept_draft(qtype: str, path: str) -> dict[str, Any]:
    topic = _ORDINAL.sub("", path.split(" > ")[-1])
    basis = f"《{path}》的规定。"
    if qtype == "judge":
        return {
            "stem": f"经纪人员向客户讲解“{topic}”时，应当以教材规定为准（　）",
            "options": ["正确", "错误"],
            "answer": "A",
            "explanation": _explanation(basis, "讲解政策须以教材和现行规定为准，题干表述成立。", "A"),
            "difficulty": 0.3,
        }
    if qtype == "multi":
        options = [
            f"讲解“{topic}”应以现行规定为依据",
            "向客户说明时应区分不同情形",
            "可以凭个人经验随意解释规定",
            "发现政策调整后应及时更新讲解内容",
            "规定只约束买方，与经纪人员无关",
        ]
        return {
            "stem": f"关于“{topic}”，经纪人员的下列做法中正确的有（　）。",
            "options": options,
            "answer": "ABD",
            "explanation": _explanation(basis, "A、B、D符合规定；C随意解释、E认为与己无关均不妥。", "ABD"),
            "difficulty": 0.6,
        }
    return {
        "stem": f"关于“{topic}”，下列说法中正确的是（　）。",
        "options": [
            "该事项完全由卖方自行决定",
            "交易双方可以口头约定排除适用",
            f"应当按照教材中“{topic}”的规定处理",
            "经纪人员无须向客户说明该规定",
        ],
        "answer": "C",
        "explanation": _explanation(basis, "C与教材一致；A、B、D均与规定不符。", "C"),
        "difficulty": 0.5,
    }


def calculation_draft(prompt: str, wrong: bool) -> dict[str, Any]:
    """A question around the value the prompt gives; `wrong` states three times that value instead."""
    qtype = _TYPES[_found(_TYPE_IN_PROMPT, prompt, "question type")]
    value = float(_found(_VALUE, prompt, "correct value"))
    unit = _found(_UNIT, prompt, "unit")
    label = _found(_LABEL, prompt, "result label")
    conditions = "、".join(f"{k}={v}" for k, v in json.loads(_found(_ARGS, prompt, "arguments")).items())
    shown = value * _WRONG_FACTOR if wrong else value
    basis = "教材中的计算公式。"
    if qtype == "judge":
        return {
            "stem": f"已知{conditions}，按现行规定计算，{label}为{stated(shown, unit)}（　）",
            "options": ["正确", "错误"],
            "answer": "A",
            "explanation": _explanation(basis, f"按公式计算，{label}为{stated(shown, unit)}。", "A"),
            "difficulty": 0.5,
        }
    distractors = [stated(value * f if value else f, unit) for f in _DISTRACTOR_FACTORS]
    options = [distractors[0], distractors[1], stated(shown, unit), distractors[2]]
    return {
        "stem": f"已知{conditions}，按现行规定计算的{label}为（　）。",
        "options": options,
        "answer": "C",
        "explanation": _explanation(basis, f"按公式计算，{label}为{stated(shown, unit)}。", "C"),
        "difficulty": 0.6,
    }


def revised_draft(prompt: str) -> dict[str, Any]:
    """The question shown to the fixer, with its stem reworded so the revision is a visible change."""
    question = json.loads(_found(_QUESTION_BLOCK, prompt, "question"))
    stem = question["stem"]
    return {
        "stem": stem if stem.startswith(_REVISION_MARK) else _REVISION_MARK + stem,
        "options": question["options"],
        "answer": question["answer"],
        "explanation": question["explanation"],
        "difficulty": 0.5,
    }


def blind_answer(prompt: str, disagree: bool) -> str:
    """The conclusion the shown explanation states, or a different answer when told to disagree."""
    match = _CONCLUSION.search(prompt)
    letters = match.group(1) if match else "A"
    if not disagree:
        return letters
    return "B" if letters == "A" else "A"


@dataclass
class ExamModel:
    """`calculators`: the calculators this model knows how to call, with the arguments it passes."""

    calculators: dict[str, dict[str, Any]] = field(default_factory=dict)
    disagree: Callable[[int], bool] = _never
    miscalculate: Callable[[int], bool] = _never
    fenced: bool = False
    counts: Counter[str] = field(default_factory=Counter)

    def _structured(self, obj: Any) -> Reply:
        return Reply.fenced(obj) if self.fenced else Reply.answer(obj)

    def __call__(self, request: ChatRequest) -> Reply:
        step = request.step
        self.counts[step] += 1
        number = self.counts[step]
        prompt = request.prompt
        if step == "draft":
            qtype = _TYPES[_found(_TYPE_IN_PROMPT, prompt, "question type")]
            return self._structured(concept_draft(qtype, _found(_PATH, prompt, "knowledge point path")))
        if step == "choose":
            known = [name for name in request.tool_names if name in self.calculators]
            if not known:
                return Reply.content("无需计算")
            return Reply.tool_call(known[0], self.calculators[known[0]])
        if step == "draft_calculation":
            return self._structured(calculation_draft(prompt, self.miscalculate(number)))
        if step == "review":
            answer = blind_answer(prompt, self.disagree(number))
            return self._structured({"answer": answer, "issues": [], "suggestions": []})
        if step == "fix":
            return self._structured(revised_draft(prompt))
        return Reply.error(400, f"exam model: cannot tell which step this prompt is: {prompt[:80]}")
