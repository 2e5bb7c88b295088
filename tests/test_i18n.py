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
    assert text("en", "session_finished", right=3, total=5) == "Round finished: 3/5 correct."
