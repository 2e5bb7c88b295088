"""案例题: one transaction told once — the parties and the broker, the house and its figures, the dates, the
contract and what was agreed — then 3–5 sub-questions that each ask one figure of that transaction.

A sub-question states no input of its own ("本案中，周先生应缴纳的契税为"), so it cannot be answered without
the situation; each is written by the calculation recipe on the deal's own inputs (its key and every
distractor recomputed by the real calculator), and is checked as a single question is — the situation and
its stem read together — by the same lint, grounding and stem recomputation the critic runs. A chapter is
asked only the figures its own worked examples compute (see deals.py); one whose examples cannot fill
three sub-questions gets no case.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any, Protocol

import calc
from calc.labels import result_label
from graph.authors.base import AuthorError, Task
from graph.authors.calc_text import TELLINGS, Case
from graph.authors.recipes.base import Brief
from graph.authors.recipes.calculation import case_question, quoted_rates, wrong_answers
from graph.authors.recipes.case.deals import DEALS, Ask, Deal, Party
from graph.authors.recipes.case.leaks import Keep, gives_away, offered, operands, working
from graph.authors.recipes.formula_basis import rule_quoted
from graph.checks import run_checks
from graph.format import (
    ANALYSIS,
    BASIS,
    CONCLUSION,
    OPTION_LIMIT,
    STEM_LIMIT,
    compose_explanation,
    explanation_parts,
    numbers_in,
    same_number,
)
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from graph.schemas import Issue
from graph.stemcalc import check_stem_calculation
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from vocabulary.kinds import Mode, QuestionType
from vocabulary.records import CaseQuestion, Question

_FEWEST, _MOST = 3, 5
_ATTEMPTS = 12


class Library(Protocol):
    """What grounding reads (the generation context has both)."""

    knowledge: Any
    facts: FactBase


def _checked(question: Question, slice_: Slice, library: Library) -> list[Issue]:
    """The critic's deterministic verdict on one question read whole: checks (lint and the key recomputed),
    grounding in the textbook and the figures the stem states recomputed."""

    def recompute(calculation: Any) -> float:
        return float(calc.run(calculation.calculator, calculation.args)[calculation.field])

    issues = run_checks(question, question.qtype, recompute=recompute)
    issues += ground_question(question, slice_, library).issues(strict=True)
    return issues + check_stem_calculation(question, calc.run).issues


def _issues(situation: str, question: Question, library: Library) -> list[Issue]:
    """One sub-question's issues, read with the situation before it."""
    whole = question.model_copy(update={"stem": situation + question.stem})
    issues = _checked(whole, library.knowledge.get(question.slice_id), library)
    if "本案" not in question.stem:
        issues.append(Issue(type="incompleteness", severity="major", detail="小题没有指向案例情景"))
    # the situation goes first as a message, so the sub-question alone must fit Telegram's poll
    if len(question.stem) > STEM_LIMIT or any(len(o) > OPTION_LIMIT for o in question.options):
        issues.append(Issue(type="format_error", severity="major", detail="小题超出投票的字数限制"))
    return issues


def check_case(case: CaseQuestion, library: Library) -> list[list[Issue]]:
    """Each sub-question's issues, read with the situation as a single question is; plus a sub-question
    that does not point to the situation, or that a poll cannot carry."""
    return [_issues(case.situation, question, library) for question in case.questions]


def _examples(library: Library, chapter: tuple[str, ...]) -> dict[str, list[Fact]]:
    """The chapter's worked examples of each calculator that has a telling."""
    examples: dict[str, list[Fact]] = {}
    for fact in sorted(library.facts.of_chapter(chapter, "example"), key=lambda f: f.id):
        if fact.calculator in TELLINGS:
            examples.setdefault(fact.calculator, []).append(fact)
    return examples


