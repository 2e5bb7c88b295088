"""Table questions as an examiner reads them: a row is the situation and the other rows' cells of the same
column are the distractors (1% / 1.5% / 2% / 3%), each explained by its own row; 灵活 lookups give a client's
concrete figure instead of the row's bound; comparison tables are not asked as lookups."""

from __future__ import annotations

import random
import re

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.table import RECIPE
from graph.checks import run_checks
from graph.nodes.writer import write_question
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from tests.recipekit import bundled_questions

SLICE = Slice(
    id="s-deed", path=("第四篇 交易税费", "第七章 买方税费", "三、契税的税率"), mastery="掌握", text=""
)
DEED_HEADER = ("家庭住房套数", "建筑面积", "契税税率")
LAYOUT_HEADER = ("户型", "特点")
CONDUCT_HEADER = ("类别", "禁止行为")


def _rows(prefix: str, header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[Fact]:
    ids = [f"{prefix}{i}" for i in range(len(rows))]
    return [
        Fact(
            id=ids[i],
            kind="table_row",
            slice_id=SLICE.id,
            source="| " + " | ".join(cells) + " |",
            subject=cells[0],
            header=header,
            items=cells,
            related=tuple(other for other in ids if other != ids[i]),
        )
        for i, cells in enumerate(rows)
    ]


DEED = _rows(
    "deed",
    DEED_HEADER,
    [
        ("首套", "140㎡及以下", "1%"),
        ("首套", "140㎡以上", "1.5%"),
        ("第二套", "140㎡以上", "2%"),
        ("第三套及以上", "—", "3%"),
    ],
)
LAYOUT = _rows(
    "layout",
    LAYOUT_HEADER,
    [
        ("平层", "全部房间位于同一楼层平面"),
        ("错层", "同一套内不同功能区的地面有高差，但不足一个自然层"),
        ("跃层", "一套住房占用上下两个自然层，套内设楼梯连通"),
        ("复式", "在层高较高的一个自然层内增建夹层"),
    ],
)
CONDUCT = _rows(
    "conduct",
    CONDUCT_HEADER,
    [
        ("自我交易", "承购、承租自己提供经纪服务的房屋"),
        ("资金挪用", "侵占、挪用房地产交易资金"),
        ("赚取差价", "对交易当事人隐瞒真实的房屋交易信息，低价收进高价卖出房屋赚取差价"),
        ("操纵价格", "捏造散布涨价信息"),
    ],
)
COMPARISON = _rows(
    "compare",
    ("比较项目", "居间", "代理"),
    [
        ("行事名义", "以经纪机构自己的名义", "以委托人的名义"),
        ("委托方", "可同时接受买卖双方委托", "通常只代表一方"),
        ("法律后果", "由交易双方各自承担", "由被代理人承担"),
    ],
)


def _write(fact: Fact, facts: list[Fact], qtype: str, mode: str = "strict", seed: int = 0) -> Written | None:
    task = Task(slice=SLICE, qtype=qtype, mode=mode, seed=seed, facts=FactBase(facts))
    return RECIPE.write(fact, Brief(task=task, facts=task.facts, rng=random.Random(seed)))


def _passes(written: Written, qtype: str, mode: str) -> list[str]:
    authored = {"draft": written.draft.model_dump(), "qtype": written.qtype, "fact_ids": written.fact_ids}
    return [issue.detail for issue in run_checks(write_question(authored, SLICE, mode), qtype)]


def _key(written: Written) -> str:
    return written.draft.options[ord(written.draft.answer) - 65]


def test_a_lookup_offers_the_same_column_of_the_other_rows_each_explained_by_its_row():
    written = _write(DEED[1], DEED, "single")
    assert written is not None
    draft = written.draft
    assert "首套" in draft.stem and "140㎡以上" in draft.stem and "1.5" not in draft.stem
    assert draft.options == ["1%", "1.5%", "2%", "3%"] and _key(written) == "1.5%"
    analysis = draft.explanation.split("试题分析：")[1]
    assert "“2%”是第二套，建筑面积140㎡以上的契税税率" in analysis
    assert "“3%”是第三套及以上的契税税率" in analysis
    assert all(row.source in draft.sources for row in DEED)
    assert _passes(written, "single", "strict") == []


def test_a_flexible_lookup_is_a_clients_figure_not_the_rows_bound():
    seen = set()
    for seed in range(8):
        written = _write(DEED[0], DEED, "single", "flexible", seed)
        assert written is not None
        stem = written.draft.stem
        assert "140㎡及以下" not in stem and re.search(r"先生|女士", stem)
        area = float(re.search(r"(\d+)㎡", stem)[1])
        assert area < 140 and _key(written) == "1%"
        assert _passes(written, "single", "flexible") == []
        seen.add(stem)
    assert len(seen) > 1  # another client, another figure


def test_a_flexible_judge_states_the_rows_value_or_a_neighbours():
    answers = set()
    for seed in range(12):
        written = _write(DEED[1], DEED, "judge", "flexible", seed)
        assert written is not None
        stated = re.search(r"为(\d+(?:\.\d+)?%)。", written.draft.stem)[1]
        assert (written.draft.answer == "A") == (stated == "1.5%")
        answers.add(written.draft.answer)
    assert answers == {"A", "B"}


def test_recognition_describes_the_row_and_asks_its_label():
    written = _write(LAYOUT[2], LAYOUT, "single")
    assert written is not None
    draft = written.draft
    assert "一套住房占用上下两个自然层" in draft.stem and "跃层" not in draft.stem
    assert _key(written) == "跃层" and set(draft.options) <= {"平层", "错层", "跃层", "复式"}
    for option in draft.options:
        assert f"选项{chr(65 + draft.options.index(option))}“{option}”的特点是" in draft.explanation
    assert _passes(written, "single", "strict") == []


def test_a_label_the_description_all_but_names_is_not_asked():
    # "…赚取差价" would hand the examinee the label 赚取差价
    for seed in range(6):
        written = _write(CONDUCT[2], CONDUCT, "single", seed=seed)
        assert written is None or "赚取差价" not in written.draft.options


def test_a_conduct_cell_told_with_a_name_is_no_flexible_question():
    """A row's cell told with a name ("郭某承购、承租自己提供经纪服务的房屋。郭某的这一行为属于（　）") is the
    row's own words, not a case (D9): the flexible recognition is declined, single and judge alike."""
    for qtype in ("single", "judge"):
        for seed in range(6):
            written = _write(CONDUCT[0], CONDUCT, qtype, "flexible", seed)
            assert written is None or "这一行为属于" not in written.draft.stem, written.draft.stem


def test_descriptions_that_are_no_conduct_are_not_told_as_acts():
    for seed in range(6):
        written = _write(LAYOUT[3], LAYOUT, "single", "flexible", seed)
        assert written is None or "行为" not in written.draft.stem


def test_comparison_tables_and_tables_too_small_are_declined():
    for row in COMPARISON:
        assert _write(row, COMPARISON, "single") is None
    assert _write(DEED[0], DEED[:2], "single") is None


def test_strict_and_flexible_stems_differ_and_seeds_vary_the_question():
    strict = _write(DEED[0], DEED, "single")
    flexible = _write(DEED[0], DEED, "single", "flexible")
    assert strict is not None and flexible is not None
    assert "140㎡及以下" in strict.draft.stem and "140㎡及以下" not in flexible.draft.stem
    again = _write(DEED[0], DEED, "single", "flexible")
    assert again is not None and again.draft == flexible.draft
    orders = {
        tuple(w.draft.options) for seed in range(8) if (w := _write(LAYOUT[0], LAYOUT, "single", seed=seed))
    }
    assert len(orders) > 1


def test_the_bundled_knowledge_base_yields_table_questions_that_pass_the_checks(compiled_sample):
    facts, slices = compiled_sample
    produced = [bool(questions) for _, questions in bundled_questions(RECIPE, "table_row", facts, slices)]
    assert produced and sum(produced) * 4 >= len(produced)


def _chosen(written: Written) -> list[tuple[str, bool]]:
    return [(text, chr(65 + i) in written.draft.answer) for i, text in enumerate(written.draft.options)]


SECOND_SMALL = ("第二套", "140㎡及以下", "1%")
DEED_FULL = _rows("full", DEED_HEADER, [*(row.items for row in DEED), SECOND_SMALL])


def test_flexible_multi_asks_which_households_pay_the_rows_rate():
    """Examiners struck "下列情形中，（　）的，契税税率为1%" over bare table rows, two of them of one row: a
    case question asks which people pay it, each option a person in a row of their own."""
    shapes = set()
    for seed in range(10):
        written = _write(DEED_FULL[0], DEED_FULL, "multi", "flexible", seed)
        assert written is not None and written.fact_ids == ["full0"]
        assert written.draft.stem.endswith("，下列人员中，适用的契税税率为1%的有（　）。"), written.draft.stem
        rows = set()
        for text, chosen in _chosen(written):
            assert re.match(r"^.某的情况为：", text), text
            area = re.search(r"建筑面积(\d+)㎡", text)
            assert "140㎡" not in text  # every household has its own area, not the row's bound
            small_home = area is not None and float(area[1]) <= 140 and "第三套" not in text
            assert chosen == small_home, text
            shape = text.split("：")[1].split("，")[0]
            shapes.add(shape)
            rows.add((shape, small_home))
        assert len(rows) == len(written.draft.options), written.draft.options  # no row told twice
        assert len(written.draft.answer) >= 2
        assert _passes(written, "multi", "flexible") == []
    assert {"首套", "第二套"} <= shapes  # both 1% rows are asked, not only the one the question starts from


def test_flexible_multi_is_declined_for_rows_told_apart_by_label_only():
    land = _rows(
        "land",
        ("用途", "出让最高年限（年）"),
        [("居住用地", "70"), ("工业用地", "50"), ("商业、旅游、娱乐用地", "40"), ("综合或者其他用地", "50")],
    )
    assert _write(land[1], land, "multi", "flexible") is None
    assert _write(DEED[0], DEED, "multi", "strict") is None


def test_each_situation_is_explained_by_the_row_it_falls_in():
    written = _write(DEED_FULL[0], DEED_FULL, "multi", "flexible", seed=4)
    assert written is not None
    analysis = written.draft.explanation.split("试题分析：")[1]
    for text, _ in _chosen(written):
        case = text.split("：")[1]
        row = "首套" if case.startswith("首套") else case.split("，")[0]
        assert f"属于“{row}" in analysis
    assert set(written.draft.sources) <= {row.source for row in DEED_FULL}


def test_a_table_of_three_rows_gives_no_single_choice_of_three_options():
    """A single choice is printed with four options (A–D): two other rows are too few to ask among, though
    a judge can still state a neighbour's value."""
    three = _rows(
        "short", DEED_HEADER, [("首套", "140㎡及以下", "1%"), ("第二套", "—", "2%"), ("第三套", "—", "3%")]
    )
    for seed in range(6):
        assert _write(three[0], three, "single", seed=seed) is None
    assert any(_write(three[0], three, "judge", seed=seed) for seed in range(6))


def test_a_cell_of_figures_is_no_description_to_recognise_a_row_by():
    """ "2016年2月22日至2024年11月30日为1%（北上广深3%）的属于" flattens a row of values into a machine
    sentence: a row is recognised only by words that describe it."""
    periods = _rows(
        "period",
        ("家庭住房套数", "2016年2月22日至2024年11月30日"),
        [
            ("家庭唯一住房", "1%（面积较大的1.5%）"),
            ("家庭第二套住房", "1%（北上广深3%）"),
            ("家庭第三套及以上住房", "3%（不区分面积）"),
            ("非住宅", "3%（含商铺、办公）"),
        ],
    )
    for qtype in ("single", "judge"):
        for seed in range(6):
            written = _write(periods[1], periods, qtype, seed=seed)
            assert written is None or "2016年" not in written.draft.stem, written.draft.stem


NAMES = _rows(
    "names",
    ("具体表现", "行为名称", "是否纳入监管"),
    [
        ("自己购买或者承租所经纪的房屋", "自买自租", "否"),
        ("隐瞒真实交易信息，低价收进高价卖出", "赚取差价", "否"),
        ("捏造散布涨价信息，哄抬房价", "操纵市场价格", "否"),
        ("侵占、挪用房地产交易资金", "挪用交易资金", "是"),
    ],
)


def test_a_name_is_asked_as_what_the_case_belongs_to_and_a_yes_no_column_is_never_asked():
    """ "…的行为名称为" and "是否纳入监管为…" are a machine's key and value; the field asks "…的行为属于"."""
    stems = set()
    for seed in range(8):
        for qtype in ("single", "judge"):
            written = _write(NAMES[1], NAMES, qtype, seed=seed)
            if written is not None:
                stems.add(written.draft.stem)
    assert stems
    assert any("隐瞒真实交易信息，低价收进高价卖出的行为属于" in stem for stem in stems)
    assert not any("名称为" in stem or "是否" in stem for stem in stems), stems


PERIODS = [
    Fact(
        id=f"period{i}",
        kind="table_row",
        slice_id="s-rates",
        source="| " + " | ".join(cells) + " |",
        subject=cells[0],
        header=("家庭住房套数", "2016年2月22日至2024年11月30日", "2024年12月1日起"),
        items=cells,
        related=tuple(f"period{j}" for j in range(4) if j != i),
    )
    for i, cells in enumerate(
        [
            ("首套", "1.5%", "1%"),
            ("第二套", "2%", "1.5%"),
            ("第三套及以上", "3%", "2.5%"),
            ("非住宅", "4%", "3%"),
        ]
    )
]
RATES = Slice(
    id="s-rates",
    path=("第四篇 交易税费", "第七章 买方税费", "三、个人购买住房的契税税率"),
    mastery="掌握",
    text="",
)


def test_a_column_named_by_a_period_is_asked_as_the_value_the_table_gives():
    """ "…的，2024年12月1日起为3%" was struck as a fragment that never says what 3% is (D4); the stem and the
    explanation name the rate by the table's subject."""
    for qtype in ("single", "judge"):
        for seed in range(4):
            task = Task(slice=RATES, qtype=qtype, mode="strict", seed=seed, facts=FactBase(PERIODS))
            written = RECIPE.write(PERIODS[1], Brief(task=task, facts=task.facts, rng=random.Random(seed)))
            assert written is not None
            assert "起适用的契税税率为" in written.draft.stem, written.draft.stem
            analysis = written.draft.explanation.split("2、试题分析")[1]
            assert "起为" not in written.draft.stem and "起适用的契税税率" in analysis
            assert not re.search(r"起[；。]", analysis), analysis


def test_a_header_naming_a_division_is_no_stem() -> None:
    """ "按房屋的用途分类划分，…的属于（　）" pastes the table's header into the stem: examiners strike it. A
    header naming the kind of the rows ("户型") is asked as "…的户型是（　）"."""
    uses = _rows(
        "use",
        ("按房屋的用途分类划分", "说明"),
        [
            ("住宅", "供家庭居住使用的房屋"),
            ("商业用房", "商场、店铺、酒店等用于经营的房屋"),
            ("办公用房", "写字楼等用于办公的房屋"),
            ("工业用房", "厂房、仓库等用于生产和储存的房屋"),
        ],
    )
    assert all(_write(uses[0], uses, "single", seed=seed) is None for seed in range(6))
    stems = {w.draft.stem for seed in range(6) if (w := _write(LAYOUT[2], LAYOUT, "single", seed=seed))}
    assert stems and all(stem.endswith("的户型是（　）。") for stem in stems)


TAXES = _rows(
    "tax",
    ("税种", "缴纳人", "计税依据"),
    [
        ("土地增值税", "卖方", "增值额"),
        ("印花税", "买卖双方", "书据所列金额"),
        ("不动产登记费", "买方", "按件"),
        ("增值税", "卖方", "成交价÷1.03"),
        ("契税", "买方", "不含增值税成交价"),
        ("个人所得税", "卖方", "转让所得"),
    ],
)


def test_a_lookup_neither_names_its_answer_in_the_stem_nor_mixes_forms_of_option() -> None:
    """Struck at sight: "土地增值税的计税依据为" asked with 增值额 (the tax's name says it), and "按件" or
    "成交价÷1.03" beside names of amounts. A row whose name does not give its value away is asked, with
    distractors written as its value is."""
    stems = {}
    for row in TAXES:
        for seed in range(8):
            written = _write(row, TAXES, "single", seed=seed)
            if written is not None and written.draft.stem.startswith(row.items[0]):
                stems.setdefault(row.items[0], []).append(written.draft.options)
    assert "土地增值税" not in stems
    assert stems.get("契税")
    for options in stems["契税"]:
        assert not [o for o in options if o.startswith("按") or "÷" in o]


ACTS = _rows(
    "act",
    ("行为", "表现"),
    [
        ("自买自租", "自己购买或者承租所经纪的房屋"),
        ("分割出租", "把房屋隔成多个小间出租"),
        ("赚取差价", "隐瞒真实交易信息，低价收进高价卖出"),
        ("签订阴阳合同", "为规避税费签订两份不同价款的合同"),
        ("捆绑收费", "强制客户接受额外的有偿服务"),
    ],
)


def test_a_name_abbreviated_from_its_description_is_not_asked_by_it() -> None:
    """Struck: "自己购买或者承租所经纪的房屋的行为属于" keyed "自买自租", the stem's words shortened. The
    other acts, whose names say something the description does not, are still asked."""
    keys = {
        w.draft.options["ABCD".index(w.draft.answer)]
        for row in ACTS
        for seed in range(8)
        if (w := _write(row, ACTS, "single", seed=seed)) and w.draft.answer in "ABCD"
    }
    assert keys and "自买自租" not in keys


NAMED_ACTS = _rows(
    "named",
    ("违规表现", "行为名称"),
    [
        ("自己购买或者承租所经纪的房屋", "自买自租"),
        ("把房屋隔成多个小间出租", "分割出租"),
        ("隐瞒真实交易信息，低价收进高价卖出", "赚取差价"),
        ("为规避税费签订两份不同价款的合同", "签订阴阳合同"),
        ("把监管或者代收的房款挪作他用", "挪用交易资金"),
    ],
)


def test_a_name_looked_up_by_the_description_it_abbreviates_is_not_asked() -> None:
    """The same leak asked the other way round: "自己购买或者承租所经纪的房屋的行为属于" keyed 自买自租."""
    keys = {
        w.draft.options["ABCD".index(w.draft.answer)]
        for row in NAMED_ACTS
        for seed in range(8)
        if (w := _write(row, NAMED_ACTS, "single", seed=seed)) and w.draft.answer in "ABCD"
    }
    assert keys and "自买自租" not in keys


BASES = _rows(
    "base",
    ("税种", "计税依据"),
    [
        ("个人所得税（核定）", "不含增值税转让收入"),
        ("契税", "不含增值税成交价"),
        ("登记费", "按件定额收取"),
        ("个人所得税（实际所得）", "转让收入减除原值和合理费用"),
        ("附加税费", "实际缴纳的增值税税额"),
    ],
)


def test_a_row_whose_description_is_the_same_sum_in_other_words_is_no_distractor():
    """契税's "不含增值税成交价" beside 个税's "不含增值税转让收入" was struck (D2): in one deal the two are
    the same amount, so 契税 answers "计税依据为不含增值税转让收入的" as well."""
    for seed in range(12):
        written = _write(BASES[0], BASES, "single", seed=seed)
        assert written is not None and _key(written) == "个人所得税（核定）"
        assert "契税" not in written.draft.options
