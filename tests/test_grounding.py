"""Grounding: each statement a question asserts, read against a small textbook written for these tests, is
supported, contradicted (and why) or unknown; and the verdict turns that into the issues an examiner would
raise about the key."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from vocabulary.records import Calculation, Question

LISTING = Slice(
    id="listing",
    path=("第二篇 经纪业务", "第三章 房源", "第一节 房源信息采集"),
    mastery="掌握",
    text=(
        "经纪人员采集房源信息时，应当查看权属证书和身份证件原件并当面核对，不得仅凭业主口述填写。\n"
        "签订房屋出售经纪服务合同时，经纪机构应当编制房屋状况说明书。\n"
        "地下室面积不计入容积率。"
    ),
)
OBJECTION = Slice(
    id="objection",
    path=("第三篇 登记", "第六章 不动产登记", "第三节 异议登记"),
    mastery="熟悉",
    text="申请人自异议登记之日起15日内不提起诉讼的，异议登记失效。",
)
DEED_TAX = Slice(
    id="deed",
    path=("第四篇 税费", "第七章 买方税费", "第一节 契税"),
    mastery="掌握",
    text="个人购买家庭唯一住房，面积为140平方米及以下的，契税税率为1%；面积为140平方米以上的，契税税率为1.5%。",
)
HEIRS = Slice(
    id="heirs",
    path=("第一篇 权利", "第二章 继承", "第一节 法定继承"),
    mastery="掌握",
    text="法定继承人的第一顺序是配偶、子女、父母，第二顺序是兄弟姐妹、祖父母、外祖父母。",
)
BROKERAGE = Slice(
    id="brokerage",
    path=("第一篇 经纪", "第一章 经纪概述", "第二节 居间与代理"),
    mastery="掌握",
    text="房地产经纪分为居间和代理两种基本方式。",
    tables=(
        "| 比较项目 | 居间 | 代理 |\n|---|---|---|\n"
        "| 行事名义 | 以经纪机构自己的名义提供服务 | 以委托人的名义与第三人交易 |\n"
        "| 法律后果 | 由交易双方各自承担 | 由委托人承担 |",
    ),
)
STRUCTURES = Slice(
    id="structures",
    path=("第一篇 房屋", "第一章 房屋与土地", "第一节 建筑结构与房屋类型"),
    mastery="掌握",
    text="按承重构件的材料，房屋分为砖木结构、砖混结构、钢筋混凝土结构和钢结构。按套内空间是否分层，住宅分为平层、跃层和复式。",
)
SLICES = [LISTING, OBJECTION, DEED_TAX, HEIRS, BROKERAGE, STRUCTURES]
FACTS = FactBase(
    [
        Fact(
            id="heirs#1",
            kind="enumeration",
            slice_id="heirs",
            source=HEIRS.text,
            subject="第一顺序法定继承人",
            items=("配偶", "子女", "父母"),
            related=("heirs#2",),
        ),
        Fact(
            id="heirs#2",
            kind="enumeration",
            slice_id="heirs",
            source=HEIRS.text,
            subject="第二顺序法定继承人",
            items=("兄弟姐妹", "祖父母", "外祖父母"),
            related=("heirs#1",),
        ),
        Fact(
            id="structures#1",
            kind="definition",
            slice_id="structures",
            source="按承重构件的材料，房屋分为砖木结构、砖混结构、钢筋混凝土结构和钢结构。",
            subject="砖混结构",
            category="按承重构件的材料划分的房屋",
            siblings=("砖木结构", "钢筋混凝土结构", "钢结构"),
        ),
        Fact(
            id="structures#2",
            kind="definition",
            slice_id="structures",
            source="按套内空间是否分层，住宅分为平层、跃层和复式。",
            subject="跃层",
            category="按套内空间是否分层划分的住宅",
            siblings=("平层", "复式"),
        ),
    ]
)
LIBRARY = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=FACTS)


def judge(statement: str, answer: str, slice_: Slice, sources: tuple[str, ...] = ()) -> Question:
    return Question(
        qtype="judge",
        stem=f"{statement}。（　）",
        options=["正确", "错误"],
        answer=[answer],
        explanation="",
        slice_id=slice_.id,
        sources=list(sources),
    )


def choice(stem: str, options: list[str], answer: str, slice_: Slice) -> Question:
    qtype = "multi" if len(answer) > 1 else "single"
    return Question(
        qtype=qtype, stem=stem, options=options, answer=list(answer), explanation="", slice_id=slice_.id
    )


def finding(question: Question, slice_: Slice, label: str = ""):
    grounding = ground_question(question, slice_, LIBRARY)
    return next(f for f in grounding.statements if f.label == label)


def test_a_sentence_of_the_slice_is_supported_with_its_source():
    found = finding(
        judge("签订房屋出售经纪服务合同时，经纪机构应当编制房屋状况说明书", "A", LISTING), LISTING
    )
    assert found.verdict == "supported"
    assert found.source == "签订房屋出售经纪服务合同时，经纪机构应当编制房屋状况说明书。"
    assert found.slice_id == "listing"


def test_another_number_for_the_same_subject_is_contradicted():
    found = finding(
        judge("申请人自异议登记之日起30日内不提起诉讼的，异议登记失效", "A", OBJECTION), OBJECTION
    )
    assert found.verdict == "contradicted"
    assert "15日" in found.reason and "30日" in found.reason


def test_a_bound_turned_round_is_contradicted():
    statement = "个人购买家庭唯一住房，面积为140平方米以上的，契税税率为1%"
    found = finding(judge(statement, "A", DEED_TAX), DEED_TAX)
    assert found.verdict == "contradicted"
    assert "140" in found.reason


@pytest.mark.parametrize(
    ("statement", "flip"),
    [
        ("签订房屋出售经纪服务合同时，经纪机构无需编制房屋状况说明书", "应当→无需"),
        (
            "经纪人员采集房源信息时，应当查看权属证书和身份证件原件并当面核对，可以仅凭业主口述填写",
            "不得→可以",
        ),
    ],
)
def test_a_flipped_modal_is_contradicted(statement, flip):
    found = finding(judge(statement, "A", LISTING), LISTING)
    assert found.verdict == "contradicted"
    assert found.reason == flip


def test_a_negation_taken_away_is_contradicted():
    found = finding(judge("地下室面积计入容积率", "A", LISTING), LISTING)
    assert found.verdict == "contradicted"
    assert "不计入" in found.reason


def test_an_item_of_the_sibling_enumeration_is_contradicted_by_the_facts():
    question = choice(
        "下列人员中，属于第一顺序法定继承人的有（　）。", ["配偶", "子女", "兄弟姐妹", "父母"], "ABD", HEIRS
    )
    grounding = ground_question(question, HEIRS, LIBRARY)
    verdicts = {f.label: f.verdict for f in grounding.statements}
    assert verdicts == {"A": "supported", "B": "supported", "C": "contradicted", "D": "supported"}
    assert "第二顺序" in grounding.statements[2].reason


def test_an_item_of_the_sibling_list_is_contradicted_from_the_sentence_alone():
    library = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=FactBase(()))
    question = choice(
        "下列人员中，属于第一顺序法定继承人的是（　）。", ["子女", "外祖父母", "祖父母"], "A", HEIRS
    )
    grounding = ground_question(question, HEIRS, library)
    assert [f.verdict for f in grounding.statements] == ["supported", "contradicted", "contradicted"]
    assert "第二顺序" in grounding.statements[1].reason


def test_a_table_cell_read_under_the_other_column_is_contradicted():
    found = finding(judge("代理以经纪机构自己的名义提供服务", "A", BROKERAGE), BROKERAGE)
    assert found.verdict == "contradicted"
    assert "居间" in found.reason


def test_a_table_cell_under_its_own_row_and_column_is_supported():
    found = finding(judge("代理的法律后果由委托人承担", "A", BROKERAGE), BROKERAGE)
    assert found.verdict == "supported"


def test_a_class_the_definition_does_not_give_is_contradicted():
    question = choice(
        "砖混结构属于（　）。",
        ["按承重构件的材料划分的房屋", "按套内空间是否分层划分的住宅"],
        "B",
        STRUCTURES,
    )
    grounding = ground_question(question, STRUCTURES, LIBRARY)
    assert [f.verdict for f in grounding.statements] == ["supported", "contradicted"]
    assert "承重构件的材料" in grounding.statements[1].reason
    assert grounding.statements[1].fact_id == "structures#1"


def test_what_the_textbook_does_not_say_is_unknown():
    found = finding(judge("经纪人员带看时应当向客户出示执业证书", "A", LISTING), LISTING)
    assert found.verdict == "unknown"
    assert found.source == ""


def test_a_paraphrase_with_another_word_in_place_is_not_supported():
    found = finding(
        judge("签订房屋出租经纪服务合同时，经纪机构应当编制房屋状况说明书", "A", LISTING), LISTING
    )
    assert found.verdict == "unknown"
    assert "出售" in found.reason


# --- paraphrases and the lies that hide in them -------------------------------------------------------

PARAPHRASED = [
    Slice(
        id=id_,
        path=("第九篇 改写", "第九章 改写", f"第一节 {id_}"),
        mastery="掌握",
        text=text,
        tables=tables,
    )
    for id_, text, tables in (
        ("netsign", "网签后系统会对该房屋作出已签约标记，在合同注销前无法再与他人网签。", ()),
        (
            "decoration",
            "装修费用有扣除上限：已购公房和经济适用住房最高为房屋原值的15%，商品房及其他住房最高为房屋原值的10%。",
            (),
        ),
        (
            "shared",
            "可以分摊的共有建筑面积主要有：（1）电梯井、管道井、楼梯间等为整幢楼服务的公共部位；"
            "（2）为整幢楼服务的公共用房和管理用房。\n"
            "不得分摊的建筑面积主要有：①作为独立使用的地下室、车棚、车库；②为多幢楼服务的警卫室、管理用房。",
            (),
        ),
        (
            "registers",
            "不动产登记分为多种类型。",
            (
                "| 登记类型 | 适用情形 |\n|---|---|\n"
                "| 异议登记 | 利害关系人认为登记簿记载错误而权利人不同意更正 |\n"
                "| 更正登记 | 权利人、利害关系人认为登记簿记载错误 |",
            ),
        ),
        ("term", "确定某一笔贷款的最长期限时，借款人年龄与贷款期限之和一般不超过70年。", ()),
        (
            "signing",
            "按照《房地产经纪管理办法》，经纪服务合同应当加盖经纪机构印章，"
            "并由从事该业务的一名房地产经纪人或者两名房地产经纪人协理签名。",
            (),
        ),
        ("exemption", "卖方持有满5年且为家庭唯一住房时，增值税和个人所得税都免征。", ()),
        (
            "terms",
            "土地使用权出让最高年限按用途确定：（1）居住用地70年；（2）工业用地50年；（3）商业用地40年。",
            (),
        ),
        ("pricing", "房地产经纪服务实行市场调节价，佣金标准由经纪机构与委托人协商确定。", ()),
        (
            "fairness",
            "公平竞争要求经纪人员凭服务质量争取客户，"
            "不得以贬低、诋毁其他经纪机构或者同行的服务质量等不正当手段招揽业务。",
            (),
        ),
        (
            "surtax",
            "缴纳增值税的卖方，还应当以实际缴纳的增值税税额为计税依据，"
            "缴纳城市维护建设税、教育费附加和地方教育附加，合称附加税费。",
            (),
        ),
    )
]
PARAPHRASES = {s.id: s for s in PARAPHRASED}
PARAPHRASE_LIBRARY = SimpleNamespace(knowledge=KnowledgeIndex(PARAPHRASED), facts=FactBase(()))


def verdicts(question: Question, slice_id: str) -> list[str]:
    grounding = ground_question(question, PARAPHRASES[slice_id], PARAPHRASE_LIBRARY)
    return [f.verdict for f in grounding.statements]


def said_of(statement: str, slice_id: str) -> str:
    return verdicts(judge(statement, "A", PARAPHRASES[slice_id]), slice_id)[0]


def test_what_cannot_be_done_is_a_prohibition_its_permission_contradicts():
    assert said_of("在合同注销前不能再与他人网签", "netsign") == "supported"
    assert said_of("在合同注销前可以再与他人网签", "netsign") == "contradicted"


def test_an_act_the_source_forbids_its_doer_is_contradicted_word_for_word_whatever_else_is_said():
    permitted = "经纪人员向客户推介房源时，为争取客户可以贬低其他经纪机构的服务质量"
    assert said_of(permitted, "fairness") == "contradicted"
    assert said_of("委托人可以贬低其他经纪机构的服务质量", "fairness") == "unknown"  # not its doer


def test_a_figure_is_read_from_the_phrase_of_its_own_case():
    """One sentence, two cases with a figure each: the other case's figure is not this case's."""
    assert said_of("商品房的装修费用扣除上限为房屋原值的15%", "decoration") != "supported"


def test_a_list_item_is_said_under_its_own_lead():
    item = "（1）电梯井、管道井、楼梯间等为整幢楼服务的公共部位"
    assert said_of(f"可以分摊的共有建筑面积主要有：{item}", "shared") == "supported"
    assert said_of(f"不得分摊的共有建筑面积主要有：{item}", "shared") == "contradicted"


def test_a_table_cell_supports_no_prohibition_it_does_not_state():
    case = "利害关系人认为登记簿记载错误而权利人不同意更正的"
    assert said_of(f"{case}，可以申请异议登记", "registers") == "supported"
    assert said_of(f"{case}，不得申请异议登记", "registers") == "unknown"


def test_some_loan_is_no_person_so_its_figures_are_a_rule_not_a_case():
    statement = "确定某一笔贷款的最长期限时，借款人年龄与贷款期限之和一般不超过{}年"
    assert said_of(statement.format(70), "term") == "supported"
    assert said_of(statement.format(57), "term") == "contradicted"


def test_the_law_a_sentence_cites_and_a_fuller_name_are_no_other_words():
    question = choice(
        "房地产经纪服务合同应当加盖房地产经纪机构印章，并由从事该业务的（　）签名。",
        ["一名房地产经纪人协理", "经纪机构的法定代表人", "一名房地产经纪人或者两名房地产经纪人协理"],
        "C",
        PARAPHRASES["signing"],
    )
    assert verdicts(question, "signing") == ["unknown", "unknown", "supported"]


def test_the_condition_of_a_rule_alone_asserts_nothing():
    assert said_of("卖方持有满5年且为家庭唯一住房时，个人所得税免征", "exemption") == "supported"
    assert said_of("卖方持有5年且为家庭唯一住房", "exemption") == "unknown"


def test_a_paraphrase_that_keeps_most_of_the_sentence_in_order_is_supported():
    assert said_of("目前我国房地产经纪服务收费实行市场调节价", "pricing") == "supported"
    assert said_of("目前我国房地产经纪服务收费实行政府指导价", "pricing") == "unknown"
    # a word of its own naming another thing of the kind: another use's figure, in whatever order
    assert said_of("工业用地的土地使用权出让最高年限为50年", "terms") == "supported"
    assert said_of("居住用地的土地使用权出让最高年限为50年", "terms") != "supported"


def test_an_option_asked_under_the_head_of_the_list_that_names_it_is_supported():
    stem = "卖方缴纳增值税后，还应当以实际缴纳的增值税为计税依据缴纳的{}（　）。"
    options = ["城市维护建设税", "教育费附加", "地方教育附加", "契税"]
    surtax = PARAPHRASES["surtax"]
    assert verdicts(choice(stem.format("有"), options, "ABC", surtax), "surtax") == [
        "supported",
        "supported",
        "supported",
        "unknown",
    ]
    # one answer wanted among items of the same list: the list does not say which
    single = choice(stem.format("是"), options, "A", surtax)
    assert verdicts(single, "surtax")[:2] == ["unknown", "unknown"]


# --- the verdict ---------------------------------------------------------------------------------

OBJECTION_OPTIONS = ["15日", "30日", "60日", "90日"]
OBJECTION_STEM = "申请人自异议登记之日起（　）内不提起诉讼的，异议登记失效。"


def issues(question: Question, slice_: Slice = OBJECTION, strict: bool = True):
    return ground_question(question, slice_, LIBRARY).issues(strict)


def test_a_supported_key_passes():
    assert issues(choice(OBJECTION_STEM, OBJECTION_OPTIONS, "A", OBJECTION)) == []


def test_a_key_moved_to_a_distractor_with_its_conclusion_is_caught():
    moved = choice(OBJECTION_STEM, OBJECTION_OPTIONS, "B", OBJECTION)
    moved = moved.model_copy(update={"explanation": "1、结论：本题选B。"})
    found = issues(moved)
    assert all(i.severity == "major" for i in found)
    details = " ".join(i.detail for i in found)
    assert "选项B" in details and "选项A未被选为答案" in details


def test_a_falsified_judge_with_its_key_kept_is_caught():
    found = issues(judge("申请人自异议登记之日起30日内不提起诉讼的，异议登记失效", "A", OBJECTION))
    assert [(i.type, i.severity) for i in found] == [("answer_mismatch", "major")]
    assert "15日" in found[0].detail


def test_a_false_judge_keyed_false_passes():
    assert issues(judge("申请人自异议登记之日起30日内不提起诉讼的，异议登记失效", "B", OBJECTION)) == []


def test_a_true_sentence_of_the_slice_as_a_distractor_is_a_second_answer():
    question = choice(
        "关于房源信息采集，下列说法正确的是（　）。",
        [
            "签订房屋出售经纪服务合同时，经纪机构无需编制房屋状况说明书",
            "地下室面积计入容积率",
            "经纪人员采集房源信息时，应当查看权属证书和身份证件原件并当面核对",
        ],
        "A",
        LISTING,
    )
    found = issues(question, LISTING)
    details = [i.detail for i in found]
    assert any(d.startswith("选项C未被选为答案") for d in details)
    assert any(d.startswith("选项A被作为正确说法") for d in details)


def test_a_false_frame_wants_its_key_contradicted_and_the_rest_not():
    question = choice(
        "关于房源信息采集，下列说法错误的是（　）。",
        ["签订房屋出售经纪服务合同时，经纪机构无需编制房屋状况说明书", "地下室面积不计入容积率"],
        "A",
        LISTING,
    )
    assert issues(question, LISTING) == []
    assert issues(question.model_copy(update={"answer": ["B"]}), LISTING) != []


def test_an_unverifiable_key_fails_strict_grounding_and_is_counted_apart_otherwise():
    question = judge("经纪人员带看时应当向客户出示执业证书", "A", LISTING)
    grounding = ground_question(question, LISTING, LIBRARY)
    strict = grounding.issues(strict=True)
    assert [(i.type, i.severity) for i in strict] == [("factual_error", "major")]
    assert "答案无法在教材中找到依据" in strict[0].detail
    assert grounding.issues(strict=False) == []
    assert [f.label for f in grounding.unknown_keys] == [""]
    assert not grounding.verified


def test_a_quoted_source_must_be_in_the_knowledge_base():
    statement = "地下室面积不计入容积率"
    quoted = judge(statement, "A", LISTING, sources=("地下室面积 不计入容积率 。",))
    assert issues(quoted, LISTING) == []
    invented = judge(statement, "A", LISTING, sources=("地下室面积一律按一半计入容积率。",))
    found = issues(invented, LISTING)
    assert [(i.type, i.severity) for i in found] == [("factual_error", "major")]
    assert "所引教材原文在知识库中找不到" in found[0].detail


def test_a_calculation_is_verified_by_its_calculator_not_by_sentences():
    question = choice("计算契税（　）。", ["10,000元", "20,000元", "30,000元"], "B", DEED_TAX).model_copy(
        update={"calculation": Calculation(calculator="deed_tax", args={}, field="tax")}
    )
    grounding = ground_question(question, DEED_TAX, LIBRARY)
    assert grounding.statements == [] and grounding.verified and grounding.issues() == []


def test_the_evidence_says_what_the_textbook_says_of_each_option_and_where():
    grounding = ground_question(choice(OBJECTION_STEM, OBJECTION_OPTIONS, "A", OBJECTION), OBJECTION, LIBRARY)
    lines = grounding.evidence
    assert lines[0].startswith("选项A：有依据 —《第三篇 登记 > 第六章 不动产登记 > 第三节 异议登记》“申请人")
    assert lines[1].startswith("选项B：与教材矛盾（") and "15日" in lines[1]
    assert grounding.basis == (OBJECTION.path_text, OBJECTION.text)


def test_a_past_paper_question_without_a_slice_is_grounded_in_its_chapter():
    question = judge("申请人自异议登记之日起15日内不提起诉讼的，异议登记失效", "A", OBJECTION)
    grounding = ground_question(question, None, LIBRARY, chapter=OBJECTION.chapter)
    assert grounding.verified and grounding.statements[0].slice_id == "objection"


# --- paraphrases of cases, lists and settings ---------------------------------------------------------

CASES = [
    Slice(
        id="succession",
        path=("第一篇 权利", "第二章 继承", "第二节 接受与放弃继承"),
        mastery="掌握",
        text="被继承人去世后，其儿子等继承人在遗产处理前一直没有作出接受或者放弃继承表示的，视为接受继承。",
    ),
    Slice(
        id="wills",
        path=("第一篇 权利", "第二章 继承", "第三节 遗嘱继承"),
        mastery="掌握",
        text=(
            "遗嘱人先立了公证遗嘱，后来又亲笔书写自书遗嘱，两份遗嘱对同一房屋的处理内容相抵触的，"
            "按照后立的自书遗嘱处理。"
        ),
    ),
    Slice(
        id="deed_acts",
        path=("第四篇 税费", "第七章 买方税费", "第一节 契税的征收范围"),
        mastery="掌握",
        text="应当缴纳契税的权属转移行为包括：（1）国有土地使用权出让；（2）房屋买卖、赠与和互换。",
    ),
    Slice(
        id="gift",
        path=("第一篇 权利", "第三章 合同", "第二节 赠与合同"),
        mastery="掌握",
        text="父母与子女签订的房屋赠与合同未经公证、房屋尚未办理转移登记的，赠与人此时仍可以撤销该赠与。",
    ),
    Slice(
        id="escrow",
        path=("第五篇 交易", "第十章 交易资金", "第一节 存量房交易资金监管"),
        mastery="熟悉",
        text="监管资金划转给卖方，应当以房屋完成转移登记为前提。",
    ),
]
CASE_SLICES = {s.id: s for s in CASES}
CASE_LIBRARY = SimpleNamespace(knowledge=KnowledgeIndex(CASES), facts=FactBase(()))


def case_verdicts(question: Question) -> list[str]:
    grounding = ground_question(question, CASE_SLICES[question.slice_id], CASE_LIBRARY)
    return [f.verdict for f in grounding.statements]


def test_a_case_names_by_their_names_the_parties_the_textbook_names_by_role():
    case = "老孙去世后，其儿子小孙在遗产处理前一直没有作出接受或者放弃继承的表示，视为小孙{}继承"
    succession = CASE_SLICES["succession"]
    assert case_verdicts(judge(case.format("接受"), "A", succession)) == ["supported"]
    assert case_verdicts(judge(case.format("放弃"), "B", succession)) != ["supported"]
    # a word that is no person's name keeps its place: 买受人 is not the textbook's 被继承人
    other = "买受人去世后，其儿子小孙在遗产处理前一直没有作出接受或者放弃继承的表示，视为小孙接受继承"
    assert case_verdicts(judge(other, "A", succession)) != ["supported"]


def test_a_person_the_sentence_has_no_place_for_is_the_case_s_and_has_no_right_it_denies():
    scene = "老郑与儿子签订了房屋赠与合同，该合同未经公证，房屋尚未办理转移登记。"
    gift = CASE_SLICES["gift"]
    assert case_verdicts(judge(f"{scene}此时老郑可以撤销该赠与", "A", gift)) == ["supported"]
    assert case_verdicts(judge(f"{scene}此时老郑无权撤销该赠与", "B", gift)) == ["contradicted"]


def test_a_term_the_sentence_sets_apart_from_its_own_in_the_same_place_is_contradicted():
    scene = "老赵生前先立了一份公证遗嘱，后来又亲笔书写了一份自书遗嘱，两份遗嘱对同一套房屋的处理内容相抵触。"
    wills = CASE_SLICES["wills"]
    assert case_verdicts(judge(f"{scene}该房屋应当按照公证遗嘱处理", "B", wills)) == ["contradicted"]
    # a will the sentence does not name is another case it says nothing of
    assert case_verdicts(judge(f"{scene}该房屋应当按照代书遗嘱处理", "B", wills)) == ["unknown"]


def test_an_option_may_be_one_conjunct_of_a_listed_item_with_the_words_they_share():
    deed_acts = CASE_SLICES["deed_acts"]
    acts = Fact(
        id="deed_acts#1",
        kind="enumeration",
        slice_id="deed_acts",
        source=deed_acts.text,
        subject="应当缴纳契税的权属转移行为",
        items=("国有土地使用权出让", "房屋买卖、赠与和互换"),
    )
    library = SimpleNamespace(knowledge=KnowledgeIndex(CASES), facts=FactBase([acts]))
    question = choice(
        "下列转移房屋权属的行为中，承受方应当缴纳契税的有（　）。",
        ["房屋赠与", "房屋互换", "房屋出租", "房屋抵押"],
        "AB",
        deed_acts,
    )
    found = [f.verdict for f in ground_question(question, deed_acts, library).statements]
    # acts the item does not list, whatever words they share with it
    assert found == ["supported", "supported", "unknown", "unknown"]


def test_a_setting_the_knowledge_point_is_about_need_not_be_repeated_by_its_sentence():
    rule = "监管资金划转给卖方，应当以房屋完成转移登记为前提"
    escrow = CASE_SLICES["escrow"]
    assert case_verdicts(judge(f"采用资金监管的存量房交易中，{rule}", "A", escrow)) == ["supported"]
    # a setting the heading does not name is another case: the sentence says nothing of it
    assert case_verdicts(judge(f"新建商品房预售过程中，{rule}", "A", escrow)) == ["unknown"]
