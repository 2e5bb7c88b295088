"""The rules of a learner's private session that need no Telegram: which question type a place gets, the
generation thread of a place, and the results card that ends a session."""

from __future__ import annotations

from engines.i18n import text
from storage.attempts import Attempt
from storage.deliveries import Delivery
from storage.quiz_settings import QuizSettings

MIXED_ORDER = ("single", "judge", "multi")


def question_type(settings: QuizSettings, position: int) -> str:
    return MIXED_ORDER[(position - 1) % len(MIXED_ORDER)] if settings.qtype == "mixed" else settings.qtype


def question_key(session_id: int, position: int) -> str:
    """One generation thread per place of a session, so a restart finds the question it was writing."""
    return f"s{session_id}q{position}"


def results_card(locale: str, deliveries: list[Delivery], attempts: list[Attempt], asked: int) -> str:
    """Every question sent, right or wrong with the time the learner took, then the score: the learner sees
    at a glance which ones to look at again. `attempts` are the session learner's own (`for_session`)."""
    answers = {a.delivery_id: a for a in attempts}
    lines = []
    for delivery in sorted(deliveries, key=lambda d: (d.position or 0, d.id)):
        attempt = answers.get(delivery.id)
        if attempt is None:
            lines.append(text(locale, "results_unanswered", number=delivery.position))
        else:
            key = "results_right" if attempt.correct else "results_wrong"
            lines.append(text(locale, key, number=delivery.position, seconds=round(attempt.seconds)))
    right = sum(a.correct for a in attempts)
    lines.append(text(locale, "session_finished", right=right, total=asked))
    return "\n".join(lines)
