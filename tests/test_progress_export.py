"""The instructor's export: the delivered questions of a period as a workbook that loads back as a bank."""

from __future__ import annotations

import io
import json
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook

from bot.cli import main
from engines.i18n import text
from progress.export import (
    BANK_SHEET,
    VERSION_SHEET,
    PeriodError,
    export_delivered,
    parse_period,
)
from progress.pastpapers import PastPapers, store_past
from retrieval.bank import load_bank
from retrieval.models import Slice
from retrieval.sources import Sources, load_sources
from storage import Store
from storage.feedback import DOWN, UP
from storage.questions import QuestionVersion
from storage.quiz_settings import QuizSettings
from tests.conftest import ROOT
from tests.test_storage_support import Clock, deed_tax_question, deliver, vat_question
from vocabulary.records import GenerationRequest, Question

SHANGHAI = ZoneInfo("Asia/Shanghai")
DAY = 86400.0
TEACHER, LEARNERS = 7, (21, 22, 23)
GROUP, OTHER_GROUP = -100, -200
# The clock starts on Monday 2026-03-02 10:00 in Shanghai.
MARCH = parse_period("2026-03-01 2026-03-31", SHANGHAI)
FIELD_HEADER = [
    "题干",
    "选项A",
    "选项B",
    "选项C",
    "选项D",
    "选项E",
    "答案",
    "题型",
    "难度",
    "掌握程度",
    "一级知识点",
    "二级知识点",
    "三级知识点",
    "四级知识点",
    "解析",
    "切片原文",
]


def deed_slice(sources: Sources) -> Slice:
    return next(s for s in sources.slices if "契税" in s.path_text and len(s.path) == 4)


def judge_question(slice_: Slice) -> Question:
    return Question(
        qtype="judge",
        stem="个人购买家庭唯一住房，契税由卖方缴纳（　）",
        options=["正确", "错误"],
        answer=["B"],
        explanation="1、教材原文：契税由承受方缴纳。\n2、试题分析：买方是承受方。\n3、结论：该说法错误。",
        difficulty=0.3,
        slice_id=slice_.id,
        slice_path=slice_.path_text,
        chapter=list(slice_.chapter),
    )


async def record(store: Store, chat_id: int, key: str, question: Question) -> QuestionVersion:
    return await store.questions.record(
        GenerationRequest(chat_id=chat_id, question_id=key, qtype=question.qtype), question
    )


async def answer(store: Store, delivery_id: int, user_id: int, option_ids: list[int]) -> None:
    await store.attempts.record(delivery_id, user_id, option_ids)


