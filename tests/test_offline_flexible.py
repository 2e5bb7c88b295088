"""How the offline author picks a fact for a 灵活 request: a case whose details decide the answer is looked
for in the whole chapter before a broker's act in a sale is told, which examiners strike as a name pasted
into a rule; that act is still told when nothing in the chapter can be a case."""

from __future__ import annotations

import re

from graph.authors.base import Task
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
    assert re.search(r"购买\d+年的住房", authored.draft.stem)
    assert "这一做法" not in authored.draft.stem


async def test_a_flexible_request_falls_back_to_an_act_when_the_chapter_has_no_case():
    authored = await _draft(OTHER)
    assert authored.slice_id == CONDUCT.id
    assert re.search(r"经纪人员.某.+，这一做法(符合|违反)规定。（　）", authored.draft.stem)


async def test_a_strict_request_stays_with_the_slice_and_its_neighbours():
    facts = compile_kb([CONDUCT, *OTHER, TAX])
    task = Task(slice=CONDUCT, qtype="judge", mode="strict", seed=3, facts=facts, neighbours=OTHER[:6])
    authored = await OfflineAuthor().draft(task)
    assert authored.slice_id == CONDUCT.id
