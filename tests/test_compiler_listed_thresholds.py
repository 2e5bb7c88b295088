"""Thresholds of a sentence that lists its rules ("…分为三档：①…；②…", "…应当注意：（1）…；（2）…") as an
examiner needs them: each item's figure under its own condition only, the list's announcement and a cited
notice number in none, so a case told from the condition reads as one situation."""

from __future__ import annotations

from pathlib import Path

from graph.authors.recipes.holding import sale_of
from retrieval.compiler import compile_kb
from retrieval.compiler.thresholds import extract_thresholds
from retrieval.sources import load_sources

ROOT = Path(__file__).resolve().parent.parent


def _by_value(sentence: str) -> dict[str, str]:
    return {f.value_text: f.condition for f in extract_thresholds(sentence)}


def test_an_item_does_not_inherit_the_condition_of_the_item_before_it():
    found = _by_value(
        "北京经济适用住房上市出售时，按住房类别和购买时间缴纳土地收益：（1）一类经济适用住房，2008年4月11日前"
        "购买的，按成交价的10%缴纳；（2）二类经济适用住房，按成交价的3%缴纳。"
    )
    assert "二类" in found["3%"] and "一类" not in found["3%"] and "2008" not in found["3%"]
    assert "一类" in found["10%"] and "二类" not in found["10%"]
    assert all("北京经济适用住房上市出售时" in c for c in found.values())  # what the items are of stays


def test_a_list_announcement_and_a_cited_notice_are_no_part_of_a_condition():
    text = (
        "是否征税取决于卖方持有住房的年限：\n（1）自2026年1月1日起（财政部 税务总局公告2025年第17号），"
        "个人将购买2年以上（含2年）的住房对外销售的，免征增值税。\n（2）享受免征的，附加税费也一并免除。"
    )
    fact = next(f for f in extract_thresholds(text) if f.subject == "免征增值税")
    assert fact.condition == "自2026年1月1日起，个人将购买2年以上（含2年）的住房对外销售"
    sale = sale_of(fact)
    assert sale is not None and sale.since == 2026 and sale.months == 24


def test_a_list_with_a_subject_in_its_lead_keeps_it_for_every_item():
    found = _by_value(
        "城市维护建设税按纳税人所在地分为三档：①纳税人所在地在市区的，税率为7%；②纳税人所在地在县城、镇的，"
        "税率为5%；③纳税人所在地不在市区、县城或者镇的，税率为1%。"
    )
    assert set(found) == {"7%", "5%", "1%"}
    assert "县城" not in found["7%"] and "市区" not in found["5%"].replace("不在市区", "")
    assert all(c.startswith("城市维护建设税") for c in found.values())


def test_the_prose_kb_yields_the_vat_exemption_as_a_sale_a_case_can_be_told_from():
    sources = load_sources(ROOT / "data/prose/knowledge_base.jsonl", ROOT / "data/prose/question_bank.xlsx")
    facts = compile_kb(sources.slices)
    sales = [sale_of(f) for f in facts if f.kind == "threshold" and f.subject == "免征增值税"]
    assert any(sale is not None and sale.lower and sale.since == 2026 for sale in sales)


def test_an_items_short_label_and_an_announcing_lead_are_no_conditions():
    facts = extract_thresholds(
        "确定某一笔贷款的最长期限时，还要同时满足两项限制：①期限上限，任何借款人的贷款期限都不得超过30年；"
        "②房龄限制，房龄与贷款期限之和不超过50年。"
    )
    assert {f.value_text: f.condition for f in facts} == {"30年": "", "50年": ""}
