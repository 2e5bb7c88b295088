"""`python -m bot generate` and `python -m bot run` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from bot.cli import main


def config_in(tmp_path: Path) -> str:
    root = Path(__file__).resolve().parent.parent
    path = tmp_path / "config.toml"
    path.write_text(
        f'[data]\nknowledge_base = "{root / "data/knowledge_base.jsonl"}"\n'
        f'question_bank = "{root / "data/question_bank.xlsx"}"\n'
        f'[graph]\ncheckpoint_db = "{tmp_path / "cp.sqlite"}"\n',
        encoding="utf-8",
    )
    return str(path)


def test_generate_prints_questions_with_their_path(tmp_path: Path, capsys):
    assert main(["--config", config_in(tmp_path), "generate", "--chapter", "第七章", "--type", "single"]) == 0
    out = capsys.readouterr().out
    assert "#1 单选题 v1｜第四篇 交易税费 > 第七章 买方税费" in out
    assert "答案：" in out and "路径：router(route) →" in out and "critic(passed) → done(passed)" in out


def test_generate_json_lists_every_field(tmp_path: Path, capsys):
    args = ["--config", config_in(tmp_path), "generate", "--chapter", "13", "--type", "multi", "--count", "3"]
    assert main([*args, "--mode", "strict", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert len(items) == 3
    for item in items:
        assert item["qtype"] == "multi" and item["mode"] == "strict" and item["version"] == 1
        assert len(item["answer"]) >= 2 and item["chapter"][1] == "第十三章 不动产登记"
        assert {"stem", "options", "explanation", "difficulty", "slice_path", "trace"} <= set(item)
    assert len({item["stem"] + "".join(item["options"]) for item in items}) == 3


def test_a_bad_chapter_lists_the_valid_ones(tmp_path: Path, capsys):
    assert main(["--config", config_in(tmp_path), "generate", "--chapter", "第九十九章"]) == 2
    err = capsys.readouterr().err
    assert "unknown chapter '第九十九章'" in err and "第七章 买方税费" in err and "第十六章 规划指标" in err


def test_run_without_a_token_says_which_variable_to_set(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    assert main(["--config", config_in(tmp_path), "run"]) == 2
    assert "TELEGRAM_BOT_TOKEN" in capsys.readouterr().err
