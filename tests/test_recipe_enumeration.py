"""Enumeration questions as an examiner reads them: the list's items are the key, the distractors are items
of a sibling list of the same kind (never the same list), each explained as belonging to the other list;
灵活 mode only where the list is conduct a person can be shown doing."""

from __future__ import annotations

import random
import re

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.enumeration import RECIPE
from graph.checks import run_checks
from graph.nodes.writer import write_question
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from tests.recipekit import bundled_questions

SLICE = Slice(
    id="s-heirs", path=("第六篇 权属", "第十四章 共有与继承", "四、法定继承的顺序"), mastery="掌握", text=""
)


def _list(id_: str, head: str, items: tuple[str, ...], source: str, related: tuple[str, ...] = ()) -> Fact:
    return Fact(
        id=id_,
        kind="enumeration",
        slice_id=SLICE.id,
        source=source,
        subject=head,
        items=items,
        related=related,
    )


FIRST = _list(
    "heirs-1",
    "第一顺序继承人",
    ("配偶", "子女", "父母"),
    "第一顺序继承人为配偶、子女、父母。",
    ("heirs-2",),
)
SECOND = _list(
    "heirs-2",
    "第二顺序继承人",
    ("兄弟姐妹", "祖父母", "外祖父母"),
    "第二顺序继承人为兄弟姐妹、祖父母、外祖父母。",
    ("heirs-1",),
)
HEIRS = [FIRST, SECOND]
FORBIDDEN = _list(
    "conduct-1",
    "经纪人员的禁止行为",
    ("承购、承租自己提供经纪服务的房屋", "侵占、挪用房地产交易资金", "对交易当事人隐瞒真实的房屋交易信息"),
    "经纪人员不得有下列行为：（1）承购、承租自己提供经纪服务的房屋；（2）侵占、挪用房地产交易资金；"
    "（3）对交易当事人隐瞒真实的房屋交易信息。",
    ("conduct-2",),
)
DUTIES = _list(
    "conduct-2",
    "经纪人员应当履行的行为规范",
    ("向委托人如实报告订立合同的机会", "妥善保管委托人提供的资料", "按照约定为委托人保守商业秘密"),
    "经纪人员应当履行的行为规范包括：（1）向委托人如实报告订立合同的机会；（2）妥善保管委托人提供的资料；"
    "（3）按照约定为委托人保守商业秘密。",
    ("conduct-1",),
)
CONDUCT = [FORBIDDEN, DUTIES]


def _write(fact: Fact, facts: list[Fact], qtype: str, mode: str = "strict", seed: int = 0) -> Written | None:
    task = Task(slice=SLICE, qtype=qtype, mode=mode, seed=seed, facts=FactBase(facts))
    return RECIPE.write(fact, Brief(task=task, facts=task.facts, rng=random.Random(seed)))


def _passes(written: Written, qtype: str, mode: str) -> list[str]:
    authored = {"draft": written.draft.model_dump(), "qtype": written.qtype, "fact_ids": written.fact_ids}
    return [issue.detail for issue in run_checks(write_question(authored, SLICE, mode), qtype)]


def _keys(written: Written) -> set[str]:
    return {written.draft.options[ord(letter) - 65] for letter in written.draft.answer}


def test_multi_keys_the_list_and_takes_every_distractor_from_the_sibling_list():
    for seed in range(8):
        written = _write(FIRST, HEIRS, "multi", seed=seed)
        assert written is not None
        draft = written.draft
        wrong = set(draft.options) - _keys(written)
        assert 2 <= len(_keys(written)) <= 3 and _keys(written) <= set(FIRST.items)
        assert wrong and wrong <= set(SECOND.items)
        assert len(set(draft.options)) == len(draft.options) == 5
        assert max(len(o) for o in draft.options) <= 6
        for option in wrong:
            assert f"“{option}”属于第二顺序继承人，不属于第一顺序继承人" in draft.explanation
        assert FIRST.source in draft.explanation and SECOND.source in draft.sources
        assert _passes(written, "multi", "strict") == []


