"""critic-eval on the bundled banks (each checked against its own knowledge base) against the targets, and the
real command on a user's own bank and knowledge base."""

from __future__ import annotations

import io
import json
import os
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

import pytest

from bot.cli import main
from graph.evaluation import EASY, HARD, Evaluation, evaluate, library_of
from retrieval.sources import load_sources
from tests.test_critic_eval_hard import BANK, write_sources

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = {
    "structured": (ROOT / "data" / "knowledge_base.jsonl", ROOT / "data" / "question_bank.xlsx"),
    "prose": (
        ROOT / "data" / "prose" / "knowledge_base.jsonl",
        ROOT / "data" / "prose" / "question_bank.xlsx",
    ),
}


def _evaluated(name: str) -> Evaluation:
    sources = load_sources(*BUNDLED[name])
    return evaluate(sources, library_of(sources.slices))


# The targets are hard ≥ 90%, easy ≥ 98%, false rejections ≤ 2%, unknown ≤ 10% (`critic-eval` and
# `make bench` print them with pass/FAIL). Grounding's recall on paraphrased past papers does not reach them
# yet (2026-11-24, after options compared with one another, judge statements denied by their closest
# sentence and restated options named as one: hard 68.9% / 57.4%, unknown 55.2% / 64.2%;
# `scripts/unknown_keys.py` sorts the unknown keys by cause),
# so these tests hold the measured level as a floor: a change that loses verification power fails here.
FLOORS = {
    "structured": {"hard": 0.68, "easy": 0.98, "false_rejections": 0.02, "unknown": 0.56},
    "prose": {"hard": 0.56, "easy": 0.98, "false_rejections": 0.02, "unknown": 0.65},
}


def _assert_holds_floor(result: Evaluation, floor: dict[str, float]) -> None:
    assert result.bank_size >= 200
    assert all(t.total > 0 for t in result.hard.values()), "every hard defect kind is exercised"
    assert sum(t.total for t in result.hard.values()) >= 200
    figures = {
        "hard": f"{result.hard_rate:.1%} "
        + ", ".join(f"{k} {t.caught}/{t.total}" for k, t in result.hard.items()),
        "easy": f"{result.easy_rate:.1%}",
        "false_rejections": f"{result.false_rejection_rate:.1%} {result.top_reasons()}",
        "unknown": f"{len(result.unknown)} of {result.accepted} accepted keys unverified",
    }
    unknown_rate = len(result.unknown) / result.accepted
    below = {
        "hard": result.hard_rate < floor["hard"],
        "easy": result.easy_rate < floor["easy"],
        "false_rejections": result.false_rejection_rate > floor["false_rejections"],
        "unknown": unknown_rate > floor["unknown"],
    }
    assert not any(below.values()), {name: figures[name] for name, bad in below.items() if bad}


@pytest.mark.parametrize("name", list(BUNDLED))
def test_the_bundled_bank_holds_the_measured_level(name: str) -> None:
    _assert_holds_floor(_evaluated(name), FLOORS[name])


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """The command through the command line's own entry point, in this process: a subprocess spent over a
    second of CPU importing the same code again for each call, and start-up is tested in test_startup."""
    command = ["critic-eval", *args]
    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.dict(os.environ, {"EXAMFORGE_DATA_FACTS_CACHE": str(cache)}),
        redirect_stdout(out),
        redirect_stderr(err),
    ):
        status = main(command)
    return subprocess.CompletedProcess(command, status, out.getvalue(), err.getvalue())


def test_a_users_bank_is_checked_against_their_own_knowledge_base(tmp_path: Path) -> None:
    """The real command: --kb is the grounding source, --json carries the per-kind table, the
    text output is a readable table with the targets."""
    kb, bank = write_sources(tmp_path, BANK)
    done = _cli("--bank", str(bank), "--kb", str(kb), "--json", cache=tmp_path / "facts")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["bank_size"] == len(BANK) and report["false_rejections"] == 0
    assert set(report["hard"]) == set(HARD) and set(report["easy"]) == set(EASY)
    assert report["hard"]["key_moved_with_explanation"]["total"] == len(BANK)
    assert report["hard"]["key_moved_with_explanation"]["caught"] >= 3
    assert 0 <= report["unknown_rate"] <= 1

    text = _cli("--bank", str(bank), "--kb", str(kb), cache=tmp_path / "facts")
    assert text.returncode == 0, text.stderr
    assert "key_moved_with_explanation" in text.stdout and "target ≥ 90%" in text.stdout
    assert "unknown keys:" in text.stdout and "false rejections: 0" in text.stdout

    other_kb = tmp_path / "other.jsonl"
    other_kb.write_text(
        json.dumps(
            {"完整路径": "第一篇 其他 > 第一章 其他", "掌握程度": "了解", "核心内容": "本章只讲历史沿革。"}
        ),
        encoding="utf-8",
    )
    unrelated = json.loads(
        _cli("--bank", str(bank), "--kb", str(other_kb), "--json", cache=tmp_path / "f").stdout
    )
    assert (
        unrelated["hard"]["key_moved_with_explanation"]["caught"]
        < report["hard"]["key_moved_with_explanation"]["caught"]
    )


def test_a_bank_question_whose_conclusion_contradicts_its_key_is_rejected(tmp_path: Path) -> None:
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
    ]
    bank = tmp_path / "own.jsonl"
    bank.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    kb, _ = write_sources(tmp_path, [])
    done = _cli("--bank", str(bank), "--kb", str(kb), "--json", cache=tmp_path / "facts")
    report = json.loads(done.stdout)
    assert report["bank_size"] == 1 and report["false_rejections"] == 1
    assert "结论为B" in report["rejected"][0]["reason"]
    assert report["top_reasons"] == [{"reason": report["top_reasons"][0]["reason"], "count": 1}]
