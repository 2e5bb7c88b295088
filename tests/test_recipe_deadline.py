"""By-when cases as an examiner reads them: the key is the event's date moved on by the limit the textbook
sets (the event's own day not counted), the distractors are the other limits the textbook sets, and the
critic signs the right day and rejects any other."""

from __future__ import annotations

import datetime as dt
import random
import re
from types import SimpleNamespace

from graph.authors.base import Task
from graph.authors.holidays import plain_working_day
from graph.authors.recipes.base import Brief
from graph.authors.recipes.deadline import RECIPE
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from vocabulary.records import Question

_PATH = ("第三篇 个人住房贷款", "第十章 住房公积金贷款", "第二节 申请", "一、审批时限")
_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")
DECIDE = "住房公积金管理中心应当自受理申请之日起15日内作出准予贷款或者不准贷款的决定，并通知申请人。"
# How the textbook counts a period in days: only with it is a by-when date beyond dispute.
COUNTED = "期间以日计算的，开始的当日不计入，自下一日开始计算。"
OTHERS = (
    "③单位录用职工的，应当自录用之日起30日内为职工办理住房公积金缴存登记。",
    "受遗赠人应当在知道受遗赠后六十日内，作出接受或者放弃受遗赠的表示。",
    "出租人履行通知义务后，承租人在五日内未明确表示购买的，视为放弃。",
    "预告登记后，自能够进行不动产登记之日起九十日内未申请登记的，预告登记失效。",
)


def _kb(text: str) -> tuple[list[Slice], FactBase]:
    pieces = [Slice(id="s-0", path=_PATH, mastery="掌握", text=text)]
    pieces += [Slice(id=f"s-{i + 1}", path=_PATH, mastery="掌握", text=t) for i, t in enumerate(OTHERS)]
    return pieces, compile_kb(pieces)


def _rule(facts: FactBase) -> Fact:
    rules = [f for f in facts if f.slice_id == "s-0" and f.kind == "threshold"]
    return next((f for f in rules if f.unit == "日"), rules[0])  # the period, not a figure of its premise


def _write(seed: int, text: str = DECIDE, qtype: str = "single", mode: str = "flexible") -> Question | None:
    pieces, facts = _kb(text)
    task = Task(slice=pieces[0], qtype=qtype, mode=mode, seed=seed, facts=facts)
    written = RECIPE.write(_rule(facts), Brief(task=task, facts=facts, rng=random.Random(seed)))
    if written is None:
        return None
    question = write_question({"draft": written.draft.model_dump(), "qtype": written.qtype}, pieces[0], mode)
    assert run_checks(question, qtype) == []
    return question


def _day(text: str) -> dt.date:
    year, month, day = _DATE.search(text).groups()
    return dt.date(int(year), int(month), int(day))


def test_the_key_is_fifteen_days_after_the_day_of_acceptance_and_the_others_are_mistakes_with_it():
    keys = set()
    for seed in range(10):
        question = _write(seed, DECIDE + COUNTED)
        assert question is not None
        assert "15日内" not in question.stem and "受理申请" in question.stem
        assert re.match(r"^.某向某住房公积金管理中心申请贷款，该中心于", question.stem), question.stem
        start = _day(question.stem)
        gaps = [(_day(option) - start).days for option in question.options]
        assert question.answer == ["ABCD"[gaps.index(15)]], (question.stem, question.options)
        assert len(set(gaps)) == 4 and {5, 30, 60, 90} & set(gaps), gaps  # another limit of the chapter
        assert "开始的当日不计入" in question.explanation and "与本案无关" not in question.explanation
        for why in re.findall(
            r"选项[A-D]“[^”]+”([^；。]+)", question.explanation
        ):  # each wrong day's mistake
            assert re.search(r"第15日|少算了一日|多算了一日|15个工作日|本案的期限是15日", why), why
        keys.add(question.answer[0])
    assert len(keys) >= 2  # the right day is not always the same option


def test_the_critic_signs_the_right_day_and_rejects_a_wrong_one():
    for text, seed in [(t, seed) for t in (DECIDE + COUNTED, REFUND + COUNTED) for seed in range(6)]:
        pieces, facts = _kb(text)
        library = SimpleNamespace(knowledge=KnowledgeIndex(pieces), facts=facts)
        question = _write(seed, text)
        assert question is not None
        assert ground_question(question, pieces[0], library).issues(strict=True) == [], question.options
        wrong = next(letter for letter in "ABCD" if [letter] != question.answer)
        flipped = question.model_copy(update={"answer": [wrong]})
        assert ground_question(flipped, pieces[0], library).issues(strict=True), question.options