class Scene:
    """Questions delivered to the teacher's own chat and to a group whose round the teacher started."""

    def __init__(self, store: Store, clock: Clock, sources: Sources) -> None:
        self.store, self.clock, self.sources = store, clock, sources

    async def build(self) -> None:
        store, slice_ = self.store, deed_slice(self.sources)
        await store.users.upsert(TEACHER, "老师")
        for user_id in LEARNERS:
            await store.users.upsert(user_id, f"学员{user_id}")
        await store.chats.upsert(TEACHER, "private")
        await store.chats.upsert(GROUP, "group", "备考群")
        await store.chats.upsert(OTHER_GROUP, "group", "别人的群")
        game = await store.rounds.create(GROUP, TEACHER, QuizSettings(count=3))
        other = await store.rounds.create(OTHER_GROUP, LEARNERS[0], QuizSettings(count=1))

        deed = deed_tax_question().model_copy(
            update={"slice_id": slice_.id, "slice_path": slice_.path_text, "chapter": list(slice_.chapter)}
        )
        self.deed_v1 = await record(store, GROUP, "q1", deed)
        posted = await deliver(store, self.deed_v1.id, GROUP, "p1", round_id=game.id)
        await answer(store, posted.id, 21, [1])
        await answer(store, posted.id, 22, [0])
        await answer(store, posted.id, 23, [0])
        await store.votes.record(21, self.deed_v1.id, UP)
        await store.votes.record(22, self.deed_v1.id, DOWN)
        await store.votes.record(23, self.deed_v1.id, DOWN)
        await store.reports.create(self.deed_v1.id, 22, "answer_wrong")
        await store.reports.create(self.deed_v1.id, 23, "answer_wrong")
        # The teacher's revision of it, posted a day later: the bank sheet keeps only this one.
        self.clock.advance(DAY)
        revised = deed.model_copy(update={"explanation": "教材依据：首套住房140㎡及以下按1%。结论：选B。"})
        self.deed_v2 = await store.questions.add_version(self.deed_v1.question_id, revised)
        again = await deliver(store, self.deed_v2.id, GROUP, "p2", round_id=game.id)
        await answer(store, again.id, 22, [1])

        vat_slice = next(s for s in self.sources.slices if "增值税" in s.path_text and len(s.path) == 4)
        vat = vat_question().model_copy(
            update={
                "slice_id": vat_slice.id,
                "slice_path": vat_slice.path_text,
                "chapter": list(vat_slice.chapter),
            }
        )
        self.vat = await record(store, GROUP, "q2", vat)
        await deliver(store, self.vat.id, GROUP, "p3", round_id=game.id)
        self.judge = await record(store, TEACHER, "q3", judge_question(slice_))
        await deliver(store, self.judge.id, TEACHER, "p4", kind="private")

        # Past-paper practice in the teacher's chat: a case with its sub-questions.
        papers = PastPapers(self.sources.questions)
        case_chapter = next(q.kb_chapter for q in self.sources.questions if q.case_text)
        items = await papers.pick(store, TEACHER, {case_chapter}, "mixed", 10, seed=1)
        self.case_item = next(item for item in items if item.case)
        self.past: list[QuestionVersion] = []
        for n, past in enumerate(self.case_item.questions):
            version = await store_past(store, TEACHER, past)
            await deliver(store, version.id, TEACHER, f"case{n}", kind="private")
            self.past.append(version)
        # The same past question practised in the group too: stored again there, one question of the bank.
        in_group = await store_past(store, GROUP, self.case_item.questions[0])
        await deliver(store, in_group.id, GROUP, "case-group", round_id=game.id)

        # Outside what the teacher's March export covers: another teacher's group, and April.
        stranger = await record(store, OTHER_GROUP, "q4", deed_tax_question("（别的群）"))
        await deliver(store, stranger.id, OTHER_GROUP, "p5", round_id=other.id)
        self.clock.now = parse_period("2026-04-01", SHANGHAI).since + 3600
        april = await record(store, GROUP, "q5", deed_tax_question("（四月）"))
        await deliver(store, april.id, GROUP, "p6", round_id=game.id)

    @property
    def exported_latest(self) -> list[QuestionVersion]:
        return [self.deed_v2, self.vat, self.judge, *self.past]


@pytest.fixture
async def scene(store: Store, clock: Clock, sample_sources: Sources) -> Scene:
    built = Scene(store, clock, sample_sources)
    await built.build()
    return built


