"""错题重练: every missed question goes on a spaced-repetition schedule per learner, scheduled by FSRS.

Why FSRS (the `fsrs` package) rather than Leitner boxes: it is maintained, has no dependencies of its own,
its state is a small JSON-able card, and it spaces a question by how well this learner holds it rather than
by a fixed box ladder. Its defaults are tuned for flashcard decks reviewed several times a day; an exam
learner opens the bot once or twice a day, so the steps are set here:

- a miss (the first one, or a lapse later) brings the question back after 10 minutes — still in the same
  sitting, while the explanation is fresh; answered right then, it comes back the next day (second learning
  step), and from there FSRS spaces it out (days, then weeks) at 90 % predicted recall;
- fuzzing is off, so the same answers give the same dates (tests, and a learner comparing notes).

Ratings: a correct answer is "Good", a wrong one "Again"; poll answers carry no "hard"/"easy".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler

from storage import Store
from storage.attempts import Attempt
from storage.questions import QuestionVersion
from storage.reviews import Reschedule, Review

LEARNING_STEPS = (timedelta(minutes=10), timedelta(days=1))
RELEARNING_STEPS = (timedelta(minutes=10),)
DESIRED_RETENTION = 0.9
# At most this many due questions are served in one /review round.
ROUND_SIZE = 10

_SCHEDULER = Scheduler(
    desired_retention=DESIRED_RETENTION,
    learning_steps=LEARNING_STEPS,
    relearning_steps=RELEARNING_STEPS,
    enable_fuzzing=False,
)


@dataclass(frozen=True)
class DueQuestion:
    """A question to serve in review: `version` is the latest version of what the learner missed (an
    instructor's revision if one was published since); `revised` says it differs from the one missed."""

    review: Review
    version: QuestionVersion

    @property
    def revised(self) -> bool:
        return self.version.id != self.review.missed_version_id


@dataclass(frozen=True)
class ReviewOutlook:
    """What /review says when there is nothing to serve: `next_due_at` None when nothing is scheduled."""

    due: int
    scheduled: int
    next_due_at: float | None


def next_step(current: Review | None, correct: bool, answered_at: float) -> Reschedule | None:
    """The schedule after one answer; None when there is nothing to schedule (a right answer to a question
    never missed)."""
    if current is None and correct:
        return None
    card = Card(card_id=0) if current is None else Card.from_dict(json.loads(current.card))
    when = datetime.fromtimestamp(answered_at, UTC)
    card, _ = _SCHEDULER.review_card(card, Rating.Good if correct else Rating.Again, when)
    return Reschedule(card=json.dumps(card.to_dict()), due_at=card.due.timestamp(), missed=not correct)


async def record_answer(store: Store, attempt: Attempt) -> Review | None:
    """Call after every new answer (`RecordedAttempt.new`): a miss enters or resets the schedule, an answer
    to a scheduled question reschedules it. The learner's schedule row, or None if the question is not on
    it."""
    return await store.reviews.reschedule(
        attempt.user_id,
        attempt.version_id,
        lambda current: next_step(current, attempt.correct, attempt.answered_at),
    )


async def due_questions(store: Store, user_id: int, limit: int = ROUND_SIZE) -> list[DueQuestion]:
    """The questions due now, longest overdue first, each as the version to serve."""
    due = []
    for review in await store.reviews.due(user_id, store.db.now(), limit):
        latest = await store.questions.latest(review.question_id)
        if latest is not None:
            due.append(DueQuestion(review, latest))
    return due


async def outlook(store: Store, user_id: int) -> ReviewOutlook:
    return ReviewOutlook(
        due=await store.reviews.due_count(user_id, store.db.now()),
        scheduled=await store.reviews.scheduled_count(user_id),
        next_due_at=await store.reviews.next_due_at(user_id),
    )
