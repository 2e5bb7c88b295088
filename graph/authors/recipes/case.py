"""案例题: one second-hand sale told once — the parties and the broker, the house and its figures, the dates,
the contract and what it leaves to each side — then 3–5 sub-questions that each ask one figure of that sale.

A sub-question states no input of its own ("本案中，周先生应缴纳的契税为"), so it cannot be answered without
the situation; each is written by the calculation recipe on the deal's own inputs (its key and every
distractor recomputed by the real calculator), and is checked as a single question is — the situation and
its stem read together — by the same lint, grounding and stem recomputation the critic runs. A chapter is
asked only the figures its own worked examples compute; one whose examples cannot fill three
sub-questions gets no case.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any, Protocol

import calc
from graph.authors import scenes
from graph.authors.base import AuthorError, Task
from graph.authors.calc_text import AREAS, TELLINGS, Case, Names, TransactionCosts, money, vat_rate
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.calculation import case_question, quoted_rates, wrong_answers
from graph.checks import run_checks
from graph.format import numbers_in, same_number
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from graph.schemas import CaseQuestion, Issue, Mode, Question, QuestionType
from graph.stemcalc import check_stem_calculation
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice

# Telegram's poll limits: the situation goes first as a message, so only the sub-question must fit.
POLL_QUESTION = 300
POLL_OPTION = 100
_FEWEST, _MOST = 3, 5
_ATTEMPTS = 12
# The figures a sale's worked examples compute, in the order a paper asks them: the buyer's, the seller's,
# then the whole bill.
_ASKS: tuple[tuple[str, str], ...] = (
    ("deed_tax", "tax"),
    ("resale_vat", "vat"),
    ("resale_vat", "surcharges"),
    ("personal_income_tax", "tax"),
    ("transaction_costs", "total"),
)
_SALE = frozenset(calculator for calculator, _ in _ASKS)
_DEAL_KEYS = (
    "price",
    "years_held",
    "only_home",
    "original_price",
    "costs",
    "deemed_rate",
    "urban_rate",
    "date",
)


class Library(Protocol):
    """What grounding reads (the generation context has both)."""

    knowledge: Any
    facts: FactBase


@dataclass(frozen=True)
class _Party:
    names: Names
    agent: str
    agency: str


def _deal(anchor: Fact, rng: random.Random, today: dt.date) -> Case | None:
    """The sale every sub-question asks about: the anchor example's situation retold with new figures, and
    what it leaves open (the buyer's homes, the seller's other homes, the area) chosen to make it whole."""
    args: dict[str, Any] = {
        "years_held": rng.choice((1, 3, 6)),
        "only_home": rng.random() < 0.5,
        **{key: value for key, value in anchor.args.items() if key in _DEAL_KEYS},
        "home_order": rng.choice((1, 1, 2)),
        "area": rng.choice(AREAS),
    }
    return TransactionCosts().vary(args, rng, today)


def _inputs(calculator: str, deal: Case) -> Case:
    """The deal as one calculator's inputs. The deed tax is levied on the price net of the seller's VAT,
    which its telling explains from the VAT-inclusive price the contract states."""
    args = deal.args
    if calculator != "deed_tax":
        return Case(_only(args, calculator))
    base = calc.run("personal_income_tax", _only(args, "personal_income_tax"))["base"]
    taxed = args["years_held"] < 2 and vat_rate(args)
    extras = {"gross": args["price"], "held": args["years_held"]} if taxed else {}
    bought = {"price": base, "area": args["area"], "home_order": args["home_order"], "date": args["date"]}
    return Case(bought, extras)


def _only(args: dict[str, Any], calculator: str) -> dict[str, Any]:
    accepted = calc.REGISTRY[calculator].parameters["properties"]
    return {key: value for key, value in args.items() if key in accepted and value is not None}


def _situation(deal: Case, party: _Party) -> str:
    """Who sold what to whom through which broker, the house and its figures, and what the contract
    leaves to each side: the sale as the transaction-cost telling states it, with the people around it."""
    names = party.names
    story = TransactionCosts().story(deal, names, "total")
    deposit = money(max(10_000.0, round(deal.args["price"] * 0.02 / 10_000) * 10_000))
    return (
        f"{party.agency}的经纪人{party.agent}促成了一笔存量住房买卖。{story}双方签订了房屋买卖合同，"
        f"{names.buyer}已支付定金{deposit}，合同约定交易税费由买卖双方按照法律规定各自承担。"
    )


def _sub_stem(written: Written, story: str) -> str:
    """The sub-question without the story the calculation recipe told: it asks about 本案 instead."""
    return "本案中，" + written.draft.stem.removeprefix(story)


def _checked(question: Question, slice_: Slice, library: Library) -> list[Issue]:
    """The critic's deterministic verdict on one question read whole: checks (lint and the key recomputed),
    grounding in the textbook and the figures the stem states recomputed."""

    def recompute(calculation: Any) -> float:
        return float(calc.run(calculation.calculator, calculation.args)[calculation.field])

    issues = run_checks(question, question.qtype, recompute=recompute)
    issues += ground_question(question, slice_, library).issues(strict=True)
    return issues + check_stem_calculation(question, calc.run).issues


def check_case(case: CaseQuestion, library: Library) -> list[list[Issue]]:
    """Each sub-question's issues, read with the situation as a single question is; plus a sub-question
    that reads the same without the situation, or that a poll cannot carry."""
    found = []
    for index, question in enumerate(case.questions):
        whole = case.standalone(index)
        issues = _checked(whole, library.knowledge.get(question.slice_id), library)
        if "本案" not in question.stem:
            issues.append(Issue(type="incompleteness", severity="major", detail="小题没有指向案例情景"))
        if len(question.stem) > POLL_QUESTION or any(len(o) > POLL_OPTION for o in question.options):
            issues.append(Issue(type="format_error", severity="major", detail="小题超出投票的字数限制"))
        found.append(issues)
    return found


def _sale_examples(facts: FactBase, chapter: tuple[str, ...]) -> dict[str, Fact]:
    examples: dict[str, Fact] = {}
    for fact in facts.of_chapter(chapter, "example"):
        if fact.calculator in _SALE and fact.calculator in TELLINGS:
            examples.setdefault(fact.calculator, fact)
    return examples


def _party(rng: random.Random, mode: Mode) -> _Party:
    pick = scenes.person if mode == "flexible" else scenes.plain_name
    buyer = pick(rng)
    seller = pick(rng, {buyer})
    return _Party(Names(buyer=buyer, seller=seller), pick(rng, {buyer, seller}), scenes.agency(rng))


@dataclass(frozen=True)
class _Asking:
    """One case being assembled: its deal, people and situation, and what the sub-questions draw on."""

    deal: Case
    party: _Party
    situation: str
    library: Library
    mode: Mode
    rng: random.Random


def _sub_question(asking: _Asking, fact: Fact, field: str, qtype: QuestionType) -> Question | None:
    """The calculation recipe's question on the deal's inputs, its story taken out: None when the figure has
    too few real mistakes for the type, or a false judgement would state a figure the situation shows."""
    telling = TELLINGS[fact.calculator]
    inputs = _inputs(fact.calculator, asking.deal)
    slice_ = asking.library.knowledge.get(fact.slice_id)
    try:
        key = float(calc.run(fact.calculator, inputs.args)[field])
    except calc.CalcError:
        return None
    wrongs = wrong_answers(telling, inputs, field, key, quoted_rates(slice_))
    if len(wrongs) < (3 if qtype == "single" else 1):
        return None
    task = Task(slice=slice_, qtype=qtype, mode=asking.mode, seed=0, facts=asking.library.facts)
    brief = Brief(task=task, facts=asking.library.facts, rng=asking.rng)
    written = case_question(fact, brief, inputs, field, wrongs, names=asking.party.names)
    story = telling.story(inputs, asking.party.names, field)
    if written is None or not written.draft.stem.startswith(story) or written.calculation is None:
        return None
    stated_elsewhere = any(same_number(number, key) for number in numbers_in(asking.situation))
    if written.qtype == "judge" and written.draft.answer == "B" and stated_elsewhere:
        return None
    draft = written.draft.model_copy(update={"stem": "本案中，" + written.draft.stem.removeprefix(story)})
    authored = {
        "draft": draft.model_dump(),
        "qtype": written.qtype,
        "calculation": written.calculation.model_dump(),
        "fact_ids": written.fact_ids,
    }
    return write_question(authored, slice_, asking.mode)


def _assemble(asking: _Asking, asks: list[tuple[str, str]], examples: dict[str, Fact]) -> CaseQuestion | None:
    """Single-choice sub-questions with one judgement among them (a single where the judgement cannot be
    written); None when any sub-question cannot be written or fails the critic's checks."""
    judged = asking.rng.randrange(len(asks))
    questions = []
    for index, (calculator, field) in enumerate(asks):
        fact = examples[calculator]
        question = None
        if index == judged:
            question = _sub_question(asking, fact, field, "judge")
        question = question or _sub_question(asking, fact, field, "single")
        if question is None:
            return None
        questions.append(question)
    chapter = list(questions[0].chapter)
    case = CaseQuestion(situation=asking.situation, questions=questions, mode=asking.mode, chapter=chapter)
    return None if any(check_case(case, asking.library)) else case


