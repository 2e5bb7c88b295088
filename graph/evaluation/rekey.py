"""Moving a question's key together with its explanation, as a careless or dishonest author would: the
option letters the explanation names follow the key, the conclusion quotes the new keyed option, and a
true/false conclusion says 错误 where it said 正确. The conclusion then agrees with the key, so only a
check of the key against the textbook can tell."""

from __future__ import annotations

import re

from graph.format import CONCLUSION, conclusion_letters, explanation_parts
from vocabulary.records import Question

# Option letters, alone or in a run ("ABD", "A、B、D"); a run stays in alphabetical order, as papers write it.
_RUN = re.compile(r"(?<![A-Za-z])[A-L](?:[、,，和及]?[A-L])*(?![A-Za-z])")
_VERDICT = re.compile(r"不正确|正确|错误|不对|(?<=[（(“])[对错](?=[）)”])|√|×")
_OPPOSITE = {
    "不正确": "正确",
    "正确": "错误",
    "错误": "正确",
    "不对": "对",
    "对": "错",
    "错": "对",
    "√": "×",
    "×": "√",
}
# An option quoted in the conclusion ("本题选A“变更登记”").
_QUOTED = re.compile(r"“([^”]*)”")
# Where an analysis passes judgement on a true/false statement ("经纪人员的说法正确").
_JUDGED = re.compile(r"(说法|表述|判断|观点|做法)(是)?(不正确|正确|错误)")


def _swap_letters(text: str, swap: dict[str, str]) -> str:
    def swapped(run: re.Match[str]) -> str:
        letters = [swap.get(letter, letter) for letter in re.findall(r"[A-L]", run.group())]
        separator = re.search(r"[^A-L]", run.group())
        return (separator.group() if separator else "").join(sorted(letters))

    return _RUN.sub(swapped, text)


def _flip_verdicts(text: str) -> str:
    return _VERDICT.sub(lambda m: _OPPOSITE[m.group()], text)


def _rewrite(explanation: str, swap: dict[str, str], quoted: dict[str, str], judge: bool) -> str:
    conclusion = explanation_parts(explanation).get(CONCLUSION, "")
    at = explanation.rfind(conclusion) if conclusion else -1
    body, tail = (explanation[:at], explanation[at:]) if at >= 0 else (explanation, "")
    body = _swap_letters(body, swap)
    tail = _swap_letters(tail, swap)
    if quoted:
        tail = _QUOTED.sub(lambda m: f"“{quoted.get(m.group(1), m.group(1))}”", tail)
    if judge:
        body = _JUDGED.sub(lambda m: m.group(1) + (m.group(2) or "") + _OPPOSITE[m.group(3)], body)
        tail = _flip_verdicts(tail)
    return body + tail


def move_key(q: Question) -> Question | None:
    """The key moved to another option (a true/false key to the other verdict; one letter of a multiple
    key to an unkeyed option), the explanation rewritten to match. None when the explanation's conclusion
    cannot be made to agree."""
    letters = [chr(65 + i) for i in range(len(q.options))]
    unkeyed = [letter for letter in letters if letter not in q.answer]
    if not q.answer or not unkeyed:
        return None
    old, new = q.answer[0], unkeyed[0]
    answer = sorted([new, *q.answer[1:]])
    quoted = {}
    if q.qtype != "judge":
        index_old, index_new = ord(old) - 65, ord(new) - 65
        quoted = {q.options[index_old]: q.options[index_new], q.options[index_new]: q.options[index_old]}
    explanation = _rewrite(q.explanation, {old: new, new: old}, quoted, q.qtype == "judge")
    if conclusion_letters(explanation, q.qtype) not in (None, "".join(answer)):
        return None
    return q.model_copy(update={"answer": answer, "explanation": explanation})
