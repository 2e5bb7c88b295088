"""Configuration: file choice, environment overrides, clear errors, paths relative to the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from settings import SettingsError, load_settings


def write_config(folder: Path, body: str = "") -> Path:
    path = folder / "custom.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_defaults_and_relative_paths_resolve_against_the_config_folder(tmp_path: Path):
    path = write_config(tmp_path, '[data]\nknowledge_base = "mine/kb.jsonl"\n')
    settings = load_settings(path, environ={})
    assert settings.data.knowledge_base == tmp_path / "mine" / "kb.jsonl"
    assert settings.llm.provider == "offline" and settings.retrieval.few_shot_k == 3
    assert settings.graph.max_critic_failures == 3 and settings.graph.max_reroutes == 2


def test_environment_overrides_any_setting(tmp_path: Path):
    path = write_config(tmp_path)
    environ = {
        "EXAMFORGE_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "EXAMFORGE_TELEGRAM_INSTRUCTORS": "[11, 12]",
        "EXAMFORGE_RETRIEVAL_MASTERY_WEIGHTS": '{"掌握": 5, "熟悉": 1, "了解": 0}',
        "EXAMFORGE_GRAPH_MAX_REROUTES": "4",
    }
    settings = load_settings(path, environ=environ)
    assert settings.llm.base_url == "http://127.0.0.1:9/v1"
    assert settings.telegram.instructors == [11, 12]
    assert settings.retrieval.mastery_weights == {"掌握": 5, "熟悉": 1, "了解": 0}
    assert settings.graph.max_reroutes == 4


def test_examforge_config_chooses_the_file(tmp_path: Path):
    path = write_config(tmp_path, '[locale]\ndefault = "en"\n')
    assert load_settings(environ={"EXAMFORGE_CONFIG": str(path)}).locale.default == "en"


@pytest.mark.parametrize(
    ("body", "environ", "message"),
    [
        ("", {"EXAMFORGE_LLM_TIMEOUT": "soon"}, "setting llm.timeout"),
        ("", {"EXAMFORGE_LLM_COLOUR": "blue"}, "EXAMFORGE_LLM_COLOUR: [llm] has no setting 'colour'"),
        ("", {"EXAMFORGE_NOPE_X": "1"}, "EXAMFORGE_NOPE_X: no section matches"),
        ('[telegram]\nmode = "carrier-pigeon"\n', {}, "setting telegram.mode"),
        ("", {"EXAMFORGE_TELEGRAM_RATE_LIMIT": "-1"}, "setting telegram.rate_limit"),
        ("[graph\n", {}, "not valid TOML"),
        ('[retrieval]\nmastery_weights = { "精通" = 1 }\n', {}, "unknown mastery level"),
    ],
)
def test_a_wrong_value_names_the_setting(tmp_path: Path, body: str, environ: dict, message: str):
    with pytest.raises(SettingsError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_settings(write_config(tmp_path, body), environ=environ)


def test_config_option_works_before_and_after_the_command(tmp_path: Path, capsys):
    missing = tmp_path / "absent.toml"
    assert main(["--config", str(missing), "data", "check"]) == 2
    assert main(["data", "check", "--config", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err