def test_working_days_strict_requests_and_other_types_are_not_told():
    for qtype in ("single", "multi"):
        text = "不动产登记机构应当自受理登记申请之日起30个工作日内办结不动产登记手续。" + COUNTED
        assert _write(1, text, qtype=qtype) is None
    assert _write(1, mode="strict") is None
    assert _write(1, qtype="judge") is None


def test_holidays_of_the_official_schedule_are_not_plain_working_days():
    assert not plain_working_day(dt.date(2025, 4, 4))  # a Friday, 清明节
    assert not plain_working_day(dt.date(2026, 6, 19))  # a Friday, 端午节
    assert not plain_working_day(dt.date(2026, 2, 20))  # the Spring Festival holiday
    assert not plain_working_day(dt.date(2025, 5, 3))  # a Saturday
    assert plain_working_day(dt.date(2026, 2, 24)) and plain_working_day(dt.date(2025, 4, 7))
    assert not plain_working_day(dt.date(2030, 3, 4))  # a year whose schedule is not published


# Days off of the State Council's notices that a Monday-to-Friday check alone would let through.
_OFF = {dt.date(2025, 4, 4), dt.date(2025, 6, 2), dt.date(2025, 10, 6), dt.date(2025, 10, 8)}
_OFF |= {dt.date(2026, 1, 2), dt.date(2026, 4, 6), dt.date(2026, 6, 19), dt.date(2026, 9, 25)}
_OFF |= {dt.date(2026, 2, 16) + dt.timedelta(days=d) for d in range(5)}


def test_every_option_falls_on_a_plain_working_day_so_no_day_moves_on():
    """A day on a weekend or holiday moves to the next working day, so a key or a wrong day's reckoning
    there would be disputable."""
    for seed in range(60):
        for text in (DECIDE + COUNTED, REFUND + COUNTED):
            question = _write(seed, text)
            assert question is not None
            for option in question.options:
                day = _day(option)
                assert day.weekday() < 5 and day not in _OFF, (question.stem, question.options)
            due = _day(question.options["ABCD".index(question.answer[0])])
            assert f"星期{'一二三四五'[due.weekday()]}" in question.explanation
            assert "不发生顺延" in question.explanation


REFUND = (
    "合同对面积差异的处理未作约定的，按以下原则处理：（1）面积误差比绝对值在3%以内（含3%）的，据实结算房价款；"
    "（2）面积误差比绝对值超出3%时，买受人有权退房。"
    "买受人退房的，房地产开发企业应当在买受人提出退房之日起30日内将已付房价款退还买受人，同时支付已付房价款利息。"
)


def test_a_refund_case_tells_the_condition_under_which_the_buyer_may_withdraw():
    for seed in range(6):
        question = _write(seed, REFUND, qtype="multi")
        assert question is not None
        assert "，因面积误差比绝对值超出3%，买受人提出退房。" in question.stem, question.stem
        assert "买受人提出退房" in question.stem


def test_the_other_limits_come_from_the_same_chapter_when_it_has_them():
    """A limit of another chapter is one the learner has not just studied: it reads as a made-up figure."""
    elsewhere = ("第四篇 税费", "第九章 契税", "一、申报")
    pieces, _ = _kb(DECIDE + COUNTED)
    pieces.append(
        Slice(id="s-far", path=elsewhere, mastery="掌握", text="纳税人应当自签订合同之日起二十日内申报。")
    )
    facts = compile_kb(pieces)
    gaps: set[int] = set()
    for seed in range(20):
        task = Task(slice=pieces[0], qtype="single", mode="flexible", seed=seed, facts=facts)
        written = RECIPE.write(_rule(facts), Brief(task=task, facts=facts, rng=random.Random(seed)))
        assert written is not None
        question = write_question(
            {"draft": written.draft.model_dump(), "qtype": "single"}, pieces[0], "flexible"
        )
        start = _day(question.stem)
        gaps |= {(_day(option) - start).days for option in question.options}
    assert 20 not in gaps and gaps & {5, 30, 60, 90}, gaps


