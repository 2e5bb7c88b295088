"""How the offline author answers a human complaint: it changes the part complained about and honours the
comment's concrete request (a number, a condition) when the question can carry it, and says plainly what
it could not do and why — the instructor reads those notes beside the preview of the revision.

A calculation is told again with the requested figure as its input, its key recomputed by the calculator;
题干不清 gets the shortest different telling of the same fact; 选项有问题 keeps stem and key and swaps the
faulted distractors; 解析有误 rebuilds the explanation from the textbook sentence and the critic's evidence.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import calc
from calc.reading import Quantity, argument_kind, argument_label, find_quantities
from graph.authors.base import Task
from graph.authors.calc_text import TELLINGS, Case, Telling
from graph.authors.recipes import CALCULATION, RECIPES
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.calculation import Wrong, case_question, quoted_rates, wrong_answers
from graph.complaints import Complaint
from graph.format import ANALYSIS, BASIS, LETTERS, compose_explanation, explanation_parts, same_number
from graph.schemas import Draft
from retrieval.facts import Fact
from vocabulary.records import Question

_SEEDS = 12
_VARIANTS = 200
_REQUESTABLE = ("money", "area", "years")  # kinds of figure a comment may ask a calculation to take
_LETTER_NAMED = re.compile(r"([A-L])\s*(?:项|选项|、|和|与|,|，)|选项\s*([A-L])")


@dataclass
class Amendment:
    written: Written
    notes: list[str] = field(default_factory=list)


def amend(task: Task, question: Question, complaint: Complaint) -> Amendment | None:
    """The revised question, or None when only a new question (a reroute) can answer the complaint."""
    fact = next((task.facts.by_id[i] for i in question.fact_ids if i in task.facts.by_id), None)
    requests = [q for q in find_quantities(complaint.comment) if q.kind in _REQUESTABLE]
    notes: list[str] = []
    calculated = fact is not None and fact.kind == "example" and question.calculation is not None
    if calculated:
        amended = _recalculated(task, question, fact, complaint, requests, notes)
        if amended is not None:
            return amended
    elif requests:
        asked = "、".join(_said(complaint.comment, q) for q in requests)
        why = "这道题不是计算题，题中没有可换成该数值的条件"
        if question.calculation is not None:
            why = "找不到这道计算题所依据的教材例题，无法按新数值重述"
        notes.append(f"意见中的“{asked}”未能照办：{why}")
    rewritten = _rewritten(task, question, fact, complaint, notes)
    if rewritten is not None:
        return Amendment(rewritten, notes)
    return None


# ---- calculations ------------------------------------------------------------------------------------


def _said(comment: str, quantity: Quantity) -> str:
    return comment[quantity.start : quantity.end].strip()


def _target(quantity: Quantity) -> float:
    """The figure a request means: the number itself, or a clear case inside a bound ("90平方米以下" → 85;
    years keep a 满/不超过 bound's own figure, which the rules count as inside)."""
    value = float(quantity.value)
    if quantity.kind == "years":
        return {"lt": max(value - 1, 0.5), "gt": value + 1}.get(quantity.bound, value)
    if quantity.bound in ("lt", "le"):
        return _round_like(value * 0.94, value)
    if quantity.bound in ("gt", "ge"):
        return _round_like(value * 1.1, value)
    return value


def _round_like(value: float, near: float) -> float:
    step = 100_000 if near >= 1_000_000 else 10_000 if near >= 100_000 else 5 if near >= 20 else 1
    return float(max(step, round(value / step) * step))


def _argument_for(calculator: str, args: dict, quantity: Quantity, comment: str) -> tuple[str | None, str]:
    """The argument a requested number replaces — of the question's arguments of that kind, the only one or
    the one whose name the comment uses — or why none can be chosen."""
    fitting = [name for name in args if argument_kind(calculator, name) == quantity.kind]
    named = [name for name in fitting if _mentions(comment, argument_label(calculator, name))]
    if len(fitting) == 1:
        return fitting[0], ""
    if len(named) == 1:
        return named[0], ""
    if not fitting:
        return None, "这道题的计算里没有能换成该数值的条件"
    labels = "、".join(argument_label(calculator, name) for name in fitting)
    return None, f"这道题的计算里有{labels}，请在意见中写明要改哪一项"


def _mentions(comment: str, label: str) -> bool:
    return any(label[i : i + 2] in comment for i in range(len(label) - 1))


def _requested_args(
    question: Question, complaint: Complaint, requests: list[Quantity], notes: list[str]
) -> dict | None:
    """The calculator arguments the comment asks for, by name; None when it asks for none that applies."""
    calculation = question.calculation
    args = dict(calculation.args)
    applied: dict = {}
    for quantity in requests:
        said = _said(complaint.comment, quantity)
        name, why = _argument_for(calculation.calculator, args, quantity, complaint.comment)
        if name is None:
            notes.append(f"意见中的“{said}”未能照办：{why}")
            continue
        value = _target(quantity)
        applied[name] = int(value) if isinstance(args[name], int) and value.is_integer() else value
    return applied or None


def _recalculated(
    task: Task,
    question: Question,
    fact: Fact,
    complaint: Complaint,
    requests: list[Quantity],
    notes: list[str],
) -> Amendment | None:
    telling = TELLINGS.get(fact.calculator)
    calculation = question.calculation
    if telling is None or calculation.field not in telling.fields:
        return None
    needed = 3 if question.qtype == "single" else 1
    brief = _brief(task, question, "recalc")
    requested = _requested_args(question, complaint, requests, notes)
    if requested is not None:
        why = ""
        for case in _cases_with(telling, calculation.args, requested, brief):
            wrongs, why = _wrongs_for(telling, case, calculation.field, task, needed)
            written = _write(fact, brief, case, calculation.field, wrongs) if wrongs else None
            if written is not None:
                return Amendment(written, notes)
        asked = "、".join(_said(complaint.comment, q) for q in requests)
        notes.append(f"意见中的“{asked}”未能照办：{why or '计算器不接受这组条件'}")
    if complaint.reason == "options_wrong":
        swapped = _swapped_distractors(task, question, fact, complaint, notes)
        if swapped is not None:
            return Amendment(swapped, notes)
    if complaint.reason == "stem_unclear":
        told = _told_plainly(task, question, fact, notes)
        if told is not None:
            return Amendment(told, notes)
    if complaint.reason in ("answer_wrong", "options_wrong", "stem_unclear"):
        if complaint.reason == "answer_wrong" and requested is None:
            notes.append(f"{_rechecked(question)}；已换一组数据重新出题")
        variants = [
            CALCULATION.write(fact, _brief(task, question, f"variant{seed}")) for seed in range(_SEEDS)
        ]
        fresh = [w for w in variants if w is not None and w.draft.stem != question.stem]
        if complaint.reason == "stem_unclear":
            fresh.sort(key=lambda w: len(w.draft.stem))
        return Amendment(fresh[0], notes) if fresh else None
    return None


def _cases_with(telling: Telling, args: dict, requested: dict, brief: Brief) -> Iterator[Case]:
    """Cases holding the requested inputs: the example varied around them where a variant lands on every
    requested figure (which keeps what only the story tells, such as a VAT-inclusive price), then the
    question's own inputs with the requested ones put in."""
    wanted = {**args, **requested}
    today = dt.date.today()
    for _ in range(_VARIANTS):
        case = telling.vary(dict(wanted), brief.rng, today)
        if case is not None and all(case.args.get(k) == v for k, v in requested.items()):
            yield case
    yield Case(wanted)


def _rechecked(question: Question) -> str:
    """What the calculator says of the key the instructor doubts, in words."""
    calculation = question.calculation
    try:
        value = calc.run(calculation.calculator, calculation.args).get(calculation.field)
    except calc.CalcError as exc:
        return f"计算器无法复核原题（{exc}）"
    if isinstance(value, int | float) and same_number(float(value), calculation.value or 0):
        return f"计算器按题干条件复核，原答案{question.answer_text}与计算结果一致"
    return f"计算器按题干条件复核，结果为{value}，与原答案不一致"


def _told_plainly(task: Task, question: Question, fact: Fact, notes: list[str]) -> Written | None:
    """The same figures told in the plainest words (严谨 names, no figure only the story needed): the
    shortest such telling, when it is shorter than the stem complained about."""
    calculation = question.calculation
    case = Case(dict(calculation.args))
    needed = 3 if question.qtype == "single" else 1
    wrongs, why = _wrongs_for(TELLINGS[fact.calculator], case, calculation.field, task, needed)
    plain = replace(task, mode="strict")
    told = [
        written
        for seed in range(_SEEDS)
        if wrongs
        and (
            written := _write(fact, _brief(plain, question, f"plain{seed}"), case, calculation.field, wrongs)
        )
        is not None
    ]
    shorter = [w for w in told if len(w.draft.stem) < len(question.stem)]
    if not shorter:
        why = why or "这道计算题的条件都是作答所必需的，题干无法再缩短"
        notes.append(f"{why}；已换一组数据重新出题")
        return None
    return min(shorter, key=lambda w: len(w.draft.stem))


# A telling that needs what only the original story showed (a gross price, figures beside the inputs) fails
# on a case rebuilt from the calculator's arguments alone.
_UNTOLD = (KeyError, TypeError)
_UNTOLD_WHY = "这道题的情形还依赖原题中的其他条件，无法只按计算参数重述"


def _write(fact: Fact, brief: Brief, case: Case, field_: str, wrongs: list[Wrong]) -> Written | None:
    try:
        return case_question(fact, brief, case, field_, wrongs)
    except _UNTOLD:
        return None


def _wrongs_for(
    telling: Telling, case: Case, field_: str, task: Task, needed: int
) -> tuple[list[Wrong], str]:
    """The case's distractors, or why there are not enough (the calculator's own refusal included)."""
    try:
        key = calc.run(telling.calculator, case.args).get(field_)
    except calc.CalcError as exc:
        return [], f"计算器不接受这组条件（{exc}）"
    try:
        wrongs = wrong_answers(telling, case, field_, float(key), quoted_rates(task.slice))
    except _UNTOLD:
        return [], _UNTOLD_WHY
    if len(wrongs) < needed:
        return [], f"按这组条件只能得出{len(wrongs)}种典型错误的结果，不足以做干扰项"
    return wrongs, ""


def _option_value(text: str) -> float | None:
    found = find_quantities(text)
    return float(found[0].value) if found else None


def _faulted_letters(question: Question, comment: str) -> set[str]:
    named = {a or b for a, b in _LETTER_NAMED.findall(comment.upper())}
    wrong = {LETTERS[i] for i in range(len(question.options))} - set(question.answer)
    return (named & wrong) or wrong


def _swapped_distractors(
    task: Task, question: Question, fact: Fact, complaint: Complaint, notes: list[str]
) -> Written | None:
    """Same case, same key, the faulted distractors replaced by results of other real mistakes."""
    telling = TELLINGS[fact.calculator]
    calculation = question.calculation
    case = Case(dict(calculation.args))
    wrongs, _ = _wrongs_for(telling, case, calculation.field, task, 1)
    faulted = _faulted_letters(question, complaint.comment)
    values = {LETTERS[i]: _option_value(o) for i, o in enumerate(question.options)}
    kept = [
        w
        for w in wrongs
        if any(
            v is not None and same_number(v, w.value) and letter not in faulted
            for letter, v in values.items()
        )
    ]
    fresh = [w for w in wrongs if not any(v is not None and same_number(v, w.value) for v in values.values())]
    needed = 3 if question.qtype == "single" else 1
    if not fresh or len(kept) + len(fresh) < needed:
        notes.append("这道计算题的典型错误只有现有这几种，无法换成别的干扰项，已换一组数据重新出题")
        return None
    return _write(fact, _brief(task, question, "options"), case, calculation.field, kept + fresh)


# ---- everything else ---------------------------------------------------------------------------------


def _brief(task: Task, question: Question, purpose: str) -> Brief:
    rng = random.Random(f"{task.seed}|{question.fingerprint()}|{purpose}")
    return Brief(task=task, facts=task.facts, rng=rng)


def _candidates(task: Task, question: Question, facts: list[Fact], purpose: str) -> list[Written]:
    """Questions of the same type written afresh from `facts` by every recipe that fits, several times."""
    found: list[Written] = []
    for fact in facts:
        if fact.kind == "example":
            continue
        recipes = [r for r in RECIPES if fact.kind in r.kinds and question.qtype in r.qtypes]
        for seed in range(_SEEDS):
            brief = _brief(task, question, f"{purpose}{seed}")
            for recipe in recipes:
                written = recipe.write(fact, brief)
                if written is not None and written.qtype == question.qtype:
                    found.append(written)
    return found


def _correct(draft: Draft) -> list[str]:
    return sorted(draft.options[ord(a) - 65] for a in draft.answer if ord(a) - 65 < len(draft.options))


def _rewritten(
    task: Task, question: Question, fact: Fact | None, complaint: Complaint, notes: list[str]
) -> Written | None:
    reason = complaint.reason
    if reason == "explanation_wrong":
        return _explained(question, fact, notes)
    if reason == "out_of_scope" or fact is None or fact.kind == "example":
        return None
    own = _candidates(task, question, [fact], "own")
    old_correct = sorted(question.options[i] for i in question.correct_indexes)
    if reason == "stem_unclear" or (reason == "options_wrong" and question.qtype == "judge"):
        if reason == "options_wrong":
            notes.append("判断题只有“正确/错误”两个选项，已改写题干中的说法")
        different = [w for w in own if w.draft.stem != question.stem]
        shorter = [w for w in different if len(w.draft.stem) < len(question.stem)]
        if different and not shorter:
            notes.append("未能写得比原题干更短，已换一种说法")
        return min(shorter or different, key=lambda w: len(w.draft.stem), default=None)
    if reason == "options_wrong":
        same_stem = [
            w
            for w in own
            if w.draft.stem == question.stem and sorted(w.draft.options) != sorted(question.options)
        ]
        same_key = [w for w in same_stem if _correct(w.draft) == old_correct]
        other = [w for w in own if sorted(w.draft.options) != sorted(question.options)]
        if not same_key and other:
            notes.append("在不改题干和答案的前提下找不到其他可靠的干扰项，已连同题干一并改写")
        return (same_key or same_stem or other or [None])[0]
    if reason == "answer_wrong":
        others = [f for f in task.facts.of_slice(task.slice.id) if f.id != fact.id]
        fresh = [
            w
            for w in _candidates(task, question, others, "other")
            if _correct(w.draft) != old_correct and w.draft.stem != question.stem
        ]
        if fresh:
            notes.append("离线作者无法替您核实原答案，已改用本节另一条教材内容重新出题")
        return fresh[0] if fresh else None
    different = [w for w in own if w.draft.stem != question.stem]
    return different[0] if different else None


def _explained(question: Question, fact: Fact | None, notes: list[str]) -> Written | None:
    """The explanation rebuilt from what was verified: the textbook sentence, each statement's evidence or
    each option's verdict, and the key."""
    basis = f"《{question.slice_path}》“{fact.source}”" if fact and fact.source else ""
    parts = explanation_parts(question.explanation)
    letters = question.answer_text
    if question.calculation is not None:
        # the working and each distractor's mistake are the calculator's own: kept, with what was checked
        analysis = "\n".join([*question.evidence, parts.get(ANALYSIS, question.explanation)])
        notes.append("解析中的计算过程已由计算器复核，已补充教材依据和复核记录")
    elif question.evidence:
        analysis = "；".join(question.evidence)
    else:
        analysis = "；".join(
            f"选项{LETTERS[i]}“{o}”{'正确' if LETTERS[i] in letters else '错误'}"
            for i, o in enumerate(question.options)
        )
    explanation = compose_explanation(basis or parts.get(BASIS, ""), analysis, f"本题选{letters}。")
    if explanation == question.explanation:
        notes.append("解析已按教材原文和校验证据写成，离线作者无法另作说明")
        return None
    draft = Draft(
        stem=question.stem,
        options=list(question.options),
        answer=letters,
        explanation=explanation,
        difficulty=question.difficulty,
        sources=list(question.sources),
    )
    return Written(
        draft=draft, qtype=question.qtype, fact_ids=list(question.fact_ids), calculation=question.calculation
    )