def test_single_asks_either_what_belongs_or_what_does_not():
    frames = set()
    for seed in range(12):
        written = _write(SECOND, HEIRS, "single", seed=seed)
        assert written is not None
        (key,) = _keys(written)
        asks_outsider = "不属于" in written.draft.stem
        frames.add(asks_outsider)
        assert key in (FIRST.items if asks_outsider else SECOND.items)
        assert _passes(written, "single", "strict") == []
    assert frames == {True, False}


def test_judge_is_true_exactly_when_every_named_item_is_on_the_list():
    answers = set()
    for seed in range(16):
        written = _write(FIRST, HEIRS, "judge", seed=seed)
        assert written is not None
        named = set(re.findall("|".join(FIRST.items + SECOND.items), written.draft.stem.split("第一顺序")[0]))
        named |= set(re.findall("|".join(FIRST.items + SECOND.items), written.draft.stem.split("包括")[-1]))
        assert (written.draft.answer == "A") == (not named & set(SECOND.items))
        answers.add(written.draft.answer)
    assert answers == {"A", "B"}


def test_a_list_without_a_sibling_of_its_kind_is_declined():
    for qtype in ("multi", "single", "judge"):
        assert _write(FIRST, [FIRST], qtype) is None
    # the duties are not heirs: a 禁止行为 item among 配偶 and 子女 would eliminate itself
    assert _write(FIRST, [FIRST, FORBIDDEN], "multi") is None


def test_a_listed_act_told_with_a_name_is_no_flexible_question():
    """ "郭某承购、承租自己提供经纪服务的房屋。郭某的这一行为属于…" restates a list item with a name attached
    (D9): the flexible judge is declined, so another recipe serves the request."""
    for seed in range(10):
        assert _write(FORBIDDEN, CONDUCT, "judge", "flexible", seed) is None


def test_a_list_that_is_no_conduct_has_no_flexible_question():
    for qtype in ("multi", "single", "judge"):
        assert _write(FIRST, HEIRS, qtype, "flexible") is None


def test_same_seed_same_question_other_seeds_vary_it():
    assert _write(FIRST, HEIRS, "multi", seed=4) == _write(FIRST, HEIRS, "multi", seed=4)
    shown = {tuple(w.draft.options) for seed in range(8) if (w := _write(FIRST, HEIRS, "multi", seed=seed))}
    assert len(shown) > 1


def test_the_bundled_knowledge_base_yields_enumeration_questions_that_pass_the_checks(compiled_sample):
    facts, slices = compiled_sample
    produced = []
    for fact, questions in bundled_questions(RECIPE, "enumeration", facts, slices):
        for question in questions:
            assert set(question.options) - set(fact.items) or question.qtype == "judge"
        produced.append(bool(questions))
    # one list in seven at least (the flexible judge of a listed act, once the eighth, is declined)
    assert produced and sum(produced) * 7 >= len(produced)


WILLS = _list(
    "wills-1",
    "遗嘱的形式",
    ("自书遗嘱", "代书遗嘱", "打印遗嘱", "录音录像遗嘱"),
    "遗嘱的形式有自书遗嘱、代书遗嘱、打印遗嘱、录音录像遗嘱。",
    ("heirs-2", "wills-2"),
)
KINDS_OF_WILLS = _list(
    "wills-2",
    "遗嘱的特殊类型",
    ("共同遗嘱", "密封遗嘱", "相互遗嘱"),
    "遗嘱的特殊类型有共同遗嘱、密封遗嘱、相互遗嘱。",
    ("wills-1",),
)