def test_an_application_whose_matter_the_rule_does_not_name_is_not_told():
    """ "某中心受理申请" with no applicant and no matter is no case."""
    assert _write(1, "登记机构应当自受理申请之日起15日内作出决定。", qtype="multi") is None


def test_the_premise_is_found_in_another_point_of_the_chapter_and_without_it_the_case_is_not_told():
    """The refund limit and "面积误差比绝对值超出3%时，买受人有权退房" may stand in two points of one chapter;
    a refund with no reason at all ("买受人提出退房" and a date) is no case."""
    rule = REFUND.split("（2）面积误差比绝对值超出3%时，买受人有权退房。")[1]
    premise = Slice(id="s-area", path=_PATH, mastery="掌握", text=REFUND.split("买受人退房的，")[0])
    pieces, _ = _kb(rule)
    for seed in range(4):
        facts = compile_kb([*pieces, premise])
        task = Task(slice=pieces[0], qtype="multi", mode="flexible", seed=seed, facts=facts)
        written = RECIPE.write(_rule(facts), Brief(task=task, facts=facts, rng=random.Random(seed)))
        assert written is not None and "因面积误差比绝对值超出3%，买受人提出退房" in written.draft.stem
    assert all(_write(seed, rule, qtype="multi") is None for seed in range(4))


def _gaps(question: Question) -> list[int]:
    start = _day(question.stem)
    return [(_day(option) - start).days for option in question.options]


def test_without_a_counting_rule_no_single_is_told_as_its_one_kept_day_would_be_the_earliest():
    """Examiners struck "其中没有超过规定期限的是" with one day inside and three far past it: the earliest
    date was the key, known without the rule."""
    assert all(_write(seed) is None for seed in range(8))
    assert all(_write(seed, REFUND) is None for seed in range(8))


def test_a_multiple_choice_asks_days_either_side_of_the_limits_end_that_only_the_rule_tells_apart():
    """Without a counting rule the disputable last day (is the day of acceptance day 1?) is never an option;
    the days either side of it keep or miss the limit on both readings and lie within three days of it."""
    forms, counts = set(), set()
    for seed in range(16):
        question = _write(seed, qtype="multi")
        assert question is not None
        kept = "没有超过规定期限的有" in question.stem
        assert kept or "已超过规定期限的有" in question.stem, question.stem
        forms.add(kept)
        gaps = _gaps(question)
        assert 15 not in gaps and {14, 16} <= set(gaps) and all(12 <= gap <= 18 for gap in gaps), gaps
        assert 4 <= len(gaps) <= 5
        right = ["ABCDE"[i] for i, gap in enumerate(gaps) if (gap < 15) == kept]
        assert question.answer == right, (question.stem, question.options)
        counts.add(len(right))
        assert "无论" in question.explanation and "与本案无关" not in question.explanation
        for day in (14, 15):
            assert plain_working_day(_day(question.stem) + dt.timedelta(days=day))
        pieces, facts = _kb(DECIDE)
        library = SimpleNamespace(knowledge=KnowledgeIndex(pieces), facts=facts)
        assert ground_question(question, pieces[0], library).issues(strict=True) == [], question.options
    assert forms == {True, False} and len(counts) >= 2  # neither the form nor the number of keys is fixed


def test_with_a_counting_rule_the_last_day_itself_is_asked_and_the_critic_signs_it():
    for seed in range(8):
        text = DECIDE + COUNTED
        question = _write(seed, text, qtype="multi")
        assert question is not None
        gaps = _gaps(question)
        assert {15, 16} <= set(gaps), gaps
        kept = "没有超过规定期限的有" in question.stem
        assert question.answer == ["ABCDE"[i] for i, gap in enumerate(gaps) if (gap <= 15) == kept]
        pieces, facts = _kb(text)
        library = SimpleNamespace(knowledge=KnowledgeIndex(pieces), facts=facts)
        assert ground_question(question, pieces[0], library).issues(strict=True) == [], question.options
        wrong = question.model_copy(
            update={
                "answer": [
                    *question.answer,
                    *[x for x in "ABCDE"[: len(gaps)] if x not in question.answer][:1],
                ]
            }
        )
        assert ground_question(wrong, pieces[0], library).issues(strict=True), question.options
