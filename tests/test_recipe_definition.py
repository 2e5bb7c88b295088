"""Definition and classification questions as an examiner reads them: a meaning asks for its term, and the
other options are the other members of the same classification (砖木 / 砖混 / 钢筋混凝土 / 钢结构), each
explained by its own definition; a definition with nothing parallel to it is not asked."""

from __future__ import annotations

import random
import re

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.definition import RECIPE
from graph.checks import run_checks
from graph.nodes.writer import write_question
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice

SLICE = Slice(
    id="s-structure", path=("第一篇 房屋", "第二章 房屋类型", "一、按建筑结构分类"), mastery="掌握", text=""
)
STRUCTURES = ("钢结构", "钢筋混凝土结构", "砖混结构", "砖木结构")
MEANINGS = {
    "钢结构": "主要承重构件由钢材制作的结构",
    "钢筋混凝土结构": "梁、柱、墙、板均由钢筋混凝土制作的结构",
    "砖混结构": "以砖墙或砌块墙承重、楼板为钢筋混凝土的结构",
    "砖木结构": "以砖墙与木屋架、木楼板承重的结构",
}
CLASSIFIED = "按主要承重构件所用材料，房屋可分为钢结构、钢筋混凝土结构、砖混结构和砖木结构。"


def _definition(id_: str, term: str, category: str, source: str, siblings: tuple[str, ...] = ()) -> Fact:
    return Fact(
        id=id_,
        kind="definition",
        slice_id=SLICE.id,
        source=source,
        subject=term,
        category=category,
        siblings=siblings,
    )


MEANING_FACTS = [
    _definition(f"meaning-{i}", term, MEANINGS[term], f"{term}是指{MEANINGS[term]}。")
    for i, term in enumerate(STRUCTURES)
]
MEMBER_FACTS = [
    _definition(
        f"member-{i}",
        term,
        "按主要承重构件所用材料划分的房屋",
        CLASSIFIED,
        tuple(t for t in STRUCTURES if t != term),
    )
    for i, term in enumerate(STRUCTURES)
]
STRUCTURE_FACTS = MEANING_FACTS + MEMBER_FACTS
BRICK = MEANING_FACTS[2]
LONE = _definition("lone", "房龄", "房屋自竣工起已经使用的年数", "房龄是指房屋自竣工起已经使用的年数。")
CONDUCT = {
    "自我交易": "承购、承租自己提供经纪服务的房屋的行为",
    "赚取差价": "对交易当事人隐瞒真实的房屋交易信息，低价收进高价卖出房屋的行为",
    "操纵价格": "捏造散布涨价信息，操纵市场价格的行为",
    "强制交易": "以暴力、威胁手段强迫交易当事人签订合同的行为",
}
CONDUCT_FACTS = [
    _definition(f"conduct-{i}", term, meaning, f"{term}是指{meaning}。")
    for i, (term, meaning) in enumerate(CONDUCT.items())
] + [
    _definition(
        f"violation-{i}",
        term,
        "按违规情形划分的禁止行为",
        "按违规情形，禁止行为分为自我交易、赚取差价、操纵价格和强制交易。",
        tuple(t for t in CONDUCT if t != term),
    )
    for i, term in enumerate(CONDUCT)
]
SELF_DEALING = CONDUCT_FACTS[0]
INCOME = _definition(
    "income", "个人转让住房取得的所得", "财产转让所得", "个人转让住房取得的所得属于财产转让所得。"
)
PRIZE = _definition("prize", "个人取得的中奖所得", "偶然所得", "个人取得的中奖所得属于偶然所得。")
RENT = _definition(
    "rent", "个人出租住房取得的所得", "财产租赁所得", "个人出租住房取得的所得属于财产租赁所得。"
)
WAGE = _definition(
    "wage", "个人任职受雇取得的所得", "工资薪金所得", "个人任职受雇取得的所得属于工资薪金所得。"
)


def _write(fact: Fact, facts: list[Fact], qtype: str, mode: str = "strict", seed: int = 0) -> Written | None:
    task = Task(slice=SLICE, qtype=qtype, mode=mode, seed=seed, facts=FactBase(facts))
    return RECIPE.write(fact, Brief(task=task, facts=task.facts, rng=random.Random(seed)))


def _passes(written: Written, qtype: str, mode: str) -> list[str]:
    authored = {"draft": written.draft.model_dump(), "qtype": written.qtype, "fact_ids": written.fact_ids}
    return [issue.detail for issue in run_checks(write_question(authored, SLICE, mode), qtype)]