def test_items_of_a_list_of_another_kind_never_pass_for_forms_of_a_will() -> None:
    # heirs share no ending with the forms of a will: "外祖父母" among them is eliminated at sight
    for qtype in ("multi", "single", "judge"):
        assert all(_write(WILLS, [WILLS, SECOND], qtype, seed=seed) is None for seed in range(6))
    written = [
        w for seed in range(6) if (w := _write(WILLS, [WILLS, SECOND, KINDS_OF_WILLS], "multi", seed=seed))
    ]
    assert written
    for question in written:
        assert all(option.endswith("遗嘱") for option in question.draft.options), question.draft.options
        assert _passes(question, "multi", "strict") == []


STRUCTURES = _list(
    "structures",
    "按建筑结构划分的房屋类型",
    ("砖木结构", "砖混结构", "框架结构"),
    "按建筑结构，房屋分为砖木结构、砖混结构和框架结构。",
)
STEEL = _list(
    "steel",
    "钢结构的特点",
    ("强度高", "自重轻", "施工速度快"),
    "钢结构的特点是强度高、自重轻、施工速度快。",
)


def test_a_list_of_structures_lends_no_distractor_to_a_list_of_features() -> None:
    """ "砖木结构" among the features of steel is eliminated at sight: the other list's items all name a
    structure, this list's do not."""
    for qtype in ("multi", "single", "judge"):
        assert all(_write(STEEL, [STEEL, STRUCTURES], qtype, seed=seed) is None for seed in range(6))


def test_a_multiple_choice_has_five_options_or_is_not_written() -> None:
    """Two parents' items and two grandparents' make four options: too few for the field's A–E."""
    parents = _list("p", "第一顺序继承人", ("配偶", "子女"), "第一顺序继承人为配偶、子女。")
    grand = _list("g", "第二顺序继承人", ("祖父母", "外祖父母"), "第二顺序继承人为祖父母、外祖父母。")
    assert all(_write(parents, [parents, grand], "multi", seed=seed) is None for seed in range(6))
    assert all(len(_write(FIRST, HEIRS, "multi", seed=seed).draft.options) == 5 for seed in range(6))


def test_a_single_choice_has_four_options_asking_what_does_not_belong_when_few_lie_outside() -> None:
    """Two grandparents cannot fill three distractors around one first-order heir: the question then asks
    which one of four is not a first-order heir."""
    grand = _list("g", "第二顺序继承人", ("祖父母", "外祖父母"), "第二顺序继承人为祖父母、外祖父母。")
    for seed in range(8):
        written = _write(FIRST, [FIRST, grand], "single", seed=seed)
        assert written is not None and len(written.draft.options) == 4
        assert "不属于" in written.draft.stem and _keys(written) <= set(grand.items)


def test_a_list_headed_by_a_bare_ordinal_is_not_asked() -> None:
    """ "下列各项中，属于第一顺序的是" leaves the reader to guess what is ordered: heirs, steps or taxes."""
    first = _list(
        "o1", "第一顺序", FIRST.items, "遗产按照下列顺序继承：第一顺序为配偶、子女、父母。", ("o2",)
    )
    second = _list("o2", "第二顺序", SECOND.items, "第二顺序为兄弟姐妹、祖父母、外祖父母。", ("o1",))
    for qtype in ("multi", "single", "judge"):
        assert all(_write(first, [first, second], qtype, seed=seed) is None for seed in range(6))


def test_steps_of_a_procedure_and_catch_all_items_are_no_options() -> None:
    steps = _list(
        "st", "资金和手续的办理顺序", ("网签合同", "首付款存入监管账户", "转移登记"), "办理顺序为：…"
    )
    other = _list("ot", "贷款的办理顺序", ("申请贷款", "银行审批", "发放贷款"), "贷款的办理顺序为：…")
    assert all(_write(steps, [steps, other], "single", seed=seed) is None for seed in range(6))
    change = _list(
        "ch",
        "可以申请变更登记的情形",
        ("权利人姓名变更", "不动产坐落变更", "共有性质变更", "法律、行政法规规定的其他情形"),
        "有下列情形之一的，可以申请变更登记：……",
    )
    cancel = _list(
        "ca",
        "可以申请注销登记的情形",
        ("不动产灭失", "权利人放弃不动产权利", "不动产被依法征收", "法律、行政法规规定的其他情形"),
        "有下列情形之一的，可以申请注销登记：……",
    )
    for seed in range(6):
        written = _write(change, [change, cancel], "multi", seed=seed) or _write(
            change, [change, cancel], "single", seed=seed
        )
        assert written is None or not any("其他" in o for o in written.draft.options)


