"""A case told with the day something was bought and the day it was sold reads, for the textbook, as the
time it was held: "2024年3月18日购买一套住房，2026年1月10日将其出售" is a home held 1.81 years, which is what
a rule's bound ("购买2年以上（含2年）的住房") speaks of. Whole months count, as a holding period is reckoned
from the purchase day to the same day of a later month; a case telling the deed tax paid and the certificate
issued on two days is held from the earlier, as the tax rules count it."""

from __future__ import annotations

import re

_DAY = r"((?:19|20)\d{2})年(\d{1,2})月(\d{1,2})日"
_SELL = "对外销售|上市转让|上市交易|出售|转让|销售"
# A case dates holding from the deed ("缴纳契税并取得一套住房的不动产权证书"), as the tax rules count a
# purchase's holding period: it reads as the purchase.
_DEED = "缴纳契税并取得"
_HELD = re.compile(
    rf"于?{_DAY}，?(?P<who>[^，；。]{{0,8}}?)于?(?P<acquire>购买|购入|购置|{_DEED}|取得)了?一[套处间]"
    rf"(?P<home>[\u4e00-\u9fff]{{1,10}}?)(?:的不动产权证书)?[；，](?:并于|于)?{_DAY}，?(?:他|她)?(?:将其|将这套|将该)?"
    rf"(?P<sell>{_SELL})(?:这套|该)?(?P=home)?"
)


# The deed tax paid and the certificate issued on two days: the textbook counts from the earlier one.
_TWO = re.compile(
    rf"于?{_DAY}，?(?P<who>[^，；。]{{0,8}}?)缴纳契税，于?{_DAY}取得一[套处间](?P<home>[\u4e00-\u9fff]{{1,10}}?)"
    rf"的不动产权证书[；，](?:并于|于)?{_DAY}，?(?:他|她)?(?:将其|将这套|将该)?"
    rf"(?P<sell>{_SELL})(?:这套|该)?(?P=home)?"
)


def _months(y1: str, m1: str, d1: str, y2: str, m2: str, d2: str) -> int:
    return (int(y2) - int(y1)) * 12 + int(m2) - int(m1) - (int(d2) < int(d1))


def held_for(text: str) -> str:
    """`text` with each purchase and sale date pair replaced by the years held between them."""

    def period(match: re.Match[str]) -> str:
        months = _months(*match.group(1, 2, 3), *match.group(7, 8, 9))
        if months < 0:
            return match.group()
        years = f"{months / 12:.2f}".rstrip("0").rstrip(".")
        acquire = "购买" if match["acquire"] == _DEED else match["acquire"]
        return f"{match['who']}{acquire}{years}年的{match['home']}{match['sell']}"

    def earlier(match: re.Match[str]) -> str:
        paid, issued, sold = match.group(1, 2, 3), match.group(5, 6, 7), match.group(9, 10, 11)
        start = min(paid, issued, key=lambda day: tuple(int(part) for part in day))
        months = _months(*start, *sold)
        if months < 0:
            return match.group()
        years = f"{months / 12:.2f}".rstrip("0").rstrip(".")
        return f"{match['who']}购买{years}年的{match['home']}{match['sell']}"

    return _HELD.sub(period, _TWO.sub(earlier, text))
