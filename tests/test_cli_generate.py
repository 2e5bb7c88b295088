"""`python -m bot generate` and `python -m bot run` from the command line."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.cli import main
from testkit.fakes.corpus import DEED_TAX_ARGS, write_corpus
from testkit.fakes.exam_model import ExamModel
from testkit.fakes.openai_server import FakeOpenAI

ROOT = Path(__file__).resolve().parent.parent
KEY_ENV = "FAKE_MODEL_API_KEY"  # not EXAMFORGE_…: that prefix overrides settings


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


@pytest.mark.parametrize("seed", ["18446744073709551616", "-1", "abc"])
def test_a_seed_out_of_range_is_a_usage_line_not_a_traceback(tmp_path: Path, capsys, seed: str):
    with pytest.raises(SystemExit) as exit_:
        main(["--config", config_in(tmp_path), "generate", "--seed", seed])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--seed" in err and "Traceback" not in err


def test_run_without_a_token_says_which_variable_to_set(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    assert main(["--config", config_in(tmp_path), "run"]) == 2
    assert "TELEGRAM_BOT_TOKEN" in capsys.readouterr().err


def _generate_command(config: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "bot", "--config", config, "generate", "--count", "3", *extra]


def _threads(lines: list[str]) -> list[str]:
    return [json.loads(line)["thread_id"] for line in lines]


def _steps_saved(database: Path, thread_id: str) -> int:
    with closing(sqlite3.connect(database)) as connection:
        try:
            row = connection.execute(
                "SELECT count(*) FROM checkpoints WHERE thread_id = ?", (thread_id,)
            ).fetchone()
        except sqlite3.OperationalError:  # the schema is not written yet
            return 0
    return row[0]


def test_json_lines_arrive_while_the_batch_is_still_being_written(tmp_path: Path):
    command = _generate_command(config_in(tmp_path), "--jsonl", "--count", "20")
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT) as child:
        first = json.loads(child.stdout.readline())
        still_running = child.poll() is None
        child.kill()
    assert first["thread_id"].startswith("0/") and first["stem"]
    assert still_running, "the first question arrived only when the whole batch was done"


async def test_a_killed_run_keeps_its_lines_and_a_resumed_one_finishes_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Killed while the model writes question 2: the rerun finishes 2 from its checkpoint and writes 3,
    and question 1 is neither written again nor printed again."""
    monkeypatch.setenv(KEY_ENV, "sk-examforge-resume-test")
    kb, bank = write_corpus(tmp_path / "data")
    database = tmp_path / "cp.sqlite"
    config = tmp_path / "config.toml"
    async with FakeOpenAI(ExamModel(calculators={"deed_tax": DEED_TAX_ARGS}), latency=0.4) as fake:
        config.write_text(
            f'[data]\nknowledge_base = "{kb}"\nquestion_bank = "{bank}"\n'
            f'[llm]\nprovider = "openai"\nbase_url = "{fake.base_url}"\napi_key_env = "{KEY_ENV}"\n'
            f'[graph]\ncheckpoint_db = "{database}"\n',
            encoding="utf-8",
        )
        command = _generate_command(str(config), "--jsonl", "--resume", "batch")
        with (tmp_path / "stderr").open("wb") as errors:
            child = await asyncio.create_subprocess_exec(
                *command, stdout=asyncio.subprocess.PIPE, stderr=errors, cwd=ROOT
            )
            printed = [(await asyncio.wait_for(child.stdout.readline(), 60)).decode()]
            # Kill once the input, start and router steps of question 2 are saved: its draft is under way.
            for _ in range(3000):
                if _steps_saved(database, "0/batch-2") >= 3:
                    break
                await asyncio.sleep(0.01)
            assert child.returncode is None, (tmp_path / "stderr").read_text()
            child.kill()
            await child.wait()
        rerun = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, cwd=ROOT
        )
        out, _ = await asyncio.wait_for(rerun.communicate(), 120)
    assert _threads(printed) == ["0/batch-1"] and json.loads(printed[0])["outcome"] == "passed"
    lines = out.decode().splitlines()
    assert _threads(lines) == ["0/batch-2", "0/batch-3"]
    assert all(json.loads(line)["outcome"] == "passed" for line in lines)
    resumed = [step["node"] for step in json.loads(lines[0])["trace"]]
    assert resumed.count("router") == 1, f"question 2 was started again instead of resumed: {resumed}"
