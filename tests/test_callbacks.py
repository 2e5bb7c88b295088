"""The one callback-data codec: what a button carries is built and read in one place, within the bounds
the handler registrations enforce, so forged or outdated data never reaches a handler half-parsed."""

from __future__ import annotations

import re

import pytest

from vocabulary import callbacks
from vocabulary.kinds import FEEDBACK_REASONS

BUTTONS = [value for value in vars(callbacks).values() if isinstance(value, callbacks.Button)]


def test_what_a_button_carries_reads_back_typed():
    assert callbacks.PREVIEW.parse(callbacks.PREVIEW.build(12, 34, "pub")) == (12, 34, "pub")
    assert callbacks.RETRY.parse(callbacks.RETRY.build(7)) == (7,)
    assert callbacks.AGAIN.parse(callbacks.AGAIN.build()) == ()
    for reason in FEEDBACK_REASONS:
        assert callbacks.REPORT.parse(callbacks.REPORT.build(5, reason)) == (5, reason)


def test_both_settings_dialogues_get_numbers_as_numbers_and_choices_as_words():
    assert callbacks.SETUP.parse(callbacks.setup_step("ab12", "count", 5)) == ("ab12", ("count", 5))
    assert callbacks.SETUP.parse(callbacks.setup_step("ab12", "ch", "calc")) == ("ab12", ("ch", "calc"))
    assert callbacks.ROUND_SETUP.parse(callbacks.setup_step("g9f", "sec", 30)) == ("g9f", ("sec", 30))
    assert callbacks.ROUND_SETUP.parse(callbacks.setup_step("g9f", "type", "mixed")) == (
        "g9f",
        ("type", "mixed"),
    )
    # A round's nonce never opens the private dialogue, nor the other way round.
    assert callbacks.SETUP.parse("qs:g9f:count:5") is None
    assert callbacks.ROUND_SETUP.parse("qs:ab12:count:5") is None


@pytest.mark.parametrize(
    "data",
    [
        "vote:1234567890123456789:up",  # an id of 19 digits is beyond SQLite's integers
        "vote:12:sideways",
        "rp:3:because",  # no such reason
        "qs:ab12:count:five",
        "qs:ab12:type:essay",
        "qs:ab12:count:12345",
        "qs:0123456789abcdef0:count:5",  # a nonce of 17 hex digits
        "rv:1:2",
        "again:1",
        "fix:1:2:3",
        "",
    ],
)
def test_data_out_of_bounds_matches_no_button(data: str):
    assert all(button.parse(data) is None for button in BUTTONS)
    assert all(re.match(button.pattern, data) is None for button in BUTTONS)


def test_a_button_refuses_to_carry_what_it_could_not_read_back():
    with pytest.raises(ValueError, match="does not fit the 'vote' button"):
        callbacks.VOTE.build(3, "sideways")
    with pytest.raises(ValueError, match="does not fit the 'rv' button"):
        callbacks.PREVIEW.build(1, 2)


def test_the_longest_data_fits_telegrams_64_bytes():
    biggest = 10**18 - 1
    for data in [
        callbacks.PREVIEW.build(biggest, biggest, "drop"),
        callbacks.FIX.build(biggest, biggest),
        callbacks.REASON_CHOSEN.build(biggest, "explanation_wrong"),
        callbacks.setup_step("g" + "f" * 16, "mode", "flexible"),
    ]:
        assert len(data.encode()) <= callbacks.MAX_BYTES
