"""The closed sets of choices, each declared once: a Literal for type checkers and the tuple of its values
for menus, validation and argument parsers, derived from the Literal so the two cannot drift."""

from __future__ import annotations

from typing import Literal, get_args

QuestionType = Literal["single", "multi", "judge"]
QUESTION_TYPES: tuple[QuestionType, ...] = get_args(QuestionType)

# What a learner may ask for: one type, or the three in turn.
QuizType = Literal[QuestionType, "mixed"]
QUIZ_TYPES: tuple[QuizType, ...] = get_args(QuizType)
# A private session may instead be one 案例题: a situation, then a poll per sub-question.
SessionType = Literal[QuizType, "case"]
SESSION_TYPES: tuple[SessionType, ...] = (*QUIZ_TYPES, "case")

Mode = Literal["strict", "flexible"]
MODES: tuple[Mode, ...] = get_args(Mode)

# The quick reasons under a 👎, the same for a learner's report and an instructor's revision, so a report
# can be handed to a revision as it is.
FeedbackReason = Literal[
    "answer_wrong", "explanation_wrong", "stem_unclear", "options_wrong", "out_of_scope", "other"
]
FEEDBACK_REASONS: tuple[FeedbackReason, ...] = get_args(FeedbackReason)

# Where a learner's questions come from: written by the loop, or the bank's past exam questions (真题).
Source = Literal["generated", "past_papers"]
SOURCES: tuple[Source, ...] = get_args(Source)

# Where a private session's questions come from: a learner's source, or their due 错题 (/review).
QuestionSource = Literal[Source, "review"]
QUESTION_SOURCES: tuple[QuestionSource, ...] = (*SOURCES, "review")

# A difficulty a learner may aim at; None (不限) is any.
Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)

# The bands on the authors' 0 (easy) to 1 (hard) scale; progress.difficulty explains the cut-offs. They sit
# here so an author can aim at a band as well as the statistics can judge one.
EASY_AT_MOST = 0.3
HARD_ABOVE = 0.6


def level_of(value: float) -> Difficulty:
    if value <= EASY_AT_MOST:
        return "easy"
    return "hard" if value > HARD_ABOVE else "medium"
