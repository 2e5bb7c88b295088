"""critic-eval: the deterministic critic accepts the known-good bank and catches seeded defects."""

from __future__ import annotations

import json
from pathlib import Path

from bot.cli import main


def test_critic_eval_on_the_sample_meets_its_targets(capsys):
    assert main(["critic-eval", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bank_size"] >= 240
    assert report["false_rejections"] / report["bank_size"] <= 0.02
    caught = sum(c for c, _ in report["caught"].values())
    total = sum(t for _, t in report["caught"].values())
    assert total >= 1000 and caught / total >= 0.98
    assert all(t > 0 for _, t in report["caught"].values()), "every defect kind is exercised"


def test_a_bank_question_with_a_wrong_key_is_rejected(tmp_path: Path, capsys):
    bank = tmp_path / "bank.jsonl"
    rows = [
        {
            "题干": "个人买卖住房的印花税为（　）。",
            "选项1": "免征",
            "选项2": "0.05%",
            "选项3": "0.1%",
            "选项4": "0.3%",
            "正确答案": "A",
            "解析": "教材依据：个人买卖住房免征印花税。试题分析：见教材。结论：本题选B。",
        },
        {
            "题干": "契税由买方缴纳（　）",
            "选项1": "正确",
            "选项2": "错误",
            "正确答案": "A",
            "解析": "教材依据：契税由买方缴纳。试题分析：表述正确。结论：该说法正确，本题选A。",
        },
    ]
    bank.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    assert main(["critic-eval", "--bank", str(bank), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bank_size"] == 2
    assert report["false_rejections"] == 1
    assert "结论为B" in report["rejected"][0]["reason"]