def test_a_meaning_asks_its_term_among_the_other_members_of_the_classification():
    written = _write(BRICK, STRUCTURE_FACTS, "single")
    assert written is not None
    draft = written.draft
    assert MEANINGS["砖混结构"] in draft.stem and "砖混结构" not in draft.stem
    assert draft.stem.startswith("按主要承重构件所用材料划分，")
    assert set(draft.options) <= set(STRUCTURES) and len(draft.options) == 4
    assert draft.options[ord(draft.answer) - 65] == "砖混结构"
    for option in draft.options:
        assert f"“{option}”是指{MEANINGS[option]}" in draft.explanation  # each by its own definition
    assert BRICK.source in draft.sources
    assert _passes(written, "single", "strict") == []


def test_a_judge_names_the_right_term_or_another_member_and_says_what_that_one_is():
    answers = set()
    for seed in range(10):
        written = _write(BRICK, STRUCTURE_FACTS, "judge", seed=seed)
        assert written is not None
        named = next(
            t
            for t in sorted(STRUCTURES, key=len, reverse=True)
            if written.draft.stem.endswith(f"{t}。（　）")
        )
        assert (written.draft.answer == "A") == (named == "砖混结构")
        if named != "砖混结构":
            assert f"“{named}”是指{MEANINGS[named]}" in written.draft.explanation
        answers.add(written.draft.answer)
    assert answers == {"A", "B"}


def test_a_definition_with_nothing_parallel_is_declined():
    for qtype in ("single", "judge"):
        assert _write(LONE, [LONE], qtype) is None
        assert _write(LONE, [LONE, *STRUCTURE_FACTS], qtype) is None  # 钢结构 is no alternative to 房龄


def test_a_class_is_asked_among_the_parallel_classes_defined_beside_it():
    written = _write(INCOME, [INCOME, PRIZE, RENT, WAGE], "single")
    assert written is not None
    draft = written.draft
    assert draft.stem.startswith("个人转让住房取得的所得") or "个人转让住房取得的所得属于" in draft.stem
    assert set(draft.options) == {"财产转让所得", "偶然所得", "财产租赁所得", "工资薪金所得"}
    assert draft.options[ord(draft.answer) - 65] == "财产转让所得"
    assert "属于“偶然所得”的是个人取得的中奖所得" in draft.explanation


def test_a_single_choice_has_four_options_or_is_not_written():
    """Field papers print a single choice with A–D: two parallel classes are too few to ask among."""
    assert _write(INCOME, [INCOME, PRIZE, RENT], "single") is None
    assert _write(INCOME, [INCOME, PRIZE, RENT], "judge") is not None


def test_flexible_tells_a_kind_of_conduct_as_a_persons_act():
    for qtype in ("single", "judge"):
        written = _write(SELF_DEALING, CONDUCT_FACTS, qtype, "flexible")
        assert written is not None
        stem = written.draft.stem
        name = re.search(r"\d+日，(.某)", stem)[1]
        assert f"{name}承购、承租自己提供经纪服务的房屋。{name}的这一行为属于" in stem
        assert _passes(written, qtype, "flexible") == []
    single = _write(SELF_DEALING, CONDUCT_FACTS, "single", "flexible")
    assert single is not None and set(single.draft.options) == set(CONDUCT)
    assert single.draft.options[ord(single.draft.answer) - 65] == "自我交易"


def test_flexible_declines_a_definition_that_is_no_act():
    for qtype in ("single", "judge"):
        assert _write(BRICK, STRUCTURE_FACTS, qtype, "flexible") is None


def test_same_seed_same_question_other_seeds_vary_it():
    assert _write(BRICK, STRUCTURE_FACTS, "single", seed=2) == _write(
        BRICK, STRUCTURE_FACTS, "single", seed=2
    )
    shown = {
        (w.draft.stem, tuple(w.draft.options))
        for seed in range(8)
        if (w := _write(BRICK, STRUCTURE_FACTS, "single", seed=seed))
    }
    assert len(shown) > 1


USES = ("住宅", "商业用房", "办公用房", "工业用房")
USE_FACTS = [
    _definition(
        f"use-{i}",
        term,
        "按房屋的用途分类划分的房屋",
        "按房屋的用途分类，房屋可分为住宅、商业用房、办公用房和工业用房。",
        tuple(t for t in USES if t != term),
    )
    for i, term in enumerate(USES)
] + [
    _definition(
        "use-shop",
        "商业用房",
        "商场、店铺、酒店等用于经营的房屋",
        "商业用房是指商场、店铺、酒店等用于经营的房屋。",
    )
]


def test_a_criterion_named_as_a_classification_is_not_said_twice() -> None:
    """Struck as stiff: "按房屋的用途分类划分，…称为". The stem says "按房屋的用途划分"."""
    stems = [
        w.draft.stem + w.draft.explanation
        for seed in range(8)
        if (w := _write(USE_FACTS[-1], USE_FACTS, "single", seed=seed))
    ]
    assert stems and all("分类划分" not in s for s in stems)
    assert any("按房屋的用途划分" in s for s in stems)
