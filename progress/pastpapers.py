"""真题练习: the bank's own past questions, served by chapter and type as the quiz records the bot delivers.

A case (a situation and the sub-questions that depend on it) is one unit: it is served whole and in order,
the situation first, so no sub-question ever reaches a learner without the text it is about. Which units a
chat gets is decided from what the store says it was already shown (questions stored under a `bank-` key),
least shown first, so a chat works through the whole selection before anything comes back, and a restart
changes nothing. Ties are broken by a seeded draw, so two chats, or two rounds of one chat, differ.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from graph.format import MAX_OPTIONS, OPTION_LIMIT, STEM_LIMIT, display_explanation, short_explanation
from progress.difficulty import estimate
from progress.origins import BANK_PREFIX
from retrieval.models import PATH_SEPARATOR, MotherQuestion
from retrieval.sources import Sources
from storage.history import QuestionCount
from storage.questions import QuestionVersion, ServedKey
from storage.store import Store
from vocabulary.kinds import Difficulty, QuizType
from vocabulary.records import GenerationRequest, Question

Chapter = tuple[str, ...]


@dataclass(frozen=True)
class PastQuestion:
    """A past question as the bot delivers it; `key` names it in the store, the same in every chat."""

    mother_id: str
    question: Question

    @property
    def key(self) -> str:
        return f"{BANK_PREFIX}{self.mother_id}"

    def request(self, chat_id: int) -> GenerationRequest:
        """What the store records it under: a thread of its own per chat, never a generation thread."""
        return GenerationRequest(
            chat_id=chat_id,
            question_id=self.key,
            qtype=self.question.qtype,
            chapters=[self.question.chapter] if self.question.chapter else [],
        )


@dataclass(frozen=True)
class PastItem:
    """One step of a round: a question on its own (`case` empty), or a case's situation followed by its
    sub-questions, one poll each, in the paper's order."""

    case: str
    questions: tuple[PastQuestion, ...]


@dataclass(frozen=True)
class Skipped:
    """A bank question that cannot be a quiz poll, and why (so `data check`-style reports can name it)."""

    mother_id: str
    source: str
    reason: str


@dataclass(frozen=True)
class _Unit:
    id: str
    case: str
    questions: tuple[PastQuestion, ...]
    chapter: Chapter | None
    calculation: bool


class NoPastQuestionsError(ValueError):
    """The chosen chapters and type hold no past question."""


def past_question(mother: MotherQuestion) -> PastQuestion:
    """The mother question in the delivered form; raises ValueError naming what does not fit a quiz poll."""
    if len(mother.stem) > STEM_LIMIT:
        raise ValueError(f"stem of {len(mother.stem)} characters is over a poll's {STEM_LIMIT}")
    if len(mother.options) > MAX_OPTIONS:
        raise ValueError(f"{len(mother.options)} options are over a poll's {MAX_OPTIONS}")
    long = next((i for i, option in enumerate(mother.options) if len(option) > OPTION_LIMIT), None)
    if long is not None:
        raise ValueError(f"option {chr(ord('A') + long)} is over a poll's {OPTION_LIMIT} characters")
    chapter = list(mother.kb_chapter or (level for level in (mother.part, mother.chapter) if level))
    levels = [*chapter, *(level for level in (mother.section, mother.point) if level)]
    explanation = display_explanation(mother.explanation, mother.answer, mother.qtype)
    question = Question(
        qtype=mother.qtype,
        stem=mother.stem,
        options=list(mother.options),
        answer=list(mother.answer),
        explanation=explanation,
        short_explanation=short_explanation(explanation),
        difficulty=mother.difficulty if mother.difficulty is not None else 0.5,
        slice_path=PATH_SEPARATOR.join(levels),
        chapter=chapter,
        case=mother.case_text or "",
    )
    return PastQuestion(mother.id, question)


