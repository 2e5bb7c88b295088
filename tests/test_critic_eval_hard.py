"""Hard seeded defects: each kind, made from a small hand-written chapter and bank, is a wrong question that
still looks consistent — and the evaluated critic (checks, grounding, stem recomputation) rejects it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.evaluation import HARD, Library, Material, as_question, evaluate, library_of, review
from graph.evaluation.falsify import falsehoods
from graph.evaluation.restate import restate
from graph.format import conclusion_letters
from retrieval.sources import Sources, load_sources
from vocabulary.records import Question

CHAPTER = "第一篇  交易基础 > 第一章  定金与登记"
SLICES = {
    "第一节  定金 > 一、定金的数额与罚则": (
        "定金的数额由当事人约定，但不得超过主合同标的额的20%，超过部分不产生定金的效力。"
        "收受定金的一方不履行债务致使不能实现合同目的的，应当双倍返还定金。"
        "给付定金的一方不履行债务致使不能实现合同目的的，无权请求返还定金。"
    ),
    "第二节  土地 > 一、出让最高年限": (
        "土地使用权出让最高年限按用途确定：（1）居住用地70年；（2）工业用地50年；"
        "（3）商业、旅游、娱乐用地40年；（4）综合或者其他用地50年。"
    ),
    "第三节  登记 > 一、登记的类型": (
        "不动产登记的类型包括首次登记、变更登记、转移登记、注销登记、更正登记、异议登记和预告登记。"
        "权利人的姓名或者名称发生变化的，应当申请变更登记。"
    ),
    "第三节  登记 > 二、经纪人员的告知义务": (
        "经纪人员应当如实告知委托人房屋的抵押和查封情况。经纪人员不得代替委托人在合同上签字。"
        "经纪人员应当妥善保管委托人提供的资料。"
    ),
}


def _row(name: str, stem: str, options: list[str], answer: str, explanation: str) -> dict[str, str]:
    row = {"篇": "第一篇 交易基础", "章": "第一章 定金与登记", "试题名称": name, "题干": stem}
    row |= {f"选项{i}": option for i, option in enumerate(options, 1)}
    return row | {"正确答案": answer, "解析": explanation}


BANK = [
    _row(
        "SC",
        "居住用地的土地使用权出让最高年限为（　）。",
        ["30年", "50年", "70年", "90年"],
        "C",
        "教材依据：居住用地70年。试题分析：工业用地为50年，30年和90年都不是法定最高年限。结论：本题选C“70年”。",
    ),
    _row(
        "YN",
        "收受定金的一方不履行债务致使不能实现合同目的的，应当双倍返还定金。（　）",
        ["正确", "错误"],
        "A",
        "教材依据：收受定金的一方违约的，应当双倍返还定金。试题分析：表述与教材一致。结论：该说法正确，本题选A。",
    ),
    _row(
        "SC",
        "下列关于经纪人员的说法中，正确的是（　）。",
        [
            "经纪人员应当如实告知委托人房屋的抵押和查封情况",
            "经纪人员可以代替委托人在合同上签字",
            "经纪人员无需告知委托人房屋的查封情况",
            "经纪人员可以隐瞒房屋的抵押情况",
        ],
        "A",
        "教材依据：经纪人员应当如实告知委托人房屋的抵押和查封情况。"
        "试题分析：经纪人员不得代签合同，也不得隐瞒抵押、查封情况。结论：本题选A。",
    ),
    _row(
        "SC",
        "买卖合同总价款为300万元，买方向卖方交付定金40万元。后卖方违约致使合同目的不能实现，"
        "买方选择适用定金罚则，卖方应向买方返还（　）。",
        ["40万元", "60万元", "80万元", "120万元"],
        "C",
        "教材依据：收受定金的一方违约的，应当双倍返还定金。"
        "试题分析：40万元未超过300万元的20%，全额有效，双倍返还为80万元。结论：本题选C。",
    ),
    _row(
        "MC",
        "下列属于不动产登记类型的有（　）。",
        ["首次登记", "变更登记", "网签备案", "转移登记"],
        "ABD",
        "教材依据：登记类型包括首次登记、变更登记、转移登记等。试题分析：网签备案不是不动产登记。结论：本题选ABD。",
    ),
]


def write_sources(folder: Path, bank: list[dict[str, str]]) -> tuple[Path, Path]:
    kb_file, bank_file = folder / "kb.jsonl", folder / "bank.jsonl"
    lines = [
        {"完整路径": f"{CHAPTER} > {path}", "掌握程度": "掌握", "结构化内容": {"context_before": text}}
        for path, text in SLICES.items()
    ]
    kb_file.write_text("\n".join(json.dumps(s, ensure_ascii=False) for s in lines), encoding="utf-8")
    bank_file.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in bank), encoding="utf-8")
    return kb_file, bank_file


@pytest.fixture(scope="module")
def chapter(tmp_path_factory: pytest.TempPathFactory) -> tuple[Sources, Library]:
    sources = load_sources(*write_sources(tmp_path_factory.mktemp("chapter"), BANK))
    assert len(sources.questions) == len(BANK)
    return sources, library_of(sources.slices)


def _seeded(chapter: tuple[Sources, Library], kind: str, stem_start: str) -> tuple[Question, Question, bool]:
    """(the accepted bank question, the defect seeded into it, whether the critic rejects the defect)."""
    sources, library = chapter
    mother = next(m for m in sources.questions if m.stem.startswith(stem_start))
    question = as_question(mother, sources.calc_checks.get(mother.id))
    verdict = review(question, mother.qtype, library, mother.kb_chapter)
    assert not verdict.rejected, verdict.issues
    keyed = [f.slice_id for f in verdict.grounding.statements if verdict.grounding.keyed(f) and f.slice_id]
    ids = list(dict.fromkeys([*keyed, *(s.id for s in sources.slices)]))
    material = Material(
        tuple(library.knowledge.get(i) for i in ids), tuple(f for i in ids for f in library.facts.of_slice(i))
    )
    broken = HARD[kind](question, material)
    assert broken is not None
    return question, broken, review(broken, mother.qtype, library, mother.kb_chapter).rejected


def test_a_moved_key_carries_its_explanation_and_is_caught(chapter) -> None:
    question, broken, caught = _seeded(chapter, "key_moved_with_explanation", "居住用地")
    assert broken.answer == ["A"] and broken.options == question.options
    assert conclusion_letters(broken.explanation, "single") == "A"
    assert "本题选A“30年”" in broken.explanation
    assert caught


def test_a_moved_judge_key_turns_the_conclusion_round_and_is_caught(chapter) -> None:
    _, broken, caught = _seeded(chapter, "key_moved_with_explanation", "收受定金")
    assert broken.answer == ["B"]
    assert "该说法错误，本题选B" in broken.explanation
    assert caught


def test_the_keyed_figure_becomes_a_sibling_value_of_the_same_list(chapter) -> None:
    question, broken, caught = _seeded(chapter, "keyed_fact_falsified", "居住用地")
    assert broken.options[2] == "40年"  # 50年 is already an option: the next figure of the list
    assert broken.answer == question.answer and broken.options[:2] == question.options[:2]
    assert caught


def test_the_keyed_statement_has_its_modal_turned_round(chapter) -> None:
    _, broken, caught = _seeded(chapter, "keyed_fact_falsified", "下列关于经纪人员")
    assert broken.options[0] == "经纪人员无需如实告知委托人房屋的抵押和查封情况"
    assert caught


def test_a_falsified_judge_statement_keeps_its_key_and_is_caught(chapter) -> None:
    question, broken, caught = _seeded(chapter, "judge_statement_falsified", "收受定金")
    assert "无需双倍返还定金" in broken.stem and broken.answer == question.answer == ["A"]
    assert broken.explanation == question.explanation
    assert caught


def test_a_changed_stem_figure_is_recomputed_from_the_stem(chapter) -> None:
    """The bank row has no 计算校验: the calculation is read from the stem itself."""
    question, broken, caught = _seeded(chapter, "stem_input_changed", "买卖合同总价款")
    assert question.calculation is not None and question.calculation.calculator == "earnest_money"
    assert "定金48万元" in broken.stem and broken.answer == question.answer
    assert caught


def test_a_true_sentence_of_the_slice_as_distractor_is_a_second_answer(chapter) -> None:
    _, broken, caught = _seeded(chapter, "true_statement_as_distractor", "下列关于经纪人员")
    assert broken.options[1] == "经纪人员应当妥善保管委托人提供的资料"
    assert caught


def test_another_item_of_the_asked_list_as_distractor_is_a_second_answer(chapter) -> None:
    question, broken, caught = _seeded(chapter, "true_statement_as_distractor", "下列属于不动产登记")
    assert broken.options[2] == "注销登记" and broken.answer == question.answer
    assert caught


def test_an_option_restating_the_key_is_caught(chapter) -> None:
    question, broken, caught = _seeded(chapter, "option_restated", "下列关于经纪人员")
    assert broken.options[1] == "经纪人员应如实告知委托人房屋的抵押和查封情况" != question.options[0]
    assert caught


def test_a_known_good_question_the_critic_rejects_is_a_false_rejection(tmp_path: Path) -> None:
    """A bank question whose key the textbook contradicts is counted with its reason and seeded with
    nothing."""
    wrong = _row(
        "SC",
        "工业用地的土地使用权出让最高年限为（　）。",
        ["40年", "50年", "60年", "70年"],
        "D",
        "教材依据：工业用地70年。试题分析：其余年限不对。结论：本题选D。",
    )
    sources = load_sources(*write_sources(tmp_path, [*BANK, wrong]))
    result = evaluate(sources, library_of(sources.slices))
    assert result.bank_size == len(BANK) + 1
    assert [where.rsplit(":", 1)[-1] for where, _ in result.false_rejections] == [str(len(BANK) + 1)]
    assert "与教材矛盾" in result.false_rejections[0][1]
    assert result.top_reasons()[0][1] == 1
    assert result.accepted == len(BANK)
    assert result.easy["answer_changed"].total == len(BANK)


def test_falsifying_never_doubles_a_negation_or_garbles_a_bound() -> None:
    texts = [
        "购房未满5年的，不得直接上市交易",
        "房龄与贷款期限之和不得超过50年",
        "登记机构应当不予登记",
    ]
    changed = [f.text for text in texts for f in falsehoods(text, [], ["满2年", "30年", "70年"])]
    assert changed and not any(w in t for t in changed for w in ("未不", "不得不", "无需不", "不不"))


def test_a_restatement_says_the_same_in_other_words() -> None:
    assert restate("商业、旅游、娱乐用地") == "旅游、商业、娱乐用地"
    assert restate("20万元") == "200000元"
    assert restate("十五日") == "15日"
    assert restate("变更登记") is None
