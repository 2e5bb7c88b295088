"""Reading config.toml: file choice, environment overrides and path resolution.

Precedence: `--config PATH` > `EXAMFORGE_CONFIG` > `config.toml` in the project root; then every
`EXAMFORGE_<SECTION>_<KEY>` variable overrides the file. Relative paths resolve against the file's folder,
so a config kept beside its own data works from any working directory.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from settings.errors import SettingsError
from settings.model import Settings

PROJECT_ROOT = Path(__file__).resolve().parent.parent
ENV_PREFIX = "EXAMFORGE_"
# What setWebhook accepts as secret_token; anything else is refused by Telegram only after start-up.
WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


def _sections() -> dict[str, type[BaseModel]]:
    return {
        name: field.annotation
        for name, field in Settings.model_fields.items()
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)
    }


def _parse_env_value(raw: str) -> Any:
    """Environment values are strings; lists and tables may be given as JSON (`[1, 2]`, `{"掌握": 5}`)."""
    stripped = raw.strip()
    if stripped[:1] in "[{":
        try:
            return json.loads(stripped)
        except json.JSONDecodeError:
            return raw
    return raw


def _env_overrides(data: dict[str, Any], environ: Mapping[str, str]) -> list[str]:
    applied = []
    sections = _sections()
    for var, raw in environ.items():
        if not var.startswith(ENV_PREFIX) or var == f"{ENV_PREFIX}CONFIG":
            continue
        rest = var[len(ENV_PREFIX) :].lower()
        section = next((s for s in sorted(sections, key=len, reverse=True) if rest.startswith(s + "_")), None)
        if section is None:
            raise SettingsError(f"{var}: no section matches; sections are {', '.join(sorted(sections))}")
        key = rest[len(section) + 1 :]
        if key not in sections[section].model_fields:
            known = ", ".join(sorted(sections[section].model_fields))
            raise SettingsError(f"{var}: [{section}] has no setting '{key}'; known: {known}")
        data.setdefault(section, {})[key] = _parse_env_value(raw)
        applied.append(var)
    return applied


def _describe(error: ValidationError, origin: str) -> str:
    lines = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"])
        given = item.get("input")
        shown = "" if isinstance(given, dict) else f" (got {given!r})"
        lines.append(f"{origin}: setting {where}: {item['msg']}{shown}")
    return "\n".join(lines)


def _resolve_paths(model: BaseModel, base: Path) -> None:
    for name, value in model:
        if isinstance(value, BaseModel):
            _resolve_paths(value, base)
        elif isinstance(value, Path) and not value.is_absolute():
            setattr(model, name, (base / value).resolve())


def load_settings(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    environ = os.environ if environ is None else environ
    chosen = path or environ.get(f"{ENV_PREFIX}CONFIG")
    config_path = Path(chosen) if chosen else PROJECT_ROOT / "config.toml"
    if not config_path.is_file():
        raise SettingsError(f"config file not found: {config_path}")
    try:
        data = tomllib.loads(config_path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{config_path}: not valid TOML: {exc}") from exc
    overridden = _env_overrides(data, environ)
    try:
        settings = Settings.model_validate(data)
    except ValidationError as exc:
        origin = f"{config_path} (with {', '.join(overridden)})" if overridden else str(config_path)
        raise SettingsError(_describe(exc, origin)) from None
    _check_webhook_secret(settings, environ)
    base = config_path.resolve().parent
    settings.root = base
    _resolve_paths(settings, base)
    return settings


def _check_webhook_secret(settings: Settings, environ: Mapping[str, str]) -> None:
    """The secret's value is never quoted back: it would land in logs and terminals."""
    telegram = settings.telegram
    secret = environ.get(telegram.secret_env, "")
    if telegram.mode == "webhook" and secret and not WEBHOOK_SECRET.fullmatch(secret):
        raise SettingsError(
            f"${telegram.secret_env}: Telegram accepts only 1-256 characters of A-Z a-z 0-9 _ - "
            "as a webhook secret; make a new one, e.g. with `openssl rand -hex 32`"
        )
