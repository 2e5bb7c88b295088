"""Question-bank import: xls / xlsx / csv / jsonl rows → normalised `MotherQuestion`s.

The type of a question comes from its content, not from the `试题名称` prefix, because real exports lie:
an `MC` row with one correct letter is a single-choice question, a `YN` row with four real options is
not true/false. A case stem (a row with no options and no answer, or a `CS` prefix) owns the rows
after it whose stems start with 【单选题】/【多选题】; those sub-questions carry the case text, the stem
itself is not a question. Every problem is reported against its row and the row is skipped;
neighbours are never affected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from retrieval.models import JUDGE_OPTIONS, MotherQuestion
from retrieval.normalize import (
    answer_letters,
    clean_multiline,
    clean_text,
    judge_value,
    normalize_blank,
    parse_point,
    stable_id,
    strip_option_label,
)
from retrieval.problems import Problem, ProblemLog
from retrieval.tables import cell_text, json_object, read_table, require_columns, unusable_numbers
from vocabulary.kinds import QuestionType

STEM = "题干"
ANSWER = "正确答案"
NAME = "试题名称"
PART = "篇"
CHAPTER = "章"
SECTION = "节"
EXPLANATION = "解析"
POINT = "考点"
DIFFICULTY = "难度值"
CALC_CHECK = "计算校验"
MAX_OPTIONS = 8
_OPTION_COLUMN = re.compile(rf"^选项(?:([1-{MAX_OPTIONS}])|([A-{chr(ord('A') + MAX_OPTIONS - 1)}]))$")
_SUB_MARKER = re.compile(r"^[【\[［]\s*(单选题|多选题|判断题|单项选择题|多项选择题)\s*[】\]］]\s*")
_CASE_PREFIX = "CS"
_JUDGE_PREFIX = "YN"
_JUDGE_ANSWER_FORMS = "A/B, 对/错, 正确/错误, Y/N, T/F, √/×"


@dataclass
class BankResult:
    """`calc_checks` maps a question id to its parsed 计算校验 object (the bank's recomputable figures)."""

    questions: list[MotherQuestion] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    case_stems: int = 0
    calc_checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    format: str = ""


class RowError(Exception):
    """Why one row cannot be imported; carries the column to name in the report."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


@dataclass
class _Row:
    number: int
    values: dict[str, Any]

    def text(self, column: str) -> str:
        value = cell_text(self.values.get(column))
        if value is None:
            raise RowError(column, "expected text, found a list or object")
        return clean_text(value)

    @property
    def prefix(self) -> str:
        return self.text(NAME)[:2].upper()

    def marker(self) -> re.Match[str] | None:
        return _SUB_MARKER.match(self.text(STEM))

    def refuse_unusable_numbers(self) -> None:
        """Raises on a NaN, Infinity or absurd figure in any cell, or inside the 计算校验 JSON."""
        for column, value in self.values.items():
            parsed = json_object(value) if column == CALC_CHECK and isinstance(value, str) else value
            for where, reason in unusable_numbers(parsed, column):
                raise RowError(where, reason)


def load_bank(path: Path, label: str | None = None, max_stem: int | None = None) -> BankResult:
    """`label` is how problems name the file (default: the path as given); a stem longer than `max_stem`
    characters is reported (and kept)."""
    log = ProblemLog(label or str(path))
    result = BankResult(problems=log.problems)
    table = read_table(path, log)
    if table is None:
        return result
    result.format = table.format
    if not require_columns(table, [(STEM,), (ANSWER,)], log):
        return result
    option_columns = _option_columns(table.columns)
    _Importer(result, log, option_columns, max_stem).run([_Row(n, v) for n, v in table.rows])
    if not result.questions:
        log.fatal("no usable rows")
    return result


def _option_columns(columns: list[str]) -> list[str]:
    """选项1…选项8 (or 选项A…选项H), in option order, whichever subset the file has."""
    found = []
    for name in columns:
        match = _OPTION_COLUMN.match(name)
        if match:
            index = int(match[1]) - 1 if match[1] else ord(match[2]) - ord("A")
            found.append((index, name))
    return [name for _, name in sorted(found)]


class _Importer:
    """One pass over the rows; holds what later rows are checked against (stems seen, ids taken)."""

    def __init__(
        self, result: BankResult, log: ProblemLog, option_columns: list[str], max_stem: int | None
    ) -> None:
        self.result = result
        self.log = log
        self.option_columns = option_columns
        self.max_stem = max_stem
        self.stem_rows: dict[str, tuple[int, tuple[str, ...], str]] = {}
        self.ids: set[str] = set()

    def run(self, rows: list[_Row]) -> None:
        i = 0
        while i < len(rows):
            row = rows[i]
            try:
                subs = self._sub_questions(rows, i) if self._is_case_candidate(row) else []
                if subs:
                    self._case(row, subs)
                    i += 1 + len(subs)
                    continue
                if row.prefix == _CASE_PREFIX:
                    raise RowError(
                        STEM, "case stem with no sub-questions (no 【单选题】/【多选题】 rows follow it)"
                    )
                self._question(row, None)
            except RowError as exc:
                self.log.add(row.number, exc.field, exc.reason)
            i += 1

    def _is_case_candidate(self, row: _Row) -> bool:
        empty = not row.text(ANSWER) and not any(row.text(c) for c in self.option_columns)
        return row.prefix == _CASE_PREFIX or (empty and row.marker() is None)

    def _sub_questions(self, rows: list[_Row], start: int) -> list[_Row]:
        subs = []
        for row in rows[start + 1 :]:
            try:
                if row.marker() is None:
                    break
            except RowError:
                break
            subs.append(row)
        return subs

    def _case(self, stem_row: _Row, subs: list[_Row]) -> None:
        stem_row.refuse_unusable_numbers()
        case_text = clean_multiline(cell_text(stem_row.values.get(STEM)) or "")
        if not case_text:
            raise RowError(STEM, "case stem has no text")
        self.result.case_stems += 1
        for sub in subs:
            try:
                # Sub-question rows often leave 篇/章/节 to the case row above them.
                for column in (PART, CHAPTER, SECTION):
                    if not sub.text(column) and stem_row.text(column):
                        sub.values[column] = stem_row.values[column]
                self._question(sub, case_text)
            except RowError as exc:
                self.log.add(sub.number, exc.field, exc.reason)

    def _question(self, row: _Row, case_text: str | None) -> None:
        row.refuse_unusable_numbers()
        marker = row.marker()  # outside a case it is only the field's type label: 【单选题】下列…
        stem = normalize_blank(row.text(STEM)[marker.end() if marker else 0 :])
        if not stem:
            raise RowError(STEM, "empty stem")
        if self.max_stem is not None and len(stem) > self.max_stem:
            self.log.add(
                row.number,
                STEM,
                f"stem of {len(stem)} characters is longer than the configured maximum of {self.max_stem} "
                "([data] max_stem)",
                "warning",
            )
        options = self._options(row)
        qtype, options, answer = _classify(row.prefix, options, row.text(ANSWER))
        key = f"{case_text or ''}\n{stem}"
        if key in self.stem_rows:
            first, first_options, first_answer = self.stem_rows[key]
            if (first_options, first_answer) == (options, answer):
                # Real banks repeat a question across papers: one question, not a fault.
                self.log.add(
                    row.number, STEM, f"same question as row {first} (another paper): kept once", "warning"
                )
                return
            raise RowError(STEM, f"duplicate stem: same as row {first}, with other options or answer")
        point, mastery = parse_point(row.text(POINT))
        question = MotherQuestion(
            id=stable_id("q", key, self.ids),
            part=row.text(PART),
            chapter=row.text(CHAPTER),
            section=row.text(SECTION),
            name=row.text(NAME),
            qtype=qtype,
            stem=stem,
            options=options,
            answer=answer,
            explanation=clean_multiline(cell_text(row.values.get(EXPLANATION)) or ""),
            point=point,
            mastery=mastery,
            difficulty=self._difficulty(row),
            case_text=case_text,
            source=f"{self.log.file}:{row.number}",
        )
        self.stem_rows[key] = (row.number, options, answer)
        self.result.questions.append(question)
        calc = self._calc_check(row)
        if calc is not None:
            self.result.calc_checks[question.id] = calc

    def _options(self, row: _Row) -> tuple[str, ...]:
        """Filled options in order; a gap or a repeated option makes the row ambiguous, so it is refused."""
        texts = [row.text(column) for column in self.option_columns]
        while texts and not texts[-1]:
            texts.pop()
        seen: dict[str, str] = {}
        options = []
        for index, (column, raw) in enumerate(zip(self.option_columns, texts, strict=False)):
            if not raw:
                raise RowError(column, "empty option between filled ones")
            option = strip_option_label(raw, index)
            if option in seen:
                raise RowError(column, f"same text as {seen[option]}")
            seen[option] = column
            options.append(option)
        return tuple(options)

    def _difficulty(self, row: _Row) -> float | None:
        raw = row.text(DIFFICULTY)
        if not raw:
            return None
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if 0.0 <= value <= 1.0:
            return value
        self.log.add(row.number, DIFFICULTY, f"'{raw}' is not a number from 0 to 1; left empty", "warning")
        return None

    def _calc_check(self, row: _Row) -> dict[str, Any] | None:
        raw = row.values.get(CALC_CHECK)
        if raw in (None, ""):
            return None
        value = json_object(raw)
        if not isinstance(value, str):
            value = _calc_check_problem(value) or value
        if isinstance(value, str):
            self.log.add(row.number, CALC_CHECK, f"{value}; ignored", "warning")
            return None
        return value


def _calc_check_problem(value: dict[str, Any]) -> str | None:
    """What is missing from a 计算校验 object, so the critic's recomputation never meets a half-filled one."""
    if not isinstance(value.get("calculator"), str) or not value["calculator"].strip():
        return "missing calculator name"
    if not isinstance(value.get("args"), dict):
        return "args must be an object"
    if not isinstance(value.get("field"), str) or not value["field"]:
        return "missing field (the result field the answer states)"
    expected = value.get("expected")
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int | float)):
        return "expected must be a number"
    return None