TRAITS = _list(
    "traits-1",
    "住房公积金的特点",
    ("强制性，单位和职工都应当按规定缴存", "互助性，缴存的资金用于发放贷款", "专用性，只能用于住房消费"),
    "住房公积金具有下列特点：（1）强制性，单位和职工都应当按规定缴存；（2）互助性，缴存的资金用于发放贷款；"
    "（3）专用性，只能用于住房消费。",
    ("traits-2",),
)
LOAN_TRAITS = _list(
    "traits-2",
    "商业性个人住房贷款的特点",
    ("市场性，利率由银行按市场确定", "营利性，银行以获取利息为目的", "普惠性，面向所有符合条件的借款人"),
    "商业性个人住房贷款具有下列特点：（1）市场性，利率由银行按市场确定；（2）营利性，银行以获取利息为目的；"
    "（3）普惠性，面向所有符合条件的借款人。",
    ("traits-1",),
)


def test_items_told_as_a_label_and_its_meaning_are_asked_by_their_labels():
    """ "强制性，单位和职工都应当按规定缴存" is one item with a comma: its label 强制性 is the option, as the
    field's papers print it; the list was not asked at all before."""
    facts = [TRAITS, LOAN_TRAITS]
    written = [w for seed in range(6) if (w := _write(TRAITS, facts, "multi", seed=seed))]
    assert written
    for question in written:
        assert _keys(question) <= {"强制性", "互助性", "专用性"}
        assert set(question.draft.options) - _keys(question) <= {"市场性", "营利性", "普惠性"}
        assert _passes(question, "multi", "strict") == []


NEEDS = Slice(
    id="s-needs", path=("第二篇 客源", "第四章 客户需求", "二、客户需求信息的内容"), mastery="掌握", text=""
)
NEEDS_SOURCE = "基本情况包括家庭成员、工作地点和联系方式；具体需求包括区域、面积、户型和楼层。"


def _needs(slice_: Slice) -> list[Fact]:
    lists = [
        ("basic", "基本情况", ("家庭成员", "工作地点", "联系方式")),
        ("wants", "具体需求", ("区域", "面积", "户型", "楼层")),
    ]
    return [
        Fact(id=i, kind="enumeration", slice_id=slice_.id, source=NEEDS_SOURCE, subject=head, items=items)
        for i, head, items in lists
    ]


def test_a_list_head_with_no_owner_is_asked_as_its_topic_s() -> None:
    """“属于基本情况的是” leaves the reader asking whose: the stem names it from the knowledge point."""
    facts = _needs(NEEDS)
    stems = []
    for qtype in ("single", "judge", "multi"):
        for seed in range(6):
            task = Task(slice=NEEDS, qtype=qtype, mode="strict", seed=seed, facts=FactBase(facts))
            written = RECIPE.write(facts[0], Brief(task=task, facts=task.facts, rng=random.Random(seed)))
            if written is not None:
                stems.append(written.draft.stem)
    assert stems
    assert all("客户需求信息中的基本情况" in stem for stem in stems), stems


def test_a_list_head_with_no_owner_and_no_topic_to_name_it_is_declined() -> None:
    bare = Slice(id="s-bare", path=("第二篇 客源", "第四章 客户需求", "二、内容"), mastery="掌握", text="")
    facts = _needs(bare)
    task = Task(slice=bare, qtype="single", mode="strict", seed=0, facts=FactBase(facts))
    assert RECIPE.write(facts[0], Brief(task=task, facts=task.facts, rng=random.Random(0))) is None
