"""Canonical question text: the `（　）` blank, option letters, the three-part explanation, Telegram's limits.

The writer applies these; the critic checks their results with the same constants, so the two never disagree
about what "fits" means.
"""

from __future__ import annotations

import re

from graph.schemas import BLANK
from retrieval.chapters import chinese_number

STEM_LIMIT = 300
OPTION_LIMIT = 100
SHORT_EXPLANATION_LIMIT = 200
SHORT_EXPLANATION_LINE_BREAKS = 2
MAX_OPTIONS = 12
JUDGE_OPTIONS = ["正确", "错误"]
BASIS, ANALYSIS, CONCLUSION = EXPLANATION_PARTS = ("教材原文", "试题分析", "结论")
LETTERS = "ABCDEFGHIJKL"

_BLANK_VARIANTS = re.compile(r"[（(]\s*[)）]|_{2,}")
_OPTION_PREFIX = re.compile(r"^\s*[A-La-l]\s*[.．、:：)）]\s*")
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
# The headings real papers use for each part. A heading that can stand for two parts ("答案解析" is the
# analysis in one paper and the conclusion in another) takes the first of them still free.
_HEADINGS: dict[str, tuple[str, ...]] = {
    "教材原文": (BASIS,),
    "教材依据": (BASIS,),
    "试题分析": (ANALYSIS,),
    "试题解析": (ANALYSIS,),
    "分析": (ANALYSIS,),
    "解析": (ANALYSIS, CONCLUSION),
    "答案解析": (ANALYSIS, CONCLUSION),
    "结论": (CONCLUSION,),
    "试题结论": (CONCLUSION,),
}
_HEADING_NAMES = "|".join(sorted(_HEADINGS, key=len, reverse=True))
_PART_NUMBER = r"(?:\d{1,2}\s*[、.．]|[（(]\s*\d{1,2}\s*[)）]|[一二三]\s*、|[①②③])"
# A heading starts the text, a line or a sentence, may be numbered, and ends with a colon; in 【】 it needs
# neither the boundary nor the colon.
_HEADING = re.compile(
    rf"(?:^|(?<=[\s。；;！!？?]))\s*(?:{_PART_NUMBER}\s*)?({_HEADING_NAMES})\s*[：:]"
    rf"|\s*(?:{_PART_NUMBER}\s*)?【\s*({_HEADING_NAMES})\s*】\s*[：:]?"
)
_CHOSEN = re.compile(
    r"(?:选(?!项)|答案(?:应)?(?:为|是|选)?|正确(?:答案|选项)(?:为|是|有)?)\s*[：:]?\s*[“\"]?"
    r"([A-L](?:\s*[、,，和及与]?\s*[A-L])*)(?![A-Za-z])"
)
_JUDGED_FALSE = re.compile(r"错误|不正确|不对|不成立|不符|有误|错|×|✗")
_JUDGED_TRUE = re.compile(r"正确|对|成立|符合|相符|√|✓")


def clean_text(text: str) -> str:
    return _SPACES.sub(" ", text.replace("\r\n", "\n")).strip()


def with_blank(stem: str) -> str:
    """Every stem shows where the answer goes; variants such as `( )` become the canonical blank."""
    stem = _BLANK_VARIANTS.sub(BLANK, clean_text(stem))
    if BLANK in stem:
        return stem
    body = stem.rstrip("。.？?！!；;")
    tail = stem[len(body) :]
    return f"{body}{BLANK}{tail or '。'}"


def worded_for(qtype: str, stem: str) -> str:
    """A multiple-choice stem asks for several answers as papers do, "…的有（　）", not "…的是（　）"."""
    return stem.replace(f"的是{BLANK}", f"的有{BLANK}") if qtype == "multi" else stem


def strip_option_prefix(option: str) -> str:
    return clean_text(_OPTION_PREFIX.sub("", option, count=1))


def normalise_answer(answer: str | list[str], option_count: int) -> list[str]:
    letters = "".join(answer) if isinstance(answer, list) else answer
    picked = {ch for ch in letters.upper() if ch in LETTERS[:option_count]}
    return sorted(picked)


def explanation_parts(explanation: str) -> dict[str, str]:
    """The explanation's parts under their canonical names, whatever headings and numbering the author or
    the paper used; empty when it has no headings at all. Text before the first heading opens the analysis."""
    found = list(_HEADING.finditer(explanation))
    if not found:
        return {}
    parts: dict[str, str] = {}
    preface = explanation[: found[0].start()].strip()
    for index, heading in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(explanation)
        body = explanation[heading.end() : end].strip()
        names = _HEADINGS[heading.group(1) or heading.group(2)]
        name = next((n for n in names if n not in parts), names[-1])
        parts[name] = f"{parts[name]}\n{body}".strip() if name in parts else body
    if preface:
        parts[ANALYSIS] = f"{preface}\n{parts.get(ANALYSIS, '')}".strip()
    return parts


