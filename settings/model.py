"""One pydantic model per config.toml section.

Defaults here equal the documented defaults in config.toml, so a missing key never changes behaviour.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class DataSettings(_Section):
    knowledge_base: Path = Path("data/knowledge_base.jsonl")
    question_bank: Path = Path("data/question_bank.xlsx")
    facts_cache: Path = Path("var/facts")
    max_stem: int = Field(1000, ge=1)


class RetrievalSettings(_Section):
    few_shot_k: int = Field(3, ge=1, le=10)
    duplicate_threshold: float = Field(0.9, gt=0, le=1)
    tokenizer: Literal["jieba", "char_ngram"] = "char_ngram"
    mastery_weights: dict[str, float] = Field(default_factory=lambda: {"掌握": 6.0, "熟悉": 3.0, "了解": 1.0})

    @field_validator("mastery_weights")
    @classmethod
    def _weights_known(cls, value: dict[str, float]) -> dict[str, float]:
        unknown = set(value) - {"掌握", "熟悉", "了解"}
        if unknown:
            raise ValueError(f"unknown mastery level(s) {sorted(unknown)}; expected 掌握, 熟悉, 了解")
        if any(w < 0 for w in value.values()):
            raise ValueError("weights must be >= 0")
        return value


class LocaleSettings(_Section):
    default: Literal["zh", "en"] = "zh"


class LLMSettings(_Section):
    provider: Literal["offline", "openai"] = "offline"
    base_url: str = "https://api.openai.com/v1"
    model: str = "gpt-4o-mini"
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = Field(0.4, ge=0, le=2)
    timeout: float = Field(60.0, gt=0)
    max_retries: int = Field(2, ge=0, le=10)
    parse_retries: int = Field(2, ge=0, le=10)
    structured_output: Literal["function_calling", "json_mode", "json_schema"] = "function_calling"
    max_concurrency: int = Field(8, ge=1, le=256)


class GraphSettings(_Section):
    max_critic_failures: int = Field(3, ge=1, le=20)
    max_reroutes: int = Field(2, ge=0, le=20)
    checkpoint_db: Path = Path("var/checkpoints.sqlite")
    # Seeds reach libraries that take at most 64 bits: a longer one would pass here and fail mid-generation.
    seed: int = Field(0, ge=0, le=2**64 - 1)
    workers: int = Field(0, ge=0, le=32)


class StorageSettings(_Section):
    database: Path = Path("var/examforge.sqlite")
    synchronous: Literal["full", "normal"] = "full"


class TelegramSettings(_Section):
    mode: Literal["polling", "webhook"] = "polling"
    base_url: str = "https://api.telegram.org/bot"
    token_env: str = "TELEGRAM_BOT_TOKEN"
    webhook_url: str = ""
    listen: str = "127.0.0.1"
    port: int = Field(8080, ge=1, le=65535)
    secret_env: str = "TELEGRAM_WEBHOOK_SECRET"
    # /metrics on a listener of its own (an internal address Prometheus reaches, the webhook port public);
    # 0 serves it beside the webhook as before.
    metrics_listen: str = "127.0.0.1"
    metrics_port: int = Field(0, ge=0, le=65535)
    instructors: list[int] = Field(default_factory=list)
    revision_limit: int = Field(3, ge=1, le=50)
    comment_timeout: int = Field(120, ge=5, le=3600)
    status_after: float = Field(1.0, ge=0, le=60)
    rate_limit: float = Field(30.0, ge=0, le=1000)


class Settings(_Section):
    data: DataSettings = Field(default_factory=DataSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    locale: LocaleSettings = Field(default_factory=LocaleSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    graph: GraphSettings = Field(default_factory=GraphSettings)
    storage: StorageSettings = Field(default_factory=StorageSettings)
    telegram: TelegramSettings = Field(default_factory=TelegramSettings)
    root: Path = Path(".")
