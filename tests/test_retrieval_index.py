import pytest

from retrieval.fewshot import slice_query_text
from retrieval.index import QuestionIndex
from retrieval.models import MotherQuestion as Q
from retrieval.models import Slice
from vocabulary.kinds import QuestionType

DEED = ("第四篇  交易税费", "第七章  买方税费")
SELLER = ("第四篇  交易税费", "第八章  卖方税费")
LOAN = ("第五篇  贷款与公积金", "第十章  商业贷款")
REGISTRY = ("第六篇  不动产登记与权属", "第十三章  不动产登记")


def question(
    number: int, qtype: QuestionType, chapter: tuple[str, str], stem: str, options: tuple[str, ...] = ()
) -> Q:
    if qtype == "judge":
        options = ("正确", "错误")
    return Q(
        id=f"bank.xlsx:{number}",
        part=chapter[0],
        chapter=chapter[1],
        section="",
        name=f"Q{number}",
        qtype=qtype,
        stem=stem,
        options=options,
        answer="A",
        kb_chapter=chapter,
    )


BANK = (
    question(
        1,
        "single",
        DEED,
        "家庭唯一住房面积为90平方米，买方缴纳契税的税率是（　）。",
        ("1%", "1.5%", "2%", "3%"),
    ),
    question(2, "single", DEED, "契税的纳税人是（　）。", ("买方", "卖方", "经纪机构", "银行")),
    question(
        3, "multi", DEED, "关于契税计税依据的说法，正确的有（　）。", ("不含增值税", "含增值税", "成交价")
    ),
    question(4, "judge", DEED, "购买第三套住房的家庭按3%缴纳契税。"),
    question(
        5, "single", SELLER, "卖方持有住房不满两年，出售时应缴纳的增值税征收率为（　）。", ("3%", "5%", "1%")
    ),
    question(6, "single", SELLER, "满五唯一的住房出售时可以免征（　）。", ("个人所得税", "契税", "登记费")),
    question(7, "multi", SELLER, "卖方需要缴纳的税费有（　）。", ("增值税", "个人所得税", "契税")),
    question(8, "single", LOAN, "等额本息还款方式下，每月还款额（　）。", ("不变", "逐月递减", "逐月递增")),
    question(9, "single", LOAN, "商业贷款最低首付比例为（　）。", ("15%", "20%", "30%")),
    question(10, "judge", LOAN, "等额本金还款方式的总利息少于等额本息。"),
    question(
        11, "single", REGISTRY, "买卖双方办理转移登记时，住房登记费为每件（　）元。", ("80", "550", "10")
    ),
    question(12, "single", REGISTRY, "异议登记后申请人应在（　）日内起诉。", ("15", "30", "60")),
)


def deed_slice(text: str = "个人购买家庭唯一住房，面积在140平方米及以下的，契税税率为1%。") -> Slice:
    return Slice(
        id="kb:7-1-1",
        path=(*DEED, "第一节  契税", "一、契税的税率"),
        mastery="掌握",
        text=text,
        rules=("契税的计税依据为不含增值税的成交价格。",),
    )


@pytest.fixture(scope="module", params=["char_ngram", "jieba"])
def index(request: pytest.FixtureRequest) -> QuestionIndex:
    return QuestionIndex(BANK, tokenizer=request.param)


def test_few_shot_returns_k_questions_of_the_requested_type(index: QuestionIndex) -> None:
    for qtype, k in (("single", 3), ("single", 5), ("multi", 2), ("judge", 1)):
        examples = index.few_shot(deed_slice(), qtype, k)
        assert len(examples) == k
        assert {q.qtype for q in examples} == {qtype}


def test_few_shot_puts_the_closest_same_chapter_questions_first(index: QuestionIndex) -> None:
    examples = index.few_shot(deed_slice(), "single", 3)
    assert [q.id for q in examples[:2]] == ["bank.xlsx:1", "bank.xlsx:2"]


def test_few_shot_prefers_the_slice_chapter_unless_another_is_clearly_closer() -> None:
    index = QuestionIndex(BANK)
    mentions_seller = deed_slice("买方缴纳契税，卖方需要缴纳的税费有增值税。")
    plain = index.rank(slice_query_text(mentions_seller), ("multi",), 2)
    assert [q.id for q, _ in plain] == ["bank.xlsx:7", "bank.xlsx:3"]
    assert index.few_shot(mentions_seller, "multi", 1)[0].id == "bank.xlsx:3"

    about_seller = deed_slice("卖方需要缴纳的税费有增值税和个人所得税。")
    assert index.few_shot(about_seller, "multi", 1)[0].id == "bank.xlsx:7"


