"""An instructor's export: the questions delivered in their chats over a period, as one .xlsx workbook.

Two sheets. The first, 题库, is in the question-bank format the importer reads (`retrieval/bank.py`,
`python -m bot data check`): one row per question, its newest version delivered in the period, case
questions as a CS row followed by their 【单选题】 rows, so the file can be loaded back as a bank and gives
the same questions. The importer reads the first sheet with content, which is why this one comes first.
The second, 逐版本统计, is the field's column layout with one row per version and how it fared: answers,
share right, 👍/👎 and the reasons of learners' reports.
"""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.worksheet.worksheet import Worksheet

from engines.i18n import text
from retrieval.models import PATH_SEPARATOR, Slice
from storage.deliveries import DeliveredVersion
from storage.feedback import Tally
from storage.questions import QuestionVersion
from storage.store import Store
from vocabulary.records import Question

BANK_SHEET = "题库"
VERSION_SHEET = "逐版本统计"
KNOWLEDGE_LEVELS = ("一级知识点", "二级知识点", "三级知识点", "四级知识点")
FIELD_OPTIONS = 5  # the field's layout has 选项A–E; more columns are added only when a question needs them
TYPE_NAMES = {"single": "单选题", "multi": "多选题", "judge": "判断题"}
NAME_PREFIXES = {"single": "SC", "multi": "MC", "judge": "YN"}
CASE_PREFIX = "CS"
MAX_BANK_OPTIONS = 8  # the importer reads 选项1…选项8
MAX_PERIOD_DAYS = 366


class PeriodError(ValueError):
    """A period the instructor typed that cannot be used; `key` and `values` make the catalogue message."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True)
class Period:
    """From `since` until before `until` (Unix seconds): whole days in the instructor's time zone."""

    first: date
    last: date
    since: float
    until: float


def parse_period(typed: str, tz: tzinfo = UTC) -> Period:
    """ "2026-03-01 2026-03-31" (both days included), "2026-03-01~2026-03-31", or one day."""
    words = typed.replace("~", " ").replace("～", " ").replace("至", " ").split()
    if not 1 <= len(words) <= 2:
        raise PeriodError("export_period_format", typed=typed.strip())
    try:
        days = [date.fromisoformat(word) for word in words]
    except ValueError:
        raise PeriodError("export_period_format", typed=typed.strip()) from None
    first, last = days[0], days[-1]
    if last < first:
        raise PeriodError("export_period_order", first=first.isoformat(), last=last.isoformat())
    if (last - first).days >= MAX_PERIOD_DAYS:
        raise PeriodError("export_period_long", days=MAX_PERIOD_DAYS)
    since = datetime.combine(first, time(), tz).timestamp()
    until = datetime.combine(last + timedelta(days=1), time(), tz).timestamp()
    return Period(first, last, since, until)


@dataclass(frozen=True)
class VersionRow:
    """A version delivered in the period with how it fared there; `reasons`: report reason → how often."""

    version: QuestionVersion
    delivered: DeliveredVersion
    attempts: int
    correct: int
    votes: Tally
    reasons: Mapping[str, int]


@dataclass(frozen=True)
class Export:
    """The workbook's bytes; `questions`: rows of the bank sheet, `versions`: rows of the statistics sheet."""

    content: bytes
    filename: str
    questions: int
    versions: int


async def delivered_rows(store: Store, chat_ids: Sequence[int], period: Period) -> list[VersionRow]:
    """Every version delivered in the chats during the period, first delivered first."""
    if not chat_ids:
        return []
    delivered = await store.deliveries.delivered_versions(chat_ids, period.since, period.until)
    ids = [d.version_id for d in delivered]
    if not ids:
        return []
    versions = await store.questions.versions(ids)
    scores = await store.attempts.version_scores(chat_ids, period.since, period.until)
    tallies = await store.votes.tallies(ids)
    reasons: dict[int, Counter[str]] = {version_id: Counter() for version_id in ids}
    for report in await store.reports.for_versions(ids):
        reasons[report.version_id][report.reason] += 1
    rows = []
    for entry in delivered:
        score = scores.get(entry.version_id)
        rows.append(
            VersionRow(
                version=versions[entry.version_id],
                delivered=entry,
                attempts=score.attempts if score else 0,
                correct=score.correct if score else 0,
                votes=tallies.get(entry.version_id, Tally(0, 0)),
                reasons=reasons[entry.version_id],
            )
        )
    return rows


async def export_delivered(
    store: Store,
    chat_ids: Sequence[int],
    period: Period,
    slices: Mapping[str, Slice],
    locale: str = "zh",
    tz: tzinfo = UTC,
) -> Export:
    """The workbook for the chats (see `DeliveryRepository.instructor_chats`) over the period; `slices` by
    id give 掌握程度 and 切片原文, `locale` the words for report reasons, `tz` the dates shown."""
    rows = await delivered_rows(store, chat_ids, period)
    latest = _latest_per_question(rows)
    # openpyxl needs 0.5-1.5 s for 500 versions on a busy 2-core machine: the file is built off the event
    # loop, so other chats are not kept waiting while an instructor's export is written.
    content = await asyncio.to_thread(
        _workbook, bank_rows(latest, slices), version_rows(rows, slices, locale, tz)
    )
    filename = f"examforge-{period.first.isoformat()}-{period.last.isoformat()}.xlsx"
    return Export(content, filename, questions=len(latest), versions=len(rows))


