"""Cases about a required list as an examiner reads them: the parties have done or written part of what the
textbook requires, and the key is exactly what the case leaves out — so the items the case names decide
the answer — with distractors of the same kind that the textbook does not require there. Lists that are
not requirements (classifications, situations) are not told this way, and a 灵活 request in a chapter that
holds such a list gets the case before any fixed frame."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from graph.authors.base import Task
from graph.authors.offline import OfflineAuthor
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.missing import RECIPE
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice

_CHAPTER = ("第一篇 交易实务", "第六章 不动产登记")
MATERIALS = Slice(
    id="s-materials",
    path=(*_CHAPTER, "第三节 转移登记", "一、申请材料"),
    mastery="掌握",
    text=(
        "因买卖申请房屋转移登记的，买卖双方一般应当提交下列材料：（1）不动产登记申请书；（2）申请人的身份"
        "证明；（3）不动产权属证书；（4）房屋买卖合同；（5）契税等税费的完税凭证；（6）法律、行政法规规定的"
        "其他材料。"
    ),
)
PAPERS = Slice(
    id="s-papers",
    path=(*_CHAPTER, "第四节 特殊情形", "一、代理与继承"),
    mastery="熟悉",
    text=(
        "代理人申请登记的，应当提交授权委托书。继承人申请登记的，应当提交继承权公证书。"
        "夫妻一方申请登记的，还需提交婚姻状况证明。申请人应当填写查询申请书。"
    ),
)
AGREEMENT = Slice(
    id="s-agreement",
    path=(*_CHAPTER, "第五节 资金监管", "一、监管协议"),
    mastery="掌握",
    text=(
        "监管协议一般载明以下内容：（1）监管资金的数额和存入时间；（2）资金划转的条件；（3）划转的时间和"
        "收款账户；（4）交易终止时资金的退还方式；（5）各方的权利义务和违约责任。"
    ),
)
DISPLAY = Slice(
    id="s-display",
    path=(*_CHAPTER, "第六节 门店", "一、公示"),
    mastery="熟悉",
    text=(
        "房地产经纪机构应当在其经营场所醒目位置公示下列内容：（1）营业执照和备案证明文件；（2）房地产经纪"
        "业务流程；（3）收费项目、依据和标准；（4）投诉电话。"
    ),
)
KINDS = Slice(
    id="s-kinds",
    path=(*_CHAPTER, "第一节 登记类型", "一、类型"),
    mastery="了解",
    text="按照登记的内容，不动产登记可分为首次登记、变更登记、转移登记和注销登记。",
)
SLICES = [MATERIALS, PAPERS, AGREEMENT, DISPLAY, KINDS]
_STATED = re.compile(r"已经(?:提交|载明|写明|公示)了(.+?)。(?:按照规定|经纪人员)")


def _facts() -> FactBase:
    return compile_kb(SLICES)


def _list(facts: FactBase, piece: Slice) -> Fact:
    return next(f for f in facts.of_slice(piece.id) if f.kind == "enumeration")


def _write(piece: Slice, qtype: str, seed: int, mode: str = "flexible") -> Written | None:
    facts = _facts()
    task = Task(slice=piece, qtype=qtype, mode=mode, seed=seed, facts=facts)
    written = RECIPE.write(_list(facts, piece), Brief(task=task, facts=facts, rng=random.Random(seed)))
    if written is not None:
        authored = {"draft": written.draft.model_dump(), "qtype": written.qtype}
        question = write_question(authored, piece, mode)
        assert run_checks(question, qtype) == []
        library = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=facts)
        assert ground_question(question, piece, library).issues(strict=True) == [], written.draft.stem
    return written


def _keyed(written: Written) -> list[str]:
    return [written.draft.options[ord(letter) - 65] for letter in written.draft.answer]


def _stated(written: Written) -> list[str]:
    found = _STATED.search(written.draft.stem)
    assert found, written.draft.stem
    return re.split(r"[、；]", found.group(1))


@pytest.mark.parametrize("seed", range(6))
def test_the_key_is_the_one_required_paper_the_parties_have_not_handed_in(seed: int):
    written = _write(MATERIALS, "single", seed)
    assert written is not None
    stem = written.draft.stem
    assert re.match(
        r"\d{4}年\d+月\d+日，买方[\u4e00-\u9fff]某与卖方[\u4e00-\u9fff]某因买卖申请房屋转移登记", stem
    )
    required = [
        "不动产登记申请书",
        "申请人的身份证明",
        "不动产权属证书",
        "房屋买卖合同",
        "契税等税费的完税凭证",
    ]
    (key,) = _keyed(written)
    assert key in required
    assert sorted([*_stated(written), key]) == sorted(required)  # what the case names plus the key: the list
    wrong = [o for o in written.draft.options if o != key]
    assert len(wrong) == 3
    assert all(o not in required and re.search(r"(证明|证书|委托书|申请书)$", o) for o in wrong)
    assert stem.endswith("按照规定，因买卖申请房屋转移登记的，买卖双方一般应当提交的材料还包括（　）。")
    assert "其他材料" not in stem


@pytest.mark.parametrize("seed", range(6))
def test_a_multiple_choice_keys_the_two_clauses_the_agreement_leaves_out(seed: int):
    written = _write(AGREEMENT, "multi", seed)
    assert written is not None
    clauses = ["监管资金的数额和存入时间", "资金划转的条件", "划转的时间和收款账户"]
    clauses += ["交易终止时资金的退还方式", "各方的权利义务和违约责任"]
    keyed = _keyed(written)
    assert len(keyed) == 2 and len(written.draft.options) == 5
    assert sorted([*_stated(written), *keyed]) == sorted(clauses)
    assert "签订监管协议，协议中已经载明了" in written.draft.stem
    for option in written.draft.options:
        if option not in keyed:  # another list's item, sharing no wording with a clause the agreement needs
            assert option not in clauses and not any(
                option[i : i + 2] in "".join(clauses) for i in range(len(option) - 1)
            )
    assert "本案尚未载明" in written.draft.explanation


def test_a_requirement_on_a_brokerage_is_told_of_a_named_brokerage():
    written = next(w for seed in range(10) if (w := _write(DISPLAY, "single", seed)) is not None)
    assert re.match(
        r"\d{4}年\d+月\d+日，[甲乙丙丁]房地产经纪机构已经在经营场所醒目位置公示了", written.draft.stem
    )


@pytest.mark.parametrize("qtype", ["single", "multi"])
def test_a_strict_request_or_a_classification_is_not_told_as_a_case(qtype: str):
    assert _write(MATERIALS, qtype, 1, mode="strict") is None
    assert _write(KINDS, qtype, 1) is None


async def test_a_flexible_request_in_the_chapter_gets_the_missing_paper_case_before_a_fixed_frame():
    """The slice asked holds only a conduct rule, which the fallback would paste a name into; the chapter's
    required list is told as a case instead."""
    conduct = Slice(
        id="s-conduct",
        path=(*_CHAPTER, "第二节 执业", "一、代签"),
        mastery="掌握",
        text="经纪人员不得代替当事人在登记申请书上签字。",
    )
    facts = compile_kb([conduct, *SLICES])
    task = Task(slice=conduct, qtype="single", mode="flexible", seed=2, facts=facts)
    authored = await OfflineAuthor().draft(task)
    assert authored.slice_id in {MATERIALS.id, AGREEMENT.id, DISPLAY.id}
    assert re.search(r"已经(?:提交|载明|公示)了.+还包括（　）", authored.draft.stem)


@pytest.mark.parametrize("seed", range(8))
def test_a_judge_is_the_broker_s_conclusion_that_nothing_is_lacking_true_only_when_the_case_names_it_all(
    seed: int,
):
    written = _write(MATERIALS, "judge", seed)
    assert written is not None
    stem = written.draft.stem
    assert re.search(r"经纪人员[\u4e00-\u9fff]某据此认为，一般应当提交的材料已经齐全。（　）$", stem)
    required = [
        "不动产登记申请书",
        "申请人的身份证明",
        "不动产权属证书",
        "房屋买卖合同",
        "契税等税费的完税凭证",
    ]
    complete = all(paper in _stated(written) for paper in required)
    assert written.draft.answer == ("A" if complete else "B")
    if not complete:
        (left,) = [paper for paper in required if paper not in _stated(written)]
        assert f"本案尚未提交{left}" in written.draft.explanation


@pytest.mark.parametrize("seed", range(4))
def test_a_judge_keeps_the_textbook_s_hedge_on_what_an_agreement_states(seed: int):
    """“监管协议一般载明以下内容” is what an agreement usually states: the broker's conclusion may not
    make it what the agreement must state."""
    written = _write(AGREEMENT, "judge", seed)
    assert written is not None
    assert "协议一般载明的内容已经齐全" in written.draft.stem
    assert "应当载明" not in written.draft.stem


def test_the_critic_rejects_a_completeness_judge_keyed_the_wrong_way():
    facts = _facts()
    library = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=facts)
    for seed in range(4):
        written = _write(MATERIALS, "judge", seed)
        assert written is not None
        flipped = "B" if written.draft.answer == "A" else "A"
        authored = {"draft": written.draft.model_dump() | {"answer": flipped}, "qtype": "judge"}
        question = write_question(authored, MATERIALS, "flexible")
        assert ground_question(question, MATERIALS, library).issues(strict=True) != []