def test_few_shot_tops_up_with_other_types_when_the_bank_has_too_few() -> None:
    index = QuestionIndex(BANK)
    examples = index.few_shot(deed_slice(), "judge", 4)
    assert len(examples) == 4
    assert [q.qtype for q in examples[:2]] == ["judge", "judge"]
    assert {q.qtype for q in examples[2:]} <= {"single", "multi"}


def test_few_shot_rejects_an_unknown_type() -> None:
    with pytest.raises(ValueError, match="'essay'"):
        QuestionIndex(BANK).few_shot(deed_slice(), "essay", 3)  # type: ignore[arg-type]


def test_lightly_edited_stem_is_a_near_duplicate(index: QuestionIndex) -> None:
    original = BANK[4].stem
    edited = original.replace("，", ",").replace("（　）", "(  )").replace("出售", "卖出")
    match, cosine = index.nearest(edited, 1)[0]
    assert match is BANK[4]
    assert cosine >= 0.9
    assert index.is_near_duplicate(edited)
    assert index.nearest(original, 1)[0][1] == pytest.approx(1.0, abs=1e-5)


def test_any_one_character_change_to_a_longer_stem_stays_a_near_duplicate() -> None:
    index = QuestionIndex(BANK, tokenizer="char_ngram")
    for original in (q for q in BANK if len(q.stem) >= 20):
        for position in range(len(original.stem)):
            edited = original.stem[:position] + "该" + original.stem[position + 1 :]
            match, cosine = index.nearest(edited, 1)[0]
            assert (match, cosine >= 0.9) == (original, True), edited


def test_unrelated_stem_is_not_a_near_duplicate(index: QuestionIndex) -> None:
    assert not index.is_near_duplicate("经纪人员带看前应当与客户签订带看确认书。")
    assert not index.is_near_duplicate("商业贷款的首付款比例是多少")


def test_threshold_decides_near_duplicate() -> None:
    index = QuestionIndex(BANK)
    stem = "卖方持有住房不满两年时，增值税征收率为（　）。"
    cosine = index.nearest(stem, 1)[0][1]
    assert 0 < cosine < 1
    assert index.is_near_duplicate(stem, threshold=cosine - 0.01)
    assert not index.is_near_duplicate(stem, threshold=cosine + 0.01)


def test_case_text_does_not_make_sub_questions_alike() -> None:
    case = "张先生以300万元购买一套90平方米的二手住房，这是其家庭唯一住房，卖方持有满五年。" * 3
    subs = [
        Q(id="c:1", part="", chapter="", section="", name="CS1", qtype="single", case_text=case,
          stem="【单选题】张先生应缴纳的契税为（　）万元。", options=("3", "4.5"), answer="A"),
        Q(id="c:2", part="", chapter="", section="", name="CS2", qtype="single", case_text=case,
          stem="【单选题】本次交易的登记费由谁缴纳（　）。", options=("买方", "卖方"), answer="A"),
    ]  # fmt: skip
    index = QuestionIndex(subs)
    assert index.nearest(subs[0].stem, 2)[1][1] < 0.5


def test_nearest_returns_best_first_and_respects_k(index: QuestionIndex) -> None:
    matches = index.nearest("契税的计税依据", 4)
    assert len(matches) == 4
    cosines = [c for _, c in matches]
    assert cosines == sorted(cosines, reverse=True)
    assert matches[0][0].kb_chapter == DEED


def test_empty_bank_finds_nothing_and_reports_no_duplicate() -> None:
    index = QuestionIndex([])
    assert index.few_shot(deed_slice(), "single", 3) == []
    assert index.nearest("契税", 3) == []
    assert not index.is_near_duplicate("契税")


def test_rank_can_exclude_a_question_from_its_own_results() -> None:
    index = QuestionIndex(BANK)
    found = index.rank(BANK[0].stem, ("single",), 2, exclude=(0,))
    assert BANK[0] not in [q for q, _ in found]
    assert len(found) == 2


def test_remembered_few_shot_choices_follow_the_slice_text_and_stay_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = QuestionIndex(BANK)
    about_seller = deed_slice("卖方需要缴纳的税费有增值税和个人所得税。")
    first = index.few_shot(deed_slice(), "single", 3)
    assert index.few_shot(deed_slice(), "single", 3) == first
    # Same slice id, other text: chosen afresh, not the remembered choice for the first text.
    assert index.few_shot(deed_slice(), "multi", 1)[0].id != "bank.xlsx:7"
    assert index.few_shot(about_seller, "multi", 1)[0].id == "bank.xlsx:7"

    monkeypatch.setattr("retrieval.index.FEW_SHOT_MEMO", 2)
    for qtype in ("single", "multi", "judge"):
        index.few_shot(deed_slice(), qtype, 1)
    assert len(index._few_shot_memo) <= 2
