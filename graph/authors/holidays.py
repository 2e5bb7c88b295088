"""The public holidays of the State Council's yearly notices, so a case never lets a time limit end on one.

A period whose last day is a rest day or public holiday runs on to the next working day (民法典第二百零三条),
so a by-when key is only beyond dispute when its last day is a plain working day. The holiday dates move
every year (the lunar festivals, the bridging days), hence the table, from 国务院办公厅关于2024年、2025年、
2026年部分节假日安排的通知. A year the table lacks has no plain working day: a case then picks another date
rather than guess a schedule not yet published.
"""

from __future__ import annotations

import datetime as dt

_D = dt.date
# Each year's days off, first and last day inclusive, as the notice lists them.
_OFF: dict[int, tuple[tuple[dt.date, dt.date], ...]] = {
    2024: (
        (_D(2024, 1, 1), _D(2024, 1, 1)),
        (_D(2024, 2, 10), _D(2024, 2, 17)),
        (_D(2024, 4, 4), _D(2024, 4, 6)),
        (_D(2024, 5, 1), _D(2024, 5, 5)),
        (_D(2024, 6, 10), _D(2024, 6, 10)),
        (_D(2024, 9, 15), _D(2024, 9, 17)),
        (_D(2024, 10, 1), _D(2024, 10, 7)),
    ),
    2025: (
        (_D(2025, 1, 1), _D(2025, 1, 1)),
        (_D(2025, 1, 28), _D(2025, 2, 4)),
        (_D(2025, 4, 4), _D(2025, 4, 6)),
        (_D(2025, 5, 1), _D(2025, 5, 5)),
        (_D(2025, 5, 31), _D(2025, 6, 2)),
        (_D(2025, 10, 1), _D(2025, 10, 8)),
    ),
    2026: (
        (_D(2026, 1, 1), _D(2026, 1, 3)),
        (_D(2026, 2, 15), _D(2026, 2, 23)),
        (_D(2026, 4, 4), _D(2026, 4, 6)),
        (_D(2026, 5, 1), _D(2026, 5, 5)),
        (_D(2026, 6, 19), _D(2026, 6, 21)),
        (_D(2026, 9, 25), _D(2026, 9, 27)),
        (_D(2026, 10, 1), _D(2026, 10, 7)),
    ),
}
YEARS = tuple(sorted(_OFF))
WEEKDAYS = "一二三四五六日"


def plain_working_day(day: dt.date) -> bool:
    """True for a Monday to Friday that is no public holiday of a year the table holds: a period ending then
    ends on that very day. Weekend days worked in exchange for a holiday are left out on purpose, as a
    learner could not tell them from rest days."""
    if day.year not in _OFF or day.weekday() >= 5:
        return False
    return not any(first <= day <= last for first, last in _OFF[day.year])


def weekday(day: dt.date) -> str:
    """ "星期三", as an explanation names the day it checked."""
    return f"星期{WEEKDAYS[day.weekday()]}"