def _example_for(examples: dict[str, list[Fact]], calculator: str, field: str, inputs: Case) -> Fact:
    """The example the explanation quotes: one that works out the asked figure, told with the same inputs
    as the case (核定 or 差额, a share or a sum), so its formula is the one the case applies."""

    def likeness(fact: Fact) -> tuple[bool, int]:
        return field in fact.expected, -len(set(fact.args) ^ set(inputs.args))

    return max(examples[calculator], key=likeness)


@dataclass(frozen=True)
class _Asking:
    """One case being assembled: its deal, people and situation, and what the sub-questions draw on."""

    kind: Deal
    deal: Case
    party: Party
    situation: str
    library: Library
    mode: Mode
    rng: random.Random
    keys: tuple[tuple[Ask, float], ...]  # every figure the case asks


def _figure(kind: Deal, deal: Case, calculator: str, field: str) -> float | None:
    try:
        return float(calc.run(calculator, kind.inputs(calculator, deal).args)[field])
    except calc.CalcError:
        return None


def _misleads(asking: _Asking, key: float, stated: list[float]) -> bool:
    """A false judgement misleads when the situation shows its key (a reader takes that figure for the
    answer) or it states what another sub-question asks (each would give the other away)."""
    if any(same_number(number, key) for number in numbers_in(asking.situation)):
        return True
    return any(same_number(number, other) for number in stated for _, other in asking.keys)


def _sub_question(
    asking: _Asking, fact: Fact, field: str, qtype: QuestionType, keep: Keep
) -> Question | None:
    """The calculation recipe's question on the deal's inputs, its story taken out: None when the figure has
    too few real mistakes for the type once those `keep` rules out are gone. A judgement that would mislead
    as a false one (see `_misleads`) is written as a true one."""
    telling = TELLINGS[fact.calculator]
    inputs = asking.kind.inputs(fact.calculator, asking.deal)
    slice_ = asking.library.knowledge.get(fact.slice_id)
    key = _figure(asking.kind, asking.deal, fact.calculator, field)
    if key is None:
        return None
    more = asking.kind.mistakes(fact.calculator, field, asking.deal)
    wrongs = wrong_answers(telling, inputs, field, key, quoted_rates(slice_, telling.quoted_about), more)
    wrongs = keep.kept(wrongs)
    if len(wrongs) < (3 if qtype == "single" else 1):
        return None
    task = Task(slice=slice_, qtype=qtype, mode=asking.mode, seed=0, facts=asking.library.facts)
    brief = Brief(task=task, facts=asking.library.facts, rng=asking.rng)
    story = telling.story(inputs, asking.party.names, field)
    written = case_question(fact, brief, inputs, field, wrongs, None, asking.party.names)
    false_judge = written is not None and written.qtype == "judge" and written.draft.answer == "B"
    if false_judge and _misleads(asking, key, numbers_in(written.draft.stem.removeprefix(story))):
        written = case_question(fact, brief, inputs, field, wrongs, True, asking.party.names)
    if written is None or not written.draft.stem.startswith(story) or written.calculation is None:
        return None
    rest = written.draft.stem.removeprefix(story)
    asked = "本案中，" + asking.kind.lead(fact.calculator) + rest
    parts = explanation_parts(written.draft.explanation)
    analysis = asking.kind.derived(fact.calculator, asking.deal) + parts.get(ANALYSIS, "")
    label = result_label(fact.calculator, field)[0]
    key_working = analysis.split("选项", 1)[0]  # the distractors' notes tell other rules
    basis = rule_quoted(label, asked, asking.situation + key_working, slice_, asking.library.knowledge.slices)
    basis = basis or parts.get(BASIS, "")
    explanation = compose_explanation(basis, analysis, parts.get(CONCLUSION, ""))
    draft = written.draft.model_copy(update={"stem": asked, "explanation": explanation})
    authored = {
        "draft": draft.model_dump(),
        "qtype": written.qtype,
        "calculation": written.calculation.model_dump(),
        "fact_ids": written.fact_ids,
    }
    return write_question(authored, slice_, asking.mode)