class PastPapers:
    """The bank grouped into units for practice; `skipped` lists what cannot be served, with the reason.

    `calculation_ids`: the questions that carry a recomputable 计算校验, what 仅计算类 serves (a case whole,
    when one of its sub-questions carries one).
    """

    def __init__(self, questions: Iterable[MotherQuestion], calculation_ids: Iterable[str] = ()) -> None:
        calculations = set(calculation_ids)
        self.skipped: list[Skipped] = []
        grouped: dict[str, list[MotherQuestion]] = {}
        for mother in questions:
            grouped.setdefault(mother.case_text or mother.id, []).append(mother)
        self._units: list[_Unit] = []
        for unit_id, mothers in grouped.items():
            served = []
            for mother in mothers:
                try:
                    served.append(past_question(mother))
                except ValueError as exc:
                    self.skipped.append(Skipped(mother.id, mother.source, str(exc)))
            if served:
                self._units.append(
                    _Unit(
                        id=unit_id if mothers[0].case_text is None else f"case-{mothers[0].id}",
                        case=mothers[0].case_text or "",
                        questions=tuple(served),
                        chapter=mothers[0].kb_chapter,
                        calculation=any(m.id in calculations for m in mothers),
                    )
                )

    def count(
        self,
        chapters: set[Chapter] | None,
        qtype: QuizType,
        calculation_only: bool = False,
        difficulty: Difficulty | None = None,
        tallies: Mapping[str, QuestionCount] | None = None,
    ) -> int:
        """How many polls the selection holds: what a settings menu can offer at most (`tallies`: learners'
        first answers by key, as `pick` reads them; without them a level is the bank's own rating)."""
        units = self._select(chapters, qtype, calculation_only, difficulty, tallies or {})
        return sum(len(u.questions) for u in units)

    async def pick(
        self,
        store: Store,
        chat_id: int,
        chapters: set[Chapter] | None,
        qtype: QuizType,
        count: int,
        *,
        calculation_only: bool = False,
        seed: int | str = 0,
        difficulty: Difficulty | None = None,
    ) -> list[PastItem]:
        """Up to `count` polls for the chat's next round, no question twice; a case that does not fit the
        remaining count is cut after its first sub-questions rather than left out.

        `seed` should differ between rounds (a session or round id), so equally fresh units come in
        another order each time. `difficulty` keeps the questions of that level (None: any), judged by
        every learner's first answers once there are enough; a case keeps its situation and only its
        sub-questions of that level.
        """
        tallies = await store.history.first_answer_tallies_by_key(BANK_PREFIX) if difficulty else {}
        units = self._select(chapters, qtype, calculation_only, difficulty, tallies)
        if not units:
            raise NoPastQuestionsError(_empty_message(chapters, qtype, calculation_only, difficulty))
        served = await store.questions.served_keys(chat_id, BANK_PREFIX)
        rng = random.Random(f"{chat_id}/{seed}")
        draw = {unit.id: rng.random() for unit in units}
        units.sort(key=lambda unit: (*_freshness(unit, served), draw[unit.id]))
        items, left = [], count
        for unit in units:
            if left <= 0:
                break
            items.append(PastItem(unit.case, unit.questions[:left]))
            left -= len(items[-1].questions)
        return items

    def _select(
        self,
        chapters: set[Chapter] | None,
        qtype: QuizType,
        calculation_only: bool,
        difficulty: Difficulty | None,
        tallies: Mapping[str, QuestionCount],
    ) -> list[_Unit]:
        """A bank question's level is the paper's own rating (progress.difficulty's author estimate),
        corrected by the first answers in `tallies` under its key, summed over every chat."""
        selected = []
        for unit in self._units:
            if chapters is not None and unit.chapter not in chapters:
                continue
            if calculation_only and not unit.calculation:
                continue
            questions = tuple(
                q
                for q in unit.questions
                if (qtype == "mixed" or q.question.qtype == qtype)
                and (difficulty is None or _level(q, tallies) == difficulty)
            )
            if questions:
                selected.append(_Unit(unit.id, unit.case, questions, unit.chapter, unit.calculation))
        return selected


# The practice units of each bank file this process has served, by (resolved path, modification time):
# grouping and checking every question again for each 真题练习 session would cost each learner the same work.
_BUILT: dict[tuple[Path, int], PastPapers] = {}
_BUILDING = threading.Lock()


def papers_of(bank: Path, sources: Sources) -> PastPapers:
    """The bank's practice units, built on the first call for this file and shared by every later session
    of the process (a PastPapers is never changed once built). `sources` must have been read from `bank`.
    Blocking on first use: call it from a worker thread."""
    key = (bank.resolve(), bank.stat().st_mtime_ns)
    with _BUILDING:
        papers = _BUILT.get(key)
        if papers is None:
            papers = _BUILT[key] = PastPapers(sources.questions, sources.calc_checks)
    return papers


def _level(past: PastQuestion, tallies: Mapping[str, QuestionCount]) -> Difficulty:
    tally = tallies.get(past.key, QuestionCount(0, 0))
    return estimate(past.question.difficulty, tally.answered, tally.correct).level


def _freshness(unit: _Unit, served: Mapping[str, ServedKey]) -> tuple[int, float]:
    """(times shown, when last shown) of the unit's most shown question: never-shown units come first,
    then those shown longest ago."""
    shown = [served[q.key] for q in unit.questions if q.key in served]
    if not shown:
        return (0, 0.0)
    return (max(s.deliveries for s in shown), max(s.last_at for s in shown))


def _empty_message(
    chapters: set[Chapter] | None,
    qtype: QuizType,
    calculation_only: bool,
    difficulty: Difficulty | None = None,
) -> str:
    where = "the bank" if chapters is None else ", ".join(sorted(PATH_SEPARATOR.join(c) for c in chapters))
    kind = "calculation questions" if calculation_only else "questions"
    level = f"{difficulty} " if difficulty else ""
    return f"no past {level}{kind} of type {qtype} in {where}"


async def store_past(
    store: Store,
    chat_id: int,
    past: PastQuestion,
    *,
    session_id: int | None = None,
    round_id: int | None = None,
) -> QuestionVersion:
    """The version to deliver: the one the chat already has for this past question (its latest, so an
    instructor's revision is what comes back), else a first version recorded now. Deliver it and record
    answers with the store's delivery and attempt repositories, as for any generated question."""
    request = past.request(chat_id)
    stored = await store.questions.by_thread(request.thread_id)
    if stored is not None:
        latest = await store.questions.latest(stored.id)
        if latest is not None:
            return latest
    return await store.questions.record(request, past.question, session_id=session_id, round_id=round_id)
