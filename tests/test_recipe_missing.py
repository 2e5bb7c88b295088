"""Cases about a list of papers as an examiner reads them: the broker checks what the parties brought, and
the key is exactly what the case leaves out — so the papers the case names decide the answer — with
distractors that are papers the textbook does not require there. Identity papers and the application form
are never the one left out; lists of contents (an agreement's clauses, a notice board) and lists that are
not requirements are not told this way; a 灵活 request in a chapter that holds such a list gets the case
before any fixed frame."""

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
PRESALE = Slice(
    id="s-presale",
    path=(*_CHAPTER, "第三节 转移登记", "二、预告登记材料"),
    mastery="掌握",
    text=(
        "因预购商品房申请预告登记的，买卖双方一般应当提交下列材料：（1）不动产登记申请书；（2）申请人的身份证明；"
        "（3）已经备案的商品房预售合同；（4）预告登记协议书。"
    ),
)
KINDS = Slice(
    id="s-kinds",
    path=(*_CHAPTER, "第一节 登记类型", "一、类型"),
    mastery="了解",
    text="按照登记的内容，不动产登记可分为首次登记、变更登记、转移登记和注销登记。",
)
SLICES = [MATERIALS, PAPERS, AGREEMENT, DISPLAY, PRESALE, KINDS]
_STATED = re.compile(r"带来了(.+?)。(?:按照规定|[\u4e00-\u9fff]某据此认为)")
_BROUGHT = re.compile(r"经纪人员([\u4e00-\u9fff]某)帮(?:双方|其)核对材料，(?:双方|其)带来了")
# Papers no applicant goes without: always among what the case names.
_ALWAYS = ["不动产登记申请书", "申请人的身份证明"]


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
def test_the_key_is_the_one_required_paper_the_parties_have_not_brought(seed: int):
    written = _write(MATERIALS, "single", seed)
    assert written is not None
    stem = written.draft.stem
    assert re.match(r"买方[\u4e00-\u9fff]某与卖方[\u4e00-\u9fff]某因买卖申请房屋转移登记，", stem), "no date"
    assert _BROUGHT.search(stem)
    required = [*_ALWAYS, "不动产权属证书", "房屋买卖合同", "契税等税费的完税凭证"]
    (key,) = _keyed(written)
    assert key in required and key not in _ALWAYS
    assert sorted([*_stated(written), key]) == sorted(required)  # what the case names plus the key: the list
    wrong = [o for o in written.draft.options if o != key]
    assert len(wrong) == 3
    assert all(re.search(r"(证明|证书|委托书|申请书|合同|凭证)$", o) for o in wrong)
    assert stem.endswith("。按照规定，买卖双方一般应当提交的材料还包括（　）。")
    assert stem.count("因买卖申请房屋转移登记") == 1, "the case's condition is told once"
    assert "其他材料" not in stem


def test_no_option_is_a_paper_the_case_tells_brought():
    """A paper the stem says the parties brought would be struck by reading alone (D3): every wrong option
    is a paper another rule asks for, named with the condition that asks for it."""
    seen_rule = 0
    for seed in range(6):
        for qtype in ("single", "multi"):
            written = _write(MATERIALS, qtype, seed)
            assert written is not None
            keyed = _keyed(written)
            stated = _stated(written)
            for letter, option in zip("ABCDE", written.draft.options, strict=False):
                assert option not in stated, written.draft.stem
                if option in keyed:
                    continue
                note = re.search(f"选项{letter}“{re.escape(option)}”([^；。]+)", written.draft.explanation)
                assert note, written.draft.explanation
                assert "已经带来" not in note[1]
                if option in ("授权委托书", "继承权公证书"):
                    seen_rule += 1
                    assert re.search("(代理人|继承人)申请登记时才需要提交的材料", note[1])
    assert seen_rule


@pytest.mark.parametrize("qtype", ["single", "multi", "judge"])
def test_a_list_of_contents_is_no_case_of_something_forgotten(qtype: str):
    for seed in range(6):
        assert _write(AGREEMENT, qtype, seed) is None
        assert _write(DISPLAY, qtype, seed) is None


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
    assert authored.slice_id in {MATERIALS.id, PRESALE.id}
    assert re.search(r"带来了.+还包括（　）", authored.draft.stem)


@pytest.mark.parametrize("seed", range(8))
def test_a_judge_is_the_broker_s_conclusion_that_nothing_is_lacking_true_only_when_the_case_names_it_all(
    seed: int,
):
    written = _write(PRESALE, "judge", seed)
    assert written is not None
    stem = written.draft.stem
    broker = _BROUGHT.search(stem)
    assert broker, stem
    required_ = "买卖双方一般应当提交的材料"
    assert stem.endswith(f"{broker[1]}据此认为，{required_}已经齐全。（　）")
    required = [*_ALWAYS, "已经备案的商品房预售合同", "预告登记协议书"]
    assert all(paper in _stated(written) for paper in _ALWAYS)
    complete = all(paper in _stated(written) for paper in required)
    assert written.draft.answer == ("A" if complete else "B")
    if not complete:
        (left,) = [paper for paper in required if paper not in _stated(written)]
        assert f"本案当事人尚未带来{left}" in written.draft.explanation


def test_a_list_ending_in_other_papers_is_never_judged_complete():
    """ "…以及其他材料": whether the parties have everything could never be settled."""
    assert all(_write(MATERIALS, "judge", seed) is None for seed in range(6))


def test_the_critic_rejects_a_completeness_judge_keyed_the_wrong_way():
    facts = _facts()
    library = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=facts)
    for seed in range(4):
        written = _write(PRESALE, "judge", seed)
        assert written is not None
        flipped = "B" if written.draft.answer == "A" else "A"
        authored = {"draft": written.draft.model_dump() | {"answer": flipped}, "qtype": "judge"}
        question = write_question(authored, PRESALE, "flexible")
        assert ground_question(question, PRESALE, library).issues(strict=True) != []
