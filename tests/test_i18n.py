"""Both interface catalogues say the same things: same keys, same placeholders."""

import re
import string

from engines.i18n import LOCALES, catalogue, text


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_catalogues_define_the_same_keys_and_placeholders():
    zh, en = (catalogue(locale) for locale in LOCALES)
    assert set(zh) == set(en)
    for key in zh:
        assert _fields(zh[key]) == _fields(en[key]), key


def test_english_strings_are_english():
    assert not any(re.search(r"[\u4e00-\u9fff]{3,}", value) for value in catalogue("en").values())
    assert text("en", "session_finished", right=3, total=5) == "Session finished: 3/5 correct."


def test_english_names_a_private_practice_a_session_and_a_timed_quiz_a_round():
    """One name per concept, as the README and the code use them; "series" was a third name for a round."""
    en = catalogue("en")
    assert not [key for key, value in en.items() if re.search(r"\bseries\b", value, re.IGNORECASE)]
    private = ("session_finished", "again", "stopped", "no_active_session", "session_running", "session_kept")
    for key in (*private, "repeat_started"):
        assert "session" in en[key].lower() and "round" not in en[key].lower(), key
    assert "round" in en["round_channel_finished"] and "round" in en["post_first"]