def _is_judge_pair(options: tuple[str, ...]) -> bool:
    if len(options) != 2:
        return False
    first, second = (judge_value(option) for option in options)
    return first is not None and second is not None and first != second


def _classify(
    prefix: str, options: tuple[str, ...], raw_answer: str
) -> tuple[QuestionType, tuple[str, ...], str]:
    """Type, options and answer letters decided from the content; the prefix only breaks a tie."""
    if not raw_answer:
        raise RowError(ANSWER, "empty answer")
    judge_options = _is_judge_pair(options)
    if judge_options or (not options and (prefix == _JUDGE_PREFIX or judge_value(raw_answer) is not None)):
        return "judge", JUDGE_OPTIONS, _judge_answer(raw_answer, options if judge_options else JUDGE_OPTIONS)
    if len(options) < 2:
        raise RowError("选项", f"a choice question needs at least 2 options, found {len(options)}")
    letters = answer_letters(raw_answer)
    if letters is None:
        raise RowError(ANSWER, f"'{raw_answer}' is not answer letters such as C, ABD or A、B")
    beyond = [letter for letter in letters if ord(letter) - ord("A") >= len(options)]
    if beyond:
        raise RowError(ANSWER, f"answer letter {''.join(beyond)} is beyond the {len(options)} options")
    return ("multi" if len(letters) > 1 else "single"), options, letters


def _judge_answer(raw: str, options: tuple[str, ...]) -> str:
    """ "A" for true, "B" for false; a letter answer picks from the row's own option order (错误 may be A)."""
    value = judge_value(raw)
    letters = answer_letters(raw)
    if value is None and letters in ("A", "B"):
        value = judge_value(options[ord(letters) - ord("A")])
    if value is None:
        raise RowError(ANSWER, f"'{raw}' is not a true/false answer ({_JUDGE_ANSWER_FORMS})")
    return "A" if value else "B"
