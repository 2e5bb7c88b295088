"""A scripted stand-in for a model: a responder for FakeOpenAI that answers every step of the generation loop
reading only what the real prompt gives it.

Honest, it is the competent model the critic must let through. It drafts from the sentences the prompt lists
as the slice's facts (then from the rest of the material): a judge item states one of them (or falsifies it
and is keyed 错误); a choice item's correct options restate source sentences and its distractors are other
sentences of the slice turned false — a modal turned round, a figure swapped for a sibling figure of the same
material, a word for its opposite, a negation dropped or added; every draft quotes the sentences it rests on
in `sources`; a knowledge point too thin for the asked type gets an error reply. A calculation question
tells every input in words a reader sees (建筑面积89平方米, 家庭首套住房, 2026年3月1日) around the value the
prompt states. Reviews answer the conclusion the explanation states; revisions reword the stem.

`lie` makes it the author the critic must stop: "falsify" keys sentences it turned false as true, quoting
the original sentence and explaining the falsehood as if it were the rule; "invent" keys a rule of its own
and quotes it as textbook text. Either way its blind solve agrees with its own key. `disagree` and
`miscalculate` make chosen reviews and calculation drafts wrong, counted per step from 1.

The edits are the fake's own, not the offline author's falsifier: the critic is not tested against itself.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from testkit.fakes.openai_server import ChatRequest, Reply

_TYPES = {"单项选择题": "single", "多项选择题": "multi", "判断题": "judge"}
_TYPE_IN_PROMPT = re.compile(r"编写一道(单项选择题|多项选择题|判断题)")
_PATH = re.compile(r"教材知识点（(.+?)）：")
_MATERIAL = re.compile(r"教材知识点（.+?）：\n««\n(.*?)\n»»", re.DOTALL)
_FACTS = re.compile(r"可考知识[^\n]*\n««\n(.*?)\n»»", re.DOTALL)
_FACT_LINE = re.compile(r"^- \[(\w+)\] (.+)$", re.MULTILINE)
_VALUE = re.compile(r"正确数值：(-?[\d.]+(?:e[-+]?\d+)?)")
_UNIT = re.compile(r"（单位：([^）]*)）")
_LABEL = re.compile(r"结果字段：\w+（([^）]*)）")
_ARGS = re.compile(r"参数：(\{.*\})")
_CALCULATOR = re.compile(r"计算器：(\w+)")
_CONCLUSION = re.compile(r"本题选([A-L]+)")
_QUESTION_BLOCK = re.compile(r"题目：\n««\n(.*?)\n»»", re.DOTALL)
_ORDINAL = re.compile(r"^[一二三四五六七八九十]+、")
_REVISION_MARK = "依据教材规定，"
_DISTRACTOR_FACTORS = (1.5, 2.0, 4.0)
_WRONG_FACTOR = 3.0

# Sentences worth asking: a rule in words, short enough for an option (worked examples, formulas and table
# rows are asked as calculations and lookups, not restated).
_ASKED_KINDS = ("statement", "modal", "threshold", "definition", "enumeration")
_SHORTEST, _LONGEST = 10, 90
_CLAUSES = re.compile("[，；,;]")
# Sentences sharing more of their characters than this (and the same figures) say the same thing.
_OVERLAP = 0.6
# A modal and the one that says the opposite, as a writer turning a rule round picks it.
_TURNED = {
    "应当": "无需",
    "必须": "无需",
    "无需": "应当",
    "无须": "必须",
    "不得": "可以",
    "不能": "可以",
    "可以": "不得",
}
_MODAL = re.compile("|".join(_TURNED))
# A negation dropped turns a rule round too ("不取得所有权" → "取得所有权").
_NEGATED = re.compile(r"(?:并)?不(?=属于|需要|包括|包含|计入|影响|改变|取得|发生|适用|收取|承担|产生)")
# Acts a writer can deny by putting 不 before them.
_DENIABLE = re.compile(r"(?<![不未无非])(?:属于|包括|计入|适用|影响|改变|等于)")
_LOWER_BOUNDS = ("满", "超过", "不低于", "不少于", "高于", "多于")
_UPPER_BOUNDS = ("不超过", "不满", "未满", "不足", "低于", "少于")
# Words a writer swaps for their opposite.
_PAIRS = (
    ("买方", "卖方"),
    ("出卖人", "买受人"),
    ("以上", "以下"),
    ("之前", "之后"),
    ("增加", "减少"),
    ("提高", "降低"),
    ("较高", "较低"),
    ("最高", "最低"),
    ("全部", "一半"),
    ("有效", "无效"),
    ("有权", "无权"),
    ("大于", "小于"),
    ("高于", "低于"),
    ("多于", "少于"),
)
_OPPOSITE = {**dict(_PAIRS), **{b: a for a, b in _PAIRS}}
_OPPOSITE_WORD = re.compile("|".join(sorted(_OPPOSITE, key=len, reverse=True)))
_DATE = re.compile(r"\d{4}年(?:\d{1,2}月)?(?:\d{1,2}日)?|\d{1,2}月\d{1,2}日")
_FIGURE = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?)(%|个工作日|工作日|日|天|个月|年|万元|元|平方米|米|倍|层)")
# A sentence that leans on the one before it, or restates a worked example's sums, says little alone.
_LEANING = re.compile(
    r"^(?:因此|所以|但|但是|而|原因是|其中|这|该|此|上述|前|后|只|同时|另外|此外|例如|比如|如)|\d,\d{3}"
)

Lie = Literal["", "falsify", "invent"]
# Rules no textbook of this subject states, which an inventing model passes off as quotations.
_INVENTED = (
    "经纪机构可以凭业主的口头授权直接对外发布房源信息，无需签订书面委托。",
    "买卖双方签订合同后，经纪机构可以代为保管全部购房款且无需开设监管账户。",
    "经纪人员可以在同一宗交易中同时收取买卖双方各自全额的佣金。",
    "房屋交易完成后，经纪机构无需保存业务记录和交易资料。",
)


class CannotWrite(Exception):
    """The slice gives the honest model too little to write the asked type from: it answers with an error."""


def _never(_: int) -> bool:
    return False


def _found(pattern: re.Pattern[str], text: str, what: str) -> str:
    match = pattern.search(text)
    if match is None:
        raise AssertionError(f"the prompt does not state the {what}:\n{text}")
    return match.group(1)


def _explanation(basis: str, analysis: str, letters: str) -> str:
    return f"教材原文：{basis}\n试题分析：{analysis}\n结论：本题选{letters}。"


def _plain_number(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def stated(value: float, unit: str) -> str:
    """A value the way an exam option states it: fractions of the 比例 unit as percentages."""
    if unit == "比例":
        return f"{_plain_number(round(value * 100, 6))}%"
    return _plain_number(round(value, 2)) + ("" if unit in ("", "无") else unit)


# ---- concept questions from the slice's sentences ------------------------------------------------------


@dataclass(frozen=True)
class Said:
    """One statement an option or judge stem makes: `source` is the textbook sentence it comes from, `true`
    whether it says what the sentence says."""

    text: str
    source: str
    true: bool


def _chars(text: str) -> set[str]:
    return {ch for ch in text if "\u4e00" <= ch <= "\u9fff" or ch.isdigit()}


def sentences(prompt: str) -> list[str]:
    """The distinct source sentences the prompt lists as facts that can be asked in words, then the other
    sentences of the material; a sentence that mostly repeats one already kept (a rule restating the prose)
    is left out."""
    block = _FACTS.search(prompt)
    listed = _FACT_LINE.findall(block.group(1) if block else "")
    material = _MATERIAL.search(prompt)
    prose = re.findall(r"[^。\n]+。", material.group(1) if material else "")
    kept: list[str] = []
    for kind, whole in [*listed, *(("statement", sentence) for sentence in prose)]:
        # each rule of a sentence that joins several with "；" stands on its own
        for text in re.split(r"(?<=；)", whole.strip()):
            text = text.rstrip("；")
            if kind in _ASKED_KINDS and _SHORTEST <= len(text) <= _LONGEST:
                _keep(text, kept)
    # one rule to a sentence reads best as an option: sentences of many clauses come last
    return sorted(kept, key=lambda text: len(_CLAUSES.findall(text)) > 1)


def _keep(text: str, kept: list[str]) -> None:
    """Keeps a sentence unless it restates one kept already: mostly the same words and the same figures
    (sibling rules differ in their figures: 1% up to 140平方米, 1.5% above)."""
    if any(mark in text for mark in ("=", "【", "|", "\n")) or _LEANING.search(text):
        return
    own, figures = _chars(text), set(re.findall(r"\d+(?:\.\d+)?", text))
    for other in kept:
        theirs = _chars(other)
        same_words = len(own & theirs) / len(own | theirs) > _OVERLAP
        if same_words and figures == set(re.findall(r"\d+(?:\.\d+)?", other)):
            return
    kept.append(text)


def _figures(text: str) -> list[re.Match[str]]:
    masked = _DATE.sub(lambda m: "#" * len(m.group()), text)
    return list(_FIGURE.finditer(masked))


def _turned_modal(sentence: str, material: str, careful: bool) -> Said | None:
    modal = _MODAL.search(sentence)
    if modal is None:
        return None
    turned = sentence[: modal.start()] + _TURNED[modal.group()] + sentence[modal.end() :]
    return Said(turned, sentence, False)


def _other_figure(sentence: str, material: str, careful: bool) -> Said | None:
    """A figure swapped for a sibling of the material on the side that makes the rule false: a smaller one
    for a lower bound (满5年 → 满2年), a larger one for an upper bound (不超过3年 → 不超过5年)."""
    for figure in _figures(sentence):
        number, unit = float(figure.group(1)), figure.group(2)
        before, after = sentence[: figure.start()], sentence[figure.end() :]
        said = {float(m.group(1)) for m in _figures(sentence) if m.group(2) == unit}
        siblings = sorted({float(m.group(1)) for m in _figures(material) if m.group(2) == unit} - said)
        if before.endswith(_LOWER_BOUNDS) or after.startswith("以上"):
            siblings = [v for v in siblings if v < number][::-1]
        elif before.endswith(_UPPER_BOUNDS) or after.startswith(("以下", "以内", "内")):
            siblings = [v for v in siblings if v > number]
        if not siblings and careful:
            continue
        other = siblings[0] if siblings else number * 2
        text = before + _plain_number(other) + unit + after
        return Said(text, sentence, False)
    return None


def _opposite_word(sentence: str, material: str, careful: bool) -> Said | None:
    """A word swapped for its opposite, unless the sentence names both ("由买方缴纳，卖方不缴")."""
    for word in _OPPOSITE_WORD.finditer(sentence):
        opposite = _OPPOSITE[word.group()]
        if opposite not in sentence:
            return Said(sentence[: word.start()] + opposite + sentence[word.end() :], sentence, False)
    return None


def _dropped_negation(sentence: str, material: str, careful: bool) -> Said | None:
    negated = _NEGATED.search(sentence)
    if negated is None:
        return None
    text = sentence[: negated.start()] + sentence[negated.end() :]
    return Said(text, sentence, False)


def _added_negation(sentence: str, material: str, careful: bool) -> Said | None:
    verb = _DENIABLE.search(sentence)
    if verb is None:
        return None
    text = sentence[: verb.start()] + "不" + sentence[verb.start() :]
    return Said(text, sentence, False)


_EDITS = (_turned_modal, _other_figure, _opposite_word, _dropped_negation, _added_negation)
# A liar turns round what a rule hinges on: its modal or a figure.
_LIES = (_turned_modal, _other_figure)


def falsified(sentence: str, material: str, lying: bool = False) -> Said | None:
    """The sentence made false by one change — its modal turned round, a figure swapped for a sibling figure
    of the material, a word swapped for its opposite, a negation dropped — the first that applies. A liar
    only turns modals and figures, and doubles a figure that has no sibling."""
    edits = _LIES if lying else _EDITS
    return next((said for edit in edits if (said := edit(sentence, material, not lying))), None)


def _clause(text: str) -> str:
    return text.rstrip("。")


def _why(said: Said) -> str:
    if said.true:
        return "与教材原文一致"
    return f"教材原文为“{_clause(said.source)}”，该说法与之不符"


def _basis(used: list[Said]) -> str:
    return "".join(f"“{_clause(s.source)}。”" for s in dict.fromkeys(used))


def _judge(said: Said, lying: bool) -> dict[str, Any]:
    keyed_true = said.true or lying
    letter = "A" if keyed_true else "B"
    analysis = "题干说法与教材原文一致，说法正确。" if keyed_true else f"{_why(said)}，说法错误。"
    return {
        "stem": f"{_clause(said.text)}。（　）",
        "options": ["正确", "错误"],
        "answer": letter,
        "explanation": _explanation(_basis([said]), analysis, letter),
        "difficulty": 0.4,
        "sources": [said.source],
    }


def _choice(topic: str, options: list[Said], keyed: list[int], asks_false: bool) -> dict[str, Any]:
    """A statement question: 正确的是/有 keys the true options, 错误的是/有 the false ones."""
    letters = "".join(chr(65 + i) for i in keyed)
    ask = ("错误的" if asks_false else "正确的") + ("有" if len(keyed) > 1 else "是")
    reasons = "；".join(
        f"{chr(65 + i)}项{'正确' if s.true else '错误'}，{_why(s)}" for i, s in enumerate(options)
    )
    return {
        "stem": f"关于{topic}，下列说法中{ask}（　）。",
        "options": [_clause(s.text) for s in options],
        "answer": letters,
        "explanation": _explanation(_basis(options), reasons + "。", letters),
        "difficulty": 0.5 if len(keyed) == 1 else 0.6,
        "sources": list(dict.fromkeys(s.source for s in options)),
    }


def _rotated(items: list[Any], turn: int) -> list[Any]:
    shift = turn % len(items) if items else 0
    return items[shift:] + items[:shift]


def _lying_draft(
    qtype: str, topic: str, pool: list[str], material: str, turn: int, lie: Lie
) -> dict[str, Any]:
    """Keys sentences it turned false (or, inventing, rules of its own) as true; a slice with nothing to turn
    round gets an invented rule too. Its distractors are falsehoods it rightly calls false."""
    keyed = 2 if qtype == "multi" else 1
    turned = [] if lie == "invent" else [f for s in pool if (f := falsified(s, material, lying=True))]
    turned = _rotated(turned, turn)
    if len(turned) >= keyed:
        lies, spare = turned[:keyed], turned[keyed:]
    else:
        lies, spare = [Said(m, m, False) for m in _rotated(list(_INVENTED), turn)[:keyed]], turned
    if qtype == "judge":
        return _judge(lies[0], lying=True)
    used = {s.source for s in lies}
    others = [f for s in pool if s not in used and (f := falsified(s, material))] + spare
    distinct = list({s.text: s for s in others if s.text not in {lie.text for lie in lies}}.values())
    shown = [Said(s.text, s.source, True) for s in lies] + distinct[:2]
    return _choice(topic, shown, list(range(keyed)), asks_false=False)


def _honest_draft(qtype: str, topic: str, pool: list[str], material: str, turn: int) -> dict[str, Any]:
    """Keys the textbook's own sentences; distractors are other sentences of the slice made false. A sentence
    that only repeats the knowledge point's title would give a choice question away and keys none."""
    keys = pool if qtype == "judge" else [s for s in pool if _clause(s) not in topic]
    true = _rotated([Said(s, s, True) for s in keys], turn)
    false = [f for s in pool if (f := falsified(s, material))]
    if qtype == "judge":
        if turn % 2 and false:
            return _judge(_rotated(false, turn)[0], lying=False)
        if not true:
            raise CannotWrite("no sentence to state")
        return _judge(true[0], lying=False)
    if qtype == "single":
        key = true[0] if true else None
        wrong = [f for f in false if key is not None and f.source != key.source][:3]
        if key is not None and len(wrong) >= 2:
            at = turn % (len(wrong) + 1)
            return _choice(topic, [*wrong[:at], key, *wrong[at:]], [at], asks_false=False)
        # too few sentences to falsify: one falsehood among rules stated as they are, asked as 错误的是
        right = [t for t in true if false and t.source != false[0].source][:3]
        if len(right) < 2:
            raise CannotWrite("too few sentences for a single choice")
        at = turn % (len(right) + 1)
        return _choice(topic, [*right[:at], false[0], *right[at:]], [at], asks_false=True)
    wrong = _rotated(false, turn)[: 2 if len(pool) > 4 else 1]
    right = [t for t in true if t.source not in {w.source for w in wrong}][:3]
    if not wrong or len(right) < 2 or len(right) + len(wrong) < 4:
        raise CannotWrite("too few sentences for a multiple choice")
    options = [*right[:2], wrong[0], *right[2:], *wrong[1:]]
    return _choice(topic, options, [i for i, s in enumerate(options) if s.true], asks_false=False)