async def test_export_covers_the_teachers_chats_and_reimports_as_the_same_questions(
    scene: Scene, store: Store, sample_sources: Sources, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    chats = await store.deliveries.instructor_chats(TEACHER)
    assert chats == [GROUP, TEACHER]
    slices = {s.id: s for s in sample_sources.slices}
    exported = await export_delivered(store, chats, MARCH, slices, tz=SHANGHAI)
    assert exported.filename == "examforge-2026-03-01-2026-03-31.xlsx"
    assert (exported.questions, exported.versions) == (3 + len(scene.past), 5 + len(scene.past))
    path = tmp_path / exported.filename
    path.write_bytes(exported.content)

    bank = load_bank(path)
    assert bank.problems == []
    assert bank.case_stems == 1

    def shown(q: Question) -> tuple[object, ...]:
        return (q.case or None, q.qtype, q.stem, tuple(q.options), q.answer_text, q.explanation)

    reimported = {(m.case_text, m.qtype, m.stem, m.options, m.answer, m.explanation) for m in bank.questions}
    assert reimported == {shown(v.question) for v in scene.exported_latest}
    assert scene.case_item.case in {m.case_text for m in bank.questions}

    # Loaded as the bot loads a bank, every question lands in its textbook chapter again.
    loaded = load_sources(ROOT / "data" / "knowledge_base.jsonl", path)
    chapters = {m.stem: m.kb_chapter for m in loaded.questions}
    assert [chapters[v.question.stem] for v in scene.exported_latest] == [
        tuple(v.question.chapter) for v in scene.exported_latest
    ]
    assert chapters[scene.deed_v2.question.stem] == deed_slice(sample_sources).chapter
    mastery = {m.stem: m.mastery for m in loaded.questions}
    assert mastery[scene.judge.question.stem] == deed_slice(sample_sources).mastery

    kb = str(ROOT / "data" / "knowledge_base.jsonl")
    assert main(["data", "check", "--kb", kb, "--bank", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bank"]["questions"] == len(scene.exported_latest)
    assert [p for p in report["problems"] if Path(p["file"]).name == path.name] == []


async def test_statistics_sheet_has_one_row_per_version_in_the_field_layout(
    scene: Scene, store: Store, sample_sources: Sources
) -> None:
    slices = {s.id: s for s in sample_sources.slices}
    exported = await export_delivered(store, [GROUP, TEACHER], MARCH, slices, tz=SHANGHAI)
    workbook = load_workbook(io.BytesIO(exported.content))
    assert workbook.sheetnames == [BANK_SHEET, VERSION_SHEET]
    rows = list(workbook[VERSION_SHEET].values)
    header = list(rows[0])
    assert header[: len(FIELD_HEADER)] == FIELD_HEADER
    table = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    assert len(table) == exported.versions

    def row_of(stem: str, label: str) -> dict[str, object]:
        (found,) = [row for row in table if (row["题干"], row["版本"]) == (stem, label)]
        return found

    stem = scene.deed_v1.question.stem
    first, second = row_of(stem, "v1"), row_of(stem, "v2")
    piece = deed_slice(sample_sources)
    assert (first["作答人次"], first["正确率(%)"], first["👍"], first["👎"]) == (3, 33.3, 1, 2)
    assert first["报告原因"] == f"{text('zh', 'reason_answer_wrong')}×2"
    assert (first["答案"], first["题型"], first["掌握程度"], first["切片原文"]) == (
        "B",
        "单选题",
        piece.mastery,
        piece.text,
    )
    assert [first[level] for level in ("一级知识点", "二级知识点", "三级知识点", "四级知识点")] == list(
        piece.path
    )
    assert first["首次出题"] == "2026-03-02 10:00"
    assert (second["作答人次"], second["正确率(%)"], second["👎"], second["报告原因"]) == (1, 100.0, 0, None)

    unanswered = row_of(scene.vat.question.stem, "v1")
    assert (unanswered["作答人次"], unanswered["正确率(%)"]) == (0, None)
    case_rows = [row for row in table if row["案例"]]
    assert len(case_rows) == len(scene.past) + 1
    assert {row["案例"] for row in case_rows} == {scene.case_item.case}


async def test_text_starting_like_a_formula_is_exported_as_text(store: Store, clock: Clock) -> None:
    await store.chats.upsert(TEACHER, "private")
    question = deed_tax_question().model_copy(update={"stem": '=HYPERLINK("http://x")契税税率为（　）'})
    version = await record(store, TEACHER, "q1", question)
    await deliver(store, version.id, TEACHER, "p1", kind="private")
    exported = await export_delivered(store, [TEACHER], MARCH, {})
    workbook = load_workbook(io.BytesIO(exported.content))
    cell = workbook[BANK_SHEET]["E2"]
    assert (cell.value, cell.data_type) == (question.stem, "s")


def test_period_reads_days_in_the_teachers_time_zone() -> None:
    period = parse_period(" 2026-03-01 ～ 2026-03-02 ", SHANGHAI)
    assert (period.first, period.last) == (date(2026, 3, 1), date(2026, 3, 2))
    assert period.until - period.since == 2 * DAY
    assert period.since == 1772294400.0  # 2026-03-01 00:00 in Shanghai
    assert parse_period("2026-03-05").first == parse_period("2026-03-05").last


@pytest.mark.parametrize(
    ("typed", "key", "named"),
    [
        ("三月", "export_period_format", "三月"),
        ("2026-02-30", "export_period_format", "2026-02-30"),
        ("2026-03-01 2026-03-02 2026-03-03", "export_period_format", "2026-03-03"),
        ("2026-03-31 2026-03-01", "export_period_order", "2026-03-01"),
        ("2024-01-01 2026-01-01", "export_period_long", "366"),
    ],
)
def test_a_bad_period_gets_a_message_naming_what_was_wrong(typed: str, key: str, named: str) -> None:
    with pytest.raises(PeriodError) as caught:
        parse_period(typed)
    assert caught.value.key == key
    for locale in ("zh", "en"):
        assert named in text(locale, key, **caught.value.values)
