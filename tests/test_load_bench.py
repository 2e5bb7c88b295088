"""The load benchmark's ideal round: what a learner would wait for with an infinitely fast bot."""

from __future__ import annotations

import pytest

from bench.bot_load import Played, ideal_end


def test_pauses_longer_than_the_model_hide_the_questions_written_meanwhile() -> None:
    learner = Played(user_id=1, joined=2.0, tapped=4.0, pauses=[10.0, 10.0, 10.0])
    # Only the first question is waited for: the next ones are written while the learner thinks.
    assert ideal_end(learner, [2, 3, 2]) == pytest.approx(2.0 + 4.0 + 0.6 + 30.0)


def test_without_pauses_every_question_is_waited_for_in_full() -> None:
    learner = Played(user_id=1, pauses=[0.0, 0.0, 0.0])
    assert ideal_end(learner, [2, 3, 2]) == pytest.approx(0.6 + 0.9 + 0.6)


def test_a_short_pause_hides_only_part_of_the_next_question() -> None:
    learner = Played(user_id=1, pauses=[0.5, 0.1, 0.0])
    assert ideal_end(learner, [2, 3, 3]) == pytest.approx(0.6 + 0.6 + (0.9 - 0.5) + (0.9 - 0.1))