def _told_already(question: Question, asked: list[Question]) -> bool:
    """A nil figure of a calculator another sub-question already found nil (no VAT, so no surcharges)
    asks nothing new."""
    mine = question.calculation
    return (
        mine is not None
        and not mine.value
        and any(
            q.calculation and q.calculation.calculator == mine.calculator and not q.calculation.value
            for q in asked
        )
    )


def _analysis_figures(question: Question) -> list[float]:
    return numbers_in(explanation_parts(question.explanation).get(ANALYSIS, ""))


def _entangled(judged: Question, other: Question, situation: str) -> bool:
    """A judgement states its figure, and a reader takes it for true: it gives another sub-question away
    when the two share a key, when its own working passes through the other's key (附加税费 stated gives
    the VAT back) or through a sum the other needs and the situation does not state (a stated 核定 income
    tax gives the price net of VAT back), or when the other's working passes through its figure (a stated
    nil VAT settles every option of the total). Rates and years are no such sums."""
    mine, theirs = judged.calculation, other.calculation
    if mine is None or theirs is None:
        return False
    given = [g * scale for g in numbers_in(situation) for scale in (1, 10_000)]  # 万元 as 元
    steps = [f for f in _analysis_figures(judged) if f >= 100 and not any(same_number(f, g) for g in given)]
    return (
        same_number(mine.value, theirs.value)
        or any(same_number(figure, theirs.value) for figure in _analysis_figures(judged))
        or any(same_number(figure, mine.value) for figure in _analysis_figures(other))
        or any(same_number(step, figure) for step in steps for figure in _analysis_figures(other))
    )


def _untangled(questions: list[Question], situation: str) -> list[Question]:
    """The sub-questions without a judgement that gives another away."""
    return [
        question
        for question in questions
        if question.qtype != "judge"
        or not any(_entangled(question, o, situation) for o in questions if o is not question)
    ]


def _keep(asking: _Asking, ask: Ask, written: list[Question]) -> Keep:
    """What the sub-question asking `ask` must not offer: the case's other keys, and the workings and
    offers of the other sub-questions written so far."""
    others = [q for q in written if q.calculation and (q.calculation.calculator, q.calculation.field) != ask]
    keys = tuple(key for other, key in asking.keys if other != ask)
    sums = tuple(
        dict.fromkeys(
            f
            for q in others
            for f in working(q, asking.situation)
            if not any(same_number(f, v) for v in offered(q))
        )
    )
    offers = tuple(v for q in others for v in offered(q))
    return Keep(keys, sums, offers, operands(asking.situation))


def _write(asking: _Asking, ask: Ask, examples: dict[str, list[Fact]], keep: Keep) -> Question | None:
    """A single choice on the asked figure, or a judgement when it has too few mistakes left for four
    options or its single fails the critic's checks; None when neither can be asked."""
    calculator, field = ask
    fact = _example_for(examples, calculator, field, asking.kind.inputs(calculator, asking.deal))
    for qtype in ("single", "judge"):
        question = _sub_question(asking, fact, field, qtype, keep)
        if question is not None and not _issues(asking.situation, question, asking.library):
            return question
    return None


def _asked(question: Question) -> Ask:
    calculation = question.calculation
    assert calculation is not None
    return calculation.calculator, calculation.field


def _apart(asking: _Asking, questions: list[Question], examples: dict[str, list[Fact]]) -> list[Question]:
    """The sub-questions with none giving another away (see leaks.py): one written before the figures it
    leaks into were known is written again knowing them, and left out when it still leaks; of two with one
    key the later goes."""
    kept = list(questions)
    for question in reversed(questions):
        others = [o for o in kept if o is not question]
        if not any(gives_away(question, o, asking.situation) for o in others):
            continue
        again = _write(asking, _asked(question), examples, _keep(asking, _asked(question), others))
        index = kept.index(question)
        if again is not None and not any(
            gives_away(again, o, asking.situation) or gives_away(o, again, asking.situation) for o in others
        ):
            kept[index] = again
        else:
            del kept[index]
    return kept