def concept_draft(qtype: str, path: str, prompt: str, turn: int, lie: Lie = "") -> dict[str, Any]:
    """A question on the slice's sentences (others on each `turn`), in the shape its type takes."""
    topic = _ORDINAL.sub("", path.split(" > ")[-1])
    material = _found(_MATERIAL, prompt, "material")
    pool = sentences(prompt)
    if lie:
        return _lying_draft(qtype, topic, pool, material, turn, lie)
    return _honest_draft(qtype, topic, pool, material, turn)


# ---- calculation questions -----------------------------------------------------------------------------


def _money(value: float) -> str:
    if value >= 10_000 and value % 10_000 == 0:
        return f"{_plain_number(value / 10_000)}万元"
    return f"{_plain_number(value)}元"


def _date(iso: str) -> str:
    day = dt.date.fromisoformat(iso)
    return f"{day.year}年{day.month}月{day.day}日"


_HOME_ORDER = {1: "家庭首套住房", 2: "家庭第二套住房", 3: "家庭第三套住房"}
# How each argument is told in a stem, as a writer who knows the subject says it.
_WORDS: dict[str, Callable[[Any, str], str]] = {
    "date": lambda v, _: f"{_date(v)}办理交易",
    "residential": lambda v, _: "所购房屋为住宅" if v else "所购房屋为商铺",
    "area": lambda v, _: f"建筑面积{_plain_number(v)}平方米",
    "price": lambda v, c: f"成交价{_money(v)}（{'不含' if c == 'deed_tax' else '含'}增值税）",
    "home_order": lambda v, _: f"该房屋是买方{_HOME_ORDER[v]}",
    "city": lambda v, _: f"房屋位于{v}市" if v else "",
}


