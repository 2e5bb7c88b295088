"""Prometheus metrics of one bot process, on a registry of its own so several bots (tests) never clash."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.updates = Counter(
            "examforge_updates_handled", "Telegram updates handled", registry=self.registry
        )
        self.questions = Counter(
            "examforge_questions_generated",
            "Generations finished, by outcome",
            ["outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "examforge_generation_seconds",
            "Wall time of one generation (router to done)",
            buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120),
            registry=self.registry,
        )
        self.model_calls = Counter(
            "examforge_model_calls", "Calls to the language model", registry=self.registry
        )
        self.errors = Counter(
            "examforge_errors", "Errors raised while handling updates", registry=self.registry
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)
