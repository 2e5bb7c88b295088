"""The critic's deterministic checks. They run on every draft, before and without any model, and are what
`critic-eval` measures; a check either finds a concrete fault or says nothing."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError

from graph.format import (
    ANALYSIS,
    JUDGE_OPTIONS,
    MAX_OPTIONS,
    OPTION_LIMIT,
    conclusion_letters,
    explanation_parts,
    fits_short_explanation,
    numbers_in,
    same_number,
)
from graph.grounding.text import saying
from graph.lint import lint
from graph.schemas import BLANK, Issue
from vocabulary.records import Calculation, Question

Recompute = Callable[[Calculation], float]
DuplicateScore = Callable[[Question], float]
GIVE_AWAY_MIN_CHARS = 4


def _issue(kind: str, severity: str, detail: str) -> Issue:
    return Issue(type=kind, severity=severity, detail=detail, source="rule")


def check_structure(q: Question) -> list[Issue]:
    issues: list[Issue] = []
    count = len(q.options)
    if count < 2 or count > MAX_OPTIONS:
        issues.append(_issue("format_error", "major", f"选项数量为{count}，应为2–{MAX_OPTIONS}个"))
    if not q.answer:
        issues.append(_issue("answer_mismatch", "major", "没有给出正确答案"))
    outside = [letter for letter in q.answer if not ("A" <= letter <= "L") or ord(letter) - 65 >= count]
    if outside:
        issues.append(_issue("answer_mismatch", "major", f"答案{''.join(outside)}不在选项范围内"))
    empty = [chr(65 + i) for i, option in enumerate(q.options) if not option.strip()]
    if empty:
        issues.append(_issue("format_error", "minor", f"选项{''.join(empty)}为空"))
    seen: dict[str, int] = {}
    for index, option in enumerate(q.options):
        key = saying(option) if option.strip() else ""
        if key and key in seen:
            first = seen[key]
            involves_key = chr(65 + index) in q.answer or chr(65 + first) in q.answer
            severity = "major" if involves_key else "minor"
            same = "重复" if q.options[first].strip() == option.strip() else "说的是同一件事（只是写法不同）"
            issues.append(_issue("ambiguity", severity, f"选项{chr(65 + first)}与{chr(65 + index)}{same}"))
        seen.setdefault(key, index)
    return issues


def check_type(q: Question, requested: str) -> list[Issue]:
    issues: list[Issue] = []
    if q.qtype != requested:
        issues.append(_issue("format_error", "major", f"题型为{q.qtype}，请求的是{requested}"))
    if q.qtype == "judge":
        if [o.strip() for o in q.options] != JUDGE_OPTIONS:
            issues.append(_issue("format_error", "minor", "判断题的选项必须恰好是“正确、错误”"))
        if len(q.answer) != 1:
            issues.append(_issue("logical_flaw", "major", "判断题只能有一个答案"))
    elif q.qtype == "single":
        if len(q.answer) != 1:
            issues.append(_issue("logical_flaw", "major", f"单选题给出了{len(q.answer)}个答案"))
        if len(q.options) < 3:
            issues.append(_issue("incompleteness", "minor", "单选题至少需要3个选项"))
    elif q.qtype == "multi":
        if len(q.answer) < 2:
            issues.append(_issue("logical_flaw", "major", "多选题至少应有两个正确答案"))
        if len(q.options) < 4:
            issues.append(_issue("incompleteness", "minor", "多选题至少需要4个选项"))
    return issues


def check_text(q: Question) -> list[Issue]:
    issues: list[Issue] = []
    if BLANK not in q.stem:
        issues.append(_issue("format_error", "minor", "题干缺少作答空位（　）"))
    long_options = [chr(65 + i) for i, o in enumerate(q.options) if len(o) > OPTION_LIMIT]
    if long_options:
        issues.append(_issue("format_error", "minor", f"选项{''.join(long_options)}超过{OPTION_LIMIT}字"))
    if not fits_short_explanation(q.short_explanation):
        issues.append(_issue("format_error", "minor", "简短解析超过200字或多于2个换行"))
    parts = explanation_parts(q.explanation)
    if not (parts.get(ANALYSIS) if parts else q.explanation.strip()):
        issues.append(_issue("incompleteness", "minor", "解析没有试题分析，看不出为什么选这个答案"))
    stated = conclusion_letters(q.explanation, q.qtype)
    if stated is not None and stated != q.answer_text:
        issues.append(_issue("answer_mismatch", "major", f"解析结论为{stated}，与答案{q.answer_text}不一致"))
    if q.qtype != "judge":
        issues += _give_aways(q)
    return issues


def _give_aways(q: Question) -> list[Issue]:
    """A correct option's text inside the stem gives the answer away. A number may legitimately appear in
    the data of a calculation stem, so a numeric option only counts when it follows the blank."""
    found = []
    after_blank = q.stem.split(BLANK, 1)[1] if BLANK in q.stem else ""
    for letter in q.answer:
        index = ord(letter) - 65
        if index >= len(q.options):
            continue
        option = q.options[index].strip()
        searched = after_blank if any(ch.isdigit() for ch in option) else q.stem
        if len(option) >= GIVE_AWAY_MIN_CHARS and option in searched:
            found.append(_issue("logical_flaw", "major", f"题干直接包含了正确选项{letter}的内容"))
    return found


def check_calculation(q: Question, recompute: Recompute) -> list[Issue]:
    """Every number the answer rests on is recomputed; the correct option must state exactly that value."""
    if q.calculation is None:
        return []
    try:
        value = recompute(q.calculation)
    except Exception as exc:  # a calculator rejecting the arguments is itself the finding
        return [_issue("calculation_error", "major", f"计算器{q.calculation.calculator}无法复核：{exc}")]
    if q.calculation.value is not None and not same_number(q.calculation.value, value):
        return [
            _issue("calculation_error", "major", f"题目声称结果为{q.calculation.value}，复核结果为{value}")
        ]
    if q.qtype == "judge":
        stated = any(same_number(n, value) for n in numbers_in(q.stem))
        if stated != (q.answer == ["A"]):
            return [
                _issue("calculation_error", "major", f"判断题题干中的数值与复核结果{value:g}不符合所给答案")
            ]
        return []
    for letter in q.answer:
        index = ord(letter) - 65
        if index >= len(q.options):
            continue
        if q.qtype == "single" and not any(same_number(n, value) for n in numbers_in(q.options[index])):
            return [_issue("calculation_error", "major", f"正确选项{letter}与复核结果{value:g}不符")]
    if q.qtype == "single":
        wrong_hits = [
            chr(65 + i)
            for i, option in enumerate(q.options)
            if chr(65 + i) not in q.answer and any(same_number(n, value) for n in numbers_in(option))
        ]
        if wrong_hits:
            return [_issue("answer_mismatch", "major", f"干扰项{''.join(wrong_hits)}也等于复核结果{value:g}")]
    return []


def check_duplicate(q: Question, score: DuplicateScore, threshold: float) -> list[Issue]:
    similarity = score(q)
    if similarity >= threshold:
        return [_issue("duplicate", "major", f"与题库母题高度相似（相似度{similarity:.2f}）")]
    return []


def run_checks(
    question: dict | Question,
    requested: str,
    *,
    recompute: Recompute | None = None,
    duplicate_score: DuplicateScore | None = None,
    duplicate_threshold: float = 0.9,
) -> list[Issue]:
    try:
        q = question if isinstance(question, Question) else Question.model_validate(question)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return [_issue("format_error", "major", f"题目结构不合法：{where} {first['msg']}")]
    issues = check_structure(q) + check_type(q, requested) + check_text(q) + lint(q)
    if recompute is not None:
        issues += check_calculation(q, recompute)
    if duplicate_score is not None:
        issues += check_duplicate(q, duplicate_score, duplicate_threshold)
    return issues
