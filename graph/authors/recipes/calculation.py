"""Worked example → recomputed variant: the textbook's example told again with new realistic figures, its key
computed by the calculator, and every distractor the calculator's result for one real mistake.

The stem states every input the answer depends on as a situation (who already owns a home, how long the
seller held it, which price was signed) and never the rule or category that decides it. A fact whose
calculator has no telling, or whose variant yields fewer real mistakes than a question needs, is declined.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any

import calc
from calc.labels import result_label
from graph.authors import scenes
from graph.authors.calc_text import TELLINGS, Case, Mistake, Names, Telling, lender, option_texts
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.formula_basis import formula_quoted
from graph.format import JUDGE_OPTIONS, LETTERS, compose_explanation, numbers_in, same_number
from graph.schemas import Draft
from retrieval.compiler.quantities import find_quantities
from retrieval.facts import Fact, FactBase, FactKind
from retrieval.models import Slice
from vocabulary.kinds import QuestionType
from vocabulary.records import Calculation

_ATTEMPTS = 20
_CHOICES = 3
# Results that say which rule applied: a variant keeps them, or it would ask another rule than the example.
_BRANCH_FIELDS = ("rate", "method", "binding_rule", "total_years")
# A distractor at one of these multiples of the key reads as an arithmetic slip, not a mistake of the subject.
_SLIPS = (2.0, 0.5, 10.0, 0.1)


@dataclass(frozen=True)
class Wrong:
    value: float
    why: str


def _numeric(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _branch(result: dict[str, Any], asked: str) -> tuple[Any, ...]:
    return tuple(result.get(name) for name in _BRANCH_FIELDS if name != asked)


def asked_field(telling: Telling, fact: Fact, slice_: Slice) -> str:
    """The figure the example is about: of the results it states, the one the section's title names (the
    longest label wins), else the telling's preferred one."""
    stated = [f for f in telling.fields if f in fact.expected] or list(telling.fields)
    named = [
        (len(label), f)
        for f in stated
        if (label := result_label(telling.calculator, f)[0].removeprefix("应纳").removeprefix("应缴"))
        and label in slice_.title
    ]
    return max(named)[1] if named else stated[0]


def quoted_rates(slice_: Slice, about: tuple[str, ...] = ()) -> tuple[float, ...]:
    """Percentages the section quotes: the sibling rates and ratios a reader may confuse; with `about`,
    only those of sentences speaking of it (a down payment's 25%, not the 50% of a repayment-to-income
    limit in the same section)."""
    text = "\n".join((slice_.text, *slice_.tables))
    if about:
        text = "\n".join(s for s in re.split(r"[。\n]", text) if any(word in s for word in about))
    found = {round(q.value / 100, 6) for q in find_quantities(text) if q.unit == "%"}
    return tuple(sorted(found))


def _outcome(calculator: str, args: dict[str, Any], field: str) -> float | None:
    try:
        return _numeric(calc.run(calculator, args).get(field))
    except calc.CalcError:
        return None


def wrong_answers(
    telling: Telling,
    case: Case,
    field: str,
    key: float,
    quoted: tuple[float, ...],
    more: tuple[Mistake, ...] = (),
) -> list[Wrong]:
    """Each mistake's recomputed result, in the telling's order and then `more` (what a case's own story
    invites, worded as that story tells it when the telling found the same figure), without repeats,
    negatives, the key itself or anything that reads as a slip of the key (×2, ÷2, ×10)."""
    found: list[Wrong] = []
    for mistake in (*telling.mistakes(case, field, quoted), *more):
        value = _mistaken(telling, mistake, field)
        if value is None or value < 0 or same_number(value, key):
            continue
        if any(same_number(value, key * factor) for factor in _SLIPS):
            continue
        same = [index for index, seen in enumerate(found) if same_number(value, seen.value)]
        if not same:
            found.append(Wrong(value, mistake.why))
        elif mistake in more:
            found[same[0]] = Wrong(value, mistake.why)
    return found


def _mistaken(telling: Telling, mistake: Mistake, field: str) -> float | None:
    return _outcome(mistake.calculator or telling.calculator, mistake.args, mistake.field or field)