def _workbook(bank: list[list[object]], versions: list[list[object]]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = BANK_SHEET
    _fill(sheet, bank)
    _fill(workbook.create_sheet(VERSION_SHEET), versions)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _fill(sheet: Worksheet, rows: list[list[object]]) -> None:
    """Text is written as text: a stem beginning with "=" must not become a formula the spreadsheet runs,
    and control characters a workbook cannot hold are dropped."""
    for cells in rows:
        sheet.append([ILLEGAL_CHARACTERS_RE.sub("", c) if isinstance(c, str) else c for c in cells])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str) and cell.data_type == "f":
                cell.data_type = "s"


def _latest_per_question(rows: Sequence[VersionRow]) -> list[QuestionVersion]:
    """Each question once, as its newest version delivered in the period, in the order first delivered.

    A question is told apart as the importer does, by its case and stem: the same past question served in
    two chats is stored twice, but is one question of the bank.
    """
    newest: dict[int, QuestionVersion] = {}
    for row in rows:
        current = newest.get(row.version.question_id)
        if current is None or row.version.number > current.number:
            newest[row.version.question_id] = row.version
    distinct: dict[tuple[str, str], QuestionVersion] = {}
    for version in newest.values():
        distinct.setdefault((version.question.case, version.question.stem), version)
    return list(distinct.values())


def _levels(question: Question) -> list[str]:
    """Up to four knowledge levels (篇, 章, 节, 点); deeper paths are folded into the fourth."""
    levels = question.slice_path.split(PATH_SEPARATOR) if question.slice_path else list(question.chapter)
    if len(levels) > len(KNOWLEDGE_LEVELS):
        levels[3:] = [PATH_SEPARATOR.join(levels[3:])]
    return levels + [""] * (len(KNOWLEDGE_LEVELS) - len(levels))


def _mastery(question: Question, slices: Mapping[str, Slice]) -> str:
    piece = slices.get(question.slice_id)
    return piece.mastery if piece is not None else ""


def bank_rows(versions: Sequence[QuestionVersion], slices: Mapping[str, Slice]) -> list[list[object]]:
    """Header and rows in the bank format; a case's sub-questions follow one CS row with the situation."""
    width = max([len(v.question.options) for v in versions] + [2])
    if width > MAX_BANK_OPTIONS:
        raise ValueError(f"a question has {width} options; the bank format holds at most {MAX_BANK_OPTIONS}")
    header = ["试题名称", "篇", "章", "节", "题干"]
    header += [f"选项{i}" for i in range(1, width + 1)]
    header += ["正确答案", "解析", "考点", "难度值"]
    cases: dict[str, list[QuestionVersion]] = {}
    units: list[list[QuestionVersion]] = []
    for version in versions:
        case = version.question.case
        if not case:
            units.append([version])
        elif case in cases:
            cases[case].append(version)
        else:
            cases[case] = [version]
            units.append(cases[case])
    out: list[list[object]] = [header]
    for unit in units:
        case = unit[0].question.case
        if case:
            part, chapter, section, _ = _levels(unit[0].question)
            out.append([f"{CASE_PREFIX}{unit[0].id:05d}", part, chapter, section, case] + [""] * (width + 4))
        for version in unit:
            out.append(_bank_row(version, width, slices, marked=bool(case)))
    return out


def _bank_row(
    version: QuestionVersion, width: int, slices: Mapping[str, Slice], marked: bool
) -> list[object]:
    question = version.question
    part, chapter, section, point = _levels(question)
    mastery = _mastery(question, slices)
    stem = f"【{TYPE_NAMES[question.qtype]}】{question.stem}" if marked else question.stem
    options = question.options + [""] * (width - len(question.options))
    return [
        f"{NAME_PREFIXES[question.qtype]}{version.id:05d}",
        part,
        chapter,
        section,
        stem,
        *options,
        question.answer_text,
        question.explanation,
        f"{point}（{mastery}）" if point and mastery else point,
        question.difficulty,
    ]


def version_rows(
    rows: Sequence[VersionRow], slices: Mapping[str, Slice], locale: str, tz: tzinfo
) -> list[list[object]]:
    """Header and one row per version in the field's layout, then how the version fared."""
    width = max([len(r.version.question.options) for r in rows] + [FIELD_OPTIONS])
    header = ["题干", *(f"选项{chr(ord('A') + i)}" for i in range(width)), "答案", "题型", "难度", "掌握程度"]
    header += [*KNOWLEDGE_LEVELS, "解析", "切片原文", "案例", "版本", "首次出题", "出题次数"]
    header += ["作答人次", "正确率(%)", "👍", "👎", "报告原因"]
    out: list[list[object]] = [header]
    for row in rows:
        question = row.version.question
        piece = slices.get(question.slice_id)
        reasons = "；".join(
            f"{text(locale, f'reason_{reason}')}×{count}"
            for reason, count in Counter(row.reasons).most_common()
        )
        first = datetime.fromtimestamp(row.delivered.first_at, tz).strftime("%Y-%m-%d %H:%M")
        out.append(
            [
                question.stem,
                *(question.options + [""] * (width - len(question.options))),
                question.answer_text,
                TYPE_NAMES[question.qtype],
                question.difficulty,
                piece.mastery if piece is not None else "",
                *_levels(question),
                question.explanation,
                piece.text if piece is not None else "",
                question.case,
                row.version.label,
                first,
                row.delivered.deliveries,
                row.attempts,
                round(100 * row.correct / row.attempts, 1) if row.attempts else "",
                row.votes.up,
                row.votes.down,
                reasons,
            ]
        )
    return out