def situation(calculator: str, args: dict[str, Any]) -> str:
    """Every argument of the call in words a reader sees, the date first."""
    unknown = [name for name in args if name not in _WORDS]
    if unknown:
        raise AssertionError(f"the exam model cannot tell {unknown} of {calculator} in words")
    ordered = sorted(args, key=lambda name: name != "date")
    parts = [_WORDS[name](args[name], calculator) for name in ordered]
    return "，".join(part for part in parts if part)


def calculation_draft(prompt: str, wrong: bool) -> dict[str, Any]:
    """A question around the value the prompt gives; `wrong` states three times that value instead."""
    qtype = _TYPES[_found(_TYPE_IN_PROMPT, prompt, "question type")]
    value = float(_found(_VALUE, prompt, "correct value"))
    unit = _found(_UNIT, prompt, "unit")
    label = _found(_LABEL, prompt, "result label")
    calculator = _found(_CALCULATOR, prompt, "calculator")
    material = _found(_MATERIAL, prompt, "material")
    story = situation(calculator, json.loads(_found(_ARGS, prompt, "arguments")))
    shown = value * _WRONG_FACTOR if wrong else value
    formula = next((line for line in material.splitlines() if "=" in line and "【" not in line), "")
    basis = f"“{formula}”" if formula else "教材中的计算公式。"
    sources = [formula] if formula else []
    working = f"按题干所给情形计算，{label}为{stated(shown, unit)}"
    if qtype == "judge":
        return {
            "stem": f"{story}。按现行规定，{label}为{stated(shown, unit)}。（　）",
            "options": ["正确", "错误"],
            "answer": "A",
            "explanation": _explanation(basis, f"{working}，说法正确。", "A"),
            "difficulty": 0.5,
            "sources": sources,
        }
    distractors = [stated(value * f if value else f, unit) for f in _DISTRACTOR_FACTORS]
    options = [distractors[0], distractors[1], stated(shown, unit), distractors[2]]
    return {
        "stem": f"{story}。按现行规定，{label}为（　）。",
        "options": options,
        "answer": "C",
        "explanation": _explanation(
            basis, f"{working}；A、B、D是套用其他档次的税率或比例得到的结果，与题干情形不符。", "C"
        ),
        "difficulty": 0.6,
        "sources": sources,
    }


# ---- revisions and reviews -----------------------------------------------------------------------------


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
    """`calculators`: the calculators this model knows how to call, with the arguments it passes. Each draft
    of a knowledge point asks about another of its sentences than the draft before."""

    calculators: dict[str, dict[str, Any]] = field(default_factory=dict)
    disagree: Callable[[int], bool] = _never
    miscalculate: Callable[[int], bool] = _never
    fenced: bool = False
    lie: Lie = ""
    counts: Counter[str] = field(default_factory=Counter)
    visits: Counter[str] = field(default_factory=Counter)

    def _structured(self, obj: Any) -> Reply:
        return Reply.fenced(obj) if self.fenced else Reply.answer(obj)

    def __call__(self, request: ChatRequest) -> Reply:
        step = request.step
        self.counts[step] += 1
        number = self.counts[step]
        prompt = request.prompt
        if step == "draft":
            qtype = _TYPES[_found(_TYPE_IN_PROMPT, prompt, "question type")]
            path = _found(_PATH, prompt, "knowledge point path")
            turn = self.visits[path]
            self.visits[path] += 1
            try:
                return self._structured(concept_draft(qtype, path, prompt, turn, self.lie))
            except CannotWrite as exc:
                return Reply.error(500, f"exam model: {exc}")
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