def _names(brief: Brief) -> Names:
    """Plain 周某 names in 严谨 questions, 周先生 / 李女士 in 灵活 ones; buyer and seller never share one."""
    pick = scenes.person if brief.task.mode == "flexible" else scenes.plain_name
    buyer = pick(brief.rng)
    return Names(buyer=buyer, seller=pick(brief.rng, {buyer}), flexible=brief.task.mode == "flexible")


def _basis(asked: _Asked, facts: FactBase, slice_: Slice) -> str:
    """The textbook's formula for the figure asked, as the case's date and kind select it ("2026年起增值税 =
    成交价 ÷ 1.03 × 3%" for a 2026 sale, not the surcharge formula of the same section), sought among the
    book's formula statements; the worked example when the textbook has no such formula."""
    shelves: dict[str, list[str]] = {slice_.id: []}
    for fact in facts:
        if fact.kind == "statement" and "=" in fact.source:
            shelves.setdefault(fact.slice_id, []).append(fact.source.strip().rstrip("。"))
    label = result_label(asked.telling.calculator, asked.field)[0]
    told = f"{asked.story}{asked.working}"
    found = formula_quoted(label, asked.ask, told, None, [(id_, None, f) for id_, f in shelves.items()])
    return found or asked.fact.source


def calculation_question(
    fact: Fact, brief: Brief, *, field: str | None = None, truth: bool | None = None
) -> Written | None:
    """A recomputed variant of the worked example `fact`, asking `field` (default: the figure the example is
    about); a judge states the key when `truth`, a mistake's result when not, either at random when None."""
    telling = TELLINGS.get(fact.calculator)
    qtype = brief.task.qtype
    if telling is None or fact.kind != "example" or qtype not in CalculationRecipe.qtypes:
        return None
    try:
        original = calc.run(fact.calculator, fact.args)
    except calc.CalcError:
        return None
    slice_ = brief.task.slice
    field = field or asked_field(telling, fact, slice_)
    if field not in telling.fields:
        return None
    quoted = quoted_rates(slice_, telling.quoted_about)
    names = _names(brief)
    flexible = brief.task.mode == "flexible"
    needed = _CHOICES if qtype == "single" else 1
    today = dt.date.today()
    for _ in range(_ATTEMPTS):
        case = telling.vary(dict(fact.args), brief.rng, today)
        if case is None or (flexible and not telling.decides(case)):
            return None  # a 灵活 request goes to a recipe that can tell a case, not to a renamed frame
        if "annual_rate" in case.args:
            case.extras.setdefault("lender", lender(fact.source))
        try:
            result = calc.run(telling.calculator, case.args)
        except calc.CalcError:
            continue
        key = _numeric(result.get(field))
        if key is None or _branch(result, field) != _branch(original, field):
            continue
        wrongs = wrong_answers(telling, case, field, key, quoted)
        if len(wrongs) < needed:
            continue
        asked = _Asked(telling, case, result, field, key, names, fact)
        written = _single(asked, wrongs, brief) if qtype == "single" else _judge(asked, wrongs, truth, brief)
        if written is not None:
            return written
    return None


def case_question(
    fact: Fact,
    brief: Brief,
    case: Case,
    field: str,
    wrongs: list[Wrong],
    truth: bool | None = None,
    names: Names | None = None,
) -> Written | None:
    """The question for a case chosen by the caller (a revision's inputs, a 案例题's deal, whose parties
    are `names`) with the distractors it picked from `wrong_answers`; None when the calculator refuses the
    case or the options would not read apart."""
    telling = TELLINGS.get(fact.calculator)
    if telling is None or field not in telling.fields:
        return None
    try:
        result = calc.run(telling.calculator, case.args)
    except calc.CalcError:
        return None
    key = _numeric(result.get(field))
    if key is None:
        return None
    asked = _Asked(telling, case, result, field, key, names or _names(brief), fact)
    single = brief.task.qtype == "single"
    return _single(asked, wrongs, brief) if single else _judge(asked, wrongs, truth, brief)