def compose_explanation(basis: str, analysis: str, conclusion: str) -> str:
    """The display form, one numbered part a line; a part with nothing to say is left out."""
    bodies = [
        (name, body.strip())
        for name, body in zip(EXPLANATION_PARTS, (basis, analysis, conclusion), strict=True)
    ]
    shown = [(name, body) for name, body in bodies if body]
    return "\n".join(f"{number}、{name}：{body}" for number, (name, body) in enumerate(shown, 1))


def display_explanation(explanation: str, answer: str, qtype: str, basis: str = "") -> str:
    """Any author's or paper's explanation in the display form: unheaded text is the analysis, `basis`
    stands in for a missing 教材原文, and a conclusion that names no answer gets the key appended."""
    parts = explanation_parts(explanation) or {ANALYSIS: explanation.strip()}
    conclusion = parts.get(CONCLUSION, "")
    if _stated(conclusion, qtype) is None:
        conclusion = f"{conclusion.rstrip('。')}。本题选{answer}。".lstrip("。")
    return compose_explanation(parts.get(BASIS) or basis, parts.get(ANALYSIS, ""), conclusion)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    window = text[: limit - 1]
    stop = max(window.rfind(mark) for mark in "。；;！？")
    return window[: stop + 1] if stop >= limit // 3 else window + "…"


def short_explanation(explanation: str) -> str:
    """The poll's explanation: conclusion first, then as much analysis as fits 200 chars and 2 line breaks."""
    parts = explanation_parts(explanation)
    if not parts:
        return _cut(clean_text(explanation).replace("\n", " "), SHORT_EXPLANATION_LIMIT)
    conclusion = parts.get(CONCLUSION, "")
    analysis = parts.get(ANALYSIS, "") or parts.get(BASIS, "")
    head = f"{CONCLUSION}：{conclusion}" if conclusion else ""
    room = SHORT_EXPLANATION_LIMIT - len(head) - 1
    if head and room < 20:
        return _cut(head, SHORT_EXPLANATION_LIMIT)
    body = _cut(analysis.replace("\n", " "), room) if analysis else ""
    return "\n".join(part for part in (head, body) if part)


def fits_short_explanation(text: str) -> bool:
    return len(text) <= SHORT_EXPLANATION_LIMIT and text.count("\n") <= SHORT_EXPLANATION_LINE_BREAKS


def conclusion_letters(explanation: str, qtype: str) -> str | None:
    """The answer the explanation's conclusion states, if it states one recognisably: "本题选C",
    "答案为ABD", "正确答案是B、D"; for a true/false item also "该说法错误", "故本题说法正确"."""
    return _stated(explanation_parts(explanation).get(CONCLUSION, ""), qtype)


def _stated(conclusion: str, qtype: str) -> str | None:
    chosen = _CHOSEN.findall(conclusion)
    if chosen:
        return "".join(sorted(set(re.findall(r"[A-L]", chosen[-1]))))
    if qtype == "judge":
        if _JUDGED_FALSE.search(conclusion):
            return "B"
        if _JUDGED_TRUE.search(conclusion):
            return "A"
    return None


_CN_NUMERAL = "零〇一二两三四五六七八九十百千"
# A figure in digits, or in Chinese numerals where a unit follows ("四十二年", "三十日"); "第一年" and
# "统一年限" hold words, not figures.
_COUNTED = "万元|万|元|年|个月|个工作日|日|天|倍|层|岁|平方米|㎡"
_NUMBER = re.compile(
    rf"(\d[\d,，]*(?:\.\d+)?)\s*(万元|万|%|％|元)?"
    rf"|(?<![第统唯同单逐之{_CN_NUMERAL}])([{_CN_NUMERAL}]+)(?=({_COUNTED}))"
)


def numbers_in(text: str) -> list[float]:
    """Numbers as a reader means them: `3万元` is 30000, `1.5%` is 0.015, `30,000元` is 30000, `四十二年`
    is 42."""
    values = []
    for digits, unit, numeral, numeral_unit in _NUMBER.findall(text):
        if numeral:
            counted = chinese_number(numeral)
            if counted is None:
                continue
            value, unit = float(counted), numeral_unit
        else:
            value = float(digits.replace(",", "").replace("，", ""))
        if unit in ("万元", "万"):
            value *= 10000
        elif unit in ("%", "％"):
            value /= 100
        values.append(value)
    return values


def same_number(a: float, b: float) -> bool:
    """Equal as stated: money to the cent; a fraction (a rate or ratio below 1) to half a basis point."""
    if abs(b) < 1:
        return abs(a - b) < 5e-5
    return abs(a - b) <= 0.01 + 1e-9
