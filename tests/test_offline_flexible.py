"""How the offline author picks a fact for a 灵活 request: a case whose details decide the answer is looked
for in the whole chapter, and a fixed frame (a broker's act in a sale, a rule with a name pasted in,
"下列情形中，（　）的，应当X"), which examiners strike, is never told: when nothing in the chapter can be a
case the request is declined with that reason."""

from __future__ import annotations

import re

import pytest

from graph.authors.base import AuthorError, Task
from graph.authors.offline import OfflineAuthor
from retrieval.compiler import compile_kb
from retrieval.models import Slice

CONDUCT = Slice(
    id="s-conduct",
    path=("第一篇 经纪实务", "第二章 交易服务", "第一节 执业规范", "一、收费"),
    mastery="掌握",
    text="经纪人员不得以个人名义收取经纪服务费用。经纪人员不得代替当事人在合同上签字。",
)
OTHER = [
    Slice(
        id=f"s-other-{n}",
        path=("第一篇 经纪实务", "第二章 交易服务", f"第{n + 2}节 其他", "一、说明"),
        mastery="了解",
        text="经纪服务合同一般采用书面形式。",
    )
    for n in range(7)
]
TAX = Slice(
    id="s-tax",
    path=("第一篇 经纪实务", "第二章 交易服务", "第九节 税费", "一、增值税"),
    mastery="掌握",
    text="个人将购买2年以上（含2年）的住房对外销售的，免征增值税。",
)


async def _draft(slices: list[Slice]):
    facts = compile_kb([CONDUCT, *slices])
    neighbours = slices[:6]  # the loop passes at most six neighbours: TAX lies beyond them
    task = Task(slice=CONDUCT, qtype="judge", mode="flexible", seed=3, facts=facts, neighbours=neighbours)
    return await OfflineAuthor().draft(task)


async def test_a_flexible_request_takes_a_case_from_elsewhere_in_the_chapter_before_a_pasted_act():
    authored = await _draft([*OTHER, TAX])
    assert authored.slice_id == TAX.id
    assert re.search(
        r"\d{4}年\d+月\d+日，.+取得一套住房的不动产权证书；\d{4}年\d+月\d+日，.+销售", authored.draft.stem
    )
    assert "这一做法" not in authored.draft.stem


async def test_a_rule_with_a_condition_is_told_as_a_case_of_named_people_before_any_frame():
    """A modal rule with a condition ("…的，应当…") alone cannot make a judge that turns on the case's detail
    (that needs another duty of the same party); a type it cannot fill takes a dated case from elsewhere in
    the chapter."""
    duty = Slice(
        id="s-duty",
        path=("第一篇 经纪实务", "第二章 交易服务", "第一节 执业规范", "二、告知"),
        mastery="掌握",
        text="经纪人员发现房屋存在抵押的，应当告知买方。出租人出卖租赁房屋的，应当提前通知承租人。",
    )
    facts = compile_kb([duty, *OTHER, TAX])
    for qtype in ("single", "multi", "judge"):
        task = Task(slice=duty, qtype=qtype, mode="flexible", seed=5, facts=facts, neighbours=OTHER[:6])
        authored = await OfflineAuthor().draft(task)
        stem = authored.draft.stem
        # neither rule has a second duty of the same party beside it, so no judge can turn on the case's
        # detail: the turned modal ("无需告知买方") is not asked; a dated case from elsewhere is
        assert authored.slice_id == TAX.id, (qtype, stem)
        assert "无需" not in stem


async def test_a_flexible_request_is_declined_with_a_reason_when_the_chapter_has_no_case():
    with pytest.raises(AuthorError, match="所在章节中没有能写成灵活判断题的案例"):
        await _draft(OTHER)


async def test_a_strict_request_stays_with_the_slice_and_its_neighbours():
    facts = compile_kb([CONDUCT, *OTHER, TAX])
    task = Task(slice=CONDUCT, qtype="judge", mode="strict", seed=3, facts=facts, neighbours=OTHER[:6])
    authored = await OfflineAuthor().draft(task)
    assert authored.slice_id == CONDUCT.id