class CalculationRecipe:
    name = "calculation"
    kinds: tuple[FactKind, ...] = ("example",)
    qtypes: tuple[QuestionType, ...] = ("single", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        return calculation_question(fact, brief)


@dataclass(frozen=True)
class _Asked:
    """One variant being written: its telling, inputs, results and the figure asked."""

    telling: Telling
    case: Case
    result: dict[str, Any]
    field: str
    key: float
    names: Names
    fact: Fact

    @property
    def story(self) -> str:
        return self.telling.story(self.case, self.names, self.field)

    @property
    def ask(self) -> str:
        return self.telling.ask(self.case, self.names, self.field)

    @property
    def working(self) -> str:
        first = self.telling.first_step(self.case, self.names, self.field)
        return first + self.telling.working(self.case, self.result, self.field)

    @property
    def unit(self) -> str:
        return result_label(self.telling.calculator, self.field)[1]

    @property
    def calculation(self) -> Calculation:
        return Calculation(
            calculator=self.telling.calculator, args=dict(self.case.args), field=self.field, value=self.key
        )


def _single(asked: _Asked, wrongs: list[Wrong], brief: Brief) -> Written | None:
    picked = wrongs[:_CHOICES]
    texts = option_texts([asked.key, *(w.value for w in picked)], asked.unit)
    if len(set(texts)) < len(texts):
        return None
    entries: list[tuple[str, Wrong | None]] = [(texts[0], None), *zip(texts[1:], picked, strict=True)]
    brief.rng.shuffle(entries)
    letter = LETTERS[[wrong for _, wrong in entries].index(None)]
    notes = "；".join(
        f"选项{LETTERS[index]}（{text}）是{wrong.why}的结果"
        for index, (text, wrong) in enumerate(entries)
        if wrong is not None
    )
    draft = Draft(
        stem=f"{asked.story}{asked.ask}（　）",
        options=[text for text, _ in entries],
        answer=letter,
        explanation=compose_explanation(
            _basis(asked, brief.facts, brief.task.slice), f"{asked.working}。{notes}。", f"本题选{letter}。"
        ),
        difficulty=0.6 if brief.task.mode == "flexible" else 0.5,
        sources=[asked.fact.source],
    )
    return Written(draft=draft, qtype="single", fact_ids=[asked.fact.id], calculation=asked.calculation)


def _judge(asked: _Asked, wrongs: list[Wrong], truth: bool | None, brief: Brief) -> Written | None:
    """States the key or one mistake's result. A false statement is only written when no figure of the
    stem happens to equal the key (a reader, and the critic, would take that figure for the result), and
    never says nothing is owed ("增值税为0元"): with the case's facts in view that is false at a glance,
    while as an option beside others it stays a fair trap."""
    if truth is None:
        truth = brief.rng.random() < 0.5
    owed = [w for w in wrongs if w.value != 0]
    if not truth and not owed:
        return None
    wrong = None if truth else brief.rng.choice(owed)
    if wrong is not None and any(same_number(n, asked.key) for n in numbers_in(asked.story + asked.ask)):
        return None
    right_text, wrong_text = option_texts([asked.key, wrong.value if wrong else asked.key], asked.unit)
    stated = wrong_text if wrong else right_text
    if wrong is None:
        analysis, conclusion = f"{asked.working}，与题干所述一致。", "说法正确，本题选A。"
    else:
        analysis = f"{asked.working}。题干中的{stated}是{wrong.why}的结果。"
        conclusion = "说法错误，本题选B。"
    draft = Draft(
        stem=f"{asked.story}{asked.ask}{stated}。（　）",
        options=list(JUDGE_OPTIONS),
        answer="B" if wrong else "A",
        explanation=compose_explanation(_basis(asked, brief.facts, brief.task.slice), analysis, conclusion),
        difficulty=0.55 if brief.task.mode == "flexible" else 0.45,
        sources=[asked.fact.source],
    )
    return Written(draft=draft, qtype="judge", fact_ids=[asked.fact.id], calculation=asked.calculation)