def compose_case(library: Library, chapter: tuple[str, ...], mode: Mode, seed: int) -> CaseQuestion | None:
    """A case on `chapter`, or None when its worked examples cannot fill three sub-questions. Same seed,
    same case."""
    examples = _sale_examples(library.facts, chapter)
    asks = [(calculator, field) for calculator, field in _ASKS if calculator in examples][:_MOST]
    if len(asks) < _FEWEST:
        return None
    rng = random.Random(f"case|{seed}|{'/'.join(chapter)}|{mode}")
    anchors = sorted(examples.values(), key=lambda fact: fact.id)
    today = dt.date.today()
    for _ in range(_ATTEMPTS):
        deal = _deal(rng.choice(anchors), rng, today)
        if deal is None:
            continue
        party = _party(rng, mode)
        asking = _Asking(deal, party, _situation(deal, party), library, mode, rng)
        case = _assemble(asking, asks, examples)
        if case is not None:
            return case
    return None


def write_case(library: Library, chapter: tuple[str, ...], mode: Mode, seed: int) -> CaseQuestion:
    """What the bot calls for a 案例题: the case, or an AuthorError naming a chapter that cannot carry one."""
    case = compose_case(library, chapter, mode, seed)
    if case is None:
        raise AuthorError(f"“{chapter[-1] if chapter else '全部章节'}”中没有足够的计算例题写成案例题")
    return case