def _assemble(asking: _Asking, asks: list[Ask], examples: dict[str, list[Fact]]) -> CaseQuestion | None:
    """Single-choice sub-questions; a figure with too few real mistakes for four options, or whose single
    fails the critic's checks, is asked as a judgement unless that gives another sub-question away, and one
    that cannot be asked either way, tells nothing new or cannot be kept from answering another is left
    out. None when fewer than three remain."""
    questions: list[Question] = []
    for ask in asks:
        question = _write(asking, ask, examples, _keep(asking, ask, questions))
        if question is not None and not _told_already(question, questions):
            questions.append(question)
    questions = _untangled(_apart(asking, questions, examples), asking.situation)
    if len(questions) < _FEWEST:
        return None
    chapter = list(questions[0].chapter)
    return CaseQuestion(situation=asking.situation, questions=questions, mode=asking.mode, chapter=chapter)


def _judged(case: CaseQuestion) -> int:
    return sum(question.qtype == "judge" for question in case.questions)


def _deals(library: Library, chapter: tuple[str, ...]) -> list[tuple[Deal, dict[str, list[Fact]], list[Ask]]]:
    """The deals the chapter's worked examples can tell, each with those examples and the figures it can
    ask of them: at least three."""
    chapter_examples = _examples(library, chapter)
    found = []
    for kind in DEALS:
        examples = {
            calculator: told
            for calculator, facts in chapter_examples.items()
            if (told := [fact for fact in facts if kind.tells(fact)])
        }
        asks = [ask for ask in kind.asks if ask[0] in examples][:_MOST]
        if len(asks) >= _FEWEST:
            found.append((kind, examples, asks))
    return found


def can_carry(library: Library, chapter: tuple[str, ...]) -> bool:
    """Whether a case on `chapter` may be asked for: its worked examples can fill one deal's sub-questions
    (the bot offers 案例题 only then; `write_case` may still decline when no deal it draws passes)."""
    return bool(_deals(library, chapter))


def compose_case(library: Library, chapter: tuple[str, ...], mode: Mode, seed: int) -> CaseQuestion | None:
    """A case on `chapter`, or None when its worked examples cannot fill three sub-questions of one deal.
    A deal whose figures leave several sub-questions to judgements (a tax the sale is exempt from has one
    mistake, not three) gives way to another with more single choices when one turns up. Same seed, same
    case."""
    rng = random.Random(f"case|{seed}|{'/'.join(chapter)}|{mode}")
    today = dt.date.today()
    best: CaseQuestion | None = None
    for kind, examples, asks in _deals(library, chapter):
        own = {calculator: facts[0] for calculator, facts in examples.items()}
        for _ in range(_ATTEMPTS):
            asked = kind.chosen(asks, rng)
            deal = kind.make(own, rng, today)
            if deal is None:
                break
            party = Party.drawn(rng, mode)
            keys = tuple(((c, f), k) for c, f in asked if (k := _figure(kind, deal, c, f)) is not None)
            asking = _Asking(kind, deal, party, kind.situation(deal, party, rng), library, mode, rng, keys)
            case = _assemble(asking, asked, examples)
            if case is not None and (best is None or _judged(case) < _judged(best)):
                best = case
            if best is not None and _judged(best) <= 1:
                return best
    return best


def write_case(library: Library, chapter: tuple[str, ...], mode: Mode, seed: int) -> CaseQuestion:
    """What the bot calls for a 案例题: the case, or an AuthorError naming a chapter that cannot carry one."""
    case = compose_case(library, chapter, mode, seed)
    if case is None:
        raise AuthorError(f"“{chapter[-1] if chapter else '全部章节'}”中没有足够的计算例题写成案例题")
    return case
